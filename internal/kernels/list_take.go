package kernels

// Gathering rows of any array by position (take) and comparing two rows of
// arrays of one type (equalAt), for the list kernels: list_element gathers
// elements, list_contains compares nested elements.

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// take gathers rows idx of arr into a new array of arr's type; a negative
// index gives a null row.
func take(mem memory.Allocator, arr arrow.Array, idx []int) (arrow.Array, error) {
	n := len(idx)
	dt := arr.DataType()
	if dt.ID() == arrow.NULL {
		return array.NewNull(n), nil
	}
	validity, nulls := takeValidity(mem, arr, idx)
	fail := func(err error) (arrow.Array, error) {
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	switch a := arr.(type) {
	case *array.Boolean:
		buf, words := NewBits(mem, n)
		src := ValuesOf(a) // an empty array may have no values buffer
		FillBits(words, n, func(i int) bool { return idx[i] >= 0 && src.Get(idx[i]) })
		return makeArray(dt, n, []*memory.Buffer{validity, buf}, nil, nulls, 0), nil
	case *array.String, *array.Binary:
		v, err := viewBytes(arr)
		if err != nil {
			return fail(err)
		}
		b := newStrBuilder(mem, n, 0)
		for _, k := range idx {
			if k < 0 {
				b.endEmpty()
				continue
			}
			b.write(v.at(k))
			if err := b.end(); err != nil {
				b.release()
				return fail(err)
			}
		}
		return b.finish(dt, validity, nulls), nil
	case *array.List, *array.FixedSizeList:
		lv, err := viewList(arr)
		if err != nil {
			return fail(err)
		}
		var (
			sub     []int
			offBuf  *memory.Buffer
			offsets []int32
		)
		if !lv.fixed {
			offBuf = memory.NewResizableBuffer(mem)
			offBuf.Resize((n + 1) * 4)
			offsets = arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
			offsets[0] = 0
		}
		for i, k := range idx {
			switch {
			case k >= 0 && validAt(arr, k):
				s, e := lv.bounds(k)
				for j := s; j < e; j++ {
					sub = append(sub, j)
				}
			case lv.fixed:
				for range lv.size {
					sub = append(sub, -1)
				}
			}
			if !lv.fixed {
				offsets[i+1] = int32(len(sub))
			}
		}
		child, err := take(mem, lv.child, sub)
		if err != nil {
			if offBuf != nil {
				offBuf.Release()
			}
			return fail(err)
		}
		defer child.Release()
		return makeArray(dt, n, []*memory.Buffer{validity, offBuf}[:bufCount(lv.fixed)], []arrow.ArrayData{child.Data()}, nulls, 0), nil
	case *array.Struct:
		children := make([]arrow.ArrayData, a.NumField())
		release := func() {
			for _, c := range children {
				if c != nil {
					c.Release()
				}
			}
		}
		for f := range children {
			c, err := take(mem, a.Field(f), idx)
			if err != nil {
				release()
				return fail(err)
			}
			children[f] = c.Data()
			children[f].Retain()
			c.Release()
		}
		out := makeArray(dt, n, []*memory.Buffer{validity}, children, nulls, 0)
		release()
		return out, nil
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		return fail(fmt.Errorf("cannot gather elements of Arrow type %s", dt))
	}
	width := fw.BitWidth() / 8
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * width)
	switch width {
	case 1:
		takeFixed(valuesOf[uint8](arr), idx, reinterpret[uint8](buf.Bytes()))
	case 2:
		takeFixed(valuesOf[uint16](arr), idx, reinterpret[uint16](buf.Bytes()))
	case 4:
		takeFixed(valuesOf[uint32](arr), idx, reinterpret[uint32](buf.Bytes()))
	case 8:
		takeFixed(valuesOf[uint64](arr), idx, reinterpret[uint64](buf.Bytes()))
	case 16:
		takeFixed(valuesOf[[2]uint64](arr), idx, reinterpret[[2]uint64](buf.Bytes()))
	default:
		buf.Release()
		return fail(fmt.Errorf("cannot gather %d-byte elements of Arrow type %s", width, dt))
	}
	return makeArray(dt, n, []*memory.Buffer{validity, buf}, nil, nulls, 0), nil
}

