package scalar

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/interval"
)

// errorf makes an error of this package: a message prefixed with "scalar: ".
func errorf(format string, a ...any) error {
	return fmt.Errorf("scalar: "+format, a...)
}

// conformValue checks that v is a valid Go value for t (see the package
// doc): the right Go type, within t's range, and for structs and lists the
// right number of values, each of its slot's type; nil only when t is
// nullable. It returns v in canonical form: f16 and f32 NaNs normalized,
// nested scalars relabelled with exactly their slot's dtype.
func conformValue(t dtype.DType, v any) (any, error) {
	if v == nil {
		if !t.Nullable() {
			return nil, fmt.Errorf("null value for non-nullable type %s", t)
		}
		return nil, nil
	}
	switch t.Kind() {
	case dtype.KindNull:
		return nil, fmt.Errorf("type null holds only null, not %T", v)
	case dtype.KindBool:
		if _, ok := v.(bool); !ok {
			return nil, wrongGoType(t, v, "bool")
		}
	case dtype.KindPrimitive:
		return conformPrimitive(t.PType(), v)
	case dtype.KindDecimal:
		n, ok := v.(decimal128.Num)
		if !ok {
			return nil, wrongGoType(t, v, "decimal128.Num")
		}
		if !n.FitsInPrecision(int32(t.Precision())) {
			return nil, fmt.Errorf("%s does not fit %s", n.ToString(int32(t.Scale())), t)
		}
	case dtype.KindUtf8:
		s, ok := v.(string)
		if !ok {
			return nil, wrongGoType(t, v, "string")
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("utf8 value %q is not valid UTF-8", s)
		}
	case dtype.KindBinary:
		if _, ok := v.(string); !ok {
			return nil, wrongGoType(t, v, "string")
		}
	case dtype.KindExtension:
		n, ok := v.(int64)
		if !ok {
			return nil, wrongGoType(t, v, "int64")
		}
		if err := checkTemporal(t, n); err != nil {
			return nil, err
		}
	case dtype.KindInterval:
		if _, ok := v.(interval.Value); !ok {
			return nil, wrongGoType(t, v, "arrow.MonthDayNanoInterval")
		}
	case dtype.KindStruct:
		vals, ok := v.([]Scalar)
		if !ok {
			return nil, wrongGoType(t, v, "[]Scalar")
		}
		fs := t.Fields()
		if len(vals) != len(fs) {
			return nil, fmt.Errorf("%s has %d fields, got %d values", t, len(fs), len(vals))
		}
		out := make([]Scalar, len(vals))
		for i, e := range vals {
			c, err := conformElem(e, fs[i].Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", dtype.QuoteFieldName(fs[i].Name), err)
			}
			out[i] = c
		}
		return out, nil
	case dtype.KindList, dtype.KindFixedSizeList:
		vals, ok := v.([]Scalar)
		if !ok {
			return nil, wrongGoType(t, v, "[]Scalar")
		}
		if t.Kind() == dtype.KindFixedSizeList && len(vals) != t.Size() {
			return nil, fmt.Errorf("%s has %d elements, got %d", t, t.Size(), len(vals))
		}
		out := make([]Scalar, len(vals))
		for i, e := range vals {
			c, err := conformElem(e, t.Elem())
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = c
		}
		return out, nil
	default:
		return nil, fmt.Errorf("unknown dtype kind %s", t.Kind())
	}
	return v, nil
}

func wrongGoType(t dtype.DType, v any, want string) error {
	return fmt.Errorf("a %s value must be a Go %s, not %T", t, want, v)
}

