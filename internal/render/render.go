// Package render writes Arrow values as text, as DuckDB's shell prints
// them, and as JSON: the one rendering of a value that colexpr's command
// (its table, CSV and JSON outputs) and the playground's rows share, so
// that the two print a value alike.
//
// Text is what a person reads in a table or a CSV field: integers and
// floats as Go formats them (no exponent between 1e-6 and 1e21, NaN and
// ±Infinity by name), decimals with exactly their scale's digits,
// strings as they are, binary as DuckDB casts a BLOB to text (\x00\xFFA),
// dates and timestamps with a space before the time and no Z for a
// timestamp without a zone (a year before 1 as DuckDB's "(BC)"),
// intervals as DuckDB's "1 year 2 months 3 days 04:05:06", and lists and
// structs as JSON. A text renderer is never called on a null row: each
// format prints nulls its own way (IsNull tells them).
//
// JSON is valid JSON: strings quoted and escaped, null as null, decimals,
// dates and times as strings, binary as base64, NaN and the infinities as
// strings.
package render

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/internal/interval"
)

// A Cell appends the value at row i of one array to b.
type Cell func(b []byte, i int) []byte

// JSON renders the values of arr as JSON, a null row as null.
func JSON(arr arrow.Array) Cell { return newCell(arr, true) }

// Text renders the non-null values of arr as text.
func Text(arr arrow.Array) Cell { return newCell(arr, false) }

func newCell(arr arrow.Array, asJSON bool) Cell {
	inner := valueCell(arr, asJSON)
	if !asJSON || arr.NullN() == 0 {
		return inner
	}
	return func(b []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(b, "null"...)
		}
		return inner(b, i)
	}
}

