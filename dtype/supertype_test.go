package dtype_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
)

// TestSupertype covers every rule of the Supertype doc comment; "-" means
// no common type. Each pair is checked both ways round.
func TestSupertype(t *testing.T) {
	tests := []struct{ a, b, want string }{
		// Equal types; nullability is the union.
		{"i32", "i32", "i32"},
		{"i32", "i32?", "i32?"},
		{"utf8", "utf8", "utf8"},
		{"bool", "bool?", "bool?"},
		{"date", "date", "date"},
		{"interval", "interval?", "interval?"},
		{"interval", "i64", "-"},
		{"interval", "date", "-"},
		{"decimal(5,2)", "decimal(5,2)?", "decimal(5,2)?"},
		// Null meets anything as that thing made nullable.
		{"null", "null", "null"},
		{"null", "i32", "i32?"},
		{"null", "struct<a: i32>", "struct<a: i32>?"},
		{"null", "list<utf8>", "list<utf8>?"},
		{"list<null>", "list<i8>", "list<i8?>"},
		// Integers: the narrowest holding both.
		{"u8", "u16", "u16"},
		{"i8", "i64", "i64"},
		{"u8", "i8", "i16"},
		{"u8", "i16", "i16"},
		{"u8", "i32", "i32"},
		{"u16", "i8", "i32"},
		{"u16", "i16", "i32"},
		{"u16", "i32", "i32"},
		{"u32", "i8", "i64"},
		{"u32", "i32", "i64"},
		{"u32", "i64", "i64"},
		{"u64", "u8", "u64"},
		{"u64", "i8", "-"},
		{"u64", "i64", "-"},
		{"u8?", "i8", "i16?"},
		// Integer with float: the float wide enough to hold it exactly.
		{"i8", "f16", "f16"},
		{"u8", "f16", "f16"},
		{"i16", "f16", "f32"},
		{"u16", "f32", "f32"},
		{"i32", "f32", "f64"},
		{"i32", "f16", "f64"},
		{"i64", "f32", "f64"},
		{"u64", "f64", "f64"},
		{"i8", "f64", "f64"},
		// Two floats: the wider.
		{"f16", "f32", "f32"},
		{"f32", "f64", "f64"},
		{"f16", "f64?", "f64?"},
		// Decimals: larger scale, larger integer part, at most 38 digits.
		{"decimal(10,2)", "decimal(5,3)", "decimal(11,3)"},
		{"decimal(5,0)", "decimal(3,3)", "decimal(8,3)"},
		{"decimal(38,0)", "decimal(38,38)", "decimal(38,38)"},
		{"decimal(30,10)", "decimal(30,0)", "decimal(38,10)"},
		{"decimal(5,2)", "i32", "decimal(12,2)"},
		{"decimal(5,2)", "u64", "decimal(22,2)"},
		{"decimal(10,0)", "i8", "decimal(10,0)"},
		{"decimal(2,1)", "u8", "decimal(4,1)"},
		{"decimal(38,10)", "i64", "decimal(38,10)"},
		{"decimal(5,2)", "f32", "f64"},
		{"decimal(5,2)?", "f16", "f64?"},
		// Temporal.
		{"date", "timestamp(ms, 'UTC')", "timestamp(ms, 'UTC')"},
		{"date?", "timestamp(us)", "timestamp(us)?"},
		{"timestamp(s)", "timestamp(ns)", "timestamp(ns)"},
		{"timestamp(s, 'UTC')", "timestamp(ms, 'UTC')", "timestamp(ms, 'UTC')"},
		{"timestamp(s, 'UTC')", "timestamp(s)", "-"},
		{"time(ms)", "time(us)", "time(us)"},
		{"date", "time(s)", "-"},
		{"time(s)", "timestamp(s)", "-"},
		// Nested types meet element- and field-wise.
		{"list<i8>", "list<u8>", "list<i16>"},
		{"list<i32>", "list<i32?>", "list<i32?>"},
		{"list<i32>?", "list<i64>", "list<i64>?"},
		{"list<i32>", "list<utf8>", "-"},
		{"fixed_size_list<i8, 2>", "fixed_size_list<u8, 2>", "fixed_size_list<i16, 2>"},
		{"fixed_size_list<i8, 2>", "fixed_size_list<i8, 3>", "-"},
		{"fixed_size_list<i8, 2>", "list<i8>", "-"},
		{"struct<a: i8, b: utf8>", "struct<a: u8?, b: utf8>", "struct<a: i16?, b: utf8>"},
		{"struct<a: i8>", "struct<b: i8>", "-"},
		{"struct<a: i8>", "struct<a: i8, b: i8>", "-"},
		{"struct<a: i8>", "struct<a: utf8>", "-"},
		{"list<struct<a: date>>", "list<struct<a: timestamp(s)>?>", "list<struct<a: timestamp(s)>?>"},
		// Strings never meet numbers; bool meets only bool.
		{"utf8", "i32", "-"},
		{"utf8", "binary", "-"},
		{"bool", "i8", "-"},
		{"bool", "decimal(5,2)", "-"},
		{"utf8", "date", "-"},
		{"date", "i32", "-"},
		{"list<i32>", "i32", "-"},
	}
	for _, tc := range tests {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		for _, pair := range [][2]dtype.DType{{a, b}, {b, a}} {
			got, ok := dtype.Supertype(pair[0], pair[1])
			switch {
			case tc.want == "-" && ok:
				t.Errorf("Supertype(%s, %s) = %s, want none", pair[0], pair[1], got)
			case tc.want != "-" && (!ok || got.String() != tc.want):
				t.Errorf("Supertype(%s, %s) = %s, %v; want %s", pair[0], pair[1], got, ok, tc.want)
			}
		}
	}
}

// The supertype of a type with itself is itself, for every canonical type.
func TestSupertypeIdempotent(t *testing.T) {
	for _, text := range canonical {
		d := mustParse(t, text)
		got, ok := dtype.Supertype(d, d)
		if !ok || !got.Equal(d) {
			t.Errorf("Supertype(%s, %s) = %s, %v", d, d, got, ok)
		}
	}
}

func mustParse(t *testing.T, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return d
}
