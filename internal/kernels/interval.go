package kernels

// The interval kernels: interval arithmetic, date and timestamp ± interval,
// timestamp − timestamp, the to_* constructors and the parts of an
// interval. An interval is Arrow's month_day_nano (months and days in
// int32, nanoseconds in int64); every kernel is a typed loop over those
// values, and every result that leaves a field's range is
// errs.ErrOverflow at its row.

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/interval"
)

// Interval is the Go type of an interval value.
type Interval = interval.Value

var (
	errIntervalRange  = fmt.Errorf("%w: an interval's months and days are i32 and its time i64 nanoseconds (±2562047 hours)", errs.ErrOverflow)
	errTimestampRange = fmt.Errorf("%w: the timestamp is out of range", errs.ErrOverflow)
)

// checkedBinary maps two fixed-width datums of n rows through f; the first
// valid row where f fails is a RowError carrying fail.
func checkedBinary[A, B, R any](mem memory.Allocator, a, b datum.Datum, ret dtype.DType, fail error, f func(A, B) (R, bool)) (datum.Datum, error) {
	n := a.Len()
	if isNullDatum(a) || isNullDatum(b) {
		return NullResult(ret, n), nil
	}
	x, y := FixedOf[A](a), FixedOf[B](b)
	if x.IsScalar && y.IsScalar {
		v, ok := f(x.Scalar, y.Scalar)
		if !ok {
			if n == 0 {
				return NullResult(ret, n), nil
			}
			return datum.Datum{}, &RowError{Row: 0, Err: fail}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, x.Valid, y.Valid)
	valid := Bitmap{}
	if validity != nil {
		valid = Bitmap{Buf: validity.Bytes()}
	}
	values, dst := newValues[R](mem, n)
	for i := range dst {
		v, ok := f(x.At(i), y.At(i))
		if !ok && valid.Get(i) {
			releaseAll(values, validity)
			return datum.Datum{}, &RowError{Row: i, Err: fail}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// checkedUnary maps a fixed-width datum through f; the first valid row
// where f fails is a RowError carrying fail.
func checkedUnary[A, R any](mem memory.Allocator, x datum.Datum, ret dtype.DType, fail error, f func(A) (R, bool)) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[A](x)
	if a.IsScalar {
		v, ok := f(a.Scalar)
		if !ok {
			if n == 0 {
				return NullResult(ret, n), nil
			}
			return datum.Datum{}, &RowError{Row: 0, Err: fail}
		}
		return scalarResult(ret, v, n)
	}
	values, dst := newValues[R](mem, n)
	for i, v := range a.Vals {
		r, ok := f(v)
		if !ok && a.Valid.Get(i) {
			values.Release()
			return datum.Datum{}, &RowError{Row: i, Err: fail}
		}
		dst[i] = r
	}
	validity, nulls := ShareValidity(mem, x.Array())
	return fixedResult(ret, n, validity, nulls, values), nil
}

// fromWide is the interval of wide fields, or false when one does not fit.
func fromWide(months, days, nanos int64) (Interval, bool) {
	if months != int64(int32(months)) || days != int64(int32(days)) {
		return Interval{}, false
	}
	return Interval{Months: int32(months), Days: int32(days), Nanoseconds: nanos}, true
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func subInt64(a, b int64) (int64, bool) {
	s := a - b
	return s, (s < a) == (b > 0)
}

// IntervalArith is a + b or a - b of two intervals, field by field.
func IntervalArith(mem memory.Allocator, sub bool, a, b datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return checkedBinary(mem, a, b, ret, errIntervalRange, func(x, y Interval) (Interval, bool) {
		if sub {
			ns, ok := subInt64(x.Nanoseconds, y.Nanoseconds)
			r, ok2 := fromWide(int64(x.Months)-int64(y.Months), int64(x.Days)-int64(y.Days), ns)
			return r, ok && ok2
		}
		ns, ok := addInt64(x.Nanoseconds, y.Nanoseconds)
		r, ok2 := fromWide(int64(x.Months)+int64(y.Months), int64(x.Days)+int64(y.Days), ns)
		return r, ok && ok2
	})
}

// IntervalMul is an interval times an i64 (iv is the interval, k the
// integer, in either order of the call), each field multiplied.
func IntervalMul(mem memory.Allocator, iv, k datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return checkedBinary(mem, iv, k, ret, errIntervalRange, func(x Interval, k int64) (Interval, bool) {
		months, ok1 := mulChecked(int64(x.Months), k)
		days, ok2 := mulChecked(int64(x.Days), k)
		ns, ok3 := mulChecked(x.Nanoseconds, k)
		r, ok := fromWide(months, days, ns)
		return r, ok1 && ok2 && ok3 && ok
	})
}

// IntervalNeg is -x.
func IntervalNeg(mem memory.Allocator, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return checkedUnary(mem, x, ret, errIntervalRange, func(v Interval) (Interval, bool) {
		r, ok := fromWide(-int64(v.Months), -int64(v.Days), -v.Nanoseconds)
		return r, ok && v.Nanoseconds != math.MinInt64
	})
}

// addMonthsDays is the day months and then days after day, the day of the
// month clamped to the last one as DuckDB clamps it (2024-01-31 plus a
// month is 2024-02-29).
func addMonthsDays(day, months, days int64) int64 {
	if months != 0 {
		y, m, d := civilFromDays(day)
		total := y*12 + m - 1 + months
		y, m = floorDiv(total, 12), floorMod(total, 12)+1
		day = daysFromCivil(y, m, min(d, daysInMonth(y, m)))
	}
	return day + days
}

// shiftTicks is the instant tod ticks (per a second) after the midnight of
// day, moved by the interval iv (subtracted when sub), in out ticks a
// second (out >= per, both powers of ten): the months (clamped to the
// month's end) and the days move the date, the nanoseconds the instant.
func shiftTicks(day, tod, per, out int64, iv Interval, sub bool) (int64, bool) {
	months, days, ns := int64(iv.Months), int64(iv.Days), iv.Nanoseconds
	if sub {
		if ns == math.MinInt64 {
			return 0, false
		}
		months, days, ns = -months, -days, -ns
	}
	day = addMonthsDays(day, months, days)
	tod *= out / per // exact: a finer unit
	r, ok := mulChecked(day, secondsPerDay*out)
	if !ok {
		return 0, false
	}
	if r, ok = addInt64(r, tod); !ok {
		return 0, false
	}
	return addInt64(r, ns/(interval.NanosPerSecond/out))
}

// AddInterval is x ± iv for a date or timestamp x stored as in (sub for
// −); the result is a timestamp of ret's unit, which is no coarser than
// x's. A result beyond the timestamp's range is errs.ErrOverflow.
func AddInterval(mem memory.Allocator, in Temporal, x, iv datum.Datum, sub bool, ret dtype.DType) (datum.Datum, error) {
	out := ret.Unit().PerSecond()
	if in.Date {
		return checkedBinary(mem, x, iv, ret, errTimestampRange, func(d int32, v Interval) (int64, bool) {
			return shiftTicks(int64(d), 0, 1, out, v, sub)
		})
	}
	per := in.PerSecond
	return checkedBinary(mem, x, iv, ret, errTimestampRange, func(t int64, v Interval) (int64, bool) {
		day, tod := splitTicks(t, per)
		return shiftTicks(day, tod, per, out, v, sub)
	})
}

// TimestampDiff is a − b of two timestamps of per ticks a second, as an
// interval of whole days (of 24 hours) and the time left over, both with
// the sign of the difference, as DuckDB gives it.
func TimestampDiff(mem memory.Allocator, per int64, a, b datum.Datum, ret dtype.DType) (datum.Datum, error) {
	perDay := secondsPerDay * per
	return checkedBinary(mem, a, b, ret, errIntervalRange, func(x, y int64) (Interval, bool) {
		// Days and the rest apart, so that a difference beyond the ±292
		// years of i64 nanoseconds still fits.
		dx, rx := x/perDay, x%perDay
		dy, ry := y/perDay, y%perDay
		days, rest := dx-dy, rx-ry // rest in (-2 days, 2 days)
		days += rest / perDay
		rest %= perDay
		if days > 0 && rest < 0 {
			days, rest = days-1, rest+perDay
		} else if days < 0 && rest > 0 {
			days, rest = days+1, rest-perDay
		}
		return fromWide(0, days, rest*(interval.NanosPerSecond/per))
	})
}

// ToInterval is n units of an interval (to_days(n), INTERVAL (n) DAY): n
// times months, days and nanoseconds, of which one is not zero.
func ToInterval(mem memory.Allocator, months, days, nanos int64, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return checkedUnary(mem, x, ret, errIntervalRange, func(k int64) (Interval, bool) {
		m, ok1 := mulChecked(months, k)
		d, ok2 := mulChecked(days, k)
		ns, ok3 := mulChecked(nanos, k)
		r, ok := fromWide(m, d, ns)
		return r, ok1 && ok2 && ok3 && ok
	})
}

// IntervalPartOK reports whether p is a field of an interval: the fields
// of its months (year, quarter, month, decade, century, millennium), of its
// days (day) and of its time (hour … microsecond, epoch).
func IntervalPartOK(p Part) bool {
	switch p {
	case PartYear, PartQuarter, PartMonth, PartDay, PartDecade, PartCentury, PartMillennium,
		PartHour, PartMinute, PartSecond, PartMillisecond, PartMicrosecond, PartEpoch:
		return true
	}
	return false
}

// intervalPart is the integer field p of v, as DuckDB computes it: the
// months split into years (months / 12, toward zero) and the month of the
// year (months % 12), the time into hours and the minutes, seconds, … of
// the hour and minute, each keeping the interval's sign.
func intervalPart(p Part, v Interval) int64 {
	months, ns := int64(v.Months), v.Nanoseconds
	switch p {
	case PartYear:
		return months / 12
	case PartQuarter:
		return months%12/3 + 1
	case PartMonth:
		return months % 12
	case PartDay:
		return int64(v.Days)
	case PartDecade:
		return months / 120
	case PartCentury:
		return months / 1200
	case PartMillennium:
		return months / 12000
	case PartHour:
		return ns / interval.NanosPerHour
	case PartMinute:
		return ns % interval.NanosPerHour / interval.NanosPerMinute
	case PartSecond:
		return ns % interval.NanosPerMinute / interval.NanosPerSecond
	case PartMillisecond:
		return ns % interval.NanosPerMinute / interval.NanosPerMilli
	case PartMicrosecond:
		return ns % interval.NanosPerMinute / interval.NanosPerMicro
	}
	return 0
}

// IntervalPart computes an integer field of an interval (IntervalPartOK,
// not PartEpoch); the result is i64.
func IntervalPart(mem memory.Allocator, p Part, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if !IntervalPartOK(p) || p == PartEpoch {
		return datum.Datum{}, fmt.Errorf("no interval field %d", p)
	}
	return mapUnary(mem, x, ret, func(v Interval) int64 { return intervalPart(p, v) }, func(dst []int64, src []Interval) {
		for i, v := range src {
			dst[i] = intervalPart(p, v)
		}
	}), nil
}

// intervalEpoch is the seconds of v as DuckDB counts them: a year is
// 365.25 days, a month of the year 30 days, a day 24 hours.
func intervalEpoch(v Interval) float64 {
	months := int64(v.Months)
	secs := months/12*31557600 + months%12*(interval.DaysPerMonth*secondsPerDay) + int64(v.Days)*secondsPerDay
	micros, ns := v.Nanoseconds/interval.NanosPerMicro, v.Nanoseconds%interval.NanosPerMicro
	return float64(secs) + float64(micros)/1e6 + float64(ns)/1e9
}

// IntervalEpoch is date_part('epoch', x) of an interval, as f64.
func IntervalEpoch(mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	return mapUnary(mem, x, ret, intervalEpoch, func(dst []float64, src []Interval) {
		for i, v := range src {
			dst[i] = intervalEpoch(v)
		}
	})
}

// cmpIntervals compares intervals by the span they cover, as DuckDB does
// (interval.Compare), without a branch per row: the three-way outcome
// indexes the operator's table.
func cmpIntervals(op CmpOp, words []uint64, a, b Fixed[Interval]) {
	n := len(a.Vals)
	switch {
	case a.IsScalar && b.IsScalar:
		n = 1
	case a.IsScalar:
		n = len(b.Vals)
	}
	table := outcome[op]
	xs, ys, x, y := a.Vals, b.Vals, a.Scalar, b.Scalar
	for k := range words {
		var w uint64
		base := k << 6
		m := min(64, n-base)
		for j := 0; j < m; j++ {
			if xs != nil {
				x = xs[base+j]
			}
			if ys != nil {
				y = ys[base+j]
			}
			xd, xn := interval.Normalize(x)
			yd, yn := interval.Normalize(y)
			dEq := b2u(xd == yd)
			lt := b2u(xd < yd) | dEq&b2u(xn < yn)
			eq := dEq & b2u(xn == yn)
			idx := eq | (1^lt^eq)<<1 // 0 for <, 1 for =, 2 for >
			w |= (table >> idx & 1) << uint(j)
		}
		words[k] = w
	}
}

// IntervalScale is an interval times a float (iv is the interval, f the
// f64, in either order of the call) or divided by one (divide), as DuckDB
// computes it after PostgreSQL: the months and days are scaled and
// truncated, the fraction of a month carries down as days of 30 (rounded
// to a millionth of a day), the fraction of a day as seconds (rounded to
// a microsecond), and the time is scaled and rounded half to even to the
// microsecond, so the result is whole microseconds as DuckDB's are. A
// zero divisor is errs.ErrDivideByZero; a field out of range, or a NaN or
// infinite factor, errs.ErrOverflow.
func IntervalScale(mem memory.Allocator, iv, f datum.Datum, divide bool, ret dtype.DType) (datum.Datum, error) {
	var why error
	res, err := checkedBinary(mem, iv, f, ret, errIntervalRange, func(x Interval, f float64) (Interval, bool) {
		why = nil
		if divide && f == 0 {
			why = errs.ErrDivideByZero
			return Interval{}, false
		}
		r, ok := scaleInterval(x, f, divide)
		return r, ok
	})
	if re, ok := err.(*RowError); ok && why != nil {
		re.Err = fmt.Errorf("%w: an interval divided by 0", why)
	}
	return res, err
}

// scaleInterval is x·f (or x/f when divide); see IntervalScale.
func scaleInterval(x Interval, f float64, divide bool) (Interval, bool) {
	const daysPerMonth, secondsPerDay = 30, 86400
	by := func(v float64) float64 {
		if divide {
			return v / f
		}
		return v * f
	}
	// TSROUND: to a millionth.
	round6 := func(v float64) float64 { return math.RoundToEven(v*1e6) / 1e6 }
	fits32 := func(v float64) bool { return !math.IsNaN(v) && v > math.MinInt32-1 && v < math.MaxInt32+1 }
	months, days := by(float64(x.Months)), by(float64(x.Days))
	if !fits32(months) || !fits32(days) {
		return Interval{}, false
	}
	m, d := int64(months), int64(days) // toward zero
	monthDays := round6((months - float64(m)) * daysPerMonth)
	secs := round6((days - float64(d) + monthDays - math.Trunc(monthDays)) * secondsPerDay)
	if math.Abs(secs) >= secondsPerDay {
		whole := math.Trunc(secs / secondsPerDay)
		d += int64(whole)
		secs -= whole * secondsPerDay
	}
	d += int64(monthDays)
	micros := math.RoundToEven(by(float64(x.Nanoseconds)/1e3) + secs*1e6)
	if math.IsNaN(micros) || micros >= math.MaxInt64/1e3 || micros <= math.MinInt64/1e3 {
		return Interval{}, false
	}
	return fromWide(m, d, int64(micros)*1e3)
}
