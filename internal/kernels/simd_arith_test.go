package kernels

// The SIMD checked arithmetic (add, sub, mul) against the portable loops:
// the same results, and the same "some row may have failed" flag (both
// are exact, so they agree on every input, except that 64-bit
// multiplication flags by a bound: where the portable loop flags, and
// maybe elsewhere), for every length 0…300 and offset 0…63, with
// overflowing pairs planted at random rows or not at all; then
// IntArith end to end over sliced arrays with nulls, where the error (row
// and text) must be the portable one.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestSIMDArith(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	t.Run("i8", func(t *testing.T) { simdArithCheck[int8](t, rng) })
	t.Run("i16", func(t *testing.T) { simdArithCheck[int16](t, rng) })
	t.Run("i32", func(t *testing.T) { simdArithCheck[int32](t, rng) })
	t.Run("i64", func(t *testing.T) { simdArithCheck[int64](t, rng) })
	t.Run("u8", func(t *testing.T) { simdArithCheck[uint8](t, rng) })
	t.Run("u16", func(t *testing.T) { simdArithCheck[uint16](t, rng) })
	t.Run("u32", func(t *testing.T) { simdArithCheck[uint32](t, rng) })
	t.Run("u64", func(t *testing.T) { simdArithCheck[uint64](t, rng) })
}

// arithEdges is T's extremes and their neighbours, 0 and ±1.
func arithEdges[T Integer]() []T {
	lo, hi := minOf[T](), maxOf[T]()
	return []T{lo, lo + 1, lo + 2, hi, hi - 1, hi - 2, 0, 1, ^T(0), hi / 2, lo / 2, hi/2 + 1}
}

// arithValues fills xs with small values, and with edges at rows where
// overflow is wanted (rarely, so that the flag is often clear).
func arithValues[T Integer](rng *rand.Rand, xs []T, edges []T, plant bool) {
	for i := range xs {
		xs[i] = T(rng.IntN(50))
		if isSigned[T]() {
			xs[i] -= 25
		}
	}
	if plant && len(xs) > 0 {
		for range 1 + rng.IntN(2) {
			xs[rng.IntN(len(xs))] = edges[rng.IntN(len(edges))]
		}
	}
}

func simdArithCheck[T Integer](t *testing.T, rng *rand.Rand) {
	edges := arithEdges[T]()
	a := make([]T, simdMaxLen+simdMaxOff)
	b := make([]T, simdMaxLen+simdMaxOff)
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			plant := rng.IntN(2) == 0
			arithValues(rng, a, edges, plant)
			arithValues(rng, b, edges, plant)
			x, y := a[off:off+n], b[off:off+n]
			s := edges[rng.IntN(len(edges))]
			if rng.IntN(2) == 0 {
				s = T(rng.IntN(20))
			}
			sc := Fixed[T]{Scalar: s, IsScalar: true}
			for _, op := range []ArithOp{OpAdd, OpSub, OpMul} {
				forms := [...]struct {
					name string
					l, r Fixed[T]
				}{
					{"column-column", Fixed[T]{Vals: x}, Fixed[T]{Vals: y}},
					{"column-scalar", Fixed[T]{Vals: x}, sc},
					{"scalar-column", sc, Fixed[T]{Vals: y}},
				}
				for _, f := range forms {
					if err := simdArithSame(op, n, f.l, f.r); err != nil {
						t.Fatalf("%s %s n %d off %d: %v", op, f.name, n, off, err)
					}
				}
			}
		}
	}
}

// simdArithSame runs intLoop with the portable loops and with each set
// and reports the first difference in values or flag, or a write past
// the rows.
func simdArithSame[T Integer](op ArithOp, n int, l, r Fixed[T]) error {
	guard := T(0x5a)
	want := make([]T, n+1)
	want[n] = guard
	var wantOf bool
	withActive(nil, func() { wantOf = intLoop(op, want[:n], l, r, nil) })
	for _, set := range simdCases() {
		got := make([]T, n+1)
		got[n] = guard
		var of bool
		withActive(set, func() { of = intLoop(op, got[:n], l, r, nil) })
		if got[n] != guard {
			return fmt.Errorf("%s wrote past the last row", set.name)
		}
		// The 64-bit multiplications flag by a bound (mul64512): they must
		// flag where the portable loop does, and may flag more.
		bound := op == OpMul && bitWidth[T]() == 64
		if of != wantOf && !(bound && of) {
			return fmt.Errorf("%s: overflow flag %v, the portable loop's %v", set.name, of, wantOf)
		}
		if i := slices.Compare(got[:n], want[:n]); i != 0 {
			for i := range n {
				if got[i] != want[i] {
					return fmt.Errorf("%s: row %d is %d, the portable loop's %d", set.name, i, got[i], want[i])
				}
			}
		}
	}
	return nil
}

