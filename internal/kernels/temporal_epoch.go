package kernels

// dayname and monthname (English names, as DuckDB gives them), and the
// conversions between epoch numbers and timestamps: epoch_ms of
// milliseconds (a timestamp in microseconds) or of a date or timestamp (its
// milliseconds since 1970-01-01, rounded to the nearest, half away from
// zero), and
// to_timestamp of seconds (an f64, rounded to the microsecond as a cast of
// a double rounds: to nearest, ties to even).

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// DayMonthName is dayname(x), or monthname(x) when month is set, of a date
// or timestamp stored as in: utf8 (strftime's %A and %B names,
// temporal_format.go).
func DayMonthName(mem memory.Allocator, month bool, in Temporal, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	name := func(day int64) string {
		if month {
			_, m, _ := civilFromDays(day)
			return monthNames[m-1]
		}
		return dayNames[floorMod(day+4, 7)] // 1970-01-01 was a Thursday
	}
	args := []datum.Datum{x}
	if in.Date {
		a := FixedOf[int32](x)
		return utf8Rows(mem, args, ret, 9*x.Len(), func(i int, b *strBuilder) error {
			b.writeString(name(int64(a.At(i))))
			return nil
		})
	}
	a, perDay := FixedOf[int64](x), secondsPerDay*in.PerSecond
	return utf8Rows(mem, args, ret, 9*x.Len(), func(i int, b *strBuilder) error {
		b.writeString(name(floorDiv(a.At(i), perDay)))
		return nil
	})
}

// EpochMsToTimestamp is epoch_ms(ms): milliseconds since 1970-01-01 as a
// timestamp in microseconds; a value whose microseconds do not fit an i64
// is errs.ErrOverflow (DuckDB raises too).
func EpochMsToTimestamp(mem memory.Allocator, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return checkedRows(mem, x, ret, func(v int64) (int64, bool) {
		if v > math.MaxInt64/1000 || v < math.MinInt64/1000 {
			return 0, false
		}
		return v * 1000, true
	})
}

// EpochMs is epoch_ms(x) of a date or timestamp stored as in: its
// milliseconds since 1970-01-01 00:00:00, as i64 (EpochTicks with per 1000).
func EpochMs(mem memory.Allocator, in Temporal, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return EpochTicks(mem, in, x, 1000, ret)
}

// EpochTicks is epoch_ms, epoch_us or epoch_ns (per = 10^3, 10^6, 10^9) of a
// date or timestamp stored as in: its ticks of 1/per second since
// 1970-01-01 00:00:00, as i64, rounded as DuckDB rounds them: to the
// nearest, half away from zero (0.5 ms is 1 and -0.5 ms is -1), a
// thousand at a time (nanoseconds to microseconds, then to milliseconds,
// so 0.4995 ms is 1). Ticks beyond an i64 (the nanoseconds of a date
// after 2262) are errs.ErrOverflow.
func EpochTicks(mem memory.Allocator, in Temporal, x datum.Datum, per int64, ret dtype.DType) (datum.Datum, error) {
	if in.Date {
		k := secondsPerDay * per
		return checkedRows(mem, x, ret, func(v int32) (int64, bool) {
			return mulChecked(int64(v), k)
		})
	}
	from := in.PerSecond
	if from >= per {
		return checkedRows(mem, x, ret, func(v int64) (int64, bool) {
			for k := from; k > per; k /= 1000 {
				v = roundDivHalfAway(v, 1000)
			}
			return v, true
		})
	}
	k := per / from
	return checkedRows(mem, x, ret, func(v int64) (int64, bool) { return mulChecked(v, k) })
}

// roundDivHalfAway is a / b (b > 0) rounded to the nearest integer, half
// away from zero.
func roundDivHalfAway(a, b int64) int64 {
	q, r := a/b, a%b
	if r < 0 {
		r = -r
	}
	if 2*r >= b {
		if a < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// toTimestampOne is the microseconds of s seconds, rounded to nearest
// (ties to even), or false when that is NaN or does not fit an i64.
func toTimestampOne(s float64) (int64, bool) {
	v := math.RoundToEven(s * 1e6)
	if !(v >= math.MinInt64 && v < math.MaxInt64) {
		return 0, false
	}
	return int64(v), true
}

// ToTimestamp is to_timestamp(s) of f64 seconds since 1970-01-01: a
// timestamp in microseconds. NaN, ±Inf and values beyond the range are
// errs.ErrInvalidArgument, as DuckDB raises them.
func ToTimestamp(mem memory.Allocator, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	fail := func(s float64) error {
		return fmt.Errorf("%w: to_timestamp(%v): the seconds are out of the range of a timestamp", errs.ErrInvalidArgument, s)
	}
	a := FixedOf[float64](x)
	if a.IsScalar {
		v, ok := toTimestampOne(a.Scalar)
		if !ok && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: fail(a.Scalar)}
		}
		return scalarResult(ret, v, n)
	}
	values, dst := newValues[int64](mem, n)
	for i, s := range a.Vals {
		v, ok := toTimestampOne(s)
		if !ok && a.Valid.Get(i) {
			values.Release()
			return datum.Datum{}, &RowError{Row: i, Err: fail(s)}
		}
		dst[i] = v
	}
	validity, nulls := ShareValidity(mem, x.Array())
	return fixedResult(ret, n, validity, nulls, values), nil
}
