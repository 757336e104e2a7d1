package bench

// Generators of intervals (colexpr's fn/interval.go) for the differential
// test. The generator has no INTERVAL type of its own: an interval is only
// ever an argument — of date_part and its shorthands, epoch, a comparison,
// or a date or timestamp it moves — built here with the syntax both
// dialects read (INTERVAL 1 MONTH, INTERVAL '3 days', INTERVAL (x) DAY).
// Its node carries the type gDate, which is only read to print casts, and
// no cast is printed around it.

// intervalTextPool are interval literals in both dialects.
var intervalTextPool = []string{"INTERVAL 1 MONTH", "INTERVAL '3 days'", "INTERVAL '1 year 2 months 3 days 04:05:06'",
	"INTERVAL '1 day -02:00'", "INTERVAL 30 DAY", "INTERVAL 24 HOUR", "INTERVAL '1.5 months'", "INTERVAL '-1 year -2 months'",
	"INTERVAL 2 WEEKS", "INTERVAL '10 ms'", "INTERVAL 1 QUARTER", "INTERVAL '2' MONTH", "INTERVAL 1.7 DAY",
	"INTERVAL '00:00:00.5'", "INTERVAL 0 DAY", "INTERVAL '100 years'", "INTERVAL '-36 hours'", "INTERVAL 1 CENTURY"}

// intervalPartPool are the parts both dialects take of an interval.
var intervalPartPool = []string{"year", "quarter", "month", "day", "decade", "century", "millennium", "hour", "minute",
	"second", "millisecond", "microsecond", "ms", "us"}

func init() {
	familyGens[gI64] = append(familyGens[gI64], intervalPart)
	familyGens[gF64] = append(familyGens[gF64], intervalEpoch)
	familyGens[gBool] = append(familyGens[gBool], intervalCompare)
	familyGens[gI64] = append(familyGens[gI64], timeBucketGen)
}

// bucketWidthPool are widths of time_bucket both engines take.
var bucketWidthPool = []string{"INTERVAL 1 MONTH", "INTERVAL '2 months'", "INTERVAL 1 YEAR", "INTERVAL 1 QUARTER", "INTERVAL '7 days'",
	"INTERVAL 1 DAY", "INTERVAL 3 DAY", "INTERVAL 90 MINUTE", "INTERVAL '1 hour'", "INTERVAL '10 ms'", "INTERVAL 1 WEEK"}

// timeBucketGen is the milliseconds of a time_bucket of a date or
// timestamp (BIGINT in both, whatever the bucket's type), by a width of the
// pool or any interval (one mixing months and days is an error in both),
// with an interval offset now and then.
func timeBucketGen(g *gen, d int) *gnode {
	w := &gnode{t: gDate, kind: "lit", text: bucketWidthPool[g.pick(len(bucketWidthPool))]}
	if g.pick(5) == 0 {
		w = g.interval(d)
	}
	n := mcall(gDate, "time_bucket", "", w, g.when(d))
	if g.pick(3) == 0 {
		n.kids = append(n.kids, g.interval(d))
	}
	return mcall(gI64, "epoch_ms", "", n)
}

