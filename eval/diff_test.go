package eval

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/memtest"
	"github.com/colexpr/colexpr/scalar"
)

// The differential test: random expressions over random data, evaluated by
// Eval and by the row-at-a-time reference (reference_test.go). Values,
// nulls and errors must agree: when one side fails, the other must too,
// with the same sentinel. Run longer with
//
//	go test ./eval -run Differential -eval.iterations=100000 -eval.seed=7
//
// A failure prints the seed and iteration, the expression and the data;
// keep it as a case in regress_test.go.

var (
	flagIterations = flag.Int("eval.iterations", 1000, "expressions the differential test generates")
	flagSeed       = flag.Uint64("eval.seed", 1, "seed of the differential test")
)

// diffFuncs are the functions the differential test covers.
var diffFuncs = []fn.Function{
	fn.Add, fn.Sub, fn.Mul, fn.Div, fn.Mod, fn.Neg, fn.Abs,
	fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom, fn.Between, fn.InList,
	fn.And, fn.Or, fn.Not, fn.IsNull, fn.IsNotNull,
	fn.Lower, fn.Upper, fn.Length, fn.ByteLength, fn.StartsWith, fn.EndsWith, fn.Contains, fn.Concat, fn.Substring,
	fn.ListLength, fn.ListContains, fn.ListElement,
	fn.Cast(dtype.Utf8(false)), fn.Like(false, false), fn.Like(false, true), fn.Pack("x"), fn.Select("x"), fn.Merge,
}

// availableFuncs are the ids of the functions that have kernels (or that
// the evaluator implements), and the ids of those that do not.
func availableFuncs() (have map[string]bool, missing []string) {
	have = map[string]bool{}
	for _, f := range diffFuncs {
		if _, ok := f.(fn.Kernel); ok {
			have[f.ID()] = true
		} else {
			missing = append(missing, f.ID())
		}
	}
	for _, id := range []string{"literal", "get_item", "case_when", "coalesce", "fill_null", "list_transform", "list_filter", "list_any", "list_all"} {
		have[id] = true
	}
	return have, missing
}

// TestKernelsPresent lists the functions the differential test cannot
// cover because their kernel is missing.
func TestKernelsPresent(t *testing.T) {
	if _, missing := availableFuncs(); len(missing) > 0 {
		t.Errorf("no kernel for: %s", strings.Join(missing, ", "))
	}
}

func TestDifferential(t *testing.T) {
	root := mustType(t, diffSchema)
	funcs, missing := availableFuncs()
	if len(missing) > 0 {
		t.Logf("not generated (no kernel yet): %s", strings.Join(missing, ", "))
	}
	var stats diffStats
	failures := 0
	for it := range *flagIterations {
		seed := *flagSeed*1_000_003 + uint64(it)
		g := newGen(seed, root, funcs)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		n := []int{0, 1, 2, 5, 17, 40}[g.intn(6)]
		extra := 0
		if g.chance(0.5) {
			extra = 1 + g.intn(3)
		}
		full, err := g.batch(mem, n+extra)
		if err != nil {
			t.Fatalf("seed %d: data: %v", seed, err)
		}
		input := array.NewSlice(full, int64(extra), int64(n+extra))
		full.Release()
		b := g.expr(g.anyType(), 1+g.intn(4))
		mode := g.randomMode()
		// Every other expression evaluates over dirty memory, as a
		// colexpr.Pool hands out: no kernel may read a byte of its output
		// before writing it.
		var evalMem, shrinkMem memory.Allocator = mem, memory.NewGoAllocator()
		if it%2 == 1 {
			evalMem, shrinkMem = memtest.Dirty{Allocator: mem}, memtest.Dirty{Allocator: shrinkMem}
		}
		res := checkDifferentialMode(evalMem, b, input, mode)
		stats.add(res)
		if res.mismatch != "" {
			failures++
			sb, sin := shrink(shrinkMem, b, input, mode)
			small := checkDifferentialMode(shrinkMem, sb, sin, mode)
			sin.Release()
			t.Errorf("seed %d (-eval.seed=%d, iteration %d, %s): %s\nexpression: %s\nshrunk to a regression case:\n\t{name: \"?\", expr: %q, data: %q},",
				seed, *flagSeed, it, mode, firstLine(small.mismatch), expr.Shorten(b.String()), sb.String(), small.data)
			if failures >= 10 {
				t.Fatal("stopping after 10 failures")
			}
		}
		input.Release()
		if mem.CurrentAlloc() != 0 {
			t.Errorf("seed %d: %d bytes leaked evaluating %s", seed, mem.CurrentAlloc(), expr.Shorten(b.String()))
		}
	}
	t.Logf("%d expressions: %d evaluated, %d failed on both sides (%s)", *flagIterations, stats.ok, stats.failed, stats.sentinels())
}

// diffResult is the outcome of one differential check.
type diffResult struct {
	mismatch string // empty when both sides agree
	failed   error  // the sentinel both sides failed with
	data     string // the input rows as JSON
}

