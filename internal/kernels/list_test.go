package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// ty parses a dtype of the test tables.
func ty(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// scalarOf reads a one-row JSON array of t as a scalar.
func scalarOf(t testing.TB, dt dtype.DType, js string) scalar.Scalar {
	t.Helper()
	arr := fromJSON(t, memory.DefaultAllocator, dt, js)
	defer arr.Release()
	s, err := scalar.FromArray(arr, 0, dt)
	if err != nil {
		t.Fatalf("scalar of %s %s: %v", dt, js, err)
	}
	return s
}

func TestListLength(t *testing.T) {
	cases := []kernelCase{
		{name: "list", args: []in{col(ty("list<i32?>?"), `[[1, 2, 3], [], null, [null], [4]]`)}, ret: i64N, want: `[3, 0, null, 1, 1]`},
		{name: "no nulls", args: []in{col(ty("list<utf8>"), `[["a"], []]`)}, ret: i64, want: `[1, 0]`},
		{name: "fixed size", args: []in{col(ty("fixed_size_list<i32, 2>?"), `[[1, 2], null, [3, 4]]`)}, ret: i64N, want: `[2, null, 2]`},
		{name: "nested", args: []in{col(ty("list<list<i32>>"), `[[[1], [2, 3]], []]`)}, ret: i64, want: `[2, 0]`},
		{name: "scalar", args: []in{lit(scalarOf(t, ty("list<i32>"), `[[1, 2]]`))}, ret: i64, want: `[2, 2, 2]`},
		{name: "null scalar", args: []in{lit(scalar.Null(ty("list<i32>")))}, ret: i64N, want: `[null]`},
		{name: "empty", args: []in{col(ty("list<i32>"), `[]`)}, ret: i64, want: `[]`},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ListLength(mem, a[0], ret)
	})
}

