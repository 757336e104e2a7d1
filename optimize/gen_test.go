package optimize_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/scalar"
)

// Random data and random expressions over the test schema, for the
// property that optimizing never changes a result.

const batchRows = 64

// randomBatch is a struct array of the schema with n rows, drawn from seed.
// Integers are small (with the occasional extreme) so that arithmetic mostly
// succeeds but overflow and division by zero still happen.
func randomBatch(mem memory.Allocator, seed uint64, n int) arrow.Array {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := array.NewBuilder(mem, dtype.ToArrow(schema))
	defer b.Release()
	sb := b.(*array.StructBuilder)
	for range n {
		sb.Append(true)
		for i, f := range schema.Fields() {
			appendRandom(rng, sb.FieldBuilder(i), f.Type)
		}
	}
	return b.NewArray()
}

func appendRandom(rng *rand.Rand, b array.Builder, t dtype.DType) {
	if t.Nullable() && rng.IntN(5) == 0 {
		b.AppendNull()
		return
	}
	small := func() int64 {
		switch rng.IntN(20) {
		case 0:
			return 0
		case 1:
			return 1
		default:
			return rng.Int64N(11) - 5
		}
	}
	switch t.Kind() {
	case dtype.KindBool:
		b.(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
	case dtype.KindPrimitive:
		switch bb := b.(type) {
		case *array.Int8Builder:
			if rng.IntN(30) == 0 {
				bb.Append(math.MaxInt8)
				return
			}
			bb.Append(int8(small()))
		case *array.Int16Builder:
			bb.Append(int16(small()))
		case *array.Int32Builder:
			if rng.IntN(30) == 0 {
				bb.Append(math.MinInt32)
				return
			}
			bb.Append(int32(small()))
		case *array.Int64Builder:
			bb.Append(small())
		case *array.Uint8Builder:
			bb.Append(uint8(rng.IntN(256)))
		case *array.Float32Builder:
			bb.Append(float32(small()) / 2)
		case *array.Float64Builder:
			switch rng.IntN(12) {
			case 0:
				bb.Append(math.NaN())
			case 1:
				bb.Append(math.Copysign(0, -1))
			default:
				bb.Append(float64(small()) / 4)
			}
		default:
			panic(fmt.Sprintf("appendRandom: no case for %T", b))
		}
	case dtype.KindDecimal:
		b.(*array.Decimal128Builder).Append(decimal128.FromI64(small() * 25))
	case dtype.KindUtf8:
		words := []string{"", "a", "ab", "B", "xyz", "Ab"}
		b.(*array.StringBuilder).Append(words[rng.IntN(len(words))])
	case dtype.KindStruct:
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, f := range t.Fields() {
			appendRandom(rng, sb.FieldBuilder(i), f.Type)
		}
	case dtype.KindList:
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for range rng.IntN(4) {
			appendRandom(rng, lb.ValueBuilder(), t.Elem())
		}
	default:
		panic("appendRandom: no case for " + t.String())
	}
}

// checkSameResult evaluates original and optimized over random batches;
// when the original succeeds, the optimized tree must give the identical
// array (values, nulls and type).
func checkSameResult(t testing.TB, where string, original, optimized *expr.Bound) {
	t.Helper()
	if original == optimized {
		return
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := uint64(1); seed <= 3; seed++ {
		batch := randomBatch(mem, seed, batchRows)
		want, err := eval.Eval(mem, original, batch)
		if err != nil {
			batch.Release()
			continue
		}
		got, err := eval.Eval(mem, optimized, batch)
		batch.Release()
		if err != nil {
			want.Release()
			t.Errorf("%s: %s evaluates, but its optimized form %s fails: %v", where, original, optimized, err)
			return
		}
		if !arrow.TypeEqual(want.DataType(), got.DataType()) || !sameArray(want, got) {
			t.Errorf("%s: %s and its optimized form %s differ (seed %d):\n%s\n%s", where, original, optimized, seed, want, got)
		}
		want.Release()
		got.Release()
	}
}

// sameArray compares values and nulls exactly: NaN equals NaN and -0.0
// differs from 0.0 (the text form of an array shows both).
func sameArray(a, b arrow.Array) bool {
	return a.Len() == b.Len() && a.NullN() == b.NullN() && fmt.Sprint(a) == fmt.Sprint(b)
}

// gen draws random well-typed bound trees over the schema, biased towards
// the shapes the built-in rules rewrite.
type gen struct {
	rng  *rand.Rand
	root *expr.Bound
	vars []genVar // lambda parameters in scope
}

type genVar struct {
	name string
	t    dtype.DType
}

func (g *gen) pick(n int) int { return g.rng.IntN(n) }

func (g *gen) col(name string) *expr.Bound {
	b, err := expr.NewCall(fn.GetItem(name), g.root)
	if err != nil {
		panic(err)
	}
	return b
}

// call builds f(args…), or nil when the arguments do not type.
func call(f fn.Function, args ...*expr.Bound) *expr.Bound {
	for _, a := range args {
		if a == nil {
			return nil
		}
	}
	b, err := expr.NewCall(f, args...)
	if err != nil {
		return nil
	}
	return b
}

func lit(s scalar.Scalar) *expr.Bound { return expr.NewLiteral(s) }

var columns = map[dtype.PType][]string{
	dtype.I32: {"a", "b", "n", "m"},
	dtype.I64: {"l", "k"},
	dtype.I8:  {"t", "t2"},
	dtype.I16: {"h"},
	dtype.U8:  {"u"},
	dtype.F64: {"f", "g"},
	dtype.F32: {"f4"},
}

var numTypes = []dtype.PType{dtype.I32, dtype.I32, dtype.I64, dtype.I8, dtype.F64}

// numLit is a literal of type p: a special value, sometimes with a
// nullable dtype, sometimes null.
func (g *gen) numLit(p dtype.PType) *expr.Bound {
	t := dtype.Primitive(p, false)
	if g.pick(12) == 0 {
		return lit(scalar.Null(t))
	}
	var s scalar.Scalar
	switch {
	case p.IsFloat():
		vals := []float64{0, math.Copysign(0, -1), 1, 2.5, -1, math.NaN()}
		s = scalar.Float(p, vals[g.pick(len(vals))])
	case p.IsSigned():
		vals := []int64{0, 1, -1, 2, 5, 100}
		if p == dtype.I8 {
			vals = append(vals, 127)
		}
		s = scalar.Int(p, vals[g.pick(len(vals))])
	default:
		s = scalar.Uint(p, uint64(g.pick(3)))
	}
	if g.pick(6) == 0 {
		s = s.WithDType(t.AsNullable())
	}
	return lit(s)
}

func (g *gen) numCol(p dtype.PType) *expr.Bound {
	for _, v := range g.vars {
		if v.t.IsPrimitive() && v.t.PType() == p && g.pick(2) == 0 {
			return expr.NewVar(v.name, v.t)
		}
	}
	names := columns[p]
	if len(names) == 0 {
		return nil
	}
	return g.col(names[g.pick(len(names))])
}

// num is a number expression of type p (nullability varies).
func (g *gen) num(p dtype.PType, depth int) *expr.Bound {
	if depth <= 0 || g.pick(4) == 0 {
		if g.pick(3) == 0 {
			return g.numLit(p)
		}
		if c := g.numCol(p); c != nil {
			return c
		}
		return g.numLit(p)
	}
	var b *expr.Bound
	switch g.pick(10) {
	case 0, 1, 2:
		ops := []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Div, fn.Mod}
		x, y := g.num(p, depth-1), g.num(p, depth-1)
		if g.pick(2) == 0 {
			y = g.numLit(p)
		}
		b = call(ops[g.pick(len(ops))], x, y)
	case 3:
		// A widening cast (sometimes twice), or any cast.
		var from dtype.PType
		switch p {
		case dtype.I64:
			from = []dtype.PType{dtype.I8, dtype.I32, dtype.I16}[g.pick(3)]
		case dtype.I32:
			from = []dtype.PType{dtype.I8, dtype.I16, dtype.U8}[g.pick(3)]
		case dtype.F64:
			from = []dtype.PType{dtype.I32, dtype.F32, dtype.I8}[g.pick(3)]
		default:
			from = dtype.I32
		}
		x := g.num(from, depth-1)
		if x == nil {
			x = g.numCol(from)
		}
		if g.pick(3) == 0 && p == dtype.I64 {
			x = call(fn.Cast(dtype.Primitive(dtype.I32, false)), x)
		}
		b = call(fn.Cast(dtype.Primitive(p, g.pick(5) == 0)), x)
	case 4:
		b = g.caseOf(depth, func() *expr.Bound { return g.num(p, depth-1) })
	case 5:
		args := []*expr.Bound{g.num(p, depth-1), g.num(p, depth-1)}
		if g.pick(2) == 0 {
			args = append(args, g.numLit(p))
		}
		b = call(fn.Coalesce, args...)
	case 6:
		b = call(fn.FillNull, g.num(p, depth-1), g.numLit(p))
	case 7:
		if p == dtype.I32 {
			s := g.structv(depth - 1)
			b = call(fn.GetItem("x"), s)
		} else {
			b = call(fn.Neg, g.num(p, depth-1))
		}
	case 8:
		if p.IsFloat() || p.IsSigned() {
			b = call(fn.Neg, g.num(p, depth-1))
		}
	case 9:
		// Integer identities.
		x := g.num(p, depth-1)
		switch g.pick(4) {
		case 0:
			b = call(fn.Add, x, g.numLit(p))
		case 1:
			b = call(fn.Mul, g.numLit(p), x)
		case 2:
			b = call(fn.Div, x, g.numLit(p))
		default:
			b = call(fn.Sub, x, g.numLit(p))
		}
	}
	if b == nil {
		return g.num(p, 0)
	}
	return b
}

// caseOf is a CASE with one to three branches (some with literal
// conditions), with or without an ELSE, whose values come from value.
func (g *gen) caseOf(depth int, value func() *expr.Bound) *expr.Bound {
	var args []*expr.Bound
	for range 1 + g.pick(3) {
		var cond *expr.Bound
		switch g.pick(5) {
		case 0:
			cond = lit(scalar.Bool(g.pick(2) == 0))
		case 1:
			cond = lit(scalar.Null(dtype.Bool(true)))
		default:
			cond = g.boolean(depth - 1)
		}
		args = append(args, cond, value())
	}
	hasElse := g.pick(3) != 0
	if hasElse {
		args = append(args, value())
	}
	return call(fn.CaseWhen(hasElse), args...)
}

func (g *gen) boolLit() *expr.Bound {
	switch g.pick(5) {
	case 0:
		return lit(scalar.Null(dtype.Bool(true)))
	case 1:
		return lit(scalar.Bool(g.pick(2) == 0).WithDType(dtype.Bool(true)))
	}
	return lit(scalar.Bool(g.pick(2) == 0))
}

// boolean is a bool expression (nullability varies).
func (g *gen) boolean(depth int) *expr.Bound {
	if depth <= 0 || g.pick(5) == 0 {
		if g.pick(3) == 0 {
			return g.boolLit()
		}
		return g.col([]string{"p", "q", "r", "w"}[g.pick(4)])
	}
	var b *expr.Bound
	switch g.pick(12) {
	case 11:
		b = g.lambda(depth)
	case 0, 1:
		ops := []fn.Function{fn.And, fn.Or}
		x, y := g.boolean(depth-1), g.boolean(depth-1)
		switch g.pick(3) {
		case 0:
			y = g.boolLit()
		case 1:
			y = x
		}
		b = call(ops[g.pick(2)], x, y)
	case 2:
		b = call(fn.Not, g.boolean(depth-1))
	case 3, 4:
		ops := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom}
		p := numTypes[g.pick(len(numTypes))]
		x, y := g.num(p, depth-1), g.numLit(p)
		if g.pick(2) == 0 {
			x, y = y, x
		}
		b = call(ops[g.pick(len(ops))], x, y)
	case 5:
		ops := []fn.Function{fn.IsNull, fn.IsNotNull}
		b = call(ops[g.pick(2)], g.num(numTypes[g.pick(len(numTypes))], depth-1))
	case 6:
		// An OR chain of equalities of one column.
		p := numTypes[g.pick(len(numTypes))]
		x := g.numCol(p)
		b = call(fn.Eq, x, g.numLit(p))
		for range 1 + g.pick(4) {
			var next *expr.Bound
			if g.pick(4) == 0 {
				next = g.boolean(depth - 1)
			} else {
				next = call(fn.Eq, g.numCol(p), g.numLit(p))
				if next != nil && g.pick(4) == 0 {
					next = call(fn.InList, g.numCol(p), g.numLit(p), g.numLit(p))
				}
			}
			b = call(fn.Or, b, next)
		}
	case 7:
		p := numTypes[g.pick(len(numTypes))]
		args := []*expr.Bound{g.num(p, depth-1)}
		for range 1 + g.pick(3) {
			args = append(args, g.numLit(p))
		}
		b = call(fn.InList, args...)
	case 8:
		// CASE to bool, and the is-null CASE.
		if g.pick(2) == 0 {
			c := g.boolean(depth - 1)
			v := g.pick(2) == 0
			b = call(fn.CaseWhen(true), c, lit(scalar.Bool(v)), lit(scalar.Bool(!v)))
		} else {
			b = g.caseOf(depth, func() *expr.Bound { return g.boolean(depth - 1) })
		}
	case 9:
		// A widened column compared with a literal.
		ops := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq}
		x := call(fn.Cast(dtype.Primitive(dtype.I32, g.pick(4) == 0)), g.col([]string{"t", "t2", "h", "u"}[g.pick(4)]))
		vals := []int64{0, 5, -3, 127, 300, -129}
		b = call(ops[g.pick(len(ops))], x, lit(scalar.Int(dtype.I32, vals[g.pick(len(vals))])))
	case 10:
		ops := []fn.Function{fn.Eq, fn.NotEq, fn.Lt}
		b = call(ops[g.pick(3)], g.str(depth-1), g.str(0))
	}
	if b == nil {
		return g.boolean(0)
	}
	return b
}

