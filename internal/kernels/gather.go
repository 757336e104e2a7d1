package kernels

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Gathering rows by position: the one take of the module, used by
// list_element here and by package eval (filtering, CASE branches,
// lambdas).

// Gather returns a new array whose row i is row idx[i] of arr, or null when
// idx[i] is negative. Every index must be below arr.Len(). It handles the
// null type, bool, utf8 and binary, lists, fixed-size lists, structs and
// fixed-width values of 1 to 32 bytes; any other layout is an error.
func Gather(mem memory.Allocator, arr arrow.Array, idx []int32) (arrow.Array, error) {
	d, err := GatherData(mem, arr.Data(), idx)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// GatherData is Gather over array data.
func GatherData(mem memory.Allocator, d arrow.ArrayData, idx []int32) (arrow.ArrayData, error) {
	n := len(idx)
	t := d.DataType()
	if t.ID() == arrow.NULL {
		return array.NewData(t, n, []*memory.Buffer{nil}, nil, n, 0), nil
	}
	validity, nulls := gatherValidity(mem, d, idx)
	defer ReleaseBuffer(validity)
	off := d.Offset()

	switch t.ID() {
	case arrow.BOOL:
		vals, words := NewBits(mem, n)
		defer vals.Release()
		gatherBits(words, BufferBytes(d, 1), off, idx)
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
		srcValid := RowValidityOf(d)
		srcOffs := Reinterpret[int32](BufferBytes(d, 1))
		offs := AllocBuffer(mem, 4*(n+1)) // every offset is written
		defer offs.Release()
		out := Reinterpret[int32](offs.Bytes())
		var child []int32
		total := 0
		for i, j := range idx {
			out[i] = int32(total)
			if j < 0 || !srcValid.Valid(int(j)) {
				continue
			}
			s, e := srcOffs[off+int(j)], srcOffs[off+int(j)+1]
			for k := s; k < e; k++ {
				child = append(child, k)
			}
			total += int(e - s)
			if total > math.MaxInt32 {
				return nil, fmt.Errorf("gathered list has more than 2^31-1 elements")
			}
		}
		out[n] = int32(total)
		c, err := GatherData(mem, d.Children()[0], child)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		return array.NewData(t, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{c}, nulls, 0), nil

	case arrow.FIXED_SIZE_LIST:
		size := int(t.(*arrow.FixedSizeListType).Len())
		srcValid := RowValidityOf(d)
		child := make([]int32, 0, n*size)
		for _, j := range idx {
			if j < 0 || !srcValid.Valid(int(j)) {
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
		c, err := GatherData(mem, d.Children()[0], child)
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
			g, err := GatherData(mem, c, shifted)
			if err != nil {
				return nil, err
			}
			children[k] = g
		}
		return array.NewData(t, n, []*memory.Buffer{validity}, children, nulls, 0), nil
	}

	fw, ok := t.(arrow.FixedWidthDataType)
	if !ok {
		return nil, fmt.Errorf("cannot gather rows of Arrow type %s", t)
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
		return nil, fmt.Errorf("cannot gather rows of Arrow type %s", t)
	}
	defer vals.Release()
	if dict, ok := d.Dictionary().(*array.Data); ok && t.ID() == arrow.DICTIONARY {
		// The indices (the fixed width of a dictionary type) gathered, the
		// dictionary shared.
		return array.NewDataWithDictionary(t, n, []*memory.Buffer{validity, vals}, nulls, 0, dict), nil
	}
	return array.NewData(t, n, []*memory.Buffer{validity, vals}, nil, nulls, 0), nil
}

// gatherFixed gathers the values buffer of a fixed-width array whose
// elements have the size of T. Every element of the result is written, so
// its buffer is not zeroed first.
func gatherFixed[T any](mem memory.Allocator, d arrow.ArrayData, idx []int32) *memory.Buffer {
	var zero T
	buf := AllocBuffer(mem, int(unsafe.Sizeof(zero))*len(idx))
	out := Reinterpret[T](buf.Bytes())[:len(idx)]
	src := Reinterpret[T](BufferBytes(d, 1))
	if len(src) > 0 {
		src = src[d.Offset():]
	}
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
	srcOffs := Reinterpret[int32](BufferBytes(d, 1))
	srcData := BufferBytes(d, 2)
	total := 0
	for _, j := range idx {
		if j >= 0 {
			total += int(srcOffs[off+int(j)+1] - srcOffs[off+int(j)])
		}
	}
	if total > math.MaxInt32 {
		return nil, nil, fmt.Errorf("gathered strings hold more than 2^31-1 bytes")
	}
	// Every offset and every byte of data (total is the sum of the copied
	// lengths) is written below.
	offs = AllocBuffer(mem, 4*(n+1))
	data = AllocBuffer(mem, total)
	o := Reinterpret[int32](offs.Bytes())
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
	if NullCount(d) > 0 {
		src = BufferBytes(d, 0)
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
	buf, words := NewBits(mem, len(idx))
	nulls := len(idx) - gatherBits(words, src, d.Offset(), idx)
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// gatherBits sets bit i of words to bit off+idx[i] of src (LSB first), or
// to 0 where idx[i] is negative; a nil src is all ones. It writes every
// word (the bits past len(idx) as 0), a word at a time rather than bit by
// bit, and returns how many bits it set.
func gatherBits(words []uint64, src []byte, off int, idx []int32) int {
	ones := 0
	for w := 0; w*64 < len(idx); w++ {
		chunk := idx[w*64 : min(len(idx), w*64+64)]
		var acc uint64
		if src == nil {
			for k, j := range chunk {
				acc |= uint64(^j>>31&1) << uint(k) // 1 unless j < 0
			}
		} else {
			for k, j := range chunk {
				if j >= 0 {
					p := off + int(j)
					acc |= uint64(src[p>>3]>>(p&7)&1) << uint(k)
				}
			}
		}
		words[w] = acc
		ones += bits.OnesCount64(acc)
	}
	return ones
}
