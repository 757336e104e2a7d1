package kernels

// The prefix and exact LIKE kernels (likePrefixAVX512, likeExactAVX512)
// against the portable loop of prefixWords, on strings made to start
// with the literal, with a near miss, or not at all, of lengths around
// the literal's, for every length 0…300 and offset 0…63 into the offsets.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/sys/cpu"
)

// likeColumn is a string column of rows rows for the literal lit: offsets
// from 0 and the values, with extra bytes after the last row.
func likeColumn(rng *rand.Rand, rows int, lit []byte, extra int) (offs []int32, data []byte) {
	offs = make([]int32, 1, rows+1)
	for range rows {
		// A length near the literal's, or up to 20.
		n := max(0, len(lit)+rng.IntN(5)-2)
		if rng.IntN(4) == 0 {
			n = rng.IntN(21)
		}
		row := make([]byte, n)
		for j := range row {
			row[j] = "ab"[rng.IntN(2)]
		}
		switch rng.IntN(3) {
		case 0: // the literal's first bytes
			copy(row, lit)
		case 1: // the literal with one byte changed
			copy(row, lit)
			if n > 0 {
				row[rng.IntN(min(n, len(lit)))] ^= 1
			}
		}
		data = append(data, row...)
		offs = append(offs, int32(len(data)))
	}
	for range extra {
		data = append(data, "ab"[rng.IntN(2)])
	}
	return offs, data
}

// prefixSame runs prefixWords with set active and with the portable loop
// (active nil) and reports how they differ: in the words, in the words
// past the rows (which must keep guardWord), or in what they report of
// the offsets. It also runs set's kernel alone and checks that it did
// every whole word, with the portable loop's bits and report on those.
func prefixSame(set *simdSet, offs []int32, data []byte, lit []byte, exact bool) error {
	n := len(offs) - 1
	nw := (n + 63) / 64
	want, mask := loadLE(string(lit))
	k := int32(len(lit))
	ref := slices.Repeat([]uint64{guardWord}, nw+1)
	got := slices.Clone(ref)
	var okRef, okGot bool
	withActive(nil, func() { okRef = prefixWords(ref, offs, data, want, mask, k, exact) })
	withActive(set, func() { okGot = prefixWords(got, offs, data, want, mask, k, exact) })
	if up := ascending(offs); okRef != up {
		return fmt.Errorf("the portable loop reports ascending %v, want %v", okRef, up)
	}
	if okRef != okGot {
		return fmt.Errorf("ascending: portable %v, %s %v", okRef, set.name, okGot)
	}
	if i := wordDiff(ref, got); i >= 0 {
		return fmt.Errorf("word %d: portable %#x, %s %#x", i, ref[i], set.name, got[i])
	}
	kern := slices.Repeat([]uint64{guardWord}, nw+1)
	done, down := simdPrefix(set, kern, offs, data, want, mask, k, exact)
	if done != n&^63 {
		return fmt.Errorf("%s's kernel did %d rows of %d", set.name, done, n)
	}
	if up := ascending(offs[:done+1]); down == up {
		return fmt.Errorf("%s's kernel: decreasing %v over %d rows, want %v", set.name, down, done, !up)
	}
	if i := wordDiff(ref[:done/64], kern[:done/64]); i >= 0 {
		return fmt.Errorf("%s's kernel, word %d: portable %#x, kernel %#x", set.name, i, ref[i], kern[i])
	}
	if i := wordDiff(kern[done/64:], slices.Repeat([]uint64{guardWord}, nw+1-done/64)); i >= 0 {
		return fmt.Errorf("%s's kernel wrote word %d, past its rows", set.name, done/64+i)
	}
	return nil
}

