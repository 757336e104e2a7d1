package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of the date and time functions (fn/temporal.go),
// row at a time through Go's time package: its calendar is the proleptic
// Gregorian one with a year 0, as DuckDB's is.

func init() {
	for i, f := range fn.Shorthands {
		p := fn.DatePart(i)
		refFuncs[f.ID()] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			if v[0].DType().IsInterval() {
				return refIntervalPart(p, t, v[0]), nil
			}
			return refPart(p, t, v[0]), nil
		}
	}
	refFuncs[fn.IDDatePart] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		p, ok := fn.ParseDatePart(v[0].Value().(string))
		if !ok {
			return scalar.Scalar{}, fmt.Errorf("reference: part %v", v[0])
		}
		if v[1].DType().IsInterval() {
			return refIntervalPart(p, t, v[1]), nil
		}
		return refPart(p, t, v[1]), nil
	}
	refFuncs[fn.IDDateTrunc] = refTrunc
	refFuncs[fn.IDDateDiff] = refDiff
	refFuncs[fn.IDLastDay] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		tm := refTime(v[0])
		y, m, _ := tm.Date()
		day := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Unix() / 86400
		if day > math.MaxInt32 || day < math.MinInt32 {
			return scalar.Scalar{}, &refError{msg: "reference: date out of range", sentinels: []error{errs.ErrOverflow}}
		}
		return mk(t, day), nil
	}
	refFuncs[fn.IDMakeDate] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		day, err := refDay(v[0].Value().(int64), v[1].Value().(int64), v[2].Value().(int64))
		if err != nil {
			return scalar.Scalar{}, err
		}
		return mk(t, day), nil
	}
	refFuncs[fn.IDMakeTimestamp] = refMakeTimestamp
	// + and - of dates; other operands go to refArith.
	for _, id := range []string{fn.IDAdd, fn.IDSub} {
		refFuncs[id] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			a, b := v[0], v[1]
			if r, handled, err := refIntervalArith(id, t, a, b); handled {
				return r, err // reference_interval_test.go
			}
			isDate := func(s scalar.Scalar) bool { return s.DType().ExtID() == dtype.ExtDate && s.DType().IsTemporal() }
			if !isDate(a) && !isDate(b) {
				return refArith(id, a, b, t)
			}
			x, y := a.Value().(int64), b.Value().(int64)
			if isDate(a) && isDate(b) {
				return mk(t, x-y), nil // days apart; dates are i32, so no overflow
			}
			r := x + y
			if id == fn.IDSub {
				r = x - y
			}
			if r > kernels.MaxDateDays || r < -kernels.MaxDateDays {
				return scalar.Scalar{}, &refError{msg: "reference: date out of range", sentinels: []error{errs.ErrOverflow}}
			}
			return mk(t, r), nil
		}
	}
	refFuncs[fn.IDStrftime] = refStrftime
	refFuncs[fn.IDStrptime] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if f := v[1].Value().(string); f != "%Y-%m-%d" && f != "%Y-%m-%d %H:%M:%S" {
			return scalar.Scalar{}, fmt.Errorf("reference: strptime format %q", f)
		}
		// DuckDB's %Y reads one to four digits, without a sign.
		if y, _, _ := strings.Cut(strings.TrimSpace(v[0].Value().(string)), "-"); len(y) > 4 || y == "" {
			return scalar.Scalar{}, &refError{msg: "reference: strptime year " + y, sentinels: []error{errs.ErrInvalidArgument}}
		}
		r, err := scalar.Cast(v[0], t.AsNonNullable())
		if err != nil {
			return scalar.Scalar{}, &refError{msg: err.Error(), sentinels: []error{errs.ErrInvalidArgument}}
		}
		return r.WithDType(t), nil
	}
}

// refTime is a date or timestamp as a Go time in UTC.
func refTime(s scalar.Scalar) time.Time {
	v := s.Value().(int64)
	t := s.DType()
	if t.ExtID() == dtype.ExtDate {
		return time.Unix(v*86400, 0).UTC()
	}
	switch t.Unit() {
	case dtype.Second:
		return time.Unix(v, 0).UTC()
	case dtype.Milli:
		return time.UnixMilli(v).UTC()
	case dtype.Micro:
		return time.UnixMicro(v).UTC()
	}
	return time.Unix(0, v).UTC()
}