// interval is an interval: a literal, INTERVAL (x) UNIT of an INTEGER
// (every unit, which colexpr reads as to_<units>(x)), the difference of two timestamps, a sum or difference of
// intervals, an interval times a small integer or scaled by a fraction
// or divided by a number, or a negated one.
func (g *gen) interval(d int) *gnode {
	lit := &gnode{t: gDate, kind: "lit", text: intervalTextPool[g.pick(len(intervalTextPool))]}
	if d <= 0 || g.pick(3) == 0 {
		return lit
	}
	switch g.pick(6) {
	case 0:
		unit := []string{"DAY", "MONTH", "YEAR", "WEEK", "DAYS", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND",
			"QUARTER", "DECADE", "CENTURY", "MILLENNIUM"}[g.pick(14)]
		x := g.expr(gI32, d-1)
		return &gnode{t: gDate, kind: "unary", text: "INTERVAL ", kids: []*gnode{{t: gI32, kind: "lit", text: "(" + x.String() + ") " + unit, duck: "(" + x.SQL() + ") " + unit}}}
	case 1:
		ts := func() *gnode {
			return mcall(gDate, "date_trunc", "", strLit([]string{"year", "month", "day", "hour"}[g.pick(4)]), g.when(d-1))
		}
		return &gnode{t: gDate, kind: "op", text: "-", kids: []*gnode{ts(), ts()}}
	case 2:
		return &gnode{t: gDate, kind: "op", text: []string{"+", "-"}[g.pick(2)], kids: []*gnode{g.interval(d - 1), g.interval(d - 1)}}
	case 3:
		if g.pick(3) == 0 {
			// Scaled by a fraction, or divided by a number: DuckDB's
			// *(INTERVAL, DOUBLE) and /(INTERVAL, DOUBLE).
			f := &gnode{t: gF64, kind: "lit", text: []string{"1.5", "0.1", "-0.5", "7", "3", "0.25"}[g.pick(6)]}
			if g.pick(4) == 0 {
				f = g.expr(gF64, d-1)
			}
			if g.pick(2) == 0 {
				return &gnode{t: gDate, kind: "op", text: "/", kids: []*gnode{g.interval(d - 1), f}}
			}
			return &gnode{t: gDate, kind: "op", text: "*", kids: []*gnode{g.interval(d - 1), f}}
		}
		k := &gnode{t: gI64, kind: "lit", text: []string{"2", "-3", "0", "12", "1000"}[g.pick(5)]}
		if g.pick(2) == 0 {
			return &gnode{t: gDate, kind: "op", text: "*", kids: []*gnode{k, g.interval(d - 1)}}
		}
		return &gnode{t: gDate, kind: "op", text: "*", kids: []*gnode{g.interval(d - 1), k}}
	case 4:
		return &gnode{t: gDate, kind: "unary", text: "-", kids: []*gnode{g.interval(d - 1)}}
	}
	return lit
}

// shifted is a date or timestamp moved by an interval: a timestamp in
// both.
func (g *gen) shifted(d int) *gnode {
	x, iv := g.when(d), g.interval(d)
	switch g.pick(3) {
	case 0:
		return &gnode{t: gDate, kind: "op", text: "+", kids: []*gnode{iv, x}}
	case 1:
		return &gnode{t: gDate, kind: "op", text: "-", kids: []*gnode{x, iv}}
	}
	return &gnode{t: gDate, kind: "op", text: "+", kids: []*gnode{x, iv}}
}

// intervalPart is a part of an interval, or of a timestamp an interval
// moved: BIGINT in both.
func intervalPart(g *gen, d int) *gnode {
	switch g.pick(3) {
	case 0:
		return mcall(gI64, []string{"year", "month", "day", "hour", "minute", "second", "quarter"}[g.pick(7)], "", g.interval(d))
	case 1:
		return mcall(gI64, "date_part", "", strLit([]string{"year", "month", "day", "hour", "minute", "second", "doy"}[g.pick(7)]), g.shifted(d))
	}
	return mcall(gI64, "date_part", "", strLit(intervalPartPool[g.pick(len(intervalPartPool))]), g.interval(d))
}

// intervalEpoch is the seconds of an interval, DOUBLE in both.
func intervalEpoch(g *gen, d int) *gnode {
	if g.pick(2) == 0 {
		return mcall(gF64, "epoch", "", g.interval(d))
	}
	return mcall(gF64, "date_part", "", strLit("epoch"), g.interval(d))
}

// intervalCompare compares two intervals (by their span in both), or a
// moved date with a date.
func intervalCompare(g *gen, d int) *gnode {
	op := []string{"=", "<>", "<", "<=", ">", ">="}[g.pick(6)]
	if g.pick(3) == 0 {
		return &gnode{t: gBool, kind: "cmp", text: op, kids: []*gnode{g.shifted(d), g.when(d)}}
	}
	if g.pick(4) == 0 {
		return &gnode{t: gBool, kind: "between", kids: []*gnode{g.interval(d), g.interval(d), g.interval(d)}}
	}
	return &gnode{t: gBool, kind: "cmp", text: op, kids: []*gnode{g.interval(d), g.interval(d)}}
}
