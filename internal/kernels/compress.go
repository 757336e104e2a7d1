package kernels

// Compress: filtering an array by a bitmap of the rows to keep, straight
// from the bitmap — the values of the set rows packed to the front, and
// their validity bits likewise — rather than listing the rows first
// (SelectRows) and gathering them (GatherData). A filter that keeps many
// rows does this for its fixed-width columns.

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Compress returns a new array of the rows i of arr whose bit is set in
// bm (bit i%8 of byte i/8, offset 0; bm holds at least (arr.Len()+7)/8
// bytes), in order, and true; or nil and false when arr's type is not
// one Compress handles (see CompressData): the caller then gathers the
// rows, listed by SelectRows. count is the number of set bits among the
// first arr.Len() of bm; a wrong count panics.
func Compress(mem memory.Allocator, arr arrow.Array, bm []byte, count int) (arrow.Array, bool) {
	d, ok := CompressData(mem, arr.Data(), bm, count)
	if !ok {
		return nil, false
	}
	defer d.Release()
	return array.MakeFromData(d), true
}

// CompressData is Compress over array data. It handles the null type,
// bool and the fixed-width types of 8 to 256 bits (integers, floats,
// f16, dates, times, timestamps, durations, intervals, decimals, fixed-size
// binary of those widths); for any other type (strings, lists, structs,
// dictionaries, extension types) it returns nil and false. The values are
// compressed by the SIMD kernels where the CPU has them (32-, 64- and
// 128-bit values; see simd.go), the validity bitmap and bool values by
// compressBits.
func CompressData(mem memory.Allocator, d arrow.ArrayData, bm []byte, count int) (arrow.ArrayData, bool) {
	t := d.DataType()
	n := d.Len()
	if count < 0 || count > n || len(bm) < (n+7)/8 {
		panic(fmt.Sprintf("kernels: CompressData of %d rows by a bitmap of %d bytes with %d set", n, len(bm), count))
	}
	if t.ID() == arrow.NULL {
		return array.NewData(t, count, []*memory.Buffer{nil}, nil, count, 0), true
	}
	var vals *memory.Buffer
	switch t.ID() {
	case arrow.BOOL:
		buf, words := NewBits(mem, count)
		compressBits(words, BufferBytes(d, 1), d.Offset(), bm, n, count)
		vals = buf
	case arrow.DICTIONARY, arrow.EXTENSION:
		return nil, false
	default:
		fw, ok := t.(arrow.FixedWidthDataType)
		if !ok {
			return nil, false
		}
		switch fw.BitWidth() {
		case 8:
			vals = compressFixed[uint8](mem, d, bm, count)
		case 16:
			vals = compressFixed[uint16](mem, d, bm, count)
		case 32:
			vals = compressFixed[uint32](mem, d, bm, count)
		case 64:
			vals = compressFixed[uint64](mem, d, bm, count)
		case 128:
			vals = compressFixed[[2]uint64](mem, d, bm, count)
		case 256:
			vals = compressFixed[[4]uint64](mem, d, bm, count)
		default:
			return nil, false
		}
	}
	defer vals.Release()
	validity, nulls := compressValidity(mem, d, bm, count)
	defer ReleaseBuffer(validity)
	return array.NewData(t, count, []*memory.Buffer{validity, vals}, nil, nulls, 0), true
}

// compressFixed is the values buffer of the rows of a fixed-width array
// whose bit is set in bm, elements of T's size. Every element of the
// result is written, so its buffer is not zeroed first.
func compressFixed[T any](mem memory.Allocator, d arrow.ArrayData, bm []byte, count int) *memory.Buffer {
	var zero T
	buf := AllocBuffer(mem, int(unsafe.Sizeof(zero))*count)
	out := Reinterpret[T](buf.Bytes())[:count]
	var src []T
	if n := d.Len(); n > 0 {
		src = Reinterpret[T](BufferBytes(d, 1))[d.Offset():][:n]
	}
	if k := compressValues(out, src, bm); k != count {
		buf.Release()
		panic(fmt.Sprintf("kernels: CompressData told %d rows are set, found %d", count, k))
	}
	return buf
}

