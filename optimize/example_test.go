package optimize_test

import (
	"fmt"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

// exampleSchema is the root type of the examples.
var exampleSchema = func() dtype.DType {
	t, err := dtype.Parse("struct<a: i32, b: i32, n: i32?, t: i8, f: f64, p: bool, r: bool?, s: utf8, st: struct<x: i32, y: utf8?>>")
	if err != nil {
		panic(err)
	}
	return t
}()

// show binds each expression, optimizes it and prints both forms with the
// rules that fired.
func show(sources ...string) {
	o := optimize.New()
	for _, src := range sources {
		e, err := parse.Parse(src)
		if err != nil {
			fmt.Println(err)
			continue
		}
		b, err := expr.Bind(e, expr.ScopeOf(exampleSchema))
		if err != nil {
			fmt.Println(err)
			continue
		}
		out, tr, err := o.Explain(b)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-40s →  %-24s %v\n", b, out, tr.Fired())
	}
}

func Example() {
	e, _ := parse.Parse("a * 1 > 5 AND (p OR false) AND t::i32 = 3")
	b, _ := expr.Bind(e, expr.ScopeOf(exampleSchema))
	out, _ := optimize.Optimize(b)
	fmt.Println(out)
	// Output:
	// a > 5 AND p AND t = 3::i8
}

func Example_fold() {
	show(
		"a + 2 * 3",
		"1::i8 + 127::i8",
		"CASE WHEN a > 0 THEN 1 / 0 ELSE a END",
	)
	// Output:
	// a + 2 * 3                                →  a + 6::i32               [fold/constant]
	// 1::i8 + 127::i8                          →  1::i8 + 127::i8          []
	// CASE WHEN a > 0 THEN 1 / 0 ELSE a END    →  CASE WHEN a > 0 THEN 1 / 0 ELSE a END []
}

func Example_binary() {
	show(
		"a + 0",
		"f + 0.0::f64",
		"r AND false",
		"NOT NOT p",
		"NOT a < b",
		"5 < a",
		"a = 1 OR a = 2 OR a = 3",
		"a IN (7)",
		"s || 'a' || 'b'",
	)
	// Output:
	// a + 0                                    →  a                        [binary/add_zero]
	// f + 0.0::f64                             →  f + 0.0::f64             []
	// r AND false                              →  false::bool?             [binary/and_false]
	// NOT NOT p                                →  p                        [binary/not_not]
	// NOT a < b                                →  a >= b                   [binary/not_compare]
	// 5 < a                                    →  a > 5                    [binary/literal_right]
	// a = 1 OR a = 2 OR a = 3                  →  a IN (1, 2, 3)           [binary/or_eq_to_in]
	// a IN (7)                                 →  a = 7                    [binary/in_single]
	// s || 'a' || 'b'                          →  s || 'ab'                [binary/merge_constants]
}

func Example_cast() {
	show(
		"CAST(a AS i32)",
		"CAST(5 AS i64)",
		"CAST(CAST(t AS i32) AS i64)",
		"CAST(t AS i32) = 5",
		"CAST(t AS i32) = 300",
	)
	// Output:
	// CAST(a AS i32)                           →  a                        [cast/same_type]
	// CAST(5 AS i64)                           →  5::i64                   [cast/literal]
	// CAST(CAST(t AS i32) AS i64)              →  CAST(t AS i64)           [cast/widening_chain]
	// CAST(t AS i32) = 5                       →  t = 5::i8                [cast/compare_narrow]
	// CAST(t AS i32) = 300                     →  CAST(t AS i32) = 300     []
}

func Example_structural() {
	show(
		"{x: a, y: s}.y",
		"struct_select({x: a, y: s, z: p}, 'z', 'x')",
		"merge({x: a, y: s}, {y: 'b', z: p})",
		"{x: st.x, y: st.y}",
		"merge(st, {y: s}).y",
	)
	// Output:
	// {x: a, y: s}.y                           →  s                        [structural/get_item_pack]
	// struct_select({x: a, y: s, z: p}, 'z', 'x') →  {z: p, x: a}             [structural/select_pack]
	// merge({x: a, y: s}, {y: 'b', z: p})      →  {x: a, y: 'b', z: p}     [structural/merge_packs]
	// {x: st.x, y: st.y}                       →  st                       [structural/pack_identity]
	// merge(st, {y: s}).y                      →  s                        [structural/get_item_merge structural/get_item_pack]
}

func Example_null() {
	show(
		"a IS NULL",
		"coalesce(a, n)",
		"coalesce(n, null::i32?, b, n)",
		"n + null::i32?",
	)
	// Output:
	// a IS NULL                                →  false                    [null/is_null_non_nullable]
	// coalesce(a, n)                           →  a                        [null/coalesce_non_nullable_first]
	// coalesce(n, null::i32?, b, n)            →  coalesce(n, b)           [null/coalesce_prune]
	// n + null::i32?                           →  null::i32?               [null/propagate]
}

func Example_conditional() {
	show(
		"CASE WHEN false THEN a WHEN p THEN b END",
		"CASE WHEN p THEN a WHEN true THEN b ELSE 0 END",
		"CASE WHEN r THEN true ELSE false END",
		"CASE WHEN n IS NULL THEN 0 ELSE n END",
	)
	// Output:
	// CASE WHEN false THEN a WHEN p THEN b END →  CASE WHEN p THEN b END   [conditional/drop_false_branch]
	// CASE WHEN p THEN a WHEN true THEN b ELSE 0 END →  CASE WHEN p THEN a ELSE b END [conditional/true_branch]
	// CASE WHEN r THEN true ELSE false END     →  coalesce(r, false)       [conditional/bool_case]
	// CASE WHEN n IS NULL THEN 0 ELSE n END    →  CAST(coalesce(n, 0) AS i32?) [conditional/case_coalesce]
}

// A rule of your own: x - x → 0 for non-nullable integers (for a nullable
// x the result would be null where x is).
func ExampleOptimizer_Register() {
	subSelf := &optimize.Rule{
		Name: "mine/sub_self",
		Fns:  []fn.Function{fn.Sub},
		Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			x := n.Arg(0)
			if !x.DType().IsInt() || x.DType().Nullable() || !x.Equal(n.Arg(1)) {
				return nil
			}
			zero, err := scalar.Cast(scalar.Int64(0), n.DType())
			if err != nil {
				return nil
			}
			return expr.NewLiteral(zero)
		},
	}
	o := optimize.New()
	if err := o.Register(subSelf); err != nil {
		fmt.Println(err)
		return
	}
	e, _ := parse.Parse("(a - a) + b")
	b, _ := expr.Bind(e, expr.ScopeOf(exampleSchema))
	out, tr, _ := o.Explain(b)
	fmt.Println(out)
	fmt.Print(tr)
	// Output:
	// b
	// mine/sub_self
	//   before: a - a
	//   after:  0::i32
	// binary/add_zero
	//   before: 0::i32 + b
	//   after:  b
}

