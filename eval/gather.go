package eval

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/kernels"
)

// This file moves rows between arrays: gather (a take by row indices, where
// -1 makes a null row; kernels.Gather does the work) and relabel, which
// gives an array the Arrow type of a dtype that differs only in nested
// nullability. The helpers that read and make buffers and validity bitmaps
// are internal/kernels' (buffers.go).

// gather returns a new array whose row i is row idx[i] of arr, or null when
// idx[i] is negative (kernels.Gather, whose errors it names as eval's).
func gather(mem memory.Allocator, arr arrow.Array, idx []int32) (arrow.Array, error) {
	g, err := kernels.Gather(mem, arr, idx)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return g, nil
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
