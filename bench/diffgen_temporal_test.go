package bench

// Generators of the date and time functions (colexpr's fn/temporal.go) for
// the differential test: the parts (year(x), date_part('part', x)),
// date_diff, last_day, make_date, strftime, and, inside them, the
// timestamps date_trunc and strptime make. The generator has no TIMESTAMP
// type of its own: a timestamp is only ever an argument of these
// functions, built here (its node carries the type gDate, which is only
// read to print casts, and no cast is printed around it).

// datePartPool are parts of date_part in both dialects (DuckDB's
// abbreviations included).
var datePartPool = []string{"year", "quarter", "month", "day", "dayofweek", "dow", "isodow", "dayofyear", "doy",
	"week", "isoyear", "yearweek", "decade", "century", "millennium", "era", "hour", "minute", "second",
	"millisecond", "microsecond", "Month", "yr"}

// shorthandPool are the shorthand functions of date_part.
var shorthandPool = []string{"year", "quarter", "month", "day", "dayofweek", "isodow", "dayofyear", "week",
	"isoyear", "yearweek", "decade", "century", "millennium", "era", "hour", "minute", "second",
	"millisecond", "microsecond", "dayofmonth", "weekday", "weekofyear"}

// truncPool are parts of date_trunc.
var truncPool = []string{"millennium", "century", "decade", "year", "quarter", "month", "week", "isoyear", "day", "hour", "epoch"}

// diffPartPool are parts of date_diff.
var diffPartPool = []string{"year", "quarter", "month", "week", "day", "isoyear", "decade", "century", "millennium",
	"hour", "minute", "second", "millisecond", "microsecond", "dow", "doy"}

// strftimePool are strftime formats.
var strftimePool = []string{"%Y-%m-%d", "%d/%m/%y %H:%M:%S", "%a %-d %B %Y", "%j %w %u %V %G %U %W",
	"%I %p %f %g", "%A, %b %-m %-j", "%c", "%x %X", "%%Y"}

// strptimePool are formats both engines read back (the text strftime
// writes with them).
var strptimePool = []string{"%Y-%m-%d", "%d.%m.%Y", "%d/%m/%y %H:%M:%S", "%b %-d %Y", "%j/%Y", "%A %d %B %Y %I %p", "%Y%m%d"}

func init() {
	familyGens[gI64] = append(familyGens[gI64], temporalPart, temporalDiff, dateMinusDate)
	familyGens[gF64] = append(familyGens[gF64], temporalEpoch)
	familyGens[gDate] = append(familyGens[gDate], temporalDate, datePlusDays)
	familyGens[gStr] = append(familyGens[gStr], temporalFormat)
	familyGens[gBool] = append(familyGens[gBool], dateVersusText)
}

// datePlusDays is date + days, days + date or date - days (the days an
// INTEGER, as DuckDB's +(DATE, INTEGER) takes them).
func datePlusDays(g *gen, d int) *gnode {
	days := g.expr(gI32, d)
	if g.pick(3) > 0 {
		days = &gnode{t: gI32, kind: "lit", text: []string{"1", "-1", "30", "365", "0", "100000"}[g.pick(6)]}
	}
	switch g.pick(3) {
	case 0:
		return &gnode{t: gDate, kind: "op", text: "+", kids: []*gnode{days, g.expr(gDate, d)}}
	case 1:
		return &gnode{t: gDate, kind: "op", text: "-", kids: []*gnode{g.expr(gDate, d), days}}
	}
	return &gnode{t: gDate, kind: "op", text: "+", kids: []*gnode{g.expr(gDate, d), days}}
}

// dateMinusDate is the BIGINT days from one date to another.
func dateMinusDate(g *gen, d int) *gnode {
	return &gnode{t: gI64, kind: "op", text: "-", kids: []*gnode{g.expr(gDate, d), g.expr(gDate, d)}}
}

// dateTextPool are strings both engines read as dates beside a date (a
// time of day is dropped).
var dateTextPool = []string{"1995-01-01", "1970-01-01", "2000-02-29", "1969-12-31", "1994-06-15 10:30:00", "1995-3-5", "0001-01-01", "9999-12-31"}

