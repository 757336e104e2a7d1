package fn

import (
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// The date and time functions, typed as DuckDB types them (checked against
// DuckDB 1.5):
//
//	date_part('part', x)    the field of a date or timestamp: i64, f64 for
//	extract(part FROM x)    'epoch'; parts (and DuckDB's abbreviations):
//	                        year, quarter, month, day, dayofweek (dow,
//	                        weekday; Sunday 0), isodow (Monday 1), dayofyear
//	                        (doy), week (ISO), isoyear, yearweek, decade,
//	                        century, millennium, era, hour, minute, second,
//	                        millisecond and microsecond (each with the
//	                        seconds: 12.345 s is 12345 ms), epoch (seconds
//	                        since 1970-01-01, f64); the part is a literal
//	year(x), month(x), …    the shorthands of date_part, one per part;
//	                        dayofmonth, weekday and weekofyear are aliases
//	date_trunc('part', x)   the start of x's period: a timestamp (a date's
//	                        is in microseconds, as DuckDB's TIMESTAMP);
//	                        parts millennium, century, decade (years
//	                        truncated toward zero, as in DuckDB), year,
//	                        quarter, month, week (the Monday), isoyear, day,
//	                        hour, minute, second, millisecond, microsecond
//	date_diff('part', a, b) the number of part boundaries from a to b, i64
//	datediff                (year: year(b) - year(a); hour: whole hours
//	                        since the epoch, rounded toward the past); week
//	                        is whole days / 7 and the year-based parts and
//	                        quarter divide toward zero, as in DuckDB; a date
//	                        beside a timestamp is taken as its midnight
//	last_day(x)             the last day of x's month, a date
//	date_add(d, n)          d + n: an alias of + (Add), as in DuckDB
//	make_date(y, m, d)      a date from i64 parts (an error when there is no
//	                        such day)
//	make_timestamp(y, m, d, h, mi, s)  a timestamp in microseconds; s is
//	                        f64 (its fraction rounded to a microsecond);
//	                        make_timestamp(micros) from microseconds
//
// The parts of a time of day (hour, minute, second, millisecond,
// microsecond, epoch: seconds since midnight) also take a time, and the
// parts of an interval an interval (see ToDays). A zoned
// timestamp is read in UTC (DuckDB reads a TIMESTAMPTZ in the session's
// time zone). year, isoyear, decade, century, millennium, era and epoch
// are non-decreasing in their argument, and date_trunc in its second:
// their Properties say so, for pruning.
//
// DatePartFn is date_part (DatePart is the type of a part); the shorthands
// are Shorthands[part].
var (
	DatePartFn    Function = datePart{simple{IDDatePart}}           // date_part('part', x)
	DateTrunc     Function = dateTrunc{simple{IDDateTrunc}}         // date_trunc('part', x)
	DateDiff      Function = dateDiff{simple{IDDateDiff}}           // date_diff('part', a, b), datediff
	LastDay       Function = lastDay{simple{IDLastDay}}             // last_day(x)
	MakeDate      Function = makeDate{simple{IDMakeDate}}           // make_date(y, m, d)
	MakeTimestamp Function = makeTimestamp{simple{IDMakeTimestamp}} // make_timestamp(y, m, d, h, mi, s), make_timestamp(micros)
)

// The ids of the date and time functions.
const (
	IDDatePart      = "date_part"
	IDDateTrunc     = "date_trunc"
	IDDateDiff      = "date_diff"
	IDLastDay       = "last_day"
	IDMakeDate      = "make_date"
	IDMakeTimestamp = "make_timestamp"
	IDStrftime      = "strftime"
	IDStrptime      = "strptime"
)

// DatePart is a field of a date or timestamp, as date_part names it.
type DatePart uint8

// The fields (see the list above).
const (
	PartYear DatePart = iota
	PartQuarter
	PartMonth
	PartDay
	PartDayOfWeek
	PartISODayOfWeek
	PartDayOfYear
	PartWeek
	PartISOYear
	PartYearWeek
	PartDecade
	PartCentury
	PartMillennium
	PartEra
	PartHour
	PartMinute
	PartSecond
	PartMillisecond
	PartMicrosecond
	PartEpoch
)

// partNames are the canonical names of the parts, which are also the ids
// of their shorthand functions.
var partNames = [...]string{"year", "quarter", "month", "day", "dayofweek", "isodow", "dayofyear", "week",
	"isoyear", "yearweek", "decade", "century", "millennium", "era", "hour", "minute", "second",
	"millisecond", "microsecond", "epoch"}

func (p DatePart) String() string { return partNames[p] }

// partAliases are DuckDB's other names of the parts.
var partAliases = map[string]DatePart{
	"y": PartYear, "yr": PartYear, "yrs": PartYear, "years": PartYear,
	"quarters": PartQuarter,
	"mon":      PartMonth, "mons": PartMonth, "months": PartMonth,
	"d": PartDay, "days": PartDay, "dayofmonth": PartDay,
	"dow": PartDayOfWeek, "weekday": PartDayOfWeek,
	"doy": PartDayOfYear,
	"w":   PartWeek, "weeks": PartWeek, "weekofyear": PartWeek,
	"dec": PartDecade, "decades": PartDecade, "decs": PartDecade,
	"c": PartCentury, "cent": PartCentury, "centuries": PartCentury,
	"mil": PartMillennium, "mils": PartMillennium, "millenniums": PartMillennium, "millennia": PartMillennium, "millenium": PartMillennium,
	"h": PartHour, "hr": PartHour, "hrs": PartHour, "hours": PartHour,
	"m": PartMinute, "min": PartMinute, "mins": PartMinute, "minutes": PartMinute,
	"s": PartSecond, "sec": PartSecond, "secs": PartSecond, "seconds": PartSecond,
	"ms": PartMillisecond, "msec": PartMillisecond, "msecs": PartMillisecond, "msecond": PartMillisecond, "mseconds": PartMillisecond, "milliseconds": PartMillisecond,
	"us": PartMicrosecond, "usec": PartMicrosecond, "usecs": PartMicrosecond, "usecond": PartMicrosecond, "useconds": PartMicrosecond, "microseconds": PartMicrosecond,
}

// ParseDatePart reads a part name as DuckDB does (case-insensitive, with
// its abbreviations).
func ParseDatePart(name string) (DatePart, bool) {
	s := strings.ToLower(strings.TrimSpace(name))
	for i, n := range partNames {
		if s == n {
			return DatePart(i), true
		}
	}
	p, ok := partAliases[s]
	return p, ok
}

// Shorthands are the functions year(x), month(x), …, one per part, by part.
var Shorthands = func() [len(partNames)]Function {
	var fs [len(partNames)]Function
	for i, n := range partNames {
		fs[i] = partFn{simple{n}, DatePart(i)}
	}
	return fs
}()

// monotonicParts are the parts that never decrease as time goes on.
// (Not yearweek: DuckDB subtracts the week in a negative year, so
// -0044's weeks run -4401, -4402, ….)
var monotonicParts = map[DatePart]bool{PartYear: true, PartISOYear: true, PartDecade: true,
	PartCentury: true, PartMillennium: true, PartEra: true, PartEpoch: true}

func init() {
	for _, f := range Shorthands {
		mustRegister(f)
	}
	for _, f := range []Function{DatePartFn, DateTrunc, DateDiff, LastDay, MakeDate, MakeTimestamp, Strftime, Strptime,
		ToMillennia, ToCenturies, ToDecades, ToYears, ToQuarters, ToMonths, ToWeeks, ToDays, ToHours, ToMinutes,
		ToSeconds, ToMilliseconds, ToMicroseconds} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{
		"datepart": DatePartFn, "datetrunc": DateTrunc, "datediff": DateDiff,
		"dayofmonth": Shorthands[PartDay], "weekday": Shorthands[PartDayOfWeek], "weekofyear": Shorthands[PartWeek],
		"date_add": Add, // DuckDB's date_add(d, n) is its + (date_add(1, 2) is 3)
	} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
	declared := &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared}
	for i, n := range partNames {
		p := declared
		if monotonicParts[DatePart(i)] {
			p = &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing}
		}
		builtinProperties[n] = p
	}
	for _, id := range []string{IDDatePart, IDDateDiff, IDLastDay, IDMakeDate, IDMakeTimestamp, IDStrftime, IDStrptime,
		IDToMillennia, IDToCenturies, IDToDecades, IDToYears, IDToQuarters, IDToMonths, IDToWeeks, IDToDays,
		IDToHours, IDToMinutes, IDToSeconds, IDToMilliseconds, IDToMicroseconds} {
		builtinProperties[id] = declared
	}
	builtinProperties[IDDateTrunc] = dateTruncProperties
}

