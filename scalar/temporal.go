package scalar

import (
	"math"
	"strconv"
	"strings"

	"github.com/colexpr/colexpr/dtype"
)

// The text forms are described in the package doc (Dates and times as text).

// daysFromCivil is the number of days from 1970-01-01 to y-m-d.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400 // [0, 399]
	mp := (m + 9) % 12 // March = 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the calendar date of the day z days after 1970-01-01.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // March = 0
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

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// formatDate writes the date of day z. A year before 1 is written as
// DuckDB writes it: year 0 is 0001 (BC), year -1 0002 (BC).
func formatDate(b *strings.Builder, z int64) {
	y, m, d := civilFromDays(z)
	bc := y < 1
	if bc {
		y = 1 - y
	}
	pad(b, y, 4)
	b.WriteByte('-')
	pad(b, m, 2)
	b.WriteByte('-')
	pad(b, d, 2)
	if bc {
		b.WriteString(" (BC)")
	}
}

func pad(b *strings.Builder, v int64, width int) {
	s := strconv.FormatInt(v, 10)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

// formatTimeOfDay writes ticks (of unit u, in [0, 1 day)) as HH:MM:SS with
// the fraction, if any, without trailing zeros.
func formatTimeOfDay(b *strings.Builder, ticks int64, u dtype.TimeUnit) {
	per := u.PerSecond()
	secs, frac := ticks/per, ticks%per
	pad(b, secs/3600, 2)
	b.WriteByte(':')
	pad(b, secs/60%60, 2)
	b.WriteByte(':')
	pad(b, secs%60, 2)
	if frac != 0 {
		digits := len(strconv.FormatInt(per, 10)) - 1
		s := strconv.FormatInt(frac, 10)
		s = strings.Repeat("0", digits-len(s)) + s
		b.WriteByte('.')
		b.WriteString(strings.TrimRight(s, "0"))
	}
}

func dateText(days int64) string {
	var b strings.Builder
	formatDate(&b, days)
	return b.String()
}

func timeText(ticks int64, u dtype.TimeUnit) string {
	var b strings.Builder
	formatTimeOfDay(&b, ticks, u)
	return b.String()
}

// timestampText is a timestamp of unit u as text; zoned ones end in +00
// (the text is always UTC).
func timestampText(ticks int64, u dtype.TimeUnit, zoned bool) string {
	day := ticksPerDay(u)
	var b strings.Builder
	formatDate(&b, floorDiv(ticks, day))
	b.WriteByte(' ')
	formatTimeOfDay(&b, floorMod(ticks, day), u)
	if zoned {
		b.WriteString("+00")
	}
	return b.String()
}

// textScanner reads date and time text.
type textScanner struct {
	s   string
	pos int
}

func (p *textScanner) done() bool { return p.pos >= len(p.s) }

func (p *textScanner) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.pos]
}

// digits reads between lo and hi digits and returns their value.
func (p *textScanner) digits(lo, hi int) (int64, bool) {
	start := p.pos
	var v int64
	for p.pos < len(p.s) && p.pos-start < hi && isDigit(p.s[p.pos]) {
		v = v*10 + int64(p.s[p.pos]-'0')
		p.pos++
	}
	return v, p.pos-start >= lo
}