// lambda is list_any or list_all over xs or xn, whose body is a bool
// expression that may use the element (and outer lambda parameters).
func (g *gen) lambda(depth int) *expr.Bound {
	list := g.col([]string{"xs", "xn"}[g.pick(2)])
	name := fmt.Sprintf("x%d", len(g.vars))
	g.vars = append(g.vars, genVar{name, list.DType().Elem()})
	body := g.boolean(depth - 1)
	g.vars = g.vars[:len(g.vars)-1]
	l := expr.NewLambda([]string{name}, []dtype.DType{list.DType().Elem()}, body)
	return call([]fn.Function{fn.ListAny, fn.ListAll}[g.pick(2)], list, l)
}

// str is a utf8 expression.
func (g *gen) str(depth int) *expr.Bound {
	if depth <= 0 || g.pick(3) == 0 {
		switch g.pick(4) {
		case 0:
			return lit(scalar.String([]string{"", "a", "xyz"}[g.pick(3)]))
		case 1:
			return lit(scalar.Null(dtype.Utf8(true)))
		}
		return g.col([]string{"s", "s2"}[g.pick(2)])
	}
	var b *expr.Bound
	switch g.pick(4) {
	case 0:
		b = call(fn.Coalesce, g.str(depth-1), g.str(depth-1))
	case 1:
		x := g.col("s2")
		b = call(fn.CaseWhen(true), call(fn.IsNull, x), g.str(0), x)
	case 2:
		b = call(fn.GetItem("y"), g.structv(depth-1))
	case 3:
		b = g.caseOf(depth, func() *expr.Bound { return g.str(depth - 1) })
	}
	if b == nil {
		return g.str(0)
	}
	return b
}