// refTicks is tm as ticks of unit u, or an overflow.
func refTicks(tm time.Time, u dtype.TimeUnit) (int64, error) {
	secs := tm.Unix()
	per := u.PerSecond()
	if secs > math.MaxInt64/per-1 || secs < math.MinInt64/per+1 {
		return 0, &refError{msg: "reference: timestamp out of range", sentinels: []error{errs.ErrOverflow}}
	}
	return secs*per + int64(tm.Nanosecond())/(1e9/per), nil
}

func refPart(p fn.DatePart, t dtype.DType, x scalar.Scalar) scalar.Scalar {
	tm := refTime(x)
	y := int64(tm.Year())
	iy, iw := tm.ISOWeek()
	var v int64
	switch p {
	case fn.PartEpoch:
		if x.DType().ExtID() == dtype.ExtDate {
			return mk(t, float64(tm.Unix()))
		}
		return mk(t, float64(x.Value().(int64))/float64(x.DType().Unit().PerSecond()))
	case fn.PartYear:
		v = y
	case fn.PartQuarter:
		v = int64(tm.Month()+2) / 3
	case fn.PartMonth:
		v = int64(tm.Month())
	case fn.PartDay:
		v = int64(tm.Day())
	case fn.PartDayOfWeek:
		v = int64(tm.Weekday())
	case fn.PartISODayOfWeek:
		v = int64(tm.Weekday())
		if v == 0 {
			v = 7
		}
	case fn.PartDayOfYear:
		v = int64(tm.YearDay())
	case fn.PartWeek:
		v = int64(iw)
	case fn.PartISOYear:
		v = int64(iy)
	case fn.PartYearWeek:
		v = int64(iy)*100 + int64(iw)
		if iy < 0 {
			v = int64(iy)*100 - int64(iw)
		}
	case fn.PartDecade:
		v = y / 10
	case fn.PartCentury:
		if y > 0 {
			v = (y + 99) / 100
		} else {
			v = y/100 - 1
		}
	case fn.PartMillennium:
		if y > 0 {
			v = (y + 999) / 1000
		} else {
			v = y/1000 - 1
		}
	case fn.PartEra:
		if y > 0 {
			v = 1
		}
	case fn.PartHour:
		v = int64(tm.Hour())
	case fn.PartMinute:
		v = int64(tm.Minute())
	case fn.PartSecond:
		v = int64(tm.Second())
	case fn.PartMillisecond:
		v = int64(tm.Second())*1000 + int64(tm.Nanosecond())/1e6
	case fn.PartMicrosecond:
		v = int64(tm.Second())*1e6 + int64(tm.Nanosecond())/1e3
	}
	return mk(t, v)
}

func refTrunc(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	p, _ := fn.ParseDatePart(v[0].Value().(string))
	tm := refTime(v[1])
	y, m, d := tm.Date()
	midnight := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	var r time.Time
	switch p {
	case fn.PartMillennium:
		r = midnight(y/1000*1000, 1, 1)
	case fn.PartCentury:
		r = midnight(y/100*100, 1, 1)
	case fn.PartDecade:
		r = midnight(y/10*10, 1, 1)
	case fn.PartYear:
		r = midnight(y, 1, 1)
	case fn.PartQuarter:
		r = midnight(y, (m-1)/3*3+1, 1)
	case fn.PartMonth:
		r = midnight(y, m, 1)
	case fn.PartWeek:
		r = midnight(y, m, d-(int(tm.Weekday())+6)%7)
	case fn.PartISOYear:
		iy, _ := tm.ISOWeek()
		jan4 := midnight(iy, 1, 4)
		r = jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	case fn.PartDay:
		r = midnight(y, m, d)
	case fn.PartHour:
		r = midnight(y, m, d).Add(time.Duration(tm.Hour()) * time.Hour)
	case fn.PartMinute:
		r = midnight(y, m, d).Add(time.Duration(tm.Hour())*time.Hour + time.Duration(tm.Minute())*time.Minute)
	default:
		return scalar.Scalar{}, fmt.Errorf("reference: date_trunc to %s", p)
	}
	ticks, err := refTicks(r, t.Unit())
	if err != nil {
		return scalar.Scalar{}, err
	}
	return mk(t, ticks), nil
}

