package kernels

// The SIMD kernels against the portable loops: every instruction set this
// machine runs (simdSets) is made the active one in turn and its result
// compared with the portable loop's (active nil), on random data with the
// types' edges, for every length 0…300 and every offset 0…63 into the
// values, so that every alignment and every tail is met. Where the
// machine has no SIMD kernels (another architecture, -tags purego) the
// tests compare the portable loops with themselves. Words past the rows
// must be left alone: each run primes a guard word after them.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// withActive runs f with set as the active kernels (nil: the portable
// loops) and restores the start-up choice.
func withActive(set *simdSet, f func()) {
	saved := active
	active = set
	defer func() { active = saved }()
	f()
}

// simdCases is the sets to compare with the portable loops, named.
func simdCases() []*simdSet {
	return slices.Clone(simdSets)
}

const (
	simdMaxLen = 300
	simdMaxOff = 63
	guardWord  = 0x5a5a5a5a5a5a5a5a
)

func TestSIMDCompare(t *testing.T) {
	if len(simdSets) == 0 {
		t.Log("no SIMD kernels on this machine: nothing to compare")
	}
	rng := rand.New(rand.NewPCG(17, 2))
	t.Run("i8", func(t *testing.T) { simdCmpCheck(t, rng, edgesInt[int8](math.MinInt8, math.MaxInt8), randInt[int8]) })
	t.Run("i16", func(t *testing.T) {
		simdCmpCheck(t, rng, edgesInt[int16](math.MinInt16, math.MaxInt16), randInt[int16])
	})
	t.Run("i32", func(t *testing.T) {
		simdCmpCheck(t, rng, edgesInt[int32](math.MinInt32, math.MaxInt32), randInt[int32])
	})
	t.Run("i64", func(t *testing.T) {
		simdCmpCheck(t, rng, edgesInt[int64](math.MinInt64, math.MaxInt64), randInt[int64])
	})
	t.Run("u8", func(t *testing.T) { simdCmpCheck(t, rng, edgesInt[uint8](0, math.MaxUint8), randInt[uint8]) })
	t.Run("u16", func(t *testing.T) { simdCmpCheck(t, rng, edgesInt[uint16](0, math.MaxUint16), randInt[uint16]) })
	t.Run("u32", func(t *testing.T) { simdCmpCheck(t, rng, edgesInt[uint32](0, math.MaxUint32), randInt[uint32]) })
	t.Run("u64", func(t *testing.T) { simdCmpCheck(t, rng, edgesInt[uint64](0, math.MaxUint64), randInt[uint64]) })
	t.Run("f32", func(t *testing.T) { simdCmpCheck(t, rng, edgesFloat[float32](), randFloat[float32]) })
	t.Run("f64", func(t *testing.T) { simdCmpCheck(t, rng, edgesFloat[float64](), randFloat[float64]) })
}

// simdCmpCheck compares cmpNumbers under each set with the portable loop
// for every operator, column-scalar, scalar-column and column-column.
func simdCmpCheck[T Number](t *testing.T, rng *rand.Rand, edges []T, gen func(*rand.Rand, []T) T) {
	a := make([]T, simdMaxLen+simdMaxOff)
	b := make([]T, simdMaxLen+simdMaxOff)
	for i := range a {
		a[i], b[i] = gen(rng, edges), gen(rng, edges)
	}
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			// A fresh stretch of values now and then, and scalars drawn
			// from the edges as well as from the rows.
			if off%16 == 0 {
				for i := range a {
					a[i], b[i] = gen(rng, edges), gen(rng, edges)
				}
			}
			s := gen(rng, edges)
			x, y := a[off:off+n], b[off:off+n]
			sc := Fixed[T]{Scalar: s, IsScalar: true}
			for _, op := range loopOps {
				forms := [...]struct {
					name string
					l, r Fixed[T]
				}{
					{"column-scalar", Fixed[T]{Vals: x}, sc},
					{"scalar-column", sc, Fixed[T]{Vals: x}},
					{"column-column", Fixed[T]{Vals: x}, Fixed[T]{Vals: y}},
				}
				for _, f := range forms {
					if err := simdCmpSame(op, n, f.l, f.r); err != nil {
						t.Fatalf("op %d %s n %d off %d: %v", op, f.name, n, off, err)
					}
				}
			}
		}
	}
}

// simdCmpSame runs cmpNumbers with the portable loops and with each set
// and reports the first difference in the n rows, or a write past them.
func simdCmpSame[T Number](op CmpOp, n int, l, r Fixed[T]) error {
	nw := NumWords(n)
	want := make([]uint64, nw+1)
	want[nw] = guardWord
	withActive(nil, func() { cmpNumbers(op, want[:nw], l, r) })
	maskTail(want[:nw], n)
	for _, set := range simdCases() {
		got := make([]uint64, nw+1)
		got[nw] = guardWord
		withActive(set, func() { cmpNumbers(op, got[:nw], l, r) })
		if got[nw] != guardWord {
			return fmt.Errorf("%s wrote past the last word", set.name)
		}
		maskTail(got[:nw], n)
		for k := range nw {
			if got[k] != want[k] {
				return fmt.Errorf("%s: word %d is %#x, the portable loop's %#x", set.name, k, got[k], want[k])
			}
		}
	}
	return nil
}

