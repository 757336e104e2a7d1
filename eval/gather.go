package eval

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/kernels"
)

// This file moves rows between arrays: gather (a take by row indices, where
// -1 makes a null row; kernels.Gather does the work), helpers that read and
// make buffers and validity bitmaps, and relabel, which gives an array the
// Arrow type of a dtype that differs only in nested nullability.

// gather returns a new array whose row i is row idx[i] of arr, or null when
// idx[i] is negative (kernels.Gather, whose errors it names as eval's).
func gather(mem memory.Allocator, arr arrow.Array, idx []int32) (arrow.Array, error) {
	g, err := kernels.Gather(mem, arr, idx)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return g, nil
}

// nullCount is the number of null rows of d. ArrayData may hold an
// unknown (negative) count, as slices do; it is then counted.
func nullCount(d arrow.ArrayData) int {
	if n := d.NullN(); n >= 0 {
		return n
	}
	if d.DataType().ID() == arrow.NULL {
		return d.Len()
	}
	bm := bufferBytes(d, 0)
	if bm == nil {
		return 0
	}
	return d.Len() - bitutil.CountSetBits(bm, d.Offset(), d.Len())
}

// validity reads the validity of an array's rows.
type validity struct {
	bits []byte // nil when every row is valid
	off  int
	all  bool // every row is null (the Null type)
}

func validityOf(d arrow.ArrayData) validity {
	if d.DataType().ID() == arrow.NULL {
		return validity{all: d.Len() > 0}
	}
	if nullCount(d) == 0 {
		return validity{}
	}
	return validity{bits: bufferBytes(d, 0), off: d.Offset()}
}

// valid reports whether logical row i is not null.
func (v validity) valid(i int) bool {
	if v.bits == nil {
		return !v.all
	}
	return bitutil.BitIsSet(v.bits, v.off+i)
}

// copyValidity is a fresh bitmap (offset 0) holding the validity of d's
// rows, or nil when d has no nulls.
func copyValidity(mem memory.Allocator, d arrow.ArrayData) (*memory.Buffer, int) {
	nulls := nullCount(d)
	if nulls == 0 {
		return nil, 0
	}
	buf := newBitmap(mem, d.Len())
	if src := bufferBytes(d, 0); src != nil {
		bitutil.CopyBitmap(src, d.Offset(), d.Len(), buf.Bytes(), 0)
	}
	return buf, nulls
}

// newBuffer is a buffer of n bytes from mem, zeroed.
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := allocBuffer(mem, n)
	clear(buf.Bytes())
	return buf
}

// allocBuffer is a buffer of n bytes from mem, not cleared: a
// memory.Allocator does not promise zeroed memory, so it is for callers
// that write every byte.
func allocBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n)
	return buf
}

// newBitmap is a zeroed bitmap of n bits.
func newBitmap(mem memory.Allocator, n int) *memory.Buffer {
	return newBuffer(mem, int(bitutil.BytesForBits(int64(n))))
}

func releaseBuffer(b *memory.Buffer) {
	if b != nil {
		b.Release()
	}
}

// bufferBytes is buffer i of d, or nil when it is absent.
func bufferBytes(d arrow.ArrayData, i int) []byte {
	bufs := d.Buffers()
	if i >= len(bufs) || bufs[i] == nil {
		return nil
	}
	return bufs[i].Bytes()
}

// int32Values is buffer i of d read as int32s, not offset.
func int32Values(d arrow.ArrayData, i int) []int32 { return int32s(bufferBytes(d, i)) }

func int32s(b []byte) []int32 { return reinterpret[int32](b) }

func reinterpret[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// relabel returns arr (with a new reference) typed as t, which must have
// the same physical layout and differ at most in the nullability or names of
// nested fields. Kernels and branches may produce such arrays; results and
// concatenated parts take the Arrow type of the bound dtype.
func relabel(arr arrow.Array, t arrow.DataType) (arrow.Array, error) {
	if arrow.TypeEqual(arr.DataType(), t) {
		arr.Retain()
		return arr, nil
	}
	d, err := relabelData(arr.Data(), t)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func relabelData(d arrow.ArrayData, t arrow.DataType) (arrow.ArrayData, error) {
	from := d.DataType()
	if arrow.TypeEqual(from, t) {
		d.Retain()
		return d, nil
	}
	if from.ID() != t.ID() {
		return nil, fmt.Errorf("eval: an array of Arrow type %s where %s was expected", from, t)
	}
	var childTypes []arrow.DataType
	switch tt := t.(type) {
	case *arrow.ListType:
		childTypes = []arrow.DataType{tt.Elem()}
	case *arrow.FixedSizeListType:
		if tt.Len() != from.(*arrow.FixedSizeListType).Len() {
			return nil, fmt.Errorf("eval: an array of Arrow type %s where %s was expected", from, t)
		}
		childTypes = []arrow.DataType{tt.Elem()}
	case *arrow.StructType:
		if tt.NumFields() != len(d.Children()) {
			return nil, fmt.Errorf("eval: an array of Arrow type %s where %s was expected", from, t)
		}
		for _, f := range tt.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	default:
		if !arrow.TypeEqual(from, t) {
			return nil, fmt.Errorf("eval: an array of Arrow type %s where %s was expected", from, t)
		}
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range d.Children() {
		if i >= len(childTypes) {
			return nil, fmt.Errorf("eval: an array of Arrow type %s where %s was expected", from, t)
		}
		rc, err := relabelData(c, childTypes[i])
		if err != nil {
			return nil, err
		}
		children[i] = rc
	}
	return array.NewData(t, d.Len(), d.Buffers(), children, d.NullN(), d.Offset()), nil
}