func refDiff(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	p, _ := fn.ParseDatePart(v[0].Value().(string))
	a, b := refTime(v[1]), refTime(v[2])
	days := func(tm time.Time) int64 {
		return time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
	}
	floorDiv := func(x, y int64) int64 {
		q := x / y
		if x%y != 0 && x < 0 {
			q--
		}
		return q
	}
	ya, yb := int64(a.Year()), int64(b.Year())
	var r int64
	switch p {
	case fn.PartYear:
		r = yb - ya
	case fn.PartMonth:
		r = yb*12 + int64(b.Month()) - ya*12 - int64(a.Month())
	case fn.PartQuarter:
		r = (yb*12+int64(b.Month())-1)/3 - (ya*12+int64(a.Month())-1)/3
	case fn.PartDecade:
		r = yb/10 - ya/10
	case fn.PartDay, fn.PartDayOfWeek, fn.PartDayOfYear, fn.PartISODayOfWeek:
		r = days(b) - days(a)
	case fn.PartWeek:
		r = (days(b) - days(a)) / 7
	case fn.PartHour:
		r = floorDiv(b.Unix(), 3600) - floorDiv(a.Unix(), 3600)
	case fn.PartMinute:
		r = floorDiv(b.Unix(), 60) - floorDiv(a.Unix(), 60)
	case fn.PartSecond:
		r = b.Unix() - a.Unix()
	default:
		return scalar.Scalar{}, fmt.Errorf("reference: date_diff of %s", p)
	}
	return mk(t, r), nil
}

// refDay is the day number of y-m-d, or an invalid-argument error.
func refDay(y, m, d int64) (int64, error) {
	if y < -5_000_000 || y > 5_000_000 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, &refError{msg: "reference: no such date", sentinels: []error{errs.ErrInvalidArgument}}
	}
	tm := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if tm.Day() != int(d) {
		return 0, &refError{msg: "reference: no such date", sentinels: []error{errs.ErrInvalidArgument}}
	}
	return tm.Unix() / 86400, nil
}

func refMakeTimestamp(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	if len(v) == 1 {
		return mk(t, v[0].Value().(int64)), nil
	}
	day, err := refDay(v[0].Value().(int64), v[1].Value().(int64), v[2].Value().(int64))
	if err != nil {
		return scalar.Scalar{}, err
	}
	h, mi, s := v[3].Value().(int64), v[4].Value().(int64), v[5].Value().(float64)
	whole := math.Trunc(s)
	frac := math.Round((s - whole) * 1e6)
	if h < 0 || h > 24 || mi < 0 || mi > 59 || !(whole >= 0 && whole <= 60) || frac < 0 || h == 24 && (mi != 0 || whole != 0 || frac != 0) {
		return scalar.Scalar{}, &refError{msg: "reference: no such time", sentinels: []error{errs.ErrInvalidArgument}}
	}
	micros := ((h*60+mi)*60+int64(whole))*1e6 + int64(frac)
	if day > math.MaxInt64/86_400_000_000-1 || day < math.MinInt64/86_400_000_000+1 {
		return scalar.Scalar{}, &refError{msg: "reference: out of range", sentinels: []error{errs.ErrOverflow}}
	}
	return mk(t, day*86400e6+micros), nil
}

// refFormats are the strftime formats the generator writes.
var refFormats = []string{"%Y-%m-%d", "%d/%m/%y %H:%M:%S", "%a %-d %B %Y", "%j %w %u %V %G", "%I %p %f", "%Y-%m-%d %H:%M:%S"}

