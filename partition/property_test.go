package partition_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scalar"
)

// gen builds random expressions over testSchema, in lambda bodies too.
type gen struct {
	r      *rand.Rand
	params []string // lambda parameters in scope (all i32?)
	next   int
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) lit(lo, hi int) expr.Expr {
	s, err := scalar.ParseNumber(fmt.Sprint(lo + g.pick(hi-lo+1)))
	if err != nil {
		panic(err)
	}
	return expr.Untyped(s)
}

// lambda is a fresh parameter name and a body built with it in scope.
func (g *gen) lambda(body func() expr.Expr) expr.Expr {
	p := fmt.Sprintf("x%d", g.next)
	g.next++
	g.params = append(g.params, p)
	b := body()
	g.params = g.params[:len(g.params)-1]
	return expr.Fn([]string{p}, b)
}

func (g *gen) int(d int) expr.Expr {
	leaves := []func() expr.Expr{
		func() expr.Expr { return expr.Col("b") },
		func() expr.Expr { return expr.Col("c") },
		func() expr.Expr { return expr.Col("t") },
		func() expr.Expr { return expr.Path("a", "x") },
		func() expr.Expr { return expr.Path("a", "y") },
		func() expr.Expr { return expr.Path("st", "u", "v") },
		func() expr.Expr { return g.lit(-3, 9) },
		func() expr.Expr { return expr.V("v") }, // a variable of the caller's scope
	}
	if len(g.params) > 0 {
		leaves = append(leaves, func() expr.Expr { return expr.V(g.params[g.pick(len(g.params))]) })
	}
	if d <= 0 || g.pick(3) == 0 {
		return leaves[g.pick(len(leaves))]()
	}
	switch g.pick(11) {
	case 8, 9:
		// A guard: the division runs only where the divisor is not zero.
		// Its dividend often reads the divisor's field only, so the
		// guarded division must not move into a partition that evaluates
		// it on every row.
		div := g.int(0)
		return &expr.Call{Fn: fn.CaseWhen(true), Args: []expr.Expr{
			expr.NotEq(div, g.lit(0, 0)), expr.Div(g.lit(1, 100), div), g.int(d - 1)}}
	case 0:
		return expr.Add(g.int(d-1), g.int(d-1))
	case 1:
		return expr.Sub(g.int(d-1), g.int(d-1))
	case 2:
		return expr.Mul(g.int(d-1), g.int(d-1))
	case 3:
		return expr.Div(g.int(d-1), g.int(d-1)) // may divide by zero
	case 4:
		return expr.Mod(g.int(d-1), g.int(d-1))
	case 5:
		return &expr.Call{Fn: fn.CaseWhen(true), Args: []expr.Expr{g.bool(d - 1), g.int(d - 1), g.int(d - 1)}}
	case 6:
		return expr.Coalesce(g.int(d-1), g.int(d-1))
	case 7:
		return expr.Apply(fn.Length, g.str(d-1))
	default:
		return expr.Apply(fn.ListElement, g.list(d-1), g.lit(-2, 3))
	}
}

func (g *gen) bool(d int) expr.Expr {
	if d <= 0 || g.pick(4) == 0 {
		switch g.pick(3) {
		case 0:
			return expr.Col("ok")
		case 1:
			return expr.Lit(g.pick(2) == 0)
		default:
			return expr.Gt(g.int(0), g.int(0))
		}
	}
	cmp := []func(a, b expr.Expr) expr.Expr{expr.Eq, expr.NotEq, expr.Lt, expr.LtEq, expr.Gt, expr.GtEq}
	switch g.pick(9) {
	case 0, 1:
		return cmp[g.pick(len(cmp))](g.int(d-1), g.int(d-1))
	case 2:
		return expr.And(g.bool(d-1), g.bool(d-1))
	case 3:
		return expr.Or(g.bool(d-1), g.bool(d-1))
	case 4:
		return expr.Not(g.bool(d - 1))
	case 5:
		return expr.IsNull(g.int(d - 1))
	case 6:
		f := []fn.Function{fn.ListAny, fn.ListAll}[g.pick(2)]
		return expr.Apply(f, g.list(d-1), g.lambda(func() expr.Expr { return g.bool(d - 1) }))
	case 7:
		return expr.Like(g.str(d-1), expr.Lit([]string{"a%", "%b", "_", "%"}[g.pick(4)]))
	default:
		return expr.In(g.int(d-1), g.int(0), g.int(0), g.lit(0, 3))
	}
}

