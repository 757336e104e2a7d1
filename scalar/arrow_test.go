package scalar_test

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowscalar "github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestMakeArrayValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	arr, err := scalar.MakeArray(mem, scalar.Int32(-7), 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := arr.(*array.Int32).Int32Values(); len(got) != 5 || got[0] != -7 || got[4] != -7 || arr.NullN() != 0 {
		t.Errorf("i32 array %v", arr)
	}
	arr.Release()

	arr, err = scalar.MakeArray(mem, scalar.Bool(true), 13)
	if err != nil {
		t.Fatal(err)
	}
	b := arr.(*array.Boolean)
	for i := 0; i < 13; i++ {
		if !b.Value(i) {
			t.Errorf("bool row %d is false", i)
		}
	}
	arr.Release()

	arr, err = scalar.MakeArray(mem, scalar.String("ab"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if s := arr.(*array.String); s.Value(0) != "ab" || s.Value(2) != "ab" || s.ValueOffsets()[3] != 6 {
		t.Errorf("utf8 array %v", arr)
	}
	arr.Release()

	arr, err = scalar.MakeArray(mem, scalar.Float(dtype.F16, 0x1p-24), 2)
	if err != nil {
		t.Fatal(err)
	}
	if bits := arr.(*array.Float16).Value(1).Uint16(); bits != 1 {
		t.Errorf("f16 smallest subnormal stored as %#x, want 0x1", bits)
	}
	arr.Release()

	arr, err = scalar.MakeArray(mem, scalar.Null(dtype.Primitive(dtype.I64, false)), 4)
	if err != nil {
		t.Fatal(err)
	}
	if arr.NullN() != 4 || arr.DataType().ID() != arrow.INT64 {
		t.Errorf("null array %v", arr)
	}
	arr.Release()

	arr, err = scalar.MakeArray(mem, scalar.Decimal(decimal128.FromI64(-1250), 10, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	if v := arr.(*array.Decimal128).Value(1); v != decimal128.FromI64(-1250) {
		t.Errorf("decimal row 1 = %v", v)
	}
	arr.Release()

	if _, err := scalar.MakeArray(mem, scalar.Int32(1), -1); err == nil {
		t.Error("negative length accepted")
	}
	big := scalar.String(strings.Repeat("x", 1<<20))
	if _, err := scalar.MakeArray(mem, big, 1<<12); err == nil || !strings.Contains(err.Error(), "2 GiB") {
		t.Errorf("oversized string array: %v", err)
	}
}

func TestFromArraySlicedNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := mustType(t, "struct<a: i32?, b: list<utf8>>")
	b := array.NewBuilder(mem, dtype.ToArrow(typ))
	defer b.Release()
	rows := []scalar.Scalar{
		mustNew(t, typ.String(), []scalar.Scalar{scalar.Int32(1), mustNewList(t, "list<utf8>", scalar.String("x"))}),
		scalar.Null(typ),
		mustNew(t, typ.String(), []scalar.Scalar{scalar.Null(dtype.Null()), mustNewList(t, "list<utf8>")}),
		mustNew(t, typ.String(), []scalar.Scalar{scalar.Int32(4), mustNewList(t, "list<utf8>", scalar.String("y"), scalar.String("z"))}),
	}
	for _, r := range rows {
		if err := scalar.Append(b, r); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	sl := array.NewSlice(arr, 1, 4)
	defer sl.Release()
	for i := 0; i < sl.Len(); i++ {
		got, err := scalar.FromArray(sl, i, typ)
		want := rows[i+1]
		if want.IsNull() {
			want = scalar.Null(typ)
		}
		if err != nil || !got.Identical(want) {
			t.Errorf("sliced row %d = %s, %v; want %s", i, got, err, want)
		}
	}
}

func TestFromArrayErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{1, 2}, []bool{true, false})
	ints := ib.NewArray()
	ib.Release()
	defer ints.Release()

	// A list<i32> whose element is null, read as list<i32> (non-nullable elements).
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int32Builder).AppendNull()
	lists := lb.NewArray()
	lb.Release()
	defer lists.Release()

	sb := array.NewStringBuilder(mem)
	sb.Append("\xff")
	badText := sb.NewArray()
	sb.Release()
	defer badText.Release()

	tb := array.NewTime32Builder(mem, &arrow.Time32Type{Unit: arrow.Second})
	tb.Append(86400)
	badTime := tb.NewArray()
	tb.Release()
	defer badTime.Release()

	tests := []struct {
		arr  arrow.Array
		i    int
		typ  string
		want string
	}{
		{nil, 0, "i32", "scalar: nil array"},
		{ints, 0, "i64", "scalar: array of Arrow type int32 does not hold dtype i64 (want int64)"},
		{ints, 2, "i32", "scalar: row 2 out of range for an array of length 2"},
		{ints, -1, "i32", "scalar: row -1 out of range"},
		{lists, 0, "list<i32>", "scalar: row 0: element 0: null value in non-nullable i32"},
		{lists, 0, "list<i64>", "does not hold dtype list<i64>"},
		{badText, 0, "utf8", "scalar: row 0: utf8 array holds invalid UTF-8"},
		{badText, 0, "binary", "does not hold dtype binary"},
		{badTime, 0, "time(s)", "scalar: row 0: time 86400 is not within a day"},
	}
	for _, tc := range tests {
		got, err := scalar.FromArray(tc.arr, tc.i, mustType(t, tc.typ))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromArray(row %d as %s) = %s, %v; want error %q", tc.i, tc.typ, got, err, tc.want)
		}
	}
	// A null row of a non-nullable dtype reads as Null(t).
	got, err := scalar.FromArray(ints, 1, dtype.Primitive(dtype.I32, false))
	if err != nil || !got.Identical(scalar.Null(dtype.Primitive(dtype.I32, true))) {
		t.Errorf("null row = %s, %v", got, err)
	}
	// List element fields may have any name.
	got, err = scalar.FromArray(lists, 0, mustType(t, "list<i32?>"))
	if err != nil || got.SQL() != "[null::i32?]" {
		t.Errorf("list<i32?> row = %s, %v", got, err)
	}
}

func TestAppendErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt64Builder(mem)
	defer b.Release()
	if err := scalar.Append(b, scalar.Int32(1)); err == nil || !strings.Contains(err.Error(), "builder of Arrow type int64 does not hold dtype i32") {
		t.Errorf("Append(i32 to int64 builder) = %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("a failed Append left %d rows", b.Len())
	}
	if err := scalar.Append(b, scalar.Null(dtype.Null())); err != nil || b.Len() != 1 || b.NullN() != 1 {
		t.Errorf("Append(null) = %v, len %d", err, b.Len())
	}
	if err := scalar.Append(nil, scalar.Int32(1)); err == nil {
		t.Error("Append to nil builder accepted")
	}
}

func TestArrowScalars(t *testing.T) {
	tests := []struct {
		s    scalar.Scalar
		want arrowscalar.Scalar
	}{
		{scalar.Int(dtype.I8, -3), arrowscalar.NewInt8Scalar(-3)},
		{scalar.Uint(dtype.U16, 7), arrowscalar.NewUint16Scalar(7)},
		{scalar.Float(dtype.F16, 1.5), arrowscalar.NewFloat16Scalar(float16.New(1.5))},
		{scalar.Float(dtype.F32, 0.5), arrowscalar.NewFloat32Scalar(0.5)},
		{scalar.String("hé"), arrowscalar.NewStringScalar("hé")},
		{scalar.Date(3), arrowscalar.NewDate32Scalar(3)},
		{scalar.Time(dtype.Nano, 5), arrowscalar.NewTime64Scalar(5, arrow.FixedWidthTypes.Time64ns)},
		{scalar.Timestamp(dtype.Milli, "UTC", 9), arrowscalar.NewTimestampScalar(9, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"})},
		{scalar.Null(dtype.Primitive(dtype.I32, false)), arrowscalar.MakeNullScalar(arrow.PrimitiveTypes.Int32)},
	}
	for _, tc := range tests {
		got, err := scalar.ToArrowScalar(tc.s)
		if err != nil || !arrowscalar.Equals(got, tc.want) {
			t.Errorf("ToArrowScalar(%s) = %v, %v; want %v", tc.s, got, err, tc.want)
		}
	}

	// Nested values, and Arrow scalars built by Arrow.
	lt := mustType(t, "list<i64?>")
	list := mustNewList(t, lt.String(), scalar.Int64(1), scalar.Null(dtype.Null()))
	as, err := scalar.ToArrowScalar(list)
	if err != nil {
		t.Fatal(err)
	}
	if as.String() != "[1 (null)]" {
		t.Errorf("Arrow list scalar %s", as)
	}
	back, err := scalar.FromArrowScalar(as, lt)
	if err != nil || !back.Identical(list) {
		t.Errorf("FromArrowScalar(%s) = %s, %v", as, back, err)
	}

	if _, err := scalar.FromArrowScalar(arrowscalar.NewInt32Scalar(1), dtype.Primitive(dtype.I64, false)); err == nil ||
		!strings.Contains(err.Error(), "Arrow scalar of Arrow type int32 does not hold dtype i64") {
		t.Errorf("mismatched Arrow scalar: %v", err)
	}
	if _, err := scalar.FromArrowScalar(nil, dtype.Bool(false)); err == nil {
		t.Error("nil Arrow scalar accepted")
	}
	if _, err := scalar.FromArrowScalar(arrowscalar.NewStringScalar("\xff"), dtype.Utf8(false)); err == nil ||
		!strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("invalid UTF-8 Arrow scalar: %v", err)
	}
	st := mustType(t, "struct<a: i32>")
	sc := arrowscalar.NewStructScalar([]arrowscalar.Scalar{arrowscalar.MakeNullScalar(arrow.PrimitiveTypes.Int32)}, dtype.ToArrow(st))
	if _, err := scalar.FromArrowScalar(sc, st); err == nil || !strings.Contains(err.Error(), "field a: null value in non-nullable i32") {
		t.Errorf("null field of a non-nullable struct field: %v", err)
	}
	nan, err := scalar.FromArrowScalar(arrowscalar.NewFloat64Scalar(math.Float64frombits(0xfff8000000000123)), dtype.Primitive(dtype.F64, false))
	if err != nil || !nan.Identical(scalar.Float64(math.NaN())) {
		t.Errorf("NaN from an Arrow scalar = %s, %v", nan, err)
	}
}