// argTemporal checks that argument i is a date or a timestamp.
func argTemporal(f Function, args []dtype.DType, i int) error {
	if t := args[i]; t.IsTemporal() && t.ExtID() != dtype.ExtTime {
		return nil
	}
	return argErr(f, i, "has type %s, want a date or timestamp", args[i])
}

// temporalArgTypes: a null argument at the positions in at is taken as a
// date.
func temporalArgTypes(args []dtype.DType, at ...int) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for _, i := range at {
		if i < len(args) && args[i].IsNull() {
			out[i] = dtype.Date(true)
		}
	}
	return out
}

// partText is the part name a call gives as its literal argument i; null
// reports a null literal.
func partText(f Function, args []dtype.DType, consts []*scalar.Scalar, i int) (text string, null bool, err error) {
	if !args[i].IsUtf8() && !args[i].IsNull() {
		return "", false, argErr(f, i, "has type %s, want the name of a part as a string literal", args[i])
	}
	if len(consts) <= i || consts[i] == nil {
		return "", false, argErr(f, i, "must be a string literal naming a part, such as 'year'")
	}
	if consts[i].IsNull() {
		return "", true, nil
	}
	return consts[i].Value().(string), false, nil
}

// partFn is a shorthand: year(x), month(x), ….
type partFn struct {
	simple
	part DatePart
}

