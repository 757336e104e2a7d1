package kernels

// Struct kernels: get_item, pack, select and merge. They reassemble
// existing child arrays instead of copying values: the only buffers they
// allocate are validity bitmaps, and children for broadcast scalars.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func structArg(d datum.Datum) (*array.Struct, error) {
	a, ok := d.Array().(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("want a struct array, got Arrow %s", d.Array().DataType())
	}
	return a, nil
}

// structFields is the field values of a non-null struct scalar.
func structFields(s scalar.Scalar) []scalar.Scalar {
	fs, _ := s.Value().([]scalar.Scalar)
	return fs
}

// GetItem is field number field of the struct s. The child array is shared,
// not copied: when the struct has no nulls it is returned as it is (sliced
// to the struct's rows); otherwise it gets a new validity bitmap, the child's
// AND the struct's. That bitmap is laid out at the child's own offset, so it
// spans offset+len bits.
func GetItem(mem memory.Allocator, s datum.Datum, field int, ret dtype.DType) (datum.Datum, error) {
	n := s.Len()
	if s.IsScalar() {
		if s.Scalar().IsNull() {
			return nullResult(ret, n), nil
		}
		fs := structFields(s.Scalar())
		if field < 0 || field >= len(fs) {
			return datum.Datum{}, fmt.Errorf("get_item: field %d of a struct of %d fields", field, len(fs))
		}
		return datum.FromScalar(fs[field].WithDType(ret), n), nil
	}
	st, err := structArg(s)
	if err != nil {
		return datum.Datum{}, err
	}
	if field < 0 || field >= st.NumField() {
		return datum.Datum{}, fmt.Errorf("get_item: field %d of a struct of %d fields", field, st.NumField())
	}
	child := st.Field(field)
	if st.NullN() == 0 || child.DataType().ID() == arrow.NULL {
		child.Retain()
		return datum.FromArray(child, ret), nil
	}
	cd := child.Data()
	off := cd.Offset()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(off + n))))
	out := valid.Bytes()
	sbits, soff := st.NullBitmapBytes(), st.Data().Offset()
	if cbits := child.NullBitmapBytes(); child.NullN() > 0 && cbits != nil {
		bitutil.BitmapAnd(cbits, sbits, int64(off), int64(soff), out, int64(off), int64(n))
	} else {
		bitutil.CopyBitmap(sbits, soff, n, out, off)
	}
	nulls := n - bitutil.CountSetBits(out, off, n)
	bufs := append([]*memory.Buffer{valid}, cd.Buffers()[1:]...)
	for _, b := range bufs[1:] {
		if b != nil {
			b.Retain()
		}
	}
	return datum.FromArray(makeArray(child.DataType(), n, bufs, cd.Children(), nulls, off), ret), nil
}

// Pack builds a non-nullable struct whose fields are args. Array arguments
// become children as they are; scalars are broadcast. Without arguments
// (a struct of no fields) the result is one scalar row, as for any call
// whose arguments are all scalars.
func Pack(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := 1
	if len(args) > 0 {
		n = args[0].Len()
	}
	if allScalar(args) {
		vals := make([]scalar.Scalar, len(args))
		for i, a := range args {
			vals[i] = a.Scalar()
		}
		return datum.FromScalar(scalar.Struct(ret, vals), n), nil
	}
	children := make([]arrow.ArrayData, len(args))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, a := range args {
		if !a.IsScalar() {
			children[i] = a.Array().Data()
			children[i].Retain()
			continue
		}
		arr, err := scalar.MakeArray(mem, a.Scalar(), n)
		if err != nil {
			return datum.Datum{}, fmt.Errorf("pack: field %d: %w", i+1, err)
		}
		children[i] = arr.Data()
		children[i].Retain()
		arr.Release()
	}
	return datum.FromArray(makeArray(dtype.ToArrow(ret), n, []*memory.Buffer{nil}, children, 0, 0), ret), nil
}

// Select is the struct of fields keep of s (in that order), with s's
// validity. No buffer is copied.
func Select(mem memory.Allocator, s datum.Datum, keep []int, ret dtype.DType) (datum.Datum, error) {
	n := s.Len()
	if s.IsScalar() {
		if s.Scalar().IsNull() {
			return nullResult(ret, n), nil
		}
		fs := structFields(s.Scalar())
		vals := make([]scalar.Scalar, len(keep))
		for i, k := range keep {
			if k < 0 || k >= len(fs) {
				return datum.Datum{}, fmt.Errorf("select: field %d of a struct of %d fields", k, len(fs))
			}
			vals[i] = fs[k]
		}
		return datum.FromScalar(scalar.Struct(ret, vals), n), nil
	}
	st, err := structArg(s)
	if err != nil {
		return datum.Datum{}, err
	}
	d := st.Data()
	all := d.Children()
	children := make([]arrow.ArrayData, len(keep))
	for i, k := range keep {
		if k < 0 || k >= len(all) {
			return datum.Datum{}, fmt.Errorf("select: field %d of a struct of %d fields", k, len(all))
		}
		children[i] = all[k]
	}
	validity := d.Buffers()[0]
	nulls := st.NullN()
	if nulls == 0 {
		validity = nil
	}
	if validity != nil {
		validity.Retain()
	}
	return datum.FromArray(makeArray(dtype.ToArrow(ret), n, []*memory.Buffer{validity}, children, nulls, d.Offset()), ret), nil
}

// Merge combines structs: each field of ret comes from the last argument
// that has a field of that name. A row is null when any argument is null
// there.
func Merge(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	// src[f] = (argument, field) that field f of the result comes from.
	type source struct{ arg, field int }
	fields := ret.Fields()
	src := make([]source, len(fields))
	for f, fd := range fields {
		src[f] = source{-1, -1}
		for a := len(args) - 1; a >= 0; a-- {
			if k := args[a].DType().FieldIndex(fd.Name); k >= 0 {
				src[f] = source{a, k}
				break
			}
		}
		if src[f].arg < 0 {
			return datum.Datum{}, fmt.Errorf("merge: no argument has field %q", fd.Name)
		}
	}
	if allScalar(args) {
		vals := make([]scalar.Scalar, len(fields))
		for f, s := range src {
			vals[f] = structFields(args[s.arg].Scalar())[s.field]
		}
		return datum.FromScalar(scalar.Struct(ret, vals), n), nil
	}
	structs := make([]*array.Struct, len(args))
	arrs := make([]arrow.Array, 0, len(args))
	for a, d := range args {
		if d.IsScalar() {
			continue
		}
		st, err := structArg(d)
		if err != nil {
			return datum.Datum{}, err
		}
		structs[a] = st
		arrs = append(arrs, st)
	}
	children := make([]arrow.ArrayData, len(fields))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for f, s := range src {
		if st := structs[s.arg]; st != nil {
			children[f] = st.Field(s.field).Data()
			children[f].Retain()
			continue
		}
		arr, err := scalar.MakeArray(mem, structFields(args[s.arg].Scalar())[s.field], n)
		if err != nil {
			return datum.Datum{}, fmt.Errorf("merge: field %q: %w", fields[f].Name, err)
		}
		children[f] = arr.Data()
		children[f].Retain()
		arr.Release()
	}
	validity, nulls := andValidity(mem, n, arrs...)
	return datum.FromArray(makeArray(dtype.ToArrow(ret), n, []*memory.Buffer{validity}, children, nulls, 0), ret), nil
}