func refStrftime(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	tm := refTime(v[0])
	year := func(y int) string {
		if y < 0 {
			return strconv.Itoa(y)
		}
		return fmt.Sprintf("%04d", y)
	}
	iy, iw := tm.ISOWeek()
	h12 := tm.Hour() % 12
	if h12 == 0 {
		h12 = 12
	}
	ampm := "AM"
	if tm.Hour() >= 12 {
		ampm = "PM"
	}
	y2 := tm.Year() % 100
	if y2 < 0 {
		y2 = -y2
	}
	iso := int(tm.Weekday())
	if iso == 0 {
		iso = 7
	}
	r := strings.NewReplacer(
		"%Y", year(tm.Year()), "%m", fmt.Sprintf("%02d", tm.Month()), "%d", fmt.Sprintf("%02d", tm.Day()),
		"%y", fmt.Sprintf("%02d", y2), "%H", fmt.Sprintf("%02d", tm.Hour()), "%M", fmt.Sprintf("%02d", tm.Minute()),
		"%S", fmt.Sprintf("%02d", tm.Second()), "%a", tm.Weekday().String()[:3], "%-d", strconv.Itoa(tm.Day()),
		"%B", tm.Month().String(), "%j", fmt.Sprintf("%03d", tm.YearDay()), "%w", strconv.Itoa(int(tm.Weekday())),
		"%u", strconv.Itoa(iso), "%V", fmt.Sprintf("%02d", iw), "%G", year(iy), "%I", fmt.Sprintf("%02d", h12),
		"%p", ampm, "%f", fmt.Sprintf("%06d", tm.Nanosecond()/1000),
	)
	return mk(t, r.Replace(v[1].Value().(string))), nil
}

// temporalCall is a call of a date and time function of type t, or nil
// when none gives t: the parts (i64, f64), date_diff (i64), last_day and
// make_date (date), strftime (utf8), and date_trunc and strptime inside
// them.
func (g *gen) temporalCall(t dtype.DType, depth int) *expr.Bound {
	if g.chance(0.5) {
		if b := g.intervalCall(t, depth); b != nil {
			return b // reference_interval_test.go
		}
	}
	date := dtype.Date(true)
	text := func(s string) *expr.Bound { return expr.NewLiteral(scalar.String(s)) }
	// A date or timestamp: a date, date_trunc of one, or strptime of a
	// date's text.
	when := func() *expr.Bound {
		d := g.expr(date, depth)
		switch g.intn(4) {
		case 0:
			return g.call(fn.DateTrunc, text([]string{"year", "month", "week", "day", "hour", "quarter", "decade", "isoyear"}[g.intn(8)]), d)
		case 1:
			f := []string{"%Y-%m-%d", "%Y-%m-%d %H:%M:%S"}[g.intn(2)]
			return g.call(fn.Strptime, g.call(fn.Strftime, d, text(f)), text(f))
		}
		return d
	}
	switch {
	case t.IsInt() && t.PType() == dtype.I64:
		switch g.intn(4) {
		case 3:
			return g.call(fn.Sub, g.expr(date, depth), g.expr(date, depth))
		case 0:
			f := fn.Shorthands[g.intn(int(fn.PartEpoch))]
			return g.call(f, when())
		case 1:
			part := []string{"year", "Month", "doy", "dow", "isodow", "week", "yearweek", "century", "millennium", "era", "second", "ms"}[g.intn(12)]
			return g.call(fn.DatePartFn, text(part), when())
		}
		part := []string{"year", "quarter", "month", "decade", "day", "week", "hour", "minute", "second"}[g.intn(9)]
		a, b := when(), when()
		if !a.DType().EqualIgnoreNullability(b.DType()) {
			a, b = g.expr(date, depth), g.expr(date, depth)
		}
		return g.call(fn.DateDiff, text(part), a, b)
	case t.IsFloat() && t.PType() == dtype.F64:
		if g.chance(0.5) {
			return g.call(fn.Shorthands[fn.PartEpoch], when())
		}
		return g.call(fn.DatePartFn, text("epoch"), when())
	case t.ExtID() == dtype.ExtDate:
		i32 := dtype.Primitive(dtype.I32, true)
		switch g.intn(4) {
		case 0:
			return g.call(fn.LastDay, when())
		case 1:
			if g.chance(0.5) {
				return g.call(fn.Add, g.expr(i32, depth), g.expr(date, depth))
			}
			return g.call([]fn.Function{fn.Add, fn.Sub}[g.intn(2)], g.expr(date, depth), g.expr(i32, depth))
		}
		i64 := dtype.Primitive(dtype.I64, true)
		return g.call(fn.MakeDate, g.call(fn.Shorthands[fn.PartYear], g.expr(date, depth)),
			g.call(fn.Shorthands[fn.PartMonth], g.expr(date, depth)), g.expr(i64, depth))
	case t.IsUtf8():
		return g.call(fn.Strftime, when(), text(refFormats[g.intn(len(refFormats))]))
	}
	return nil
}
