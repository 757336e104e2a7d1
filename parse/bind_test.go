package parse_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
)

// testSchema is the root type the bind golden tests and FuzzBind bind against.
const testSchema = `struct<a: i32, b: i32?, u: u8, f: f64, d: decimal(15,2), s: utf8, s2: utf8?, bin: binary, ` +
	`dt: date, ts: timestamp(us), xs: list<i32>, ys: list<list<i32?>>?, fx: fixed_size_list<f64, 3>, ` +
	`st: struct<x: i32, y: utf8?>?, iv: interval?>`

var testScope = expr.ScopeOf(mustType(testSchema))

// bindOutput is what a bind golden file records for one input: the
// canonical text, then the bound tree (with the root's long struct type
// abbreviated to {schema}) or the bind error.
func bindOutput(src string) string {
	e, err := parse.Parse(src)
	if err != nil {
		return err.Error()
	}
	text := expr.Format(e)
	bound, err := expr.Bind(e, testScope)
	if err != nil {
		return text + "\nbind error: " + err.Error()
	}
	return text + "\n" + strings.ReplaceAll(bound.Tree(), testScope.Root().String(), "{schema}")
}

// TestBindGolden binds every input of testdata/bind/*.txt against
// testSchema and compares the bound tree (or bind error) with the file.
// Rewrite the files with -update.
func TestBindGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/bind/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkGolden(t, f, bindOutput)
		})
	}
}

// TestBindCoverage checks that the bind golden files bind a call of every
// function: every registered one and every one with options.
func TestBindCoverage(t *testing.T) {
	files, _ := filepath.Glob("testdata/bind/*.txt")
	labels := map[string]bool{}
	for _, f := range files {
		for _, c := range readGolden(t, f) {
			for _, line := range strings.Split(c.want, "\n") {
				if label, _, ok := strings.Cut(strings.TrimSpace(line), " :: "); ok {
					// A label and each of its leading word groups: "select exclude {x}"
					// counts for "select" and "select exclude".
					words := strings.Fields(label)
					for i := 1; i <= len(words); i++ {
						labels[strings.Join(words[:i], " ")] = true
					}
				}
			}
		}
	}
	want := map[string]bool{}
	for _, name := range fn.Default.Names() {
		f, _ := fn.Default.Lookup(name)
		want[f.ID()] = true
	}
	for _, label := range []string{"literal", "get_item", "pack", "select", "select exclude", "cast", "try_cast",
		"like", "ilike", "like negated", "ilike negated", "case_when", "case_when with else", "lambda", "var", "$"} {
		want[label] = true
	}
	var missing []string
	for w := range want {
		if !labels[w] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no bound call of %s in testdata/bind", strings.Join(missing, ", "))
	}
}
