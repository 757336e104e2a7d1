package scalar_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// castCase: the literal in (read with the reference reader), the target
// type, and the SQL of the result or "error: <substring>"; overflow marks
// errors that must also wrap errs.ErrOverflow.
type castCase struct {
	in, to, want string
	overflow     bool
}

var castCases = []castCase{
	// Integers.
	{"255::i32", "u8", "255::u8", false},
	{"300::i32", "i8", "error: cannot cast 300::i32 to i8: out of range", true},
	{"-1::i32", "u8", "error: out of range", true},
	{"-1::i64", "u64", "error: out of range", true},
	{"18446744073709551615::u64", "i64", "error: out of range", true},
	{"9223372036854775807::u64", "i64", "9223372036854775807::i64", false},
	{"-128::i64", "i8", "-128::i8", false},
	{"5::i32", "i32?", "5::i32?", false},
	{"5::i32?", "i32", "5::i32", false},
	// Float → integer: nearest, ties to even.
	{"2.5::f64", "i32", "2::i32", false},
	{"3.5::f64", "i32", "4::i32", false},
	{"-2.5::f64", "i32", "-2::i32", false},
	{"-0.5::f64", "u8", "0::u8", false},
	{"255.5::f64", "u8", "error: out of range", true},
	{"'NaN'::f64", "i32", "error: out of range", true},
	{"'Infinity'::f64", "i64", "error: out of range", true},
	{"9.2233720368547758e+18::f64", "i64", "error: out of range", true},
	{"-9.2233720368547758e+18::f64", "i64", "-9223372036854775808::i64", false},
	{"1.8446744073709550e+19::f64", "u64", "18446744073709549568::u64", false},
	// Decimal → integer: half away from zero.
	{"2.5::decimal(2,1)", "i32", "3::i32", false},
	{"-2.5::decimal(2,1)", "i32", "-3::i32", false},
	{"-0.4::decimal(2,1)", "u8", "0::u8", false},
	{"-0.5::decimal(2,1)", "u8", "error: out of range", true},
	{"99999999999999999999999999999999999999::decimal(38,0)", "i64", "error: out of range", true},
	// Decimal rescaling: half away from zero.
	{"12.345::decimal(5,3)", "decimal(4,2)", "12.35::decimal(4,2)", false},
	{"-12.345::decimal(5,3)", "decimal(4,2)", "-12.35::decimal(4,2)", false},
	{"12.344::decimal(5,3)", "decimal(4,2)", "12.34::decimal(4,2)", false},
	{"99.995::decimal(5,3)", "decimal(4,2)", "error: out of range", true},
	{"1.5::decimal(2,1)", "decimal(10,5)", "1.50000::decimal(10,5)", false},
	{"123::i32", "decimal(5,2)", "123.00::decimal(5,2)", false},
	{"1::i32", "decimal(1,1)", "error: out of range", true},
	{"18446744073709551615::u64", "decimal(20,0)", "18446744073709551615::decimal(20,0)", false},
	{"true", "decimal(3,2)", "1.00::decimal(3,2)", false},
	// Float → decimal: the shortest text, half away from zero.
	{"2.675::f64", "decimal(3,2)", "2.68::decimal(3,2)", false},
	{"-2.675::f64", "decimal(3,2)", "-2.68::decimal(3,2)", false},
	{"0.1::f32", "decimal(10,9)", "0.100000000::decimal(10,9)", false},
	{"1e+20::f64", "decimal(38,0)", "100000000000000000000::decimal(38,0)", false},
	{"1e+40::f64", "decimal(38,0)", "error: out of range", true},
	{"1e-300::f64", "decimal(5,2)", "0.00::decimal(5,2)", false},
	{"'NaN'::f64", "decimal(5,2)", "error: NaN is not a finite number", false},
	// To floats.
	{"0.1::decimal(1,1)", "f64", "0.1::f64", false},
	{"0.1::decimal(1,1)", "f32", "0.1::f32", false},
	{"0.1::decimal(1,1)", "f16", "0.1::f16", false},
	{"99999999999999999999999999999999999999::decimal(38,0)", "f32", "'1e+38'::f32", false},
	{"99999999999999999999999999999999999999::decimal(38,0)", "f16", "error: out of range", true},
	{"65519::i32", "f16", "65500.0::f16", false},
	{"65520::i32", "f16", "error: out of range", true},
	{"70000::i32", "f16", "error: out of range", true},
	{"2049::i32", "f16", "2048.0::f16", false},
	{"2051::i32", "f16", "2052.0::f16", false},
	{"16777217::i32", "f32", "16777216.0::f32", false},
	{"9007199254740993::i64", "f64", "9007199254740992.0::f64", false},
	{"9223372036854775807::i64", "f64", "9.223372036854776e+18::f64", false},
	{"18446744073709551615::u64", "f32", "'1.8446744e+19'::f32", false},
	{"1e+300::f64", "f32", "error: out of range", true},
	{"'Infinity'::f64", "f32", "'Infinity'::f32", false},
	{"'NaN'::f64", "f16", "'NaN'::f16", false},
	{"'-0.0'::f64", "f16", "'-0.0'::f16", false},
	{"0.1::f64", "f32", "0.1::f32", false},
	{"1e-50::f64", "f32", "0.0::f32", false},
	{"true", "f64", "1.0::f64", false},
	// To bool.
	{"0::i32", "bool", "false", false},
	{"-5::i32", "bool", "true", false},
	{"'NaN'::f64", "bool", "true", false},
	{"'-0.0'::f64", "bool", "false", false},
	{"0.00::decimal(3,2)", "bool", "false", false},
	{"true", "i8", "1::i8", false},
	{"false", "u64", "0::u64", false},
	// To utf8.
	{"1.5::f64", "utf8", "'1.5'", false},
	{"2.0::f64", "utf8", "'2.0'", false},
	{"1e+20::f64", "utf8", "'1e+20'", false},
	{"'-0.0'::f64", "utf8", "'-0.0'", false},
	{"'-Infinity'::f64", "utf8", "'-Infinity'", false},
	{"0.1::f32", "utf8", "'0.1'", false},
	{"16777216.0::f32", "utf8", "'16777216.0'", false},
	{"12.50::decimal(4,2)", "utf8", "'12.50'", false},
	{"-0.05::decimal(3,2)", "utf8", "'-0.05'", false},
	{"-7::i8", "utf8", "'-7'", false},
	{"true", "utf8?", "'true'::utf8?", false},
	{"DATE '1995-01-01'", "utf8", "'1995-01-01'", false},
	{"TIMESTAMP '1995-01-01 12:00:00.5'", "utf8", "'1995-01-01 12:00:00.5'", false},
	{"'12:00:00'::time(s)", "utf8", "'12:00:00'", false},
	{"x'6869'", "utf8", "'hi'", false},
	{"x'ff'", "utf8", "error: cannot cast x'ff' to utf8: the bytes are not valid UTF-8", false},
	{"5::i32?", "utf8", "'5'", false},
	// From utf8: numbers.
	{"' 42 '", "i32", "42::i32", false},
	{"'+7'", "i32", "7::i32", false},
	{"'4.5'", "i32", "5::i32", false},
	{"'1e3'", "i16", "1000::i16", false},
	{"'-0.4'", "i8", "0::i8", false},
	// An unsigned type takes a minus sign only in -0, -00, … (DuckDB's rule).
	{"'-0.4'", "u8", "error: cannot cast '-0.4' to u8: out of range", true},
	{"'-0.01'", "u64", "error: out of range", true},
	{"'-1'", "u32", "error: out of range", true},
	{"'-0'", "u64", "0::u64", false},
	{"'-00'", "u16", "0::u16", false},
	{"' -0'", "u8", "0::u8", false},
	{"'-0 '", "u8", "error: a minus sign is accepted for an unsigned type only before zeros alone", false},
	{"'-0.0'", "u32", "error: a minus sign is accepted for an unsigned type only before zeros alone", false},
	{"'-0e5'", "u64", "error: a minus sign is accepted for an unsigned type only before zeros alone", false},
	{"'-'", "u64", "error: not a number", false},
	{"'+0.4'", "u8", "0::u8", false},
	{"' 5 '", "u32", "5::u32", false},
	{"'256'", "u8", "error: cannot cast '256' to u8: out of range", true},
	{"'1e100000000000'", "i64", "error: out of range", true},
	{"'1e-100000000000'", "i64", "0::i64", false},
	{"'abc'", "i32", "error: cannot cast 'abc' to i32: not a number", false},
	{"''", "i32", "error: not a number", false},
	{"'1 2'", "i32", "error: not a number", false},
	{"'0x10'", "i32", "error: not a number", false},
	{"'2.675'", "decimal(3,2)", "2.68::decimal(3,2)", false},
	{"'-2.675'", "decimal(3,2)", "-2.68::decimal(3,2)", false},
	{"'1000'", "decimal(3,0)", "error: out of range", true},
	{"'nan'", "f64", "'NaN'::f64", false},
	{"' -Infinity '", "f64", "'-Infinity'::f64", false},
	{"'+inf'", "f32", "'Infinity'::f32", false},
	{"'1e39'", "f32", "'Infinity'::f32", false}, // beyond the range: ±Inf, as DuckDB
	{"'-1e400'", "f64", "'-Infinity'::f64", false},
	{"'1e-50'", "f32", "0.0::f32", false},
	{"'0x1p3'", "f64", "error: not a number", false},
	{"'1_0'", "f64", "error: not a number", false},
	{"'infinit'", "f64", "error: not a number", false},
	{"'--inf'", "f64", "error: not a number", false},
	{"'65519'", "f16", "65500.0::f16", false},
	{"'65520'", "f16", "error: out of range", true},
	{"'2049'", "f16", "2048.0::f16", false},
	{"'2049.0000000000000000000001'", "f16", "2050.0::f16", false},
	{"'2048.9999999999999999999999'", "f16", "2048.0::f16", false},
	// From utf8: bool.
	{"'TRUE'", "bool", "true", false},
	{"'yes'", "bool", "true", false},
	{"'y'", "bool", "true", false},
	{"'Y'", "bool", "true", false},
	{"'n'", "bool", "false", false},
	{"'N'", "bool", "false", false},
	{"'t'", "bool", "true", false},
	{"'1'", "bool", "true", false},
	{"'fAlSe'", "bool", "false", false},
	// DuckDB does not trim white space around a bool.
	{"' yes '", "bool", "error: not a boolean", false},
	{"'t '", "bool", "error: not a boolean", false},
	{"'ye'", "bool", "error: not a boolean", false},
	{"'00'", "bool", "error: not a boolean", false},
	{"'on'", "bool", "error: not a boolean", false},
	{"'truee'", "bool", "error: not a boolean", false},
	{"'f'", "bool", "false", false},
	{"'0'", "bool", "false", false},
	{"'No'", "bool", "false", false},
	{"'maybe'", "bool", "error: not a boolean", false},
	// From utf8: temporal.
	{"'1995-1-1'", "date", "DATE '1995-01-01'", false},
	{"'2000-02-29'", "date", "DATE '2000-02-29'", false},
	{"'1900-02-29'", "date", "error: not a date: day 29 out of range for the month", false},
	{"'1995-13-01'", "date", "error: not a date: month 13 out of range", false},
	{"'-0001-12-31'", "date", "DATE '0002-12-31 (BC)'", false},
	{"'0002-12-31 (BC)'", "date", "DATE '0002-12-31 (BC)'", false},
	{"'0001-01-01 (BC)'", "date", "DATE '0001-01-01 (BC)'", false},
	{"'0000-01-01 (BC)'", "date", "error: not a date: a year of (BC) counts from 1", false},
	{"'5881580-07-12'", "date", "error: not a date: date out of range", true},
	{"'1995-01-01 12:00'", "date", "error: not a date: unexpected \" 12:00\" after the date", false},
	{"'1995/01/01'", "date", "error: not a date: expected '-' after the year", false},
	{"'12:00'", "time(s)", "'12:00:00'::time(s)", false},
	{"'1:02:03'", "time(us)", "'01:02:03'::time(us)", false},
	{"'12:00:00.123456789'", "time(ms)", "'12:00:00.123'::time(ms)", false},
	{"'24:00:00'", "time(s)", "error: not a time: time of day out of range", false},
	{"'12:60:00'", "time(s)", "error: not a time: time of day out of range", false},
	{"'12:00:00.'", "time(s)", "error: not a time: expected digits after '.'", false},
	{"'1995-01-01'", "timestamp(us)", "TIMESTAMP '1995-01-01 00:00:00'", false},
	{"'1995-01-01T12:00:00Z'", "timestamp(us)", "TIMESTAMP '1995-01-01 12:00:00'", false},
	{"'1995-01-01 12:00:00+02'", "timestamp(us)", "TIMESTAMP '1995-01-01 10:00:00'", false},
	{"'1995-01-01 12:00:00-05:30'", "timestamp(us)", "TIMESTAMP '1995-01-01 17:30:00'", false},
	{"'1995-01-01 12:00:00 UTC'", "timestamp(us, 'UTC')", "'1995-01-01 12:00:00+00'::timestamp(us, 'UTC')", false},
	{"'1995-01-01 12:00:00.5'", "timestamp(s)", "'1995-01-01 12:00:00'::timestamp(s)", false},
	{"'1969-12-31 23:59:59.9999999999'", "timestamp(ns)", "'1969-12-31 23:59:59.999999999'::timestamp(ns)", false},
	{"'2262-04-12'", "timestamp(ns)", "error: not a timestamp: timestamp out of range for ns", true},
	{"'1995-01-01 25:00:00'", "timestamp(us)", "error: not a timestamp: time of day out of range", false},
	{"'1995-01-01 12:00:00+2'", "timestamp(us)", "error: not a timestamp: expected a two-digit offset hour", false},
	{"'1995-01-01 12:00:00 PST'", "timestamp(us)", "error: not a timestamp: unexpected", false},
	{"'hi'", "binary", "x'6869'", false},
	// Between temporal types.
	{"DATE '1995-01-01'", "timestamp(ns, 'UTC')", "'1995-01-01 00:00:00+00'::timestamp(ns, 'UTC')", false},
	{"DATE '5881580-07-11'", "timestamp(ns)", "error: out of range", true},
	{"TIMESTAMP '1969-12-31 23:59:59.999999'", "date", "DATE '1969-12-31'", false},
	{"'-292277022657-01-27 08:29:52'::timestamp(s)", "date", "error: out of range", true},
	{"TIMESTAMP '1969-12-31 23:59:59.999999'", "timestamp(s)", "'1969-12-31 23:59:59'::timestamp(s)", false},
	{"'2262-04-11 23:47:16'::timestamp(s)", "timestamp(ns)", "'2262-04-11 23:47:16'::timestamp(ns)", false},
	{"'2262-04-12 00:00:00'::timestamp(s)", "timestamp(ns)", "error: out of range", true},
	{"TIMESTAMP '1995-01-01 12:00:00'", "timestamp(us, 'UTC')", "'1995-01-01 12:00:00+00'::timestamp(us, 'UTC')", false},
	{"'12:00:00.999'::time(ms)", "time(s)", "'12:00:00'::time(s)", false},
	{"'12:00:00.999'::time(ms)", "time(ns)", "'12:00:00.999'::time(ns)", false},
	// Nested.
	{"[1::i32, 2::i32]", "list<i8>", "[1::i8, 2::i8]", false},
	{"[1::i32, 300::i32]", "list<i8>", "error: cannot cast [1::i32, 300::i32] to list<i8>: element 1: out of range", true},
	{"[1::i32?, null::i32?]", "list<i64>", "error: element 1: null in a non-nullable i64", false},
	{"[1::i32?, null::i32?]", "list<i64?>", "[1::i64?, null::i64?]", false},
	{"[1::i32, 2::i32]", "fixed_size_list<i64, 2>", "[1::i64, 2::i64]::fixed_size_list<i64, 2>", false},
	{"[1::i32, 2::i32]", "fixed_size_list<i64, 3>", "error: the list has 2 elements, not 3", false},
	{"[1::i32]::fixed_size_list<i32, 1>", "list<utf8>", "['1']", false},
	{"[]", "list<date>", "[]::list<date>", false},
	{"{'a': 1::i32, 'b': 'x'}", "struct<a: i64, b: utf8?>", "{'a': 1::i64, 'b': 'x'::utf8?}", false},
	{"{'a': 'x'}", "struct<a: i32>", "error: field a: not a number", false},
	{"{'a': {'b': [300::i32]}}", "struct<a: struct<b: list<i8>>>", "error: field a: field b: element 0: out of range", true},
	// Nulls.
	{"null::i32?", "utf8", "null::utf8?", false},
	{"null", "struct<a: i32>", "null::struct<a: i32>?", false},
	{"null", "null", "null", false},
	// Undefined casts, whatever the value.
	{"null::struct<a: i32>?", "i32", "error: no cast is defined from struct<a: i32>? to i32", false},
	{"{'a': 1::i32}", "struct<b: i32>", "error: no cast is defined", false},
	{"{'a': 1::i32}", "struct<a: i32, b: i32>", "error: no cast is defined", false},
	{"5::i32", "null", "error: no cast is defined from i32 to null", false},
	{"[1::i32]", "utf8", "error: no cast is defined", false},
	{"'[1]'", "list<i32>", "error: no cast is defined", false},
	{"DATE '1995-01-01'", "time(s)", "error: no cast is defined", false},
	{"true", "date", "error: no cast is defined", false},
	{"1::i32", "date", "error: no cast is defined", false},
	{"x'00'", "i32", "error: no cast is defined", false},
	{"' 1 YEAR 14 months 3 days 04:05:06.5 '", "interval", "INTERVAL '2 years 2 months 3 days 04:05:06.5'", false},
	{"'1.5 months'", "interval", "INTERVAL '1 month 15 days'", false},
	{"'2 weeks ago'", "interval?", "INTERVAL '-14 days'::interval?", false},
	{"'1 fortnight'", "interval", "error: not an interval (such as", false},
	{"'2147483648 days'", "interval", "error: an interval's months and days are i32", true},
	{"INTERVAL '-1 year -2 months 1 day -00:00:01'", "utf8", "'-1 year -2 months 1 day -00:00:01'", false},
	{"INTERVAL '1 day'", "i64", "error: no cast is defined", false},
	{"1::i32", "interval", "error: no cast is defined", false},
	{"DATE '1995-01-01'", "interval", "error: no cast is defined", false},
	{"'1'::time(s)", "timestamp(s)", "error: not a time", false},
	{"[1::i32]::fixed_size_list<i32, 1>", "fixed_size_list<i32, 2>", "error: no cast is defined", false},
}

