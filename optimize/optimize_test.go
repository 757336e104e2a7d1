package optimize_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/scalar"
)

func TestRegisterErrors(t *testing.T) {
	noop := func(*optimize.Context, *expr.Bound) *expr.Bound { return nil }
	tests := []struct {
		name  string
		rules []*optimize.Rule
		want  string
	}{
		{"nil rule", []*optimize.Rule{nil}, "rule 0 is nil"},
		{"no rewrite", []*optimize.Rule{{Name: "my/rule"}}, "has no Rewrite"},
		{"no family", []*optimize.Rule{{Name: "rule", Rewrite: noop}}, "not of the form family/rule"},
		{"empty rule", []*optimize.Rule{{Name: "my/", Rewrite: noop}}, "not of the form family/rule"},
		{"two slashes", []*optimize.Rule{{Name: "my/a/b", Rewrite: noop}}, "not of the form family/rule"},
		{"wildcard", []*optimize.Rule{{Name: "my/*", Rewrite: noop}}, "not of the form family/rule"},
		{"built-in name", []*optimize.Rule{{Name: "binary/add_zero", Rewrite: noop}}, "already registered"},
		{"twice in one call", []*optimize.Rule{{Name: "my/r", Rewrite: noop}, {Name: "my/r", Rewrite: noop}}, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := optimize.New()
			before := len(o.Rules())
			err := o.Register(tt.rules...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Register: %v, want an error containing %q", err, tt.want)
			}
			if len(o.Rules()) != before {
				t.Errorf("a failed Register added rules")
			}
		})
	}
}

func TestBuiltinRulesAreDocumentedValues(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range optimize.BuiltinRules() {
		if seen[r.Name] {
			t.Errorf("rule %s appears twice", r.Name)
		}
		seen[r.Name] = true
		if !slices.Contains([]string{"fold", "binary", "cast", "structural", "null", "conditional", "temporal"}, r.Family()) {
			t.Errorf("rule %s has an unknown family", r.Name)
		}
	}
}

func TestDisableEnable(t *testing.T) {
	b := mustBind(t, "a + 0 > b * 1")
	o := optimize.New()
	if err := o.Disable("binary/add_zero"); err != nil {
		t.Fatal(err)
	}
	out, tr := mustOptimize(t, o, b)
	if got, want := out.String(), "a + 0 > b"; got != want {
		t.Errorf("with add_zero disabled: %s, want %s", got, want)
	}
	if tr.Count("binary/add_zero") != 0 || tr.Count("binary/mul_one") != 1 {
		t.Errorf("fired %v", tr.Fired())
	}
	if o.Enabled("binary/add_zero") || !o.Enabled("binary/mul_one") {
		t.Errorf("Enabled is wrong")
	}
	if err := o.Disable("binary/*"); err != nil {
		t.Fatal(err)
	}
	if out, _ := mustOptimize(t, o, b); out != b {
		t.Errorf("with the binary family disabled: %s, want it unchanged", out)
	}
	if err := o.Enable("binary/*"); err != nil {
		t.Fatal(err)
	}
	if out, _ := mustOptimize(t, o, b); out.String() != "a > b" {
		t.Errorf("enabled again: %s, want a > b", out)
	}
	for _, bad := range []string{"binary/nope", "nope/*", "binary"} {
		if err := o.Disable("binary/mul_one", bad); err == nil || !strings.Contains(err.Error(), "no rule named") {
			t.Errorf("Disable(%q): %v, want an error", bad, err)
		}
	}
	if !o.Enabled("binary/mul_one") {
		t.Errorf("a failed Disable disabled a rule")
	}
}

// commute swaps the operands of add whose right operand is a column:
// applied to its own output it cycles, which the budget stops.
var commute = &optimize.Rule{
	Name: "test/commute",
	Fns:  []fn.Function{fn.Add},
	Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
		b, err := expr.NewCall(fn.Add, n.Arg(1), n.Arg(0))
		if err != nil {
			return nil
		}
		return b
	},
}

