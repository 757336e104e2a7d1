package eval

import (
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of intervals (fn/interval.go), row at a time:
// calendar moves through Go's time package, sums, products and spans in
// math/big, so that no overflow goes unnoticed.

func init() {
	refFuncs[fn.IDMul] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		switch {
		case v[0].DType().IsInterval() && v[1].DType().IsFloat():
			return refIntervalFloat(t, v[0], v[1].Value().(float64), false)
		case v[1].DType().IsInterval() && v[0].DType().IsFloat():
			return refIntervalFloat(t, v[1], v[0].Value().(float64), false)
		case v[0].DType().IsInterval():
			return refIntervalScale(t, v[0], v[1].Value().(int64))
		case v[1].DType().IsInterval():
			return refIntervalScale(t, v[1], v[0].Value().(int64))
		}
		return refArith(fn.IDMul, v[0], v[1], t)
	}
	refFuncs[fn.IDDiv] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if v[0].DType().IsInterval() {
			return refIntervalFloat(t, v[0], v[1].Value().(float64), true)
		}
		return refArith(fn.IDDiv, v[0], v[1], t)
	}
	refFuncs[fn.IDNeg] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if v[0].DType().IsInterval() {
			return refIntervalScale(t, v[0], -1)
		}
		return refNeg(false, v[0], t)
	}
	for _, f := range []fn.Function{fn.ToMillennia, fn.ToCenturies, fn.ToDecades, fn.ToYears, fn.ToQuarters, fn.ToMonths,
		fn.ToWeeks, fn.ToDays, fn.ToHours, fn.ToMinutes, fn.ToSeconds, fn.ToMilliseconds, fn.ToMicroseconds} {
		unit, err := fn.IntervalOf(f, 1)
		if err != nil {
			panic(err)
		}
		refFuncs[f.ID()] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			return refIntervalScale(t, unit, v[0].Value().(int64))
		}
	}
}

var errRefInterval = &refError{msg: "reference: interval out of range", sentinels: []error{errs.ErrOverflow}}

// refIntervalOf is the interval of big fields, or an overflow.
func refIntervalOf(t dtype.DType, months, days, nanos *big.Int) (scalar.Scalar, error) {
	if !months.IsInt64() || !days.IsInt64() || !nanos.IsInt64() ||
		months.Int64() != int64(int32(months.Int64())) || days.Int64() != int64(int32(days.Int64())) {
		return scalar.Scalar{}, errRefInterval
	}
	return mk(t, arrow.MonthDayNanoInterval{Months: int32(months.Int64()), Days: int32(days.Int64()), Nanoseconds: nanos.Int64()}), nil
}

// refFields are an interval's fields as big integers.
func refFields(s scalar.Scalar) (months, days, nanos *big.Int) {
	v := s.Value().(arrow.MonthDayNanoInterval)
	return big.NewInt(int64(v.Months)), big.NewInt(int64(v.Days)), big.NewInt(v.Nanoseconds)
}

// refIntervalScale is k times the interval s.
func refIntervalScale(t dtype.DType, s scalar.Scalar, k int64) (scalar.Scalar, error) {
	m, d, n := refFields(s)
	bk := big.NewInt(k)
	return refIntervalOf(t, m.Mul(m, bk), d.Mul(d, bk), n.Mul(n, bk))
}

