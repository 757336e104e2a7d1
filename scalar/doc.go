// Package scalar holds typed constant values: a dtype plus a Go value.
//
// # Values
//
// The Go value for each dtype kind:
//
//	Null, or any null value      nil
//	Bool                          bool
//	signed integers               int64
//	unsigned integers             uint64
//	f16, f32, f64                 float64 (f16 and f32 values are exactly representable;
//	                              every NaN is one canonical quiet NaN)
//	Decimal                       decimal128.Num (the unscaled integer)
//	Utf8                          string (valid UTF-8)
//	Binary                        string (the bytes, immutable)
//	date, time, timestamp         int64 (the storage value: days or ticks)
//	interval                      arrow.MonthDayNanoInterval (months, days, nanoseconds)
//	Struct                        []Scalar, one per field
//	List, FixedSizeList           []Scalar, one per element
//
// A Scalar is immutable; its slices are never modified after construction.
// The scalars nested in a struct or list carry exactly the dtype of their
// slot (the field type or the element type), so a null element of a
// list<i32?> is Null(i32?) and a value in it is labelled i32?. A time of day
// lies in [0, 24h). Timestamps count ticks since 1970-01-01 00:00:00 UTC;
// the time zone of a zoned timestamp is metadata (see Time zones below).
//
// # Identity, hashing and order
//
// Identical is structural equality: the same dtype (nullability included, at
// every level) and the same value, with floats compared by their bits, so NaN
// is identical to NaN (scalars hold a single canonical NaN: its sign and
// payload are not kept, as text could not carry them) and -0.0 is not
// identical to 0.0.
// Hash agrees with Identical.
//
// Compare orders two non-null values of one type (nullability ignored):
// numbers and decimals by value, false before true, strings and binaries
// bytewise, dates, times and timestamps by their storage value, intervals
// by their span (see Intervals). Floats are
// totally ordered as in DuckDB: -0.0 equals 0.0, and NaN equals NaN and sorts
// after every other value (+Inf included). Structs compare field by field and
// lists element by element (a proper prefix sorts first); inside them a null
// sorts after every non-null value and equals another null.
//
// # Text
//
// SQL prints a scalar as a literal of the colexpr expression syntax that
// reads back to an identical scalar, dtype included; String is SQL. The
// grammar SQL emits:
//
//	literal  := base [ '::' type ]
//	base     := 'null'                        the untyped null (dtype null)
//	          | 'true' | 'false'              natural type bool
//	          | number                        untyped: see ParseNumber
//	          | string                        natural type utf8
//	          | 'x' quote hexpairs quote      natural type binary, lower-case hex
//	          | 'DATE' string                 natural type date
//	          | 'TIMESTAMP' string            natural type timestamp(us)
//	          | 'INTERVAL' string             natural type interval
//	          | '[' [ literal { ', ' literal } ] ']'
//	          | '{' [ string ': ' literal { ', ' string ': ' literal } ] '}'
//	number   := [ '-' ] digits [ '.' digits ] [ 'e' ( '+' | '-' ) digits ]
//	string   := quote { char | quote quote } quote    (SQL doubling, no backslash escapes)
//	type     := the canonical dtype text (dtype.DType.String)
//
// A literal means Cast(base, type), where base is read as its natural type
// (a number by ParseNumber, DATE 'text' as Cast(utf8 'text', date), TIMESTAMP
// 'text' as Cast(utf8 'text', timestamp(us))). A minus sign written directly
// before a number belongs to the number, and '::' applies to the signed
// number: -128::i8 is Cast(ParseNumber("-128"), i8), not a negation. The
// suffix is present exactly when the natural type of base differs from the
// scalar's dtype:
//
//	null                          the untyped null
//	null::i32?                    a null of any other type (the type ends in ?)
//	5::i32   -5::i64   5::i32?    integers always carry their type
//	12.50::decimal(15,2)          decimals: the digits with exactly `scale` decimals
//	2.5::f64   1e+20::f64         floats: the text of Cast(x, utf8) (see Cast)
//	'NaN'::f64  'Infinity'::f32  '-Infinity'::f64  '-0.0'::f64
//	'1e+20'::f32                  f32 and f16 in exponent form are quoted
//	true   false::bool?   'it''s'   'a'::utf8?   x'00ff'   x''::binary?
//	DATE '1995-01-01'              DATE '1995-01-01'::date?
//	TIMESTAMP '1995-01-01 12:00:00'            (timestamp(us), no zone)
//	'1995-01-01 12:00:00.123456789'::timestamp(ns)
//	'1995-01-01 12:00:00+00'::timestamp(us, 'UTC')
//	'12:00:00.5'::time(ms)
//	INTERVAL '1 year 2 months 3 days 04:05:06'   INTERVAL '-1 day'::interval?
//	[1::i32, 2::i32]              list<i32>, the natural type of its elements
//	[1::i32?, null::i32?]         list<i32?>
//	[]::list<utf8>   [1::i32]::list<i32>?   [1::i32, 2::i32]::fixed_size_list<i32, 2>
//	{'a': 1::i32, 'b': 'x'}        struct<a: i32, b: utf8>
//	{'a': 1::i32}::struct<a: i32>?
//
// The natural type of a list literal [e1, …, en] is list<T> where T is the
// dtype.Supertype of the elements' types (each element is cast to T);
// every element is printed with
// exactly the element type, so T is the element type. The natural type of []
// is list<null>. The natural type of a struct literal is the non-nullable
// struct of its values' types, in order.
//
// Quoted forms are used where a bare number could not carry the value
// exactly: f32 and f16 values in exponent form (a bare exponent number reads
// as f64, and rounding through f64 could differ), -0.0, NaN and the
// infinities, and decimal(38,38) values (their text has 39 digits).
//
// ValueText is the base of SQL without the type suffix, except for floats
// (see ValueText). It is what the printer writes for an untyped literal, and
// ParseNumber reads it back.
//
// # Casts
//
// Cast converts a scalar to another dtype, checked: see Cast for the full
// table. Failures wrap errs.ErrInvalidCast (and errs.ErrOverflow when a value
// is out of range), so errors.Is works on them. TryCast gives a null instead.
//
// # Dates and times as text
//
// Dates use the proleptic Gregorian calendar with astronomical year
// numbering (year 0 is 1 BC, year -1 is 2 BC). Cast to utf8 prints:
//
//	date       [-]YYYY-MM-DD              1995-01-01, -0001-12-31, 5881580-07-11
//	time       HH:MM:SS[.fraction]        12:00:00, 12:00:00.5 (no trailing zeros)
//	timestamp  date HH:MM:SS[.fraction]   1995-01-01 12:00:00.123456789
//	           followed by +00 when the timestamp has a zone
//
// Cast from utf8 trims white space and also accepts a 1- or 2-digit month,
// day and hour, a date alone as a timestamp (midnight), T between date and
// time, HH:MM without seconds, and any number of fraction digits: digits
// finer than the unit are dropped (which rounds toward the past). A
// timestamp may end in Z, UTC or an offset ±HH, ±HH:MM or ±HHMM.
//
// # Intervals
//
// An interval counts months, days and nanoseconds apart, as DuckDB's
// INTERVAL does (Arrow's month_day_nano). Its text is DuckDB's: Cast to
// utf8 writes `1 year 2 months 3 days 04:05:06.5` (00:00:00 for the zero
// interval), and the cast from utf8 reads that and DuckDB's other forms:
// quantities with units and DuckDB's abbreviations ('3 days', '1.5 hours',
// '2 y 3 mons', '10 ms'), a trailing time ('1 day -02:00'), a leading @
// and a trailing ago. A fraction carries into the smaller fields (1.5
// months is 1 month 15 days); the time is kept to the microsecond, as
// DuckDB keeps it. The time of an interval holds ±2562047 hours in
// nanoseconds (DuckDB's microseconds hold a thousand times more); beyond
// that the cast fails with errs.ErrOverflow. Compare orders intervals by
// the span they cover, a month taken as 30 days and a day as 24 hours, as
// DuckDB compares them.
//
// # Time zones
//
// colexpr does not consult a time zone database. A timestamp with a zone
// stores the UTC instant; its text is the UTC wall time followed by +00.
// Text cast to a timestamp may end in Z, UTC or an offset ±hh[:mm] and is
// converted to UTC; text without one is read as UTC. Changing only the zone
// of a timestamp (or adding or removing one) keeps the stored instant.
//
// # Arrow
//
// FromArray reads one row of an Arrow array, Append writes a scalar to an
// Arrow builder, MakeArray broadcasts a scalar to an array, and
// ToArrowScalar and FromArrowScalar convert to and from the scalars of
// github.com/apache/arrow-go/v18/arrow/scalar. The Arrow type of a dtype is
// dtype.ToArrow; the names of list element fields are not compared.
package scalar
