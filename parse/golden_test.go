package parse_test

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// A golden file is a list of cases, each an input line starting with "> "
// and the expected output lines after it, up to a blank line. Comment lines
// starting with "#" before a case are kept when the file is rewritten.
//
//	# a comment
//	> a + 1
//	a + 1
//	add :: i32
//	…
type goldenCase struct {
	comments []string
	input    string
	want     string
	line     int // line number of the input, for messages
}

func readGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	var comments []string
	var cur *goldenCase
	var out []string
	flush := func() {
		if cur != nil {
			cur.want = strings.Join(out, "\n")
			cases = append(cases, *cur)
			cur, out = nil, nil
		}
	}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			flush()
			cur = &goldenCase{comments: comments, input: line[2:], line: i + 1}
			comments = nil
		case line == "":
			flush()
		case cur != nil:
			out = append(out, line)
		case strings.HasPrefix(line, "#"):
			comments = append(comments, line)
		default:
			t.Fatalf("%s:%d: expected a comment or a case starting with \"> \", found %q", path, i+1, line)
		}
	}
	flush()
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// checkGolden runs run on every case of the file and compares, or rewrites
// the file with -update.
func checkGolden(t *testing.T, path string, run func(input string) string) {
	t.Helper()
	cases := readGolden(t, path)
	var b strings.Builder
	for i, c := range cases {
		got := strings.TrimRight(run(c.input), "\n")
		if strings.Contains(got, "\n\n") {
			t.Fatalf("%s:%d: output has a blank line, which the golden format cannot hold:\n%s", path, c.line, got)
		}
		if !*update && got != c.want {
			t.Errorf("%s:%d: > %s\ngot:\n%s\nwant:\n%s", path, c.line, c.input, got, c.want)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, cm := range c.comments {
			b.WriteString(cm + "\n")
		}
		b.WriteString("> " + c.input + "\n" + got + "\n")
	}
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