// refIntervalFloat is the interval s times f (over f when divide), by
// PostgreSQL's interval_mul and interval_div, which DuckDB follows: each
// step a float operation, the remainders rounded to a millionth (of a day,
// of a second), the time to the microsecond, half to even.
func refIntervalFloat(t dtype.DType, s scalar.Scalar, f float64, divide bool) (scalar.Scalar, error) {
	if divide && f == 0 {
		return scalar.Scalar{}, &refError{msg: "reference: interval / 0", sentinels: []error{errs.ErrDivideByZero}}
	}
	v := s.Value().(arrow.MonthDayNanoInterval)
	op := func(x float64) float64 {
		if divide {
			return x / f
		}
		return x * f
	}
	tsRound := func(x float64) float64 { return math.RoundToEven(x*1e6) / 1e6 }
	monthF, dayF := op(float64(v.Months)), op(float64(v.Days))
	if math.IsNaN(monthF) || math.IsNaN(dayF) || math.Abs(monthF) >= 1<<31 || math.Abs(dayF) >= 1<<31 {
		return scalar.Scalar{}, errRefInterval
	}
	month, day := math.Trunc(monthF), math.Trunc(dayF)
	monthRemainderDays := tsRound((monthF - month) * 30)
	secRemainder := tsRound((dayF - day + monthRemainderDays - math.Trunc(monthRemainderDays)) * 86400)
	if math.Abs(secRemainder) >= 86400 {
		day += math.Trunc(secRemainder / 86400)
		secRemainder -= math.Trunc(secRemainder/86400) * 86400
	}
	day += math.Trunc(monthRemainderDays)
	micros := math.RoundToEven(op(float64(v.Nanoseconds)/1000) + secRemainder*1e6)
	if math.IsNaN(micros) || math.Abs(micros) >= math.MaxInt64/1000 {
		return scalar.Scalar{}, errRefInterval
	}
	nanos := new(big.Int).Mul(big.NewInt(int64(micros)), big.NewInt(1000))
	return refIntervalOf(t, big.NewInt(int64(month)), big.NewInt(int64(day)), nanos)
}

// refIntervalArith is a ± b where an interval is involved, or the
// difference of two timestamps; handled is false otherwise.
func refIntervalArith(id string, t dtype.DType, a, b scalar.Scalar) (r scalar.Scalar, handled bool, err error) {
	at, bt := a.DType(), b.DType()
	isTS := func(t dtype.DType) bool { return t.IsTemporal() && t.ExtID() == dtype.ExtTimestamp }
	switch {
	case at.IsInterval() && bt.IsInterval():
		m1, d1, n1 := refFields(a)
		m2, d2, n2 := refFields(b)
		if id == fn.IDSub {
			m2.Neg(m2)
			d2.Neg(d2)
			n2.Neg(n2)
		}
		r, err = refIntervalOf(t, m1.Add(m1, m2), d1.Add(d1, d2), n1.Add(n1, n2))
		return r, true, err
	case isTS(at) && isTS(bt):
		per := big.NewInt(at.Unit().PerSecond())
		diff := new(big.Int).Sub(big.NewInt(a.Value().(int64)), big.NewInt(b.Value().(int64)))
		perDay := new(big.Int).Mul(per, big.NewInt(86400))
		days, rest := new(big.Int).QuoRem(diff, perDay, new(big.Int)) // truncated: both keep the sign
		nanos := rest.Mul(rest, big.NewInt(1e9))
		nanos.Quo(nanos, per)
		r, err = refIntervalOf(t, big.NewInt(0), days, nanos)
		return r, true, err
	case bt.IsInterval():
		r, err = refShift(t, a, b, id == fn.IDSub)
		return r, true, err
	case at.IsInterval():
		r, err = refShift(t, b, a, false)
		return r, true, err
	}
	return scalar.Scalar{}, false, nil
}

// refShift moves the date or timestamp x by the interval iv (back when
// sub): the months with the day clamped to the month's last, then the days,
// then the time, through Go's calendar.
func refShift(t dtype.DType, x, iv scalar.Scalar, sub bool) (scalar.Scalar, error) {
	v := iv.Value().(arrow.MonthDayNanoInterval)
	months, days, nanos := int64(v.Months), int64(v.Days), new(big.Int).SetInt64(v.Nanoseconds)
	if sub {
		months, days = -months, -days
		nanos.Neg(nanos)
	}
	tm := refTime(x)
	y, m, d := tm.Date()
	first := time.Date(y, m, 1, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC).AddDate(0, int(months), 0)
	last := time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	moved := first.AddDate(0, 0, min(d, last)-1+int(days))
	// The instant in nanoseconds since the epoch, then in ticks of t's unit.
	ns := new(big.Int).Mul(big.NewInt(moved.Unix()), big.NewInt(1e9))
	ns.Add(ns, big.NewInt(int64(moved.Nanosecond())))
	ns.Add(ns, nanos)
	ticks := ns.Quo(ns, big.NewInt(1e9/t.Unit().PerSecond())) // toward zero, as the kernel drops sub-tick nanoseconds
	if !ticks.IsInt64() {
		return scalar.Scalar{}, &refError{msg: "reference: timestamp out of range", sentinels: []error{errs.ErrOverflow}}
	}
	return mk(t, ticks.Int64()), nil
}