func TestListContains(t *testing.T) {
	ints := col(ty("list<i32?>?"), `[[1, 2, 3], [4, null], null, [], [5], [null]]`)
	i32 := func(v int32) in { return lit(scalar.Int32(v)) }
	cases := []kernelCase{
		{name: "found", args: []in{ints, i32(2)}, ret: boolN, want: `[true, false, null, false, false, false]`},
		{name: "beside a null", args: []in{ints, i32(4)}, ret: boolN, want: `[false, true, null, false, false, false]`},
		{name: "null element, absent", args: []in{ints, i32(9)}, ret: boolN, want: `[false, false, null, false, false, false]`},
		{name: "value column", args: []in{ints, col(i32N, `[3, 5, 1, 1, null, 1]`)}, ret: boolN, want: `[true, false, null, false, null, false]`},
		{name: "null value", args: []in{ints, lit(scalar.Null(i32N))}, ret: boolN, want: `[null, null, null, null, null, null]`},
		{name: "scalar list", args: []in{lit(scalarOf(t, ty("list<i32?>"), `[[1, null, 3]]`)), col(i32N, `[1, 2, null, 3]`)}, ret: boolN,
			want: `[true, false, null, true]`},
		{name: "scalars", args: []in{lit(scalarOf(t, ty("list<i32?>"), `[[1, null, 3]]`)), i32(3)}, ret: boolN, want: `[true]`},
		{name: "scalars absent", args: []in{lit(scalarOf(t, ty("list<i32?>"), `[[1, null, 3]]`)), i32(2)}, ret: boolN, want: `[false, false]`},
		{name: "null scalar list", args: []in{lit(scalar.Null(ty("list<i32>"))), i32(2)}, ret: boolN, want: `[null]`},
		{name: "i8", args: []in{col(ty("list<i8>"), `[[-1, 2], [3]]`), lit(scalar.Int(dtype.I8, -1))}, ret: boolNN, want: `[true, false]`},
		{name: "i16", args: []in{col(ty("list<i16>"), `[[-300, 2], [3]]`), lit(scalar.Int(dtype.I16, -300))}, ret: boolNN, want: `[true, false]`},
		{name: "i64", args: []in{col(ty("list<i64>"), `[[-1, 9007199254740993], [3]]`), lit(scalar.Int64(9007199254740993))}, ret: boolNN, want: `[true, false]`},
		{name: "u8", args: []in{col(ty("list<u8>"), `[[255], [3]]`), lit(scalar.Uint(dtype.U8, 255))}, ret: boolNN, want: `[true, false]`},
		{name: "u16", args: []in{col(ty("list<u16>"), `[[65535], [3]]`), lit(scalar.Uint(dtype.U16, 3))}, ret: boolNN, want: `[false, true]`},
		{name: "u32", args: []in{col(ty("list<u32>"), `[[4294967295], [3]]`), lit(scalar.Uint(dtype.U32, 4294967295))}, ret: boolNN, want: `[true, false]`},
		{name: "u64", args: []in{col(ty("list<u64>"), `[[18446744073709551615], [3]]`), lit(scalar.Uint(dtype.U64, math.MaxUint64))}, ret: boolNN, want: `[true, false]`},
		{name: "u64 column", args: []in{col(ty("list<u64>"), `[[1, 2], [3]]`), col(ty("u64"), `[2, 2]`)}, ret: boolNN, want: `[true, false]`},
		{name: "f32", args: []in{col(ty("list<f32>"), `[[1.5, 2], [0]]`), lit(scalar.Float(dtype.F32, 1.5))}, ret: boolNN, want: `[true, false]`},
		{name: "f64 zero", args: []in{col(ty("list<f64>"), `[[1.5, -0.0], [1]]`), lit(scalar.Float64(0))}, ret: boolNN, want: `[true, false]`},
		{name: "f64 NaN", args: []in{col(ty("list<f64>"), `[["NaN", 1], [1]]`), lit(scalar.Float64(math.NaN()))}, ret: boolNN, want: `[false, false]`},
		{name: "f64 column", args: []in{col(ty("list<f64>"), `[["NaN", 1], [2]]`), col(ty("f64"), `["NaN", 2]`)}, ret: boolNN, want: `[false, true]`},
		{name: "f16", args: []in{col(ty("list<f16?>"), `[[1.5, null], [2]]`), lit(scalar.Float(dtype.F16, 1.5))}, ret: boolNN, want: `[true, false]`},
		{name: "f16 column", args: []in{col(ty("list<f16>"), `[[1.5, 0], [2]]`), col(ty("f16"), `[0, 1.5]`)}, ret: boolNN, want: `[true, false]`},
		{name: "decimal", args: []in{col(ty("list<decimal(5,2)>"), `[["1.25", "3"], ["-1.25"]]`), lit(scalar.Decimal(decimal128.FromI64(-125), 5, 2))}, ret: boolNN,
			want: `[false, true]`},
		{name: "decimal column", args: []in{col(ty("list<decimal(5,2)>"), `[["1.25", "3"], ["-1.25"]]`), col(ty("decimal(5,2)"), `["3", "1.25"]`)}, ret: boolNN,
			want: `[true, false]`},
		{name: "bool", args: []in{col(ty("list<bool?>"), `[[true, null], [false], []]`), lit(scalar.Bool(false))}, ret: boolNN, want: `[false, true, false]`},
		{name: "bool column", args: []in{col(ty("list<bool?>"), `[[true, null], [false], []]`), col(ty("bool"), `[true, true, true]`)}, ret: boolNN,
			want: `[true, false, false]`},
		{name: "date", args: []in{col(ty("list<date>"), `[["2020-01-02"], ["2020-01-03"]]`), lit(scalarOf(t, ty("date"), `["2020-01-03"]`))}, ret: boolNN,
			want: `[false, true]`},
		{name: "timestamp", args: []in{col(ty("list<timestamp(us)>"), `[[5, 6], [7]]`), lit(scalar.Timestamp(dtype.Micro, "", 7))}, ret: boolNN,
			want: `[false, true]`},
		{name: "utf8", args: []in{col(ty("list<utf8?>?"), `[["a", "bc", null], ["日本"], null, []]`), lit(scalar.String("bc"))}, ret: boolN,
			want: `[true, false, null, false]`},
		{name: "utf8 column", args: []in{col(ty("list<utf8?>"), `[["a", "bc", null], ["日本"], []]`), col(strN, `["a", "日", null]`)}, ret: boolN,
			want: `[true, false, null]`},
		{name: "binary", args: []in{col(ty("list<binary>"), `[["AAE="], ["AQ=="]]`), lit(scalar.Binary([]byte{1}))}, ret: boolNN, want: `[false, true]`},
		{name: "nested", args: []in{col(ty("list<list<i32?>?>"), `[[[1, 2], [3]], [[1, null]], [null], [[1, null, 3]]]`),
			lit(scalarOf(t, ty("list<i32?>"), `[[1, null]]`))}, ret: boolNN, want: `[false, true, false, false]`},
		{name: "nested column", args: []in{col(ty("list<list<i32?>?>"), `[[[1, 2], [3]], [[1, null]], [null], []]`),
			col(ty("list<i32?>?"), `[[3], [1], null, []]`)}, ret: boolN, want: `[true, false, null, false]`},
		{name: "structs", args: []in{col(ty("list<struct<a: i32, b: utf8?>>"), `[[{"a": 1, "b": "x"}, {"a": 2, "b": null}], [{"a": 1, "b": "y"}]]`),
			lit(scalarOf(t, ty("struct<a: i32, b: utf8?>"), `[{"a": 2, "b": null}]`))}, ret: boolNN, want: `[true, false]`},
		{name: "struct column", args: []in{col(ty("list<struct<a: i32, b: utf8?>>"), `[[{"a": 1, "b": "x"}, {"a": 2, "b": null}], [{"a": 1, "b": "y"}]]`),
			col(ty("struct<a: i32, b: utf8?>"), `[{"a": 1, "b": "x"}, {"a": 1, "b": "x"}]`)}, ret: boolNN, want: `[true, false]`},
		{name: "fixed size", args: []in{col(ty("fixed_size_list<i32?, 2>?"), `[[1, 2], [3, null], null]`), i32(3)}, ret: boolN, want: `[false, true, null]`},
		{name: "fixed size utf8", args: []in{col(ty("fixed_size_list<utf8, 2>"), `[["a", "b"], ["c", "d"]]`), lit(scalar.String("d"))}, ret: boolNN,
			want: `[false, true]`},
		{name: "fixed size nested", args: []in{col(ty("fixed_size_list<fixed_size_list<i32, 2>, 1>"), `[[[1, 2]], [[3, 4]]]`),
			lit(scalarOf(t, ty("fixed_size_list<i32, 2>"), `[[3, 4]]`))}, ret: boolNN, want: `[false, true]`},
		{name: "empty bool literal", args: []in{lit(scalarOf(t, ty("list<bool>"), `[[]]`)), col(ty("bool"), `[true]`)}, ret: boolNN, want: `[false]`},
		{name: "empty utf8 literal", args: []in{lit(scalarOf(t, ty("list<utf8>"), `[[]]`)), col(str, `["a"]`)}, ret: boolNN, want: `[false]`},
		{name: "empty f64 literal", args: []in{lit(scalarOf(t, ty("list<f64>"), `[[]]`)), col(ty("f64"), `[1]`)}, ret: boolNN, want: `[false]`},
		{name: "empty nested literal", args: []in{lit(scalarOf(t, ty("list<list<i8>>"), `[[]]`)), col(ty("list<i8>"), `[[1]]`)}, ret: boolNN, want: `[false]`},
		{name: "null elements type", args: []in{col(ty("list<null>"), `[[null], []]`), lit(scalar.Null(dtype.Null()))}, ret: boolN, want: `[null, null]`},
		{name: "empty", args: []in{col(ty("list<i32>"), `[]`), i32(1)}, ret: boolNN, want: `[]`},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ListContains(mem, a[0], a[1], ret)
	})
}

