package fn_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func TestLogicKernels(t *testing.T) {
	col, lit := fkCol, fkLit
	a := "[true, true, true, false, false, false, null, null, null]"
	b := "[true, false, null, true, false, null, true, false, null]"
	fkRun(t, []fkCase{
		{name: "and truth table", f: fn.And, args: []fkArg{col("bool", a), col("bool", b)}, want: "[true, false, null, false, false, false, null, false, null]"},
		{name: "or truth table", f: fn.Or, args: []fkArg{col("bool", a), col("bool", b)}, want: "[true, true, true, true, false, null, true, null, null]"},
		{name: "and no nulls", f: fn.And, args: []fkArg{col("bool", "[true, true, false]"), col("bool", "[true, false, false]")}, want: "[true, false, false]"},
		{name: "or no nulls", f: fn.Or, args: []fkArg{col("bool", "[true, false, false]"), col("bool", "[false, false, true]")}, want: "[true, false, true]"},
		{name: "and literal true", f: fn.And, args: []fkArg{col("bool", "[true, false, null]"), lit("bool", "true")}, want: "[true, false, null]"},
		{name: "and literal false", f: fn.And, args: []fkArg{lit("bool", "false"), col("bool", "[true, false, null]")}, want: "[false, false, false]"},
		{name: "and literal null", f: fn.And, args: []fkArg{col("bool", "[true, false, null]"), lit("bool", "null")}, want: "[null, false, null]"},
		{name: "or literal true", f: fn.Or, args: []fkArg{col("bool", "[true, false, null]"), lit("bool", "true")}, want: "[true, true, true]"},
		{name: "or literal false", f: fn.Or, args: []fkArg{lit("bool", "false"), col("bool", "[true, false, null]")}, want: "[true, false, null]"},
		{name: "or literal null", f: fn.Or, args: []fkArg{lit("bool", "null"), col("bool", "[true, false, null]")}, want: "[true, null, null]"},
		{name: "and literals", f: fn.And, args: []fkArg{lit("bool", "null"), lit("bool", "false")}, want: "[false, false]"},
		{name: "and literals null", f: fn.And, args: []fkArg{lit("bool", "null"), lit("bool", "true")}, want: "[null, null]"},
		{name: "or literals", f: fn.Or, args: []fkArg{lit("bool", "false"), lit("bool", "false")}, want: "[false, false]"},
		{name: "or literals null", f: fn.Or, args: []fkArg{lit("bool", "true"), lit("bool", "null")}, want: "[true, true]"},
		{name: "and empty", f: fn.And, args: []fkArg{col("bool", "[]"), col("bool", "[]")}, want: "[]"},
		{name: "not", f: fn.Not, args: []fkArg{col("bool", "[true, false, null]")}, want: "[false, true, null]"},
		{name: "not literal", f: fn.Not, args: []fkArg{lit("bool", "false")}, want: "[true, true]"},
		{name: "not null literal", f: fn.Not, args: []fkArg{lit("bool", "null")}, want: "[null, null]"},
		{name: "not empty", f: fn.Not, args: []fkArg{col("bool", "[]")}, want: "[]"},
	})
}

func TestIsNullKernels(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "is_null i32", f: fn.IsNull, args: []fkArg{col("i32", "[1, null, 3, null]")}, want: "[false, true, false, true]"},
		{name: "is_not_null i32", f: fn.IsNotNull, args: []fkArg{col("i32", "[1, null, 3, null]")}, want: "[true, false, true, false]"},
		{name: "is_null no nulls", f: fn.IsNull, args: []fkArg{col("f64", "[1, 2]")}, want: "[false, false]"},
		{name: "is_not_null all null", f: fn.IsNotNull, args: []fkArg{col("utf8", "[null, null]")}, want: "[false, false]"},
		{name: "is_null null type", f: fn.IsNull, args: []fkArg{col("null", "[null, null, null]")}, want: "[true, true, true]"},
		{name: "is_not_null null type", f: fn.IsNotNull, args: []fkArg{col("null", "[null]")}, want: "[false]"},
		{name: "is_null literal", f: fn.IsNull, args: []fkArg{lit("i32", "null")}, want: "[true, true]"},
		{name: "is_not_null literal", f: fn.IsNotNull, args: []fkArg{lit("utf8", `"x"`)}, want: "[true, true]"},
		{name: "is_null struct", f: fn.IsNull, args: []fkArg{col("struct<a: i32?>", `[{"a": null}, null]`)}, want: "[false, true]"},
		{name: "is_null list", f: fn.IsNull, args: []fkArg{col("list<i32?>", `[[null], null, []]`)}, want: "[false, true, false]"},
		{name: "is_null empty", f: fn.IsNull, args: []fkArg{col("i8", "[]")}, want: "[]"},
	})
}

