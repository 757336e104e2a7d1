package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The comparison loops against a row-at-a-time reference (cmpOne), for
// every operator and number type, column-scalar (either side) and
// column-column, over lengths 0 to 200 starting at offsets 0 to 3, with
// values drawn near the scalar and at the type's extremes.

var loopOps = []CmpOp{CmpEq, CmpNe, CmpLt, CmpLe, CmpGt, CmpGe, cmpSame}

func TestCompareLoopsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t.Run("i8", func(t *testing.T) { checkLoops(t, rng, edgesInt[int8](math.MinInt8, math.MaxInt8), randInt[int8]) })
	t.Run("i16", func(t *testing.T) { checkLoops(t, rng, edgesInt[int16](math.MinInt16, math.MaxInt16), randInt[int16]) })
	t.Run("i32", func(t *testing.T) { checkLoops(t, rng, edgesInt[int32](math.MinInt32, math.MaxInt32), randInt[int32]) })
	t.Run("i64", func(t *testing.T) { checkLoops(t, rng, edgesInt[int64](math.MinInt64, math.MaxInt64), randInt[int64]) })
	t.Run("u8", func(t *testing.T) { checkLoops(t, rng, edgesInt[uint8](0, math.MaxUint8), randInt[uint8]) })
	t.Run("u16", func(t *testing.T) { checkLoops(t, rng, edgesInt[uint16](0, math.MaxUint16), randInt[uint16]) })
	t.Run("u32", func(t *testing.T) { checkLoops(t, rng, edgesInt[uint32](0, math.MaxUint32), randInt[uint32]) })
	t.Run("u64", func(t *testing.T) { checkLoops(t, rng, edgesInt[uint64](0, math.MaxUint64), randInt[uint64]) })
	t.Run("f32", func(t *testing.T) { checkLoops(t, rng, edgesFloat[float32](), randFloat[float32]) })
	t.Run("f64", func(t *testing.T) { checkLoops(t, rng, edgesFloat[float64](), randFloat[float64]) })
}

// edgesInt is values around T's smallest and largest (lo and hi), around
// zero and around the middle of the range.
func edgesInt[T Integer](lo, hi T) []T {
	mid := lo/2 + hi/2
	return []T{lo, lo + 1, mid - 1, mid, mid + 1, 0, 1, hi - 1, hi}
}

func edgesFloat[T Float]() []T {
	inf := T(math.Inf(1))
	return []T{T(math.NaN()), -inf, inf, 0, T(math.Copysign(0, -1)), -1, 1, T(math.SmallestNonzeroFloat32)}
}

// randInt is an edge value or one near the middle, so rows often equal
// the scalar.
func randInt[T Integer](rng *rand.Rand, edges []T) T {
	if rng.IntN(4) == 0 {
		return edges[rng.IntN(len(edges))]
	}
	return edges[3] + T(rng.IntN(7)) - 3 // around the middle of the range
}

func randFloat[T Float](rng *rand.Rand, edges []T) T {
	if rng.IntN(3) == 0 {
		return edges[rng.IntN(len(edges))]
	}
	return T(rng.IntN(7)) - 3
}

func checkLoops[T Number](t *testing.T, rng *rand.Rand, edges []T, gen func(*rand.Rand, []T) T) {
	const maxLen, maxOff = 200, 3
	a := make([]T, maxLen+maxOff)
	b := make([]T, maxLen+maxOff)
	for n := 0; n <= maxLen; n++ {
		for off := 0; off <= maxOff; off++ {
			for i := range a {
				a[i], b[i] = gen(rng, edges), gen(rng, edges)
			}
			s := gen(rng, edges)
			x, y := a[off:off+n], b[off:off+n]
			for _, op := range loopOps {
				name := fmt.Sprintf("op %d n %d off %d", op, n, off)
				checkWords(t, name+" column-scalar", n, op,
					Fixed[T]{Vals: x}, Fixed[T]{Scalar: s, IsScalar: true},
					func(i int) bool { return cmpOne(op, x[i], s) })
				checkWords(t, name+" scalar-column", n, op,
					Fixed[T]{Scalar: s, IsScalar: true}, Fixed[T]{Vals: x},
					func(i int) bool { return cmpOne(op, s, x[i]) })
				checkWords(t, name+" column-column", n, op,
					Fixed[T]{Vals: x}, Fixed[T]{Vals: y},
					func(i int) bool { return cmpOne(op, x[i], y[i]) })
			}
		}
	}
}

// checkWords runs cmpNumbers over n rows into words primed with a
// pattern, and compares each of the n bits with want(i).
func checkWords[T Number](t *testing.T, name string, n int, op CmpOp, a, b Fixed[T], want func(int) bool) {
	t.Helper()
	words := make([]uint64, (n+63)/64)
	for k := range words {
		words[k] = 0xa5a5a5a5a5a5a5a5
	}
	cmpNumbers(op, words, a, b)
	for i := range n {
		if got := words[i/64]>>(i%64)&1 == 1; got != want(i) {
			t.Fatalf("%s: row %d is %v, want %v", name, i, got, want(i))
		}
	}
}
