package kernels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Scattering rows into place: the merge of values computed for some rows
// of a result each, used by package eval to put together the branches of
// CASE and the arguments of coalesce. A row takes its value from the last
// source that is for it, and is null when none is. Scatter writes
// fixed-width values straight into the result; for other types the caller
// lists each row's position (ScatterSrc.Each) and gathers.

// ScatterSrc is one source of a scatter into a result of n rows: an array
// whose rows go to some of the result's rows.
type ScatterSrc struct {
	Arr arrow.Array
	// Rows are the result rows Arr is for, in increasing order; nil: all n.
	Rows []int32
	// Full: Arr has a row for every result row (row r of the result reads
	// Arr's row r), rather than one per entry of Rows.
	Full bool
	// One: Arr has a single row, which every row it is for reads.
	One bool
}

// Each calls f with every result row r that s is for and the row i of
// s.Arr holding its value, in increasing r.
func (s ScatterSrc) Each(n int, f func(r, i int)) {
	switch {
	case s.Rows == nil:
		for r := range n {
			if s.One {
				f(r, 0)
			} else {
				f(r, r)
			}
		}
	default:
		for j, r := range s.Rows {
			switch {
			case s.One:
				f(int(r), 0)
			case s.Full:
				f(int(r), int(r))
			default:
				f(int(r), j)
			}
		}
	}
}

// Scatterable reports whether Scatter takes values of Arrow type t:
// fixed-width values of whole bytes, not bool (bit-packed) or null.
func Scatterable(t arrow.DataType) bool {
	fw, ok := t.(arrow.FixedWidthDataType)
	return ok && t.ID() != arrow.BOOL && t.ID() != arrow.NULL && fw.BitWidth()%8 == 0
}

// Scatter merges srcs, arrays of the Scatterable type t, into a new array
// of n rows: row r holds the value of the last source that is for r, and
// is null when none is. Values of 1, 2, 4, 8, 16 and 32 bytes are handled;
// any other type is an error.
func Scatter(mem memory.Allocator, n int, t arrow.DataType, srcs []ScatterSrc) (arrow.Array, error) {
	width := 0
	if Scatterable(t) {
		width = t.(arrow.FixedWidthDataType).BitWidth() / 8
	}
	switch width {
	case 1, 2, 4, 8, 16, 32:
	default:
		return nil, fmt.Errorf("cannot merge values of Arrow type %s", t)
	}
	vals := ZeroedBuffer(mem, n*width)
	defer vals.Release()
	valid := ZeroedBitmap(mem, n)
	defer valid.Release()
	for _, s := range srcs {
		switch width {
		case 1:
			scatterTyped[uint8](vals.Bytes(), valid.Bytes(), n, s)
		case 2:
			scatterTyped[uint16](vals.Bytes(), valid.Bytes(), n, s)
		case 4:
			scatterTyped[uint32](vals.Bytes(), valid.Bytes(), n, s)
		case 8:
			scatterTyped[uint64](vals.Bytes(), valid.Bytes(), n, s)
		case 16:
			scatterTyped[[2]uint64](vals.Bytes(), valid.Bytes(), n, s)
		case 32:
			scatterTyped[[4]uint64](vals.Bytes(), valid.Bytes(), n, s)
		}
	}
	nulls := n - bitutil.CountSetBits(valid.Bytes(), 0, n)
	bufs := []*memory.Buffer{valid, vals}
	if nulls == 0 {
		bufs[0] = nil
	}
	d := array.NewData(t, n, bufs, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// scatterTyped writes the values of one source, of Go type T, into out and
// their validity into valid (later sources overwrite earlier ones). Its
// cases are those of ScatterSrc.Each, each a loop of its own.
func scatterTyped[T any](outBytes, valid []byte, n int, s ScatterSrc) {
	out := Reinterpret[T](outBytes)
	d := s.Arr.Data()
	src := Reinterpret[T](BufferBytes(d, 1))
	off := d.Offset()
	sv := RowValidityOf(d)
	put := func(r, i int) {
		if sv.Valid(i) {
			out[r] = src[off+i]
			bitutil.SetBit(valid, r)
		} else {
			bitutil.ClearBit(valid, r)
		}
	}
	switch {
	case s.Rows == nil && !s.One:
		for r := range n {
			put(r, r)
		}
	case s.Rows == nil:
		for r := range n {
			put(r, 0)
		}
	case s.One:
		for _, r := range s.Rows {
			put(int(r), 0)
		}
	case s.Full:
		for _, r := range s.Rows {
			put(int(r), int(r))
		}
	default:
		for j, r := range s.Rows {
			put(int(r), j)
		}
	}
}