// Part is the field the function extracts.
func (p partFn) Part() DatePart { return p.part }

func (partFn) Arity() Arity { return Exactly(1) }

// ArgTypes: a null is taken as a date.
func (partFn) ArgTypes(args []dtype.DType) []dtype.DType { return temporalArgTypes(args, 0) }

func (p partFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := argPartOf(p, args, 0, p.part); err != nil {
		return dtype.DType{}, err
	}
	return partType(p.part, args[0].Nullable()), nil
}

// isTimePart reports whether p is a field of a time of day.
func isTimePart(p DatePart) bool { return p >= PartHour }

// argPartOf checks that argument i has part p: a date or timestamp, a
// time for the parts of a time of day, an interval for its parts.
func argPartOf(f Function, args []dtype.DType, i int, p DatePart) error {
	if t := args[i]; t.IsInterval() {
		if isIntervalPart(p) {
			return nil
		}
		return argErr(f, i, "has type %s, which has no %s (an interval has year, quarter, month, day, decade, century, millennium, hour, minute, second, millisecond, microsecond and epoch)", t, p)
	}
	if t := args[i]; t.IsTemporal() && t.ExtID() == dtype.ExtTime {
		if isTimePart(p) {
			return nil
		}
		return argErr(f, i, "has type %s, which has no %s (a time has hour, minute, second, millisecond, microsecond and epoch)", t, p)
	}
	return argTemporal(f, args, i)
}

// partType is the type of a part: i64, f64 for the epoch.
func partType(p DatePart, nullable bool) dtype.DType {
	if p == PartEpoch {
		return dtype.Primitive(dtype.F64, nullable)
	}
	return dtype.Primitive(dtype.I64, nullable)
}

// datePart is date_part('part', x) and extract(part FROM x).
type datePart struct{ simple }

func (datePart) Arity() Arity { return Exactly(2) }

// ArgTypes: a null part is utf8, a null value a date.
func (datePart) ArgTypes(args []dtype.DType) []dtype.DType {
	out := temporalArgTypes(args, 1)
	if args[0].IsNull() {
		out[0] = dtype.Utf8(true)
	}
	return out
}

func (d datePart) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return d.ReturnTypeConst(args, nil)
}

// ReturnTypeConst types the call from its part, which must be a literal
// (the type depends on it: the epoch is f64).
func (d datePart) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	text, null, err := partText(d, args, consts, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if null {
		if !args[1].IsTemporal() && !args[1].IsInterval() {
			return dtype.DType{}, argTemporal(d, args, 1)
		}
		return dtype.Primitive(dtype.I64, true), nil
	}
	p, ok := ParseDatePart(text)
	if !ok {
		return dtype.DType{}, argErr(d, 0, "part %q is not recognized (want year, month, day, hour, epoch, …)", text)
	}
	if err := argPartOf(d, args, 1, p); err != nil {
		return dtype.DType{}, err
	}
	return partType(p, anyNullable(args)), nil
}

// TruncPart is what date_trunc truncates to.
type TruncPart uint8

// The truncations.
const (
	TruncMillennium TruncPart = iota
	TruncCentury
	TruncDecade
	TruncYear
	TruncQuarter
	TruncMonth
	TruncWeek
	TruncISOYear
	TruncDay
	TruncHour
	TruncMinute
	TruncSecond
	TruncMillisecond
	TruncMicrosecond
)

