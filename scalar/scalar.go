package scalar

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
)

// Scalar is a typed constant.
type Scalar struct {
	dt  dtype.DType
	val any
}

// DType is the type of s.
func (s Scalar) DType() dtype.DType { return s.dt }

// Value is the Go value of s (see the package doc), nil when s is null.
func (s Scalar) Value() any { return s.val }

// IsNull reports whether s is null.
func (s Scalar) IsNull() bool { return s.val == nil }

// Null is the null value of t, which is made nullable.
func Null(t dtype.DType) Scalar { return Scalar{dt: t.AsNullable()} }

// Bool is a non-nullable boolean.
func Bool(v bool) Scalar { return Scalar{dt: dtype.Bool(false), val: v} }

// Int is a signed integer of type p (which must be signed).
func Int(p dtype.PType, v int64) Scalar { return Scalar{dt: dtype.Primitive(p, false), val: v} }

// Uint is an unsigned integer of type p (which must be unsigned).
func Uint(p dtype.PType, v uint64) Scalar { return Scalar{dt: dtype.Primitive(p, false), val: v} }

// Float is a float of type p (which must be a float type). For f32 and f16,
// v is rounded to the nearest value of p (ties to even). Every NaN is
// stored as one canonical NaN.
func Float(p dtype.PType, v float64) Scalar {
	return Scalar{dt: dtype.Primitive(p, false), val: roundFloat(p, v)}
}

// Int32 is an i32.
func Int32(v int32) Scalar { return Int(dtype.I32, int64(v)) }

// Int64 is an i64.
func Int64(v int64) Scalar { return Int(dtype.I64, v) }

// Float64 is an f64.
func Float64(v float64) Scalar { return Float(dtype.F64, v) }

// Decimal is a decimal(precision, scale) with the unscaled value v.
func Decimal(v decimal128.Num, precision, scale int) Scalar {
	return Scalar{dt: dtype.Decimal(precision, scale, false), val: v}
}

// String is a utf8 value.
func String(v string) Scalar { return Scalar{dt: dtype.Utf8(false), val: v} }

// Binary is a binary value.
func Binary(v []byte) Scalar { return Scalar{dt: dtype.Binary(false), val: string(v)} }

// Date is a date, in days since 1970-01-01.
func Date(days int32) Scalar { return Scalar{dt: dtype.Date(false), val: int64(days)} }

// Timestamp is a timestamp of the given unit and zone, in ticks since the epoch.
func Timestamp(unit dtype.TimeUnit, tz string, v int64) Scalar {
	return Scalar{dt: dtype.Timestamp(unit, tz, false), val: v}
}

// Time is a time of day, in ticks of unit since midnight.
func Time(unit dtype.TimeUnit, v int64) Scalar {
	return Scalar{dt: dtype.Time(unit, false), val: v}
}

// Struct is a struct value of type t with one value per field. The caller
// guarantees the values' dtypes match the fields (nullability aside: each
// value is relabelled with its field's type); use New to have them checked.
func Struct(t dtype.DType, fields []Scalar) Scalar {
	fs := make([]Scalar, len(fields))
	copy(fs, fields)
	return relabel(Scalar{dt: t, val: fs}, t)
}

// List is a list value of type t (List or FixedSizeList). The caller
// guarantees the elements' dtypes match t's element type (nullability aside:
// each element is relabelled with it); use New to have them checked.
func List(t dtype.DType, elems []Scalar) Scalar {
	es := make([]Scalar, len(elems))
	copy(es, elems)
	return relabel(Scalar{dt: t, val: es}, t)
}

// New makes a scalar of type t from a Go value of the kind the package doc
// lists for t (nil for null). It returns an error when the value has the
// wrong Go type, is out of range for t, or is nil for a non-nullable t.
func New(t dtype.DType, v any) (Scalar, error) {
	if v == nil {
		if !t.Nullable() {
			return Scalar{}, errorf("null value for non-nullable type %s", t)
		}
		return Scalar{dt: t}, nil
	}
	val, err := conformValue(t, v)
	if err != nil {
		return Scalar{}, errorf("%w", err)
	}
	return Scalar{dt: t, val: val}, nil
}

// WithDType returns s relabelled as type t, which must have the same
// physical value representation (the caller guarantees it, as when changing
// only nullability). Nested values are relabelled with t's field and element
// types.
func (s Scalar) WithDType(t dtype.DType) Scalar { return relabel(s, t) }
