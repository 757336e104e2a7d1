package kernels

// Benchmarks of the fixed-width kernels. Run with
//
//	go test -bench . -benchmem -run '^$' ./internal/kernels/
//
// Each kernel runs twice: with Arrow's Go allocator (every result is fresh
// Go memory, so the figure includes the garbage collector's share) and with
// a recycling allocator that hands a released buffer back to the next
// request of the same size, as a pooled allocator in an engine would — that
// figure is the kernel itself. ns/value is wall time per row; cpu-ns/value
// is the process's CPU time per row, which a busy machine inflates less.

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"

	"github.com/colexpr/colexpr/internal/cputime"
)

// recycler is a memory.Allocator that keeps freed buffers by size and
// hands them out again.
type recycler struct {
	mu   sync.Mutex
	free map[int][][]byte
}

func newRecycler() *recycler { return &recycler{free: map[int][][]byte{}} }

func (r *recycler) Allocate(size int) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.free[size]; len(l) > 0 {
		b := l[len(l)-1]
		r.free[size] = l[:len(l)-1]
		return b
	}
	return make([]byte, size, size+64)
}

func (r *recycler) Reallocate(size int, b []byte) []byte {
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

func (r *recycler) Free(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.free[len(b)] = append(r.free[len(b)], b[:len(b):len(b)])
}

type benchAlloc struct {
	name string
	mem  func() memory.Allocator
}

var benchAllocs = []benchAlloc{
	{"go", func() memory.Allocator { return memory.NewGoAllocator() }},
	{"recycled", func() memory.Allocator { return newRecycler() }},
}

// benchColumn is a column of n values from gen, a fraction nullRate of
// them null.
func benchColumn[T any](mem memory.Allocator, t dtype.DType, n int, nullRate float64, gen func(i int) T) datum.Datum {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	b := array.NewBuilder(mem, dtype.ToArrow(t))
	defer b.Release()
	for i := 0; i < n; i++ {
		if rng.Float64() < nullRate {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Uint32Builder:
			bb.Append(any(gen(i)).(uint32))
		case *array.Int64Builder:
			bb.Append(any(gen(i)).(int64))
		case *array.BooleanBuilder:
			bb.Append(any(gen(i)).(bool))
		case *array.Float64Builder:
			bb.Append(any(gen(i)).(float64))
		}
	}
	return datum.FromArray(b.NewArray(), t)
}

func runBench(b *testing.B, n int, f func(mem memory.Allocator) (datum.Datum, error), mem memory.Allocator) {
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		res, err := f(mem)
		if err != nil {
			b.Fatal(err)
		}
		res.Release()
	}
	reportPerValue(b, n, cputime.Process()-start)
}

// reportPerValue reports wall and CPU nanoseconds per row.
func reportPerValue(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/value")
	}
}

// BenchmarkCheckedAddU32: u32 + u32 with overflow checks, 16 384 rows.
func BenchmarkCheckedAddU32(b *testing.B) {
	const n = 16384
	t := dtype.Primitive(dtype.U32, true)
	for _, nulls := range []float64{0, 0.1} {
		for _, a := range benchAllocs {
			b.Run(fmt.Sprintf("nulls=%v/%s", nulls, a.name), func(b *testing.B) {
				mem := a.mem()
				x := benchColumn(mem, t, n, nulls, func(i int) uint32 { return uint32(i * 7) })
				y := benchColumn(mem, t, n, nulls, func(i int) uint32 { return uint32(i * 13) })
				defer x.Release()
				defer y.Release()
				runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
					return IntArith[uint32](mem, OpAdd, x, y, t)
				}, mem)
			})
		}
	}
}

// BenchmarkCheckedAddU32Loop is the loop alone, into a buffer reused
// across iterations: no allocation at all.
func BenchmarkCheckedAddU32Loop(b *testing.B) {
	const n = 16384
	x, y, dst := make([]uint32, n), make([]uint32, n), make([]uint32, n)
	for i := range x {
		x[i], y[i] = uint32(i*7), uint32(i*13)
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if addVV(dst, x, y) {
			b.Fatal("overflow")
		}
	}
	reportPerValue(b, n, cputime.Process()-start)
}

// BenchmarkCompareI64Scalar: i64 column < literal, 1M rows (10% nulls).
func BenchmarkCompareI64Scalar(b *testing.B) {
	const n = 1 << 20
	t := dtype.Primitive(dtype.I64, true)
	for _, a := range benchAllocs {
		b.Run(a.name, func(b *testing.B) {
			mem := a.mem()
			x := benchColumn(mem, t, n, 0.1, func(i int) int64 { return int64(i*7919) % 1000 })
			defer x.Release()
			s := datum.FromScalar(scalar.Int64(500), n)
			runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
				return Compare(mem, CmpLt, x, s, dtype.Bool(true))
			}, mem)
		})
	}
}

// BenchmarkCompareI64Columns: i64 column = i64 column, 1M rows.
func BenchmarkCompareI64Columns(b *testing.B) {
	const n = 1 << 20
	t := dtype.Primitive(dtype.I64, true)
	mem := newRecycler()
	x := benchColumn(mem, t, n, 0.1, func(i int) int64 { return int64(i % 10) })
	y := benchColumn(mem, t, n, 0.1, func(i int) int64 { return int64(i % 7) })
	defer x.Release()
	defer y.Release()
	runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
		return Compare(mem, CmpEq, x, y, dtype.Bool(true))
	}, mem)
}

