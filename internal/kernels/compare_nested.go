package kernels

// Equality of nested values (structs, lists, fixed-size lists), row by
// row. Inside a nested value two nulls are equal and a null differs from
// any value (DuckDB's rule); floats inside compare as by IS NOT DISTINCT
// FROM: NaN equals NaN and -0 equals 0.

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/scalar"
)

// rowEqual reports whether row i of one array equals row j of another.
type rowEqual func(i, j int) bool

// cmpNested fills words with l = r (or !=) for nested rows. A scalar side
// is made into a one-row array.
func cmpNested(mem memory.Allocator, op CmpOp, words []uint64, l, r datum.Datum) error {
	a, n, err := nestedRows(mem, l)
	if err != nil {
		return err
	}
	defer a.Release()
	b, m, err := nestedRows(mem, r)
	if err != nil {
		return err
	}
	defer b.Release()
	eq, err := valuesEqual(a, b)
	if err != nil {
		return err
	}
	rows := max(n, m)
	ia, ib := b2u(n > 1 || !l.IsScalar()), b2u(m > 1 || !r.IsScalar())
	neg := op == CmpNe
	FillBits(words[:NumWords(rows)], rows, func(i int) bool {
		ra, rb := i*int(ia), i*int(ib)
		if a.IsNull(ra) || b.IsNull(rb) {
			return false
		}
		return eq(ra, rb) != neg
	})
	return nil
}

// nestedRows is d as an array (a scalar as one row) with one reference for
// the caller, and its row count.
func nestedRows(mem memory.Allocator, d datum.Datum) (arrow.Array, int, error) {
	if d.IsScalar() {
		arr, err := scalar.MakeArray(mem, d.Scalar(), 1)
		return arr, 1, err
	}
	d.Array().Retain()
	return d.Array(), d.Len(), nil
}

// deepEqual is null-safe equality of rows of a and b.
func deepEqual(a, b arrow.Array) (rowEqual, error) {
	eq, err := valuesEqual(a, b)
	if err != nil {
		return nil, err
	}
	if a.NullN() == 0 && b.NullN() == 0 {
		return eq, nil
	}
	return func(i, j int) bool {
		na, nb := a.IsNull(i), b.IsNull(j)
		if na || nb {
			return na && nb
		}
		return eq(i, j)
	}, nil
}

// valuesEqual is equality of valid rows of a and b (same Arrow type).
func valuesEqual(a, b arrow.Array) (rowEqual, error) {
	switch x := a.(type) {
	case *array.Null:
		return func(int, int) bool { return true }, nil
	case *array.Boolean:
		y := b.(*array.Boolean)
		return func(i, j int) bool { return x.Value(i) == y.Value(j) }, nil
	case *array.Float16:
		y := b.(*array.Float16)
		return func(i, j int) bool {
			return sameFloat(f16ToF64(half(x.Value(i).Uint16())), f16ToF64(half(y.Value(j).Uint16())))
		}, nil
	case *array.Float32:
		y := b.(*array.Float32)
		return func(i, j int) bool { return sameFloat(float64(x.Value(i)), float64(y.Value(j))) }, nil
	case *array.Float64:
		y := b.(*array.Float64)
		return func(i, j int) bool { return sameFloat(x.Value(i), y.Value(j)) }, nil
	case *array.String:
		y := b.(*array.String)
		return func(i, j int) bool { return x.Value(i) == y.Value(j) }, nil
	case *array.Binary:
		y := b.(*array.Binary)
		return func(i, j int) bool { return bytes.Equal(x.Value(i), y.Value(j)) }, nil
	case *array.Struct:
		y := b.(*array.Struct)
		fields := make([]rowEqual, x.NumField())
		for k := range fields {
			f, err := deepEqual(x.Field(k), y.Field(k))
			if err != nil {
				return nil, err
			}
			fields[k] = f
		}
		return func(i, j int) bool {
			for _, f := range fields {
				if !f(i, j) {
					return false
				}
			}
			return true
		}, nil
	case array.ListLike:
		y := b.(array.ListLike)
		elems, err := deepEqual(x.ListValues(), y.ListValues())
		if err != nil {
			return nil, err
		}
		return func(i, j int) bool {
			s1, e1 := x.ValueOffsets(i)
			s2, e2 := y.ValueOffsets(j)
			if e1-s1 != e2-s2 {
				return false
			}
			for k := int64(0); k < e1-s1; k++ {
				if !elems(int(s1+k), int(s2+k)) {
					return false
				}
			}
			return true
		}, nil
	}
	// The other fixed-width types compare by their bytes.
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok {
		return nil, fmt.Errorf("no equality for %s", a.DataType())
	}
	w := fw.BitWidth() / 8
	if w == 0 || len(a.Data().Buffers()) < 2 || len(b.Data().Buffers()) < 2 {
		return nil, fmt.Errorf("no equality for %s", a.DataType())
	}
	ab, bb := BufferBytes(a.Data(), 1), BufferBytes(b.Data(), 1)
	oa, ob := a.Data().Offset(), b.Data().Offset()
	return func(i, j int) bool {
		return bytes.Equal(ab[(oa+i)*w:(oa+i+1)*w], bb[(ob+j)*w:(ob+j+1)*w])
	}, nil
}

// sameFloat is IS NOT DISTINCT FROM on two non-null floats.
func sameFloat(x, y float64) bool { return x == y || x != x && y != y }