type diffStats struct {
	ok, failed int
	by         map[string]int
}

func (s *diffStats) add(r diffResult) {
	if r.failed == nil {
		s.ok++
		return
	}
	s.failed++
	if s.by == nil {
		s.by = map[string]int{}
	}
	s.by[r.failed.Error()]++
}

func (s *diffStats) sentinels() string {
	var parts []string
	for k, v := range s.by {
		parts = append(parts, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// diffMode is how the differential test hands the input to the evaluator.
type diffMode struct {
	// scalarRoot: $ is row 0 of the input as a scalar, broadcast to all
	// rows (EvalDatum with a scalar input).
	scalarRoot bool
	// vars: these root fields are read through free variables named c_<field>
	// (EvalDatum with vars, as partitioning evaluates), not from $.
	vars []string
}

func (m diffMode) String() string {
	return fmt.Sprintf("scalarRoot=%v vars=%v", m.scalarRoot, m.vars)
}

// randomMode picks how to run one case: mostly Eval over the array.
func (g *gen) randomMode() diffMode {
	var m diffMode
	m.scalarRoot = g.chance(0.1)
	if g.chance(0.15) {
		for _, f := range g.root.Fields() {
			if g.chance(0.5) {
				m.vars = append(m.vars, f.Name)
			}
		}
	}
	return m
}

// withVars is b with $.f read through the variable c_f for each field f
// in fields.
func withVars(b *expr.Bound, fields []string) (*expr.Bound, error) {
	if b.Kind() == expr.KindCall {
		if g, ok := b.Fn().(fn.GetItemFn); ok && b.Arg(0).Kind() == expr.KindRoot && contains(fields, g.Field) {
			return expr.NewVar("c_"+g.Field, b.DType()), nil
		}
	}
	if len(b.Args()) == 0 {
		return b, nil
	}
	args := make([]*expr.Bound, len(b.Args()))
	for i, a := range b.Args() {
		na, err := withVars(a, fields)
		if err != nil {
			return nil, err
		}
		args[i] = na
	}
	return b.WithArgs(args)
}

// checkDifferential evaluates b over input with Eval and with the
// reference and compares them.
func checkDifferential(mem memory.Allocator, b *expr.Bound, input arrow.Array) diffResult {
	return checkDifferentialMode(mem, b, input, diffMode{})
}

// checkDifferentialMode is checkDifferential with the input handed over as
// mode says.
func checkDifferentialMode(mem memory.Allocator, b *expr.Bound, input arrow.Array, mode diffMode) (res diffResult) {
	js, _ := input.MarshalJSON()
	res.data = string(js)
	defer func() {
		if p := recover(); p != nil {
			res.mismatch = fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	root := input.DataType()
	rt, err := dtype.FromArrow(root, false)
	if err != nil {
		res.mismatch = err.Error()
		return res
	}

	if input.Len() == 0 {
		mode.scalarRoot = false
	}
	var row0 scalar.Scalar
	if mode.scalarRoot {
		if row0, err = scalar.FromArray(input, 0, rt); err != nil {
			res.mismatch = fmt.Sprintf("reading row 0: %v", err)
			return res
		}
	}
	if len(mode.vars) > 0 {
		if b, err = withVars(b, mode.vars); err != nil {
			res.mismatch = fmt.Sprintf("moving fields to variables: %v", err)
			return res
		}
	}

	// The reference, row by row; the sentinels of all rows that fail.
	want := make([]scalar.Scalar, input.Len())
	refSentinels := map[error]bool{}
	var refErr error
	for i := range input.Len() {
		row, err := scalar.FromArray(input, i, rt)
		if err != nil {
			res.mismatch = fmt.Sprintf("reading row %d: %v", i, err)
			return res
		}
		if mode.scalarRoot {
			row = row0
		}
		env := refEnv{root: row}
		for _, f := range mode.vars {
			env = env.with("c_"+f, row.Value().([]scalar.Scalar)[rt.FieldIndex(f)])
		}
		v, err := refEval(b, env)
		if err != nil {
			var re *refError
			if !errors.As(err, &re) {
				res.mismatch = fmt.Sprintf("reference: row %d: %v", i, err)
				return res
			}
			for _, s := range re.sentinels {
				refSentinels[s] = true
			}
			if refErr == nil {
				refErr = err
			}
			continue
		}
		want[i] = v
	}

	got, err := evalMode(mem, b, input, rt, row0, mode)
	if err != nil {
		s := primarySentinel(err)
		switch {
		case refErr == nil:
			res.mismatch = fmt.Sprintf("Eval failed, the reference did not: %v", err)
		case s == nil || !refSentinels[s]:
			res.mismatch = fmt.Sprintf("Eval failed with %v, the reference with %v", err, refErr)
		default:
			res.failed = s
		}
		return res
	}
	defer got.Release()
	if refErr != nil {
		res.mismatch = fmt.Sprintf("the reference failed, Eval did not: %v", refErr)
		return res
	}
	if got.Len() != input.Len() {
		res.mismatch = fmt.Sprintf("Eval returned %d rows for %d", got.Len(), input.Len())
		return res
	}
	if !arrow.TypeEqual(got.DataType(), dtype.ToArrow(b.DType())) {
		res.mismatch = fmt.Sprintf("Eval returned Arrow type %s, want %s", got.DataType(), dtype.ToArrow(b.DType()))
		return res
	}
	for i := range want {
		v, err := scalar.FromArray(got, i, b.DType())
		if err != nil {
			res.mismatch = fmt.Sprintf("reading result row %d: %v", i, err)
			return res
		}
		if !sameValue(v, want[i]) {
			res.mismatch = fmt.Sprintf("row %d: Eval gives %s, the reference %s", i, v.SQL(), want[i].SQL())
			return res
		}
		if v.IsNull() && !b.DType().Nullable() {
			res.mismatch = fmt.Sprintf("row %d: null in a non-nullable %s result", i, b.DType())
			return res
		}
	}
	return res
}

// sameValue compares two values (their dtypes aside): floats by their
// bits, except that every NaN is the same; lists and structs element by
// element.
func sameValue(a, b scalar.Scalar) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	switch x := a.Value().(type) {
	case float64:
		y, ok := b.Value().(float64)
		return ok && (math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y)))
	case []scalar.Scalar:
		y, ok := b.Value().([]scalar.Scalar)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a.Value() == b.Value()
}

// shrink makes a failing case smaller while it still fails: it replaces
// subtrees by one of their arguments or by a null literal, and keeps a
// single row of the data when one suffices. The caller releases the
// returned array.
func shrink(mem memory.Allocator, b *expr.Bound, input arrow.Array, mode diffMode) (*expr.Bound, arrow.Array) {
	fails := func(b *expr.Bound, in arrow.Array) bool {
		return checkDifferentialMode(mem, b, in, mode).mismatch != ""
	}
	input.Retain()
	for i := range input.Len() {
		row := array.NewSlice(input, int64(i), int64(i+1))
		if fails(b, row) {
			input.Release()
			input = row
			break
		}
		row.Release()
	}
	for changed := true; changed; {
		changed = false
		for _, path := range nodePaths(b) {
			n := nodeAt(b, path)
			var cands []*expr.Bound
			for _, a := range n.Args() {
				if a.Kind() != expr.KindLambda {
					cands = append(cands, a)
				}
			}
			if _, isLit := n.Literal(); !isLit && n.Kind() == expr.KindCall {
				cands = append(cands, expr.NewLiteral(scalar.Null(n.DType())))
			}
			for _, c := range cands {
				nb, err := replaceAt(b, path, c)
				if err == nil && fails(nb, input) {
					b, changed = nb, true
					break
				}
			}
			if changed {
				break
			}
		}
	}
	return b, input
}

// nodePaths lists the paths (argument indices from the root) of b's nodes,
// in pre-order.
func nodePaths(b *expr.Bound) [][]int {
	var out [][]int
	var walk func(n *expr.Bound, path []int)
	walk = func(n *expr.Bound, path []int) {
		out = append(out, append([]int(nil), path...))
		for i, a := range n.Args() {
			walk(a, append(path, i))
		}
	}
	walk(b, nil)
	return out
}

func nodeAt(b *expr.Bound, path []int) *expr.Bound {
	for _, i := range path {
		b = b.Arg(i)
	}
	return b
}

// replaceAt is b with the node at path replaced by repl, retyped.
func replaceAt(b *expr.Bound, path []int, repl *expr.Bound) (*expr.Bound, error) {
	if len(path) == 0 {
		return repl, nil
	}
	child, err := replaceAt(b.Arg(path[0]), path[1:], repl)
	if err != nil {
		return nil, err
	}
	args := append([]*expr.Bound(nil), b.Args()...)
	args[path[0]] = child
	return b.WithArgs(args)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// evalMode evaluates b over input as mode says, to an array.
func evalMode(mem memory.Allocator, b *expr.Bound, input arrow.Array, rt dtype.DType, row0 scalar.Scalar, mode diffMode) (arrow.Array, error) {
	if !mode.scalarRoot && len(mode.vars) == 0 {
		return Eval(mem, b, input)
	}
	n := input.Len()
	in := datum.FromArray(input, rt)
	if mode.scalarRoot {
		in = datum.FromScalar(row0, n)
	}
	vars := map[string]datum.Datum{}
	for _, f := range mode.vars {
		i := rt.FieldIndex(f)
		ft := rt.Fields()[i].Type
		if mode.scalarRoot {
			vars["c_"+f] = datum.FromScalar(row0.Value().([]scalar.Scalar)[i], n)
		} else {
			vars["c_"+f] = datum.FromArray(input.(*array.Struct).Field(i), ft)
		}
	}
	d, err := EvalDatum(mem, b, in, vars)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return materialize(mem, d, b.DType())
}
