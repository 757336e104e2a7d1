package kernels

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func TestGetItem(t *testing.T) {
	st := ty("struct<a: i32?, b: utf8>?")
	rows := col(st, `[{"a": 1, "b": "x"}, null, {"a": null, "b": "z"}, {"a": 4, "b": ""}]`)
	full := ty("struct<a: i32?, b: list<i32>>")
	fullRows := col(full, `[{"a": 1, "b": [1]}, {"a": null, "b": []}]`)
	cases := []struct {
		kernelCase
		field int
	}{
		{kernelCase{name: "a", args: []in{rows}, ret: i32N, want: `[1, null, null, 4]`}, 0},
		{kernelCase{name: "b", args: []in{rows}, ret: strN, want: `["x", null, "z", ""]`}, 1},
		{kernelCase{name: "no struct nulls", args: []in{fullRows}, ret: i32N, want: `[1, null]`}, 0},
		{kernelCase{name: "list field", args: []in{fullRows}, ret: ty("list<i32>"), want: `[[1], []]`}, 1},
		{kernelCase{name: "nested struct", args: []in{col(ty("struct<s: struct<x: i32>?>?"), `[{"s": {"x": 1}}, {"s": null}, null]`)},
			ret: ty("struct<x: i32>?"), want: `[{"x": 1}, null, null]`}, 0},
		{kernelCase{name: "scalar", args: []in{lit(scalarOf(t, st, `[{"a": 1, "b": "x"}]`))}, ret: i32N, want: `[1, 1]`}, 0},
		{kernelCase{name: "null scalar", args: []in{lit(scalar.Null(st))}, ret: strN, want: `[null]`}, 1},
		{kernelCase{name: "null field", args: []in{col(ty("struct<n: null>?"), `[{"n": null}, null]`)}, ret: dtype.Null(), want: `[null, null]`}, 0},
		{kernelCase{name: "empty", args: []in{col(st, `[]`)}, ret: i32N, want: `[]`}, 0},
	}
	for _, c := range cases {
		runCases(t, []kernelCase{c.kernelCase}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return GetItem(mem, a[0], c.field, ret)
		})
	}
}

// TestGetItemShares checks that a struct without nulls yields its child
// itself, and one with nulls a child with only a new bitmap.
func TestGetItemShares(t *testing.T) {
	mem := checkedMem(t)
	st := ty("struct<a: utf8?>?")
	plain := fromJSON(t, mem, st, `[{"a": "x"}, {"a": null}]`)
	defer plain.Release()
	got, err := GetItem(mem, datum.FromArray(plain, st), 0, strN)
	if err != nil {
		t.Fatal(err)
	}
	if got.Array().Data() != plain.(*array.Struct).Field(0).Data() {
		t.Error("a struct without nulls: the child was not returned as is")
	}
	got.Release()

	nulls := fromJSON(t, mem, st, `[{"a": "x"}, null, {"a": null}]`)
	defer nulls.Release()
	got, err = GetItem(mem, datum.FromArray(nulls, st), 0, strN)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	in, out := nulls.(*array.Struct).Field(0).Data().Buffers(), got.Array().Data().Buffers()
	if in[0] == out[0] || in[1] != out[1] || in[2] != out[2] {
		t.Error("a struct with nulls: want a new validity and the child's offsets and data")
	}
}

func TestPack(t *testing.T) {
	st := ty("struct<x: i32?, y: utf8, z: list<i32>>")
	cases := []kernelCase{
		{name: "arrays", args: []in{col(i32N, `[1, null]`), col(str, `["a", "b"]`), col(ty("list<i32>"), `[[1], []]`)}, ret: st,
			want: `[{"x": 1, "y": "a", "z": [1]}, {"x": null, "y": "b", "z": []}]`},
		{name: "broadcast", args: []in{lit(scalar.Int32(7)), col(str, `["a", "b", "c"]`), lit(scalarOf(t, ty("list<i32>"), `[[1, 2]]`))}, ret: st,
			want: `[{"x": 7, "y": "a", "z": [1, 2]}, {"x": 7, "y": "b", "z": [1, 2]}, {"x": 7, "y": "c", "z": [1, 2]}]`},
		{name: "null scalar", args: []in{lit(scalar.Null(i32N)), col(str, `["a"]`), col(ty("list<i32>"), `[[]]`)}, ret: st,
			want: `[{"x": null, "y": "a", "z": []}]`},
		{name: "scalars", args: []in{lit(scalar.Int32(7)), lit(scalar.String("s")), lit(scalarOf(t, ty("list<i32>"), `[[]]`))}, ret: st,
			want: `[{"x": 7, "y": "s", "z": []}, {"x": 7, "y": "s", "z": []}]`},
		{name: "empty", args: []in{col(i32N, `[]`), col(str, `[]`), col(ty("list<i32>"), `[]`)}, ret: st, want: `[]`},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Pack(mem, a, ret)
	})
}