func (g *gen) str(d int) expr.Expr {
	if d <= 0 || g.pick(3) == 0 {
		return []expr.Expr{expr.Col("s"), expr.Path("st", "w"), expr.Lit("ab")}[g.pick(3)]
	}
	switch g.pick(3) {
	case 0:
		return expr.Apply(fn.Lower, g.str(d-1))
	case 1:
		return expr.Apply(fn.Concat, g.str(d-1), g.str(d-1))
	default:
		return &expr.Call{Fn: fn.CaseWhen(false), Args: []expr.Expr{g.bool(d - 1), g.str(d - 1)}}
	}
}

func (g *gen) list(d int) expr.Expr {
	if d <= 0 || g.pick(2) == 0 {
		return expr.Col("xs")
	}
	if g.pick(2) == 0 {
		return expr.Apply(fn.ListFilter, g.list(d-1), g.lambda(func() expr.Expr { return g.bool(d - 1) }))
	}
	// The body's dtype varies; cast it so the list stays list<i32?>-like.
	return expr.Apply(fn.ListTransform, g.list(d-1), g.lambda(func() expr.Expr {
		return expr.Cast(g.int(d-1), dtype.Primitive(dtype.I32, true))
	}))
}

func (g *gen) expr(d int) expr.Expr {
	switch g.pick(4) {
	case 0:
		return g.int(d)
	case 1:
		return g.list(d)
	default:
		return g.bool(d)
	}
}

// randomValue is a random value of dtype t, null now and then when t is
// nullable.
func randomValue(r *rand.Rand, t dtype.DType) scalar.Scalar {
	if t.Nullable() && r.IntN(5) == 0 {
		return scalar.Null(t)
	}
	var v any
	switch {
	case t.IsBool():
		v = r.IntN(2) == 0
	case t.IsInt():
		n := int64(r.IntN(13) - 3)
		if r.IntN(40) == 0 {
			n = 2_000_000_000 // overflows when multiplied
		}
		v = n
	case t.IsUtf8():
		v = []string{"", "a", "ab", "b", "ba", "A"}[r.IntN(6)]
	case t.IsList():
		elems := make([]scalar.Scalar, r.IntN(4))
		for i := range elems {
			elems[i] = randomValue(r, t.Elem())
		}
		return scalar.List(t, elems)
	case t.IsStruct():
		fs := make([]scalar.Scalar, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = randomValue(r, f.Type)
		}
		return scalar.Struct(t, fs)
	default:
		panic("no random values of " + t.String())
	}
	s, err := scalar.New(t, v)
	if err != nil {
		panic(err)
	}
	return s
}

