// Package fn is colexpr's function vtable and registry.
//
// A Function is a function together with its options: `cast` carries its
// target type, `get_item` its field name, `literal` its value. Everything
// else a call needs comes from its arguments. A function declares
//
//   - its stable id (the name it is registered and serialized under),
//   - its arity, exact or variadic,
//   - how its arguments are typed and what it returns (ReturnType),
//   - its null handling, volatility and fallibility,
//   - for higher-order functions, the parameter types it gives its lambdas
//     (the HigherOrder interface),
//   - its Properties (the Describer interface): how the text syntax writes
//     it, how coerce makes its arguments meet, whether it evaluates
//     arguments lazily, whether its lambda is a predicate, how it orders for
//     pruning, and its Substrait name — what the other packages would
//     otherwise rediscover from its name,
//   - how it evaluates: the Kernel interface, implemented in the *_kernel.go
//     files of this package (literals, and functions that evaluate only some
//     rows of an argument, such as case_when and coalesce, are evaluated by
//     package eval).
//
// Typing is strict: arithmetic and comparison want arguments of one type
// (nullability may differ, and decimal arithmetic precision and scale), and the package coerce inserts the casts that
// make a user's expression meet that. Rewrite rules live in the optimize
// package, grouped by family, not here.
//
// Code outside this package tells functions apart by the ID constants
// (IDAdd, IDCast, …) or the function values (Add, CastFn{}), never by string
// literals: a misspelt name does not compile.
//
// Functions are grouped in one file per family: literal and struct
// (struct.go), arithmetic, comparison, boolean, null, cast, like,
// conditional, string (string.go, string_more.go, string_codec.go), json, list,
// math (math.go, math_trig.go, math_more.go), temporal (temporal.go,
// temporal_epoch.go) and interval.
//
// # Functions by category
//
// The functions of Default, by the name they are registered under, with
// their aliases in parentheses (operators show the text that calls them);
// TestDocListsEveryFunction keeps the list complete.
//
//	arithmetic   a + b (add, date_add), a - b (sub), a * b (mul), a / b (div),
//	             a % b (mod), -a (neg), abs
//	comparison   = (eq), <> (neq), < (lt), <= (lte), > (gt), >= (gte),
//	             IS [NOT] DISTINCT FROM (is_distinct_from, is_not_distinct_from),
//	             BETWEEN (between), IN (in_list), greatest, least
//	boolean      AND (and), OR (or), NOT (not)
//	null         IS NULL (is_null), IS NOT NULL (is_not_null), coalesce (ifnull),
//	             fill_null, error
//	types        typeof (colexpr's type names, typeof.go)
//	math         round, trunc, floor, ceil (ceiling), even, sqrt, cbrt, exp, ln,
//	             log, log10, log2, power (pow), sign, pi, sin, cos, tan, asin,
//	             acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh,
//	             radians, degrees, isnan, isinf, isfinite, gcd
//	             (greatest_common_divisor), lcm (least_common_multiple),
//	             factorial
//	bitwise      & (bitwise_and), | (bitwise_or), xor, << (shift_left),
//	             >> (shift_right), ~ (bitwise_not), bit_count
//	string       length (char_length), byte_length (octet_length, strlen), lower
//	             (lcase), upper (ucase), concat, || (string_concat), concat_ws,
//	             substring (substr), left, right, starts_with (prefix), ends_with
//	             (suffix), contains, strpos (instr), trim, ltrim, rtrim, replace,
//	             reverse, repeat, lpad, rpad, split_part, string_split (split,
//	             str_split, string_to_array), ascii, chr, format, printf,
//	             levenshtein (editdist3), bit_length, translate, md5, to_base64
//	             (base64), from_base64
//	regexp       regexp_matches (~), regexp_full_match (SIMILAR TO), glob (GLOB),
//	             regexp_replace, regexp_extract, regexp_extract_all, regexp_count,
//	             regexp_split_to_array (string_split_regex, str_split_regex)
//	json         json_extract_string (->>), json_extract, json_valid,
//	             json_array_length, json_type (json.go; documents are utf8)
//	list         list_value (array_value), list_element (list_extract),
//	             list_length (len, array_length), list_slice (array_slice),
//	             list_contains (list_has, array_contains), list_position
//	             (list_indexof, array_position, array_indexof), list_has_any
//	             (array_has_any), list_has_all (array_has_all), list_concat
//	             (list_cat, array_concat, array_cat), flatten, list_sum, list_avg,
//	             list_min, list_max, list_count, list_aggregate (list_aggr,
//	             aggregate, array_aggregate, array_aggr), list_sort (array_sort),
//	             list_reverse_sort (array_reverse_sort), list_reverse
//	             (array_reverse), list_distinct (array_distinct), list_unique
//	             (array_unique), array_to_string, list_string_agg
//	lambdas      list_transform (list_apply, array_transform), list_filter
//	             (array_filter), list_reduce (array_reduce), list_any
//	             (list_bool_or), list_all (list_bool_and)
//	struct       merge; packs, field access and struct_select/struct_exclude
//	             are syntax (package parse)
//	date, time   date_part (datepart, extract(part FROM x)) and its shorthands
//	             year, quarter, month, day (dayofmonth), dayofweek (weekday),
//	             isodow, dayofyear, week (weekofyear), isoyear, yearweek, decade,
//	             century, millennium, era, hour, minute, second, millisecond,
//	             microsecond, epoch; date_trunc (datetrunc), date_diff
//	             (datediff), last_day, make_date, make_timestamp, strftime,
//	             strptime, dayname, monthname, epoch_ms, epoch_us, epoch_ns,
//	             to_timestamp, time_bucket
//	clock        now (current_timestamp, get_current_timestamp,
//	             transaction_timestamp), today (current_date); one instant per
//	             parse (clock.go)
//	interval     to_years, to_quarters, to_months, to_weeks, to_days, to_hours,
//	             to_minutes, to_seconds, to_milliseconds, to_microseconds,
//	             to_decades, to_centuries, to_millennia (INTERVAL n UNIT)
//
// Notes on the DuckDB-dialect functions: list_element also reads a
// character of a string and list_slice slices strings; list_transform and
// list_filter give their lambda the element's index as an optional second
// parameter; + and - take dates and days (arith.go), and dates and
// timestamps take intervals (interval.go).
package fn

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/colexpr/colexpr/dtype"
)

