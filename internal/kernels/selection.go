package kernels

// Bitmap → selection vector: the rows of a bitmap's set bits, in order,
// as a filter hands them to the gathers.

import (
	"encoding/binary"
	"math/bits"
)

// SelectRows lists the rows i < n whose bit is set in bm (row i is bit
// i%8 of byte i/8; bm holds at least (n+7)/8 bytes), in increasing order.
// count is how many rows are set, or a guess: it sizes the result, which
// grows if the guess is short.
func SelectRows(bm []byte, n, count int) []int32 {
	// Room for the kernel's whole-vector stores past the last row.
	return AppendSelected(make([]int32, 0, max(count, 0)+64), bm, n, count)
}

// sparseRows: below one set row in sparseRows, the portable loop, which
// costs per set bit, beats the SIMD kernels, which store whole vectors per
// word (AVX-512) or per byte (AVX2) — measured by BenchmarkSelectRows.
const sparseRows = 16

// AppendSelected appends to dst the rows i < n whose bit is set in bm, as
// SelectRows lists them, and returns the extended slice; a dst with room
// (64 slots beyond the rows it will receive) is filled in place. The
// SIMD kernel (simd.go) takes the whole words first — 16 rows a step
// with AVX-512's compress, 8 with AVX2's table of byte values — as long as
// the room lasts; the portable loop takes a word's set bits one at a
// time, which is faster when they are few: given count, the number of set
// rows (or a guess; negative when unknown), it skips the kernel below one
// row in sparseRows.
func AppendSelected(dst []int32, bm []byte, n, count int) []int32 {
	full := n / 64 // whole words, read eight bytes at a time
	w := 0
	sparse := count >= 0 && count < n/sparseRows
	if !sparse && full > 0 && cap(dst)-len(dst) >= 64 {
		var k int
		w, k = selectFast(dst[len(dst):cap(dst)], bm, full)
		dst = dst[:len(dst)+k]
	}
	for ; w < full; w++ {
		word := binary.LittleEndian.Uint64(bm[w*8:])
		base := int32(w * 64)
		for word != 0 {
			dst = append(dst, base+int32(bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	if base := full * 64; base < n {
		var word uint64
		for b := 0; base/8+b < len(bm) && b < 8; b++ {
			word |= uint64(bm[base/8+b]) << (8 * b)
		}
		word &= 1<<(n-base) - 1
		for word != 0 {
			dst = append(dst, int32(base+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return dst
}