// refIntervalPart is date_part(p, iv) as DuckDB defines it on intervals.
func refIntervalPart(p fn.DatePart, t dtype.DType, s scalar.Scalar) scalar.Scalar {
	v := s.Value().(arrow.MonthDayNanoInterval)
	months, ns := int64(v.Months), v.Nanoseconds
	const minute, hour = int64(60e9), int64(3600e9)
	var r int64
	switch p {
	case fn.PartYear:
		r = months / 12
	case fn.PartQuarter:
		r = months%12/3 + 1
	case fn.PartMonth:
		r = months % 12
	case fn.PartDay:
		r = int64(v.Days)
	case fn.PartDecade:
		r = months / 12 / 10
	case fn.PartCentury:
		r = months / 12 / 100
	case fn.PartMillennium:
		r = months / 12 / 1000
	case fn.PartHour:
		r = ns / hour
	case fn.PartMinute:
		r = ns % hour / minute
	case fn.PartSecond:
		r = ns % minute / 1e9
	case fn.PartMillisecond:
		r = ns % minute / 1e6
	case fn.PartMicrosecond:
		r = ns % minute / 1e3
	case fn.PartEpoch:
		// A year of 365.25 days, a month of the year 30, a day 86400 s.
		secs := float64(months/12)*365.25*86400 + float64(months%12*30*86400) + float64(int64(v.Days)*86400)
		return mk(t, secs+float64(ns/1000)/1e6+float64(ns%1000)/1e9)
	default:
		panic(fmt.Sprintf("reference: interval part %s", p))
	}
	return mk(t, r)
}

// refIntervalOrder orders intervals by their span, a month taken as 30
// days and a day as 24 hours.
func refIntervalOrder(a, b scalar.Scalar) int {
	span := func(s scalar.Scalar) *big.Int {
		m, d, n := refFields(s)
		days := m.Mul(m, big.NewInt(30))
		days.Add(days, d)
		return days.Mul(days, big.NewInt(86400e9)).Add(days, n)
	}
	return span(a).Cmp(span(b))
}

// intervalCall is an expression of type t that involves intervals, or nil
// when none gives t: a part or the epoch of an interval (i64, f64), an
// interval comparison cast to i64, or a part of a date or timestamp moved
// by an interval.
func (g *gen) intervalCall(t dtype.DType, depth int) *expr.Bound {
	text := func(s string) *expr.Bound { return expr.NewLiteral(scalar.String(s)) }
	switch {
	case t.IsInt() && t.PType() == dtype.I64:
		switch g.intn(4) {
		case 0:
			part := []string{"year", "quarter", "month", "day", "decade", "century", "millennium", "hour", "minute", "second", "ms", "us"}[g.intn(12)]
			return g.call(fn.DatePartFn, text(part), g.intervalExpr(depth))
		case 1:
			op := []fn.Function{fn.Eq, fn.Lt, fn.GtEq, fn.NotEq}[g.intn(4)]
			return g.call(fn.Cast(t.AsNonNullable()), g.call(op, g.intervalExpr(depth), g.intervalExpr(depth)))
		case 2:
			return g.call(fn.DatePartFn, text([]string{"year", "month", "day", "hour", "minute", "second"}[g.intn(6)]), g.shiftedExpr(depth))
		}
		return g.call(fn.Shorthands[[]fn.DatePart{fn.PartYear, fn.PartMonth, fn.PartDay, fn.PartHour}[g.intn(4)]], g.intervalExpr(depth))
	case t.IsFloat() && t.PType() == dtype.F64:
		if g.chance(0.5) {
			return g.call(fn.Shorthands[fn.PartEpoch], g.shiftedExpr(depth))
		}
		return g.call(fn.DatePartFn, text("epoch"), g.intervalExpr(depth))
	}
	return nil
}

