package coerce_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testSchema is the root dtype of the golden tests; trees print it as
// {schema}.
const testSchema = `struct<a: i32, b: i64, c: i32?, ua: u8, ub: u16, uc: u64, ia: i8, ` +
	`fa: f16, fb: f32, f: f64, d: decimal(10,2), d2: decimal(5,1), s: utf8, s2: utf8?, bin: binary, ` +
	`ok: bool, ok2: bool?, dt: date, ts: timestamp(us), xs: list<i32>, ys: list<i64?>?, ` +
	`fx: fixed_size_list<i32, 3>, st: struct<x: i32, y: utf8?>, n: null>`

func mustType(t testing.TB, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("dtype %q: %v", s, err)
	}
	return d
}

// goldenCase is one input of a golden file and the output recorded for it.
type goldenCase struct {
	src  string
	vars []string // `name: type` of the scope frame in force
	want string
}

// goldenFile is a golden file split into its lines, with the cases found.
//
// The format: `# comment` lines; `var name: type` adds a variable to the
// scope frame of the cases below it; `> source` is a case, followed by its
// recorded output up to the next blank line (or the next case).
type goldenFile struct {
	lines []string // the file without the recorded outputs
	cases []goldenCase
	at    []int // index in lines of each case's `>` line
}

func readGolden(t *testing.T, path string) *goldenFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &goldenFile{}
	var vars []string
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "var ") {
			vars = append(vars[:len(vars):len(vars)], strings.TrimPrefix(line, "var "))
		}
		if !strings.HasPrefix(line, "> ") {
			g.lines = append(g.lines, line)
			continue
		}
		c := goldenCase{src: strings.TrimPrefix(line, "> "), vars: vars}
		var out []string
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "> ") {
			i++
			out = append(out, lines[i])
		}
		c.want = strings.Join(out, "\n")
		g.at = append(g.at, len(g.lines))
		g.lines = append(g.lines, line)
		g.cases = append(g.cases, c)
	}
	return g
}

func (g *goldenFile) write(t *testing.T, path string, got []string) {
	t.Helper()
	var b strings.Builder
	k := 0
	for i, line := range g.lines {
		b.WriteString(line)
		b.WriteByte('\n')
		if k < len(g.at) && g.at[k] == i {
			b.WriteString(got[k])
			b.WriteByte('\n')
			if i+1 < len(g.lines) && g.lines[i+1] != "" {
				b.WriteByte('\n')
			}
			k++
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// coerceOutput is what a golden file records for one input: the canonical
// text before and after coercion and the bound tree with a dtype on every
// node, or the error.
func coerceOutput(t *testing.T, root dtype.DType, c goldenCase) string {
	scope := expr.ScopeOf(root)
	if len(c.vars) > 0 {
		names := make([]string, len(c.vars))
		types := make([]dtype.DType, len(c.vars))
		for i, v := range c.vars {
			name, typ, ok := strings.Cut(v, ": ")
			if !ok {
				t.Fatalf("bad var line %q", v)
			}
			names[i], types[i] = name, mustType(t, typ)
		}
		scope = scope.Push(names, types)
	}
	e, err := parse.Parse(c.src)
	if err != nil {
		t.Fatalf("%s: %v", c.src, err)
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
		t.Fatalf("%s: Coerce succeeded but Bind failed: %v", c.src, err)
	}
	again, err := expr.Bind(out, scope)
	if err != nil {
		t.Fatalf("%s: the coerced tree %s does not bind: %v", c.src, out, err)
	}
	if !again.Equal(bound) {
		t.Fatalf("%s: coerce.Bind gave\n%s\nbinding the coerced tree gave\n%s", c.src, bound.Tree(), again.Tree())
	}
	// Coercion is idempotent: the coerced tree comes back as it is.
	if twice, err := coerce.Coerce(out, scope); err != nil || twice != out {
		t.Errorf("%s: coercing %s again gave %v, %v; want the same tree", c.src, out, twice, err)
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
			g := readGolden(t, path)
			got := make([]string, len(g.cases))
			for i, c := range g.cases {
				got[i] = coerceOutput(t, root, c)
				if !*update && got[i] != c.want {
					t.Errorf("> %s\ngot:\n%s\nwant:\n%s", c.src, got[i], c.want)
				}
			}
			if *update {
				g.write(t, path, got)
			}
		})
	}
}
