package kernels

// The date and time functions: the fields of a date or timestamp
// (date_part and its shorthands), date_trunc, date_diff, last_day,
// make_date and make_timestamp. The results are DuckDB's; package fn's doc
// (temporal.go) lists the types.
//
// A date is days since 1970-01-01 (int32); a timestamp is ticks of its unit
// since 1970-01-01 00:00:00 UTC (int64). Both are split into a day number
// and the ticks since that day's midnight (rounding toward the past), and
// the calendar is the proleptic Gregorian one with astronomical years (the
// year before 1 is 0), as in DuckDB. A zoned timestamp is read in UTC.

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// Part is a field of a date or timestamp (the order of fn.DatePart).
type Part uint8

// The fields.
const (
	PartYear         Part = iota
	PartQuarter           // 1…4
	PartMonth             // 1…12
	PartDay               // day of the month, 1…31
	PartDayOfWeek         // Sunday 0 … Saturday 6
	PartISODayOfWeek      // Monday 1 … Sunday 7
	PartDayOfYear         // 1…366
	PartWeek              // ISO week, 1…53
	PartISOYear           // the year the ISO week belongs to
	PartYearWeek          // ISO year · 100 ± ISO week
	PartDecade            // year / 10, toward zero
	PartCentury           // 20 for 1901…2000; -1 for -99…0
	PartMillennium        // 2 for 1001…2000
	PartEra               // 1 for years > 0, else 0
	PartHour              // 0…23
	PartMinute            // 0…59
	PartSecond            // 0…59
	PartMillisecond       // seconds · 1000 + milliseconds
	PartMicrosecond       // seconds · 10⁶ + microseconds
	PartEpoch             // seconds since 1970-01-01 00:00:00 (f64)
)

// Temporal says how a date, time or timestamp is stored.
type Temporal struct {
	Date      bool  // days in int32
	Time      bool  // ticks since midnight: int32 for s and ms, else int64
	PerSecond int64 // ticks per second of a time or timestamp (1 for a date)
}

// TemporalOf is the storage of a date, time or timestamp type.
func TemporalOf(t dtype.DType) Temporal {
	switch t.ExtID() {
	case dtype.ExtDate:
		return Temporal{Date: true, PerSecond: 1}
	case dtype.ExtTime:
		return Temporal{Time: true, PerSecond: t.Unit().PerSecond()}
	}
	return Temporal{PerSecond: t.Unit().PerSecond()}
}

// narrowTime reports whether in is a time stored in int32.
func (in Temporal) narrowTime() bool { return in.Time && in.PerSecond <= 1000 }

const secondsPerDay = 86400

// splitTicks is the day of ticks v (of per ticks a second) and the ticks
// since its midnight.
func splitTicks(v, per int64) (day, tod int64) {
	perDay := secondsPerDay * per
	day = v / perDay
	tod = v - day*perDay
	if tod < 0 {
		day--
		tod += perDay
	}
	return day, tod
}

// daysFromCivil is the day number of y-m-d (m 1…12, d 1…31).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the calendar date of day z.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

