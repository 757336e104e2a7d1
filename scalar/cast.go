package scalar

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/interval"
)

// Cast converts s to the dtype to. The result has dtype exactly to (the
// caller decides its nullability); a null s of any type gives Null(to).
//
// The casts defined (those of fn.CanCast, plus list to fixed-size list):
//
//   - between bool, integers, floats and decimals. Integer and decimal
//     targets check the range. Float → integer rounds to nearest, ties to
//     even; decimal → integer and decimal → decimal of smaller scale round
//     half away from zero. Float → decimal rounds the float's shortest
//     decimal text (the one Cast(x, utf8) prints), half away from zero, so
//     2.675 becomes 2.68 in decimal(3,2). Integer and decimal → float round
//     to nearest once; a finite value too large for f32 or f16 is an error.
//     NaN and infinities do not convert to integers or decimals. Anything →
//     bool is "not zero" (NaN is true); bool → numbers is 1 or 0.
//   - anything but nested types → utf8: integers in decimal, decimals with
//     exactly `scale` decimals (12.50), floats as DuckDB prints them (the
//     shortest text that reads back exactly: 0.1, 2.0, 1e+20, 1.5e-07, NaN,
//     Infinity, -Infinity), true/false, dates 1995-01-01, times 12:00:00.5,
//     timestamps 1995-01-01 12:00:00.123 (zoned ones end in +00, as UTC),
//     intervals as DuckDB writes them (1 year 2 months 3 days 04:05:06),
//     binary as its bytes when they are valid UTF-8 (an error otherwise).
//   - utf8 → bool, numbers, decimals, temporal types and binary, by parsing
//     the text, as DuckDB does: bool from exactly true, t, yes, y, 1 or
//     false, f, no, n, 0 (any case, but no white space around, which
//     DuckDB rejects); the others with surrounding white space trimmed:
//     integers and decimals from a decimal number, possibly with a fraction
//     or an exponent (1.5, 1e3), rounded as a decimal is, where an unsigned
//     type accepts a minus sign only in -0 (so '-0.01' fails, though it
//     rounds to 0); floats from a decimal number or NaN, Inf, Infinity
//     (any case, with a sign), a number beyond f32 or f64 reading as ±Inf
//     and one below its smallest as 0, as DuckDB reads them (f16, which
//     DuckDB lacks, refuses one beyond its range); dates, times and timestamps as the package
//     doc describes (Dates and times as text, Time zones); intervals as
//     DuckDB reads them ('3 days', '1 year 2 months 04:05:06', '-1.5
//     hours', '2 weeks ago'; see Intervals in the package doc); binary takes
//     the string's bytes.
//   - date ↔ timestamp (a date is midnight UTC; a timestamp's date is the
//     UTC day, rounding toward the past); timestamp → timestamp and time →
//     time change the unit (a finer unit is checked for overflow, a coarser
//     one rounds toward the past, as a calendar does) or the zone (the
//     instant is kept).
//   - list → list, fixed-size list → list or fixed-size list of the same
//     size, list → fixed-size list of its length: element by element; struct
//     → struct with the same field names in the same order: field by field.
//     A null nested value into a non-nullable slot is an error.
//
// An undefined cast, a value that does not fit or a text that does not parse
// is an error wrapping errs.ErrInvalidCast; a value out of the target's
// range also wraps errs.ErrOverflow.
func Cast(s Scalar, to dtype.DType) (Scalar, error) {
	if !CanCast(s.dt, to) {
		return Scalar{}, &castError{from: s, to: to, reason: "no cast is defined from " + s.dt.String() + " to " + to.String()}
	}
	if s.IsNull() {
		return Null(to), nil
	}
	v, f := castValue(s, to)
	if f != nil {
		return Scalar{}, &castError{from: s, to: to, reason: f.reason, overflow: f.overflow}
	}
	return v, nil
}

// TryCast is Cast, with Null(to) (nullable) instead of an error. A value
// that fails anywhere inside a list or struct makes the whole result null.
func TryCast(s Scalar, to dtype.DType) Scalar {
	v, err := Cast(s, to)
	if err != nil {
		return Null(to)
	}
	return v
}