// randomBatch is a struct array of n random rows of the non-nullable struct
// root.
func randomBatch(t *testing.T, mem memory.Allocator, r *rand.Rand, root dtype.DType, n int) *array.Struct {
	fields := root.Fields()
	cols := make([]arrow.Array, len(fields))
	afields := make([]arrow.Field, len(fields))
	for i, f := range fields {
		b := array.NewBuilder(mem, dtype.ToArrow(f.Type))
		for j := 0; j < n; j++ {
			if err := scalar.Append(b, randomValue(r, f.Type)); err != nil {
				t.Fatal(err)
			}
		}
		cols[i] = b.NewArray()
		b.Release()
		afields[i] = dtype.ToArrowField(f.Name, f.Type)
	}
	st, err := array.NewStructArrayWithFields(cols, afields)
	for _, c := range cols {
		c.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// rowValues reads every row of d.
func rowValues(t *testing.T, d datum.Datum) []scalar.Scalar {
	out := make([]scalar.Scalar, d.Len())
	for i := range out {
		if d.IsScalar() {
			out[i] = d.Scalar()
			continue
		}
		s, err := scalar.FromArray(d.Array(), i, d.DType())
		if err != nil {
			t.Fatal(err)
		}
		out[i] = s
	}
	return out
}

func sameValue(a, b scalar.Scalar) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	c, err := scalar.Compare(a, b)
	return err == nil && c == 0
}

// evalPartitioned evaluates each partition on its column and then the root
// with the partitions' results as variables.
func evalPartitioned(mem memory.Allocator, p *partition.Partitioned, batch *array.Struct, root dtype.DType, outer map[string]datum.Datum) (datum.Datum, error) {
	vars := map[string]datum.Datum{}
	defer func() {
		for _, v := range vars {
			v.Release()
		}
	}()
	for name, v := range outer {
		vars[name] = v.Retain()
	}
	for _, part := range p.Partitions {
		i := root.FieldIndex(part.Field)
		col := batch.Field(i)
		col.Retain()
		in := datum.FromArray(col, root.Fields()[i].Type)
		res, err := eval.EvalDatum(mem, part.Expr, in, nil)
		in.Release()
		if err != nil {
			return datum.Datum{}, fmt.Errorf("partition %s: %w", part.Field, err)
		}
		vars[part.Var] = res
	}
	batch.Retain()
	in := datum.FromArray(batch, root)
	defer in.Release()
	return eval.EvalDatum(mem, p.Root, in, vars)
}

// TestPartitionedEvaluation is the property partitioning promises: for
// random expressions over random data, evaluating each partition on its
// column and then the root gives exactly what evaluating the whole
// expression gives, and fails exactly when it fails.
func TestPartitionedEvaluation(t *testing.T) {
	const (
		exprs = 400
		rows  = 40
	)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	root := mustType(t, testSchema)
	// The caller's scope has a variable, as a pipeline would bind one.
	scope := expr.ScopeOf(root).With("v", dtype.Primitive(dtype.I32, false))
	outer := map[string]datum.Datum{"v": datum.FromScalar(scalar.Int32(2), rows)}
	r := rand.New(rand.NewPCG(7, 11))
	g := &gen{r: r}
	batch := randomBatch(t, mem, r, root, rows)
	defer batch.Release()
	whole := datum.FromArray(batch, root)
	batch.Retain() // whole's reference; released below with whole
	defer whole.Release()

	failures, partitioned := 0, 0
	for i := 0; i < exprs; i++ {
		e := g.expr(4)
		b, err := coerce.Bind(e, scope)
		if err != nil {
			t.Fatalf("generated %s does not bind: %v", e, err)
		}
		p, err := partition.ByField(b, scope)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		partitioned += len(p.Partitions)
		want, werr := eval.EvalDatum(mem, b, whole, outer)
		got, gerr := evalPartitioned(mem, p, batch, root, outer)
		switch {
		case werr != nil && gerr != nil:
			failures++
			if testing.Verbose() {
				t.Logf("both fail: %v", werr)
			}
		case werr != nil:
			got.Release()
			t.Errorf("%s\n%s: the expression fails (%v) but its partitions do not", b, p, werr)
		case gerr != nil:
			want.Release()
			t.Errorf("%s\n%s: the partitions fail: %v", b, p, gerr)
		default:
			if !got.DType().Equal(want.DType()) {
				t.Errorf("%s: dtype %s, want %s", b, got.DType(), want.DType())
			}
			wv, gv := rowValues(t, want), rowValues(t, got)
			for row := range wv {
				if !sameValue(wv[row], gv[row]) {
					t.Errorf("%s\n%s: row %d: got %s, want %s", b, p, row, gv[row], wv[row])
					break
				}
			}
			want.Release()
			got.Release()
		}
	}
	t.Logf("%d expressions, %d partitions, %d failing on both sides", exprs, partitioned, failures)
	if failures > exprs/2 {
		t.Errorf("%d of %d expressions fail: the generator tests too little", failures, exprs)
	}
}