// TestListChildOffset checks lists whose child array itself starts at an
// offset, which slicing a list never produces but other producers do.
func TestListChildOffset(t *testing.T) {
	mem := checkedMem(t)
	values := fromJSON(t, mem, i32N, `[9, 9, 1, 2, 3, null]`)
	defer values.Release()
	child := array.NewSlice(values, 2, 6)
	defer child.Release()
	offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 4}))
	lt := arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	d := array.NewData(lt, 2, []*memory.Buffer{nil, offs}, []arrow.ArrayData{child.Data()}, 0, 0)
	defer d.Release()
	list := array.MakeFromData(d)
	defer list.Release()
	lty := ty("list<i32?>")
	xs := datum.FromArray(list, lty)

	got, err := ListContains(mem, xs, datum.FromScalar(scalar.Int32(9), 2), boolNN)
	if err != nil {
		t.Fatal(err)
	}
	expectDatum(t, mem, got, boolNN, `[false, false]`)
	got.Release()

	got, err = ListElement(mem, xs, datum.FromScalar(scalar.Int64(-1), 2), i32N)
	if err != nil {
		t.Fatal(err)
	}
	expectDatum(t, mem, got, i32N, `[2, null]`)
	got.Release()
}

func TestListElement(t *testing.T) {
	ints := col(ty("list<i32?>?"), `[[1, 2, 3], [4], null, [], [5, null]]`)
	i64s := func(v int64) in { return lit(scalar.Int64(v)) }
	cases := []kernelCase{
		{name: "first", args: []in{ints, i64s(1)}, ret: i32N, want: `[1, 4, null, null, 5]`},
		{name: "second", args: []in{ints, i64s(2)}, ret: i32N, want: `[2, null, null, null, null]`},
		{name: "last", args: []in{ints, i64s(-1)}, ret: i32N, want: `[3, 4, null, null, null]`},
		{name: "from end", args: []in{ints, i64s(-3)}, ret: i32N, want: `[1, null, null, null, null]`},
		{name: "zero", args: []in{ints, i64s(0)}, ret: i32N, want: `[null, null, null, null, null]`},
		{name: "past end", args: []in{ints, i64s(4)}, ret: i32N, want: `[null, null, null, null, null]`},
		{name: "min int64", args: []in{ints, i64s(math.MinInt64)}, ret: i32N, want: `[null, null, null, null, null]`},
		{name: "max u64", args: []in{ints, lit(scalar.Uint(dtype.U64, math.MaxUint64))}, ret: i32N, want: `[null, null, null, null, null]`},
		{name: "index column", args: []in{ints, col(ty("i8?"), `[2, -1, 1, 1, null]`)}, ret: i32N, want: `[2, 4, null, null, null]`},
		{name: "null index", args: []in{ints, lit(scalar.Null(i64N))}, ret: i32N, want: `[null, null, null, null, null]`},
		{name: "scalar list", args: []in{lit(scalarOf(t, ty("list<utf8?>"), `[["a", null, "c"]]`)), col(ty("u16?"), `[1, 2, 3, 4, null]`)}, ret: strN,
			want: `["a", null, "c", null, null]`},
		{name: "scalars", args: []in{lit(scalarOf(t, ty("list<utf8?>"), `[["a", null, "c"]]`)), i64s(-1)}, ret: strN, want: `["c", "c"]`},
		{name: "scalars out of range", args: []in{lit(scalarOf(t, ty("list<utf8?>"), `[["a"]]`)), i64s(2)}, ret: strN, want: `[null]`},
		{name: "utf8", args: []in{col(ty("list<utf8>"), `[["a", "日本"], ["c"], []]`), i64s(2)}, ret: strN, want: `["日本", null, null]`},
		{name: "bool", args: []in{col(ty("list<bool?>"), `[[true, false], [null], [true]]`), i64s(-1)}, ret: boolN, want: `[false, null, true]`},
		{name: "i8", args: []in{col(ty("list<i8>"), `[[1, -2], [3]]`), i64s(2)}, ret: ty("i8?"), want: `[-2, null]`},
		{name: "i16", args: []in{col(ty("list<i16>"), `[[1, -2], [3]]`), i64s(1)}, ret: ty("i16?"), want: `[1, 3]`},
		{name: "f64", args: []in{col(ty("list<f64>"), `[[1.5, 2.5], [3]]`), i64s(1)}, ret: ty("f64?"), want: `[1.5, 3]`},
		{name: "f16", args: []in{col(ty("list<f16>"), `[[1.5, 2.5], [3]]`), i64s(1)}, ret: ty("f16?"), want: `[1.5, 3]`},
		{name: "decimal", args: []in{col(ty("list<decimal(5,2)>"), `[["1.25", "3"], ["-1.25"]]`), i64s(1)}, ret: ty("decimal(5,2)?"), want: `["1.25", "-1.25"]`},
		{name: "timestamp", args: []in{col(ty("list<timestamp(us)>"), `[[5, 6], [7]]`), i64s(-1)}, ret: ty("timestamp(us)?"), want: `[6, 7]`},
		{name: "binary", args: []in{col(ty("list<binary>"), `[["AAE="], []]`), i64s(1)}, ret: ty("binary?"), want: `["AAE=", null]`},
		{name: "lists", args: []in{col(ty("list<list<i32?>?>"), `[[[1, 2], null, [3]], [[4]], []]`), col(ty("i32"), `[3, 1, 1]`)}, ret: ty("list<i32?>?"),
			want: `[[3], [4], null]`},
		{name: "null lists", args: []in{col(ty("list<list<i32?>?>"), `[[[1, 2], null, [3]], [[4]]]`), i64s(2)}, ret: ty("list<i32?>?"),
			want: `[null, null]`},
		{name: "structs", args: []in{col(ty("list<struct<a: i32, b: utf8?>?>"), `[[{"a": 1, "b": "x"}, null], [{"a": 2, "b": null}]]`), i64s(1)},
			ret: ty("struct<a: i32, b: utf8?>?"), want: `[{"a": 1, "b": "x"}, {"a": 2, "b": null}]`},
		{name: "null structs", args: []in{col(ty("list<struct<a: i32, b: utf8?>?>"), `[[{"a": 1, "b": "x"}, null], [{"a": 2, "b": null}]]`), i64s(2)},
			ret: ty("struct<a: i32, b: utf8?>?"), want: `[null, null]`},
		{name: "fixed size elements", args: []in{col(ty("list<fixed_size_list<i32, 2>?>"), `[[[1, 2], [3, 4]], [null]]`), i64s(-1)},
			ret: ty("fixed_size_list<i32, 2>?"), want: `[[3, 4], null]`},
		{name: "fixed size list", args: []in{col(ty("fixed_size_list<utf8, 2>?"), `[["a", "b"], null, ["c", "d"]]`), i64s(-2)}, ret: strN,
			want: `["a", null, "c"]`},
		{name: "null type", args: []in{col(ty("list<null>"), `[[null], []]`), i64s(1)}, ret: dtype.Null(), want: `[null, null]`},
		// Empty arrays may have no value buffers at all.
		{name: "empty bool literal", args: []in{lit(scalarOf(t, ty("list<bool?>"), `[[]]`)), col(ty("i8"), `[29, 1]`)}, ret: boolN, want: `[null, null]`},
		{name: "empty i32 literal", args: []in{lit(scalarOf(t, ty("list<i32>"), `[[]]`)), col(ty("i8"), `[1]`)}, ret: i32N, want: `[null]`},
		{name: "empty utf8 literal", args: []in{lit(scalarOf(t, ty("list<utf8>"), `[[]]`)), col(ty("i8"), `[1]`)}, ret: strN, want: `[null]`},
		{name: "empty nested literal", args: []in{lit(scalarOf(t, ty("list<list<bool>>"), `[[]]`)), col(ty("i8"), `[1]`)}, ret: ty("list<bool>?"), want: `[null]`},
		{name: "empty", args: []in{col(ty("list<i32>"), `[]`), i64s(1)}, ret: i32N, want: `[]`},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ListElement(mem, a[0], a[1], ret)
	})
}