func TestBudget(t *testing.T) {
	b := mustBind(t, "a + b")
	for _, budget := range []int{1, 2, 5, optimize.DefaultBudget} {
		o := optimize.NewEmpty()
		if err := o.Register(commute); err != nil {
			t.Fatal(err)
		}
		o.SetBudget(budget)
		out, tr, err := o.Explain(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Count("test/commute"); got != budget {
			t.Errorf("budget %d: the rule applied %d times", budget, got)
		}
		problems := tr.Problems()
		if len(problems) != 1 || problems[0].Kind != optimize.BudgetExhausted || problems[0].Rule != "test/commute" {
			t.Fatalf("budget %d: problems %v, want one exhausted budget", budget, problems)
		}
		want := "a + b"
		if budget%2 == 1 {
			want = "b + a"
		}
		if out.String() != want {
			t.Errorf("budget %d: %s, want %s", budget, out, want)
		}
		if st := stats(o, "test/commute"); st.Applied != int64(budget) || st.Budget != 1 {
			t.Errorf("budget %d: stats %+v", budget, st)
		}
	}
}

func stats(o *optimize.Optimizer, name string) optimize.RuleStats {
	for _, s := range o.Stats() {
		if s.Name == name {
			return s
		}
	}
	return optimize.RuleStats{}
}

func TestRejections(t *testing.T) {
	b := mustBind(t, "a + 1")
	tests := []struct {
		name    string
		rewrite func(*optimize.Context, *expr.Bound) *expr.Bound
		reason  string
	}{
		{"other dtype", func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			return expr.NewLiteral(scalar.Int64(1))
		}, "replacement has dtype i64, want i32"},
		{"nullability", func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			return expr.NewLiteral(scalar.Null(dtype.Primitive(dtype.I32, true)))
		}, "replacement has dtype i32?, want i32"},
		{"itself", func(c *optimize.Context, n *expr.Bound) *expr.Bound { return n }, "replacement equals the original"},
		{"equal copy", func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			cp, err := expr.NewCall(n.Fn(), n.Args()...)
			if err != nil {
				t.Fatal(err)
			}
			return cp
		}, "replacement equals the original"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := optimize.NewEmpty()
			bad := &optimize.Rule{Name: "test/bad", Fns: []fn.Function{fn.Add}, Rewrite: tt.rewrite}
			if err := o.Register(bad, commute); err != nil {
				t.Fatal(err)
			}
			o.SetBudget(1)
			out, tr, err := o.Explain(b)
			if err != nil {
				t.Fatal(err)
			}
			// The rejected rule is skipped and the next one tried.
			if out.String() != "1 + a" {
				t.Errorf("result %s, want 1 + a", out)
			}
			var rejected []optimize.Event
			for _, e := range tr.Problems() {
				if e.Kind == optimize.Rejected {
					rejected = append(rejected, e)
				}
			}
			if len(rejected) == 0 || rejected[0].Rule != "test/bad" || !strings.Contains(rejected[0].Reason, tt.reason) {
				t.Fatalf("rejections %v, want test/bad: %s", rejected, tt.reason)
			}
			if !strings.Contains(tr.String(), "test/bad (rejected: "+tt.reason) {
				t.Errorf("trace does not show the rejection:\n%s", tr)
			}
			if st := stats(o, "test/bad"); st.Rejected == 0 || st.Applied != 0 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

func TestUnchangedTreeIsTheSamePointer(t *testing.T) {
	for _, src := range []string{"a", "$", "a + b > 2 AND s LIKE 'x%'", "list_transform(xs, x -> x + a)", "{x: a, y: st.y}"} {
		b := mustBind(t, src)
		out, tr := mustOptimize(t, optimize.New(), b)
		if out != b || len(tr.Events) != 0 {
			t.Errorf("%s: got %s (%v), want the same pointer", src, out, tr.Fired())
		}
	}
}

func TestOnlyChangedParentsAreRebuilt(t *testing.T) {
	b := mustBind(t, "(a * 1 > 0) AND (b > 0 OR p) AND (s = 'x')")
	out, _ := mustOptimize(t, optimize.New(), b)
	// and(and(x, y), z): x changed, y and z did not.
	left, right := out.Arg(0), out.Arg(1)
	if right != b.Arg(1) {
		t.Errorf("unchanged right operand was rebuilt")
	}
	if left.Arg(1) != b.Arg(0).Arg(1) {
		t.Errorf("unchanged sibling was rebuilt")
	}
	if left.Arg(0) == b.Arg(0).Arg(0) || left.Arg(0).String() != "a > 0" {
		t.Errorf("changed operand: %s", left.Arg(0))
	}
}

func TestStatsAndReset(t *testing.T) {
	o := optimize.New()
	for range 3 {
		mustOptimize(t, o, mustBind(t, "a + 0 = b + 0"))
	}
	// Each run applies add_zero twice; mustOptimize runs twice, the second
	// run on the result applies nothing.
	if st := stats(o, "binary/add_zero"); st.Applied != 6 || st.Rejected != 0 || st.Budget != 0 {
		t.Errorf("stats %+v", st)
	}
	o.ResetStats()
	if st := stats(o, "binary/add_zero"); st.Applied != 0 {
		t.Errorf("after reset: %+v", st)
	}
}

func TestRuleSeesContext(t *testing.T) {
	// A rule on every variable records the parameter type the run knows
	// for it and the function of its parent.
	var seen []string
	spy := &optimize.Rule{Name: "test/spy", Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
		if n.Kind() == expr.KindVar {
			t, ok := c.Lookup(n.Name())
			parent := "<none>"
			if p := c.Parent(); p != nil {
				parent = p.ID()
			}
			seen = append(seen, n.Name()+": "+t.String()+" "+map[bool]string{true: "known", false: "unknown"}[ok]+" under "+parent)
		}
		return nil
	}}
	o := optimize.NewEmpty()
	if err := o.Register(spy); err != nil {
		t.Fatal(err)
	}
	b := mustBind(t, "list_any(xn, x -> list_any(xs, y -> x = y))")
	mustOptimize(t, o, b)
	want := []string{"x: i32? known under eq", "y: i32 known under eq"}
	if !slices.Equal(seen[:2], want) {
		t.Errorf("seen %q, want %q", seen, want)
	}
}