// valueCell renders non-null values of arr.
func valueCell(arr arrow.Array, asJSON bool) Cell {
	str := func(b []byte, s string) []byte {
		if asJSON {
			return AppendJSONString(b, s)
		}
		return append(b, s...)
	}
	switch a := arr.(type) {
	case *array.Null:
		// Only JSON calls this: the text formats see every row as null
		// (IsNull), however the array stores it.
		return func(b []byte, _ int) []byte { return append(b, "null"...) }
	case *array.Boolean:
		return func(b []byte, i int) []byte { return strconv.AppendBool(b, a.Value(i)) }
	case *array.Int8:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(a.Value(i)), 10) }
	case *array.Int16:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(a.Value(i)), 10) }
	case *array.Int32:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(a.Value(i)), 10) }
	case *array.Int64:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, a.Value(i), 10) }
	case *array.Uint8:
		return func(b []byte, i int) []byte { return strconv.AppendUint(b, uint64(a.Value(i)), 10) }
	case *array.Uint16:
		return func(b []byte, i int) []byte { return strconv.AppendUint(b, uint64(a.Value(i)), 10) }
	case *array.Uint32:
		return func(b []byte, i int) []byte { return strconv.AppendUint(b, uint64(a.Value(i)), 10) }
	case *array.Uint64:
		return func(b []byte, i int) []byte { return strconv.AppendUint(b, a.Value(i), 10) }
	case *array.Float16:
		return func(b []byte, i int) []byte { return appendFloat(b, float64(a.Value(i).Float32()), 32, asJSON) }
	case *array.Float32:
		return func(b []byte, i int) []byte { return appendFloat(b, float64(a.Value(i)), 32, asJSON) }
	case *array.Float64:
		return func(b []byte, i int) []byte { return appendFloat(b, a.Value(i), 64, asJSON) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(b []byte, i int) []byte {
			if asJSON {
				b = append(b, '"')
				b = appendDecimal(b, a.Value(i), scale)
				return append(b, '"')
			}
			return appendDecimal(b, a.Value(i), scale)
		}
	case *array.String:
		return func(b []byte, i int) []byte { return str(b, a.Value(i)) }
	case *array.LargeString:
		return func(b []byte, i int) []byte { return str(b, a.Value(i)) }
	case *array.Binary:
		return func(b []byte, i int) []byte { return appendBinary(b, a.Value(i), asJSON) }
	case *array.LargeBinary:
		return func(b []byte, i int) []byte { return appendBinary(b, a.Value(i), asJSON) }
	case *array.FixedSizeBinary:
		return func(b []byte, i int) []byte { return appendBinary(b, a.Value(i), asJSON) }
	case *array.Date32:
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte {
				return appendTime(b, time.Unix(int64(a.Value(i))*86400, 0).UTC(), "2006-01-02")
			})
		}
	case *array.Date64:
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte {
				return appendTime(b, time.UnixMilli(int64(a.Value(i))).UTC(), "2006-01-02")
			})
		}
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte { return appendTimeOfDay(b, int64(a.Value(i)), unit) })
		}
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte { return appendTimeOfDay(b, int64(a.Value(i)), unit) })
		}
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		// A timestamp without a zone is a wall-clock reading: printed
		// without an offset, as DuckDB prints TIMESTAMP, rather than with a
		// Z that would claim UTC. One with a zone is printed in it, with
		// its offset.
		// its offset, in hours (+02) unless it has minutes (+05:30), as
		// DuckDB prints TIMESTAMPTZ.
		if tt.TimeZone == "" {
			return func(b []byte, i int) []byte {
				return quoted(b, asJSON, func(b []byte) []byte {
					return appendTime(b, a.Value(i).ToTime(tt.Unit), timestampLayout)
				})
			}
		}
		loc := time.UTC
		if l, err := tt.GetZone(); err == nil && l != nil {
			loc = l
		}
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte {
				t := a.Value(i).ToTime(tt.Unit).In(loc)
				if _, off := t.Zone(); off%3600 == 0 {
					return appendTime(b, t, timestampLayout+"-07")
				}
				return appendTime(b, t, timestampLayout+"-07:00")
			})
		}
	case *array.MonthDayNanoInterval:
		// As DuckDB prints an INTERVAL: 1 year 2 months 3 days 04:05:06.
		return func(b []byte, i int) []byte {
			return quoted(b, asJSON, func(b []byte) []byte { return interval.Append(b, a.Value(i)) })
		}
	case array.ListLike:
		if _, isMap := arr.(*array.Map); isMap {
			break
		}
		elem := newCell(a.ListValues(), true)
		return func(b []byte, i int) []byte {
			from, to := a.ValueOffsets(i)
			b = append(b, '[')
			for j := from; j < to; j++ {
				if j > from {
					b = append(b, ',')
				}
				b = elem(b, int(j))
			}
			return append(b, ']')
		}
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		keys := make([][]byte, a.NumField())
		fields := make([]Cell, a.NumField())
		for k := range fields {
			keys[k] = AppendJSONString(nil, st.Field(k).Name)
			fields[k] = newCell(a.Field(k), true)
		}
		return func(b []byte, i int) []byte {
			b = append(b, '{')
			for k, f := range fields {
				if k > 0 {
					b = append(b, ',')
				}
				b = append(b, keys[k]...)
				b = append(b, ':')
				b = f(b, i)
			}
			return append(b, '}')
		}
	case *array.Dictionary:
		// A value of the dictionary may itself be null (JSON's null; the
		// text formats ask IsNull).
		values := newCell(a.Dictionary(), asJSON)
		return func(b []byte, i int) []byte { return values(b, a.GetValueIndex(i)) }
	}
	// Types without a rendering of their own (intervals, durations, maps,
	// unions, …) are written as Arrow formats them.
	return func(b []byte, i int) []byte { return str(b, arr.ValueStr(i)) }
}

// quoted appends what f appends, in double quotes when asJSON.
func quoted(b []byte, asJSON bool, f func([]byte) []byte) []byte {
	if !asJSON {
		return f(b)
	}
	b = append(b, '"')
	b = f(b)
	return append(b, '"')
}