func TestCast(t *testing.T) {
	for _, tc := range castCases {
		in, err := readSQL(tc.in)
		wantErr, isErr := strings.CutPrefix(tc.want, "error: ")
		if err != nil {
			// A few inputs fail while being read (their own cast fails).
			if isErr && strings.Contains(err.Error(), wantErr) {
				continue
			}
			t.Errorf("reading %s: %v", tc.in, err)
			continue
		}
		to := mustType(t, tc.to)
		got, err := scalar.Cast(in, to)
		if isErr {
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Errorf("Cast(%s, %s) = %s, %v; want error containing %q", tc.in, tc.to, got, err, wantErr)
				continue
			}
			if !errors.Is(err, errs.ErrInvalidCast) {
				t.Errorf("Cast(%s, %s) error %v does not wrap ErrInvalidCast", tc.in, tc.to, err)
			}
			if errors.Is(err, errs.ErrOverflow) != tc.overflow {
				t.Errorf("Cast(%s, %s) error %v: wraps ErrOverflow = %v, want %v", tc.in, tc.to, err, !tc.overflow, tc.overflow)
			}
			if try := scalar.TryCast(in, to); !try.Identical(scalar.Null(to)) {
				t.Errorf("TryCast(%s, %s) = %s, want null", tc.in, tc.to, try)
			}
			continue
		}
		if err != nil || got.SQL() != tc.want {
			t.Errorf("Cast(%s, %s) = %s, %v; want %s", tc.in, tc.to, got, err, tc.want)
			continue
		}
		if !in.IsNull() && !got.DType().Equal(to) {
			t.Errorf("Cast(%s, %s) has dtype %s", tc.in, tc.to, got.DType())
		}
		if try := scalar.TryCast(in, to); !try.Identical(got) {
			t.Errorf("TryCast(%s, %s) = %s, want %s", tc.in, tc.to, try, got)
		}
	}
}

