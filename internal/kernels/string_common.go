package kernels

// Shared plumbing of the variable-width and nested kernels (strings, LIKE,
// lists, structs): views over offset-based arrays, validity bitmaps combined
// word by word, and writers for bool and string results that allocate from
// the caller's allocator.

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// bytesView is the logical content of a utf8 or binary array: row i holds
// data[offs[i]:offs[i+1]]. offs has Len()+1 entries (the array's offset is
// already applied); data is the whole value buffer.
type bytesView struct {
	offs []int32
	data []byte
}

// viewBytes views a String or Binary array. An empty array gives an empty
// view even when it has no buffers. Malformed offsets (outside the data, or
// decreasing) are an error.
func viewBytes(arr arrow.Array) (bytesView, error) {
	v, err := viewBytesUnchecked(arr)
	if err == nil && !ascending(v.offs) {
		err = errDecreasing(arr)
	}
	return v, err
}

func errDecreasing(arr arrow.Array) error {
	return fmt.Errorf("%s array offsets decrease", arr.DataType())
}

// viewBytesUnchecked is viewBytes without the pass that checks that the
// offsets never decrease: only the first and last are checked. The caller
// checks the others before slicing by them (the LIKE loops do it as they
// go, to read the offsets once).
func viewBytesUnchecked(arr arrow.Array) (bytesView, error) {
	n := arr.Len()
	if n == 0 {
		return bytesView{offs: []int32{0}}, nil
	}
	d := arr.Data()
	bufs := d.Buffers()
	if len(bufs) < 3 || bufs[1] == nil {
		return bytesView{}, fmt.Errorf("%s array without an offsets buffer", arr.DataType())
	}
	offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
	if len(offs) < d.Offset()+n+1 {
		return bytesView{}, fmt.Errorf("%s array of %d rows at offset %d has only %d offsets", arr.DataType(), n, d.Offset(), len(offs))
	}
	offs = offs[d.Offset() : d.Offset()+n+1]
	var data []byte
	if bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	if offs[0] < 0 || offs[0] > offs[n] || int(offs[n]) > len(data) {
		return bytesView{}, fmt.Errorf("%s array offsets [%d, %d] outside its %d data bytes", arr.DataType(), offs[0], offs[n], len(data))
	}
	return bytesView{offs: offs, data: data}, nil
}

// ascending reports whether offs never decreases. Arrow requires it but does
// not check it when an array is made; the kernels slice (and the LIKE loops
// load) by offsets, so a malformed array from a file must be an error, not
// a panic or a read outside its buffer. One pass, without a branch per
// offset: a decrease is a negative difference (in 64 bits, so it cannot
// wrap), whose sign bit survives the OR; four ORs in turn, so that the
// loop does not wait on one (twice as fast as a single one).
func ascending(offs []int32) bool {
	var a0, a1, a2, a3 int64
	for len(offs) >= 5 {
		o := offs[:5]
		a0 |= int64(o[1]) - int64(o[0])
		a1 |= int64(o[2]) - int64(o[1])
		a2 |= int64(o[3]) - int64(o[2])
		a3 |= int64(o[4]) - int64(o[3])
		offs = offs[4:]
	}
	for i := 1; i < len(offs); i++ {
		a0 |= int64(offs[i]) - int64(offs[i-1])
	}
	return a0|a1|a2|a3 >= 0
}

// at is row i of v.
func (v bytesView) at(i int) []byte { return v.data[v.offs[i]:v.offs[i+1]] }

// span is the bytes of all rows of v, first to last.
func (v bytesView) span() []byte { return v.data[v.offs[0]:v.offs[len(v.offs)-1]] }

// scalarBytes is the bytes of a utf8 or binary scalar (nil when null).
func scalarBytes(s scalar.Scalar) []byte {
	v, _ := s.Value().(string)
	return unsafe.Slice(unsafe.StringData(v), len(v))
}

