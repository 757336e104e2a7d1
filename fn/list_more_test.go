package fn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// TestListMoreKernels evaluates the functions of list_more.go through
// fn.Kernel: columns and literals, null lists, empty lists, null elements,
// fixed-size lists; DuckDB's results.
func TestListMoreKernels(t *testing.T) {
	xs := vkCol("list<i32?>?", `[[3, 1, null, 2], null, [], [5, 5, 4]]`)
	fx := vkCol("fixed_size_list<i16?, 2>?", `[[2, null], null, [7, 7], [-1, 4]]`)
	s := vkCol("utf8?", `["héllo", null, "", "abc"]`)
	vkRun(t, []vkCase{
		{name: "list_value", f: fn.ListValue, args: []vkArg{vkCol("i32?", `[1, null, 3, 4]`), vkLit("i32", `7`)},
			want: `[[1, 7], [null, 7], [3, 7], [4, 7]]`},
		{name: "list_slice", f: fn.ListSlice, args: []vkArg{xs, vkLit("i64", `2`), vkLit("i64", `-1`)}, want: `[[1, null, 2], null, [], [5, 4]]`},
		{name: "list_slice fixed", f: fn.ListSlice, args: []vkArg{fx, vkCol("i8", `[-1, 1, 0, 5]`), vkLit("i64", `2`)}, want: `[[null], null, [7, 7], []]`},
		{name: "list_slice string", f: fn.ListSlice, args: []vkArg{s, vkLit("i64", `-3`), vkLit("i64", `4`)}, want: `["ll", null, "", "abc"]`},
		{name: "list_element string", f: fn.ListElement, args: []vkArg{s, vkLit("i64", `2`)}, want: `["é", null, "", "b"]`},
		{name: "list_element string too far", f: fn.ListElement, args: []vkArg{s, vkLit("i64", `4294967296`)}, wantErr: errs.ErrInvalidArgument},
		{name: "list_sum", f: fn.ListSum, args: []vkArg{xs}, want: `[6, null, null, 14]`},
		{name: "list_sum fixed", f: fn.ListSum, args: []vkArg{fx}, want: `[2, null, 14, 3]`},
		{name: "list_sum overflow", f: fn.ListSum, args: []vkArg{vkCol("list<i64>", `[[1], [9223372036854775807, 1]]`)}, wantErr: errs.ErrOverflow, errRow: 1},
		{name: "list_avg", f: fn.ListAvg, args: []vkArg{xs}, want: `[2, null, null, 4.666666666666667]`},
		{name: "list_avg decimal", f: fn.ListAvg, args: []vkArg{vkCol("list<decimal(9,2)>", `[["1.11", "2", "2"]]`)}, want: `[1.7033333333333334]`},
		{name: "list_min", f: fn.ListMin, args: []vkArg{xs}, want: `[1, null, null, 4]`},
		{name: "list_max strings", f: fn.ListMax, args: []vkArg{vkCol("list<utf8?>", `[["b", "a", null], []]`)}, want: `["b", null]`},
		{name: "list_count", f: fn.ListCount, args: []vkArg{xs}, want: `[3, null, 0, 3]`},
		{name: "list_sort", f: fn.ListSort, args: []vkArg{xs}, want: `[[1, 2, 3, null], null, [], [4, 5, 5]]`},
		{name: "list_sort desc nulls first", f: fn.ListSort, args: []vkArg{xs, vkLit("utf8", `"desc"`), vkLit("utf8", `"NULLS FIRST"`)},
			want: `[[null, 3, 2, 1], null, [], [5, 5, 4]]`},
		{name: "list_sort bad order", f: fn.ListSort, args: []vkArg{xs, vkLit("utf8", `"UP"`)}, wantErr: errs.ErrInvalidArgument, errRow: -1},
		{name: "list_reverse_sort", f: fn.ListReverseSort, args: []vkArg{fx}, want: `[[2, null], null, [7, 7], [4, -1]]`},
		{name: "list_reverse", f: fn.ListReverse, args: []vkArg{xs}, want: `[[2, null, 1, 3], null, [], [4, 5, 5]]`},
		{name: "list_distinct", f: fn.ListDistinct, args: []vkArg{xs}, want: `[[3, 1, 2], null, [], [5, 4]]`},
		{name: "list_has_any", f: fn.ListHasAny, args: []vkArg{xs, vkLit("list<i32?>", `[5, null]`)}, want: `[false, null, false, true]`},
		{name: "list_has_all", f: fn.ListHasAll, args: []vkArg{xs, vkLit("list<i32?>", `[1, null, 2]`)}, want: `[true, null, false, false]`},
		{name: "list_position", f: fn.ListPosition, args: []vkArg{xs, vkLit("i32?", `null`)}, want: `[3, null, null, null]`},
		{name: "list_concat", f: fn.ListConcat, args: []vkArg{xs, xs}, want: `[[3, 1, null, 2, 3, 1, null, 2], [], [], [5, 5, 4, 5, 5, 4]]`},
		{name: "|| on lists", f: fn.StringConcat, args: []vkArg{xs, vkLit("list<i32?>", `[0]`)}, want: `[[3, 1, null, 2, 0], null, [0], [5, 5, 4, 0]]`},
		{name: "flatten", f: fn.Flatten, args: []vkArg{vkCol("list<list<i32>?>?", `[[[1, 2], null, [3]], null, [], [null]]`)}, want: `[[1, 2, 3], null, [], []]`},
	})
}

// list_slice is DuckDB's: 1-based, inclusive, a negative bound counting
// from the end, on lists and strings alike.
func Example_listSlice() {
	mem := memory.NewGoAllocator()
	t, _ := dtype.Parse("list<i32>")
	xs, _, _ := array.FromJSON(mem, dtype.ToArrow(t), strings.NewReader(`[[1, 2, 3, 4], [5]]`))
	defer xs.Release()
	i64 := dtype.Primitive(dtype.I64, false)
	ret, _ := fn.ListSlice.ReturnType([]dtype.DType{t, i64, i64})
	out, _ := fn.ListSlice.(fn.Kernel).Eval(&fn.Context{Mem: mem},
		[]datum.Datum{datum.FromArray(xs, t), datum.FromScalar(scalar.Int64(2), 2), datum.FromScalar(scalar.Int64(-1), 2)}, ret)
	defer out.Release()
	fmt.Println(out.Array())
	// Output: [[2 3 4] []]
}
