// Package interval holds what both package scalar and the kernels need to
// know about DuckDB's INTERVAL: its text (read and written as DuckDB does)
// and its order. A value is Arrow's month_day_nano interval: months and
// days (i32 each) and nanoseconds (i64), three counts kept apart because a
// month is not a fixed number of days.
//
// The text DuckDB writes and Format writes:
//
//	1 year 2 months 3 days 04:05:06.5     -1 year -2 months     1 day -02:00:00
//	00:00:00                              (the zero interval)
//
// years and months come from the months (14 months is 1 year 2 months), a
// unit is singular for 1 and -1, and the time of day is hours (at least two
// digits, as many as needed), minutes, seconds and the fraction without
// trailing zeros.
//
// Parse reads what DuckDB's cast from text reads: an optional @, then
// quantities, each a number with an optional sign, fraction and unit —
// millennium, century, decade, year, quarter, month, week, day, hour,
// minute, second, millisecond, microsecond, with DuckDB's plurals and
// abbreviations (y, yrs, mon, d, h, min, s, ms, us, …) — optionally ended
// by a time [-]h:mm[:ss[.fraction]] and the word ago (which negates).
// A number alone is seconds. A fraction carries into the smaller fields as
// DuckDB's does: 1.5 months is 1 month 15 days, 1.5 days 1 day 12:00:00;
// the fraction of a year or a larger unit is rounded to whole months
// (1.1 years is 1 year 1 month). Times are kept to the nanosecond, where
// DuckDB keeps microseconds: '0.0000005 seconds' is 500 nanoseconds here,
// 1 microsecond in DuckDB, and '00:00:00.1234567' keeps its 7 digits.
package interval

