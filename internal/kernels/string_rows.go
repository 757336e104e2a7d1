package kernels

// The row drivers of the DuckDB-dialect string functions (string_more.go,
// regexp.go, format.go): arguments read as utf8 or integer views, array or
// scalar, and result writers for utf8, integer and list<utf8> results that
// allocate from the caller's allocator, skip the null rows of a
// null-propagating function and turn a row's error into a *RowError.
//
// A function is one closure per row over the views; the views index the
// Arrow buffers directly, so a row costs no allocation and no interface
// call. When every argument is a scalar, the closure runs once and the
// result is a scalar.

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// strArg is a utf8 argument: an array view or a scalar's bytes.
type strArg struct {
	arr arrow.Array // nil for a scalar
	v   bytesView
	lit []byte
}

// newStrArg views a utf8 datum. A null scalar views as empty bytes (the
// drivers never read the rows it makes null).
func newStrArg(d datum.Datum) (strArg, error) {
	if d.IsScalar() {
		return strArg{lit: scalarBytes(d.Scalar())}, nil
	}
	v, err := viewBytes(d.Array())
	if err != nil {
		return strArg{}, err
	}
	return strArg{arr: d.Array(), v: v}, nil
}

// at is the value at row i.
func (a *strArg) at(i int) []byte {
	if a.arr == nil {
		return a.lit
	}
	return a.v.at(i)
}

// size is the number of bytes a takes over n rows, as a size hint.
func (a *strArg) size(n int) int {
	if a.arr == nil {
		return len(a.lit) * n
	}
	return len(a.v.span())
}

// argArrays are the arrays among args (for their validity).
func argArrays(args []datum.Datum) []arrow.Array {
	out := make([]arrow.Array, 0, len(args))
	for _, a := range args {
		if !a.IsScalar() {
			out = append(out, a.Array())
		}
	}
	return out
}

// validBits is the validity bitmap of the rows where every one of arrs is
// valid: nil when all are (then nulls is 0). The caller owns buf.
func validBits(mem memory.Allocator, n int, arrs []arrow.Array) (buf *memory.Buffer, bits []byte, nulls int) {
	buf, nulls = andValidity(mem, n, arrs...)
	if buf != nil {
		bits = buf.Bytes()
	}
	return buf, bits, nulls
}

// bitSet reports whether bit i of bits is set (nil bits: every bit is).
func bitSet(bits []byte, i int) bool { return bits == nil || bits[i>>3]&(1<<(i&7)) != 0 }