// shiftedExpr is a date or timestamp moved by an interval.
func (g *gen) shiftedExpr(depth int) *expr.Bound {
	d := g.expr(dtype.Date(true), depth)
	if g.chance(0.5) {
		d = g.call(fn.DateTrunc, expr.NewLiteral(scalar.String("month")), d) // a timestamp
	}
	iv := g.intervalExpr(depth)
	switch g.intn(3) {
	case 0:
		return g.call(fn.Add, iv, d)
	case 1:
		return g.call(fn.Sub, d, iv)
	}
	return g.call(fn.Add, d, iv)
}

// intervalExpr is an expression of type interval: a literal, to_* of an
// integer, the difference of two timestamps, or arithmetic of intervals.
func (g *gen) intervalExpr(depth int) *expr.Bound {
	i64 := dtype.Primitive(dtype.I64, true)
	if depth <= 0 || g.chance(0.3) {
		if g.chance(0.1) {
			return expr.NewLiteral(scalar.Null(dtype.Interval(true)))
		}
		texts := []string{"1 month", "30 days", "1 day", "24 hours", "-1 year 2 months", "1 day -02:00:00", "00:00:00.5",
			"2 years 3 months 4 days 05:06:07", "-15 days", "00:00:00", "178956970 years", "-2147483648 days", "2562047:00:00"}
		v, err := scalar.Cast(scalar.String(texts[g.intn(len(texts))]), dtype.Interval(false))
		if err != nil {
			panic(err)
		}
		return expr.NewLiteral(v)
	}
	tos := []fn.Function{fn.ToMillennia, fn.ToCenturies, fn.ToDecades, fn.ToYears, fn.ToQuarters, fn.ToMonths,
		fn.ToWeeks, fn.ToDays, fn.ToHours, fn.ToMinutes, fn.ToSeconds, fn.ToMilliseconds, fn.ToMicroseconds}
	switch g.intn(6) {
	case 0:
		return g.call(tos[g.intn(len(tos))], g.expr(i64, depth-1))
	case 1:
		ts := func() *expr.Bound {
			return g.call(fn.DateTrunc, expr.NewLiteral(scalar.String([]string{"year", "month", "day"}[g.intn(3)])), g.expr(dtype.Date(true), depth-1))
		}
		return g.call(fn.Sub, ts(), ts())
	case 2:
		return g.call([]fn.Function{fn.Add, fn.Sub}[g.intn(2)], g.intervalExpr(depth-1), g.intervalExpr(depth-1))
	case 3:
		if g.chance(0.3) {
			// Scaled by an f64: a fraction, or any f64 of the generator.
			f64 := dtype.Primitive(dtype.F64, true)
			x := expr.NewLiteral(scalar.Float64([]float64{1.5, 0.1, -0.5, 1.0 / 7, 3, 0, 1e-300}[g.intn(7)]))
			if g.chance(0.3) {
				x = g.expr(f64, depth-1)
			}
			switch g.intn(3) {
			case 0:
				return g.call(fn.Div, g.intervalExpr(depth-1), x)
			case 1:
				return g.call(fn.Mul, x, g.intervalExpr(depth-1))
			}
			return g.call(fn.Mul, g.intervalExpr(depth-1), x)
		}
		if g.chance(0.5) {
			return g.call(fn.Mul, g.intervalExpr(depth-1), g.expr(i64, depth-1))
		}
		return g.call(fn.Mul, g.expr(i64, depth-1), g.intervalExpr(depth-1))
	case 4:
		return g.call(fn.Neg, g.intervalExpr(depth-1))
	}
	return g.call(tos[g.intn(len(tos))], expr.NewLiteral(scalar.Int64(int64(g.intn(100)-50))))
}