// castError is a failed cast. It wraps errs.ErrInvalidCast, and
// errs.ErrOverflow when the value is out of range.
type castError struct {
	from     Scalar
	to       dtype.DType
	reason   string
	overflow bool
}

func (e *castError) Error() string {
	return "scalar: cannot cast " + e.from.brief() + " to " + e.to.String() + ": " + e.reason
}

func (e *castError) Unwrap() []error {
	if e.overflow {
		return []error{errs.ErrInvalidCast, errs.ErrOverflow}
	}
	return []error{errs.ErrInvalidCast}
}

// castFail is why a value did not convert.
type castFail struct {
	reason   string
	overflow bool
}

func fail(reason string) *castFail     { return &castFail{reason: reason} }
func overflow(reason string) *castFail { return &castFail{reason: reason, overflow: true} }

// outOfRange is the failure of a value beyond the target's range; the
// message already names the value and the target.
func outOfRange() *castFail { return overflow("out of range") }

// CanCast reports whether Cast defines a cast from one dtype to another (it
// may still fail on particular values): the casts of fn.CanCast, plus list →
// fixed_size_list, whose length Cast checks value by value.
func CanCast(from, to dtype.DType) bool {
	if from.IsNull() || from.EqualIgnoreNullability(to) {
		return true
	}
	numberish := func(t dtype.DType) bool { return t.IsBool() || t.IsNumeric() }
	switch {
	case numberish(from) && numberish(to):
		return true
	case to.IsUtf8():
		return !from.IsStruct() && !from.IsList()
	case from.IsUtf8():
		return numberish(to) || to.IsTemporal() || to.IsBinary() || to.IsInterval()
	case from.IsTemporal() && to.IsTemporal():
		f, t := from.ExtID(), to.ExtID()
		return f == t || (f == dtype.ExtDate && t == dtype.ExtTimestamp) || (f == dtype.ExtTimestamp && t == dtype.ExtDate)
	case to.Kind() == dtype.KindList && from.IsList():
		return CanCast(from.Elem(), to.Elem())
	case to.Kind() == dtype.KindFixedSizeList && from.Kind() == dtype.KindFixedSizeList:
		return from.Size() == to.Size() && CanCast(from.Elem(), to.Elem())
	case to.Kind() == dtype.KindFixedSizeList && from.Kind() == dtype.KindList:
		return CanCast(from.Elem(), to.Elem())
	case from.IsStruct() && to.IsStruct():
		ff, tf := from.Fields(), to.Fields()
		if len(ff) != len(tf) {
			return false
		}
		for i := range ff {
			if ff[i].Name != tf[i].Name || !CanCast(ff[i].Type, tf[i].Type) {
				return false
			}
		}
		return true
	}
	return false
}

// castValue converts the non-null s to to, whose cast from s.dt is defined.
func castValue(s Scalar, to dtype.DType) (Scalar, *castFail) {
	from := s.dt
	switch {
	case from.IsStruct() || from.IsList():
		return castNested(s, to)
	case from.EqualIgnoreNullability(to):
		return Scalar{dt: to, val: s.val}, nil
	case to.IsUtf8():
		text, f := toText(s)
		if f != nil {
			return Scalar{}, f
		}
		return Scalar{dt: to, val: text}, nil
	case from.IsUtf8():
		return parseText(s.val.(string), to)
	case from.IsTemporal():
		return castTemporal(s.val.(int64), from, to)
	}
	var (
		v any
		f *castFail
	)
	switch {
	case to.IsBool():
		v = !isZero(s)
	case to.IsDecimal():
		v, f = toDecimal(s, to)
	case to.PType().IsSigned():
		v, f = toSigned(s, to)
	case to.PType().IsUnsigned():
		v, f = toUnsigned(s, to)
	default:
		v, f = toFloat(s, to)
	}
	if f != nil {
		return Scalar{}, f
	}
	return Scalar{dt: to, val: v}, nil
}

func isZero(s Scalar) bool {
	switch v := s.val.(type) {
	case bool:
		return !v
	case int64:
		return v == 0
	case uint64:
		return v == 0
	case float64:
		return v == 0
	case decimal128.Num:
		return v.Sign() == 0
	}
	return false
}

func (s Scalar) decimal() decimal128.Num { return s.val.(decimal128.Num) }