// truncOf maps the date parts date_trunc accepts to its truncations.
var truncOf = map[DatePart]TruncPart{
	PartMillennium: TruncMillennium, PartCentury: TruncCentury, PartDecade: TruncDecade, PartYear: TruncYear,
	PartQuarter: TruncQuarter, PartMonth: TruncMonth, PartWeek: TruncWeek, PartISOYear: TruncISOYear,
	PartDay: TruncDay, PartHour: TruncHour, PartMinute: TruncMinute, PartSecond: TruncSecond,
	PartMillisecond: TruncMillisecond, PartMicrosecond: TruncMicrosecond,
	// DuckDB truncates to 'epoch' as to the second (the epoch counts
	// seconds).
	PartEpoch: TruncSecond,
}

// ParseTruncPart reads date_trunc's part.
func ParseTruncPart(name string) (TruncPart, bool) {
	p, ok := ParseDatePart(name)
	if !ok {
		return 0, false
	}
	t, ok := truncOf[p]
	return t, ok
}

// dateTrunc is date_trunc('part', x). It is non-decreasing in x (its
// second argument) for any part: its Properties declare OrderIncreasing
// with OrderArg 1, so that pruning can carry a chunk's bounds of x through
// it.
type dateTrunc struct{ simple }

var dateTruncProperties = &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing, OrderArg: 1}

func (dateTrunc) Arity() Arity { return Exactly(2) }

// Fallible: truncating can leave a timestamp's range (the start of the
// year of the first nanosecond timestamp), and a date's midnight may not
// fit a timestamp.
func (dateTrunc) Fallible() bool { return true }

// ArgTypes: a null part is utf8, a null value a date.
func (d dateTrunc) ArgTypes(args []dtype.DType) []dtype.DType { return datePart{}.ArgTypes(args) }

func (d dateTrunc) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return d.ReturnTypeConst(args, nil)
}

// ReturnTypeConst checks the part, which must be a literal: a timestamp,
// in microseconds for a date, else x's type.
func (d dateTrunc) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	if err := argTemporal(d, args, 1); err != nil {
		return dtype.DType{}, err
	}
	text, null, err := partText(d, args, consts, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if !null {
		if _, ok := ParseTruncPart(text); !ok {
			return dtype.DType{}, argErr(d, 0, "cannot truncate to %q (want year, quarter, month, week, day, hour, minute, second, …)", text)
		}
	}
	return truncType(args[1], anyNullable(args)), nil
}

// truncType is date_trunc's result type for x of type t.
func truncType(t dtype.DType, nullable bool) dtype.DType {
	if t.ExtID() == dtype.ExtDate {
		return dtype.Timestamp(dtype.Micro, "", nullable)
	}
	return t.WithNullable(nullable)
}

// DiffPart is what date_diff counts.
type DiffPart uint8

// The date_diff parts.
const (
	DiffMillennium DiffPart = iota
	DiffCentury
	DiffDecade
	DiffYear
	DiffQuarter
	DiffMonth
	DiffWeek
	DiffISOYear
	DiffDay
	DiffHour
	DiffMinute
	DiffSecond
	DiffMillisecond
	DiffMicrosecond
)

// diffOf maps the date parts date_diff accepts to what it counts: the
// parts of a day (day of week, of year) count days, as in DuckDB.
var diffOf = map[DatePart]DiffPart{
	PartMillennium: DiffMillennium, PartCentury: DiffCentury, PartDecade: DiffDecade, PartYear: DiffYear,
	PartQuarter: DiffQuarter, PartMonth: DiffMonth, PartWeek: DiffWeek, PartISOYear: DiffISOYear,
	PartDay: DiffDay, PartDayOfWeek: DiffDay, PartISODayOfWeek: DiffDay, PartDayOfYear: DiffDay,
	PartHour: DiffHour, PartMinute: DiffMinute, PartSecond: DiffSecond,
	PartMillisecond: DiffMillisecond, PartMicrosecond: DiffMicrosecond,
}

// ParseDiffPart reads date_diff's part.
func ParseDiffPart(name string) (DiffPart, bool) {
	p, ok := ParseDatePart(name)
	if !ok {
		return 0, false
	}
	d, ok := diffOf[p]
	return d, ok
}

// dateDiff is date_diff('part', a, b) (datediff).
type dateDiff struct{ simple }

