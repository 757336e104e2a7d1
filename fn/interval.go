package fn

import (
	"fmt"
	"math"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/interval"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// The interval arithmetic and functions, typed as DuckDB types them
// (checked against DuckDB 1.5). An interval counts months, days and
// nanoseconds apart (see dtype.Interval):
//
//	date ± interval         a timestamp(us): the months move the date (the
//	interval + date         day clamped to the month's end: 2024-01-31 +
//	                        1 month is 2024-02-29), then the days, then
//	                        the time
//	timestamp ± interval    a timestamp of the same zone, in microseconds
//	interval + timestamp    or finer (a timestamp(s) or (ms) is taken in
//	                        microseconds, as DuckDB's TIMESTAMP; a
//	                        timestamp(ns) keeps its nanoseconds)
//	timestamp - timestamp   an interval of whole days and the time left,
//	                        both with the difference's sign (a date beside
//	                        a timestamp is its midnight); date - date stays
//	                        the i64 number of days
//	interval ± interval     an interval, field by field
//	interval * i64          an interval, each field multiplied
//	i64 * interval
//	interval * f64          an interval scaled as DuckDB scales it (after
//	f64 * interval          PostgreSQL): months and days scaled and
//	interval / f64          truncated, a month's fraction carried down as
//	                        days of 30 and a day's as seconds (each rounded
//	                        to a millionth), the time rounded half to even
//	                        to whole microseconds; / 0 is an error (coerce
//	                        makes an integer divisor and a decimal or f32
//	                        factor an f64)
//	-interval               each field negated
//
// Every field that leaves its range (months and days i32, nanoseconds i64)
// and every timestamp that leaves the timestamp's is an error. Intervals
// compare (=, <, BETWEEN, IN, …) by the span they cover, a month taken as
// 30 days and a day as 24 hours, as DuckDB compares them.
//
//	to_years(n), to_months(n), …   n units as an interval, n an i64 (a
//	                               fraction rounds, as DuckDB's cast does):
//	                               to_millennia, to_centuries, to_decades,
//	                               to_years, to_quarters, to_months,
//	                               to_weeks, to_days, to_hours, to_minutes,
//	                               to_seconds, to_milliseconds,
//	                               to_microseconds
//
// INTERVAL (x) DAY in the text syntax is to_days(x). date_part and its
// shorthands take an interval for the parts year, quarter, month, day,
// decade, century, millennium, hour, minute, second, millisecond,
// microsecond and epoch (seconds, with a year of 365.25 days and a month
// of 30).
var (
	ToMillennia    Function = toInterval{simple{IDToMillennia}, 12000, 0, 0}
	ToCenturies    Function = toInterval{simple{IDToCenturies}, 1200, 0, 0}
	ToDecades      Function = toInterval{simple{IDToDecades}, 120, 0, 0}
	ToYears        Function = toInterval{simple{IDToYears}, 12, 0, 0}
	ToQuarters     Function = toInterval{simple{IDToQuarters}, 3, 0, 0}
	ToMonths       Function = toInterval{simple{IDToMonths}, 1, 0, 0}
	ToWeeks        Function = toInterval{simple{IDToWeeks}, 0, 7, 0}
	ToDays         Function = toInterval{simple{IDToDays}, 0, 1, 0}
	ToHours        Function = toInterval{simple{IDToHours}, 0, 0, interval.NanosPerHour}
	ToMinutes      Function = toInterval{simple{IDToMinutes}, 0, 0, interval.NanosPerMinute}
	ToSeconds      Function = toInterval{simple{IDToSeconds}, 0, 0, interval.NanosPerSecond}
	ToMilliseconds Function = toInterval{simple{IDToMilliseconds}, 0, 0, interval.NanosPerMilli}
	ToMicroseconds Function = toInterval{simple{IDToMicroseconds}, 0, 0, interval.NanosPerMicro}
)

// The ids of the interval functions.
const (
	IDToMillennia    = "to_millennia"
	IDToCenturies    = "to_centuries"
	IDToDecades      = "to_decades"
	IDToYears        = "to_years"
	IDToQuarters     = "to_quarters"
	IDToMonths       = "to_months"
	IDToWeeks        = "to_weeks"
	IDToDays         = "to_days"
	IDToHours        = "to_hours"
	IDToMinutes      = "to_minutes"
	IDToSeconds      = "to_seconds"
	IDToMilliseconds = "to_milliseconds"
	IDToMicroseconds = "to_microseconds"
)

// IntervalUnit is the to_* function of a unit that INTERVAL n UNIT names
// (YEAR, MONTHS, DAY, HOURS, …; singular or plural, any case), and false
// for a word that is none.
func IntervalUnit(word string) (Function, bool) {
	f, ok := intervalUnits[lowerASCII(word)]
	return f, ok
}

var intervalUnits = map[string]Function{
	"millennium": ToMillennia, "millennia": ToMillennia, "millenniums": ToMillennia,
	"century": ToCenturies, "centuries": ToCenturies,
	"decade": ToDecades, "decades": ToDecades,
	"year": ToYears, "years": ToYears,
	"quarter": ToQuarters, "quarters": ToQuarters,
	"month": ToMonths, "months": ToMonths,
	"week": ToWeeks, "weeks": ToWeeks,
	"day": ToDays, "days": ToDays,
	"hour": ToHours, "hours": ToHours,
	"minute": ToMinutes, "minutes": ToMinutes,
	"second": ToSeconds, "seconds": ToSeconds,
	"millisecond": ToMilliseconds, "milliseconds": ToMilliseconds,
	"microsecond": ToMicroseconds, "microseconds": ToMicroseconds,
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Unit is what one unit of a to_* function is: months, days and
// nanoseconds, one of them not zero.
func (t toInterval) Unit() (months, days, nanos int64) { return t.months, t.days, t.nanos }

// toInterval is to_days(n) and its siblings.
type toInterval struct {
	simple
	months, days, nanos int64
}

func (toInterval) Arity() Arity { return Exactly(1) }

// Fallible: n units may not fit the interval's field.
func (toInterval) Fallible() bool { return true }

// ArgTypes: a number or a null is i64 (a fraction rounds, as DuckDB casts
// to_days(2.7) to 3 days).
func (toInterval) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for i, a := range args {
		if a.IsNull() || a.IsNumeric() {
			out[i] = i64T
		}
	}
	return out
}

// IntervalOf is n units of the interval a to_* function makes (IntervalUnit
// finds it by name): INTERVAL 5 DAY is IntervalOf(ToDays, 5). It is an
// error when unit is no such function or n units do not fit an interval.
func IntervalOf(unit Function, n int64) (scalar.Scalar, error) {
	t, ok := unit.(toInterval)
	if !ok {
		return scalar.Scalar{}, fmt.Errorf("%s is not an interval unit (to_days, to_months, …)", unit.ID())
	}
	m, ok1 := mulInt64(t.months, n)
	d, ok2 := mulInt64(t.days, n)
	ns, ok3 := mulInt64(t.nanos, n)
	if !ok1 || !ok2 || !ok3 || m != int64(int32(m)) || d != int64(int32(d)) {
		return scalar.Scalar{}, fmt.Errorf("%w: %d units of %s do not fit an interval (months and days are i32, its time ±2562047 hours)", errs.ErrOverflow, n, t.id)
	}
	return scalar.New(dtype.Interval(false), interval.Value{Months: int32(m), Days: int32(d), Nanoseconds: ns})
}

// mulInt64 is a * b, and false when it overflows.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

func (t toInterval) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantTypes(t, args, i64T); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Interval(args[0].Nullable()), nil
}

