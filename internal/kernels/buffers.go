package kernels

// Buffers of array data, row by row: the one set of helpers that read an
// ArrayData's buffers and validity (here and in package eval), and that
// allocate buffers from the caller's allocator. The word-at-a-time bitmap
// views are in bitmap.go.

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NullCount is the number of null rows of d. ArrayData may hold an
// unknown (negative) count, as slices do; it is then counted.
func NullCount(d arrow.ArrayData) int {
	if n := d.NullN(); n >= 0 {
		return n
	}
	if d.DataType().ID() == arrow.NULL {
		return d.Len()
	}
	bm := BufferBytes(d, 0)
	if bm == nil {
		return 0
	}
	return d.Len() - bitutil.CountSetBits(bm, d.Offset(), d.Len())
}

// RowValidity reads the validity of an array's rows one at a time.
type RowValidity struct {
	bits []byte // nil when every row is valid
	off  int
	all  bool // every row is null (the Null type)
}

// RowValidityOf is the validity of d's rows (offset applied).
func RowValidityOf(d arrow.ArrayData) RowValidity {
	if d.DataType().ID() == arrow.NULL {
		return RowValidity{all: d.Len() > 0}
	}
	if NullCount(d) == 0 {
		return RowValidity{}
	}
	return RowValidity{bits: BufferBytes(d, 0), off: d.Offset()}
}

// AllValid reports whether no row is null, so that a loop may skip Valid.
func (v RowValidity) AllValid() bool { return v.bits == nil && !v.all }

// Valid reports whether logical row i is not null.
func (v RowValidity) Valid(i int) bool {
	if v.bits == nil {
		return !v.all
	}
	return bitutil.BitIsSet(v.bits, v.off+i)
}

// CopyValidity is a fresh bitmap (offset 0) holding the validity of d's
// rows, with its null count, or nil when d has no nulls. (ShareValidity
// shares the array's own bitmap when it can.)
func CopyValidity(mem memory.Allocator, d arrow.ArrayData) (*memory.Buffer, int) {
	nulls := NullCount(d)
	if nulls == 0 {
		return nil, 0
	}
	buf := ZeroedBitmap(mem, d.Len())
	if src := BufferBytes(d, 0); src != nil {
		bitutil.CopyBitmap(src, d.Offset(), d.Len(), buf.Bytes(), 0)
	}
	return buf, nulls
}

// BufferBytes is buffer i of d, or nil when it is absent. It is not
// offset: row i of a fixed-width d is at d.Offset()+i.
func BufferBytes(d arrow.ArrayData, i int) []byte {
	bufs := d.Buffers()
	if i >= len(bufs) || bufs[i] == nil {
		return nil
	}
	return bufs[i].Bytes()
}

// Reinterpret views b as a slice of T (its length rounded down); nil when
// b holds no whole T.
func Reinterpret[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// AllocBuffer is a buffer of n bytes from mem, not cleared: a
// memory.Allocator does not promise zeroed memory, so it is for callers
// that write every byte.
func AllocBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n)
	return buf
}

// ZeroedBuffer is a buffer of n zero bytes from mem.
func ZeroedBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := AllocBuffer(mem, n)
	clear(buf.Bytes())
	return buf
}

// ZeroedBitmap is a bitmap of n zero bits from mem, in whole bytes.
// (NewBits rounds up to whole words and does not clear them.)
func ZeroedBitmap(mem memory.Allocator, n int) *memory.Buffer {
	return ZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
}

// ReleaseBuffer releases b unless it is nil.
func ReleaseBuffer(b *memory.Buffer) {
	if b != nil {
		b.Release()
	}
}
