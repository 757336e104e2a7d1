package coerce_test

import (
	"fmt"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

func ExampleCoerce() {
	root, _ := dtype.Parse("struct<small: u8, n: i32, big: i64, price: decimal(10,2)>")
	scope := expr.ScopeOf(root)
	for _, src := range []string{
		"small + 1",           // the literal fits u8: stays u8
		"small + 300",         // 300 does not fit u8: it stays i32, which meets u8 at i32
		"n = 1.5",             // an integer with a decimal literal compares as f64
		"n + big",             // i32 meets i64 at i64
		"price > 10 AND null", // 10 fits decimal(10,2); null becomes a bool null
	} {
		e, _ := parse.Parse(src)
		out, err := coerce.Coerce(e, scope)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-20s → %s\n", src, out)
	}
	// Output:
	// small + 1            → small + 1::u8
	// small + 300          → CAST(small AS i32) + 300
	// n = 1.5              → CAST(n AS f64) = 1.5::f64
	// n + big              → CAST(n AS i64) + big
	// price > 10 AND null  → price > 10.00::decimal(10,2) AND null::bool?
}

func ExampleCoerce_error() {
	root, _ := dtype.Parse("struct<a: u64, b: i64, s: utf8>")
	scope := expr.ScopeOf(root)
	for _, src := range []string{"a = b", "s > 1 OR b < 0"} {
		e, _ := parse.Parse(src)
		_, err := coerce.Coerce(e, scope)
		fmt.Println(err)
	}
	// Output:
	// coerce: cannot compare u64 with i64 in `a = b` (eq) at the root node: no common type; cast one side, e.g. CAST(b AS u64)
	// coerce: cannot compare utf8 with i32 in `s > 1` (gt) at args[0]: no common type; cast one side, e.g. CAST(s AS i32)
}

func ExampleBind() {
	root, _ := dtype.Parse("struct<xs: list<i32>, scale: f64>")
	// A variable of the scope's frame types like a column.
	scope := expr.ScopeOf(root).With("offset", dtype.Primitive(dtype.I64, false))
	e, _ := parse.Parse("list_transform(xs, x -> x + $offset)")
	b, err := coerce.Bind(e, scope)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b.Tree())
	// Output:
	// list_transform :: list<i64>
	//   get_item xs :: list<i32>
	//     $ :: struct<xs: list<i32>, scale: f64>
	//   lambda (x: i32) :: i64
	//     add :: i64
	//       cast i64 :: i64
	//         var x :: i32
	//       var offset :: i64
}