func (dateDiff) Arity() Arity { return Exactly(3) }

// Fallible: a count in microseconds may not fit i64.
func (dateDiff) Fallible() bool { return true }

// ArgTypes: a null part is utf8; the values meet: a date beside a
// timestamp becomes one, timestamps of two units take the finer, a string
// beside either is cast to it; nulls are dates.
func (dateDiff) ArgTypes(args []dtype.DType) []dtype.DType {
	out := temporalArgTypes(args, 1, 2)
	if args[0].IsNull() {
		out[0] = dtype.Utf8(true)
	}
	a, b := args[1], args[2]
	switch {
	case a.IsTemporal() && b.IsTemporal() && !a.EqualIgnoreNullability(b):
		if t, ok := dtype.Supertype(a, b); ok {
			out[1], out[2] = t, t
		}
	case a.IsTemporal() && b.IsUtf8():
		out[2] = a // date_diff('day', d, '1995-02-01'), as DuckDB reads it
	case a.IsUtf8() && b.IsTemporal():
		out[1] = b
	}
	return out
}

func (d dateDiff) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return d.ReturnTypeConst(args, nil)
}

// ReturnTypeConst checks the part, which must be a literal, and that the
// values have one type.
func (d dateDiff) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	if err := argTemporal(d, args, 1); err != nil {
		return dtype.DType{}, err
	}
	if _, err := sameType(d, args, 1); err != nil {
		return dtype.DType{}, err
	}
	text, null, err := partText(d, args, consts, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if !null {
		if _, ok := ParseDiffPart(text); !ok {
			return dtype.DType{}, argErr(d, 0, "cannot count %q (want year, quarter, month, week, day, hour, minute, second, …)", text)
		}
	}
	return dtype.Primitive(dtype.I64, anyNullable(args)), nil
}

// lastDay is last_day(x).
type lastDay struct{ simple }

func (lastDay) Arity() Arity { return Exactly(1) }

// Fallible: the last day of the last month may not fit a date.
func (lastDay) Fallible() bool { return true }

// ArgTypes: a null is taken as a date.
func (lastDay) ArgTypes(args []dtype.DType) []dtype.DType { return temporalArgTypes(args, 0) }

func (l lastDay) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := argTemporal(l, args, 0); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Date(args[0].Nullable()), nil
}

// makeDate is make_date(y, m, d).
type makeDate struct{ simple }

func (makeDate) Arity() Arity { return Exactly(3) }

// Fallible: a day that does not exist is an error.
func (makeDate) Fallible() bool { return true }

// ArgTypes: every argument is i64, as DuckDB's signature says.
func (makeDate) ArgTypes(args []dtype.DType) []dtype.DType { return castInts(args, len(args)) }

// castInts: the first n arguments that are integers or nulls are i64.
func castInts(args []dtype.DType, n int) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for i := range min(n, len(args)) {
		if args[i].IsNull() || args[i].IsInt() {
			out[i] = i64T
		}
	}
	return out
}

func (m makeDate) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantTypes(m, args, i64T); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Date(anyNullable(args)), nil
}

// wantTypes checks that each argument has the type want names for it (the
// last repeats), nullability aside.
func wantTypes(f Function, args []dtype.DType, want ...dtype.DType) error {
	for i, a := range args {
		w := want[min(i, len(want)-1)]
		if !a.EqualIgnoreNullability(w) {
			return argErr(f, i, "has type %s, want %s", a, w.AsNonNullable())
		}
	}
	return nil
}

// makeTimestamp is make_timestamp(y, m, d, h, mi, s) and
// make_timestamp(micros).
type makeTimestamp struct{ simple }

func (makeTimestamp) Arity() Arity { return Arity{1, 6} }

// Fallible: a day or time of day that does not exist is an error.
func (makeTimestamp) Fallible() bool { return true }

// ArgTypes: the parts are i64 and the seconds f64.
func (makeTimestamp) ArgTypes(args []dtype.DType) []dtype.DType {
	out := castInts(args, 5)
	if len(args) == 6 && (args[5].IsNull() || args[5].IsNumeric()) {
		out[5] = f64T
	}
	return out
}

