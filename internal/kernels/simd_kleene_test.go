package kernels

// The SIMD Kleene AND and OR against the portable formula, word by word
// (every word count 0…300 at every word offset 0…63 into the slices, so
// that every alignment of the vectors is met), then Logic end to end on
// sliced nullable arrays long enough to take the kernels.

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// randWords is n words of random bits, or mostly ones or zeros.
func randWords(rng *rand.Rand, n int) []uint64 {
	w := make([]uint64, n)
	for i := range w {
		switch rng.IntN(4) {
		case 0:
			w[i] = ^uint64(0)
		case 1:
			w[i] = 0
		default:
			w[i] = rng.Uint64()
		}
	}
	return w
}

func TestSIMDKleene(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const total = simdMaxLen + simdMaxOff
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			if off%8 == 0 || n < 40 || rng.IntN(4) == 0 {
				x, y, vx, vy := randWords(rng, total), randWords(rng, total), randWords(rng, total), randWords(rng, total)
				x, y, vx, vy = x[off:off+n], y[off:off+n], vx[off:off+n], vy[off:off+n]
				for _, or := range []bool{false, true} {
					if err := simdKleeneSame(or, x, y, vx, vy); err != nil {
						t.Fatalf("or %v n %d off %d: %v", or, n, off, err)
					}
				}
			}
		}
	}
}

// simdKleeneSame runs each set's Kleene kernel and checks its words, its
// count of valid bits and that it stops at the words it reports.
func simdKleeneSame(or bool, x, y, vx, vy []uint64) error {
	flip := -b2u(!or)
	for _, set := range simdCases() {
		n := len(x)
		words, valid := make([]uint64, n+1), make([]uint64, n+1)
		words[n], valid[n] = guardWord, guardWord
		done, ones := simdKleene(set, or, words[:n], valid[:n], x, y, vx, vy)
		if done > n || words[n] != guardWord || valid[n] != guardWord {
			return fmt.Errorf("%s did %d words of %d, or wrote past them", set.name, done, n)
		}
		for k := done; k < n; k++ {
			if words[k] != 0 || valid[k] != 0 {
				return fmt.Errorf("%s did %d words of %d but wrote word %d", set.name, done, n, k)
			}
		}
		wantOnes := 0
		for k := range done {
			v := vx[k]&vy[k] | vx[k]&(x[k]^flip) | vy[k]&(y[k]^flip)
			w := x[k] & y[k]
			if or {
				w = x[k] | y[k]
			}
			if words[k] != w || valid[k] != v {
				return fmt.Errorf("%s: word %d is %#x valid %#x, want %#x valid %#x", set.name, k, words[k], valid[k], w, v)
			}
			wantOnes += bits.OnesCount64(v)
		}
		if ones != wantOnes {
			return fmt.Errorf("%s: %d valid bits, want %d", set.name, ones, wantOnes)
		}
	}
	return nil
}

// TestSIMDLogicArrays runs Logic over sliced nullable bool arrays (at
// word-aligned offsets, which take the kernels, and others, which do
// not) under each set and the portable loops.
func TestSIMDLogicArrays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(11, 12))
	const total = 64*40 + 300
	build := func() datum.Datum {
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		for range total {
			if rng.IntN(4) == 0 {
				b.AppendNull()
			} else {
				b.Append(rng.IntN(2) == 0)
			}
		}
		return datum.FromArray(b.NewArray(), dtype.Bool(true))
	}
	p, q := build(), build()
	defer p.Release()
	defer q.Release()
	for _, off := range []int{0, 1, 63, 64, 128, 640, 129} {
		for n := 0; n+off <= total; n += 1 + rng.IntN(97) {
			x := datum.FromArray(array.NewSlice(p.Array(), int64(off), int64(off+n)), dtype.Bool(true))
			y := datum.FromArray(array.NewSlice(q.Array(), int64(off), int64(off+n)), dtype.Bool(true))
			for _, or := range []bool{false, true} {
				var want datum.Datum
				withActive(nil, func() { want = logicOf(t, mem, or, x, y) })
				for _, set := range simdCases() {
					var got datum.Datum
					withActive(set, func() { got = logicOf(t, mem, or, x, y) })
					if !array.Equal(got.Array(), want.Array()) || got.Array().NullN() != want.Array().NullN() {
						t.Fatalf("%s or %v off %d n %d: the results differ", set.name, or, off, n)
					}
					got.Release()
				}
				want.Release()
			}
			x.Release()
			y.Release()
		}
	}
}

func logicOf(t *testing.T, mem memory.Allocator, or bool, x, y datum.Datum) datum.Datum {
	t.Helper()
	d, err := Logic(mem, or, x, y, dtype.Bool(true))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSIMDWords checks the bitwise kernels (AND, OR, NOT of words) against
// Go's operators for every word count 0…300 at every word offset 0…63.
func TestSIMDWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const total = simdMaxLen + simdMaxOff
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			x, y := randWords(rng, total)[off:off+n], randWords(rng, total)[off:off+n]
			for _, op := range []struct {
				name    string
				or, not bool
				f       func(x, y uint64) uint64
			}{
				{"and", false, false, func(x, y uint64) uint64 { return x & y }},
				{"or", true, false, func(x, y uint64) uint64 { return x | y }},
				{"not", false, true, func(x, _ uint64) uint64 { return ^x }},
			} {
				for _, set := range simdCases() {
					dst := make([]uint64, n+1)
					dst[n] = guardWord
					done := simdWords(set, op.or, op.not, dst[:n], x, y)
					if done > n || dst[n] != guardWord {
						t.Fatalf("%s %s n %d: did %d words, or wrote past them", set.name, op.name, n, done)
					}
					for k := range n {
						want := uint64(0)
						if k < done {
							want = op.f(x[k], y[k])
						}
						if dst[k] != want {
							t.Fatalf("%s %s n %d off %d: word %d is %#x, want %#x (did %d)", set.name, op.name, n, off, k, dst[k], want, done)
						}
					}
				}
			}
		}
	}
}

