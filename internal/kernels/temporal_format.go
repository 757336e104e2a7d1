package kernels

// strftime and strptime with DuckDB's format specifiers. A format is
// compiled once per call into literal runs and specifiers; rows then
// format or parse without allocating.
//
//	%Y year (at least 4 digits; parsing: any number)   %y year % 100 (parsing: 69…99 → 19xx, else 20xx)
//	%m month 01…12   %d day 01…31   %H hour 00…23   %I hour 01…12   %p AM/PM
//	%M minute   %S second   %f microseconds (6 digits)   %g milliseconds (3 digits)
//	%j day of year 001…366   %a %A weekday name (short, full)   %b %B month name
//	%w weekday (Sunday 0)   %u ISO weekday (Monday 1)   %U %W week of year
//	(Sunday, Monday first; formatting only)   %V ISO week, %G ISO year
//	(formatting only)   %z +00   %Z the zone name ("" or UTC; formatting only)
//	%c %x %X date and time, date, time   %% a percent sign
//
// A '-' after '%' drops the padding (%-d is 5, not 05). Any other
// specifier is an error naming it. Parsing skips whitespace at either end,
// a space in the format matches any run of whitespace, and numbers may be
// shorter than their width (1995-3-5 parses with %Y-%m-%d); a %Y directly
// followed by another number reads at most 4 digits (19950305 parses with
// %Y%m%d).

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// fmtItem is a literal run (spec 0) or a specifier.
type fmtItem struct {
	spec  byte
	noPad bool
	lit   string
	// packed: a number directly followed by another (%Y%m%d), so that
	// strptime reads %Y as at most 4 digits, as DuckDB does.
	packed bool
}

// TimeFormat is a compiled strftime/strptime format.
type TimeFormat struct {
	items []fmtItem
	text  string
}

// supportedSpecs lists the specifiers, for errors.
const supportedSpecs = "%a %A %b %B %c %d %f %g %G %H %I %j %m %M %p %S %u %U %V %w %W %x %X %y %Y %z %Z %%, and %-d and the like without padding"

var monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July", "August",
	"September", "October", "November", "December"}

var dayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// CompileTimeFormat reads a format; parse is true for strptime, which
// reads fewer specifiers.
func CompileTimeFormat(format string, parse bool) (*TimeFormat, error) {
	f := &TimeFormat{text: format}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			f.items = append(f.items, fmtItem{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		i++
		noPad := false
		if i < len(format) && format[i] == '-' {
			noPad = true
			i++
		}
		if i >= len(format) {
			return nil, fmt.Errorf("format %q ends in the middle of a specifier", format)
		}
		s := format[i]
		switch s {
		case '%':
			lit.WriteByte('%')
			continue
		case 'c', 'x', 'X':
			if parse {
				return nil, fmt.Errorf("format specifier %%%c is not supported by strptime", s)
			}
		case 'Y', 'y', 'm', 'd', 'H', 'I', 'p', 'M', 'S', 'f', 'g', 'j', 'a', 'A', 'b', 'B', 'w', 'u':
		case 'U', 'W', 'V', 'G', 'z', 'Z':
			if parse {
				return nil, fmt.Errorf("format specifier %%%c is not supported by strptime", s)
			}
		default:
			return nil, fmt.Errorf("format specifier %%%c is not supported (supported: %s)", s, supportedSpecs)
		}
		flush()
		f.items = append(f.items, fmtItem{spec: s, noPad: noPad})
	}
	flush()
	for i := 0; i+1 < len(f.items); i++ {
		f.items[i].packed = strings.IndexByte(numericSpecs, f.items[i].spec) >= 0 && f.items[i+1].spec != 0 &&
			strings.IndexByte(numericSpecs, f.items[i+1].spec) >= 0
	}
	return f, nil
}

// numericSpecs are the specifiers strptime reads as numbers.
const numericSpecs = "YymdHIMSfgjwu"

// clock is a date and time split into its fields.
type clock struct {
	day, y, m, d, tod, per int64
}

func clockOf(day, tod, per int64) clock {
	y, m, d := civilFromDays(day)
	return clock{day: day, y: y, m: m, d: d, tod: tod, per: per}
}

func appendNum(out []byte, v int64, width int, noPad bool) []byte {
	if v < 0 { // DuckDB pads no negative number (a year: -44)
		return strconv.AppendInt(out, v, 10)
	}
	if !noPad {
		for p := pow10Int(width - 1); p > 1 && v < p; p /= 10 {
			out = append(out, '0')
		}
	}
	return strconv.AppendInt(out, v, 10)
}

func pow10Int(k int) int64 {
	p := int64(1)
	for range k {
		p *= 10
	}
	return p
}

// format appends c formatted by f.
func (f *TimeFormat) format(out []byte, c clock, zoned bool) []byte {
	for _, it := range f.items {
		if it.spec == 0 {
			out = append(out, it.lit...)
			continue
		}
		out = f.formatSpec(out, it, c, zoned)
	}
	return out
}

func (f *TimeFormat) formatSpec(out []byte, it fmtItem, c clock, zoned bool) []byte {
	secs := c.tod / c.per
	hour, minute, second := secs/3600, secs/60%60, secs%60
	wday := floorMod(c.day+4, 7)
	yday := c.day - daysFromCivil(c.y, 1, 1) // 0-based
	switch it.spec {
	case 'Y':
		return appendNum(out, c.y, 4, it.noPad)
	case 'y':
		y := c.y % 100
		if y < 0 {
			y = -y
		}
		return appendNum(out, y, 2, it.noPad)
	case 'm':
		return appendNum(out, c.m, 2, it.noPad)
	case 'd':
		return appendNum(out, c.d, 2, it.noPad)
	case 'H':
		return appendNum(out, hour, 2, it.noPad)
	case 'I':
		h := hour % 12
		if h == 0 {
			h = 12
		}
		return appendNum(out, h, 2, it.noPad)
	case 'p':
		if hour < 12 {
			return append(out, "AM"...)
		}
		return append(out, "PM"...)
	case 'M':
		return appendNum(out, minute, 2, it.noPad)
	case 'S':
		return appendNum(out, second, 2, it.noPad)
	case 'f':
		return appendNum(out, rescale(c.tod%c.per, c.per, 1_000_000), 6, it.noPad)
	case 'g':
		return appendNum(out, rescale(c.tod%c.per, c.per, 1000), 3, it.noPad)
	case 'j':
		return appendNum(out, yday+1, 3, it.noPad)
	case 'a':
		return append(out, dayNames[wday][:3]...)
	case 'A':
		return append(out, dayNames[wday]...)
	case 'b':
		return append(out, monthNames[c.m-1][:3]...)
	case 'B':
		return append(out, monthNames[c.m-1]...)
	case 'w':
		return appendNum(out, wday, 1, it.noPad)
	case 'u':
		return appendNum(out, isoDayOfWeek(c.day), 1, it.noPad)
	case 'U':
		return appendNum(out, (yday+7-wday)/7, 2, it.noPad)
	case 'W':
		return appendNum(out, (yday+7-floorMod(wday+6, 7))/7, 2, it.noPad)
	case 'V':
		_, w := isoWeek(c.day)
		return appendNum(out, w, 2, it.noPad)
	case 'G':
		y, _ := isoWeek(c.day)
		return appendNum(out, y, 4, it.noPad)
	case 'z':
		return append(out, "+00"...)
	case 'Z':
		if zoned {
			return append(out, "UTC"...)
		}
		return out
	case 'c', 'x', 'X':
		sub := map[byte]*TimeFormat{'c': fmtC, 'x': fmtX, 'X': fmtXT}[it.spec]
		return sub.format(out, c, zoned)
	}
	return out
}

var (
	fmtC, _  = CompileTimeFormat("%Y-%m-%d %H:%M:%S", false)
	fmtX, _  = CompileTimeFormat("%Y-%m-%d", false)
	fmtXT, _ = CompileTimeFormat("%H:%M:%S", false)
)

// Strftime formats a date or timestamp x (stored as in) with f; zoned says
// whether x has a time zone (for %Z).
func Strftime(mem memory.Allocator, f *TimeFormat, in Temporal, zoned bool, x, format datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	per := in.PerSecond
	var at func(i int) clock
	if in.Date {
		v := FixedOf[int32](x)
		at = func(i int) clock { return clockOf(int64(v.At(i)), 0, 1) }
	} else {
		v := FixedOf[int64](x)
		at = func(i int) clock { day, tod := splitTicks(v.At(i), per); return clockOf(day, tod, per) }
	}
	var scratch []byte
	return utf8Rows(mem, []datum.Datum{x, format}, ret, n*len(f.text)*2, func(i int, b *strBuilder) error {
		scratch = f.format(scratch[:0], at(i), zoned)
		b.write(scratch)
		return nil
	})
}

// Strptime parses strings s with f into timestamps in microseconds; a
// string that does not match is errs.ErrInvalidArgument naming it.
func Strptime(mem memory.Allocator, f *TimeFormat, s, format datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if isNullDatum(s) {
		return NullResult(ret, s.Len()), nil
	}
	sa, err := newStrArg(s)
	if err != nil {
		return datum.Datum{}, err
	}
	return intRows(mem, []datum.Datum{s, format}, ret, func(i int) (int64, error) {
		text := bytesString(sa.at(i))
		v, msg := f.parse(text)
		if msg != "" {
			return 0, fmt.Errorf("%w: could not parse %q with format %q: %s", errs.ErrInvalidArgument, text, f.text, msg)
		}
		return v, nil
	})
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parse reads s as f says, in microseconds; msg says what did not match.
func (f *TimeFormat) parse(s string) (int64, string) {
	pos := 0
	skip := func() {
		for pos < len(s) && isSpace(s[pos]) {
			pos++
		}
	}
	num := func(maxDigits int) (int64, int, bool) {
		start := pos
		var v int64
		for pos < len(s) && pos-start < maxDigits && s[pos] >= '0' && s[pos] <= '9' {
			v = v*10 + int64(s[pos]-'0')
			pos++
		}
		return v, pos - start, pos > start
	}
	// The fields the format leaves out are those of 1900-01-01 00:00:00,
	// as in DuckDB.
	var y, m, d, hour, minute, second, micros, yday int64 = 1900, 1, 1, 0, 0, 0, 0, 0
	hasYday, pm, hasP, twelve := false, false, false, false
	skip()
	for _, it := range f.items {
		if it.spec == 0 {
			for k := 0; k < len(it.lit); k++ {
				c := it.lit[k]
				if isSpace(c) {
					if pos >= len(s) || !isSpace(s[pos]) {
						return 0, "expected whitespace at position " + strconv.Itoa(pos+1)
					}
					skip()
					continue
				}
				if pos >= len(s) || s[pos] != c {
					return 0, fmt.Sprintf("expected %q at position %d", c, pos+1)
				}
				pos++
			}
			continue
		}
		var v int64
		var ok bool
		var nd int
		switch it.spec {
		case 'Y':
			// As DuckDB reads it: one to four digits, no sign (strftime
			// writes years past 9999 and before 1, which do not read back).
			y, _, ok = num(4)
		case 'y':
			v, _, ok = num(2)
			if v >= 69 {
				y = 1900 + v
			} else {
				y = 2000 + v
			}
		case 'm':
			m, _, ok = num(2)
		case 'd':
			d, _, ok = num(2)
		case 'H':
			hour, _, ok = num(2)
		case 'I':
			hour, _, ok = num(2)
			twelve = true
		case 'M':
			minute, _, ok = num(2)
		case 'S':
			second, _, ok = num(2)
		case 'f':
			v, nd, ok = num(6)
			micros = v * pow10Int(6-nd)
		case 'g':
			v, nd, ok = num(3)
			micros = v * pow10Int(3-nd) * 1000
		case 'j':
			yday, _, ok = num(3)
			hasYday = true
		case 'w':
			_, _, ok = num(1)
		case 'u':
			_, _, ok = num(1)
		case 'p':
			ok = pos+2 <= len(s)
			if ok {
				switch strings.ToUpper(s[pos : pos+2]) {
				case "AM":
				case "PM":
					pm = true
				default:
					ok = false
				}
				pos += 2
			}
			hasP = true
			if !ok {
				return 0, "expected AM or PM at position " + strconv.Itoa(pos+1)
			}
		case 'a', 'A', 'b', 'B':
			idx := matchName(s[pos:], it.spec)
			if idx < 0 {
				return 0, "expected a " + map[bool]string{true: "weekday", false: "month"}[it.spec == 'a' || it.spec == 'A'] + " name at position " + strconv.Itoa(pos+1)
			}
			pos += idx >> 8
			if it.spec == 'b' || it.spec == 'B' {
				m = int64(idx&0xff) + 1
			}
			continue
		}
		if !ok {
			return 0, "expected a number at position " + strconv.Itoa(pos+1)
		}
	}
	skip()
	if pos < len(s) {
		return 0, "unexpected trailing text at position " + strconv.Itoa(pos+1)
	}
	if twelve || hasP {
		if hour < 1 || hour > 12 {
			return 0, "hour " + strconv.FormatInt(hour, 10) + " out of range for a 12-hour clock"
		}
		if hasP { // without %p, %I is the hour as written (12 is noon), as in DuckDB
			hour %= 12
			if pm {
				hour += 12
			}
		}
	}
	var day int64
	if hasYday {
		if yday < 1 || yday > 366 || yday == 366 && !isLeapYear(y) {
			return 0, "day of year " + strconv.FormatInt(yday, 10) + " out of range"
		}
		day = daysFromCivil(y, 1, 1) + yday - 1
	} else {
		if m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
			return 0, fmt.Sprintf("date out of range: %d-%d-%d", y, m, d)
		}
		day = daysFromCivil(y, m, d)
	}
	if hour > 23 || minute > 59 || second > 59 {
		return 0, fmt.Sprintf("time out of range: %d:%d:%d", hour, minute, second)
	}
	v, ok := mulAddChecked(day, secondsPerDay*1_000_000, ((hour*60+minute)*60+second)*1_000_000+micros)
	if !ok {
		return 0, "out of the timestamp's range"
	}
	return v, ""
}

// matchName matches a weekday (a, A) or month (b, B) name at the start of
// s, ignoring case, the full name before the short one: the name's index
// in the low byte and its length above, or -1.
func matchName(s string, spec byte) int {
	names := monthNames[:]
	if spec == 'a' || spec == 'A' {
		names = dayNames[:]
	}
	for i, n := range names {
		if len(s) >= len(n) && strings.EqualFold(s[:len(n)], n) {
			return len(n)<<8 | i
		}
	}
	for i, n := range names {
		if len(s) >= 3 && strings.EqualFold(s[:3], n[:3]) {
			return 3<<8 | i
		}
	}
	return -1
}