// Function is the vtable of one function with its options. Implementations
// are immutable values, safe to share between goroutines and trees.
type Function interface {
	// ID is the stable name of the function, such as "add" or "cast".
	ID() string
	// Arity is the number of arguments the function accepts.
	Arity() Arity
	// ReturnType types a call whose arguments have the given dtypes (for a
	// lambda argument, the dtype of its body). A mismatch is an *ArgError.
	ReturnType(args []dtype.DType) (dtype.DType, error)
	// NullHandling says how nulls in the arguments reach the result.
	NullHandling() NullHandling
	// Volatility says whether equal inputs always give equal outputs.
	Volatility() Volatility
	// Fallible reports whether evaluation can fail on valid input (overflow,
	// division by zero, a bad cast).
	Fallible() bool
	// Equal reports whether f and other are the same function with the same
	// options.
	Equal(other Function) bool
	// Hash is consistent with Equal. Do not persist it: the built-in
	// functions seed it per process.
	Hash() uint64
}

// HigherOrder is a function with lambda arguments.
type HigherOrder interface {
	Function
	// IsLambdaArg reports whether argument i must be a lambda.
	IsLambdaArg(i int) bool
	// LambdaParams are the parameter types of the lambda at argument i,
	// given the types of the other arguments (lambda positions are zero).
	LambdaParams(i int, args []dtype.DType) ([]dtype.DType, error)
}

// Arity is an argument count: exactly Min when Max == Min, at least Min when
// Max < 0, otherwise between Min and Max.
type Arity struct{ Min, Max int }