// TestListElementRows checks list_element row by row against a direct
// reading of the lists, over arrays long enough to span several words:
// sliced list and index arrays, null lists, null elements, null indices,
// i64 and i16 index columns, a scalar index, and fixed-size lists.
func TestListElementRows(t *testing.T) {
	const n = 300
	mem := checkedMem(t)
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Int32Builder)
	fb := array.NewFixedSizeListBuilder(mem, 3, arrow.PrimitiveTypes.Int64)
	defer fb.Release()
	fvb := fb.ValueBuilder().(*array.Int64Builder)
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	sb := array.NewInt16Builder(mem)
	defer sb.Release()
	for i := range n + 5 {
		if i%11 == 3 {
			lb.AppendNull()
			fb.AppendNull() // appends 3 null elements
		} else {
			lb.Append(true)
			for j := range i % 6 {
				if (i+j)%7 == 0 {
					vb.AppendNull()
				} else {
					vb.Append(int32(i*10 + j))
				}
			}
			fb.Append(true)
			for j := range 3 {
				if (i+j)%5 == 0 {
					fvb.AppendNull()
				} else {
					fvb.Append(int64(-i*10 - j))
				}
			}
		}
		// A null index keeps a value in range under it.
		k := int64(i%13) - 6
		ok := i%17 != 5
		ib.AppendValues([]int64{k}, []bool{ok})
		sb.AppendValues([]int16{int16(k)}, []bool{ok})
	}
	lists, fixed, idx, idx16 := lb.NewArray(), fb.NewArray(), ib.NewArray(), sb.NewArray()
	defer lists.Release()
	defer fixed.Release()
	defer idx.Release()
	defer idx16.Release()
	slice := func(a arrow.Array) arrow.Array { return array.NewSlice(a, 5, n+5) }
	ls, fs, is, is16 := slice(lists), slice(fixed), slice(idx), slice(idx16)
	defer ls.Release()
	defer fs.Release()
	defer is.Release()
	defer is16.Release()
	// want reads row i of list array xs at 1-based index k.
	want := func(xs arrow.Array, i int, k int64) (int64, bool) {
		if xs.IsNull(i) {
			return 0, false
		}
		var child arrow.Array
		var s, e int64
		switch l := xs.(type) {
		case *array.List:
			child = l.ListValues()
			s, e = l.ValueOffsets(i)
		case *array.FixedSizeList:
			child = l.ListValues()
			s = int64(l.Offset()+i) * 3
			e = s + 3
		}
		var p int64
		switch size := e - s; {
		case k >= 1 && k <= size:
			p = s + k - 1
		case k <= -1 && -k <= size:
			p = e + k
		default:
			return 0, false
		}
		if child.IsNull(int(p)) {
			return 0, false
		}
		switch c := child.(type) {
		case *array.Int32:
			return int64(c.Value(int(p))), true
		case *array.Int64:
			return c.Value(int(p)), true
		}
		panic("unexpected child")
	}
	type idxOf func(i int) (int64, bool)
	colIdx := func(a arrow.Array) idxOf {
		return func(i int) (int64, bool) {
			if a.IsNull(i) {
				return 0, false
			}
			switch c := a.(type) {
			case *array.Int64:
				return c.Value(i), true
			case *array.Int16:
				return int64(c.Value(i)), true
			}
			panic("unexpected index")
		}
	}
	cases := []struct {
		name string
		xs   arrow.Array
		xt   dtype.DType
		idx  datum.Datum
		at   idxOf
		ret  dtype.DType
	}{
		{"list i64 index", ls, ty("list<i32?>?"), datum.FromArray(is, i64N), colIdx(is), i32N},
		{"list i16 index", ls, ty("list<i32?>?"), datum.FromArray(is16, ty("i16?")), colIdx(is16), i32N},
		{"list scalar index", ls, ty("list<i32?>?"), datum.FromScalar(scalar.Int64(-2), n), func(int) (int64, bool) { return -2, true }, i32N},
		{"fixed i64 index", fs, ty("fixed_size_list<i64?, 3>?"), datum.FromArray(is, i64N), colIdx(is), i64N},
		{"fixed scalar index", fs, ty("fixed_size_list<i64?, 3>?"), datum.FromScalar(scalar.Int64(3), n), func(int) (int64, bool) { return 3, true }, i64N},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ListElement(mem, datum.FromArray(c.xs, c.xt), c.idx, c.ret)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			arr := got.Array()
			if arr.Len() != n {
				t.Fatalf("%d rows, want %d", arr.Len(), n)
			}
			nulls := 0
			for i := range n {
				var w int64
				ok := false
				if k, valid := c.at(i); valid {
					w, ok = want(c.xs, i, k)
				}
				if !ok {
					nulls++
					if arr.IsValid(i) {
						t.Errorf("row %d: got a value, want null", i)
					}
					continue
				}
				var g int64
				switch a := arr.(type) {
				case *array.Int32:
					g = int64(a.Value(i))
				case *array.Int64:
					g = a.Value(i)
				}
				if arr.IsNull(i) || g != w {
					t.Errorf("row %d: got %d (null %v), want %d", i, g, arr.IsNull(i), w)
				}
			}
			if arr.NullN() != nulls {
				t.Errorf("null count %d, want %d", arr.NullN(), nulls)
			}
		})
	}
}

