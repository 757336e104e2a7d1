package partition_test

import (
	"fmt"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/partition"
)

func ExampleByField() {
	root, _ := dtype.Parse("struct<a: struct<x: i32, y: i32>, b: i32, c: i32>")
	scope := expr.ScopeOf(root)
	e, _ := parse.Parse("$.a.x > 5 AND $.b = $.c")
	b, _ := coerce.Bind(e, scope)

	p, err := partition.ByField(b, scope)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range p.Partitions {
		fmt.Printf("partition %s: %s (its $ is %s), read as $%s\n", part.Field, part.Expr, root.Fields()[root.FieldIndex(part.Field)].Type, part.Var)
	}
	fmt.Println("root:", p.Root)
	t, _ := p.Scope.Lookup("p_a")
	fmt.Println("the root's scope types $p_a as", t)
	// Output:
	// partition a: x > 5 (its $ is struct<x: i32, y: i32>), read as $p_a
	// partition b: $ (its $ is i32), read as $p_b
	// partition c: $ (its $ is i32), read as $p_c
	// root: $p_a AND $p_b = $p_c
	// the root's scope types $p_a as bool
}

func ExampleByField_lambda() {
	root, _ := dtype.Parse("struct<xs: list<i32>, lo: i32, hi: i32>")
	scope := expr.ScopeOf(root)
	e, _ := parse.Parse("list_any(xs, x -> x BETWEEN lo AND hi + 1) AND hi > 10")
	b, _ := coerce.Bind(e, scope)
	p, _ := partition.ByField(b, scope)
	// The lambda reads three fields, so list_any stays in the root. Its body
	// runs only over list elements, and hi + 1 can overflow: it stays in
	// the body rather than run on every row of hi's partition.
	fmt.Print(p)
	// Output:
	// xs: $  ($p_xs)
	// lo: $  ($p_lo)
	// hi: {e0: $, e1: $ > 10}  ($p_hi)
	// root: list_any($p_xs, lambda x: x BETWEEN $p_lo AND $p_hi.e0 + 1) AND $p_hi.e1
}

func ExampleReferencedFields() {
	root, _ := dtype.Parse("struct<a: struct<x: i32, y: i32>, b: i32, c: i32, s: struct<t: utf8>>")
	scope := expr.ScopeOf(root)
	for _, src := range []string{
		"$.a.x > 5 AND $.b = $.c",
		"a.x > a.y OR s IS NULL",
		"list_transform([1, 2], v -> v + b)",
	} {
		e, _ := parse.Parse(src)
		b, _ := coerce.Bind(e, scope)
		fmt.Println(src, "reads", partition.ReferencedFields(b))
	}
	// Output:
	// $.a.x > 5 AND $.b = $.c reads [$.a.x $.b $.c]
	// a.x > a.y OR s IS NULL reads [$.a.x $.a.y $.s]
	// list_transform([1, 2], v -> v + b) reads [$.b]
}

func ExampleConjuncts() {
	root, _ := dtype.Parse("struct<a: i32, b: i32, c: utf8>")
	scope := expr.ScopeOf(root)
	e, _ := parse.Parse("a > 1 AND (b < 2 AND c LIKE 'x%') AND (a = b OR b IS NULL)")
	b, _ := coerce.Bind(e, scope)
	parts := partition.Conjuncts(b)
	for _, c := range parts {
		fmt.Println(c)
	}
	back, _ := partition.Conjoin(parts)
	fmt.Println("conjoined:", back)
	// Output:
	// a > 1
	// b < 2
	// c LIKE 'x%'
	// a = b OR b IS NULL
	// conjoined: a > 1 AND b < 2 AND c LIKE 'x%' AND (a = b OR b IS NULL)
}
