package fn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func TestLikeKernel(t *testing.T) {
	s := vkCol("utf8?", `["Apple", "apricot", null, "banana", "A%"]`)
	vkRun(t, []vkCase{
		{name: "like", f: fn.Like(false, false), args: []vkArg{s, vkLit("utf8", `"Ap%"`)}, want: `[true, false, null, false, false]`},
		{name: "not like", f: fn.Like(true, false), args: []vkArg{s, vkLit("utf8", `"Ap%"`)}, want: `[false, true, null, true, true]`},
		{name: "ilike", f: fn.Like(false, true), args: []vkArg{s, vkLit("utf8", `"ap%"`)}, want: `[true, true, null, false, false]`},
		{name: "not ilike", f: fn.Like(true, true), args: []vkArg{s, vkLit("utf8", `"%AN%"`)}, want: `[true, true, null, false, true]`},
		{name: "escape", f: fn.Like(false, false), args: []vkArg{s, vkLit("utf8", `"A\\%"`)}, want: `[false, false, null, false, true]`},
		{name: "row patterns", f: fn.Like(false, false), args: []vkArg{s, vkCol("utf8", `["_pple", "a%t", "x", "b_n%", "%"]`)},
			want: `[true, true, null, true, true]`},
		{name: "bad pattern", f: fn.Like(false, false), args: []vkArg{vkCol("utf8?", `[null, "x"]`), vkLit("utf8", `"x\\"`)},
			wantErr: errs.ErrInvalidArgument, errRow: 1},
		{name: "bad row pattern", f: fn.Like(false, true), args: []vkArg{vkCol("utf8", `["a", "b"]`), vkCol("utf8", `["a", "\\"]`)},
			wantErr: errs.ErrInvalidArgument, errRow: 1},
	})
}

func ExampleLike() {
	mem := memory.NewGoAllocator()
	names, _, _ := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["Alice", "alfred", null, "Bob"]`))
	defer names.Release()
	t := dtype.Utf8(true)

	ilike := fn.Like(false, true) // name ILIKE 'al%'
	ret, _ := ilike.ReturnType([]dtype.DType{t, dtype.Utf8(false)})
	out, err := ilike.Eval(&fn.Context{Mem: mem},
		[]datum.Datum{datum.FromArray(names, t), datum.FromScalar(scalar.String("al%"), names.Len())}, ret)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Release()
	fmt.Println(ret, out.Array())

	_, err = ilike.Eval(&fn.Context{Mem: mem},
		[]datum.Datum{datum.FromArray(names, t), datum.FromScalar(scalar.String(`al\`), names.Len())}, ret)
	fmt.Println(err)
	// Output:
	// bool? [true true (null) false]
	// ilike: row 0: LIKE pattern "al\\" ends with the escape character '\\', which must precede a character: invalid argument
}