// numberDec is the exact value of a bool, integer or decimal as a dec, and
// of a float as its shortest decimal text.
func numberDec(s Scalar) (dec, *castFail) {
	switch v := s.val.(type) {
	case bool:
		if v {
			return dec{digits: "1"}, nil
		}
		return dec{}, nil
	case int64:
		d, _ := parseDec(strconv.FormatInt(v, 10))
		return d, nil
	case uint64:
		d, _ := parseDec(strconv.FormatUint(v, 10))
		return d, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dec{}, fail(floatText(v, 64) + " is not a finite number")
		}
		d, _ := parseDec(shortestE(v, floatBits(s.dt.PType())))
		return d, nil
	case decimal128.Num:
		return decOfNum(v, s.dt.Scale()), nil
	}
	return dec{}, fail("not a number")
}

func toDecimal(s Scalar, to dtype.DType) (any, *castFail) {
	d, f := numberDec(s)
	if f != nil {
		return nil, f
	}
	n, ok := d.toNum(to.Precision(), to.Scale())
	if !ok {
		return nil, outOfRange()
	}
	return n, nil
}

func toSigned(s Scalar, to dtype.DType) (any, *castFail) {
	var v int64
	switch x := s.val.(type) {
	case int64:
		v = x
	case uint64:
		if x > math.MaxInt64 {
			return nil, outOfRange()
		}
		v = int64(x)
	case float64:
		r := math.RoundToEven(x)
		if math.IsNaN(x) || !(r >= -0x1p63 && r < 0x1p63) {
			return nil, outOfRange()
		}
		v = int64(r)
	default:
		d, f := numberDec(s)
		if f != nil {
			return nil, f
		}
		var ok bool
		if v, ok = d.toInt64(); !ok {
			return nil, outOfRange()
		}
	}
	lo, hi := signedRange(to.PType())
	if v < lo || v > hi {
		return nil, outOfRange()
	}
	return v, nil
}

func toUnsigned(s Scalar, to dtype.DType) (any, *castFail) {
	var v uint64
	switch x := s.val.(type) {
	case int64:
		if x < 0 {
			return nil, outOfRange()
		}
		v = uint64(x)
	case uint64:
		v = x
	case float64:
		r := math.RoundToEven(x)
		if math.IsNaN(x) || !(r >= 0 && r < 0x1p64) {
			return nil, outOfRange()
		}
		v = uint64(r)
	default:
		d, f := numberDec(s)
		if f != nil {
			return nil, f
		}
		var ok bool
		if v, ok = d.toUint64(); !ok {
			return nil, outOfRange()
		}
	}
	if v > unsignedMax(to.PType()) {
		return nil, outOfRange()
	}
	return v, nil
}

func toFloat(s Scalar, to dtype.DType) (any, *castFail) {
	p := to.PType()
	var v float64
	switch x := s.val.(type) {
	case bool:
		if x {
			v = 1
		}
	case int64:
		if p == dtype.F32 {
			v = float64(float32(x)) // one rounding, int64 → float32
		} else {
			v = float64(x)
		}
	case uint64:
		if p == dtype.F32 {
			v = float64(float32(x))
		} else {
			v = float64(x)
		}
	case float64:
		v = x
	case decimal128.Num:
		text := decimalText(x, s.dt.Scale())
		switch p {
		case dtype.F16:
			h, _ := f16FromText(text)
			v = f16ToFloat64(h)
		case dtype.F32:
			f, _ := strconv.ParseFloat(text, 32)
			v = f
		default:
			v, _ = strconv.ParseFloat(text, 64)
		}
	}
	r := roundFloat(p, v)
	srcInf := false
	if x, ok := s.val.(float64); ok {
		srcInf = math.IsInf(x, 0)
	}
	if math.IsInf(r, 0) && !srcInf {
		return nil, outOfRange()
	}
	return r, nil
}