func TestPackNoFields(t *testing.T) {
	mem := checkedMem(t)
	got, err := Pack(mem, nil, ty("struct<>"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsScalar() || got.Len() != 1 {
		t.Errorf("pack() = %v rows, scalar %v; want one scalar row", got.Len(), got.IsScalar())
	}
}

func TestSelect(t *testing.T) {
	st := ty("struct<a: i32, b: utf8, c: bool?>?")
	rows := col(st, `[{"a": 1, "b": "x", "c": true}, null, {"a": 3, "b": "z", "c": null}]`)
	cases := []struct {
		kernelCase
		keep []int
	}{
		{kernelCase{name: "reorder", args: []in{rows}, ret: ty("struct<c: bool?, a: i32>?"),
			want: `[{"c": true, "a": 1}, null, {"c": null, "a": 3}]`}, []int{2, 0}},
		{kernelCase{name: "one", args: []in{rows}, ret: ty("struct<b: utf8>?"), want: `[{"b": "x"}, null, {"b": "z"}]`}, []int{1}},
		{kernelCase{name: "none", args: []in{col(ty("struct<a: i32>"), `[{"a": 1}]`)}, ret: ty("struct<>"), want: `[{}]`}, nil},
		{kernelCase{name: "scalar", args: []in{lit(scalarOf(t, st, `[{"a": 1, "b": "x", "c": false}]`))}, ret: ty("struct<b: utf8, a: i32>?"),
			want: `[{"b": "x", "a": 1}]`}, []int{1, 0}},
		{kernelCase{name: "null scalar", args: []in{lit(scalar.Null(st))}, ret: ty("struct<a: i32>?"), want: `[null, null]`}, []int{0}},
	}
	for _, c := range cases {
		runCases(t, []kernelCase{c.kernelCase}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return Select(mem, a[0], c.keep, ret)
		})
	}
	mem := checkedMem(t)
	arr := fromJSON(t, mem, st, `[null]`)
	defer arr.Release()
	if got, err := Select(mem, datum.FromArray(arr, st), []int{5}, st); err == nil || !strings.Contains(err.Error(), "field 5") {
		got.Release()
		t.Errorf("select of field 5 of 3: error %v", err)
	}
}

func TestMerge(t *testing.T) {
	ab := ty("struct<a: i32, b: utf8>?")
	bc := ty("struct<b: i32, c: bool>?")
	ret := ty("struct<a: i32, b: i32, c: bool>?")
	x := col(ab, `[{"a": 1, "b": "x"}, null, {"a": 3, "b": "z"}, {"a": 4, "b": "w"}]`)
	y := col(bc, `[{"b": 10, "c": true}, {"b": 20, "c": false}, null, {"b": 40, "c": true}]`)
	cases := []kernelCase{
		{name: "last wins", args: []in{x, y}, ret: ret,
			want: `[{"a": 1, "b": 10, "c": true}, null, null, {"a": 4, "b": 40, "c": true}]`},
		{name: "first wins back", args: []in{y, x}, ret: ty("struct<b: utf8, c: bool, a: i32>?"),
			want: `[{"b": "x", "c": true, "a": 1}, null, null, {"b": "w", "c": true, "a": 4}]`},
		{name: "broadcast", args: []in{x, lit(scalarOf(t, bc, `[{"b": 7, "c": false}]`))}, ret: ret,
			want: `[{"a": 1, "b": 7, "c": false}, null, {"a": 3, "b": 7, "c": false}, {"a": 4, "b": 7, "c": false}]`},
		{name: "null scalar", args: []in{x, lit(scalar.Null(bc))}, ret: ret, want: `[null, null, null, null]`},
		{name: "one", args: []in{x}, ret: ab, want: `[{"a": 1, "b": "x"}, null, {"a": 3, "b": "z"}, {"a": 4, "b": "w"}]`},
		{name: "scalars", args: []in{lit(scalarOf(t, ab, `[{"a": 1, "b": "x"}]`)), lit(scalarOf(t, bc, `[{"b": 2, "c": true}]`))}, ret: ret,
			want: `[{"a": 1, "b": 2, "c": true}]`},
		{name: "no nulls", args: []in{col(ty("struct<a: i32>"), `[{"a": 1}]`), col(ty("struct<b: i32>"), `[{"b": 2}]`)}, ret: ty("struct<a: i32, b: i32>"),
			want: `[{"a": 1, "b": 2}]`},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Merge(mem, a, ret)
	})
}

func TestStructErrors(t *testing.T) {
	mem := checkedMem(t)
	arr := fromJSON(t, mem, i32N, `[1]`)
	defer arr.Release()
	d := datum.FromArray(arr, i32N)
	for name, call := range map[string]func() (datum.Datum, error){
		"get_item": func() (datum.Datum, error) { return GetItem(mem, d, 0, i32N) },
		"select":   func() (datum.Datum, error) { return Select(mem, d, []int{0}, i32N) },
		"merge":    func() (datum.Datum, error) { return Merge(mem, []datum.Datum{d}, ty("struct<>")) },
	} {
		got, err := call()
		if err == nil {
			got.Release()
			t.Errorf("%s of an i32 array: no error", name)
		} else if !strings.Contains(err.Error(), "struct") {
			t.Errorf("%s: error %q", name, err)
		}
	}
	st := ty("struct<a: i32>")
	sarr := fromJSON(t, mem, st, `[{"a": 1}]`)
	defer sarr.Release()
	if got, err := GetItem(mem, datum.FromArray(sarr, st), 3, i32N); err == nil {
		got.Release()
		t.Error("get_item of field 3 of 1: no error")
	}
	if got, err := Merge(mem, []datum.Datum{datum.FromArray(sarr, st)}, ty("struct<zz: i32>")); err == nil || !strings.Contains(err.Error(), "zz") {
		got.Release()
		t.Errorf("merge into a field no argument has: error %v", err)
	}
}
