package scalar

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/interval"
)

// SQL is s as a literal of the expression syntax, which the colexpr parser
// reads back to an identical scalar (dtype included). The package doc gives
// the grammar.
func (s Scalar) SQL() string {
	var b strings.Builder
	s.writeSQL(&b)
	return b.String()
}

// String is SQL.
func (s Scalar) String() string { return s.SQL() }

// ValueText is the value of s without a type suffix: the text an untyped
// literal prints as. For the types ParseNumber produces (i32, i64, u64,
// decimals, f64) ParseNumber reads it back as s when s is a value
// ParseNumber can produce:
//
//	5   -5   18446744073709551615   2.50   .05   7.   1e+20   2.5e+00
//
// Integers print in decimal. A decimal(p, s) prints with exactly p digits
// (leading zeros added) and a point before the last s digits, so that its
// digit count gives back p; a decimal(38,0) that no integer type holds
// prints as a bare integer. Finite floats print as the shortest decimal in
// exponent form, since ParseNumber reads a number with an exponent as f64.
// For every other value it is the base of SQL (the literal without its
// trailing ::type suffix): 'text', true, x'00ff', DATE '1995-01-01'.
func (s Scalar) ValueText() string {
	if s.IsNull() {
		return "null"
	}
	switch v := s.val.(type) {
	case int64:
		if s.dt.IsTemporal() {
			break
		}
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			return shortestE(v, floatBits(s.dt.PType()))
		}
	}
	if s.dt.IsDecimal() {
		return decimalLiteralText(s.decimal(), s.dt.Precision(), s.dt.Scale())
	}
	var b strings.Builder
	s.writeBase(&b)
	return b.String()
}

func (s Scalar) writeSQL(b *strings.Builder) {
	switch {
	case s.dt.IsNull():
		b.WriteString("null")
		return
	case s.IsNull():
		b.WriteString("null::")
		b.WriteString(s.dt.String())
		return
	}
	natural, ok := s.writeBase(b)
	if !ok || !natural.Equal(s.dt) {
		b.WriteString("::")
		b.WriteString(s.dt.String())
	}
}

// writeBase writes the literal of a non-null s without its type suffix and
// returns the type the parser gives that text (ok is false for untyped
// numbers, which always take a suffix).
func (s Scalar) writeBase(b *strings.Builder) (natural dtype.DType, ok bool) {
	t := s.dt
	switch t.Kind() {
	case dtype.KindBool:
		b.WriteString(strconv.FormatBool(s.val.(bool)))
		return dtype.Bool(false), true
	case dtype.KindPrimitive:
		switch v := s.val.(type) {
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case uint64:
			b.WriteString(strconv.FormatUint(v, 10))
		case float64:
			text := floatText(v, floatBits(t.PType()))
			quote := math.IsNaN(v) || math.IsInf(v, 0) || (v == 0 && math.Signbit(v)) ||
				(t.PType() != dtype.F64 && strings.Contains(text, "e"))
			if quote {
				b.WriteString(dtype.QuoteString(text))
				return dtype.Utf8(false), true
			}
			b.WriteString(text)
		}
		return dtype.DType{}, false
	case dtype.KindDecimal:
		text := decimalText(s.decimal(), t.Scale())
		if t.Scale() == dtype.MaxDecimalPrecision {
			b.WriteString(dtype.QuoteString(text))
			return dtype.Utf8(false), true
		}
		b.WriteString(text)
		return dtype.DType{}, false
	case dtype.KindUtf8:
		b.WriteString(dtype.QuoteString(s.val.(string)))
		return dtype.Utf8(false), true
	case dtype.KindInterval:
		b.WriteString("INTERVAL ")
		b.WriteString(dtype.QuoteString(interval.Format(s.val.(interval.Value))))
		return dtype.Interval(false), true
	case dtype.KindBinary:
		b.WriteString("x'")
		b.WriteString(hex.EncodeToString([]byte(s.val.(string))))
		b.WriteByte('\'')
		return dtype.Binary(false), true
	case dtype.KindExtension:
		v := s.val.(int64)
		switch t.ExtID() {
		case dtype.ExtDate:
			b.WriteString("DATE ")
			b.WriteString(dtype.QuoteString(dateText(v)))
			return dtype.Date(false), true
		case dtype.ExtTime:
			b.WriteString(dtype.QuoteString(timeText(v, t.Unit())))
			return dtype.Utf8(false), true
		default:
			text := dtype.QuoteString(timestampText(v, t.Unit(), t.TZ() != ""))
			if t.Unit() == dtype.Micro && t.TZ() == "" {
				b.WriteString("TIMESTAMP ")
				b.WriteString(text)
				return dtype.Timestamp(dtype.Micro, "", false), true
			}
			b.WriteString(text)
			return dtype.Utf8(false), true
		}
	case dtype.KindList, dtype.KindFixedSizeList:
		elems := s.val.([]Scalar)
		b.WriteByte('[')
		elem := dtype.Null()
		for i, e := range elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.writeSQL(b)
			if i == 0 {
				elem = e.dt
			} else if st, ok := dtype.Supertype(elem, e.dt); ok {
				elem = st
			}
		}
		b.WriteByte(']')
		return dtype.List(elem, false), true
	case dtype.KindStruct:
		vals := s.val.([]Scalar)
		fields := make([]dtype.Field, len(vals))
		b.WriteByte('{')
		for i, f := range t.Fields() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(dtype.QuoteString(f.Name))
			b.WriteString(": ")
			vals[i].writeSQL(b)
			fields[i] = dtype.Field{Name: f.Name, Type: vals[i].dt}
		}
		b.WriteByte('}')
		return dtype.Struct(fields, false), true
	}
	return dtype.DType{}, false
}

// brief is the SQL of s, shortened for error messages.
func (s Scalar) brief() string {
	const limit = 60
	text := s.SQL()
	if len(text) <= limit {
		return text
	}
	cut := limit
	for cut > 0 && text[cut]&0xc0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return text[:cut] + "…"
}
