package dtype_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
)

// canonical is a list of types in canonical text: each parses and prints
// back to itself.
var canonical = []string{
	"null", "bool", "bool?",
	"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "i32?", "f64?",
	"decimal(1,0)", "decimal(15,2)", "decimal(38,38)", "decimal(38,0)?",
	"utf8", "utf8?", "binary", "binary?",
	"date", "date?", "time(s)", "time(ms)", "time(us)", "time(ns)?",
	"timestamp(s)", "timestamp(us)", "timestamp(ns)?", "interval", "interval?", "list<interval?>",
	"timestamp(us, 'UTC')", "timestamp(ms, 'America/New_York')?", "timestamp(ns, 'it''s')", "timestamp(s, '+02:00')",
	"list<i32>", "list<i32?>", "list<i32>?", "list<list<utf8?>?>", "list<null>",
	"fixed_size_list<i32, 2>", "fixed_size_list<f32?, 0>?", "fixed_size_list<list<i8>, 3>",
	"struct<>", "struct<>?", "struct<a: i32>", "struct<a: i32, b: utf8?>?",
	`struct<"a b": i32, "x""y": bool, "": date, "null": i8, "é": u8, select2: i16>`,
	"struct<a: struct<b: list<struct<c: timestamp(us, 'UTC')?>>>>",
	"list<struct<a: fixed_size_list<decimal(5,2)?, 2>>?>",
}

func TestStringParseRoundTrip(t *testing.T) {
	for _, text := range canonical {
		d, err := dtype.Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if got := d.String(); got != text {
			t.Errorf("Parse(%q).String() = %q", text, got)
		}
		again, err := dtype.Parse(d.String())
		if err != nil || !again.Equal(d) || again.Hash() != d.Hash() {
			t.Errorf("%q does not read back equal: %v, %v", text, again, err)
		}
	}
}

func TestParseAliases(t *testing.T) {
	tests := []struct{ in, want string }{
		{"TINYINT", "i8"}, {"int1", "i8"}, {"UTINYINT", "u8"},
		{"SMALLINT", "i16"}, {"INT2", "i16"}, {"USMALLINT", "u16"},
		{"INTEGER", "i32"}, {"int", "i32"}, {"INT4", "i32"}, {"UINTEGER", "u32"},
		{"BIGINT", "i64"}, {"int8", "i64"}, {"LONG", "i64"}, {"UBIGINT", "u64"},
		{"REAL", "f32"}, {"FLOAT", "f32"}, {"float4", "f32"}, {"HALF", "f16"},
		{"DOUBLE", "f64"}, {"DOUBLE PRECISION", "f64"}, {"double   precision?", "f64?"}, {"FLOAT8", "f64"},
		{"BOOLEAN", "bool"}, {"Bool", "bool"},
		{"VARCHAR", "utf8"}, {"TEXT", "utf8"}, {"STRING", "utf8"}, {"CHAR", "utf8"},
		{"BLOB", "binary"}, {"BYTEA", "binary"}, {"VARBINARY", "binary"},
		{"DECIMAL", "decimal(18,3)"}, {"DECIMAL(10)", "decimal(10,0)"}, {"NUMERIC( 10 , 2 )", "decimal(10,2)"},
		{"TIMESTAMP", "timestamp(us)"}, {"TIMESTAMPTZ", "timestamp(us, 'UTC')"}, {"TIME", "time(us)"},
		{"Timestamp(NS, UTC)", "timestamp(ns, 'UTC')"}, {"timestamp( ms , 'Europe/Paris' )", "timestamp(ms, 'Europe/Paris')"},
		{"timestamp(us, '')", "timestamp(us)"},
		{"DATE?", "date?"}, {"null?", "null"}, {"INTERVAL", "interval"},
		{"  list < i32 >? ", "list<i32>?"}, {"LIST<BIGINT?>", "list<i64?>"},
		{"struct<A: INTEGER, \"b\": varchar?>", "struct<A: i32, b: utf8?>"},
		{"FIXED_SIZE_LIST<DOUBLE, 4>", "fixed_size_list<f64, 4>"},
	}
	for _, tc := range tests {
		d, err := dtype.Parse(tc.in)
		if err != nil || d.String() != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %s", tc.in, d, err, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `dtype: expected a type name at offset 0`},
		{"   ", `dtype: expected a type name at offset 3`},
		{"int33", `dtype: unknown type "int33" at offset 0`},
		{"  foo", `dtype: unknown type "foo" at offset 2`},
		{"list<foo>", `dtype: unknown type "foo" at offset 5`},
		{"list<i32", `dtype: expected '>' in type at offset 8`},
		{"list<>", `dtype: expected a type name at offset 5`},
		{"list(i32)", `dtype: expected '<' in type at offset 4`},
		{"decimal(39,2)", `dtype: decimal precision 39 is out of range 1..38 at offset 8`},
		{"decimal(5, 6)", `dtype: decimal scale 6 is out of range 0..5 at offset 11`},
		{"decimal(0)", `dtype: decimal precision 0 is out of range 1..38 at offset 8`},
		{"decimal(5,", `dtype: expected an integer in type at offset 10`},
		{"decimal(-1,0)", `dtype: expected an integer in type at offset 8`},
		{"decimal(5,2", `dtype: expected ')' in type at offset 11`},
		{"time(xs)", `dtype: unknown time unit "xs" (want s, ms, us or ns) at offset 5`},
		{"timestamp( d)", `dtype: unknown time unit "d" (want s, ms, us or ns) at offset 11`},
		{"timestamp(us, )", `dtype: expected a time zone name at offset 14`},
		{"timestamp(us, 'UTC", `dtype: unterminated time zone string at offset 18`},
		{"time(us, 'UTC')", `dtype: expected ')' in type at offset 7`},
		{"struct<a: i32, a: i64>", `dtype: duplicate struct field "a" at offset 15`},
		{"struct<a i32>", `dtype: expected ':' in type at offset 9`},
		{"struct<a: i32,>", `dtype: expected a field name at offset 14`},
		{"struct<a: i32 b: i8>", `dtype: expected ',' or '>' in struct type at offset 14`},
		{`struct<"a: i32>`, `dtype: unterminated quoted field name at offset 15`},
		{"fixed_size_list<i32>", `dtype: expected ',' in type at offset 19`},
		{"fixed_size_list<i32, 99999999999>", `dtype: integer 99999999999 is too large at offset 21`},
		{"fixed_size_list<i32, x>", `dtype: expected an integer in type at offset 21`},
		{"i32 i64", `dtype: unexpected "i64" after type at offset 4`},
		{"i32 ?", `dtype: unexpected "?" after type at offset 4`},
		{"i32??", `dtype: unexpected "?" after type at offset 4`},
		{"list<i32>>", `dtype: unexpected ">" after type at offset 9`},
		{"double precisio", `dtype: unexpected "precisio" after type at offset 7`},
		{strings.Repeat("list<", 200) + "i32" + strings.Repeat(">", 200), "dtype: type nested too deeply at offset 505"},
	}
	for _, tc := range tests {
		d, err := dtype.Parse(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, %v\n\twant error %s", tc.in, d, err, tc.want)
			continue
		}
		e, ok := err.(*dtype.Error)
		if !ok || e.Pos < 0 || e.Pos > len(tc.in) {
			t.Errorf("Parse(%q): error %#v has no position within the text", tc.in, err)
		}
	}
}