func TestDispatchProperties(t *testing.T) {
	// A spy on add records the nodes it is called on: with ChainTop only
	// where the parent does not add too, with ConstArg only where an
	// argument is a literal or a lambda.
	for _, tc := range []struct {
		src                string
		anyCall            bool
		chainTop, constArg bool
		want               []string
	}{
		{"a + b + l::i32", false, true, false, []string{"a + b + CAST(l AS i32)"}},
		{"a + b + l::i32", false, false, false, []string{"a + b", "a + b + CAST(l AS i32)"}},
		{"(a + b) * (h::i32 + t::i32)", false, true, false, []string{"a + b", "CAST(h AS i32) + CAST(t AS i32)"}},
		{"a + (b - (h::i32 + t::i32))", false, true, false, []string{"CAST(h AS i32) + CAST(t AS i32)", "a + (b - (CAST(h AS i32) + CAST(t AS i32)))"}},
		{"a + (b + h::i32)", false, true, false, []string{"a + (b + CAST(h AS i32))"}},
		{"list_any(xs, x -> x + a + b > 0)", false, true, false, []string{"$x + a + b"}},
		{"a + 1 + b + 2", false, false, true, []string{"a + 1", "a + 1 + b + 2"}},
		{"a + 1 + b + 2", false, true, true, []string{"a + 1 + b + 2"}},
		{"a + b", false, false, true, nil},
		{"list_any(xs, x -> x > a) AND b > 0", true, false, true, []string{"list_any(xs, lambda x: x > a)", "b > 0"}},
	} {
		var seen []string
		spy := &optimize.Rule{Name: "test/spy", ChainTop: tc.chainTop, ConstArg: tc.constArg,
			Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
				seen = append(seen, n.String())
				return nil
			}}
		if tc.anyCall {
			spy.AnyCall = true
		} else {
			spy.Fns = []fn.Function{fn.Add}
		}
		o := optimize.NewEmpty()
		if err := o.Register(spy); err != nil {
			t.Fatal(err)
		}
		mustOptimize(t, o, mustBind(t, tc.src))
		// mustOptimize runs twice: the second run sees the same nodes.
		if n := len(seen); n%2 != 0 || !slices.Equal(seen[:n/2], seen[n/2:]) {
			t.Fatalf("%s: the two runs saw %q", tc.src, seen)
		}
		if got := seen[:len(seen)/2]; !slices.Equal(got, tc.want) {
			t.Errorf("%s (ChainTop %v, ConstArg %v): seen %q, want %q", tc.src, tc.chainTop, tc.constArg, got, tc.want)
		}
	}
}