func (p *textScanner) byte(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// maxYearDigits bounds the year so day arithmetic cannot overflow; it is
// more than any timestamp can reach.
const maxYearDigits = 12

// date reads [-]Y-M-D and returns the day number.
func (p *textScanner) date() (int64, string) {
	neg := p.byte('-')
	if !neg {
		p.byte('+')
	}
	y, ok := p.digits(1, maxYearDigits)
	if !ok {
		return 0, "expected a year"
	}
	if isDigit(p.peek()) {
		return 0, "year out of range"
	}
	if neg {
		y = -y
	}
	if !p.byte('-') {
		return 0, "expected '-' after the year"
	}
	m, ok := p.digits(1, 2)
	if !ok {
		return 0, "expected a month"
	}
	if !p.byte('-') {
		return 0, "expected '-' after the month"
	}
	d, ok := p.digits(1, 2)
	if !ok {
		return 0, "expected a day"
	}
	if m < 1 || m > 12 {
		return 0, "month " + strconv.FormatInt(m, 10) + " out of range"
	}
	// DuckDB writes a year before 1 as 0001 (BC) for year 0, 0002 (BC) for
	// -1, …, and reads that form as well as the signed one.
	if rest := p.s[p.pos:]; strings.HasPrefix(rest, " (BC)") || strings.HasPrefix(rest, "(BC)") {
		if neg || y < 1 {
			return 0, "a year of (BC) counts from 1"
		}
		p.pos += strings.Index(rest, ")") + 1
		y = 1 - y
	}
	if d < 1 || d > daysInMonth(y, m) {
		return 0, "day " + strconv.FormatInt(d, 10) + " out of range for the month"
	}
	return daysFromCivil(y, m, d), ""
}

// timeOfDay reads H:MM[:SS[.fraction]] and returns ticks of unit u.
func (p *textScanner) timeOfDay(u dtype.TimeUnit) (int64, string) {
	h, ok := p.digits(1, 2)
	if !ok {
		return 0, "expected an hour"
	}
	if !p.byte(':') {
		return 0, "expected ':' after the hour"
	}
	mi, ok := p.digits(2, 2)
	if !ok {
		return 0, "expected two-digit minutes"
	}
	var sec, frac int64
	if p.byte(':') {
		if sec, ok = p.digits(2, 2); !ok {
			return 0, "expected two-digit seconds"
		}
		if p.byte('.') {
			per := u.PerSecond()
			start := p.pos
			for scale := per / 10; p.pos < len(p.s) && isDigit(p.s[p.pos]); scale /= 10 {
				frac += int64(p.s[p.pos]-'0') * scale
				p.pos++
			}
			if p.pos == start {
				return 0, "expected digits after '.'"
			}
		}
	}
	if h > 23 || mi > 59 || sec > 59 {
		return 0, "time of day out of range"
	}
	return (h*3600+mi*60+sec)*u.PerSecond() + frac, ""
}

// offset reads an optional zone suffix and returns its offset in seconds.
func (p *textScanner) offset() (int64, string) {
	save := p.pos
	for p.peek() == ' ' {
		p.pos++
	}
	if p.done() {
		p.pos = save
		return 0, ""
	}
	rest := p.s[p.pos:]
	switch {
	case rest == "Z" || rest == "z":
		p.pos = len(p.s)
		return 0, ""
	case strings.EqualFold(rest, "UTC"):
		p.pos = len(p.s)
		return 0, ""
	case rest[0] == '+' || rest[0] == '-':
		neg := rest[0] == '-'
		p.pos++
		h, ok := p.digits(2, 2)
		if !ok {
			return 0, "expected a two-digit offset hour"
		}
		var m int64
		if p.byte(':') {
			if m, ok = p.digits(2, 2); !ok {
				return 0, "expected two-digit offset minutes"
			}
		} else if isDigit(p.peek()) {
			if m, ok = p.digits(2, 2); !ok {
				return 0, "expected two-digit offset minutes"
			}
		}
		if h > 23 || m > 59 {
			return 0, "offset out of range"
		}
		off := h*3600 + m*60
		if neg {
			off = -off
		}
		return off, ""
	}
	p.pos = save
	return 0, ""
}

// parseDateText reads a date. overflow is set when the text is well formed
// but out of range.
func parseDateText(s string) (days int64, msg string, overflow bool) {
	p := &textScanner{s: strings.TrimSpace(s)}
	d, msg := p.date()
	if msg != "" {
		return 0, msg, false
	}
	if !p.done() {
		return 0, "unexpected " + strconv.Quote(p.s[p.pos:]) + " after the date", false
	}
	if d < math.MinInt32 || d > math.MaxInt32 {
		return 0, "date out of range", true
	}
	return d, "", false
}

// parseTimeText reads a time of day in ticks of u.
func parseTimeText(s string, u dtype.TimeUnit) (int64, string) {
	p := &textScanner{s: strings.TrimSpace(s)}
	t, msg := p.timeOfDay(u)
	if msg != "" {
		return 0, msg
	}
	if !p.done() {
		return 0, "unexpected " + strconv.Quote(p.s[p.pos:]) + " after the time"
	}
	return t, ""
}

// parseTimestampText reads a timestamp in ticks of u since the epoch (UTC).
// overflow is set when the text is well formed but out of range.
func parseTimestampText(s string, u dtype.TimeUnit) (ticks int64, msg string, overflow bool) {
	p := &textScanner{s: strings.TrimSpace(s)}
	days, msg := p.date()
	if msg != "" {
		return 0, msg, false
	}
	var tod int64
	if p.peek() == ' ' || p.peek() == 'T' || p.peek() == 't' {
		save := p.pos
		p.pos++
		for p.peek() == ' ' {
			p.pos++
		}
		if isDigit(p.peek()) {
			if tod, msg = p.timeOfDay(u); msg != "" {
				return 0, msg, false
			}
		} else {
			p.pos = save
		}
	}
	off, msg := p.offset()
	if msg != "" {
		return 0, msg, false
	}
	if !p.done() {
		return 0, "unexpected " + strconv.Quote(p.s[p.pos:]) + " after the timestamp", false
	}
	per := u.PerSecond()
	day := 86400 * per
	rest := tod - off*per
	if days < 0 {
		// Near the lower limit days×day alone may not fit while the sum
		// does: take one day off the product and add it to the rest.
		days, rest = days+1, rest-day
	}
	v, ok := mulAdd(days, day, rest)
	if !ok {
		return 0, "timestamp out of range for " + u.String(), true
	}
	return v, "", false
}

// mulAdd is a*b+c, or ok=false on int64 overflow.
func mulAdd(a, b, c int64) (int64, bool) {
	p, ok := mulChecked(a, b)
	if !ok {
		return 0, false
	}
	return addChecked(p, c)
}

// mulChecked is a*b, or ok=false on int64 overflow.
func mulChecked(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// addChecked is a+b, or ok=false on int64 overflow.
func addChecked(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}