func TestListErrors(t *testing.T) {
	mem := checkedMem(t)
	// Decreasing offsets, which Arrow does not check when an array is made.
	values := fromJSON(t, mem, i32N, `[1, 2, 3]`)
	defer values.Release()
	offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 3, 1}))
	lt := arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	ld := array.NewData(lt, 2, []*memory.Buffer{nil, offs}, []arrow.ArrayData{values.Data()}, 0, 0)
	bad := array.MakeFromData(ld)
	ld.Release()
	defer bad.Release()
	if got, err := ListContains(mem, datum.FromArray(bad, ty("list<i32?>")), datum.FromScalar(scalar.Int32(1), 2), boolNN); err == nil || !strings.Contains(err.Error(), "decrease") {
		if err == nil {
			got.Release()
		}
		t.Errorf("list_contains over decreasing offsets: error %v", err)
	}

	notList := fromJSON(t, mem, i32N, `[1]`)
	defer notList.Release()
	d := datum.FromArray(notList, i32N)
	one := datum.FromScalar(scalar.Int64(1), 1)
	for name, call := range map[string]func() (datum.Datum, error){
		"list_length":   func() (datum.Datum, error) { return ListLength(mem, d, i64) },
		"list_contains": func() (datum.Datum, error) { return ListContains(mem, d, one, boolNN) },
		"list_element":  func() (datum.Datum, error) { return ListElement(mem, d, one, i32N) },
	} {
		got, err := call()
		if err == nil {
			got.Release()
			t.Errorf("%s of an i32 array: no error", name)
		} else if !strings.Contains(err.Error(), "list") {
			t.Errorf("%s: error %q does not say what was expected", name, err)
		}
	}
	xs := fromJSON(t, mem, ty("list<i32>"), `[[1]]`)
	defer xs.Release()
	if got, err := ListElement(mem, datum.FromArray(xs, ty("list<i32>")), datum.FromScalar(scalar.String("x"), 1), i32N); err == nil {
		got.Release()
		t.Error("list_element with a utf8 index: no error")
	}
}

