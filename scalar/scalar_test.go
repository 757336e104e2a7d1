package scalar_test

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestNew(t *testing.T) {
	i32 := scalar.Int32
	tests := []struct {
		typ  string
		v    any
		want string // SQL of the result, or "error: <substring>"
	}{
		{"i8", int64(-128), "-128::i8"},
		{"i8", int64(128), "error: 128 is out of range for i8"},
		{"i8", int32(1), "error: must be a Go int64, not int32"},
		{"u8", uint64(255), "255::u8"},
		{"u8", uint64(256), "error: out of range for u8"},
		{"u64", int64(1), "error: must be a Go uint64"},
		{"i64", int64(math.MinInt64), "-9223372036854775808::i64"},
		{"f32", 0.5, "0.5::f32"},
		{"f32", 0.1, "error: not exactly representable as f32"},
		{"f16", 65504.0, "65500.0::f16"},
		{"f16", 65505.0, "error: not exactly representable as f16"},
		{"f16", math.NaN(), "'NaN'::f16"},
		{"f64", math.Inf(-1), "'-Infinity'::f64"},
		{"decimal(4,2)", decimal128.FromI64(9999), "99.99::decimal(4,2)"},
		{"decimal(4,2)", decimal128.FromI64(-10000), "error: -100.00 does not fit decimal(4,2)"},
		{"decimal(4,2)", int64(1), "error: must be a Go decimal128.Num"},
		{"utf8", "a'b", "'a''b'"},
		{"utf8", "\xff", "error: not valid UTF-8"},
		{"utf8", []byte("a"), "error: must be a Go string, not []uint8"},
		{"binary", "\xff\x00", "x'ff00'"},
		{"bool?", true, "true::bool?"},
		{"bool", nil, "error: null value for non-nullable type bool"},
		{"bool?", nil, "null::bool?"},
		{"null", nil, "null"},
		{"null", int64(1), "error: type null holds only null"},
		{"date", int64(0), "DATE '1970-01-01'"},
		{"date", int64(math.MaxInt32) + 1, "error: out of the range of i32 days"},
		{"time(s)", int64(86399), "'23:59:59'::time(s)"},
		{"time(s)", int64(86400), "error: not within a day"},
		{"time(ns)", int64(-1), "error: not within a day"},
		{"timestamp(ns, 'Europe/Paris')", int64(1), "'1970-01-01 00:00:00.000000001+00'::timestamp(ns, 'Europe/Paris')"},
		{"struct<a: i32, b: utf8?>", []scalar.Scalar{i32(1), scalar.Null(dtype.Null())}, "{'a': 1::i32, 'b': null::utf8?}"},
		{"struct<a: i32, b: utf8?>", []scalar.Scalar{i32(1)}, "error: has 2 fields, got 1 values"},
		{"struct<a: i32>", []scalar.Scalar{scalar.Int64(1)}, "error: scalar: field a: value of type i64 in a slot of type i32"},
		{"struct<a: i32>", []scalar.Scalar{scalar.Null(dtype.Primitive(dtype.I32, true))}, "error: scalar: field a: null in a slot of non-nullable type i32"},
		{"list<i32?>", []scalar.Scalar{i32(1), scalar.Null(dtype.Primitive(dtype.I32, false))}, "[1::i32?, null::i32?]"},
		{"list<i32>", []scalar.Scalar{}, "[]::list<i32>"},
		{"list<i32>", []scalar.Scalar{i32(1), scalar.String("x")}, "error: scalar: element 1: value of type utf8 in a slot of type i32"},
		{"list<list<i32>>", []scalar.Scalar{mustNewList(t, "list<i32?>", scalar.Null(dtype.Null()))}, "error: scalar: element 0: element 0: null in a slot of non-nullable type i32"},
		{"fixed_size_list<i32, 2>", []scalar.Scalar{i32(1), i32(2)}, "[1::i32, 2::i32]::fixed_size_list<i32, 2>"},
		{"fixed_size_list<i32, 2>", []scalar.Scalar{i32(1)}, "error: has 2 elements, got 1"},
		{"list<i32>", "x", "error: must be a Go []Scalar, not string"},
	}
	for _, tc := range tests {
		s, err := scalar.New(mustType(t, tc.typ), tc.v)
		if msg, isErr := strings.CutPrefix(tc.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("New(%s, %#v) = %v, %v; want error containing %q", tc.typ, tc.v, s, err, msg)
			}
			continue
		}
		if err != nil || s.SQL() != tc.want {
			t.Errorf("New(%s, %#v) = %s, %v; want %s", tc.typ, tc.v, s, err, tc.want)
		}
	}
}