// TestSIMDCompareArrays runs Compare end to end over sliced arrays with
// and without nulls (the validity is the kernels' own business, but the
// offset is not), under each set and the portable loops.
func TestSIMDCompareArrays(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const total = simdMaxLen + simdMaxOff
	for _, nulls := range []bool{false, true} {
		xs, ys := make([]int64, total), make([]int64, total)
		valid := make([]bool, total)
		for i := range xs {
			xs[i], ys[i] = int64(rng.IntN(9)-4), int64(rng.IntN(9)-4)
			valid[i] = !nulls || rng.IntN(5) != 0
		}
		xs[7], ys[9] = math.MinInt64, math.MaxInt64
		xa := intColumn(mem, dtype.Primitive(dtype.I64, true), xs, valid)
		ya := intColumn(mem, dtype.Primitive(dtype.I64, true), ys, slices.Repeat([]bool{true}, total))
		for n := 0; n <= simdMaxLen; n += 7 {
			for off := 0; off <= simdMaxOff; off++ {
				x := datum.FromArray(array.NewSlice(xa.Array(), int64(off), int64(off+n)), dtype.Primitive(dtype.I64, true))
				y := datum.FromArray(array.NewSlice(ya.Array(), int64(off), int64(off+n)), dtype.Primitive(dtype.I64, true))
				s := datum.FromScalar(scalar.Int64(int64(rng.IntN(9)-4)), n)
				for _, op := range loopOps[:6] {
					for _, args := range [][2]datum.Datum{{x, s}, {s, x}, {x, y}} {
						var want arrow.Array
						withActive(nil, func() { want = compareArray(t, mem, op, args[0], args[1]) })
						for _, set := range simdCases() {
							var got arrow.Array
							withActive(set, func() { got = compareArray(t, mem, op, args[0], args[1]) })
							if !array.Equal(got, want) {
								t.Fatalf("%s op %d n %d off %d nulls %v: %v, want %v", set.name, op, n, off, nulls, got, want)
							}
							got.Release()
						}
						want.Release()
					}
				}
				x.Release()
				y.Release()
			}
		}
		xa.Release()
		ya.Release()
	}
}

func compareArray(t *testing.T, mem memory.Allocator, op CmpOp, l, r datum.Datum) arrow.Array {
	t.Helper()
	d, err := Compare(mem, op, l, r, dtype.Bool(true))
	if err != nil {
		t.Fatal(err)
	}
	return d.Array()
}

// TestSIMDDispatch checks that each set takes the whole blocks of the
// types it covers, so that the comparisons above did run its kernels.
func TestSIMDDispatch(t *testing.T) {
	t.Logf("active: %q; sets: %d", SIMDLevel(), len(simdSets))
	a := make([]int64, 130)
	dst := make([]uint64, 3)
	for _, set := range simdSets {
		if done := simdCmpVS(set, CmpLt, dst, a, 1); done != 128 {
			t.Errorf("%s did %d rows of 130, want 128", set.name, done)
		}
		if dst[0] != ^uint64(0) || dst[1] != ^uint64(0) || dst[2] != 0 {
			t.Errorf("%s: 0 < 1 gave %#x", set.name, dst)
		}
		clear(dst)
	}
}

// TestSIMDCompareDecimals compares cmpSmallDecimals under each set with
// the portable loops: decimals of at most 18 digits (the high word the
// sign of the low one), near the scalar and at ±(10^18 - 1).
func TestSIMDCompareDecimals(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const max18 = 999_999_999_999_999_999
	gen := func() decimal128.Num {
		switch rng.IntN(6) {
		case 0:
			return decimal128.FromI64(max18)
		case 1:
			return decimal128.FromI64(-max18)
		case 2:
			return decimal128.FromI64(rng.Int64N(2*max18) - max18)
		}
		return decimal128.FromI64(int64(rng.IntN(9) - 4))
	}
	a := make([]decimal128.Num, simdMaxLen+simdMaxOff)
	b := make([]decimal128.Num, simdMaxLen+simdMaxOff)
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			if off%16 == 0 {
				for i := range a {
					a[i], b[i] = gen(), gen()
				}
			}
			x, y := a[off:off+n], b[off:off+n]
			sc := Fixed[decimal128.Num]{Scalar: gen(), IsScalar: true}
			for _, op := range loopOps {
				for _, args := range [][2]Fixed[decimal128.Num]{{{Vals: x}, sc}, {sc, {Vals: x}}, {{Vals: x}, {Vals: y}}} {
					if err := simdDecSame(op, n, args[0], args[1]); err != nil {
						t.Fatalf("op %d n %d off %d: %v", op, n, off, err)
					}
				}
			}
		}
	}
}

// simdDecSame is simdCmpSame for cmpSmallDecimals.
func simdDecSame(op CmpOp, n int, l, r Fixed[decimal128.Num]) error {
	nw := NumWords(n)
	want := make([]uint64, nw+1)
	want[nw] = guardWord
	withActive(nil, func() { cmpSmallDecimals(op, want[:nw], l, r) })
	maskTail(want[:nw], n)
	for _, set := range simdCases() {
		got := make([]uint64, nw+1)
		got[nw] = guardWord
		withActive(set, func() { cmpSmallDecimals(op, got[:nw], l, r) })
		if got[nw] != guardWord {
			return fmt.Errorf("%s wrote past the last word", set.name)
		}
		maskTail(got[:nw], n)
		for k := range nw {
			if got[k] != want[k] {
				return fmt.Errorf("%s: word %d is %#x, the portable loop's %#x", set.name, k, got[k], want[k])
			}
		}
	}
	return nil
}
