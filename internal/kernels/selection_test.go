package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// selectRowsRef is the rows of the set bits, bit by bit.
func selectRowsRef(bm []byte, n int) []int32 {
	out := []int32{}
	for i := range n {
		if bm[i/8]>>(i%8)&1 != 0 {
			out = append(out, int32(i))
		}
	}
	return out
}

// randBitmap is a bitmap of n bytes with bits set with probability p
// (with runs of all ones and all zeros now and then).
func randBitmap(rng *rand.Rand, n int, p float64) []byte {
	bm := make([]byte, n)
	for i := range bm {
		switch rng.IntN(8) {
		case 0:
			bm[i] = 0xff
		case 1:
			bm[i] = 0
		default:
			for b := range 8 {
				if rng.Float64() < p {
					bm[i] |= 1 << b
				}
			}
		}
	}
	return bm
}

// TestSelectRows checks SelectRows under each set and the portable loop
// against the bit-by-bit reference, for every length 0…300 rows and a
// longer one, every byte offset 0…63 into the bitmap (so that the words
// are read unaligned), densities from sparse to full, and counts that
// are exact, short and zero.
func TestSelectRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	sets := append([]*simdSet{nil}, simdCases()...)
	for _, n := range append(slices.Collect(func(yield func(int) bool) {
		for n := 0; n <= simdMaxLen; n++ {
			if !yield(n) {
				return
			}
		}
	}), 4096+17) {
		for off := 0; off <= simdMaxOff; off++ {
			p := []float64{0.02, 0.5, 0.98}[rng.IntN(3)]
			buf := randBitmap(rng, off+(n+7)/8+8, p)
			bm := buf[off:]
			want := selectRowsRef(bm, n)
			for _, count := range []int{len(want), len(want) / 2, 0} {
				for _, set := range sets {
					var got []int32
					withActive(set, func() { got = SelectRows(bm, n, count) })
					if !slices.Equal(got, want) {
						t.Fatalf("%s n %d off %d count %d: %s", setName(set), n, off, count, firstDiff(got, want))
					}
					// Appending to rows already there, without room.
					withActive(set, func() { got = AppendSelected([]int32{-1}, bm, n, -1) })
					if !slices.Equal(got, append([]int32{-1}, want...)) {
						t.Fatalf("%s n %d off %d: appending: %s", setName(set), n, off, firstDiff(got[1:], want))
					}
				}
			}
		}
	}
}

func firstDiff(got, want []int32) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("row %d of the result is %d, want %d", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d rows, want %d", len(got), len(want))
}

func BenchmarkSelectRows(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewPCG(1, 5))
	for _, p := range []float64{0.02, 0.5, 0.98} {
		bm := make([]byte, n/8)
		for i := range n {
			if rng.Float64() < p {
				bm[i/8] |= 1 << (i % 8)
			}
		}
		count := len(selectRowsRef(bm, n))
		for name, set := range simdBenchSets() {
			b.Run(fmt.Sprintf("density=%v/set=%s", p, name), func(b *testing.B) {
				dst := make([]int32, 0, count+64)
				withActive(set, func() {
					for b.Loop() {
						AppendSelected(dst, bm, n, -1) // the kernel, whatever the density
					}
				})
			})
		}
	}
}

func setName(set *simdSet) string {
	if set == nil {
		return "portable"
	}
	return set.name
}
