package dtype_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/dtype"
)

func TestArrowRoundTrip(t *testing.T) {
	for _, text := range canonical {
		d := mustParse(t, text)
		at := dtype.ToArrow(d)
		back, err := dtype.FromArrow(at, d.Nullable())
		if err != nil || !back.Equal(d) {
			t.Errorf("FromArrow(ToArrow(%s) = %s) = %v, %v", d, at, back, err)
		}
		f := dtype.ToArrowField("x", d)
		if f.Name != "x" || f.Nullable != d.Nullable() || !arrow.TypeEqual(f.Type, at) {
			t.Errorf("ToArrowField(%s) = %v", d, f)
		}
	}
}

func TestToArrow(t *testing.T) {
	tests := []struct{ in, want string }{
		{"null", "null"},
		{"bool", "bool"},
		{"i8", "int8"}, {"u64", "uint64"}, {"f16", "float16"}, {"f64", "float64"},
		{"decimal(15,2)", "decimal(15, 2)"},
		{"utf8", "utf8"}, {"binary", "binary"},
		{"date", "date32"}, {"interval", "month_day_nano_interval"},
		{"time(s)", "time32[s]"}, {"time(ms)", "time32[ms]"}, {"time(us)", "time64[us]"}, {"time(ns)", "time64[ns]"},
		{"timestamp(us)", "timestamp[us]"}, {"timestamp(ns, 'UTC')", "timestamp[ns, tz=UTC]"},
		{"list<i32>", "list<item: int32>"}, {"list<i32?>", "list<item: int32, nullable>"},
		{"fixed_size_list<f32, 3>", "fixed_size_list<item: float32>[3]"},
		{"struct<a: i32, b: utf8?>", "struct<a: int32, b: utf8 nullable>"},
	}
	for _, tc := range tests {
		if got := dtype.ToArrow(mustParse(t, tc.in)).String(); got != tc.want {
			t.Errorf("ToArrow(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestArrowSchema(t *testing.T) {
	d := mustParse(t, "struct<a: i32, b: list<utf8?>?>")
	s, err := dtype.ToArrowSchema(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); !strings.Contains(got, "a: type=int32") || !strings.Contains(got, "b: type=list<item: utf8, nullable>, nullable") {
		t.Errorf("schema %s", got)
	}
	back, err := dtype.FromArrowSchema(s)
	if err != nil || !back.Equal(d) {
		t.Errorf("FromArrowSchema = %v, %v", back, err)
	}
	if _, err := dtype.ToArrowSchema(mustParse(t, "i32")); err == nil || err.Error() != "dtype: a schema needs a struct type, not i32" {
		t.Errorf("ToArrowSchema(i32) error %v", err)
	}
	if _, err := dtype.FromArrowSchema(nil); err == nil {
		t.Error("FromArrowSchema(nil) accepted")
	}
	dup := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}, {Name: "a", Type: arrow.PrimitiveTypes.Int8}}, nil)
	if _, err := dtype.FromArrowSchema(dup); err == nil || err.Error() != `dtype: duplicate field name "a"` {
		t.Errorf("duplicate fields: %v", err)
	}
}