// toText is Cast(s, utf8) for a non-null, non-nested s.
func toText(s Scalar) (string, *castFail) {
	t := s.dt
	switch v := s.val.(type) {
	case bool:
		return strconv.FormatBool(v), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case float64:
		return floatText(v, floatBits(t.PType())), nil
	case decimal128.Num:
		return decimalText(v, t.Scale()), nil
	case string:
		if t.IsBinary() && !utf8.ValidString(v) {
			return "", fail("the bytes are not valid UTF-8")
		}
		return v, nil
	case interval.Value:
		return interval.Format(v), nil
	case int64:
		if !t.IsTemporal() {
			return strconv.FormatInt(v, 10), nil
		}
		switch t.ExtID() {
		case dtype.ExtDate:
			return dateText(v), nil
		case dtype.ExtTime:
			return timeText(v, t.Unit()), nil
		default:
			return timestampText(v, t.Unit(), t.TZ() != ""), nil
		}
	}
	return "", fail("no text form")
}

// parseText is Cast(utf8 text, to) for a non-utf8 to.
func parseText(text string, to dtype.DType) (Scalar, *castFail) {
	if to.IsBinary() {
		return Scalar{dt: to, val: text}, nil
	}
	trimmed := strings.TrimSpace(text)
	var v any
	switch {
	case to.IsBool():
		b, ok := boolText(text)
		if !ok {
			return Scalar{}, fail("not a boolean (true, false, t, f, yes, no, y, n, 1 or 0, without white space)")
		}
		v = b
	case to.IsInterval():
		iv, err := interval.Parse(text)
		switch {
		case errors.Is(err, interval.ErrRange):
			return Scalar{}, overflow("an interval's months and days are i32, its time at most 2562047 hours")
		case err != nil:
			return Scalar{}, fail("not an interval (such as '1 year 2 months 3 days 04:05:06', '3 days' or '-1.5 hours')")
		}
		v = iv
	case to.IsTemporal():
		var (
			n        int64
			msg      string
			overflow bool
		)
		switch to.ExtID() {
		case dtype.ExtDate:
			n, msg, overflow = parseDateText(trimmed)
		case dtype.ExtTime:
			n, msg = parseTimeText(trimmed, to.Unit())
		default:
			n, msg, overflow = parseTimestampText(trimmed, to.Unit())
		}
		if msg != "" {
			return Scalar{}, &castFail{reason: "not a " + to.ExtID().String() + ": " + msg, overflow: overflow}
		}
		v = n
	case to.IsFloat():
		f, msg := parseFloatText(trimmed, to.PType())
		if msg != nil {
			return Scalar{}, msg
		}
		v = roundFloat(to.PType(), f)
	default: // integers and decimals
		d, ok := parseDec(trimmed)
		if !ok {
			return Scalar{}, fail("not a number")
		}
		var f *castFail
		switch {
		case to.IsDecimal():
			n, ok := d.toNum(to.Precision(), to.Scale())
			if !ok {
				f = outOfRange()
			}
			v = n
		case to.PType().IsSigned():
			n, ok := d.toInt64()
			lo, hi := signedRange(to.PType())
			if !ok || n < lo || n > hi {
				f = outOfRange()
			}
			v = n
		case d.neg && !negativeZeroText(text):
			// DuckDB accepts a minus sign for an unsigned type only in
			// -0, -00, …: '-0.01' and '-0.0' fail although they round to 0.
			if d.isZero() {
				f = fail("a minus sign is accepted for an unsigned type only before zeros alone (-0)")
			} else {
				f = outOfRange()
			}
		default:
			n, ok := d.toUint64()
			if !ok || n > unsignedMax(to.PType()) {
				f = outOfRange()
			}
			v = n
		}
		if f != nil {
			return Scalar{}, f
		}
	}
	return Scalar{dt: to, val: v}, nil
}

// boolText reads a bool as DuckDB does: true, t, yes, y, 1 or false, f,
// no, n, 0, in any ASCII case and with no white space around.
func boolText(text string) (v, ok bool) {
	if len(text) > len("false") {
		return false, false
	}
	var buf [5]byte
	for i := range len(text) {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(text)]) {
	case "true", "t", "yes", "y", "1":
		return true, true
	case "false", "f", "no", "n", "0":
		return false, true
	}
	return false, false
}

// negativeZeroText reports whether text is, after leading white space, a
// minus sign and one or more zeros with nothing after them: the only
// negative text DuckDB casts to an unsigned type.
func negativeZeroText(text string) bool {
	rest, ok := strings.CutPrefix(strings.TrimLeft(text, " \t\n\v\f\r"), "-")
	return ok && rest != "" && strings.Trim(rest, "0") == ""
}