// TestLogicOracle checks AND, OR, NOT and the null tests against
// row-at-a-time Kleene logic on random columns crossing word boundaries.
func TestLogicOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := []string{"true", "false", "null"}
	for trial := 0; trial < 10; trial++ {
		n := 1 + rng.IntN(400)
		nullRate := rng.IntN(4) // 0: no nulls
		col := func() []string {
			c := make([]string, n)
			for i := range c {
				c[i] = vals[rng.IntN(2)]
				if nullRate > 0 && rng.IntN(4) < nullRate {
					c[i] = "null"
				}
			}
			return c
		}
		a, b := col(), col()
		and, or, not, isnull := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		for i := range a {
			and[i], or[i] = fkKleene(a[i], b[i], "false"), fkKleene(a[i], b[i], "true")
			not[i] = map[string]string{"true": "false", "false": "true", "null": "null"}[a[i]]
			isnull[i] = fmt.Sprint(a[i] == "null")
		}
		js := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
		fkRun(t, []fkCase{
			{name: fmt.Sprintf("and %d", trial), f: fn.And, args: []fkArg{fkCol("bool", js(a)), fkCol("bool", js(b))}, want: js(and)},
			{name: fmt.Sprintf("or %d", trial), f: fn.Or, args: []fkArg{fkCol("bool", js(a)), fkCol("bool", js(b))}, want: js(or)},
			{name: fmt.Sprintf("not %d", trial), f: fn.Not, args: []fkArg{fkCol("bool", js(a))}, want: js(not)},
			{name: fmt.Sprintf("is_null %d", trial), f: fn.IsNull, args: []fkArg{fkCol("bool", js(a))}, want: js(isnull)},
		})
	}
}

// fkKleene is a AND b (absorb "false") or a OR b (absorb "true").
func fkKleene(a, b, absorb string) string {
	switch {
	case a == absorb || b == absorb:
		return absorb
	case a == "null" || b == "null":
		return "null"
	}
	return a
}

// TestLogicSharesInput: true AND x is x itself, not a copy.
func TestLogicSharesInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x := fkArray(t, mem, "bool", "[true, null, false]")
	defer x.Release()
	before := mem.CurrentAlloc()
	res, err := fkEval(t, mem, fn.And, []datum.Datum{datum.FromScalar(fkScalar(t, mem, "bool", "true"), 3), x})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if res.Array() != x.Array() || mem.CurrentAlloc() != before {
		t.Errorf("true AND x allocated %d bytes or made a new array", mem.CurrentAlloc()-before)
	}
}

// Example_kleeneLogic evaluates AND and OR with a null literal: false AND
// null is false, true OR null is true, and the other rows are null.
func Example_kleeneLogic() {
	mem := memory.NewGoAllocator()
	b := array.NewBooleanBuilder(mem)
	b.AppendValues([]bool{true, false, false}, []bool{true, true, false})
	col := datum.FromArray(b.NewArray(), dtype.Bool(true))
	defer col.Release()
	null := datum.FromScalar(scalar.Null(dtype.Bool(true)), col.Len())
	ctx := &fn.Context{Mem: mem}
	for _, f := range []fn.Function{fn.And, fn.Or} {
		res, err := f.(fn.Kernel).Eval(ctx, []datum.Datum{col, null}, dtype.Bool(true))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(f.ID(), res.Array())
		res.Release()
	}
	// Output:
	// and [(null) false (null)]
	// or [true (null) (null)]
}