// TestSIMDArithArrays runs IntArith over sliced nullable arrays, with an
// overflow planted under a null row or a valid one: the result, or the
// error's text and row, must be the portable loops'.
func TestSIMDArithArrays(t *testing.T) {
	simdArithArrays[int32](t, dtype.I32)
	simdArithArrays[uint16](t, dtype.U16)
	simdArithArrays[int64](t, dtype.I64)
	simdArithArrays[uint64](t, dtype.U64)
}

func simdArithArrays[T Integer](t *testing.T, p dtype.PType) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(uint64(p), 8))
	typ := dtype.Primitive(p, true)
	const total = simdMaxLen + simdMaxOff
	edges := arithEdges[T]()
	for trial := range 120 {
		xs, ys := make([]T, total), make([]T, total)
		arithValues(rng, xs, edges, trial%3 != 0)
		arithValues(rng, ys, edges, trial%3 != 0)
		vx, vy := make([]bool, total), make([]bool, total)
		for i := range vx {
			vx[i], vy[i] = rng.IntN(6) != 0, trial%2 == 0 || rng.IntN(6) != 0
		}
		xa, ya := intColumn(mem, typ, xs, vx), intColumn(mem, typ, ys, vy)
		n := rng.IntN(simdMaxLen + 1)
		off := rng.IntN(simdMaxOff + 1)
		x := datum.FromArray(array.NewSlice(xa.Array(), int64(off), int64(off+n)), typ)
		y := datum.FromArray(array.NewSlice(ya.Array(), int64(off), int64(off+n)), typ)
		sv, _ := scalar.New(typ.AsNonNullable(), scalarValue(edges[trial%len(edges)]))
		s := datum.FromScalar(sv, n)
		for _, op := range []ArithOp{OpAdd, OpSub, OpMul} {
			for _, args := range [][2]datum.Datum{{x, y}, {x, s}, {s, y}} {
				var want datum.Datum
				var wantErr error
				withActive(nil, func() { want, wantErr = IntArith[T](mem, op, args[0], args[1], typ) })
				for _, set := range simdCases() {
					var got datum.Datum
					var err error
					withActive(set, func() { got, err = IntArith[T](mem, op, args[0], args[1], typ) })
					switch {
					case fmt.Sprint(err) != fmt.Sprint(wantErr):
						t.Fatalf("%s %s %s trial %d: error %v, want %v", set.name, p, op, trial, err, wantErr)
					case err == nil && !array.Equal(got.Array(), want.Array()):
						t.Fatalf("%s %s %s trial %d: %v, want %v", set.name, p, op, trial, got.Array(), want.Array())
					}
					if err == nil {
						got.Release()
					}
				}
				if wantErr == nil {
					want.Release()
				}
			}
		}
		for _, d := range []datum.Datum{x, y, xa, ya} {
			d.Release()
		}
	}
}

// TestSIMDMul64Bound checks that the 64-bit multiplications' bound flags
// no column whose values have magnitudes below 2^31 (signed) or 2^32
// (unsigned), so that ordinary data never pays for the rescan.
func TestSIMDMul64Bound(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 1024
	a, b, u, v := make([]int64, n), make([]int64, n), make([]uint64, n), make([]uint64, n)
	for i := range a {
		a[i], b[i] = rng.Int64N(1<<32-1)-(1<<31-1), rng.Int64N(1<<32-1)-(1<<31-1)
		u[i], v[i] = rng.Uint64N(1<<32), rng.Uint64N(1<<32)
	}
	a[0], b[0], a[1], b[1] = -1<<31+1, -1<<31+1, 1<<31-1, -1<<31+1
	u[0], v[0] = 1<<32-1, 1<<32-1
	for _, set := range simdCases() {
		withActive(set, func() {
			if intLoop(OpMul, make([]int64, n), Fixed[int64]{Vals: a}, Fixed[int64]{Vals: b}, nil) {
				t.Errorf("%s: i64 flagged", set.name)
			}
			if intLoop(OpMul, make([]uint64, n), Fixed[uint64]{Vals: u}, Fixed[uint64]{Vals: v}, nil) {
				t.Errorf("%s: u64 flagged", set.name)
			}
		})
	}
}
