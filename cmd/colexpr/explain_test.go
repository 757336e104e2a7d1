package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestExplainLongChain explains chains of 20 000 terms. Each rewrite of the
// trace used to print its trees whole, so the output grew with the square
// of the chain (500 MB for 10 000 ORs); now long trees are abbreviated with
// a count of what was left out, and the output stays small.
func TestExplainLongChain(t *testing.T) {
	const n = 20_000
	for _, tt := range []struct{ name, src string }{
		{"or", strings.Repeat("l_tax = 1 OR ", n-1) + "l_tax = 1"},
		{"or of distinct values", func() string {
			var b strings.Builder
			for i := range n {
				if i > 0 {
					b.WriteString(" OR ")
				}
				b.WriteString("l_orderkey = ")
				b.WriteString(strings.Repeat("1", 1+i%5))
			}
			return b.String()
		}()},
		{"sum", "l_orderkey" + strings.Repeat(" + 1", n)},
		{"concat", "l_comment" + strings.Repeat(" || 'x'", n)},
	} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"explain", tt.src}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, stderr.String())
		}
		out := stdout.String()
		if len(out) > 200_000 {
			t.Errorf("%s: %d bytes of output for %d bytes of input", tt.name, len(out), len(tt.src))
		}
		if !strings.Contains(out, "left out") {
			t.Errorf("%s: nothing abbreviated:\n%.2000s", tt.name, out)
		}
	}
}