// Exactly is the arity of exactly n arguments.
func Exactly(n int) Arity { return Arity{n, n} }

// AtLeast is the arity of n or more arguments.
func AtLeast(n int) Arity { return Arity{n, -1} }

// Accepts reports whether n arguments fit a.
func (a Arity) Accepts(n int) bool { return n >= a.Min && (a.Max < 0 || n <= a.Max) }

func (a Arity) String() string {
	switch {
	case a.Max == a.Min:
		return fmt.Sprintf("%d", a.Min)
	case a.Max < 0:
		return fmt.Sprintf("at least %d", a.Min)
	default:
		return fmt.Sprintf("%d to %d", a.Min, a.Max)
	}
}

// NullHandling says how a function treats null arguments.
type NullHandling uint8

const (
	// NullPropagating: a row is null when any argument is null there; the
	// kernel computes only the other rows, and only they can raise errors.
	NullPropagating NullHandling = iota
	// NullAware: the function decides itself (IS NULL, Kleene AND/OR,
	// coalesce, CASE).
	NullAware
)

// Volatility says whether a function is a pure function of its arguments.
type Volatility uint8

const (
	// Immutable functions give equal results for equal arguments; they may
	// be folded and deduplicated.
	Immutable Volatility = iota
	// Volatile functions may give different results on each call.
	Volatile
)

// ArgError is a typing error about one argument of a call (Arg < 0 when it
// is about the call as a whole, such as its arity).
type ArgError struct {
	Fn  string
	Arg int
	Msg string
}

func (e *ArgError) Error() string {
	if e.Arg < 0 {
		return e.Fn + ": " + e.Msg
	}
	return fmt.Sprintf("%s: argument %d: %s", e.Fn, e.Arg+1, e.Msg)
}

func argErr(f Function, i int, format string, a ...any) error {
	return &ArgError{Fn: f.ID(), Arg: i, Msg: fmt.Sprintf(format, a...)}
}

// CheckArity is the error for n arguments to f, or nil when they fit.
func CheckArity(f Function, n int) error {
	if f.Arity().Accepts(n) {
		return nil
	}
	return &ArgError{Fn: f.ID(), Arg: -1, Msg: fmt.Sprintf("takes %s, got %d", f.Arity().Count(), n)}
}

// Count is the arity in words: "1 argument", "at least 2 arguments".
func (a Arity) Count() string {
	if a.Min == 1 && (a.Max == 1 || a.Max < 0) {
		return a.String() + " argument" // "1 argument", "at least 1 argument"
	}
	return a.String() + " arguments"
}

// anyNullable reports whether any of ts is nullable.
func anyNullable(ts []dtype.DType) bool {
	for _, t := range ts {
		if t.Nullable() {
			return true
		}
	}
	return false
}

// sameType checks that every argument from index from on has the type of
// args[from] (ignoring nullability) and returns it.
func sameType(f Function, args []dtype.DType, from int) (dtype.DType, error) {
	t := args[from]
	for i := from + 1; i < len(args); i++ {
		if !args[i].EqualIgnoreNullability(t) {
			return dtype.DType{}, argErr(f, i, "has type %s, want %s like argument %d (cast one of them)", args[i], t.AsNonNullable(), from+1)
		}
	}
	return t, nil
}

var hashSeed = maphash.MakeSeed()

// hashString hashes a function id with optional extra words.
func hashString(parts ...string) uint64 {
	return maphash.String(hashSeed, strings.Join(parts, "\x00"))
}

// simple is the base of functions without options: their identity is their id.
type simple struct{ id string }

func (s simple) ID() string                 { return s.id }
func (s simple) NullHandling() NullHandling { return NullPropagating }
func (s simple) Volatility() Volatility     { return Immutable }
func (s simple) Fallible() bool             { return false }
func (s simple) Hash() uint64               { return hashString(s.id) }
func (s simple) Equal(o Function) bool      { return o != nil && o.ID() == s.id }