// structv is a struct<x: i32, y: utf8> expression (nullability varies).
func (g *gen) structv(depth int) *expr.Bound {
	if depth <= 0 || g.pick(3) == 0 {
		return g.col([]string{"st", "sn"}[g.pick(2)])
	}
	var b *expr.Bound
	switch g.pick(4) {
	case 0:
		b = call(fn.Pack("x", "y"), g.num(dtype.I32, depth-1), g.str(depth-1))
	case 1:
		b = call(fn.Merge, g.structv(depth-1), call(fn.Pack("x"), g.num(dtype.I32, depth-1)))
	case 2:
		b = call(fn.Select("x", "y"), call(fn.Pack("y", "z", "x"), g.str(depth-1), g.boolean(0), g.num(dtype.I32, depth-1)))
	case 3:
		s := g.structv(depth - 1)
		b = call(fn.Pack("x", "y"), call(fn.GetItem("x"), s), call(fn.GetItem("y"), s))
	}
	if b == nil {
		return g.structv(0)
	}
	return b
}

// TestOptimizedEvaluatesTheSame is the property test: for random
// expressions over random data, when the original evaluates without error,
// the optimized expression gives the identical result with the identical
// dtype; optimizing the result again changes nothing; no rule's replacement
// is ever rejected.
func TestOptimizedEvaluatesTheSame(t *testing.T) {
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	g := &gen{rng: rand.New(rand.NewPCG(7, 11)), root: expr.NewRoot(schema)}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	o := optimize.New()
	o.SetAllocator(mem)
	batches := make([]arrow.Array, 3)
	for i := range batches {
		batches[i] = randomBatch(mem, uint64(100+i), batchRows)
		defer batches[i].Release()
	}
	compared, changed := 0, 0
	for i := range iterations {
		var b *expr.Bound
		switch i % 4 {
		case 0, 1:
			b = g.boolean(4)
		case 2:
			b = g.num(numTypes[g.pick(len(numTypes))], 4)
		default:
			b = g.str(3)
		}
		out, _ := mustOptimize(t, o, b)
		if t.Failed() {
			t.Fatalf("iteration %d: %s", i, b)
		}
		if out == b {
			continue
		}
		changed++
		for _, batch := range batches {
			want, err := eval.Eval(mem, b, batch)
			if err != nil {
				continue
			}
			got, err := eval.Eval(mem, out, batch)
			if err != nil {
				want.Release()
				t.Fatalf("iteration %d: %s evaluates, its optimized form %s fails: %v", i, b, out, err)
			}
			compared++
			if !arrow.TypeEqual(want.DataType(), got.DataType()) || !sameArray(want, got) {
				t.Errorf("iteration %d: results differ\noriginal:  %s\noptimized: %s\n%s\n%s", i, b, out, firstLines(want), firstLines(got))
			}
			want.Release()
			got.Release()
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d trees, %d changed by the optimizer, %d evaluations compared", iterations, changed, compared)
	if compared < iterations/10 {
		t.Errorf("only %d comparisons over %d trees: the generator or the evaluator is not exercising the rules", compared, iterations)
	}
}

func firstLines(a arrow.Array) string {
	s := fmt.Sprint(a)
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return strings.TrimSpace(s)
}