import (
	"errors"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Value is an interval: months, days and nanoseconds.
type Value = arrow.MonthDayNanoInterval

// The lengths DuckDB takes for comparing and for date_part('epoch'): a
// month is 30 days, a day 24 hours.
const (
	NanosPerMicro  = int64(1000)
	NanosPerMilli  = 1000 * NanosPerMicro
	NanosPerSecond = 1000 * NanosPerMilli
	NanosPerMinute = 60 * NanosPerSecond
	NanosPerHour   = 60 * NanosPerMinute
	NanosPerDay    = 24 * NanosPerHour
	DaysPerMonth   = 30
	NanosPerMonth  = DaysPerMonth * NanosPerDay
)

// Normalize is the span v covers as DuckDB compares it, a month taken as
// 30 days and a day as 24 hours: whole days, and the nanoseconds left
// over, in [0, NanosPerDay).
func Normalize(v Value) (days, nanos int64) {
	q := v.Nanoseconds / NanosPerDay
	r := v.Nanoseconds - q*NanosPerDay
	if r < 0 {
		q, r = q-1, r+NanosPerDay
	}
	return int64(v.Months)*DaysPerMonth + int64(v.Days) + q, r
}

// Compare orders two intervals as DuckDB does, by the span they cover
// (see Normalize): INTERVAL 30 DAY equals INTERVAL 1 MONTH, INTERVAL 24
// HOUR equals INTERVAL 1 DAY, and '1 day -1 hour' equals '23 hours'.
func Compare(a, b Value) int {
	ad, an := Normalize(a)
	bd, bn := Normalize(b)
	if ad != bd {
		return cmp(ad, bd)
	}
	return cmp(an, bn)
}

func cmp(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Format is the text of v, as DuckDB writes it.
func Format(v Value) string { return string(Append(nil, v)) }

// Append appends the text of v to b.
func Append(b []byte, v Value) []byte {
	start := len(b)
	years, months := v.Months/12, v.Months%12
	b = appendUnit(b, start, int64(years), "year")
	b = appendUnit(b, start, int64(months), "month")
	b = appendUnit(b, start, int64(v.Days), "day")
	if v.Nanoseconds != 0 {
		if len(b) > start {
			b = append(b, ' ')
		}
		ns := uint64(v.Nanoseconds)
		if v.Nanoseconds < 0 {
			b = append(b, '-')
			ns = -ns // two's complement: the magnitude even of MinInt64
		}
		b = appendTime(b, ns)
	}
	if len(b) == start {
		b = append(b, "00:00:00"...)
	}
	return b
}

func appendUnit(b []byte, start int, n int64, unit string) []byte {
	if n == 0 {
		return b
	}
	if len(b) > start {
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, n, 10)
	b = append(b, ' ')
	b = append(b, unit...)
	if n != 1 && n != -1 {
		b = append(b, 's')
	}
	return b
}

// appendTime writes a magnitude of nanoseconds as h:mm:ss[.fraction].
func appendTime(b []byte, ns uint64) []byte {
	h := ns / uint64(NanosPerHour)
	ns -= h * uint64(NanosPerHour)
	m := ns / uint64(NanosPerMinute)
	ns -= m * uint64(NanosPerMinute)
	s := ns / uint64(NanosPerSecond)
	frac := ns - s*uint64(NanosPerSecond)
	if h < 10 {
		b = append(b, '0')
	}
	b = strconv.AppendUint(b, h, 10)
	b = append(b, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if frac != 0 {
		digits := 9
		for frac%10 == 0 {
			frac /= 10
			digits--
		}
		text := strconv.AppendUint(nil, frac, 10)
		b = append(b, '.')
		for range digits - len(text) {
			b = append(b, '0')
		}
		b = append(b, text...)
	}
	return b
}

// ErrSyntax is the error of a text that is not an interval; ErrRange of
// one whose fields do not fit (months and days are i32).
var (
	ErrSyntax = errors.New("not an interval")
	ErrRange  = errors.New("interval out of range")
)

// unit is what one of a quantity's unit is worth: months (with or without
// the fraction carried into days), days or nanoseconds.
type unit struct {
	months      int64
	carryMonths bool // a fraction of the unit carries into days (quarter, month)
	days        int64
	nanos       int64
}

// units are the unit words, DuckDB's date part names that make sense in an
// interval.
var units = func() map[string]unit {
	m := map[string]unit{}
	add := func(u unit, names ...string) {
		for _, n := range names {
			m[n] = u
		}
	}
	add(unit{months: 12000}, "millennium", "millennia", "millenniums", "millenium", "mil", "mils")
	add(unit{months: 1200}, "century", "centuries", "c", "cent")
	add(unit{months: 120}, "decade", "decades", "dec", "decs")
	add(unit{months: 12}, "year", "years", "y", "yr", "yrs")
	add(unit{months: 3, carryMonths: true}, "quarter", "quarters")
	add(unit{months: 1, carryMonths: true}, "month", "months", "mon", "mons")
	add(unit{days: 7}, "week", "weeks", "w")
	add(unit{days: 1}, "day", "days", "d")
	add(unit{nanos: NanosPerHour}, "hour", "hours", "h", "hr", "hrs")
	add(unit{nanos: NanosPerMinute}, "minute", "minutes", "m", "min", "mins")
	add(unit{nanos: NanosPerSecond}, "second", "seconds", "s", "sec", "secs")
	add(unit{nanos: NanosPerMilli}, "millisecond", "milliseconds", "ms", "msec", "msecs", "msecond", "mseconds")
	add(unit{nanos: NanosPerMicro}, "microsecond", "microseconds", "us", "usec", "usecs", "usecond", "useconds")
	return m
}()

// UnitOf is the interval one of the named unit is (INTERVAL 1 <unit>), as
// the INTERVAL n UNIT syntax and the to_* functions use it; ok is false
// for a name that is not a unit.
func UnitOf(name string) (months, days, nanos int64, ok bool) {
	u, ok := units[strings.ToLower(name)]
	return u.months, u.days, u.nanos, ok
}

// acc sums the quantities of a text in wide integers, checked at the end.
type acc struct {
	months, days, nanos int64
	overflow            bool
}

func (a *acc) add(field *int64, v int64) {
	s := *field + v
	if (s > *field) != (v > 0) {
		a.overflow = true
	}
	*field = s
}

func (a *acc) mul(n, by int64) int64 {
	if by != 0 && n != 0 {
		p := n * by
		if p/by != n {
			a.overflow = true
		}
		return p
	}
	return 0
}

// fracOf is the fraction digits (after a decimal point) times scale,
// rounded half up or truncated; digits beyond 18 are ignored (they are
// below any field's resolution).
func fracOf(digits string, scale int64, round bool) int64 {
	if len(digits) > 18 {
		digits = digits[:18]
	}
	if digits == "" {
		return 0
	}
	f, _ := strconv.ParseUint(digits, 10, 64)
	den := uint64(1)
	for range digits {
		den *= 10
	}
	hi, lo := bits.Mul64(f, uint64(scale))
	if round {
		var c uint64
		lo, c = bits.Add64(lo, den/2, 0)
		hi += c
	}
	q, _ := bits.Div64(hi, lo, den) // f < den, so q < scale: no overflow
	return int64(q)
}

// Parse reads the text of an interval (see the package doc).
func Parse(text string) (Value, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "@") {
		s = strings.TrimSpace(s[1:])
	}
	if s == "" {
		return Value{}, ErrSyntax
	}
	var a acc
	ago, quantities, timeDone := false, 0, false
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		if timeDone || ago {
			return Value{}, ErrSyntax
		}
		if isLetter(s[i]) {
			j := i
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			if !strings.EqualFold(s[i:j], "ago") || quantities == 0 {
				return Value{}, ErrSyntax
			}
			ago, i = true, j
			continue
		}
		neg := false
		if s[i] == '-' {
			neg = true
			i++
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return Value{}, ErrSyntax
		}
		n, err := strconv.ParseInt(s[i:j], 10, 64)
		if err != nil {
			return Value{}, ErrRange
		}
		i = j
		if i < len(s) && s[i] == ':' {
			mag, next, ok := parseTime(s, i, n)
			if !ok {
				return Value{}, ErrSyntax
			}
			var ns int64
			switch {
			case neg && mag <= 1<<63:
				ns = int64(-mag) // two's complement: -2^63 too
			case !neg && mag < 1<<63:
				ns = int64(mag)
			default:
				return Value{}, ErrRange
			}
			a.add(&a.nanos, ns)
			i, timeDone = next, true
			quantities++
			continue
		}
		frac := ""
		if i < len(s) && s[i] == '.' {
			j = i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			frac, i = s[i+1:j], j
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j = i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		word := s[i:j]
		i = j
		var u unit
		switch {
		case word == "" && quantities == 0 && i == len(s):
			u = unit{nanos: NanosPerSecond} // a number alone is seconds
		case word == "":
			return Value{}, ErrSyntax
		default:
			var ok bool
			if u, ok = units[strings.ToLower(word)]; !ok {
				return Value{}, ErrSyntax
			}
		}
		quantities++
		months, days, nanos := a.quantity(n, frac, u)
		if neg {
			months, days, nanos = -months, -days, -nanos
		}
		a.add(&a.months, months)
		a.add(&a.days, days)
		a.add(&a.nanos, nanos)
	}
	if ago {
		a.months, a.days, a.nanos = -a.months, -a.days, -a.nanos
	}
	if a.overflow || a.months != int64(int32(a.months)) || a.days != int64(int32(a.days)) {
		return Value{}, ErrRange
	}
	return Value{Months: int32(a.months), Days: int32(a.days), Nanoseconds: a.nanos}, nil
}

// quantity is n.frac of unit u as months, days and nanoseconds.
func (a *acc) quantity(n int64, frac string, u unit) (months, days, nanos int64) {
	switch {
	case u.months != 0:
		months = a.mul(n, u.months)
		if !u.carryMonths {
			return months + fracOf(frac, u.months, true), 0, 0 // whole months only
		}
		// The fraction in microseconds of a 30-day month, then split.
		ns := fracOf(frac, u.months*NanosPerMonth, true)
		months += ns / NanosPerMonth
		ns %= NanosPerMonth
		return months, ns / NanosPerDay, ns % NanosPerDay
	case u.days != 0:
		days = a.mul(n, u.days)
		ns := fracOf(frac, u.days*NanosPerDay, true)
		return 0, days + ns/NanosPerDay, ns % NanosPerDay
	}
	return 0, 0, a.mul(n, u.nanos) + fracOf(frac, u.nanos, true)
}

// parseTime reads the rest of h:mm[:ss[.fraction]] from s[i] (the colon
// after the hours h) and returns its nanoseconds (saturated at 2^64-1) and
// the offset after it.
func parseTime(s string, i int, h int64) (ns uint64, next int, ok bool) {
	two := func(i int) (int64, bool) {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i || j-i > 2 {
			return 0, false
		}
		v, _ := strconv.ParseInt(s[i:j], 10, 64)
		return v, v < 60
	}
	m, ok := two(i + 1)
	if !ok {
		return 0, 0, false
	}
	i += 1 + digitsAt(s, i+1)
	var sec, fracNs int64
	if i < len(s) && s[i] == ':' {
		if sec, ok = two(i + 1); !ok {
			return 0, 0, false
		}
		i += 1 + digitsAt(s, i+1)
		if i < len(s) && s[i] == '.' {
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			digits := s[i+1 : j]
			if len(digits) > 9 {
				digits = digits[:9] // below a nanosecond
			}
			fracNs = fracOf(digits, NanosPerSecond, false)
			i = j
		}
	}
	hi, lo := bits.Mul64(uint64(h), uint64(NanosPerHour))
	lo, c := bits.Add64(lo, uint64(m*NanosPerMinute+sec*NanosPerSecond+fracNs), 0)
	if hi+c != 0 {
		return 1<<64 - 1, i, true
	}
	return lo, i, true
}

func digitsAt(s string, i int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j - i
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