func TestConstArgOnlySavesCalls(t *testing.T) {
	// The built-in rules that set ConstArg give nil wherever the engine
	// skips them: over every golden case, the same rules with the property
	// cleared make the same trees with the same traces.
	plain := optimize.NewEmpty()
	set := 0
	for _, r := range optimize.BuiltinRules() {
		cp := *r
		if cp.ConstArg {
			set++
		}
		cp.ConstArg = false
		if err := plain.Register(&cp); err != nil {
			t.Fatal(err)
		}
	}
	if set == 0 {
		t.Fatal("no built-in rule sets ConstArg")
	}
	o := optimize.New()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		for _, c := range readGolden(t, path) {
			b, err := bindText(c.input)
			if err != nil {
				continue // a case that shows a bind error
			}
			want, wantTr := mustOptimize(t, plain, b)
			got, gotTr := mustOptimize(t, o, b)
			if !got.Equal(want) || gotTr.String() != wantTr.String() {
				t.Errorf("%s:%d: > %s: with ConstArg %s\n%s\nwithout %s\n%s", path, c.line, c.input, got, gotTr, want, wantTr)
			}
		}
	}
}

func TestFoldUsesTheEvaluator(t *testing.T) {
	b := mustBind(t, "a + (2 + 3)")
	o := optimize.New()
	calls := 0
	o.SetEvaluator(func(mem memory.Allocator, b *expr.Bound) (scalar.Scalar, error) {
		calls++
		if b.String() != "2 + 3" {
			t.Errorf("evaluator called on %s", b)
		}
		return scalar.Int32(42), nil
	})
	out, _ := mustOptimize(t, o, b)
	if out.String() != "a + 42::i32" || calls != 1 {
		t.Errorf("%s after %d calls", out, calls)
	}
	o.SetEvaluator(func(memory.Allocator, *expr.Bound) (scalar.Scalar, error) {
		return scalar.Scalar{}, errors.New("no")
	})
	if out, _ := mustOptimize(t, o, b); out != b {
		t.Errorf("a failing evaluation folded: %s", out)
	}
}

func TestNilTree(t *testing.T) {
	if _, err := optimize.Optimize(nil); !errors.Is(err, optimize.ErrNilNode) {
		t.Errorf("Optimize(nil): %v", err)
	}
}