// wordDiff is the first index where a and b differ, or -1.
func wordDiff(a, b []uint64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// prefixSets is the sets with the prefix kernels. Where the machine has
// AVX-512 they must be there (and, being in simdSets, are tested whatever
// COLEXPR_NOSIMD and COLEXPR_SIMD say), so the tests cannot pass by
// comparing the portable loop with itself.
func prefixSets(t *testing.T) []*simdSet {
	var sets []*simdSet
	for _, set := range simdSets {
		// A set has the kernels when it does the word of a 64-row column.
		w, offs, data := make([]uint64, 1), make([]int32, 65), make([]byte, 8)
		prefix, _ := simdPrefix(set, w, offs, data, 0, 0xff, 1, false)
		exact, _ := simdPrefix(set, w, offs, data, 0, 0xff, 1, true)
		if prefix == 64 && exact == 64 {
			sets = append(sets, set)
		} else if set.name == "avx512" {
			t.Errorf("the avx512 set has no prefix kernels")
		}
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasPOPCNT && len(simdSets) > 0 && len(sets) == 0 {
		t.Errorf("this machine has AVX-512 but no set has the prefix kernels")
	}
	if len(sets) == 0 {
		t.Logf("no prefix kernels here (sets: %d): nothing to compare", len(simdSets))
	}
	return sets
}

// TestSIMDPrefix compares the kernels with the portable loop for every
// length 0…300, offset 0…63 into the offsets (as a sliced array's),
// literal of 1…8 bytes, both modes; rows end at the end of the value
// buffer or a few bytes before it, so that the last rows' loads are
// clamped.
func TestSIMDPrefix(t *testing.T) {
	sets := prefixSets(t)
	rng := rand.New(rand.NewPCG(3, 5))
	for n := range simdMaxLen + 1 {
		for off := 0; off <= simdMaxOff; off++ {
			k := 1 + (n*7+off)%8
			lit := make([]byte, k)
			for j := range lit {
				lit[j] = "ab"[rng.IntN(2)]
			}
			exact := (n+off/2)%2 == 1
			offs, data := likeColumn(rng, off+n, lit, rng.IntN(3)*rng.IntN(9))
			if len(data) < 8 {
				continue // prefixWords needs 8 bytes
			}
			for _, set := range sets {
				if err := prefixSame(set, offs[off:], data, lit, exact); err != nil {
					t.Fatalf("n %d off %d lit %q exact %v: %v", n, off, lit, exact, err)
				}
			}
		}
	}
}

// TestSIMDPrefixEdges covers what the random columns meet seldom: every
// literal length in both modes over empty strings only, rows equal to the
// literal, rows starting at the last byte of the buffer, starts beyond it
// and before 0 (offsets that literalWords refuses, but whose loads the
// clamp keeps inside the buffer), and decreasing offsets at every row of
// a block.
func TestSIMDPrefixEdges(t *testing.T) {
	sets := prefixSets(t)
	rng := rand.New(rand.NewPCG(9, 1))
	for k := 1; k <= 8; k++ {
		lit := []byte("abcdefgh"[:k])
		for _, exact := range []bool{false, true} {
			check := func(what string, offs []int32, data []byte) {
				t.Helper()
				for _, set := range sets {
					if err := prefixSame(set, offs, data, lit, exact); err != nil {
						t.Fatalf("k %d exact %v, %s: %v", k, exact, what, err)
					}
				}
			}
			// Empty strings, all at 0, all at the end, all past it.
			for _, at := range []int32{0, 8, 9, 1 << 30, -1, -1 << 31} {
				check(fmt.Sprintf("empty rows at %d", at), slices.Repeat([]int32{at}, 193), []byte("abcdefgh\x00"))
			}
			// Every row the literal, and the literal with a byte more.
			for _, tail := range []string{"", "x"} {
				var offs []int32
				var data []byte
				offs = append(offs, 0)
				for range 130 {
					data = append(data, lit...)
					data = append(data, tail...)
					offs = append(offs, int32(len(data)))
				}
				check("literal rows +"+tail, offs, data)
			}
			// Rows starting in the last 8 bytes, each shorter than the
			// literal or reaching the end.
			data := []byte("zzzzzzzzabcdefghabcdefgh")
			offs := make([]int32, 129)
			for i := range offs {
				offs[i] = int32(len(data) - 8 + i%9)
			}
			check("rows at the end", offs, data)
			// A decrease at each row of the first block.
			for at := 1; at <= 64; at++ {
				offs, data := likeColumn(rng, 128, lit, 0)
				if len(data) < 8 {
					continue
				}
				offs[at] = offs[at-1] - 1 - int32(rng.IntN(3))
				check(fmt.Sprintf("decreasing at %d", at), offs, data)
			}
			// Wrapping lengths: an end far after a negative start.
			offs = make([]int32, 65)
			for i := range offs {
				offs[i] = int32(i) * (1 << 26) * int32(1-2*(i%2))
			}
			check("wrapping", offs, []byte("abcdefghabcdefgh"))
		}
	}
}

// TestLiteralWordsDecreasing is LIKE 'ab%' and LIKE 'ab' over offsets that
// decrease once, at each row of the first two words: literalWords must
// refuse them, with each set active and with none (the portable loop's
// unrolled check once let a decrease in a whole word through).
func TestLiteralWordsDecreasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, set := range append([]*simdSet{nil}, simdSets...) {
		for at := 1; at <= 128; at++ {
			offs, data := likeColumn(rng, 200, []byte("ab"), 0)
			offs[at] = offs[at-1] - 1
			for _, exact := range []bool{false, true} {
				words := make([]uint64, 4)
				withActive(set, func() {
					if literalWords(words, bytesView{offs: offs, data: data}, "ab", exact) {
						t.Errorf("%s: a decrease at row %d (exact %v) went unreported", SIMDLevel(), at, exact)
					}
				})
			}
		}
	}
}