func (m makeTimestamp) ReturnType(args []dtype.DType) (dtype.DType, error) {
	switch len(args) {
	case 1:
		if err := wantTypes(m, args, i64T); err != nil {
			return dtype.DType{}, err
		}
	case 6:
		if err := wantTypes(m, args, i64T, i64T, i64T, i64T, i64T, f64T); err != nil {
			return dtype.DType{}, err
		}
	default:
		return dtype.DType{}, &ArgError{Fn: m.id, Arg: -1, Msg: "takes 1 argument (microseconds) or 6 (year, month, day, hour, minute, seconds)"}
	}
	return dtype.Timestamp(dtype.Micro, "", anyNullable(args)), nil
}

// Strftime is strftime(x, format) and Strptime strptime(s, format), with
// DuckDB's format specifiers (internal/kernels/temporal_format.go lists
// them; an unsupported one is an error naming it): strftime gives utf8,
// strptime a timestamp in microseconds, an error for a string that does
// not match. The format must be a literal.
var (
	Strftime Function = strftimeFn{simple{IDStrftime}}
	Strptime Function = strptimeFn{simple{IDStrptime}}
)

// formatText checks the literal format at argument i.
func formatText(f Function, args []dtype.DType, consts []*scalar.Scalar, i int, parse bool) error {
	if !args[i].IsUtf8() && !args[i].IsNull() {
		return argErr(f, i, "has type %s, want a format string", args[i])
	}
	if len(consts) <= i || consts[i] == nil {
		return argErr(f, i, "must be a string literal (the format)")
	}
	if consts[i].IsNull() {
		return nil
	}
	if _, err := kernels.CompileTimeFormat(consts[i].Value().(string), parse); err != nil {
		return argErr(f, i, "%v", err)
	}
	return nil
}

// strftimeFn is strftime(x, format).
type strftimeFn struct{ simple }

func (strftimeFn) Arity() Arity { return Exactly(2) }

// ArgTypes: a null value is a date, a null format utf8.
func (strftimeFn) ArgTypes(args []dtype.DType) []dtype.DType {
	out := temporalArgTypes(args, 0)
	if args[1].IsNull() {
		out[1] = dtype.Utf8(true)
	}
	return out
}

func (s strftimeFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return s.ReturnTypeConst(args, nil)
}

// ReturnTypeConst checks the format, which must be a literal.
func (s strftimeFn) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	if err := argTemporal(s, args, 0); err != nil {
		return dtype.DType{}, err
	}
	if err := formatText(s, args, consts, 1, false); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Utf8(anyNullable(args)), nil
}

// strptimeFn is strptime(s, format).
type strptimeFn struct{ simple }

func (strptimeFn) Arity() Arity { return Exactly(2) }

// Fallible: a string that does not match the format is an error.
func (strptimeFn) Fallible() bool { return true }

// ArgTypes: nulls are utf8.
func (strptimeFn) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for i, a := range args {
		if a.IsNull() {
			out[i] = dtype.Utf8(true)
		}
	}
	return out
}

func (s strptimeFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return s.ReturnTypeConst(args, nil)
}

// ReturnTypeConst checks the format, which must be a literal.
func (s strptimeFn) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	if !args[0].IsUtf8() {
		return dtype.DType{}, argErr(s, 0, "has type %s, want utf8", args[0])
	}
	if err := formatText(s, args, consts, 1, true); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Timestamp(dtype.Micro, "", anyNullable(args)), nil
}

func isDate(t dtype.DType) bool { return t.IsTemporal() && t.ExtID() == dtype.ExtDate }

// dateArith types the date arithmetic DuckDB has: date + i32, i32 + date
// and date - i32 are dates (days added), date - date is the i64 number of
// days between them.
func dateArith(a arith, l, r dtype.DType, nullable bool) (dtype.DType, error) {
	isI32 := func(t dtype.DType) bool { return t.IsInt() && t.PType() == dtype.I32 }
	switch {
	case a.op == '-' && isDate(l) && isDate(r):
		return dtype.Primitive(dtype.I64, nullable), nil
	case (a.op == '+' || a.op == '-') && isDate(l) && isI32(r):
		return dtype.Date(nullable), nil
	case a.op == '+' && isI32(l) && isDate(r):
		return dtype.Date(nullable), nil
	case a.op == '+' || a.op == '-':
		i, t := 1, r
		if !isDate(l) {
			i, t = 0, l
		}
		return dtype.DType{}, argErr(a, i, "has type %s, want i32 (a number of days) beside a date", t)
	}
	i := 0
	if !isDate(l) {
		i = 1
	}
	return dtype.DType{}, argErr(a, i, "has type date, which %s does not take (dates take + and - of i32 days, and date - date)", a.id)
}
