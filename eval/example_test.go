package eval_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

// compile parses, coerces and binds src against the schema's struct type.
func compile(src string, schema *arrow.Schema) *expr.Bound {
	t, err := dtype.FromArrowSchema(schema)
	if err != nil {
		panic(err)
	}
	e, err := parse.Parse(src)
	if err != nil {
		panic(err)
	}
	b, err := coerce.Bind(e, expr.ScopeOf(t))
	if err != nil {
		panic(err)
	}
	return b
}

func record(mem memory.Allocator, schema *arrow.Schema, rows string) arrow.RecordBatch {
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(rows))
	if err != nil {
		panic(err)
	}
	return rec
}

var abSchema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// A CASE guard: the division runs only for the rows whose b is not zero,
// so it never fails.
func ExampleEvalRecord() {
	mem := memory.NewGoAllocator()
	rec := record(mem, abSchema, `[{"a": 10, "b": 2}, {"a": 7, "b": 0}, {"a": 5, "b": null}]`)
	defer rec.Release()

	out, err := eval.EvalRecord(mem, compile("CASE WHEN b <> 0 THEN a / b END", abSchema), rec)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out)
	// Output: [5 (null) (null)]
}

// A runtime error names the input row it happened at and wraps a sentinel
// of package errs.
func ExampleEval_error() {
	mem := memory.NewGoAllocator()
	rec := record(mem, abSchema, `[{"a": 10, "b": 2}, {"a": 7, "b": 0}]`)
	defer rec.Release()

	_, err := eval.EvalRecord(mem, compile("a / b", abSchema), rec)
	var ee *fn.EvalError
	fmt.Println(errors.Is(err, errs.ErrDivideByZero), errors.As(err, &ee) && ee.Row == 1)
	// Output: true true
}

// A lambda body runs once over all elements; a column it reads ($.k) is
// gathered to the elements.
func ExampleEval_lambda() {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	rec := record(mem, schema, `[{"xs": [1, 2, 3], "k": 10}, {"xs": null, "k": 20}, {"xs": [4], "k": 30}]`)
	defer rec.Release()

	for _, src := range []string{
		"list_transform(xs, lambda x: x * k)",
		"list_filter(xs, lambda x: x % 2 = 1)",
		"list_any(xs, lambda x: x > 3)",
	} {
		out, err := eval.EvalRecord(mem, compile(src, schema), rec)
		if err != nil {
			panic(err)
		}
		fmt.Println(src, "→", out)
		out.Release()
	}
	// Output:
	// list_transform(xs, lambda x: x * k) → [[10 20 30] (null) [120]]
	// list_filter(xs, lambda x: x % 2 = 1) → [[1 3] (null) []]
	// list_any(xs, lambda x: x > 3) → [false (null) true]
}

// EvalConstant folds a tree that reads neither $ nor a variable.
func ExampleEvalConstant() {
	mem := memory.NewGoAllocator()
	s, err := eval.EvalConstant(mem, compile("coalesce(NULL, 1 + 2 * 3)", arrow.NewSchema(nil, nil)))
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Value())
	// Output: 7
}

// EvalDatum evaluates with free variables, as partitioning needs; a
// result that does not depend on the rows stays a scalar.
func ExampleEvalDatum() {
	mem := memory.NewGoAllocator()
	i64 := dtype.Primitive(dtype.I64, false)
	scope := expr.ScopeOf(i64).With("n", i64)
	b, err := coerce.Bind(expr.Add(expr.V("n"), expr.Lit(int64(1))), scope)
	if err != nil {
		panic(err)
	}
	d, err := eval.EvalDatum(mem, b, datum.FromScalar(scalar.Int64(0), 1000), map[string]datum.Datum{
		"n": datum.FromScalar(scalar.Int64(41), 1000),
	})
	if err != nil {
		panic(err)
	}
	defer d.Release()
	fmt.Println(d.IsScalar(), d.Len(), d.Scalar().Value())
	// Output: true 1000 42
}

// Filter keeps the rows where the predicate is true; null counts as false.
func ExampleFilter() {
	mem := memory.NewGoAllocator()
	rec := record(mem, abSchema, `[{"a": 1, "b": 2}, {"a": 3, "b": null}, {"a": 5, "b": 4}]`)
	defer rec.Release()

	out, err := eval.Filter(mem, compile("a < b", abSchema), rec)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out.NumRows(), out.Column(0))
	// Output: 1 [1]
}