// TestSIMDLogicNoNulls runs Logic without nulls and with nulls on one
// side, Not and IsNull over sliced bool arrays under each set and the
// portable loops.
func TestSIMDLogicNoNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(23, 24))
	const total = 64*40 + 300
	build := func(nulls bool) datum.Datum {
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		for range total {
			if nulls && rng.IntN(4) == 0 {
				b.AppendNull()
			} else {
				b.Append(rng.IntN(2) == 0)
			}
		}
		return datum.FromArray(b.NewArray(), dtype.Bool(true))
	}
	p, q, r := build(false), build(false), build(true)
	defer p.Release()
	defer q.Release()
	defer r.Release()
	for _, off := range []int{0, 3, 64, 640, 129} {
		for n := 0; n+off <= total; n += 1 + rng.IntN(97) {
			slice := func(d datum.Datum) datum.Datum {
				return datum.FromArray(array.NewSlice(d.Array(), int64(off), int64(off+n)), dtype.Bool(true))
			}
			x, y, z := slice(p), slice(q), slice(r)
			calls := map[string]func() (datum.Datum, error){
				"and": func() (datum.Datum, error) { return Logic(mem, false, x, y, dtype.Bool(true)) },
				"or":  func() (datum.Datum, error) { return Logic(mem, true, x, y, dtype.Bool(true)) },
				"not": func() (datum.Datum, error) { return Not(mem, x, dtype.Bool(true)) },
				"not nullable": func() (datum.Datum, error) {
					return Not(mem, z, dtype.Bool(true))
				},
				"is null": func() (datum.Datum, error) { return IsNull(mem, false, z, dtype.Bool(false)) },
				"and, nulls on the left": func() (datum.Datum, error) {
					return Logic(mem, false, z, x, dtype.Bool(true))
				},
				"or, nulls on the right": func() (datum.Datum, error) {
					return Logic(mem, true, x, z, dtype.Bool(true))
				},
			}
			for name, call := range calls {
				var want datum.Datum
				withActive(nil, func() { want = mustDatum(t, call) })
				for _, set := range simdCases() {
					var got datum.Datum
					withActive(set, func() { got = mustDatum(t, call) })
					same := got.IsScalar() == want.IsScalar()
					if same && got.IsScalar() {
						same = fmt.Sprint(got.Scalar().Value()) == fmt.Sprint(want.Scalar().Value())
					} else if same {
						same = array.Equal(got.Array(), want.Array())
					}
					if !same {
						t.Fatalf("%s %s off %d n %d: the results differ", set.name, name, off, n)
					}
					got.Release()
				}
				want.Release()
			}
			for _, d := range []datum.Datum{x, y, z} {
				d.Release()
			}
		}
	}
}

func mustDatum(t *testing.T, f func() (datum.Datum, error)) datum.Datum {
	t.Helper()
	d, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSIMDKleeneHalf checks the Kleene kernels for nulls on one side
// against the portable formula (x's validity all ones), for every word
// count 0…300 at every word offset 0…63.
func TestSIMDKleeneHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const total = simdMaxLen + simdMaxOff
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			x, y, vy := randWords(rng, total)[off:off+n], randWords(rng, total)[off:off+n], randWords(rng, total)[off:off+n]
			for _, or := range []bool{false, true} {
				if err := simdKleeneHalfSame(or, x, y, vy); err != nil {
					t.Fatalf("or %v n %d off %d: %v", or, n, off, err)
				}
			}
		}
	}
}

func simdKleeneHalfSame(or bool, x, y, vy []uint64) error {
	flip := -b2u(!or)
	n := len(x)
	for _, set := range simdCases() {
		words, valid := make([]uint64, n+1), make([]uint64, n+1)
		words[n], valid[n] = guardWord, guardWord
		done := simdKleeneHalf(set, or, words[:n], valid[:n], x, y, vy)
		if done > n || words[n] != guardWord || valid[n] != guardWord {
			return fmt.Errorf("%s did %d words of %d, or wrote past them", set.name, done, n)
		}
		for k := range n {
			var w, v uint64
			if k < done {
				v = vy[k] | (x[k] ^ flip) | vy[k]&(y[k]^flip)
				w = x[k] & y[k]
				if or {
					w = x[k] | y[k]
				}
			}
			if words[k] != w || valid[k] != v {
				return fmt.Errorf("%s: word %d is %#x valid %#x, want %#x valid %#x (did %d)", set.name, k, words[k], valid[k], w, v, done)
			}
		}
	}
	return nil
}