// BenchmarkListContains is list_contains(xs, 7) over 1M lists of 0 to 7
// i64 elements with a few nulls.
func BenchmarkListContains(b *testing.B) {
	const n = 1 << 20
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64)
	vb := lb.ValueBuilder().(*array.Int64Builder)
	for i := range n {
		lb.Append(true)
		for j := range i % 8 {
			if (i+j)%13 == 0 {
				vb.AppendNull()
			} else {
				vb.Append(int64((i * j) % 50))
			}
		}
	}
	arr := lb.NewArray()
	lb.Release()
	defer arr.Release()
	mem := memory.NewGoAllocator()
	xs := datum.FromArray(arr, ty("list<i64?>"))
	v := datum.FromScalar(scalar.Int64(7), n)
	b.ReportAllocs()
	for b.Loop() {
		out, err := ListContains(mem, xs, v, boolN)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
}

// BenchmarkListElement is list_element(xs, i) over 65 536 lists of 4 u32
// values (1 MiB), with a scalar index and with an i64 index column of
// random positions 1…4: bench's gather workload, without the evaluator;
// "u64/…" is the same over lists of u64 values (2 MiB).
func BenchmarkListElement(b *testing.B) {
	const n, width = 1 << 16, 4
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	rng := rand.New(rand.NewPCG(1, 1))
	for range n {
		ib.Append(1 + rng.Int64N(width))
	}
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	for _, elem := range []string{"u32", "u64"} {
		et := dtype.ToArrow(ty(elem))
		lb := array.NewListBuilder(memory.DefaultAllocator, et)
		vb := lb.ValueBuilder()
		for i := range n {
			lb.Append(true)
			for j := range width {
				switch vb := vb.(type) {
				case *array.Uint32Builder:
					vb.Append(uint32(i*width + j))
				case *array.Uint64Builder:
					vb.Append(uint64(i*width + j))
				}
			}
		}
		arr := lb.NewArray()
		lb.Release()
		defer arr.Release()
		xs := datum.FromArray(arr, ty("list<"+elem+">"))
		for _, c := range []struct {
			name string
			i    datum.Datum
		}{
			{"scalar", datum.FromScalar(scalar.Int64(2), n)},
			{"column", datum.FromArray(idx, ty("i64"))},
		} {
			name := c.name
			if elem != "u32" {
				name = elem + "/" + c.name
			}
			b.Run(name, func(b *testing.B) {
				mem := newRecycler()
				runBench(b, n, func(mem memory.Allocator) (datum.Datum, error) {
					return ListElement(mem, xs, c.i, ty(elem+"?"))
				}, mem)
			})
		}
	}
}