func isLeapYear(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// daysInMonth is the number of days of month m of year y.
func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeapYear(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isoDayOfWeek is Monday 1 … Sunday 7 (1970-01-01 was a Thursday).
func isoDayOfWeek(day int64) int64 { return floorMod(day+3, 7) + 1 }

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// isoWeek is the ISO year and week of day.
func isoWeek(day int64) (year, week int64) {
	thursday := day - isoDayOfWeek(day) + 4
	year, _, _ = civilFromDays(thursday)
	return year, (thursday-daysFromCivil(year, 1, 1))/7 + 1
}

// isoYearStart is the Monday of ISO week 1 of year y.
func isoYearStart(y int64) int64 {
	jan4 := daysFromCivil(y, 1, 4)
	return jan4 - isoDayOfWeek(jan4) + 1
}

// yearWeek is the ISO year · 100 + the ISO week, the week subtracted for
// a negative year (-0044-03-15 is -4411), as in DuckDB.
func yearWeek(day int64) int64 {
	y, w := isoWeek(day)
	if y < 0 {
		return y*100 - w
	}
	return y*100 + w
}

func century(y int64) int64 {
	if y > 0 {
		return (y-1)/100 + 1
	}
	return y/100 - 1
}

func millennium(y int64) int64 {
	if y > 0 {
		return (y-1)/1000 + 1
	}
	return y/1000 - 1
}

// rescale converts v ticks of per a second to ticks of to a second
// (toward zero); per and to are powers of ten.
func rescale(v, per, to int64) int64 {
	if per >= to {
		return v / (per / to)
	}
	return v * (to / per)
}

// partFunc computes an integer field from a day and the ticks since its
// midnight (per ticks a second).
func partFunc(p Part, per int64) func(day, tod int64) int64 {
	year := func(day, _ int64) int64 { y, _, _ := civilFromDays(day); return y }
	switch p {
	case PartYear:
		return year
	case PartQuarter:
		return func(day, _ int64) int64 { _, m, _ := civilFromDays(day); return (m-1)/3 + 1 }
	case PartMonth:
		return func(day, _ int64) int64 { _, m, _ := civilFromDays(day); return m }
	case PartDay:
		return func(day, _ int64) int64 { _, _, d := civilFromDays(day); return d }
	case PartDayOfWeek:
		return func(day, _ int64) int64 { return floorMod(day+4, 7) }
	case PartISODayOfWeek:
		return func(day, _ int64) int64 { return isoDayOfWeek(day) }
	case PartDayOfYear:
		return func(day, _ int64) int64 { y, _, _ := civilFromDays(day); return day - daysFromCivil(y, 1, 1) + 1 }
	case PartWeek:
		return func(day, _ int64) int64 { _, w := isoWeek(day); return w }
	case PartISOYear:
		return func(day, _ int64) int64 { y, _ := isoWeek(day); return y }
	case PartYearWeek:
		return func(day, _ int64) int64 { return yearWeek(day) }
	case PartDecade:
		return func(day, tod int64) int64 { return year(day, tod) / 10 }
	case PartCentury:
		return func(day, tod int64) int64 { return century(year(day, tod)) }
	case PartMillennium:
		return func(day, tod int64) int64 { return millennium(year(day, tod)) }
	case PartEra:
		return func(day, tod int64) int64 {
			if year(day, tod) > 0 {
				return 1
			}
			return 0
		}
	case PartHour:
		return func(_, tod int64) int64 { return tod / (3600 * per) }
	case PartMinute:
		return func(_, tod int64) int64 { return tod / (60 * per) % 60 }
	case PartSecond:
		return func(_, tod int64) int64 { return tod / per % 60 }
	case PartMillisecond:
		return func(_, tod int64) int64 { return rescale(tod%(60*per), per, 1000) }
	case PartMicrosecond:
		return func(_, tod int64) int64 { return rescale(tod%(60*per), per, 1_000_000) }
	}
	return nil
}

// DatePart computes an integer field (any part but PartEpoch) of a date,
// time or timestamp x stored as in (a time is a day 0, whose date parts
// callers do not ask for); the result is i64.
func DatePart(mem memory.Allocator, p Part, in Temporal, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	f := partFunc(p, in.PerSecond)
	if f == nil {
		return datum.Datum{}, fmt.Errorf("no integer field %d", p)
	}
	switch {
	case in.Date:
		return mapUnary(mem, x, ret, func(v int32) int64 { return f(int64(v), 0) }, func(dst []int64, src []int32) {
			for i, v := range src {
				dst[i] = f(int64(v), 0)
			}
		}), nil
	case in.narrowTime():
		return mapUnary(mem, x, ret, func(v int32) int64 { return f(0, int64(v)) }, func(dst []int64, src []int32) {
			for i, v := range src {
				dst[i] = f(0, int64(v))
			}
		}), nil
	case in.Time:
		return mapUnary(mem, x, ret, func(v int64) int64 { return f(0, v) }, func(dst, src []int64) {
			for i, v := range src {
				dst[i] = f(0, v)
			}
		}), nil
	}
	per := in.PerSecond
	return mapUnary(mem, x, ret, func(v int64) int64 { return f(splitTicks(v, per)) }, func(dst, src []int64) {
		for i, v := range src {
			dst[i] = f(splitTicks(v, per))
		}
	}), nil
}

// Epoch is the seconds since 1970-01-01 00:00:00 of a date or timestamp
// (since midnight of a time), as f64.
func Epoch(mem memory.Allocator, in Temporal, x datum.Datum, ret dtype.DType) datum.Datum {
	if in.Date {
		one := func(v int32) float64 { return float64(int64(v) * secondsPerDay) }
		return mapUnary(mem, x, ret, one, func(dst []float64, src []int32) {
			for i, v := range src {
				dst[i] = float64(int64(v) * secondsPerDay)
			}
		})
	}
	per := float64(in.PerSecond)
	if in.narrowTime() {
		return mapUnary(mem, x, ret, func(v int32) float64 { return float64(v) / per }, func(dst []float64, src []int32) {
			for i, v := range src {
				dst[i] = float64(v) / per
			}
		})
	}
	// A wide time, like a timestamp, counts ticks from a midnight.
	return mapUnary(mem, x, ret, func(v int64) float64 { return float64(v) / per }, func(dst []float64, src []int64) {
		for i, v := range src {
			dst[i] = float64(v) / per
		}
	})
}

// LastDay is the last day of the month of a date or timestamp, as a date;
// one past the last date (the end of July 5881580) is errs.ErrOverflow.
func LastDay(mem memory.Allocator, in Temporal, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	last := func(day int64) (int32, bool) {
		y, m, _ := civilFromDays(day)
		r := daysFromCivil(y, m, daysInMonth(y, m))
		return int32(r), r <= math.MaxInt32 && r >= math.MinInt32
	}
	if in.Date {
		return checkedRows(mem, x, ret, func(v int32) (int32, bool) { return last(int64(v)) })
	}
	per := in.PerSecond
	return checkedRows(mem, x, ret, func(v int64) (int32, bool) { d, _ := splitTicks(v, per); return last(d) })
}

// TruncPart is what date_trunc truncates to (the order of fn.TruncPart).
type TruncPart uint8

// The truncations.
const (
	TruncMillennium TruncPart = iota // year / 1000 · 1000, toward zero
	TruncCentury                     // year / 100 · 100, toward zero
	TruncDecade                      // year / 10 · 10, toward zero
	TruncYear
	TruncQuarter
	TruncMonth
	TruncWeek // the Monday
	TruncISOYear
	TruncDay
	TruncHour
	TruncMinute
	TruncSecond
	TruncMillisecond
	TruncMicrosecond
)

// truncDay truncates a day number to the start of p's period (the parts
// from day up leave it).
func truncDay(p TruncPart, day int64) int64 {
	switch p {
	case TruncWeek:
		return day - isoDayOfWeek(day) + 1
	case TruncISOYear:
		y, _ := isoWeek(day)
		return isoYearStart(y)
	case TruncDay, TruncHour, TruncMinute, TruncSecond, TruncMillisecond, TruncMicrosecond:
		return day
	}
	y, m, _ := civilFromDays(day)
	switch p {
	case TruncMillennium:
		y = y / 1000 * 1000
	case TruncCentury:
		y = y / 100 * 100
	case TruncDecade:
		y = y / 10 * 10
	case TruncQuarter:
		return daysFromCivil(y, (m-1)/3*3+1, 1)
	case TruncMonth:
		return daysFromCivil(y, m, 1)
	}
	return daysFromCivil(y, 1, 1)
}

// truncTicks is the length in ticks (per a second) of p's period within a
// day: 0 for the parts of a day or more, 1 where the unit is coarser.
func truncTicks(p TruncPart, per int64) int64 {
	switch p {
	case TruncHour:
		return 3600 * per
	case TruncMinute:
		return 60 * per
	case TruncSecond:
		return per
	case TruncMillisecond:
		return max(per/1000, 1)
	case TruncMicrosecond:
		return max(per/1_000_000, 1)
	}
	return 0
}

// DateTrunc truncates a date or timestamp x (stored as in) to the start of
// p's period, as a timestamp of ret's unit: a date's midnight in
// microseconds, a timestamp in its own unit. A result out of the
// timestamp's range is errs.ErrOverflow.
func DateTrunc(mem memory.Allocator, p TruncPart, in Temporal, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	out := ret.Unit().PerSecond()
	perDay := secondsPerDay * out
	step := truncTicks(p, in.PerSecond)
	if in.Date {
		return checkedRows(mem, x, ret, func(v int32) (int64, bool) {
			return mulChecked(truncDay(p, int64(v)), perDay)
		})
	}
	per := in.PerSecond
	return checkedRows(mem, x, ret, func(v int64) (int64, bool) {
		day, tod := splitTicks(v, per)
		if step == 0 {
			return mulChecked(truncDay(p, day), perDay)
		}
		return v - tod%step, true
	})
}

// checkedRows maps x through a checked function; the first valid row where
// it fails is errs.ErrOverflow.
func checkedRows[S, R int32 | int64](mem memory.Allocator, x datum.Datum, ret dtype.DType, f func(S) (R, bool)) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[S](x)
	if a.IsScalar {
		v, ok := f(a.Scalar)
		if !ok {
			return datum.Datum{}, &RowError{Row: 0, Err: errOutOfRange}
		}
		return scalarResult(ret, v, n)
	}
	values, dst := newValues[R](mem, n)
	for i, v := range a.Vals {
		r, ok := f(v)
		if !ok && a.Valid.Get(i) {
			values.Release()
			return datum.Datum{}, &RowError{Row: i, Err: errOutOfRange}
		}
		dst[i] = r
	}
	validity, nulls := ShareValidity(mem, x.Array())
	return fixedResult(ret, n, validity, nulls, values), nil
}

var errOutOfRange = fmt.Errorf("%w: the result is out of the range of its type", errs.ErrOverflow)

// DiffPart is what date_diff counts (the order of fn.DiffPart).
type DiffPart uint8

// The date_diff parts.
const (
	DiffMillennium DiffPart = iota
	DiffCentury
	DiffDecade
	DiffYear
	DiffQuarter
	DiffMonth
	DiffWeek
	DiffISOYear
	DiffDay
	DiffHour
	DiffMinute
	DiffSecond
	DiffMillisecond
	DiffMicrosecond
)

// diffKey is the number date_diff subtracts for one value: the count of
// p's periods from an origin, as DuckDB computes it (the year-based parts
// and quarters divide toward zero; the parts of a day count boundaries,
// rounding toward the past). ok is false on overflow.
func diffKey(p DiffPart, day, tod, per int64) (int64, bool) {
	switch p {
	case DiffDay, DiffWeek:
		return day, true
	case DiffISOYear:
		y, _ := isoWeek(day)
		return y, true
	case DiffHour:
		return day*24 + tod/(3600*per), true
	case DiffMinute:
		return day*1440 + tod/(60*per), true
	case DiffSecond:
		return day*secondsPerDay + tod/per, true
	case DiffMillisecond:
		return mulAddChecked(day, secondsPerDay*1000, rescale(tod, per, 1000))
	case DiffMicrosecond:
		return mulAddChecked(day, secondsPerDay*1_000_000, rescale(tod, per, 1_000_000))
	}
	y, m, _ := civilFromDays(day)
	switch p {
	case DiffMillennium:
		return y / 1000, true
	case DiffCentury:
		return y / 100, true
	case DiffDecade:
		return y / 10, true
	case DiffQuarter:
		return (y*12 + m - 1) / 3, true
	case DiffMonth:
		return y*12 + m, true
	}
	return y, true
}

func mulAddChecked(a, b, c int64) (int64, bool) {
	r, ok := mulChecked(a, b)
	if !ok {
		return 0, false
	}
	s := r + c
	return s, (c >= 0) == (s >= r)
}

// DateDiff counts p's boundaries from a to b (both dates, or both
// timestamps of one unit, stored as in): date_diff(part, a, b). Weeks are
// whole days / 7, toward zero. A count that does not fit i64 is
// errs.ErrOverflow.
func DateDiff(mem memory.Allocator, p DiffPart, in Temporal, a, b datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := a.Len()
	if isNullDatum(a) || isNullDatum(b) {
		return NullResult(ret, n), nil
	}
	per := in.PerSecond
	count := func(va, vb int64) (int64, bool) {
		var da, ta, db, tb int64
		if in.Date {
			da, db = va, vb
		} else {
			da, ta = splitTicks(va, per)
			db, tb = splitTicks(vb, per)
		}
		ka, ok1 := diffKey(p, da, ta, per)
		kb, ok2 := diffKey(p, db, tb, per)
		d := kb - ka
		if !ok1 || !ok2 || (ka < 0) != (kb < 0) && (d < 0) != (kb < 0) {
			return 0, false
		}
		if p == DiffWeek {
			d /= 7
		}
		return d, true
	}
	if in.Date {
		return diffRows(mem, FixedOf[int32](a), FixedOf[int32](b), n, ret, count)
	}
	return diffRows(mem, FixedOf[int64](a), FixedOf[int64](b), n, ret, count)
}

func diffRows[S int32 | int64](mem memory.Allocator, a, b Fixed[S], n int, ret dtype.DType, count func(a, b int64) (int64, bool)) (datum.Datum, error) {
	errDiff := fmt.Errorf("%w: the difference does not fit i64", errs.ErrOverflow)
	if a.IsScalar && b.IsScalar {
		v, ok := count(int64(a.Scalar), int64(b.Scalar))
		if !ok {
			return datum.Datum{}, &RowError{Row: 0, Err: errDiff}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	valid := Bitmap{}
	if validity != nil {
		valid = Bitmap{Buf: validity.Bytes()}
	}
	values, dst := newValues[int64](mem, n)
	for i := range dst {
		v, ok := count(int64(a.At(i)), int64(b.At(i)))
		if !ok && valid.Get(i) {
			releaseAll(values, validity)
			return datum.Datum{}, &RowError{Row: i, Err: errDiff}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// MakeDate is make_date(y, m, d) over integer arguments: a date, or
// errs.ErrInvalidArgument naming the date when there is no such day.
func MakeDate(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if anyNullScalar(args) {
		return NullResult(ret, args[0].Len()), nil
	}
	y, m, d, err := threeInts(args)
	if err != nil {
		return datum.Datum{}, err
	}
	return intRows(mem, args, ret, func(i int) (int32, error) {
		day, err := makeDay(y.get(i), m.get(i), d.get(i))
		return int32(day), err
	})
}

func threeInts(args []datum.Datum) (a, b, c intArg, err error) {
	if a, err = newIntArg(args[0]); err != nil {
		return
	}
	if b, err = newIntArg(args[1]); err != nil {
		return
	}
	c, err = newIntArg(args[2])
	return
}

// maxDateYear bounds the years of make_date so that day numbers fit int32.
const maxDateYear = 5_000_000

func makeDay(y, m, d int64) (int64, error) {
	if m < 1 || m > 12 || d < 1 || y < -maxDateYear || y > maxDateYear || d > daysInMonth(y, m) {
		return 0, fmt.Errorf("%w: date out of range: %d-%d-%d", errs.ErrInvalidArgument, y, m, d)
	}
	return daysFromCivil(y, m, d), nil
}

// MakeTimestamp is make_timestamp(y, m, d, h, mi, s) (integers and an f64
// of seconds) as microseconds: the fraction of s is rounded to a
// microsecond; hour 24 (at 0:00:00) and second 60 carry over, as in
// DuckDB. With one argument it is the microseconds themselves.
func MakeTimestamp(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if len(args) == 1 {
		x := args[0]
		if isNullDatum(x) {
			return NullResult(ret, x.Len()), nil
		}
		return mapUnary(mem, x, ret, func(v int64) int64 { return v }, func(dst, src []int64) { copy(dst, src) }), nil
	}
	if anyNullScalar(args) {
		return NullResult(ret, args[0].Len()), nil
	}
	y, m, d, err := threeInts(args[:3])
	if err != nil {
		return datum.Datum{}, err
	}
	h, err := newIntArg(args[3])
	if err != nil {
		return datum.Datum{}, err
	}
	mi, err := newIntArg(args[4])
	if err != nil {
		return datum.Datum{}, err
	}
	s := FixedOf[float64](args[5])
	return intRows(mem, args, ret, func(i int) (int64, error) {
		day, err := makeDay(y.get(i), m.get(i), d.get(i))
		if err != nil {
			return 0, err
		}
		micros, err := timeOfDay(h.get(i), mi.get(i), s.At(i))
		if err != nil {
			return 0, err
		}
		v, ok := mulAddChecked(day, secondsPerDay*1_000_000, micros)
		if !ok {
			return 0, errOutOfRange
		}
		return v, nil
	})
}

// timeOfDay is the microseconds of h:mi:s, checked as DuckDB checks them.
func timeOfDay(h, mi int64, s float64) (int64, error) {
	secs := math.Trunc(s)
	frac := math.Round((s - secs) * 1e6)
	ok := h >= 0 && h <= 24 && mi >= 0 && mi < 60 && secs >= 0 && secs <= 60 && frac >= 0 && frac <= 1e6
	if ok && h == 24 {
		ok = mi == 0 && secs == 0 && frac == 0
	}
	if !ok {
		return 0, fmt.Errorf("%w: time out of range: %d:%d:%v", errs.ErrInvalidArgument, h, mi, s)
	}
	return ((h*60+mi)*60+int64(secs))*1_000_000 + int64(frac), nil
}

// MaxDateDays is the largest number of days from 1970-01-01 a date may
// be, either way. DuckDB keeps ±2147483647 (and, below, -2147483648) for
// the infinite dates, so date arithmetic that reaches them is out of
// range there: DateInRange holds colexpr to the same range.
const MaxDateDays = math.MaxInt32 - 1

// DateInRange checks the valid values of a date datum (days as int32)
// against ±MaxDateDays; the first past them is a *RowError wrapping
// errs.ErrOverflow.
func DateInRange(d datum.Datum) error {
	bad := func(v int32) bool { return v > MaxDateDays || v < -MaxDateDays }
	if d.IsScalar() {
		s := d.Scalar()
		if !s.IsNull() && bad(int32(s.Value().(int64))) {
			return &RowError{Row: 0, Err: dateRangeError(s.Value().(int64))}
		}
		return nil
	}
	arr := d.Array()
	vals := valuesOf[int32](arr)
	for i, v := range vals {
		if bad(v) && arr.IsValid(i) {
			return &RowError{Row: i, Err: dateRangeError(int64(v))}
		}
	}
	return nil
}

func dateRangeError(days int64) error {
	return fmt.Errorf("%w: date out of range: %d days from 1970-01-01 (dates span ±%d days)", errs.ErrOverflow, days, MaxDateDays)
}