// parseFloatText reads a float of type p.
func parseFloatText(s string, p dtype.PType) (float64, *castFail) {
	body := strings.TrimLeft(s, "+-")
	neg := strings.HasPrefix(s, "-")
	if len(s)-len(body) <= 1 {
		switch strings.ToLower(body) {
		case "nan":
			return math.NaN(), nil
		case "inf", "infinity":
			if neg {
				return math.Inf(-1), nil
			}
			return math.Inf(1), nil
		}
	}
	if _, ok := scanNumber(s); !ok {
		return 0, fail("not a number")
	}
	var v float64
	var err error
	switch p {
	case dtype.F16:
		// DuckDB has no f16: beyond its range is an error, as a number's
		// cast to it is.
		h, _ := f16FromText(s)
		if v = f16ToFloat64(h); math.IsInf(v, 0) {
			return 0, outOfRange()
		}
	case dtype.F32:
		v, err = strconv.ParseFloat(s, 32)
	default:
		v, err = strconv.ParseFloat(s, 64)
	}
	// A number beyond the type's range reads as ±Inf (and one below its
	// smallest as 0), as DuckDB casts it: strconv gives exactly those
	// with ErrRange.
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fail("not a number")
	}
	return v, nil
}

// castTemporal converts between dates, times and timestamps.
func castTemporal(v int64, from, to dtype.DType) (Scalar, *castFail) {
	var out int64
	switch {
	case from.ExtID() == dtype.ExtDate: // → timestamp
		n, ok := mulChecked(v, ticksPerDay(to.Unit()))
		if !ok {
			return Scalar{}, outOfRange()
		}
		out = n
	case to.ExtID() == dtype.ExtDate: // timestamp →
		out = floorDiv(v, ticksPerDay(from.Unit()))
		if out < math.MinInt32 || out > math.MaxInt32 {
			return Scalar{}, outOfRange()
		}
	default: // a unit or zone change
		n, ok := rescaleTicks(v, from.Unit(), to.Unit())
		if !ok {
			return Scalar{}, outOfRange()
		}
		out = n
	}
	return Scalar{dt: to, val: out}, nil
}

// rescaleTicks converts v ticks of unit from to unit to: multiplied, checked,
// to a finer unit; divided, rounding toward minus infinity, to a coarser one.
func rescaleTicks(v int64, from, to dtype.TimeUnit) (int64, bool) {
	pf, pt := from.PerSecond(), to.PerSecond()
	switch {
	case pt > pf:
		return mulChecked(v, pt/pf)
	case pt < pf:
		return floorDiv(v, pf/pt), true
	}
	return v, true
}

// castNested converts a non-null struct or list.
func castNested(s Scalar, to dtype.DType) (Scalar, *castFail) {
	vals := s.val.([]Scalar)
	out := make([]Scalar, len(vals))
	if to.IsStruct() {
		for i, f := range to.Fields() {
			c, fl := castSlot(vals[i], f.Type)
			if fl != nil {
				fl.reason = "field " + dtype.QuoteFieldName(f.Name) + ": " + fl.reason
				return Scalar{}, fl
			}
			out[i] = c
		}
		return Scalar{dt: to, val: out}, nil
	}
	if to.Kind() == dtype.KindFixedSizeList && len(vals) != to.Size() {
		return Scalar{}, fail("the list has " + strconv.Itoa(len(vals)) + " elements, not " + strconv.Itoa(to.Size()))
	}
	for i, e := range vals {
		c, fl := castSlot(e, to.Elem())
		if fl != nil {
			fl.reason = "element " + strconv.Itoa(i) + ": " + fl.reason
			return Scalar{}, fl
		}
		out[i] = c
	}
	return Scalar{dt: to, val: out}, nil
}

// castSlot converts a nested value into a slot of type slot.
func castSlot(e Scalar, slot dtype.DType) (Scalar, *castFail) {
	if e.IsNull() {
		if !slot.Nullable() {
			return Scalar{}, fail("null in a non-nullable " + slot.String())
		}
		return Scalar{dt: slot}, nil
	}
	return castValue(e, slot)
}