func mustNewList(t *testing.T, typ string, elems ...scalar.Scalar) scalar.Scalar {
	t.Helper()
	return mustNew(t, typ, elems)
}

// Nested scalars carry exactly their slot's dtype, however they were made.
func TestNestedLabels(t *testing.T) {
	lt := mustType(t, "list<i32?>")
	for _, s := range []scalar.Scalar{
		scalar.List(lt, []scalar.Scalar{scalar.Int32(1)}),
		mustNewList(t, "list<i32?>", scalar.Int32(1)),
		mustNewList(t, "list<i32>", scalar.Int32(1)).WithDType(lt),
	} {
		elems := s.Value().([]scalar.Scalar)
		if got := elems[0].DType(); !got.Equal(lt.Elem()) {
			t.Errorf("%s: element dtype %s, want %s", s, got, lt.Elem())
		}
	}
	st := mustType(t, "struct<a: i32?>")
	s := scalar.Struct(st, []scalar.Scalar{scalar.Int32(1)})
	if got := s.Value().([]scalar.Scalar)[0].DType(); !got.Equal(st.Fields()[0].Type) {
		t.Errorf("struct field dtype %s, want i32?", got)
	}
}

func TestIdenticalAndHash(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		a, b scalar.Scalar
		want bool
	}{
		{scalar.Int32(1), scalar.Int32(1), true},
		{scalar.Int32(1), scalar.Int64(1), false},
		{scalar.Int32(1), scalar.Int32(1).WithDType(dtype.Primitive(dtype.I32, true)), false},
		{scalar.Float64(math.NaN()), scalar.Float64(-math.NaN()), true},
		{scalar.Float64(math.NaN()), scalar.Float64(math.Float64frombits(0x7ff0000000000001)), true},
		{scalar.Float64(0), scalar.Float64(negZero), false},
		{scalar.Float64(negZero), scalar.Float64(negZero), true},
		{scalar.Null(dtype.Primitive(dtype.I32, false)), scalar.Null(dtype.Primitive(dtype.I32, true)), true},
		{scalar.Null(dtype.Primitive(dtype.I32, false)), scalar.Null(dtype.Primitive(dtype.I64, false)), false},
		{scalar.Null(dtype.Null()), scalar.Null(dtype.Null()), true},
		{scalar.String("a"), scalar.Binary([]byte("a")), false},
		{scalar.Date(1), scalar.Int32(1), false},
		{mustNewList(t, "list<f64>", scalar.Float64(0)), mustNewList(t, "list<f64>", scalar.Float64(negZero)), false},
		{mustNewList(t, "list<i32?>", scalar.Int32(1), scalar.Null(dtype.Null())), mustNewList(t, "list<i32?>", scalar.Int32(1), scalar.Null(dtype.Null())), true},
		{mustNewList(t, "list<i32?>", scalar.Int32(1)), mustNewList(t, "list<i32?>", scalar.Int32(1), scalar.Int32(1)), false},
		{scalar.Decimal(decimal128.FromI64(5), 3, 1), scalar.Decimal(decimal128.FromI64(5), 3, 2), false},
	}
	for _, tc := range tests {
		if got := tc.a.Identical(tc.b); got != tc.want {
			t.Errorf("%s Identical %s = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := tc.b.Identical(tc.a); got != tc.want {
			t.Errorf("%s Identical %s = %v, want %v (not symmetric)", tc.b, tc.a, got, tc.want)
		}
		if tc.want && tc.a.Hash() != tc.b.Hash() {
			t.Errorf("identical %s and %s hash differently", tc.a, tc.b)
		}
		if !tc.want && tc.a.Hash() == tc.b.Hash() {
			t.Errorf("%s and %s hash alike (a weak hash)", tc.a, tc.b)
		}
	}
}

