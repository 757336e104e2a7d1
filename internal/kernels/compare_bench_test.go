package kernels

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// decimalBenchColumn is a decimal(15,2) column of n discounts 0.00 to 0.10,
// as TPC-H's l_discount, without nulls.
func decimalBenchColumn(n int) datum.Datum {
	t := dtype.Decimal(15, 2, true)
	b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 15, Scale: 2})
	defer b.Release()
	b.Reserve(n)
	for i := range n {
		b.UnsafeAppend(decimal128.FromI64(int64(i*7919) % 11))
	}
	return datum.FromArray(b.NewArray(), t)
}

// BenchmarkBetweenDecimal15 is TPC-H Q6's l_discount BETWEEN 0.05 AND 0.07
// over 1M decimal(15,2) rows.
func BenchmarkBetweenDecimal15(b *testing.B) {
	const n = 1 << 20
	x := decimalBenchColumn(n)
	defer x.Release()
	lo := datum.FromScalar(scalar.Decimal(decimal128.FromI64(5), 15, 2), n)
	hi := datum.FromScalar(scalar.Decimal(decimal128.FromI64(7), 15, 2), n)
	for _, a := range benchAllocs {
		b.Run(a.name, func(b *testing.B) {
			runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
				return Between(mem, x, lo, hi, dtype.Bool(true))
			}, a.mem())
		})
	}
}

// BenchmarkCompareDecimal15 is decimal(15,2) < scalar and column <
// column over 1M rows.
func BenchmarkCompareDecimal15(b *testing.B) {
	const n = 1 << 20
	x := decimalBenchColumn(n)
	defer x.Release()
	s := datum.FromScalar(scalar.Decimal(decimal128.FromI64(6), 15, 2), n)
	mem := newRecycler()
	b.Run("scalar", func(b *testing.B) {
		runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
			return Compare(mem, CmpLt, x, s, dtype.Bool(true))
		}, mem)
	})
	b.Run("columns", func(b *testing.B) {
		runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
			return Compare(mem, CmpLt, x, x, dtype.Bool(true))
		}, mem)
	})
}
