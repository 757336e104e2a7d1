package optimize_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// schemaText is the root type every golden input is bound against.
const schemaText = "struct<a: i32, b: i32, n: i32?, m: i32?, l: i64, k: i64?, t: i8, t2: i8?, u: u8, h: i16, " +
	"f: f64, g: f64?, f4: f32, d: decimal(10,2), d2: decimal(10,2)?, p: bool, q: bool, r: bool?, w: bool?, " +
	"s: utf8, s2: utf8?, st: struct<x: i32, y: utf8?>, sn: struct<x: i32, y: utf8?>?, xs: list<i32>, xn: list<i32?>?>"

var schema = func() dtype.DType {
	t, err := dtype.Parse(schemaText)
	if err != nil {
		panic(err)
	}
	return t
}()

// bindText parses src and binds it against schema.
func bindText(src string) (*expr.Bound, error) {
	e, err := parse.Parse(src)
	if err != nil {
		return nil, err
	}
	return expr.Bind(e, expr.ScopeOf(schema))
}

func mustBind(t testing.TB, src string) *expr.Bound {
	t.Helper()
	b, err := bindText(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return b
}

// mustOptimize optimizes b and fails the test on an error, on any rejected
// replacement or exhausted budget (a rule must be correct by construction),
// on a change of dtype, and when optimizing the result again changes it.
func mustOptimize(t testing.TB, o *optimize.Optimizer, b *expr.Bound) (*expr.Bound, *optimize.Trace) {
	t.Helper()
	out, tr, err := o.Explain(b)
	if err != nil {
		t.Fatalf("optimize %s: %v", b, err)
	}
	for _, e := range tr.Problems() {
		t.Errorf("optimize %s: %s", b, e)
	}
	if !out.DType().Equal(b.DType()) {
		t.Errorf("optimize %s: dtype %s, want %s", b, out.DType(), b.DType())
	}
	again, tr2, err := o.Explain(out)
	if err != nil {
		t.Fatalf("optimize again %s: %v", out, err)
	}
	if again != out {
		t.Errorf("optimizing %s twice changed it again:\n%s", b, tr2)
	}
	return out, tr
}

// treeText is b.Tree() with the schema written as `schema`.
func treeText(b *expr.Bound) string {
	return strings.ReplaceAll(b.Tree(), " :: "+schema.String()+"\n", " :: schema\n")
}

// A golden file holds cases, separated by blank lines. A case is optional
// comment lines (#), optional `expect <rule>` and `expect-not <rule>` lines,
// the input line `> <expression>`, and the expected output: the input and
// its tree, `=>`, the optimized expression and its tree, and the rules that
// fired in order. -update rewrites the output parts.
type goldenCase struct {
	header    []string // comments and expectations, kept as written
	expect    []string
	expectNot []string
	input     string
	want      string
	line      int
}

func readGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	var cur goldenCase
	var out []string
	inCase := false
	flush := func() {
		if inCase {
			cur.want = strings.Join(out, "\n")
			cases = append(cases, cur)
		} else if len(cur.header) > 0 {
			t.Fatalf("%s:%d: header without a case", path, cur.line)
		}
		cur, out, inCase = goldenCase{}, nil, false
	}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		switch {
		case line == "":
			flush()
		case inCase:
			out = append(out, line)
		case strings.HasPrefix(line, "> "):
			cur.input, cur.line, inCase = line[2:], i+1, true
		case strings.HasPrefix(line, "#"):
			cur.header = append(cur.header, line)
		case strings.HasPrefix(line, "expect "):
			cur.header = append(cur.header, line)
			cur.expect = append(cur.expect, strings.TrimSpace(line[len("expect "):]))
		case strings.HasPrefix(line, "expect-not "):
			cur.header = append(cur.header, line)
			cur.expectNot = append(cur.expectNot, strings.TrimSpace(line[len("expect-not "):]))
		default:
			t.Fatalf("%s:%d: expected a comment, an expect line or a case starting with \"> \", found %q", path, i+1, line)
		}
		if cur.line == 0 {
			cur.line = i + 1
		}
	}
	flush()
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// TestGolden runs every testdata/*.txt file. Each case must bind, optimize
// without rejections, stay put when optimized again, fire every expected
// rule and none of the unexpected ones, and — when the input evaluates
// without error over a random batch — evaluate to the same result.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	// Folding evaluates with Arrow memory: none may be left behind.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	o := optimize.New()
	o.SetAllocator(mem)
	fired := map[string]bool{}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			cases := readGolden(t, path)
			var file strings.Builder
			for i, c := range cases {
				got := runGoldenCase(t, o, path, c, fired)
				if !*update && got != c.want {
					t.Errorf("%s:%d: > %s\ngot:\n%s\nwant:\n%s", path, c.line, c.input, got, c.want)
				}
				if i > 0 {
					file.WriteString("\n")
				}
				for _, h := range c.header {
					file.WriteString(h + "\n")
				}
				file.WriteString("> " + c.input + "\n" + got + "\n")
			}
			if *update {
				if err := os.WriteFile(path, []byte(file.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if t.Failed() || *update {
		return
	}
	// Every built-in rule is shown firing by some golden case.
	for _, r := range optimize.BuiltinRules() {
		if !fired[r.Name] {
			t.Errorf("no golden case expects rule %s", r.Name)
		}
	}
}

func runGoldenCase(t *testing.T, o *optimize.Optimizer, path string, c goldenCase, fired map[string]bool) string {
	t.Helper()
	where := fmt.Sprintf("%s:%d", path, c.line)
	b, err := bindText(c.input)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return "error: " + err.Error()
	}
	out, tr := mustOptimize(t, o, b)
	names := tr.Fired()
	for _, want := range c.expect {
		if !slices.Contains(names, want) {
			t.Errorf("%s: > %s: rule %s did not fire (fired: %v)", where, c.input, want, names)
		}
		fired[want] = true
	}
	for _, not := range c.expectNot {
		if slices.Contains(names, not) {
			t.Errorf("%s: > %s: rule %s fired", where, c.input, not)
		}
	}
	checkSameResult(t, where, b, out)
	// Replaying the trace at its paths rebuilds the result: the paths say
	// where each rewrite happened.
	if re, err := tr.Replay(b, len(tr.Events)); err != nil {
		t.Errorf("%s: > %s: replaying the trace: %v", where, c.input, err)
	} else if !re.Equal(out) {
		t.Errorf("%s: > %s: the replayed trace gives %s, the run %s", where, c.input, re, out)
	}
	var s strings.Builder
	s.WriteString(b.String() + "\n" + treeText(b))
	s.WriteString("=>\n")
	s.WriteString(out.String() + "\n" + treeText(out))
	if len(names) == 0 {
		s.WriteString("fired: nothing")
	} else {
		s.WriteString("fired: " + strings.Join(names, ", "))
	}
	return s.String()
}