// appendFloat writes v as JSON writes numbers (no exponent between 1e-6
// and 1e21), and NaN and the infinities by name: quoted in JSON, which has
// no such numbers.
func appendFloat(b []byte, v float64, bits int, asJSON bool) []byte {
	var special string
	switch {
	case math.IsNaN(v):
		special = "NaN"
	case math.IsInf(v, 1):
		special = "Infinity"
	case math.IsInf(v, -1):
		special = "-Infinity"
	}
	if special != "" {
		if asJSON {
			return append(append(append(b, '"'), special...), '"')
		}
		return append(b, special...)
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21 || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, bits)
	if format == 'e' {
		// 1e-07 → 1e-7, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendDecimal writes n with scale digits after the point: 5 at scale 2
// is 0.05.
func appendDecimal(b []byte, n decimal128.Num, scale int32) []byte {
	hi, lo := n.HighBits(), n.LowBits()
	fits := (hi == 0 && lo <= math.MaxInt64) || (hi == -1 && lo > math.MaxInt64)
	if !fits || scale < 0 || scale > 18 {
		return append(b, n.ToString(scale)...)
	}
	v := int64(lo)
	if v < 0 {
		b = append(b, '-')
	}
	u := uint64(v)
	if v < 0 {
		u = uint64(-v) // -MinInt64 wraps to itself, which as uint64 is right
	}
	if scale == 0 {
		return strconv.AppendUint(b, u, 10)
	}
	var digits [24]byte
	d := strconv.AppendUint(digits[:0], u, 10)
	for len(d) <= int(scale) {
		d = append([]byte{'0'}, d...)
	}
	point := len(d) - int(scale)
	b = append(b, d[:point]...)
	b = append(b, '.')
	return append(b, d[point:]...)
}

// appendTimeOfDay writes HH:MM:SS with a fraction when there is one.
func appendTimeOfDay(b []byte, v int64, unit arrow.TimeUnit) []byte {
	per := int64(unit.Multiplier()) // ticks per nanosecond
	ns := v * per
	t := time.Unix(0, ns).UTC()
	return t.AppendFormat(b, "15:04:05.999999999")
}

// appendTime writes t by layout, a date layout ("2006-01-02") with perhaps
// a time after it, and a year before 1 as DuckDB writes it: year 0 is
// 0001-12-31 (BC), with the time after the (BC), as casts to text write it.
func appendTime(b []byte, t time.Time, layout string) []byte {
	if t.Year() >= 1 {
		return t.AppendFormat(b, layout)
	}
	const date = len("2006-01-02")
	b = fmt.Appendf(b, "%04d", 1-t.Year())
	b = t.AppendFormat(b, layout[len("2006"):date])
	b = append(b, " (BC)"...)
	return t.AppendFormat(b, layout[date:])
}

// timestampLayout is how timestamps are written: a space between date and
// time, and a fraction only when there is one.
const timestampLayout = "2006-01-02 15:04:05.999999999"

// appendBinary writes v as base64 in JSON (a JSON string holds text, and
// base64 is what JSON tools decode), and as DuckDB writes a BLOB elsewhere:
// printable ASCII as it is, other bytes — and \, ' and " — as \xHH.
func appendBinary(b []byte, v []byte, asJSON bool) []byte {
	if !asJSON {
		return appendBlob(b, v)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// appendBlob writes v as DuckDB casts a BLOB to text: x'00ff41' is \x00\xFFA.
func appendBlob(b []byte, v []byte) []byte {
	const upperHex = "0123456789ABCDEF"
	for _, c := range v {
		if c >= 0x20 && c < 0x7f && c != '\\' && c != '\'' && c != '"' {
			b = append(b, c)
			continue
		}
		b = append(b, '\\', 'x', upperHex[c>>4], upperHex[c&0xf])
	}
	return b
}

// IsNull reports whether row i of arr is null; every row of an array of
// type null is, whether or not it has a validity bitmap, and a row of a
// dictionary array is when its index or the value it picks is.
func IsNull(arr arrow.Array, i int) bool {
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return true
	}
	if d, ok := arr.(*array.Dictionary); ok {
		return IsNull(d.Dictionary(), d.GetValueIndex(i))
	}
	return false
}

const hexDigits = "0123456789abcdef"

// AppendJSONString writes s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD, and U+2028
// and U+2029 escaped so the output is also valid JavaScript.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