// compressValues writes to out the values src[i] whose bit i is set in bm
// (offset 0), in order, and returns how many it wrote; out must have room
// for them all. The SIMD kernel does the whole words it can; the portable
// loop, the definition of the result, takes a word's set bits one at a
// time and copies a word of ones whole.
func compressValues[T any](out, src []T, bm []byte) int {
	n := len(src)
	w, k := compressFast(out, src, bm, n/64)
	for ; w*64 < n; w++ {
		base := w * 64
		var m uint64
		if base+64 <= n {
			m = binary.LittleEndian.Uint64(bm[w*8:])
		} else {
			m = WordAt(bm[:(n+7)/8], base) & TailMask(n)
		}
		if m == ^uint64(0) {
			k += copy(out[k:k+64], src[base:base+64])
			continue
		}
		for m != 0 {
			out[k] = src[base+bits.TrailingZeros64(m)]
			k++
			m &= m - 1
		}
	}
	return k
}

// compressValidity is the validity bitmap of the rows of d whose bit is
// set in bm, and its null count; the bitmap is nil when no row is null.
func compressValidity(mem memory.Allocator, d arrow.ArrayData, bm []byte, count int) (*memory.Buffer, int) {
	if NullCount(d) == 0 || count == 0 {
		return nil, 0
	}
	buf, words := NewBits(mem, count)
	nulls := count - compressBits(words, BufferBytes(d, 0), d.Offset(), bm, d.Len(), count)
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// compressBits writes to words the bits off+i of src (LSB first) of the
// rows i < n whose bit is set in bm (offset 0), packed in order, and
// returns how many of them are set. count is the number of rows set in
// bm, and words has room for them: every word of it is written (the bits
// past count as 0). It goes a word of 64 rows at a time, each word's bits
// extracted by pext.
func compressBits(words []uint64, src []byte, off int, bm []byte, n, count int) int {
	bm = bm[:(n+7)/8]
	pos, ones := 0, 0 // bits written, and set among them
	for w := 0; w*64 < n; w++ {
		m := WordAt(bm, 64*w)
		if w*64+64 > n {
			m &= TailMask(n)
		}
		if m == 0 {
			continue
		}
		c := bits.OnesCount64(m)
		if pos+c > count {
			panic(fmt.Sprintf("kernels: CompressData told %d rows are set, found more", count))
		}
		v := pext(WordAt(src, off+64*w), m)
		ones += bits.OnesCount64(v)
		i, sh := pos>>6, uint(pos&63)
		if sh == 0 {
			words[i] = v
		} else {
			words[i] |= v << sh
			if int(sh)+c > 64 {
				words[i+1] = v >> (64 - sh)
			}
		}
		pos += c
	}
	if pos != count {
		panic(fmt.Sprintf("kernels: CompressData told %d rows are set, found %d", count, pos))
	}
	return ones
}

// pext is x's bits under the set bits of m, packed to the low end (BMI2's
// PEXT), computed in log₂ 64 = 6 rounds of shifts, as Hacker's Delight
// (7–4, compress) does: round j moves each bit right by the bit j of the
// number of zeros of m below it. It costs about the same for every m,
// where a loop over m's set bits costs one step per bit.
func pext(x, m uint64) uint64 {
	if m == ^uint64(0) {
		return x
	}
	x &= m
	mk := ^m << 1 // the zeros of m, counted from the left of each bit
	for j := range 6 {
		// mp: bit b is the parity of mk's bits below and at b, i.e. bit j
		// of how many zeros of m are right of b.
		mp := mk ^ mk<<1
		mp ^= mp << 2
		mp ^= mp << 4
		mp ^= mp << 8
		mp ^= mp << 16
		mp ^= mp << 32
		mv := mp & m // the bits of m to move
		m = m ^ mv | mv>>(1<<j)
		t := x & mv
		x = x ^ t | t>>(1<<j)
		mk &^= mp
	}
	return x
}
