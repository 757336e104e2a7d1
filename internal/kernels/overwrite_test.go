package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/memtest"
	"github.com/colexpr/colexpr/scalar"
)

// TestKernelsOverwrite checks that the kernels on the hot paths of the
// benchmarks (checked arithmetic, comparison, Kleene logic, list_element)
// write every byte of the buffers they return that a reader can see: the
// same call gives an equal result whether its allocator clears memory or
// hands out dirty memory. That is what lets their callers give them a
// recycling allocator that does not clear (issue 17.3: no zeroing of
// buffers that are fully overwritten). Inputs are sliced, with and without
// nulls, at lengths around the 64-row words.
func TestKernelsOverwrite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	for _, n := range []int{1, 7, 63, 64, 65, 130, 1000} {
		for _, nulls := range []bool{false, true} {
			mem := checkedMem(t)
			u32 := func() datum.Datum {
				return overwriteColumn(mem, n, nulls, rng, arrow.PrimitiveTypes.Uint32, func(b array.Builder) {
					b.(*array.Uint32Builder).Append(1 + uint32(rng.IntN(1<<15)))
				}, ty("u32?"))
			}
			i64 := func() datum.Datum {
				return overwriteColumn(mem, n, nulls, rng, arrow.PrimitiveTypes.Int64, func(b array.Builder) {
					b.(*array.Int64Builder).Append(int64(rng.IntN(1<<20)) - 1<<19)
				}, ty("i64?"))
			}
			boolean := func() datum.Datum {
				return overwriteColumn(mem, n, nulls, rng, arrow.FixedWidthTypes.Boolean, func(b array.Builder) {
					b.(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
				}, ty("bool?"))
			}
			a, b, x, y, p, q := u32(), u32(), i64(), i64(), boolean(), boolean()
			lists, idx := overwriteLists(mem, n, nulls, rng), i64()
			cases := []struct {
				name string
				call func(mem memory.Allocator) (datum.Datum, error)
			}{
				{"u32 add", func(m memory.Allocator) (datum.Datum, error) { return IntArith[uint32](m, OpAdd, a, b, ty("u32?")) }},
				{"u32 add scalar", func(m memory.Allocator) (datum.Datum, error) {
					return IntArith[uint32](m, OpAdd, a, datum.FromScalar(scalar.Uint(dtype.U32, 9), n), ty("u32?"))
				}},
				{"u32 mul", func(m memory.Allocator) (datum.Datum, error) { return IntArith[uint32](m, OpMul, a, b, ty("u32?")) }},
				{"u32 div", func(m memory.Allocator) (datum.Datum, error) { return IntArith[uint32](m, OpDiv, a, b, ty("u32?")) }},
				{"i64 sub", func(m memory.Allocator) (datum.Datum, error) { return IntArith[int64](m, OpSub, x, y, ty("i64?")) }},
				{"i64 mod", func(m memory.Allocator) (datum.Datum, error) {
					return IntArith[int64](m, OpMod, x, datum.FromScalar(scalar.Int64(7), n), ty("i64?"))
				}},
				{"i64 < scalar", func(m memory.Allocator) (datum.Datum, error) {
					return Compare(m, CmpLt, x, datum.FromScalar(scalar.Int64(12345), n), ty("bool?"))
				}},
				{"i64 < i64", func(m memory.Allocator) (datum.Datum, error) { return Compare(m, CmpLt, x, y, ty("bool?")) }},
				{"AND", func(m memory.Allocator) (datum.Datum, error) { return Logic(m, false, p, q, ty("bool?")) }},
				{"OR", func(m memory.Allocator) (datum.Datum, error) { return Logic(m, true, p, q, ty("bool?")) }},
				{"list_element", func(m memory.Allocator) (datum.Datum, error) { return ListElement(m, lists, idx, ty("u32?")) }},
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/n=%d/nulls=%v", c.name, n, nulls), func(t *testing.T) {
					clean, err := c.call(mem)
					if err != nil {
						t.Fatal(err)
					}
					defer clean.Release()
					dirty, err := c.call(memtest.Dirty{Allocator: mem})
					if err != nil {
						t.Fatal(err)
					}
					defer dirty.Release()
					if clean.IsScalar() || dirty.IsScalar() {
						return
					}
					ca, da := clean.Array(), dirty.Array()
					if ca.NullN() != da.NullN() || !array.Equal(ca, da) {
						t.Errorf("over dirty memory\n%v\nwant\n%v", da, ca)
					}
				})
			}
			for _, d := range []datum.Datum{a, b, x, y, p, q, lists, idx} {
				d.Release()
			}
		}
	}
}

// overwriteColumn is n rows from add (a tenth null when nulls is set),
// sliced from a longer array so that they start at row 3.
func overwriteColumn(mem memory.Allocator, n int, nulls bool, rng *rand.Rand, dt arrow.DataType, add func(array.Builder), t dtype.DType) datum.Datum {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for range n + 5 {
		if nulls && rng.IntN(10) == 0 {
			b.AppendNull()
		} else {
			add(b)
		}
	}
	full := b.NewArray()
	defer full.Release()
	return datum.FromArray(array.NewSlice(full, 3, int64(n+3)), t)
}

// overwriteLists is n lists of 0 to 4 u32 values (a tenth null when nulls
// is set), sliced like overwriteColumn.
func overwriteLists(mem memory.Allocator, n int, nulls bool, rng *rand.Rand) datum.Datum {
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Uint32)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Uint32Builder)
	for range n + 5 {
		if nulls && rng.IntN(10) == 0 {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		for range rng.IntN(5) {
			vb.Append(rng.Uint32())
		}
	}
	full := lb.NewArray()
	defer full.Release()
	return datum.FromArray(array.NewSlice(full, 3, int64(n+3)), ty("list<u32>?"))
}
