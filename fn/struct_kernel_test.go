package fn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
)

func TestStructKernels(t *testing.T) {
	st := vkCol("struct<a: i32, b: utf8?>?", `[{"a": 1, "b": "x"}, null, {"a": 3, "b": null}]`)
	vkRun(t, []vkCase{
		{name: "get_item", f: fn.GetItem("a"), args: []vkArg{st}, want: `[1, null, 3]`},
		{name: "get_item literal", f: fn.GetItem("b"), args: []vkArg{vkLit("struct<a: i32, b: utf8?>", `{"a": 1, "b": "x"}`)}, want: `["x"]`},
		{name: "pack", f: fn.Pack("x", "y"), args: []vkArg{vkCol("i32", `[1, 2]`), vkLit("utf8", `"k"`)},
			want: `[{"x": 1, "y": "k"}, {"x": 2, "y": "k"}]`},
		{name: "select", f: fn.Select("b", "a"), args: []vkArg{st}, want: `[{"b": "x", "a": 1}, null, {"b": null, "a": 3}]`},
		{name: "exclude", f: fn.Exclude("a"), args: []vkArg{st}, want: `[{"b": "x"}, null, {"b": null}]`},
		{name: "merge", f: fn.Merge, args: []vkArg{st, vkLit("struct<b: i64>", `{"b": 9}`)},
			want: `[{"a": 1, "b": 9}, null, {"a": 3, "b": 9}]`},
	})
}

func ExampleGetItem() {
	mem := memory.NewGoAllocator()
	t, _ := dtype.Parse("struct<name: utf8, qty: i32>?")
	rows, _, _ := array.FromJSON(mem, dtype.ToArrow(t), strings.NewReader(`[{"name": "bolt", "qty": 3}, null]`))
	defer rows.Release()

	get := fn.GetItem("qty")
	ret, _ := get.ReturnType([]dtype.DType{t})
	out, _ := get.Eval(&fn.Context{Mem: mem}, []datum.Datum{datum.FromArray(rows, t)}, ret)
	defer out.Release()
	fmt.Println(ret, out.Array())
	// Output: i32? [3 (null)]
}