func TestCompare(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	list := func(vals ...scalar.Scalar) scalar.Scalar { return mustNewList(t, "list<i32?>", vals...) }
	null := scalar.Null(dtype.Null())
	tests := []struct {
		a, b scalar.Scalar
		want int
	}{
		{scalar.Int32(1), scalar.Int32(2), -1},
		{scalar.Int32(2), scalar.Int32(2).WithDType(dtype.Primitive(dtype.I32, true)), 0},
		{scalar.Uint(dtype.U64, math.MaxUint64), scalar.Uint(dtype.U64, 0), 1},
		{scalar.Float64(nan), scalar.Float64(inf), 1},
		{scalar.Float64(nan), scalar.Float64(nan), 0},
		{scalar.Float64(-inf), scalar.Float64(nan), -1},
		{scalar.Float64(0), scalar.Float64(math.Copysign(0, -1)), 0},
		{scalar.Float(dtype.F32, 1.5), scalar.Float(dtype.F32, -1.5), 1},
		{scalar.Decimal(decimal128.FromI64(-5), 5, 2), scalar.Decimal(decimal128.FromI64(3), 5, 2), -1},
		{scalar.Bool(false), scalar.Bool(true), -1},
		{scalar.String("ab"), scalar.String("b"), -1},
		{scalar.String("é"), scalar.String("z"), 1}, // bytewise
		{scalar.Binary([]byte{0}), scalar.Binary(nil), 1},
		{scalar.Date(-1), scalar.Date(0), -1},
		{scalar.Timestamp(dtype.Nano, "UTC", 5), scalar.Timestamp(dtype.Nano, "UTC", 5), 0},
		{list(scalar.Int32(1)), list(scalar.Int32(1), scalar.Int32(0)), -1},
		{list(scalar.Int32(2)), list(scalar.Int32(1), scalar.Int32(0)), 1},
		{list(null), list(scalar.Int32(1)), 1},
		{list(null), list(null), 0},
		{list(), list(null), -1},
		{mustNew(t, "struct<a: i32, b: utf8>", []scalar.Scalar{scalar.Int32(1), scalar.String("b")}),
			mustNew(t, "struct<a: i32, b: utf8>", []scalar.Scalar{scalar.Int32(1), scalar.String("a")}), 1},
	}
	for _, tc := range tests {
		got, err := scalar.Compare(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
		back, err := scalar.Compare(tc.b, tc.a)
		if err != nil || back != -tc.want {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d", tc.b, tc.a, back, err, -tc.want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	tests := []struct {
		a, b scalar.Scalar
		want string
	}{
		{scalar.Int32(1), scalar.Int64(1), "cannot compare i32 with i64: the types differ"},
		{scalar.Int32(1), scalar.Null(dtype.Primitive(dtype.I32, false)), "cannot compare null values (1::i32 with null::i32?)"},
		{scalar.Null(dtype.Null()), scalar.Null(dtype.Null()), "cannot compare null values"},
		{scalar.Decimal(decimal128.FromI64(1), 5, 2), scalar.Decimal(decimal128.FromI64(1), 5, 1), "the types differ"},
		{scalar.Timestamp(dtype.Micro, "", 0), scalar.Timestamp(dtype.Micro, "UTC", 0), "the types differ"},
	}
	for _, tc := range tests {
		_, err := scalar.Compare(tc.a, tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compare(%s, %s) error %v, want %q", tc.a, tc.b, err, tc.want)
		}
	}
}