// dateVersusText compares a date with a string literal, which both engines
// read as a date.
func dateVersusText(g *gen, d int) *gnode {
	text := func() *gnode { return strLit(dateTextPool[g.pick(len(dateTextPool))]) }
	x := g.expr(gDate, d)
	switch g.pick(3) {
	case 0:
		return &gnode{t: gBool, kind: "between", kids: []*gnode{x, text(), text()}, neg: g.pick(4) == 0}
	case 1:
		return &gnode{t: gBool, kind: "in", kids: []*gnode{x, text(), text()}}
	}
	op := []string{"=", "<>", "<", "<=", ">", ">="}[g.pick(6)]
	if g.pick(2) == 0 {
		return &gnode{t: gBool, kind: "cmp", text: op, kids: []*gnode{text(), x}}
	}
	return &gnode{t: gBool, kind: "cmp", text: op, kids: []*gnode{x, text()}}
}

func strLit(s string) *gnode { return &gnode{t: gStr, kind: "lit", text: "'" + s + "'"} }

// when is a date or a timestamp: a date, date_trunc of one, or strptime of
// its text.
func (g *gen) when(d int) *gnode {
	x := g.expr(gDate, d)
	switch g.pick(5) {
	case 2:
		// A timestamp with a time of day: make_timestamp of x's parts.
		lit := func(t gtype, s string) *gnode {
			return &gnode{t: t, kind: "lit", text: "CAST(" + s + " AS " + t.sqlName() + ")"}
		}
		part := func(name string) *gnode { return mcall(gI64, name, "", x) }
		return mcall(gDate, "make_timestamp", "", part("year"), part("month"), part("day"),
			lit(gI64, []string{"0", "1", "12", "23", "24"}[g.pick(5)]), lit(gI64, []string{"0", "1", "30", "59"}[g.pick(4)]),
			lit(gF64, []string{"0", "1.5", "59.999999", "30.25", "0.000001", "60"}[g.pick(6)]))
	case 0:
		return mcall(gDate, "date_trunc", "", strLit(truncPool[g.pick(len(truncPool))]), x)
	case 1:
		f := strptimePool[g.pick(len(strptimePool))]
		text := mcall(gStr, "strftime", "", x, strLit(f))
		if g.pick(6) == 0 {
			text = g.expr(gStr, d) // mostly not a date: an error in both
		}
		return mcall(gDate, "strptime", "", text, strLit(f))
	}
	return x
}

// temporalPart is a part of a date or timestamp, BIGINT in both.
func temporalPart(g *gen, d int) *gnode {
	if g.pick(2) == 0 {
		return mcall(gI64, shorthandPool[g.pick(len(shorthandPool))], "", g.when(d))
	}
	return mcall(gI64, "date_part", "", strLit(datePartPool[g.pick(len(datePartPool))]), g.when(d))
}

// temporalDiff is date_diff (or datediff) of two dates or timestamps.
func temporalDiff(g *gen, d int) *gnode {
	name := []string{"date_diff", "datediff"}[g.pick(2)]
	return mcall(gI64, name, "", strLit(diffPartPool[g.pick(len(diffPartPool))]), g.when(d), g.when(d))
}

// temporalEpoch is the epoch of a date or timestamp, DOUBLE in both (whole
// seconds here, exact in both).
func temporalEpoch(g *gen, d int) *gnode {
	if g.pick(2) == 0 {
		return mcall(gF64, "epoch", "", g.when(d))
	}
	return mcall(gF64, "date_part", "", strLit("epoch"), g.when(d))
}

// temporalDate is last_day of a date or timestamp, or make_date of parts.
func temporalDate(g *gen, d int) *gnode {
	if g.pick(2) == 0 {
		return mcall(gDate, "last_day", "", g.when(d))
	}
	day := mcall(gI64, "day", "", g.expr(gDate, d))
	if g.pick(3) == 0 {
		day = g.expr(gI64, d)
	}
	return mcall(gDate, "make_date", "", mcall(gI64, "year", "", g.expr(gDate, d)), mcall(gI64, "month", "", g.expr(gDate, d)), day)
}

// temporalFormat is strftime of a date or timestamp.
func temporalFormat(g *gen, d int) *gnode {
	return mcall(gStr, "strftime", "", g.when(d), strLit(strftimePool[g.pick(len(strftimePool))]))
}
