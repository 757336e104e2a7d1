package substrait

import (
	"fmt"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

const urnDatetime = extensions.SubstraitDefaultURNPrefix + "functions_datetime"

// The date and time functions (fn/temporal.go) have no Substrait form with
// colexpr's semantics, and their calls are refused with the reason:
// Substrait's extract names its component as an enum argument, which the
// exporter does not write, and its components differ from DuckDB's parts
// (no decade, century, millennium, era, yearweek or epoch; its
// SUBSECOND and week numbering are its own); round_calendar and
// round_temporal round to multiples from an origin rather than to the start
// of DuckDB's periods; there is no date_diff counting part boundaries, no
// last_day or make_date; strftime and strptime leave the format's
// specifiers to the consumer. Date arithmetic (date + i32 days) exports
// through the arithmetic functions, whose extension has no date signature,
// so substrait-go refuses it (Substrait adds intervals to dates).
func init() {
	const extract = "Substrait's extract takes the component as an enum argument, which colexpr's exporter does not write, and its components are not DuckDB's parts"
	refusals[fn.IDDatePart] = extract
	for _, f := range fn.Shorthands {
		refusals[f.ID()] = extract
	}
	for why, ids := range map[string][]string{
		"Substrait's round_calendar and round_temporal round to multiples from an origin, not to the start of DuckDB's periods": {fn.IDDateTrunc},
		"Substrait's standard extensions have no such function":                                                                 {fn.IDDateDiff, fn.IDLastDay, fn.IDMakeDate, fn.IDMakeTimestamp},
		"Substrait's strftime and strptime leave the format's specifiers to the consumer; colexpr's are DuckDB's":               {fn.IDStrftime, fn.IDStrptime},
		"Substrait's standard extensions have no clock; the optimized expression holds the instant as a literal, which exports": {fn.IDNow, fn.IDToday},
	} {
		for _, id := range ids {
			refusals[id] = why
		}
	}
	// functions_datetime's comparisons of dates, timestamps and zoned
	// timestamps are colexpr's (export writes functions_comparison's, whose
	// any1 signatures take the same types).
	for name, f := range map[string]fn.Function{"lt": fn.Lt, "lte": fn.LtEq, "gt": fn.Gt, "gte": fn.GtEq} {
		imports[extensions.ID{URN: urnDatetime, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
	// Intervals: Substrait's interval_year, interval_day and
	// interval_compound are colexpr's interval (months, days,
	// nanoseconds). add and subtract of a date or timestamp and an
	// interval are colexpr's + and - (months clamped to the month's end,
	// as DuckDB), add_intervals is + of intervals. Where Substrait types
	// the result a date (a date and an interval_year, or subtract of a
	// date and an interval_day) and colexpr a timestamp, the result is
	// cast to date: exact for whole months, and a time of day is dropped
	// (Substrait does not say what a date minus hours is).
	imports[extensions.ID{URN: urnDatetime, Name: "add"}] = importSpec{allowed: noOptions, typed: datetimeArith(fn.Add)}
	imports[extensions.ID{URN: urnDatetime, Name: "subtract"}] = importSpec{allowed: noOptions, typed: datetimeArith(fn.Sub)}
	imports[extensions.ID{URN: urnDatetime, Name: "add_intervals"}] = importSpec{allowed: noOptions, typed: datetimeArith(fn.Add)}
}

func datetimeArith(f fn.Function) func([]*expr.Bound, map[string]string, *dtype.DType) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string, out *dtype.DType) (*expr.Bound, error) {
		r, err := expr.NewCall(f, args...)
		if err != nil || out == nil || out.ExtID() != dtype.ExtDate || r.DType().ExtID() != dtype.ExtTimestamp {
			return r, err
		}
		return expr.NewCall(fn.Cast(dtype.Date(r.DType().Nullable())), r)
	}
}

// extractParts maps Substrait's extract components to colexpr's date_part
// parts (DuckDB's), where they mean the same: ISO_WEEK is DuckDB's week,
// MONDAY_DAY_OF_WEEK its isodow (Monday 1 … Sunday 7, the YAML's ONE
// indexing), MILLISECOND and MICROSECOND count the seconds too, as in
// DuckDB, and UNIX_TIME is the epoch's whole seconds. The other components
// (US_YEAR, US_WEEK, MONDAY_WEEK, SUNDAY_WEEK, SUBSECOND, NANOSECOND,
// PICOSECOND, TIMEZONE_OFFSET, SUNDAY_DAY_OF_WEEK) have no part with their
// meaning, and the indexing argument of the signatures that take one is
// refused (colexpr's parts count from 1).
var extractParts = map[string]fn.DatePart{
	"YEAR": fn.PartYear, "ISO_YEAR": fn.PartISOYear, "QUARTER": fn.PartQuarter, "MONTH": fn.PartMonth,
	"DAY": fn.PartDay, "DAY_OF_YEAR": fn.PartDayOfYear, "ISO_WEEK": fn.PartWeek, "MONDAY_DAY_OF_WEEK": fn.PartISODayOfWeek,
	"HOUR": fn.PartHour, "MINUTE": fn.PartMinute, "SECOND": fn.PartSecond,
	"MILLISECOND": fn.PartMillisecond, "MICROSECOND": fn.PartMicrosecond, "UNIX_TIME": fn.PartEpoch,
}

func init() {
	imports[extensions.ID{URN: urnDatetime, Name: "extract"}] = importSpec{allowed: noOptions, enums: 1, build: importExtract}
}

func importExtract(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	comp := chosen["enum0"]
	p, ok := extractParts[comp]
	if !ok {
		return nil, fmt.Errorf("%w: extract of %s: colexpr has no date part with its meaning", ErrUnsupported, comp)
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("%w: extract of %s with %d value arguments: colexpr's parts take the value only (no indexing or zone argument)", ErrUnsupported, comp, len(args))
	}
	r, err := expr.NewCall(fn.Shorthands[p], args[0])
	if err != nil {
		return nil, err
	}
	if r.DType().IsInt() && r.DType().PType() == dtype.I64 {
		return r, nil
	}
	if r.DType().IsFloat() {
		// the epoch: whole seconds, toward -Inf
		if r, err = expr.NewCall(fn.Floor, r); err != nil {
			return nil, err
		}
	}
	return expr.NewCall(fn.Cast(dtype.Primitive(dtype.I64, r.DType().Nullable())), r)
}