func isTimestamp(t dtype.DType) bool { return t.IsTemporal() && t.ExtID() == dtype.ExtTimestamp }

// involvesInterval reports whether l op r is interval arithmetic: an
// interval operand, or the difference of two timestamps.
func involvesInterval(op byte, l, r dtype.DType) bool {
	return l.IsInterval() || r.IsInterval() || op == '-' && isTimestamp(l) && isTimestamp(r)
}

// intervalArith types the arithmetic of intervals (see the table above).
func intervalArith(a arith, l, r dtype.DType, nullable bool) (dtype.DType, error) {
	i64 := func(t dtype.DType) bool { return t.IsInt() && t.PType() == dtype.I64 }
	f64 := func(t dtype.DType) bool { return t.IsFloat() && t.PType() == dtype.F64 }
	switch {
	case (a.op == '+' || a.op == '-') && l.IsInterval() && r.IsInterval():
		return dtype.Interval(nullable), nil
	case a.op == '-' && isTimestamp(l) && isTimestamp(r):
		if !l.EqualIgnoreNullability(r) {
			return dtype.DType{}, argErr(a, 1, "has type %s, want %s like argument 1 (cast one of them)", r, l.AsNonNullable())
		}
		return dtype.Interval(nullable), nil
	case (a.op == '+' || a.op == '-') && r.IsInterval() && (isDate(l) || isTimestamp(l)):
		return shiftedType(l, nullable), nil
	case a.op == '+' && l.IsInterval() && (isDate(r) || isTimestamp(r)):
		return shiftedType(r, nullable), nil
	case a.op == '*' && (l.IsInterval() && i64(r) || i64(l) && r.IsInterval()):
		return dtype.Interval(nullable), nil
	case a.op == '*' && (l.IsInterval() && f64(r) || f64(l) && r.IsInterval()),
		a.op == '/' && l.IsInterval() && f64(r):
		return dtype.Interval(nullable), nil
	}
	iv := 0
	if !l.IsInterval() {
		iv = 1
	}
	other := [2]dtype.DType{l, r}[1-iv]
	switch {
	case !l.IsInterval() && !r.IsInterval():
		return dtype.DType{}, argErr(a, 0, "has type %s, which %s does not take beside %s", l, a.id, r)
	case a.op == '*':
		return dtype.DType{}, argErr(a, 1-iv, "has type %s, want i64 or f64 (an interval is multiplied by a number)", other)
	case a.op == '/' && iv == 0:
		return dtype.DType{}, argErr(a, 1, "has type %s, want f64 (an interval is divided by a number)", other)
	case a.op == '+' || a.op == '-' && iv == 1:
		return dtype.DType{}, argErr(a, 1-iv, "has type %s, want an interval, a date or a timestamp beside an interval", other)
	case a.op == '-':
		return dtype.DType{}, argErr(a, 1, "has type %s, want an interval (from an interval, only an interval is subtracted)", other)
	}
	i := iv
	return dtype.DType{}, argErr(a, i, "has type interval, which %s does not take (intervals take +, -, and * and / by a number)", a.id)
}

// shiftedType is the type of a date or timestamp t moved by an interval: a
// timestamp in microseconds or finer, t's zone kept.
func shiftedType(t dtype.DType, nullable bool) dtype.DType {
	if isDate(t) {
		return dtype.Timestamp(dtype.Micro, "", nullable)
	}
	return dtype.Timestamp(max(t.Unit(), dtype.Micro), t.TZ(), nullable)
}

// isIntervalPart reports whether p is a part of an interval.
func isIntervalPart(p DatePart) bool { return kernels.IntervalPartOK(kernels.Part(p)) }
