package kernels

// Bitmaps: the validity bitmaps of Arrow arrays and the values of bool
// arrays, read and written 64 rows at a time.
//
// Arrow bitmaps are LSB-first: row i of an array at offset off is bit
// (off+i)%8 of byte (off+i)/8. An input bitmap may start at any bit offset
// and may end without padding, so it is read through WordAt, which handles
// both. Output bitmaps are always allocated here, at offset 0 and rounded up
// to whole 64-bit words, so they are written as []uint64.

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Bitmap is a read-only view of a bitmap whose first row is bit Off of Buf.
// A nil Buf stands for a bitmap of all ones: the validity of an array
// without nulls.
type Bitmap struct {
	Buf []byte
	Off int
}

// AllSet reports whether b is the implicit all-ones bitmap.
func (b Bitmap) AllSet() bool { return b.Buf == nil }

// Word is the 64 rows of b starting at row 64*k (row 64*k is bit 0).
func (b Bitmap) Word(k int) uint64 {
	if b.Buf == nil {
		return ^uint64(0)
	}
	return WordAt(b.Buf, b.Off+k<<6)
}

// Get reports whether row i of b is set.
func (b Bitmap) Get(i int) bool {
	if b.Buf == nil {
		return true
	}
	j := b.Off + i
	return b.Buf[j>>3]>>(j&7)&1 != 0
}

// Words views the first nw words of b directly when b starts on a word
// boundary of an 8-byte aligned buffer holding them all (the usual case of
// an unsliced array); otherwise it returns nil and the caller reads
// through Word. The implicit all-ones bitmap has no words either.
func (b Bitmap) Words(nw int) []uint64 {
	if b.Buf == nil || b.Off&63 != 0 || nw == 0 {
		return nil
	}
	start := b.Off >> 3
	if len(b.Buf)-start < nw*8 {
		return nil
	}
	p := unsafe.Pointer(&b.Buf[start])
	if uintptr(p)&7 != 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(p), nw)
}

// ValidityOf is the validity bitmap of arr: the implicit all-ones bitmap
// when arr has no nulls. An array of Arrow's null type has no bitmap and
// every row null; callers treat the null dtype before asking for this.
func ValidityOf(arr arrow.Array) Bitmap {
	if arr.NullN() == 0 {
		return Bitmap{}
	}
	d := arr.Data()
	if bufs := d.Buffers(); len(bufs) > 0 && bufs[0] != nil {
		return Bitmap{Buf: bufs[0].Bytes(), Off: d.Offset()}
	}
	return Bitmap{Buf: zeroBits[:], Off: 0}
}

// zeroBits backs the bitmap of an array that has nulls but no validity
// buffer (Arrow's null type): WordAt reads past its end as zeros.
var zeroBits [8]byte

// ValuesOf is the bitmap holding the values of a bool array.
func ValuesOf(arr arrow.Array) Bitmap {
	d := arr.Data()
	if arr.Len() == 0 || len(d.Buffers()) < 2 || d.Buffers()[1] == nil {
		return Bitmap{Buf: zeroBits[:]}
	}
	return Bitmap{Buf: d.Buffers()[1].Bytes(), Off: d.Offset()}
}

// WordAt reads the 64 bits of buf starting at bit off, LSB first. Bits past
// the end of buf read as zero.
func WordAt(buf []byte, off int) uint64 {
	i, sh := off>>3, uint(off&7)
	if i+9 <= len(buf) {
		// A shift by 64 gives 0 in Go, so sh == 0 needs no branch.
		return binary.LittleEndian.Uint64(buf[i:])>>sh | uint64(buf[i+8])<<(64-sh)
	}
	var tmp [9]byte
	if i < len(buf) {
		copy(tmp[:], buf[i:])
	}
	return binary.LittleEndian.Uint64(tmp[:])>>sh | uint64(tmp[8])<<(64-sh)
}

// NumWords is the number of 64-bit words that hold n bits.
func NumWords(n int) int { return (n + 63) >> 6 }

// TailMask is the mask of the valid bits of the last word of an n-bit
// bitmap (all ones when n is a multiple of 64).
func TailMask(n int) uint64 {
	if n&63 == 0 {
		return ^uint64(0)
	}
	return 1<<uint(n&63) - 1
}

// NewBits allocates a bitmap of n bits from mem, rounded up to whole words,
// and returns it with its words. The words are not cleared.
func NewBits(mem memory.Allocator, n int) (*memory.Buffer, []uint64) {
	nw := NumWords(n)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(nw * 8)
	return buf, bufWords(buf, nw)
}

