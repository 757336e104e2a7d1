package coerce_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/internal/golden"
	"github.com/colexpr/colexpr/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testSchema is the root dtype of the golden tests; trees print it as
// {schema}.
const testSchema = `struct<a: i32, b: i64, c: i32?, ua: u8, ub: u16, uc: u64, ia: i8, ` +
	`fa: f16, fb: f32, f: f64, d: decimal(10,2), d2: decimal(5,1), s: utf8, s2: utf8?, bin: binary, ` +
	`ok: bool, ok2: bool?, dt: date, ts: timestamp(us), xs: list<i32>, ys: list<i64?>?, ` +
	`fx: fixed_size_list<i32, 3>, st: struct<x: i32, y: utf8?>, n: null, iv: interval>`

func mustType(t testing.TB, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("dtype %q: %v", s, err)
	}
	return d
}

// coerceOutput is what a golden file records for one input: the canonical
// text before and after coercion and the bound tree with a dtype on every
// node, or the error.
func coerceOutput(t *testing.T, root dtype.DType, c golden.Case) string {
	scope := expr.ScopeOf(root)
	if len(c.Vars) > 0 {
		names := make([]string, len(c.Vars))
		types := make([]dtype.DType, len(c.Vars))
		for i, v := range c.Vars {
			name, typ, ok := strings.Cut(v, ": ")
			if !ok {
				t.Fatalf("bad var line %q", v)
			}
			names[i], types[i] = name, mustType(t, typ)
		}
		scope = scope.Push(names, types)
	}
	e, err := parse.Parse(c.Src)
	if err != nil {
		t.Fatalf("%s: %v", c.Src, err)
	}
	var b strings.Builder
	b.WriteString("before: " + expr.Format(e) + "\n")
	out, err := coerce.Coerce(e, scope)
	if err != nil {
		b.WriteString("error: " + err.Error())
		return b.String()
	}
	bound, err := coerce.Bind(e, scope)
	if err != nil {
		t.Fatalf("%s: Coerce succeeded but Bind failed: %v", c.Src, err)
	}
	again, err := expr.Bind(out, scope)
	if err != nil {
		t.Fatalf("%s: the coerced tree %s does not bind: %v", c.Src, out, err)
	}
	if !again.Equal(bound) {
		t.Fatalf("%s: coerce.Bind gave\n%s\nbinding the coerced tree gave\n%s", c.Src, bound.Tree(), again.Tree())
	}
	// Coercion is idempotent: the coerced tree comes back as it is.
	if twice, err := coerce.Coerce(out, scope); err != nil || twice != out {
		t.Errorf("%s: coercing %s again gave %v, %v; want the same tree", c.Src, out, twice, err)
	}
	b.WriteString("after:  " + expr.Format(out) + "\n")
	b.WriteString(strings.TrimRight(strings.ReplaceAll(bound.Tree(), root.String(), "{schema}"), "\n"))
	return b.String()
}

// TestGolden coerces every input of testdata/*.txt against testSchema and
// compares the output with the file. Rewrite the files with -update.
func TestGolden(t *testing.T) {
	root := mustType(t, testSchema)
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g := golden.Read(t, path)
			got := make([]string, len(g.Cases))
			for i, c := range g.Cases {
				got[i] = coerceOutput(t, root, c)
				if !*update && got[i] != c.Want {
					t.Errorf("> %s\ngot:\n%s\nwant:\n%s", c.Src, got[i], c.Want)
				}
			}
			if *update {
				g.Write(t, path, got)
			}
		})
	}
}