// utf8Rows is the utf8 result of a null-propagating function of args: row
// i is null where an argument is, else row writes it into b. hint is the
// expected size of the result in bytes.
func utf8Rows(mem memory.Allocator, args []datum.Datum, ret dtype.DType, hint int, row func(i int, b *strBuilder) error) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	if allScalar(args) {
		b := newStrBuilder(memory.DefaultAllocator, 1, 0)
		defer b.release()
		if err := row(0, b); err != nil {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return datum.FromScalar(scalar.String(string(b.data)).WithDType(ret), n), nil
	}
	validity, bits, nulls := validBits(mem, n, argArrays(args))
	b := newStrBuilder(mem, n, hint)
	for i := range n {
		if !bitSet(bits, i) {
			b.endEmpty()
			continue
		}
		err := row(i, b)
		if err == nil {
			err = b.end()
		}
		if err != nil {
			b.release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
	}
	return datum.FromArray(b.finish(dtype.ToArrow(ret), validity, nulls), ret), nil
}

// intRows is the integer result (i32 or i64, as ret says) of a
// null-propagating function of args: row i is null where an argument is,
// else row(i).
func intRows[T int32 | int64](mem memory.Allocator, args []datum.Datum, ret dtype.DType, row func(i int) (T, error)) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	if allScalar(args) {
		v, err := row(0)
		if err != nil {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return datum.FromScalar(scalar.Int(ret.PType(), int64(v)).WithDType(ret), n), nil
	}
	validity, bits, nulls := validBits(mem, n, argArrays(args))
	buf, out := newValues[T](mem, n)
	for i := range n {
		if !bitSet(bits, i) {
			out[i] = 0
			continue
		}
		v, err := row(i)
		if err != nil {
			buf.Release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		out[i] = v
	}
	arr := makeArray(dtype.ToArrow(ret), n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
	return datum.FromArray(arr, ret), nil
}

// boolRows is the bool result of a null-propagating function of args: row
// i is null where an argument is, else row(i).
func boolRows(mem memory.Allocator, args []datum.Datum, ret dtype.DType, row func(i int) (bool, error)) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	if allScalar(args) {
		v, err := row(0)
		if err != nil {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return datum.FromScalar(scalar.Bool(v).WithDType(ret), n), nil
	}
	validity, bits, nulls := validBits(mem, n, argArrays(args))
	valBuf, words := NewBits(mem, n)
	for w := range words {
		var word uint64
		for j := 0; j < 64 && w*64+j < n; j++ {
			i := w*64 + j
			if !bitSet(bits, i) {
				continue
			}
			v, err := row(i)
			if err != nil {
				valBuf.Release()
				if validity != nil {
					validity.Release()
				}
				return datum.Datum{}, &RowError{Row: i, Err: err}
			}
			if v {
				word |= 1 << j
			}
		}
		words[w] = word
	}
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}

// listBuilder writes a list<utf8> result: the list offsets, and the
// elements in a strBuilder.
type listBuilder struct {
	offBuf *memory.Buffer
	offs   []int32
	elems  *strBuilder
	n      int   // rows written
	nulls  []int // the null elements, by index (rare: kept as a list)
	mem    memory.Allocator
}

func newListBuilder(mem memory.Allocator, n, elemHint, dataHint int) *listBuilder {
	b := &listBuilder{offBuf: memory.NewResizableBuffer(mem), elems: newStrBuilder(mem, elemHint, dataHint), mem: mem}
	b.offBuf.Resize((n + 1) * 4)
	b.offs = arrow.Int32Traits.CastFromBytes(b.offBuf.Bytes())
	b.offs[0] = 0
	return b
}

// add appends an element to the current row.
func (b *listBuilder) add(p []byte) error {
	e := b.elems
	if e.n+1 >= len(e.offs) {
		used := len(e.offs)
		e.offBuf.Resize(max(2*used, 16) * 4)
		e.offs = arrow.Int32Traits.CastFromBytes(e.offBuf.Bytes())
	}
	e.write(p)
	return e.end()
}

// addNull adds a null element to the current row.
func (b *listBuilder) addNull() error {
	b.nulls = append(b.nulls, b.elems.n)
	return b.add(nil)
}

// end closes the current row.
func (b *listBuilder) end() {
	b.n++
	b.offs[b.n] = int32(b.elems.n)
}

func (b *listBuilder) release() {
	b.elems.release()
	if b.offBuf != nil {
		b.offBuf.Release()
		b.offBuf = nil
	}
}

// finish builds the list array of type dt (a list of utf8), taking over
// validity.
func (b *listBuilder) finish(dt arrow.DataType, validity *memory.Buffer, nulls int) arrow.Array {
	e := b.elems
	e.offBuf.ResizeNoShrink((e.n + 1) * 4)
	var valid *memory.Buffer
	if len(b.nulls) > 0 {
		valid = ZeroedBitmap(b.mem, e.n)
		bits := valid.Bytes()
		bitutil.SetBitsTo(bits, 0, int64(e.n), true)
		for _, i := range b.nulls {
			bitutil.ClearBit(bits, i)
		}
	}
	child := e.finish(dt.(*arrow.ListType).Elem(), valid, len(b.nulls))
	defer child.Release()
	arr := makeArray(dt, b.n, []*memory.Buffer{validity, b.offBuf}, []arrow.ArrayData{child.Data()}, nulls, 0)
	b.offBuf = nil
	return arr
}

// utf8ListRows is the list<utf8> result of a null-propagating function of
// args: row i is null where an argument is, else row adds its elements to
// b. hint is the expected size of the elements in bytes.
func utf8ListRows(mem memory.Allocator, args []datum.Datum, ret dtype.DType, hint int, row func(i int, b *listBuilder) error) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	rows := n
	if allScalar(args) {
		rows = 1
	}
	var validity *memory.Buffer
	var bits []byte
	nulls := 0
	if rows == n {
		validity, bits, nulls = validBits(mem, n, argArrays(args))
	}
	b := newListBuilder(mem, rows, rows*2, hint)
	for i := range rows {
		if !bitSet(bits, i) {
			b.end()
			continue
		}
		if err := row(i, b); err != nil {
			b.release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		b.end()
	}
	arr := b.finish(dtype.ToArrow(ret), validity, nulls)
	if rows == n && !allScalar(args) {
		return datum.FromArray(arr, ret), nil
	}
	defer arr.Release()
	sc, err := scalar.FromArray(arr, 0, ret)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(sc, n), nil
}