func ExampleOptimizer_Disable() {
	o := optimize.New()
	if err := o.Disable("binary/add_zero", "null/*"); err != nil {
		fmt.Println(err)
		return
	}
	e, _ := parse.Parse("a + 0 > 1 AND a IS NOT NULL")
	b, _ := expr.Bind(e, expr.ScopeOf(exampleSchema))
	out, _ := o.Optimize(b)
	fmt.Println(out)
	fmt.Println(o.Disable("binary/nope"))
	// Output:
	// a + 0 > 1 AND a IS NOT NULL
	// optimize: no rule named "binary/nope"
}

func ExampleOptimizer_Explain() {
	root := expr.NewRoot(exampleSchema)
	a, _ := expr.NewCall(fn.GetItem("a"), root)
	one := expr.NewLiteral(scalar.Int32(1))
	mul, _ := expr.NewCall(fn.Mul, a, one)
	neg, _ := expr.NewCall(fn.Neg, mul)
	out, tr, _ := optimize.New().Explain(neg)
	fmt.Println(out)
	fmt.Print(tr)
	// Output:
	// -a
	// binary/mul_one
	//   before: a * 1::i32
	//   after:  a
}

// Each event of a trace says where its node stood (Event.Path, the child
// index at each level), and Replay rebuilds the tree after any number of
// events: what a viewer needs to show every rewrite in place.
func ExampleTrace_Replay() {
	e, _ := parse.Parse("NOT (a * 1 > 5) OR p AND true")
	b, _ := expr.Bind(e, expr.ScopeOf(exampleSchema))
	out, tr, _ := optimize.New().Explain(b)
	for i, ev := range tr.Events {
		at, _ := tr.Replay(b, i+1)
		fmt.Printf("%s at %v: %s\n", ev.Rule, ev.Path, at)
	}
	fmt.Println(out)
	// Output:
	// binary/mul_one at [0 0 0]: NOT a > 5 OR p AND true
	// binary/not_compare at [0]: a <= 5 OR p AND true
	// binary/and_true at [1]: a <= 5 OR p
	// a <= 5 OR p
}
