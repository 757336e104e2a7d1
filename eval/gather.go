package eval

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// This file moves rows between arrays: gather (a take by row indices, where
// -1 makes a null row), the validity bitmaps it needs, and relabel, which
// gives an array the Arrow type of a dtype that differs only in nested
// nullability.

// gather returns a new array whose row i is row idx[i] of arr, or null when
// idx[i] is negative. Every index must be below arr.Len().
func gather(mem memory.Allocator, arr arrow.Array, idx []int32) (arrow.Array, error) {
	d, err := gatherData(mem, arr.Data(), idx)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func gatherData(mem memory.Allocator, d arrow.ArrayData, idx []int32) (arrow.ArrayData, error) {
	n := len(idx)
	t := d.DataType()
	if t.ID() == arrow.NULL {
		return array.NewData(t, n, []*memory.Buffer{nil}, nil, n, 0), nil
	}
	validity, nulls := gatherValidity(mem, d, idx)
	defer releaseBuffer(validity)
	off := d.Offset()

	switch t.ID() {
	case arrow.BOOL:
		vals := newBitmap(mem, n)
		defer vals.Release()
		src := bufferBytes(d, 1)
		out := vals.Bytes()
		for i, j := range idx {
			if j >= 0 && bitutil.BitIsSet(src, off+int(j)) {
				bitutil.SetBit(out, i)
			}
		}
		return array.NewData(t, n, []*memory.Buffer{validity, vals}, nil, nulls, 0), nil

	case arrow.STRING, arrow.BINARY:
		offs, data, err := gatherBinary(mem, d, idx)
		if err != nil {
			return nil, err
		}
		defer offs.Release()
		defer data.Release()
		return array.NewData(t, n, []*memory.Buffer{validity, offs, data}, nil, nulls, 0), nil

	case arrow.LIST:
		srcValid := validityOf(d)
		srcOffs := int32Values(d, 1)
		offs := allocBuffer(mem, 4*(n+1)) // every offset is written
		defer offs.Release()
		out := int32s(offs.Bytes())
		var child []int32
		total := 0
		for i, j := range idx {
			out[i] = int32(total)
			if j < 0 || !srcValid.valid(int(j)) {
				continue
			}
			s, e := srcOffs[off+int(j)], srcOffs[off+int(j)+1]
			for k := s; k < e; k++ {
				child = append(child, k)
			}
			total += int(e - s)
			if total > math.MaxInt32 {
				return nil, fmt.Errorf("eval: gathered list has more than 2^31-1 elements")
			}
		}
		out[n] = int32(total)
		c, err := gatherData(mem, d.Children()[0], child)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		return array.NewData(t, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{c}, nulls, 0), nil

	case arrow.FIXED_SIZE_LIST:
		size := int(t.(*arrow.FixedSizeListType).Len())
		srcValid := validityOf(d)
		child := make([]int32, 0, n*size)
		for _, j := range idx {
			if j < 0 || !srcValid.valid(int(j)) {
				for range size {
					child = append(child, -1)
				}
				continue
			}
			start := (off + int(j)) * size
			for k := range size {
				child = append(child, int32(start+k))
			}
		}
		c, err := gatherData(mem, d.Children()[0], child)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		return array.NewData(t, n, []*memory.Buffer{validity}, []arrow.ArrayData{c}, nulls, 0), nil

	case arrow.STRUCT:
		shifted := idx
		if off != 0 {
			shifted = make([]int32, n)
			for i, j := range idx {
				if j >= 0 {
					j += int32(off)
				}
				shifted[i] = j
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
		for k, c := range d.Children() {
			g, err := gatherData(mem, c, shifted)
			if err != nil {
				return nil, err
			}
			children[k] = g
		}
		return array.NewData(t, n, []*memory.Buffer{validity}, children, nulls, 0), nil
	}

	fw, ok := t.(arrow.FixedWidthDataType)
	if !ok {
		return nil, fmt.Errorf("eval: cannot gather rows of Arrow type %s", t)
	}
	var vals *memory.Buffer
	switch fw.BitWidth() {
	case 8:
		vals = gatherFixed[uint8](mem, d, idx)
	case 16:
		vals = gatherFixed[uint16](mem, d, idx)
	case 32:
		vals = gatherFixed[uint32](mem, d, idx)
	case 64:
		vals = gatherFixed[uint64](mem, d, idx)
	case 128:
		vals = gatherFixed[[2]uint64](mem, d, idx)
	case 256:
		vals = gatherFixed[[4]uint64](mem, d, idx)
	default:
		return nil, fmt.Errorf("eval: cannot gather rows of Arrow type %s", t)
	}
	defer vals.Release()
	return array.NewData(t, n, []*memory.Buffer{validity, vals}, nil, nulls, 0), nil
}

// gatherFixed gathers the values buffer of a fixed-width array whose
// elements have the size of T. Every element of the result is written, so
// its buffer is not zeroed first.
func gatherFixed[T any](mem memory.Allocator, d arrow.ArrayData, idx []int32) *memory.Buffer {
	var zero T
	buf := allocBuffer(mem, int(unsafe.Sizeof(zero))*len(idx))
	out := reinterpret[T](buf.Bytes())[:len(idx)]
	src := reinterpret[T](bufferBytes(d, 1))[d.Offset():]
	neg := false
	for _, j := range idx {
		neg = neg || j < 0
	}
	if !neg {
		// The common case (a filter's rows): a loop without a branch.
		for i, j := range idx {
			out[i] = src[j]
		}
		return buf
	}
	for i, j := range idx {
		if j >= 0 {
			out[i] = src[j]
		} else {
			out[i] = zero
		}
	}
	return buf
}

func gatherBinary(mem memory.Allocator, d arrow.ArrayData, idx []int32) (offs, data *memory.Buffer, err error) {
	n := len(idx)
	off := d.Offset()
	srcOffs := int32Values(d, 1)
	srcData := bufferBytes(d, 2)
	total := 0
	for _, j := range idx {
		if j >= 0 {
			total += int(srcOffs[off+int(j)+1] - srcOffs[off+int(j)])
		}
	}
	if total > math.MaxInt32 {
		return nil, nil, fmt.Errorf("eval: gathered strings hold more than 2^31-1 bytes")
	}
	// Every offset and every byte of data (total is the sum of the copied
	// lengths) is written below.
	offs = allocBuffer(mem, 4*(n+1))
	data = allocBuffer(mem, total)
	o := int32s(offs.Bytes())
	out := data.Bytes()
	pos := 0
	for i, j := range idx {
		o[i] = int32(pos)
		if j >= 0 {
			s, e := srcOffs[off+int(j)], srcOffs[off+int(j)+1]
			pos += copy(out[pos:], srcData[s:e])
		}
	}
	o[n] = int32(pos)
	return offs, data, nil
}

// gatherValidity is the validity bitmap of gathering idx from d, and its
// null count; the bitmap is nil when no row is null.
func gatherValidity(mem memory.Allocator, d arrow.ArrayData, idx []int32) (*memory.Buffer, int) {
	var src []byte
	if nullCount(d) > 0 {
		src = bufferBytes(d, 0)
	}
	if src == nil {
		neg := false
		for _, j := range idx {
			if j < 0 {
				neg = true
				break
			}
		}
		if !neg {
			return nil, 0
		}
	}
	buf := newBitmap(mem, len(idx))
	out := buf.Bytes()
	off := d.Offset()
	nulls := 0
	for i, j := range idx {
		if j >= 0 && (src == nil || bitutil.BitIsSet(src, off+int(j))) {
			bitutil.SetBit(out, i)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
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