// plainWidth is the byte width of arr's values when they are one buffer
// of 1, 2, 4, 8 or 16-byte values that take copies as they are; 0 for
// every other layout (bool bits, bytes, nested, dictionaries, the null
// type, extension types).
func plainWidth(arr arrow.Array) int {
	switch arr.(type) {
	case *array.Boolean, *array.Null, *array.String, *array.Binary,
		*array.List, *array.FixedSizeList, *array.Struct, *array.Dictionary:
		return 0
	}
	fw, ok := arr.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		return 0
	}
	switch w := fw.BitWidth() / 8; w {
	case 1, 2, 4, 8, 16:
		return w
	}
	return 0
}

// bufCount is the number of buffers of a list (validity, offsets) or a
// fixed-size list (validity).
func bufCount(fixed bool) int {
	if fixed {
		return 1
	}
	return 2
}

func takeFixed[T any](vals []T, idx []int, out []T) {
	var zero T
	for i, k := range idx {
		if k >= 0 {
			out[i] = vals[k]
		} else {
			out[i] = zero
		}
	}
}

// takeValidity is the validity of take(arr, idx): row i is valid when
// idx[i] >= 0 and row idx[i] of arr is valid. It is nil when every row is.
func takeValidity(mem memory.Allocator, arr arrow.Array, idx []int) (*memory.Buffer, int) {
	n := len(idx)
	buf, words := NewBits(mem, n)
	hasNulls := arr.NullN() > 0
	FillBits(words, n, func(i int) bool {
		k := idx[i]
		return k >= 0 && (!hasNulls || arr.IsValid(k))
	})
	nulls := n - bitutil.CountSetBits(buf.Bytes(), 0, n)
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// equalAt reports whether row i of a equals row j of b, two arrays of one
// type. Two nulls are equal (this compares values nested in lists and
// structs); floats compare as IEEE 754 numbers.
func equalAt(a arrow.Array, i int, b arrow.Array, j int) bool {
	av, bv := a.IsValid(i), b.IsValid(j)
	if !av || !bv {
		return av == bv
	}
	if a.DataType().ID() != b.DataType().ID() {
		return false
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i) == b.(*array.Boolean).Value(j)
	case *array.Float16:
		return x.Value(i).Float32() == b.(*array.Float16).Value(j).Float32()
	case *array.Float32:
		return x.Value(i) == b.(*array.Float32).Value(j)
	case *array.Float64:
		return x.Value(i) == b.(*array.Float64).Value(j)
	case *array.String:
		return x.Value(i) == b.(*array.String).Value(j)
	case *array.Binary:
		return bytes.Equal(x.Value(i), b.(*array.Binary).Value(j))
	case *array.List:
		y := b.(*array.List)
		s1, e1 := x.ValueOffsets(i)
		s2, e2 := y.ValueOffsets(j)
		return e1-s1 == e2-s2 && rangesEqual(x.ListValues(), int(s1), y.ListValues(), int(s2), int(e1-s1))
	case *array.FixedSizeList:
		y := b.(*array.FixedSizeList)
		n1 := int(x.DataType().(*arrow.FixedSizeListType).Len())
		n2 := int(y.DataType().(*arrow.FixedSizeListType).Len())
		return n1 == n2 && rangesEqual(x.ListValues(), (x.Offset()+i)*n1, y.ListValues(), (y.Offset()+j)*n2, n1)
	case *array.Struct:
		y := b.(*array.Struct)
		if x.NumField() != y.NumField() {
			return false
		}
		for f := range x.NumField() {
			if !equalAt(x.Field(f), i, y.Field(f), j) {
				return false
			}
		}
		return true
	case *array.Null:
		return true
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok {
		return false
	}
	w := fw.BitWidth() / 8
	ab := a.Data().Buffers()[1].Bytes()[(a.Data().Offset()+i)*w:]
	bb := b.Data().Buffers()[1].Bytes()[(b.Data().Offset()+j)*w:]
	return bytes.Equal(ab[:w], bb[:w])
}

// rangesEqual compares n rows of a from i with n rows of b from j.
func rangesEqual(a arrow.Array, i int, b arrow.Array, j, n int) bool {
	for k := range n {
		if !equalAt(a, i+k, b, j+k) {
			return false
		}
	}
	return true
}