// The casts Cast defines are those of fn.CanCast (fn/cast.go), plus list →
// fixed-size list. (fn imports this package and the evaluator, so the table
// is written out here rather than calling fn.CanCast.)
func TestCastDefined(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"null", "struct<a: i32>", true},
		{"null", "null", true},
		{"i32", "null", false},
		{"bool", "decimal(5,2)", true},
		{"decimal(5,2)", "f16", true},
		{"u64", "bool", true},
		{"i32", "i32?", true},
		{"utf8", "bool", true},
		{"utf8", "decimal(5,2)", true},
		{"utf8", "timestamp(us, 'UTC')", true},
		{"utf8", "time(ns)", true},
		{"utf8", "binary", true},
		{"utf8", "list<i32>", false},
		{"utf8", "struct<a: i32>", false},
		{"binary", "utf8", true},
		{"binary", "i32", false},
		{"date", "utf8", true},
		{"time(ms)", "utf8", true},
		{"list<i32>", "utf8", false},
		{"struct<a: i32>", "utf8", false},
		{"date", "timestamp(ns)", true},
		{"timestamp(s)", "date", true},
		{"timestamp(s)", "timestamp(ns, 'UTC')", true},
		{"time(ms)", "time(ns)", true},
		{"date", "time(s)", false},
		{"time(s)", "timestamp(s)", false},
		{"i32", "date", false},
		{"date", "i32", false},
		{"bool", "date", false},
		{"list<i32>", "list<utf8>", true},
		{"list<date>", "list<i32>", false},
		{"fixed_size_list<i32, 2>", "list<i64>", true},
		{"fixed_size_list<i32, 2>", "fixed_size_list<i64, 2>", true},
		{"fixed_size_list<i32, 2>", "fixed_size_list<i32, 3>", false},
		{"list<i32>", "fixed_size_list<i64, 2>", true}, // beyond fn.CanCast: checked length
		{"struct<a: i32>", "struct<a: utf8?>", true},
		{"struct<a: i32>", "struct<b: i32>", false},
		{"struct<a: i32>", "struct<a: i32, b: i32>", false},
		{"struct<a: date>", "struct<a: i32>", false},
		{"list<struct<a: i32>>", "list<struct<a: i64>>", true},
		{"i32", "list<i32>", false},
		{"list<i32>", "i32", false},
	}
	for _, tc := range tests {
		from, to := mustType(t, tc.from), mustType(t, tc.to)
		_, err := scalar.Cast(scalar.Null(from), to)
		if (err == nil) != tc.want {
			t.Errorf("Cast(null::%s, %s) error = %v; want defined = %v", from, to, err, tc.want)
		}
	}
}