func conformPrimitive(p dtype.PType, v any) (any, error) {
	switch {
	case p.IsSigned():
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("a %s value must be a Go int64, not %T", p, v)
		}
		lo, hi := signedRange(p)
		if n < lo || n > hi {
			return nil, fmt.Errorf("%d is out of range for %s", n, p)
		}
	case p.IsUnsigned():
		n, ok := v.(uint64)
		if !ok {
			return nil, fmt.Errorf("a %s value must be a Go uint64, not %T", p, v)
		}
		if n > unsignedMax(p) {
			return nil, fmt.Errorf("%d is out of range for %s", n, p)
		}
	default:
		f, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("a %s value must be a Go float64, not %T", p, v)
		}
		r := roundFloat(p, f)
		if !math.IsNaN(f) && r != f {
			return nil, fmt.Errorf("%s is not exactly representable as %s", strconv.FormatFloat(f, 'g', -1, 64), p)
		}
		return r, nil
	}
	return v, nil
}

// conformElem checks that e fits a slot (struct field or list element) of
// type slot and returns it labelled with exactly slot.
func conformElem(e Scalar, slot dtype.DType) (Scalar, error) {
	if e.IsNull() {
		if !slot.Nullable() {
			return Scalar{}, fmt.Errorf("null in a slot of non-nullable type %s", slot)
		}
		return Scalar{dt: slot}, nil
	}
	if !e.dt.EqualIgnoreNullability(slot) {
		return Scalar{}, fmt.Errorf("value of type %s in a slot of type %s", e.dt, slot)
	}
	val, err := conformValue(slot, e.val)
	if err != nil {
		return Scalar{}, err
	}
	return Scalar{dt: slot, val: val}, nil
}

func checkTemporal(t dtype.DType, n int64) error {
	switch t.ExtID() {
	case dtype.ExtDate:
		if n < math.MinInt32 || n > math.MaxInt32 {
			return fmt.Errorf("date %d is out of the range of i32 days", n)
		}
	case dtype.ExtTime:
		if n < 0 || n >= ticksPerDay(t.Unit()) {
			return fmt.Errorf("time %d is not within a day of %s ticks", n, t.Unit())
		}
	}
	return nil
}

func ticksPerDay(u dtype.TimeUnit) int64 { return 86400 * u.PerSecond() }

func signedRange(p dtype.PType) (int64, int64) {
	switch p {
	case dtype.I8:
		return math.MinInt8, math.MaxInt8
	case dtype.I16:
		return math.MinInt16, math.MaxInt16
	case dtype.I32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func unsignedMax(p dtype.PType) uint64 {
	switch p {
	case dtype.U8:
		return math.MaxUint8
	case dtype.U16:
		return math.MaxUint16
	case dtype.U32:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// canonicalNaN is the one NaN a scalar holds.
var canonicalNaN = math.Float64frombits(0x7ff8000000000000)

// roundFloat rounds v to the nearest value of the float type p, as stored in
// a float64; every NaN becomes canonicalNaN.
func roundFloat(p dtype.PType, v float64) float64 {
	if v != v {
		return canonicalNaN
	}
	switch p {
	case dtype.F32:
		return float64(float32(v))
	case dtype.F16:
		return f16ToFloat64(f16FromFloat64(v))
	}
	return v
}

// relabel returns s labelled with t, and its nested values with t's field
// and element types. It trusts that s's value has t's shape.
func relabel(s Scalar, t dtype.DType) Scalar {
	vals, ok := s.val.([]Scalar)
	if !ok {
		return Scalar{dt: t, val: s.val}
	}
	var slot func(i int) dtype.DType
	switch {
	case t.IsStruct() && len(t.Fields()) == len(vals):
		slot = func(i int) dtype.DType { return t.Fields()[i].Type }
	case t.IsList():
		slot = func(int) dtype.DType { return t.Elem() }
	default:
		return Scalar{dt: t, val: s.val}
	}
	out := make([]Scalar, len(vals))
	for i, e := range vals {
		st := slot(i)
		if e.dt.Equal(st) {
			out[i] = e
		} else {
			out[i] = relabel(e, st)
		}
	}
	return Scalar{dt: t, val: out}
}
