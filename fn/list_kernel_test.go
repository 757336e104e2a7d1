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
	"github.com/colexpr/colexpr/scalar"
)

func TestListKernels(t *testing.T) {
	xs := vkCol("list<i32?>?", `[[1, 2, 3], [null], null, []]`)
	vkRun(t, []vkCase{
		{name: "list_length", f: fn.ListLength, args: []vkArg{xs}, want: `[3, 1, null, 0]`},
		{name: "list_length fixed", f: fn.ListLength, args: []vkArg{vkCol("fixed_size_list<i32, 3>", `[[1, 2, 3]]`)}, want: `[3]`},
		{name: "list_contains", f: fn.ListContains, args: []vkArg{xs, vkLit("i32", `2`)}, want: `[true, false, null, false]`},
		{name: "list_contains null value", f: fn.ListContains, args: []vkArg{xs, vkLit("i32?", `null`)}, want: `[null, null, null, null]`},
		{name: "list_element", f: fn.ListElement, args: []vkArg{xs, vkLit("i64", `-1`)}, want: `[3, null, null, null]`},
		{name: "list_element column", f: fn.ListElement, args: []vkArg{xs, vkCol("u8", `[2, 1, 1, 1]`)}, want: `[2, null, null, null]`},
		{name: "list_element nested", f: fn.ListElement, args: []vkArg{vkCol("list<struct<a: utf8>>", `[[{"a": "x"}, {"a": "y"}]]`), vkLit("i64", `2`)},
			want: `[{"a": "y"}]`},
	})
}

func Example_listContains() {
	mem := memory.NewGoAllocator()
	t, _ := dtype.Parse("list<i32?>?")
	xs, _, _ := array.FromJSON(mem, dtype.ToArrow(t), strings.NewReader(`[[1, 2], [3, null], null]`))
	defer xs.Release()

	// list_contains(xs, 2): DuckDB's rules, so a null element does not
	// make the answer null.
	ret, _ := fn.ListContains.ReturnType([]dtype.DType{t, dtype.Primitive(dtype.I32, false)})
	out, _ := fn.ListContains.(fn.Kernel).Eval(&fn.Context{Mem: mem},
		[]datum.Datum{datum.FromArray(xs, t), datum.FromScalar(scalar.Int32(2), xs.Len())}, ret)
	defer out.Release()
	fmt.Println(out.Array())
	// Output: [true false (null)]
}