// TestElementRunSIMD compares list_element's run of up to 64 rows under
// each SIMD set with the portable loop (values, miss bits and the sign of
// down): 32-bit and 64-bit values, every length 0…64, lists of 0 to 6
// elements at an offset into the values (offs not starting at 0), indices
// inside, outside, negative, zero and beyond the i32 range, and offsets
// that decrease or point past vals.
func TestElementRunSIMD(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	vals := make([]uint32, 400)
	for i := range vals {
		vals[i] = rng.Uint32() | 1 // never 0, so a zeroed miss shows
	}
	vals64 := make([]uint64, len(vals))
	for i, v := range vals {
		vals64[i] = uint64(v) << 3
	}
	pick := func() int64 {
		switch rng.IntN(12) {
		case 0:
			return 0
		case 1:
			return -1 - rng.Int64N(3)
		case 2:
			return 1 << 40
		case 3:
			return math.MinInt64
		case 4:
			return math.MaxInt64
		}
		return 1 + rng.Int64N(7)
	}
	kernelRows := map[string][2]int{} // the rows each set's 32- and 64-bit kernels did
	for n := 0; n <= 64; n++ {
		for trial := range 20 {
			offs := make([]int32, n+1)
			offs[0] = int32(rng.IntN(20))
			for i := 1; i <= n; i++ {
				offs[i] = offs[i-1] + int32(rng.IntN(7))
			}
			switch trial {
			case 17: // the last list ends past vals
				offs[n] = int32(len(vals) + 5)
			case 18: // an offset decreases
				if n > 1 {
					offs[n/2] = offs[n/2+1] + 3
				}
			}
			ks := make([]int64, n)
			for i := range ks {
				ks[i] = pick()
			}
			want := make([]uint32, n)
			wantMiss, wantDown := 0, int64(0)
			var m uint64
			withActive(nil, func() { m, wantDown = elementRun(want, vals, offs, ks, 0) })
			wantMiss = int(m)
			for _, set := range simdCases() {
				got := make([]uint32, n)
				for i := range got {
					got[i] = 0xdead // every row is written
				}
				var miss uint64
				var down int64
				withActive(set, func() { miss, down = elementRun(got, vals, offs, ks, 0) })
				if !slices.Equal(got, want) || int(miss) != wantMiss || (down < 0) != (wantDown < 0) {
					t.Fatalf("%s n %d trial %d: got %v miss %x down %d, want %v miss %x down %d (offs %v ks %v)",
						set.name, n, trial, got, miss, down, want, wantMiss, wantDown, offs, ks)
				}
				got64 := make([]uint64, n)
				for i := range got64 {
					got64[i] = 0xdead
				}
				want64 := make([]uint64, n)
				var miss64, wantMiss64 uint64
				var down64, wantDown64 int64
				withActive(nil, func() { wantMiss64, wantDown64 = elementRun(want64, vals64, offs, ks, 0) })
				withActive(set, func() { miss64, down64 = elementRun(got64, vals64, offs, ks, 0) })
				if !slices.Equal(got64, want64) || miss64 != wantMiss64 || (down64 < 0) != (wantDown64 < 0) {
					t.Fatalf("%s n %d trial %d: 64-bit: got %v miss %x down %d, want %v miss %x down %d (offs %v ks %v)",
						set.name, n, trial, got64, miss64, down64, want64, wantMiss64, wantDown64, offs, ks)
				}
				d32, _, _ := simdElementGather(set, got, vals, offs, ks)
				d64, _, _ := simdElementGather(set, got64, vals64, offs, ks)
				kernelRows[set.name] = [2]int{kernelRows[set.name][0] + d32, kernelRows[set.name][1] + d64}
			}
		}
	}
	// The two kernels need the same features: where the 32-bit one ran,
	// the 64-bit one did too, so the comparisons above compared it.
	for name, rows := range kernelRows {
		if rows[0] > 0 && rows[1] == 0 {
			t.Errorf("%s: the 64-bit gather did no row", name)
		}
	}
}
