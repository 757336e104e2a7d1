package kernels

// Views of fixed-width datums as Go slices, the result constructors, and
// the conversions between Go values and scalars that every fixed-width
// kernel shares.

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// Integer is the Go types of the integer primitives.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Float is the Go types of the f32 and f64 primitives (f16 values are
// float16.Num and computed in float32).
type Float interface{ ~float32 | ~float64 }

// Number is every Go type a numeric kernel is instantiated with.
type Number interface{ Integer | Float }

// Fixed is a fixed-width datum seen as Go values of type T: either the rows
// of an array (Vals, offset applied, with their validity) or one scalar
// value broadcast to every row.
type Fixed[T any] struct {
	Vals     []T    // the rows of an array; nil for a scalar
	Scalar   T      // the value of a scalar datum (zero when it is null)
	Valid    Bitmap // validity of the rows; all ones for a scalar
	IsScalar bool
	Null     bool // a null scalar
}

// At is the value of row i.
func (f Fixed[T]) At(i int) T {
	if f.IsScalar {
		return f.Scalar
	}
	return f.Vals[i]
}

// FixedOf views d as values of T. T must be the Go type of d's physical
// layout: the primitive's type, int32 or int64 for dates and times,
// half for f16, decimal128.Num for decimals, Interval for intervals.
func FixedOf[T any](d datum.Datum) Fixed[T] {
	if d.IsScalar() {
		s := d.Scalar()
		if s.IsNull() {
			return Fixed[T]{IsScalar: true, Null: true}
		}
		return Fixed[T]{IsScalar: true, Scalar: goValue[T](s.Value())}
	}
	arr := d.Array()
	return Fixed[T]{Vals: valuesOf[T](arr), Valid: ValidityOf(arr)}
}

// valuesOf is the value buffer of a fixed-width array as []T, offset applied.
func valuesOf[T any](arr arrow.Array) []T {
	n := arr.Len()
	if n == 0 {
		return []T{}
	}
	d := arr.Data()
	b := d.Buffers()[1].Bytes()
	var z T
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
	return all[d.Offset() : d.Offset()+n]
}

// valuesOfBuffer views a whole buffer as []T.
func valuesOfBuffer[T any](buf *memory.Buffer) []T {
	b := buf.Bytes()
	var z T
	if len(b) < int(unsafe.Sizeof(z)) {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
}

// goValue converts a scalar's Go value (see package scalar) to T.
func goValue[T any](v any) (out T) {
	switch p := any(&out).(type) {
	case *int8:
		*p = int8(asInt64(v))
	case *int16:
		*p = int16(asInt64(v))
	case *int32:
		*p = int32(asInt64(v))
	case *int64:
		*p = asInt64(v)
	case *uint8:
		*p = uint8(asUint64(v))
	case *uint16:
		*p = uint16(asUint64(v))
	case *uint32:
		*p = uint32(asUint64(v))
	case *uint64:
		*p = asUint64(v)
	case *float32:
		*p = float32(asFloat64(v))
	case *float64:
		*p = asFloat64(v)
	case *half:
		*p = f16FromF64(asFloat64(v))
	case *decimal128.Num:
		*p, _ = v.(decimal128.Num)
	case *bool:
		*p, _ = v.(bool)
	case *Interval:
		*p, _ = v.(Interval)
	}
	return out
}

func asInt64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case uint64:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func asUint64(v any) uint64 {
	switch x := v.(type) {
	case uint64:
		return x
	case int64:
		return uint64(x)
	case float64:
		return uint64(x)
	}
	return 0
}

func asFloat64(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	}
	return 0
}

// scalarValue is the Go value package scalar keeps for v.
func scalarValue[T any](v T) any {
	switch x := any(v).(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case float32:
		return float64(x)
	case float64:
		return x
	case half:
		return f16ToF64(x)
	}
	return v
}

// scalarResult is v, of type t, as a scalar datum of n rows.
func scalarResult[T any](t dtype.DType, v T, n int) (datum.Datum, error) {
	s, err := scalar.New(t, scalarValue(v))
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(s, n), nil
}

// NullResult is the all-null result of type t over n rows: a null scalar.
func NullResult(t dtype.DType, n int) datum.Datum {
	return datum.FromScalar(scalar.Null(t), n)
}

// isNullDatum reports whether d is null on every row: a null scalar or a
// datum of the null dtype.
func isNullDatum(d datum.Datum) bool {
	return d.DType().IsNull() || (d.IsScalar() && d.Scalar().IsNull())
}

// newValues allocates the value buffer of n rows of T from mem.
func newValues[T any](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var z T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * int(unsafe.Sizeof(z)))
	if n == 0 {
		return buf, []T{}
	}
	return buf, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Buf()))), n)
}

// newArrayFrom wraps buffers into an array of type dt and n rows at offset
// 0, taking over the caller's references to the buffers.
func newArrayFrom(dt arrow.DataType, n int, nulls int, bufs ...*memory.Buffer) arrow.Array {
	d := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	arr := array.MakeFromData(d)
	d.Release()
	return arr
}

// fixedResult wraps the validity and values of a fixed-width result of
// logical type t as a datum, taking over both buffers.
func fixedResult(t dtype.DType, n int, validity *memory.Buffer, nulls int, values *memory.Buffer) datum.Datum {
	return datum.FromArray(newArrayFrom(dtype.ToArrow(t), n, nulls, validity, values), t)
}

// releaseAll releases the non-nil buffers.
func releaseAll(bufs ...*memory.Buffer) {
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
}

// RowError is a kernel's runtime error at one row (relative to the datum).
// Package fn turns it into an *fn.EvalError naming the function.
type RowError struct {
	Row int
	Err error
}

func (e *RowError) Error() string { return fmt.Sprintf("row %d: %v", e.Row, e.Err) }

func (e *RowError) Unwrap() error { return e.Err }

// isSigned reports whether T is a signed integer type.
func isSigned[T Integer]() bool { return ^T(0) < 0 }

// bitWidth is the number of bits of T.
func bitWidth[T any]() int {
	var z T
	return int(unsafe.Sizeof(z)) * 8
}

// minOf is the smallest value of T (0 for unsigned types).
func minOf[T Integer]() T {
	if !isSigned[T]() {
		return 0
	}
	return T(1) << (bitWidth[T]() - 1)
}

// maxOf is the largest value of T.
func maxOf[T Integer]() T { return ^minOf[T]() }