// bytesString views b as a string without copying. The caller keeps b alive
// and unmodified while the string is in use.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// isASCII reports whether b holds only 7-bit bytes, eight at a time.
func isASCII(b []byte) bool {
	var acc uint64
	for len(b) >= 8 {
		acc |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}

// nullResult is the all-null result of a call returning ret over n rows.
func nullResult(ret dtype.DType, n int) datum.Datum {
	return datum.FromScalar(scalar.Null(ret), n)
}

// anyNullScalar reports whether one of args is a null scalar, which makes
// every row of a null-propagating function null.
func anyNullScalar(args []datum.Datum) bool {
	for _, a := range args {
		if a.IsScalar() && a.Scalar().IsNull() {
			return true
		}
	}
	return false
}

// allScalar reports whether every one of args is a scalar.
func allScalar(args []datum.Datum) bool {
	for _, a := range args {
		if !a.IsScalar() {
			return false
		}
	}
	return true
}

// andValidity combines the validity of arrs (each of n rows; nil entries
// are skipped) into a bitmap for a result of n rows at offset 0, word by
// word. It allocates nothing when no input has nulls (nil, 0) and shares
// the bitmap of the only input that has nulls when it can (ShareValidity).
// The caller owns the returned buffer.
func andValidity(mem memory.Allocator, n int, arrs ...arrow.Array) (*memory.Buffer, int) {
	var some [4]Bitmap
	var one arrow.Array
	ms := some[:0]
	for _, a := range arrs {
		if a != nil && a.NullN() > 0 {
			ms = append(ms, ValidityOf(a))
			one = a
		}
	}
	switch len(ms) {
	case 0:
		return nil, 0
	case 1:
		return ShareValidity(mem, one)
	}
	return AndBitmaps(mem, n, ms...)
}

// validAt reports whether row i of arr is valid (arr without nulls always is).
func validAt(arr arrow.Array, i int) bool { return arr.NullN() == 0 || arr.IsValid(i) }

// makeArray wraps buffers into an array, releasing the caller's references
// to the buffers (the array holds its own).
func makeArray(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls, offset int) arrow.Array {
	d := array.NewData(dt, n, bufs, children, nulls, offset)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	arr := array.MakeFromData(d)
	d.Release()
	return arr
}

// boolArray makes a bool array from value words and an optional validity.
func boolArray(values, validity *memory.Buffer, nulls, n int) arrow.Array {
	return makeArray(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{validity, values}, nil, nulls, 0)
}

// newInt64Values allocates the values of an i64 result of n rows.
func newInt64Values(mem memory.Allocator, n int) (*memory.Buffer, []int64) {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * 8)
	return buf, arrow.Int64Traits.CastFromBytes(buf.Bytes())
}

// strBuilder writes a utf8 or binary result: offsets and data buffers from
// the allocator, grown geometrically.
type strBuilder struct {
	offBuf, dataBuf *memory.Buffer
	offs            []int32
	data            []byte // len: bytes written; cap: the buffer's capacity
	n               int    // rows written
}

// newStrBuilder starts a result of n rows with room for dataHint bytes.
func newStrBuilder(mem memory.Allocator, n, dataHint int) *strBuilder {
	b := &strBuilder{offBuf: memory.NewResizableBuffer(mem), dataBuf: memory.NewResizableBuffer(mem)}
	b.offBuf.Resize((n + 1) * 4)
	b.offs = arrow.Int32Traits.CastFromBytes(b.offBuf.Bytes())
	b.offs[0] = 0
	b.dataBuf.Reserve(max(dataHint, 0))
	b.data = b.dataBuf.Buf()[:0]
	return b
}

// grow makes room for k more bytes.
func (b *strBuilder) grow(k int) {
	if len(b.data)+k <= cap(b.data) {
		return
	}
	used := len(b.data)
	b.dataBuf.Reserve(max(2*cap(b.data), used+k, 64))
	b.data = b.dataBuf.Buf()[:used]
}

