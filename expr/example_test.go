package expr_test

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// Bind types every node of a parsed expression against a schema.
func ExampleBind() {
	schema, _ := dtype.Parse("struct<a: i32, b: i32?, xs: list<i32>>")
	e, _ := parse.Parse("list_filter(xs, x -> x > b)")
	bound, err := expr.Bind(e, expr.ScopeOf(schema))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(bound.Tree())
	// Output:
	// list_filter :: list<i32>
	//   get_item xs :: list<i32>
	//     $ :: struct<a: i32, b: i32?, xs: list<i32>>
	//   lambda (x: i32) :: bool?
	//     gt :: bool?
	//       var x :: i32
	//       get_item b :: i32?
	//         $ :: struct<a: i32, b: i32?, xs: list<i32>>
}

// A scope is the root type plus frames of variables. A variable resolves
// through the innermost frame that defines it; a scope with no frames
// resolves none.
func ExampleScope() {
	root, _ := dtype.Parse("struct<a: i64>")
	e := expr.Add(expr.Col("a"), expr.V("offset")) // a + $offset

	withFrame := expr.ScopeOf(root).With("offset", dtype.Primitive(dtype.I64, false))
	bound, err := expr.Bind(e, withFrame)
	fmt.Println(bound.DType(), err)

	_, err = expr.Bind(e, expr.ScopeOf(root))
	fmt.Println(err)
	fmt.Println(errors.Is(err, expr.ErrUnresolvedVariable))
	// Output:
	// i64 <nil>
	// bind: at args[1] `$offset`: unresolved variable "offset" (the scope has no variables)
	// true
}