// BenchmarkKleeneAnd: nullable bool AND nullable bool, 1M rows.
func BenchmarkKleeneAnd(b *testing.B) {
	const n = 1 << 20
	t := dtype.Bool(true)
	for _, a := range benchAllocs {
		b.Run(a.name, func(b *testing.B) {
			mem := a.mem()
			x := benchColumn(mem, t, n, 0.1, func(i int) bool { return i%3 != 0 })
			y := benchColumn(mem, t, n, 0.1, func(i int) bool { return i%5 != 0 })
			defer x.Release()
			defer y.Release()
			runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
				return Logic(mem, false, x, y, t)
			}, mem)
		})
	}
}

// BenchmarkOtherKernels covers the rest of the fixed-width family on 64K
// rows with a recycling allocator, to keep each under 2 ns/value.
func BenchmarkOtherKernels(b *testing.B) {
	const n = 1 << 16
	mem := newRecycler()
	i64 := dtype.Primitive(dtype.I64, true)
	x := benchColumn(mem, i64, n, 0.1, func(i int) int64 { return int64(i%1000 - 500) })
	y := benchColumn(mem, i64, n, 0.1, func(i int) int64 { return int64(i%997 + 1) })
	defer x.Release()
	defer y.Release()
	bl := dtype.Bool(true)
	p := benchColumn(mem, bl, n, 0.1, func(i int) bool { return i%3 != 0 })
	defer p.Release()
	s := datum.FromScalar(scalar.Int64(3), n)
	f64 := dtype.Primitive(dtype.F64, true)
	fx := benchColumn(mem, f64, n, 0.1, func(i int) float64 { return float64(i%1000) / 7 })
	defer fx.Release()
	f16 := dtype.Primitive(dtype.F16, true)
	hx, err := Cast(mem, fx, f16, false)
	if err != nil {
		b.Fatal(err)
	}
	defer hx.Release()
	dec := dtype.Decimal(15, 2, true)
	dx, err := Cast(mem, x, dec, false)
	if err != nil {
		b.Fatal(err)
	}
	defer dx.Release()
	dec16 := dtype.Decimal(16, 2, true)
	dec38 := dtype.Decimal(38, 2, true)
	wx, err := Cast(mem, x, dec38, false)
	if err != nil {
		b.Fatal(err)
	}
	defer wx.Release()
	cases := []struct {
		name string
		f    func(mem memory.Allocator) (datum.Datum, error)
	}{
		{"sub_i64", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpSub, x, y, i64) }},
		{"mul_i64", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpMul, x, y, i64) }},
		{"mul_i64_scalar", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpMul, x, s, i64) }},
		{"div_i64", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpDiv, x, y, i64) }},
		{"div_i64_scalar", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpDiv, x, s, i64) }},
		{"neg_i64", func(m memory.Allocator) (datum.Datum, error) { return IntNeg[int64](m, false, x, i64) }},
		{"between_i64", func(m memory.Allocator) (datum.Datum, error) {
			return Between(m, x, s, datum.FromScalar(scalar.Int64(100), n), bl)
		}},
		{"in_list_i64", func(m memory.Allocator) (datum.Datum, error) {
			return InList(m, x, []datum.Datum{s, datum.FromScalar(scalar.Int64(7), n), datum.FromScalar(scalar.Int64(9), n)}, bl)
		}},
		{"distinct_i64", func(m memory.Allocator) (datum.Datum, error) { return Distinct(m, false, x, y, bl) }},
		{"add_f64", func(m memory.Allocator) (datum.Datum, error) { return FloatArith[float64](m, OpAdd, fx, fx, f64) }},
		{"mul_f16", func(m memory.Allocator) (datum.Datum, error) { return F16Arith(m, OpMul, hx, hx, f16) }},
		{"add_decimal15", func(m memory.Allocator) (datum.Datum, error) { return DecimalArith(m, OpAdd, dx, dx, dec16) }},
		{"add_decimal38", func(m memory.Allocator) (datum.Datum, error) { return DecimalArith(m, OpAdd, wx, wx, dec38) }},
		{"mul_decimal15", func(m memory.Allocator) (datum.Datum, error) {
			return DecimalArith(m, OpMul, dx, dx, dtype.Decimal(30, 4, true))
		}},
		{"lt_decimal15", func(m memory.Allocator) (datum.Datum, error) { return Compare(m, CmpLt, dx, dx, bl) }},
		{"lt_decimal38", func(m memory.Allocator) (datum.Datum, error) { return Compare(m, CmpLt, wx, wx, bl) }},
		{"or", func(m memory.Allocator) (datum.Datum, error) { return Logic(m, true, p, p, bl) }},
		{"not", func(m memory.Allocator) (datum.Datum, error) { return Not(m, p, bl) }},
		{"is_null", func(m memory.Allocator) (datum.Datum, error) { return IsNull(m, false, x, dtype.Bool(false)) }},
		{"cast_i64_to_i32", func(m memory.Allocator) (datum.Datum, error) {
			return Cast(m, x, dtype.Primitive(dtype.I32, true), false)
		}},
		{"cast_i64_to_f64", func(m memory.Allocator) (datum.Datum, error) {
			return Cast(m, x, dtype.Primitive(dtype.F64, true), false)
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { runBench(b, n, c.f, mem) })
	}
}