// write appends bytes to the current row.
func (b *strBuilder) write(p []byte) {
	b.grow(len(p))
	b.data = append(b.data, p...) // within capacity: never reallocates
}

// writeString appends s to the current row.
func (b *strBuilder) writeString(s string) {
	b.grow(len(s))
	b.data = append(b.data, s...)
}

// end closes the current row. It fails when the data outgrows 32-bit offsets.
func (b *strBuilder) end() error {
	if err := offsetFits(len(b.data)); err != nil {
		return err
	}
	b.n++
	b.offs[b.n] = int32(len(b.data))
	return nil
}

// offsetFits checks that size bytes can be addressed by 32-bit offsets.
func offsetFits(size int) error {
	if size > math.MaxInt32 {
		return fmt.Errorf("result of %d bytes exceeds the 2 GiB of a 32-bit-offset array: %w", size, errs.ErrOverflow)
	}
	return nil
}

// endEmpty closes the current row as empty (for null rows).
func (b *strBuilder) endEmpty() {
	b.n++
	b.offs[b.n] = int32(len(b.data))
}

// finish builds the array, taking over validity.
func (b *strBuilder) finish(dt arrow.DataType, validity *memory.Buffer, nulls int) arrow.Array {
	b.dataBuf.ResizeNoShrink(len(b.data))
	arr := makeArray(dt, b.n, []*memory.Buffer{validity, b.offBuf, b.dataBuf}, nil, nulls, 0)
	b.offBuf, b.dataBuf = nil, nil
	return arr
}

// release frees the buffers of an unfinished builder.
func (b *strBuilder) release() {
	if b.offBuf != nil {
		b.offBuf.Release()
		b.dataBuf.Release()
		b.offBuf, b.dataBuf = nil, nil
	}
}

// intArg reads an integer argument of any width, array or scalar, as int64.
// Unsigned values above MaxInt64 saturate (every caller clamps far below).
type intArg struct {
	arr arrow.Array // nil for a scalar
	sc  int64
	at  func(i int) int64
}

func newIntArg(d datum.Datum) (intArg, error) {
	if d.IsScalar() {
		switch v := d.Scalar().Value().(type) {
		case int64:
			return intArg{sc: v}, nil
		case uint64:
			return intArg{sc: int64(min(v, math.MaxInt64))}, nil
		default:
			return intArg{}, fmt.Errorf("integer argument has value %v of type %s", v, d.DType())
		}
	}
	arr := d.Array()
	a := intArg{arr: arr}
	switch arr.DataType().ID() {
	case arrow.INT8:
		a.at = signedAt(valuesOf[int8](arr))
	case arrow.INT16:
		a.at = signedAt(valuesOf[int16](arr))
	case arrow.INT32:
		a.at = signedAt(valuesOf[int32](arr))
	case arrow.INT64:
		a.at = signedAt(valuesOf[int64](arr))
	case arrow.UINT8:
		a.at = unsignedAt(valuesOf[uint8](arr))
	case arrow.UINT16:
		a.at = unsignedAt(valuesOf[uint16](arr))
	case arrow.UINT32:
		a.at = unsignedAt(valuesOf[uint32](arr))
	case arrow.UINT64:
		a.at = unsignedAt(valuesOf[uint64](arr))
	default:
		return intArg{}, fmt.Errorf("integer argument is an Arrow %s array", arr.DataType())
	}
	return a, nil
}

// get is the value at row i.
func (a intArg) get(i int) int64 {
	if a.arr == nil {
		return a.sc
	}
	return a.at(i)
}

func signedAt[T int8 | int16 | int32 | int64](v []T) func(int) int64 {
	return func(i int) int64 { return int64(v[i]) }
}

func unsignedAt[T uint8 | uint16 | uint32 | uint64](v []T) func(int) int64 {
	return func(i int) int64 { return int64(min(uint64(v[i]), math.MaxInt64)) }
}