func TestParsePrefix(t *testing.T) {
	src := "  decimal(15, 2)? + 1"
	d, n, err := dtype.ParsePrefix(src)
	if err != nil || d.String() != "decimal(15,2)?" || src[n:] != " + 1" {
		t.Errorf("ParsePrefix(%q) = %v, %d, %v", src, d, n, err)
	}
	d, n, err = dtype.ParsePrefix("i32)")
	if err != nil || d.String() != "i32" || n != 3 {
		t.Errorf("ParsePrefix(i32)) = %v, %d, %v", d, n, err)
	}
}

func TestEqualAndHash(t *testing.T) {
	mk := func(s string) dtype.DType {
		d, err := dtype.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	pairs := []struct {
		a, b             string
		equal, equalNull bool
	}{
		{"i32", "i32", true, true},
		{"i32", "i32?", false, true},
		{"i32", "i64", false, false},
		{"list<i32?>", "list<i32>?", false, true},
		{"struct<a: i32>", "struct<b: i32>", false, false},
		{"struct<a: i32, b: i8>", "struct<b: i8, a: i32>", false, false},
		{"decimal(5,2)", "decimal(5,3)", false, false},
		{"timestamp(us)", "timestamp(us, 'UTC')", false, false},
		{"time(ms)", "time(us)", false, false},
		{"fixed_size_list<i8, 2>", "fixed_size_list<i8, 3>", false, false},
		{"fixed_size_list<i8, 2>", "list<i8>", false, false},
		{"utf8", "binary", false, false},
		{"date", "i32", false, false},
		{"interval", "interval?", false, true},
		{"interval", "i64", false, false},
	}
	for _, p := range pairs {
		a, b := mk(p.a), mk(p.b)
		if a.Equal(b) != p.equal || b.Equal(a) != p.equal {
			t.Errorf("%s Equal %s = %v, want %v", a, b, a.Equal(b), p.equal)
		}
		if a.EqualIgnoreNullability(b) != p.equalNull {
			t.Errorf("%s EqualIgnoreNullability %s = %v, want %v", a, b, a.EqualIgnoreNullability(b), p.equalNull)
		}
		if (a.Hash() == b.Hash()) != p.equal {
			t.Errorf("%s and %s: hash equality %v, want %v", a, b, a.Hash() == b.Hash(), p.equal)
		}
	}
}

func TestNullability(t *testing.T) {
	if n := dtype.Null(); !n.Nullable() || n.AsNonNullable().String() != "null" || !n.AsNonNullable().Nullable() {
		t.Errorf("the null type must stay nullable")
	}
	l, _ := dtype.Parse("list<i32>")
	if got := l.AsNullable().String(); got != "list<i32>?" {
		t.Errorf("AsNullable = %s", got)
	}
	if got := l.AsNullable().Elem().String(); got != "i32" {
		t.Errorf("element nullability changed: %s", got)
	}
	ts := dtype.Timestamp(dtype.Nano, "UTC", true)
	if ts.Storage().String() != "i64?" || dtype.Time(dtype.Milli, false).Storage().String() != "i32" || dtype.Date(false).Storage().String() != "i32" {
		t.Errorf("storage types wrong")
	}
}
