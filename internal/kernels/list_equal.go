package kernels

// For the list kernels: the byte width of elements list_element copies in
// one typed pass (plainWidth; other elements go through Gather), and
// comparing two rows of arrays of one type (equalAt), with which
// list_contains compares nested elements.

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// plainWidth is the byte width of arr's values when they are one buffer
// of 1, 2, 4, 8 or 16-byte values that can be copied as they are; 0 for
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