// Arrow types colexpr does not model give an error naming the type, and no
// panic, at any depth.
func TestFromArrowUnsupported(t *testing.T) {
	unsupported := []arrow.DataType{
		arrow.BinaryTypes.LargeString,
		arrow.BinaryTypes.LargeBinary,
		arrow.BinaryTypes.StringView,
		arrow.BinaryTypes.BinaryView,
		&arrow.FixedSizeBinaryType{ByteWidth: 4},
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.LargeString},
		arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
		arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0}),
		arrow.DenseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0}),
		arrow.FixedWidthTypes.Duration_s,
		arrow.FixedWidthTypes.MonthInterval,
		arrow.FixedWidthTypes.DayTimeInterval,
		arrow.FixedWidthTypes.Date64,
		&arrow.Decimal256Type{Precision: 40, Scale: 2},
		&arrow.Decimal32Type{Precision: 5, Scale: 2},
		arrow.LargeListOf(arrow.PrimitiveTypes.Int32),
		arrow.ListViewOf(arrow.PrimitiveTypes.Int32),
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8),
	}
	for _, at := range unsupported {
		for _, wrapped := range []arrow.DataType{
			at,
			arrow.ListOf(at),
			arrow.FixedSizeListOf(2, at),
			arrow.StructOf(arrow.Field{Name: "f", Type: at}),
		} {
			d, err := dtype.FromArrow(wrapped, false)
			if err == nil {
				t.Errorf("FromArrow(%s) = %s, want an error", wrapped, d)
				continue
			}
			if !strings.Contains(err.Error(), at.String()) || !strings.Contains(err.Error(), "has no colexpr dtype") {
				t.Errorf("FromArrow(%s) error %q does not name %s", wrapped, err, at)
			}
		}
	}
	if _, err := dtype.FromArrow(nil, false); err == nil || err.Error() != "dtype: nil Arrow data type" {
		t.Errorf("FromArrow(nil): %v", err)
	}
	for _, bad := range []arrow.DataType{
		&arrow.Decimal128Type{Precision: 39, Scale: 2},
		&arrow.Decimal128Type{Precision: 0, Scale: 0},
		&arrow.Decimal128Type{Precision: 5, Scale: 6},
		&arrow.Decimal128Type{Precision: 5, Scale: -1},
	} {
		if _, err := dtype.FromArrow(bad, false); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("FromArrow(%s) error %v", bad, err)
		}
	}
	if _, err := dtype.FromArrow(arrow.StructOf(arrow.Field{Name: "s", Type: arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int8}, arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int8})}), false); err == nil ||
		!strings.Contains(err.Error(), `duplicate field name "x"`) {
		t.Errorf("nested duplicate field: %v", err)
	}
}

// A dictionary has the dtype of its values, the nullability given, at any
// depth; ToArrow of that dtype is the plain value type.
func TestFromArrowDictionary(t *testing.T) {
	dict := func(index, values arrow.DataType) arrow.DataType {
		return &arrow.DictionaryType{IndexType: index, ValueType: values}
	}
	for _, c := range []struct {
		at       arrow.DataType
		nullable bool
		want     string
	}{
		{dict(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), true, "utf8?"},
		{dict(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String), false, "utf8"},
		{dict(arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Float64), true, "f64?"},
		{dict(arrow.PrimitiveTypes.Int64, &arrow.Decimal128Type{Precision: 12, Scale: 2}), false, "decimal(12,2)"},
		{dict(arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Date32), true, "date?"},
		{arrow.ListOf(dict(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)), false, "list<utf8?>"},
		{arrow.StructOf(arrow.Field{Name: "c", Type: dict(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.Binary)}), true, "struct<c: binary>?"},
	} {
		d, err := dtype.FromArrow(c.at, c.nullable)
		if err != nil {
			t.Errorf("FromArrow(%s): %v", c.at, err)
			continue
		}
		if d.String() != c.want {
			t.Errorf("FromArrow(%s) = %s, want %s", c.at, d, c.want)
		}
	}
	if got := dtype.ToArrow(dtype.Utf8(true)); !arrow.TypeEqual(got, arrow.BinaryTypes.String) {
		t.Errorf("ToArrow(utf8?) = %s", got)
	}
	for _, bad := range []arrow.DataType{
		dict(arrow.PrimitiveTypes.Float32, arrow.BinaryTypes.String),
		dict(nil, arrow.BinaryTypes.String),
		dict(arrow.PrimitiveTypes.Int32, nil),
	} {
		if d, err := dtype.FromArrow(bad, true); err == nil {
			t.Errorf("FromArrow(%s) = %s, want an error", bad, d)
		}
	}
}

// List element fields are read whatever their name; their nullability is
// the element type's.
func TestFromArrowListFields(t *testing.T) {
	at := arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: false})
	d, err := dtype.FromArrow(at, true)
	if err != nil || d.String() != "list<i64>?" {
		t.Errorf("FromArrow(%s) = %v, %v", at, d, err)
	}
	at = arrow.ListOf(arrow.PrimitiveTypes.Int64) // element nullable by default
	if d, err := dtype.FromArrow(at, false); err != nil || d.String() != "list<i64?>" {
		t.Errorf("FromArrow(%s) = %v, %v", at, d, err)
	}
}
