package scalar_test

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestSQL(t *testing.T) {
	i32n := dtype.Primitive(dtype.I32, true)
	tests := []struct {
		s         scalar.Scalar
		sql, text string // SQL and ValueText
	}{
		{scalar.Null(dtype.Null()), "null", "null"},
		{scalar.Null(i32n), "null::i32?", "null"},
		{scalar.Null(mustType(t, "struct<a: list<i32>>")), "null::struct<a: list<i32>>?", "null"},
		{scalar.Bool(true), "true", "true"},
		{scalar.Bool(false).WithDType(dtype.Bool(true)), "false::bool?", "false"},
		{scalar.Int32(5), "5::i32", "5"},
		{scalar.Int64(-5), "-5::i64", "-5"},
		{scalar.Int32(5).WithDType(i32n), "5::i32?", "5"},
		{scalar.Int(dtype.I8, -128), "-128::i8", "-128"},
		{scalar.Uint(dtype.U64, math.MaxUint64), "18446744073709551615::u64", "18446744073709551615"},
		{scalar.Float64(2.5), "2.5::f64", "2.5e+00"},
		{scalar.Float64(0.1), "0.1::f64", "1e-01"},
		{scalar.Float64(1e20), "1e+20::f64", "1e+20"},
		{scalar.Float64(1e15), "1000000000000000.0::f64", "1e+15"},
		{scalar.Float64(1e16), "1e+16::f64", "1e+16"},
		{scalar.Float64(0.0001), "0.0001::f64", "1e-04"},
		{scalar.Float64(0.00001), "1e-05::f64", "1e-05"},
		{scalar.Float64(-1.5e-7), "-1.5e-07::f64", "-1.5e-07"},
		{scalar.Float64(math.Copysign(0, -1)), "'-0.0'::f64", "-0e+00"},
		{scalar.Float64(math.NaN()), "'NaN'::f64", "'NaN'"},
		{scalar.Float(dtype.F32, math.Inf(1)), "'Infinity'::f32", "'Infinity'"},
		{scalar.Float64(math.Inf(-1)), "'-Infinity'::f64", "'-Infinity'"},
		{scalar.Float(dtype.F32, 0.1), "0.1::f32", "1e-01"},
		{scalar.Float(dtype.F32, 1e20), "'1e+20'::f32", "1e+20"},
		{scalar.Float(dtype.F16, 0.5), "0.5::f16", "5e-01"},
		{scalar.Float(dtype.F16, 0x1p-24), "'6e-08'::f16", "6e-08"},
		{scalar.Decimal(decimal128.FromI64(1250), 15, 2), "12.50::decimal(15,2)", "0000000000012.50"},
		{scalar.Decimal(decimal128.FromI64(250), 3, 2), "2.50::decimal(3,2)", "2.50"},
		{scalar.Decimal(decimal128.FromI64(-5), 3, 2), "-0.05::decimal(3,2)", "-0.05"},
		{scalar.Decimal(decimal128.FromI64(5), 2, 2), "0.05::decimal(2,2)", ".05"},
		{scalar.Decimal(decimal128.FromI64(7), 1, 0), "7::decimal(1,0)", "7."},
		{scalar.Decimal(dec(t, "100000000000000000000"), 38, 0), "100000000000000000000::decimal(38,0)", "100000000000000000000"},
		{scalar.Decimal(dec(t, "12345678901234567890123456789012345678"), 38, 38),
			"'0.12345678901234567890123456789012345678'::decimal(38,38)", ".12345678901234567890123456789012345678"},
		{scalar.String("it's"), "'it''s'", "'it''s'"},
		{scalar.String(""), "''", "''"},
		{scalar.String("a").WithDType(dtype.Utf8(true)), "'a'::utf8?", "'a'"},
		{scalar.Binary([]byte{0, 0xff}), "x'00ff'", "x'00ff'"},
		{scalar.Binary(nil).WithDType(dtype.Binary(true)), "x''::binary?", "x''"},
		{scalar.Date(9131), "DATE '1995-01-01'", "DATE '1995-01-01'"},
		{scalar.Date(9131).WithDType(dtype.Date(true)), "DATE '1995-01-01'::date?", "DATE '1995-01-01'"},
		{scalar.Date(-719529), "DATE '0002-12-31 (BC)'", "DATE '0002-12-31 (BC)'"}, // as DuckDB writes year -1
		{scalar.Date(math.MaxInt32), "DATE '5881580-07-11'", "DATE '5881580-07-11'"},
		{scalar.Timestamp(dtype.Micro, "", 788961600000000), "TIMESTAMP '1995-01-01 12:00:00'", "TIMESTAMP '1995-01-01 12:00:00'"},
		{scalar.Timestamp(dtype.Micro, "", -1), "TIMESTAMP '1969-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.999999'"},
		{scalar.Timestamp(dtype.Nano, "", 788961600123456789), "'1995-01-01 12:00:00.123456789'::timestamp(ns)", "'1995-01-01 12:00:00.123456789'"},
		{scalar.Timestamp(dtype.Milli, "", 788961600120), "'1995-01-01 12:00:00.12'::timestamp(ms)", "'1995-01-01 12:00:00.12'"},
		{scalar.Timestamp(dtype.Micro, "UTC", 0), "'1970-01-01 00:00:00+00'::timestamp(us, 'UTC')", "'1970-01-01 00:00:00+00'"},
		{scalar.Timestamp(dtype.Second, "it's", 0), "'1970-01-01 00:00:00+00'::timestamp(s, 'it''s')", "'1970-01-01 00:00:00+00'"},
		{scalar.Time(dtype.Milli, 43200500), "'12:00:00.5'::time(ms)", "'12:00:00.5'"},
		{scalar.Time(dtype.Nano, 1), "'00:00:00.000000001'::time(ns)", "'00:00:00.000000001'"},
		{mustNewList(t, "list<i32>", scalar.Int32(1), scalar.Int32(2)), "[1::i32, 2::i32]", "[1::i32, 2::i32]"},
		{mustNewList(t, "list<i32?>", scalar.Int32(1), scalar.Null(dtype.Null())), "[1::i32?, null::i32?]", "[1::i32?, null::i32?]"},
		{mustNewList(t, "list<utf8>"), "[]::list<utf8>", "[]"},
		{mustNewList(t, "list<null>", scalar.Null(dtype.Null())), "[null]", "[null]"},
		{mustNewList(t, "list<utf8>?", scalar.String("a")), "['a']::list<utf8>?", "['a']"},
		{mustNewList(t, "fixed_size_list<i32, 2>", scalar.Int32(1), scalar.Int32(2)), "[1::i32, 2::i32]::fixed_size_list<i32, 2>", "[1::i32, 2::i32]"},
		{mustNewList(t, "list<list<bool>>", mustNewList(t, "list<bool>", scalar.Bool(true))), "[[true]]", "[[true]]"},
		{mustNew(t, "struct<a: i32, b: utf8>", []scalar.Scalar{scalar.Int32(1), scalar.String("x")}), "{'a': 1::i32, 'b': 'x'}", "{'a': 1::i32, 'b': 'x'}"},
		{mustNew(t, `struct<"it's": i32, "x""y": bool>?`, []scalar.Scalar{scalar.Int32(1), scalar.Bool(true)}),
			`{'it''s': 1::i32, 'x"y': true}::struct<"it's": i32, "x""y": bool>?`, `{'it''s': 1::i32, 'x"y': true}`},
		{mustNew(t, "struct<>", []scalar.Scalar{}), "{}", "{}"},
	}
	for _, tc := range tests {
		if got := tc.s.SQL(); got != tc.sql {
			t.Errorf("SQL of %s value %v = %s, want %s", tc.s.DType(), tc.s.Value(), got, tc.sql)
		}
		if got := tc.s.ValueText(); got != tc.text {
			t.Errorf("ValueText of %s = %s, want %s", tc.sql, got, tc.text)
		}
		back, err := readSQL(tc.sql)
		if err != nil || !back.Identical(tc.s) {
			t.Errorf("reading %s back: %s (%s), %v", tc.sql, back, back.DType(), err)
		}
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		text, typ, sql string
	}{
		{"0", "i32", "0::i32"},
		{"-0", "i32", "0::i32"},
		{"007", "i32", "7::i32"},
		{"+5", "i32", "5::i32"},
		{"2147483647", "i32", "2147483647::i32"},
		{"-2147483648", "i32", "-2147483648::i32"},
		{"2147483648", "i64", "2147483648::i64"},
		{"-2147483649", "i64", "-2147483649::i64"},
		{"9223372036854775807", "i64", "9223372036854775807::i64"},
		{"-9223372036854775808", "i64", "-9223372036854775808::i64"},
		{"9223372036854775808", "u64", "9223372036854775808::u64"},
		{"18446744073709551615", "u64", "18446744073709551615::u64"},
		{"18446744073709551616", "decimal(38,0)", "18446744073709551616::decimal(38,0)"},
		{"-9223372036854775809", "decimal(38,0)", "-9223372036854775809::decimal(38,0)"},
		{"99999999999999999999999999999999999999", "decimal(38,0)", "99999999999999999999999999999999999999::decimal(38,0)"},
		{"0.05", "decimal(3,2)", "0.05::decimal(3,2)"},
		{"1.5", "decimal(2,1)", "1.5::decimal(2,1)"},
		{"-1.5", "decimal(2,1)", "-1.5::decimal(2,1)"},
		{".5", "decimal(1,1)", "0.5::decimal(1,1)"},
		{"5.", "decimal(1,0)", "5::decimal(1,0)"},
		{"000.50", "decimal(5,2)", "0.50::decimal(5,2)"},
		{"12.50", "decimal(4,2)", "12.50::decimal(4,2)"},
		{"0.00000000000000000000000000000000000001", "f64", "1e-38::f64"},
		{"1234567890123456789012345678901234567.8", "decimal(38,1)", "1234567890123456789012345678901234567.8::decimal(38,1)"},
		{"12345678901234567890123456789012345678.9", "f64", "1.2345678901234568e+37::f64"},
		{"1e3", "f64", "1000.0::f64"},
		{"2.5E-3", "f64", "0.0025::f64"},
		{"1e+20", "f64", "1e+20::f64"},
		{"-0e0", "f64", "'-0.0'::f64"},
		{"1e-400", "f64", "0.0::f64"},
		{".5e1", "f64", "5.0::f64"},
	}
	for _, tc := range tests {
		s, err := scalar.ParseNumber(tc.text)
		if err != nil {
			t.Errorf("ParseNumber(%q): %v", tc.text, err)
			continue
		}
		if s.DType().String() != tc.typ || s.SQL() != tc.sql {
			t.Errorf("ParseNumber(%q) = %s (%s), want %s (%s)", tc.text, s.SQL(), s.DType(), tc.sql, tc.typ)
		}
		back, err := scalar.ParseNumber(s.ValueText())
		if err != nil || !back.Identical(s) {
			t.Errorf("ParseNumber(ValueText %q) = %s, %v; want %s", s.ValueText(), back, err, s)
		}
	}
}

func TestParseNumberErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", `"" is not a number`},
		{"-", `"-" is not a number`},
		{".", `"." is not a number`},
		{"1e", `"1e" is not a number`},
		{"1e+", `"1e+" is not a number`},
		{"1..2", `"1..2" is not a number`},
		{" 1", `" 1" is not a number`},
		{"1_000", `"1_000" is not a number`},
		{"0x10", `"0x10" is not a number`},
		{"NaN", `"NaN" is not a number`},
		{"inf", `"inf" is not a number`},
		{"--1", `"--1" is not a number`},
		{"123456789012345678901234567890123456789", "integer 123456789012345678901234567890123456789 has more than 38 digits"},
		{"1e400", "1e400 is out of the range of f64"},
		{"-1e99999999999999999999", "is out of the range of f64"},
		{"1" + strings.Repeat("0", 400) + ".5", "is out of the range of f64"},
	}
	for _, tc := range tests {
		s, err := scalar.ParseNumber(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "scalar: ") {
			t.Errorf("ParseNumber(%q) = %s, %v; want error containing %q", tc.text, s, err, tc.want)
		}
	}
}

// A long value is shortened in error messages.
func TestErrorMessageShortensValues(t *testing.T) {
	long := scalar.String(strings.Repeat("é", 100))
	_, err := scalar.Cast(long, dtype.Primitive(dtype.I32, false))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 150 || !strings.Contains(msg, "…") {
		t.Errorf("message not shortened: %s", msg)
	}
	if !strings.HasSuffix(msg, "to i32: not a number") {
		t.Errorf("message %q", msg)
	}
}