// bufWords views the first nw words of buf. Arrow allocators align buffers
// to 64 bytes, so the view is aligned.
func bufWords(buf *memory.Buffer, nw int) []uint64 {
	if nw == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(buf.Buf()))), nw)
}

// CountZeros is the number of zero bits among the first n bits of words.
func CountZeros(words []uint64, n int) int {
	ones := 0
	nw := NumWords(n)
	for k := 0; k < nw; k++ {
		w := words[k]
		if k == nw-1 {
			w &= TailMask(n)
		}
		ones += bits.OnesCount64(w)
	}
	return n - ones
}

// AndBitmaps allocates the bitmap of n rows that is set where every one of
// ms is set, with the number of rows that are not. When every m is the
// implicit all-ones bitmap it allocates nothing and returns (nil, 0): an
// array without nulls needs no validity buffer.
func AndBitmaps(mem memory.Allocator, n int, ms ...Bitmap) (*memory.Buffer, int) {
	var some [4]Bitmap
	set := some[:0]
	for _, m := range ms {
		if m.Buf != nil {
			set = append(set, m)
		}
	}
	if len(set) == 0 || n == 0 {
		return nil, 0
	}
	buf, words := NewBits(mem, n)
	switch len(set) {
	case 1:
		copyBits(words, set[0], n)
	case 2:
		a, b := set[0], set[1]
		if wa, wb := a.Words(len(words)), b.Words(len(words)); wa != nil && wb != nil {
			wb = wb[:len(wa)]
			for k := range words {
				words[k] = wa[k] & wb[k]
			}
			break
		}
		for k := range words {
			words[k] = WordAt(a.Buf, a.Off+k<<6) & WordAt(b.Buf, b.Off+k<<6)
		}
	default:
		for k := range words {
			w := ^uint64(0)
			for _, m := range set {
				w &= WordAt(m.Buf, m.Off+k<<6)
			}
			words[k] = w
		}
	}
	words[len(words)-1] &= TailMask(n)
	return buf, CountZeros(words, n)
}

// copyBits copies n rows of m into words (at offset 0).
func copyBits(words []uint64, m Bitmap, n int) {
	if m.Off&7 == 0 {
		// Byte aligned: a plain copy of the bytes, then the words are
		// whole.
		dst := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)
		nb := (n + 7) >> 3
		c := copy(dst[:nb], m.Buf[min(m.Off>>3, len(m.Buf)):])
		clear(dst[c:])
		return
	}
	for k := range words {
		words[k] = WordAt(m.Buf, m.Off+k<<6)
	}
}

// CopyBitmap allocates a copy of n rows of m at offset 0.
func CopyBitmap(mem memory.Allocator, m Bitmap, n int) *memory.Buffer {
	buf, words := NewBits(mem, n)
	if m.Buf == nil {
		for k := range words {
			words[k] = ^uint64(0)
		}
	} else {
		copyBits(words, m, n)
	}
	if len(words) > 0 {
		words[len(words)-1] &= TailMask(n)
	}
	return buf
}

// wordBool is 1 when b, 0 otherwise, without a branch.
func wordBool(b bool) uint64 {
	return uint64(*(*uint8)(unsafe.Pointer(&b)))
}

// FillBits sets bit i of words (i < n) to pred(i). It is the slow path for
// row-wise kernels; the fixed-width ones build words directly.
func FillBits(words []uint64, n int, pred func(i int) bool) {
	for k := range words {
		var w uint64
		base := k << 6
		m := min(64, n-base)
		for j := 0; j < m; j++ {
			w |= wordBool(pred(base+j)) << uint(j)
		}
		words[k] = w
	}
}

// ShareValidity is arr's validity as a buffer at offset 0, with its null
// count, for a result of the same rows: arr's own buffer (one more
// reference) when arr starts at a byte boundary, a copy otherwise; nil when
// arr has no nulls. The caller owns one reference to the result.
func ShareValidity(mem memory.Allocator, arr arrow.Array) (*memory.Buffer, int) {
	nulls := arr.NullN()
	if nulls == 0 {
		return nil, 0
	}
	d := arr.Data()
	bufs := d.Buffers()
	if len(bufs) == 0 || bufs[0] == nil {
		// Arrow's null type: no bitmap, every row null.
		buf, words := NewBits(mem, arr.Len())
		clear(words)
		return buf, nulls
	}
	off := d.Offset()
	if off == 0 {
		bufs[0].Retain()
		return bufs[0], nulls
	}
	if off&7 == 0 && off>>3 <= bufs[0].Len() {
		return memory.SliceBuffer(bufs[0], off>>3, bufs[0].Len()-off>>3), nulls
	}
	return CopyBitmap(mem, Bitmap{Buf: bufs[0].Bytes(), Off: off}, arr.Len()), nulls
}
