package eval

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Benchmarks of the evaluator (run with -benchmem). The figures that
// matter: list_transform over a million elements, and the evaluator's
// overhead over a bare kernel call for a column compared with a scalar.

const benchRows = 1 << 20

// benchInts is a struct<a: i64?> batch of n rows, one in 16 null.
func benchInts(mem memory.Allocator, n int) arrow.Array {
	bld := array.NewInt64Builder(mem)
	defer bld.Release()
	bld.Reserve(n)
	for i := range n {
		if i%16 == 15 {
			bld.AppendNull()
		} else {
			bld.UnsafeAppend(int64(i*7919) % 1000)
		}
	}
	col := bld.NewArray()
	defer col.Release()
	st, err := array.NewStructArrayWithFields([]arrow.Array{col}, []arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}})
	if err != nil {
		panic(err)
	}
	return st
}

// benchLists is a struct<xs: list<i32?>> batch holding elems elements in
// lists of 8.
func benchLists(mem memory.Allocator, elems int) arrow.Array {
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Int32Builder)
	vb.Reserve(elems)
	for i := range elems {
		if i%8 == 0 {
			lb.Append(true)
		}
		vb.UnsafeAppend(int32(i % 1000))
	}
	col := lb.NewArray()
	defer col.Release()
	st, err := array.NewStructArrayWithFields([]arrow.Array{col}, []arrow.Field{{Name: "xs", Type: col.DataType(), Nullable: true}})
	if err != nil {
		panic(err)
	}
	return st
}

func benchBind(b *testing.B, e expr.Expr, input arrow.Array) *expr.Bound {
	t, err := dtype.FromArrow(input.DataType(), false)
	if err != nil {
		b.Fatal(err)
	}
	return mustBind(b, e, t)
}

func runEval(b *testing.B, bound *expr.Bound, input arrow.Array, rows int) {
	mem := memory.NewGoAllocator()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := Eval(mem, bound, input)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
}

// BenchmarkListTransform: list_transform(xs, x -> x * 2) over 2^20
// elements in lists of 8.
func BenchmarkListTransform(b *testing.B) {
	input := benchLists(memory.NewGoAllocator(), benchRows)
	defer input.Release()
	bound := benchBind(b, lambda(fn.ListTransform, xs, "x", expr.Mul(x, expr.Lit(int32(2)))), input)
	runEval(b, bound, input, benchRows)
}

// BenchmarkListFilterCapture: list_filter(xs, x -> x > a) where a is a
// root column gathered to the elements, over 2^20 elements.
func BenchmarkListFilterCapture(b *testing.B) {
	mem := memory.NewGoAllocator()
	lists := benchLists(mem, benchRows)
	defer lists.Release()
	ints := benchInts(mem, benchRows/8)
	defer ints.Release()
	ab := ints.(*array.Struct).Field(0)
	// a as i32, to match the elements.
	i32 := array.NewInt32Builder(mem)
	for i := range ab.Len() {
		if ab.IsNull(i) {
			i32.AppendNull()
		} else {
			i32.Append(int32(ab.(*array.Int64).Value(i)))
		}
	}
	acol := i32.NewArray()
	i32.Release()
	defer acol.Release()
	input, err := array.NewStructArrayWithFields([]arrow.Array{lists.(*array.Struct).Field(0), acol},
		[]arrow.Field{{Name: "xs", Type: lists.(*array.Struct).Field(0).DataType(), Nullable: true}, {Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}})
	if err != nil {
		b.Fatal(err)
	}
	defer input.Release()
	bound := benchBind(b, lambda(fn.ListFilter, xs, "x", expr.Gt(x, a)), input)
	runEval(b, bound, input, benchRows)
}

// BenchmarkCompareScalar: a > 500 over 2^20 i64 rows, through Eval.
func BenchmarkCompareScalar(b *testing.B) {
	input := benchInts(memory.NewGoAllocator(), benchRows)
	defer input.Release()
	bound := benchBind(b, expr.Gt(a, expr.Lit(int64(500))), input)
	runEval(b, bound, input, benchRows)
}

// BenchmarkCompareScalarKernel: the same comparison as a bare kernel call,
// the floor the evaluator's overhead is measured against.
func BenchmarkCompareScalarKernel(b *testing.B) {
	mem := memory.NewGoAllocator()
	input := benchInts(mem, benchRows)
	defer input.Release()
	col := input.(*array.Struct).Field(0)
	it := dtype.Primitive(dtype.I64, true)
	args := []datum.Datum{datum.FromArray(col, it), datum.FromScalar(scalar.Int64(500), benchRows)}
	k := fn.Gt.(fn.Kernel)
	ctx := &fn.Context{Mem: mem}
	ret := dtype.Bool(true)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := k.Eval(ctx, args, ret)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(benchRows), "ns/row")
}

// BenchmarkCaseGuard: CASE WHEN a <> 0 THEN 1000 / a ELSE 0 END over 2^20
// rows: a subset evaluation and a merge.
func BenchmarkCaseGuard(b *testing.B) {
	input := benchInts(memory.NewGoAllocator(), benchRows)
	defer input.Release()
	e := caseWhen(expr.NotEq(a, expr.Lit(int64(0))), expr.Div(expr.Lit(int64(1000)), a), expr.Lit(int64(0)))
	bound := benchBind(b, e, input)
	runEval(b, bound, input, benchRows)
}

// BenchmarkCoalesce: coalesce(a * 2, 0) over 2^20 rows, one in 16 null:
// the first argument over every row, the literal over the null rows, and
// a merge of the two.
func BenchmarkCoalesce(b *testing.B) {
	input := benchInts(memory.NewGoAllocator(), benchRows)
	defer input.Release()
	bound := benchBind(b, expr.Coalesce(expr.Mul(a, expr.Lit(int64(2))), expr.Lit(int64(0))), input)
	runEval(b, bound, input, benchRows)
}

// BenchmarkFilter: Filter(a > 500) over 2^20 rows.
func BenchmarkFilter(b *testing.B) {
	mem := memory.NewGoAllocator()
	input := benchInts(mem, benchRows)
	defer input.Release()
	rec := array.RecordFromStructArray(input.(*array.Struct), nil)
	defer rec.Release()
	bound := benchBind(b, expr.Gt(a, expr.Lit(int64(500))), input)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := Filter(mem, bound, rec)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(benchRows), "ns/row")
}

// BenchmarkCompareScalarSmall and BenchmarkCompareScalarKernelSmall: the
// same over 1024 rows, where the evaluator's fixed cost per call shows.
func BenchmarkCompareScalarSmall(b *testing.B) {
	input := benchInts(memory.NewGoAllocator(), 1024)
	defer input.Release()
	bound := benchBind(b, expr.Gt(a, expr.Lit(int64(500))), input)
	runEval(b, bound, input, 1024)
}

func BenchmarkCompareScalarKernelSmall(b *testing.B) {
	mem := memory.NewGoAllocator()
	input := benchInts(mem, 1024)
	defer input.Release()
	col := input.(*array.Struct).Field(0)
	args := []datum.Datum{datum.FromArray(col, dtype.Primitive(dtype.I64, true)), datum.FromScalar(scalar.Int64(500), 1024)}
	k := fn.Gt.(fn.Kernel)
	ctx := &fn.Context{Mem: mem}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := k.Eval(ctx, args, dtype.Bool(true))
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1024, "ns/row")
}
