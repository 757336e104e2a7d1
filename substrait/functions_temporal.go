package substrait

import (
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
