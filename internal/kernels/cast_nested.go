package kernels

// Nested casts: lists element by element, fixed-size lists to lists or to
// fixed-size lists of the same size, structs field by field. Only the
// child rows the parent's slice covers are converted. A parent row fails
// (null under try_cast, an error otherwise) when one of its elements or
// fields failed, or when a null lands in a non-nullable element or field.

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

func castList(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	off := arr.Data().Offset()
	// rowStart(i) and rowEnd(i) are the child rows of row i, relative to
	// the first child row of the slice.
	var start, end int64
	var rowRange func(i int) (int64, int64)
	switch a := arr.(type) {
	case *array.List:
		if n == 0 {
			break
		}
		offs := a.Offsets()[off : off+n+1]
		start, end = int64(offs[0]), int64(offs[n])
		rowRange = func(i int) (int64, int64) { return int64(offs[i]) - start, int64(offs[i+1]) - start }
	case *array.FixedSizeList:
		size := int64(from.Size())
		start, end = int64(off)*size, int64(off+n)*size
		rowRange = func(i int) (int64, int64) { return int64(i) * size, int64(i+1) * size }
	default:
		return nil, nil, errNoCast
	}
	values := arr.(array.ListLike).ListValues()
	child := array.NewSlice(values, start, end)
	defer child.Release()
	newChild, childFailed, err := castArray(mem, child, from.Elem(), to.Elem())
	if err != nil {
		return nil, nil, err
	}
	defer newChild.Release()
	valid := ValidityOf(arr)
	var failed []uint64
	checkNulls := !to.Elem().Nullable() && newChild.NullN() > 0
	if childFailed != nil || checkNulls {
		for i := 0; i < n; i++ {
			if !valid.Get(i) {
				continue
			}
			s, e := rowRange(i)
			for j := s; j < e; j++ {
				if childFailed != nil && childFailed[j>>6]>>(j&63)&1 != 0 || checkNulls && newChild.IsNull(int(j)) {
					failed = setFailed(failed, n, i)
					break
				}
			}
		}
	}
	validity, nulls := withFailures(mem, valid, failed, n)
	bufs := []*memory.Buffer{validity}
	if to.Kind() == dtype.KindList {
		offBuf, offs := newValues[int32](mem, n+1)
		offs[0] = 0
		for i := 0; i < n; i++ {
			_, e := rowRange(i)
			offs[i+1] = int32(e)
		}
		bufs = append(bufs, offBuf)
	}
	nd := array.NewData(dtype.ToArrow(to), n, bufs, []arrow.ArrayData{newChild.Data()}, nulls, 0)
	releaseAll(bufs...)
	out := array.MakeFromData(nd)
	nd.Release()
	return out, failed, nil
}

func castStruct(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	st, ok := arr.(*array.Struct)
	if !ok {
		return nil, nil, errNoCast
	}
	valid := ValidityOf(arr)
	var failed []uint64
	children := make([]arrow.ArrayData, 0, st.NumField())
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	for k, f := range to.Fields() {
		field, fieldFailed, err := castArray(mem, st.Field(k), from.Fields()[k].Type, f.Type)
		if err != nil {
			return nil, nil, err
		}
		children = append(children, field.Data())
		field.Data().Retain()
		checkNulls := !f.Type.Nullable() && field.NullN() > 0
		if fieldFailed != nil || checkNulls {
			for i := 0; i < n; i++ {
				if valid.Get(i) && (fieldFailed != nil && fieldFailed[i>>6]>>(i&63)&1 != 0 || checkNulls && field.IsNull(i)) {
					failed = setFailed(failed, n, i)
				}
			}
		}
		field.Release()
	}
	validity, nulls := withFailures(mem, valid, failed, n)
	nd := array.NewData(dtype.ToArrow(to), n, []*memory.Buffer{validity}, children, nulls, 0)
	releaseAll(validity)
	out := array.MakeFromData(nd)
	nd.Release()
	return out, failed, nil
}