func TestTraceString(t *testing.T) {
	_, tr, err := optimize.New().Explain(mustBind(t, "NOT NOT p AND a * 1 > 0"))
	if err != nil {
		t.Fatal(err)
	}
	want := "binary/not_not\n  before: NOT NOT p\n  after:  p\n" +
		"binary/mul_one\n  before: a * 1\n  after:  a\n"
	if got := tr.String(); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// deepChain is a + a + … + a with n additions, left-deep, over i64.
func deepChain(t testing.TB, n int, right *expr.Bound) *expr.Bound {
	root := expr.NewRoot(schema)
	l, err := expr.NewCall(fn.GetItem("l"), root)
	if err != nil {
		t.Fatal(err)
	}
	if right == nil {
		right = l
	}
	b := l
	for range n {
		if b, err = expr.NewCall(fn.Add, b, right); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestDeepTree(t *testing.T) {
	const depth = expr.MaxDepth - 2 // n adds over $.l: n+2 levels
	o := optimize.New()

	// Nothing to rewrite: the same tree comes back.
	b := deepChain(t, depth, nil)
	out, err := o.Optimize(b)
	if err != nil || out != b {
		t.Fatalf("deep chain without rewrites: %v, same pointer %v", err, out == b)
	}

	// A rewrite at every level: l + 0 + 0 + … + 0 is l.
	zero := expr.NewLiteral(scalar.Int64(0))
	b = deepChain(t, depth, zero)
	out, tr, err := o.Explain(b)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "l" || tr.Count("binary/add_zero") != depth || len(tr.Problems()) != 0 {
		t.Fatalf("deep chain of + 0: %s after %d rewrites", out, tr.Count("binary/add_zero"))
	}

	// NOT NOT … NOT p, an odd number of times: NOT p.
	p := mustBind(t, "p")
	for range depth - 1 {
		if p, err = expr.NewCall(fn.Not, p); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := o.Optimize(p); err != nil || out.String() != "NOT p" {
		t.Fatalf("deep NOT chain: %v, %v", out, err)
	}

	// A 20 000-long OR chain of equalities: one IN list.
	e := mustBind(t, "a = 0")
	a := e.Arg(0)
	for i := 1; i < 20_000; i++ {
		eq, err := expr.NewCall(fn.Eq, a, expr.NewLiteral(scalar.Int32(int32(i))))
		if err != nil {
			t.Fatal(err)
		}
		if e, err = expr.NewCall(fn.Or, e, eq); err != nil {
			t.Fatal(err)
		}
	}
	out, tr, err = o.Explain(e)
	if err != nil {
		t.Fatal(err)
	}
	if !out.IsCall("in_list") || len(out.Args()) != 20_001 || tr.Count("binary/or_eq_to_in") != 1 {
		t.Fatalf("long OR chain: %s… after %v", out.Fn().ID(), tr.Fired())
	}
}

// randomFn is a Volatile function for the tests: rules must not merge,
// duplicate or fold its calls.
type randomFn struct{}

func (randomFn) ID() string      { return "test_random" }
func (randomFn) Arity() fn.Arity { return fn.Exactly(0) }
func (randomFn) ReturnType([]dtype.DType) (dtype.DType, error) {
	return dtype.Primitive(dtype.I32, false), nil
}
func (randomFn) NullHandling() fn.NullHandling { return fn.NullPropagating }
func (randomFn) Volatility() fn.Volatility     { return fn.Volatile }
func (randomFn) Fallible() bool                { return false }
func (randomFn) Equal(o fn.Function) bool      { _, ok := o.(randomFn); return ok }
func (randomFn) Hash() uint64                  { return 7 }

var _ fn.Function = randomFn{}

func TestVolatileIsNeitherMergedNorFolded(t *testing.T) {
	rnd := func() *expr.Bound {
		b, err := expr.NewCall(randomFn{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mk := func(f fn.Function, args ...*expr.Bound) *expr.Bound {
		b, err := expr.NewCall(f, args...)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	five := expr.NewLiteral(scalar.Int32(5))
	gt := func() *expr.Bound { return mk(fn.Gt, rnd(), five) }
	eq := func(v int32) *expr.Bound { return mk(fn.Eq, rnd(), expr.NewLiteral(scalar.Int32(v))) }
	n := mk(fn.GetItem("n"), expr.NewRoot(schema))
	nr := mk(fn.Add, rnd(), n)
	isNull := mk(fn.IsNull, nr)
	for _, b := range []*expr.Bound{
		mk(fn.And, gt(), gt()),
		mk(fn.Or, eq(1), eq(2)),
		mk(fn.CaseWhen(true), isNull, five, nr),
		mk(fn.Add, rnd(), five),
	} {
		out, tr := mustOptimize(t, optimize.New(), b)
		for _, r := range tr.Fired() {
			if r == "binary/and_self" || r == "binary/or_eq_to_in" || r == "conditional/case_coalesce" || r == "fold/constant" {
				t.Errorf("%s: %s fired: %s", b, r, out)
			}
		}
	}
}

// impostor is a user function that reuses the id of a built-in function
// with options; rules must not mistake it for the built-in.
type impostor struct{ id string }

func (f impostor) ID() string    { return f.id }
func (impostor) Arity() fn.Arity { return fn.Exactly(1) }
func (impostor) Fallible() bool  { return false }
func (impostor) Hash() uint64    { return 9 }
func (f impostor) Equal(o fn.Function) bool {
	g, ok := o.(impostor)
	return ok && g == f
}
func (impostor) NullHandling() fn.NullHandling { return fn.NullPropagating }
func (impostor) Volatility() fn.Volatility     { return fn.Immutable }
func (impostor) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return dtype.Struct([]dtype.Field{{Name: "x", Type: args[0]}}, false), nil
}

func TestImpostorFunctionsAreLeftAlone(t *testing.T) {
	a := mustBind(t, "a")
	for _, id := range []string{"pack", "get_item", "cast", "try_cast", "case_when", "select", "merge"} {
		inner, err := expr.NewCall(impostor{id}, a)
		if err != nil {
			t.Fatal(err)
		}
		get, err := expr.NewCall(fn.GetItem("x"), inner)
		if err != nil {
			t.Fatal(err)
		}
		pack, err := expr.NewCall(fn.Pack("x"), get)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []*expr.Bound{inner, get} {
			if out, _ := mustOptimize(t, optimize.New(), b); out != b {
				t.Errorf("%s: %s became %s", id, b, out)
			}
		}
		// {x: s.x} is s for any struct s with the one field x.
		if out, _ := mustOptimize(t, optimize.New(), pack); out != inner {
			t.Errorf("%s: %s became %s, want %s", id, pack, out, inner)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	o := optimize.New()
	inputs := []string{"a + 0 > b * 1", "a = 1 OR a = 2 OR a = 3", "CASE WHEN n IS NULL THEN 0 ELSE n END", "list_transform(xs, x -> x + (1 + 1))"}
	var bound []*expr.Bound
	var want []string
	for _, src := range inputs {
		b := mustBind(t, src)
		out, _ := mustOptimize(t, o, b)
		bound, want = append(bound, b), append(want, out.String())
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			for i := range 50 {
				k := (g + i) % len(bound)
				out, err := o.Optimize(bound[k])
				if err == nil && out.String() != want[k] {
					err = errors.New(out.String() + ", want " + want[k])
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestRunBudget: a rule that wraps its input (-x → -(-(-x))) makes a new
// node each time, each of which it rewrites again. The budget per position
// alone let that take 2^budget rule calls; the run's budget (rewrites and
// nodes visited, proportional to the input's size) stops it after a number
// of calls linear in the input, reports it as a problem, and the result
// still evaluates like the input.
func TestRunBudget(t *testing.T) {
	calls := 0
	wrap := &optimize.Rule{
		Name: "test/wrap",
		Fns:  []fn.Function{fn.Neg},
		Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			calls++
			inner, err := expr.NewCall(fn.Neg, n)
			if err != nil {
				return nil
			}
			outer, err := expr.NewCall(fn.Neg, inner)
			if err != nil {
				return nil
			}
			return outer
		},
	}
	for _, budget := range []int{optimize.DefaultBudget, optimize.MaxBudget} {
		for _, src := range []string{"-(5::i32)", "-(5::i32) + -(7::i32) * -(-(2::i32))"} {
			b := mustBind(t, src)
			size := treeSize(b)
			o := optimize.NewEmpty()
			if err := o.Register(wrap); err != nil {
				t.Fatal(err)
			}
			o.SetBudget(budget)
			calls = 0
			out, tr, err := o.Explain(b)
			if err != nil {
				t.Fatal(err)
			}
			if limit := 50*size + 1000; calls > limit || tr.Count("test/wrap") > limit {
				t.Errorf("budget %d, %s (%d nodes): %d rule calls, %d rewrites, want at most %d", budget, src, size, calls, tr.Count("test/wrap"), limit)
			}
			if grown := treeSize(out); grown > 50*size+1000 {
				t.Errorf("budget %d, %s: the tree grew from %d to %d nodes", budget, src, size, grown)
			}
			t.Logf("budget %d, %s (%d nodes): %d rule calls, %d rewrites, %d nodes after", budget, src, size, calls, tr.Count("test/wrap"), treeSize(out))
			problems := tr.Problems()
			if len(problems) == 0 || problems[len(problems)-1].Kind != optimize.BudgetExhausted {
				t.Errorf("budget %d, %s: problems %v, want an exhausted budget", budget, src, problems)
			} else if !strings.Contains(tr.String(), "budget exhausted") {
				t.Errorf("budget %d, %s: the trace does not say so:\n%.500s", budget, src, tr)
			}
			want, err := eval.EvalConstant(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := eval.EvalConstant(nil, out)
			if err != nil {
				t.Fatal(err)
			}
			if got.SQL() != want.SQL() {
				t.Errorf("budget %d, %s: optimized gives %s, the input %s", budget, src, got.SQL(), want.SQL())
			}
		}
	}
}

// treeSize counts the nodes of b (shared subtrees once per use).
func treeSize(b *expr.Bound) int {
	n := 0
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, x.Args()...)
	}
	return n
}

// TestMergeConstantsChain: a 20 000-term chain of constants becomes one
// call in one rewrite, so evaluating it is one kernel call, not 20 000 (a
// query of such a chain took seconds, and of || 'x' … quadratic memory),
// and merging costs no more than the chain's length.
func TestMergeConstantsChain(t *testing.T) {
	const n = 20_000
	for _, tt := range []struct{ src, want string }{
		{"l" + strings.Repeat(" + 1::i64", n), "l + 20000::i64"},
		{"s" + strings.Repeat(" || 'x'", n), "s || '" + strings.Repeat("x", n) + "'"},
	} {
		out, tr, err := optimize.New().Explain(mustBind(t, tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("%.40s…: got %.80s", tt.src, out)
		}
		if got := tr.Count("binary/merge_constants"); got != 1 || len(tr.Problems()) != 0 {
			t.Errorf("%.40s…: %d rewrites, %d problems", tt.src, got, len(tr.Problems()))
		}
	}
}

// TestLookupSeesTheScope: a rule's Context.Lookup resolves the variables of
// the scope given to OptimizeIn (partition variables, say) as well as the
// parameters of the lambdas around the node; Optimize gives it none.
func TestLookupSeesTheScope(t *testing.T) {
	i64 := dtype.Primitive(dtype.I64, false)
	scope := expr.ScopeOf(dtype.Struct(nil, false)).Push([]string{"p"}, []dtype.DType{i64})
	b, err := expr.Bind(expr.Add(expr.V("p"), expr.Lit(int64(1))), scope)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	probe := &optimize.Rule{
		Name: "test/lookup",
		Fns:  []fn.Function{fn.Add},
		Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			if typ, ok := c.Lookup("p"); ok {
				seen = append(seen, typ.String())
			} else {
				seen = append(seen, "unknown")
			}
			return nil
		},
	}
	o := optimize.NewEmpty()
	if err := o.Register(probe); err != nil {
		t.Fatal(err)
	}
	if _, err := o.OptimizeIn(b, scope); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Optimize(b); err != nil {
		t.Fatal(err)
	}
	if want := []string{"i64", "unknown"}; !slices.Equal(seen, want) {
		t.Errorf("Lookup saw %v, want %v", seen, want)
	}
}

// TestReplayErrors: a trace replayed over another tree, or for more events
// than it has, is an error that says which event and why, never a panic.
func TestReplayErrors(t *testing.T) {
	sch := dtype.Struct([]dtype.Field{{Name: "a", Type: dtype.Primitive(dtype.I32, false)}}, false)
	root := expr.NewRoot(sch)
	a, _ := expr.NewCall(fn.GetItem("a"), root)
	one := expr.NewLiteral(scalar.Int32(1))
	mul, _ := expr.NewCall(fn.Mul, a, one)
	neg, _ := expr.NewCall(fn.Neg, mul)
	_, tr, err := optimize.New().Explain(neg)
	if err != nil || len(tr.Events) != 1 || !slices.Equal(tr.Events[0].Path, []int{0}) {
		t.Fatalf("trace of -(a * 1): %v, %v", tr, err)
	}
	for _, c := range []struct {
		name string
		top  *expr.Bound
		n    int
		want string
	}{
		{"too many events", neg, 2, "replay of 2 events of a trace of 1"},
		{"negative count", neg, -1, "replay of -1 events"},
		{"path leaves the tree", one, 1, "leaves the tree at level 0"},
		{"another node at the path", mul, 1, "not the rule's input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tr.Replay(c.top, c.n)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Replay: %v, want an error containing %q", err, c.want)
			}
		})
	}
	if got, err := tr.Replay(neg, 0); err != nil || got != neg {
		t.Errorf("Replay of no events: %v, %v; want the tree itself", got, err)
	}
}

// TestFoldClock: a clock fixed at an instant (as the parser fixes now()
// and current_date) folds to that instant's literal; the running clock of
// a tree built in Go, Volatile, stays a call.
func TestFoldClock(t *testing.T) {
	at := time.Date(2026, 12, 3, 21, 5, 7, 123456789, time.UTC)
	for _, c := range []struct {
		name string
		f    fn.Function
		want string
	}{
		{"fixed now", fn.Now.(fn.ClockFn).At(at), "'2026-12-03 21:05:07.123456+00'::timestamp(us, 'UTC')"},
		{"fixed today", fn.Today.(fn.ClockFn).At(at), "DATE '2026-12-03'"},
		{"running now", fn.Now, "now()"},
		{"running today", fn.Today, "today()"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := expr.Bind(expr.Apply(c.f), expr.ScopeOf(dtype.Struct(nil, false)))
			if err != nil {
				t.Fatal(err)
			}
			out, _ := mustOptimize(t, optimize.New(), b)
			if got := out.String(); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
