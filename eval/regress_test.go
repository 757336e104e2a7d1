package eval

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// Regression cases found by the differential test, shrunk: an expression
// in the text syntax over the differential schema (diffSchema) and the rows
// it failed on, as JSON, and the mode the input was handed over in. Each
// runs through the same check as the differential test: the evaluator and
// the reference must agree.
var regressions = []struct {
	name string
	expr string
	data string
	mode diffMode // how the input is handed over (the zero mode: Eval)
}{
	{
		// internal/kernels.ListElement dereferenced the missing values
		// buffer of an empty list broadcast from a scalar.
		name: "list_element of an empty list literal",
		expr: "list_element([]::list<bool?>, i8)",
		data: `[{"i8": 29, "n64": 0}]`,
	},
	{
		// The kernel followed DuckDB's rule (a miss is false even when the
		// list holds a null) while fn/list.go documented SQL IN's (null);
		// fn/list.go now documents DuckDB's rule.
		name: "list_contains miss against a null element",
		expr: "list_contains(xs, 1880070218::i32)",
		data: `[{"xs": [762129022, null, 1], "n64": 0}]`,
	},
	{
		// A scalar decimal IN a list mixing scalars and a column: the
		// scalar match is lost on the second row.
		name: "decimal scalar IN scalar and column",
		expr: "-9999999.99::decimal(9,2) IN (-9999999.99::decimal(9,2), d)",
		data: `[{"d": "1311293.54", "n64": 0}, {"d": "9999999.99", "n64": 0}]`,
	},
	{
		// BETWEEN with a scalar value and lower bound and a column as the
		// upper bound loses the second row.
		name: "between scalar and scalar and column",
		expr: "'.K' BETWEEN ' %e' AND s",
		data: `[{"s": "a", "n64": 0}, {"s": "z", "n64": 0}]`,
	},
	{
		// fn: the type of CASE came from its first THEN, nested nullability
		// included, so a null field of the ELSE broke the result's type.
		// The result type now makes a nested slot nullable when any branch
		// has it nullable.
		name: "case over structs of different nested nullability",
		expr: "CASE WHEN null::bool? THEN null::struct<x: i32, y: utf8>? ELSE st END",
		data: `[{"st": {"x": 1, "y": null}, "n64": 0}]`,
	},
	{
		// The same for coalesce and fill_null.
		name: "fill_null over structs of different nested nullability",
		expr: "fill_null(null::struct<x: i32, y: utf8?>?, {'x': null::i32?, 'y': ''::utf8?})",
		data: `[{"n64": 0}]`,
	},
	{
		// The reference clamped a start before the string to its first
		// character; DuckDB (and the kernel) cut the window instead.
		name: "substring window entirely before the string",
		expr: "substring(s, 8059191577196835715::i64 - 9223372036854775807::i64, n64)",
		data: `[{"s": "0bK K", "n64": 2}]`,
	},
	{
		name: "substring with a huge negative start and a positive length",
		expr: "substring(CAST(0::u32 AS utf8), i32, 199::u8)",
		data: `[{"i32": -2026110228, "n64": 0}]`,
	},
}

func TestRegressions(t *testing.T) {
	root := mustType(t, diffSchema)
	for _, c := range regressions {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			checkReferenceCase(t, root, c.expr, c.data, c.mode)
		})
	}
}

// checkReferenceCase binds text over root, reads data (JSON rows of root)
// and checks the vectorized result against the row-by-row reference,
// with the input handed over as mode says.
func checkReferenceCase(t *testing.T, root dtype.DType, text, data string, mode diffMode) {
	t.Helper()
	mem := checkedMem(t)
	e, err := parse.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := expr.Bind(e, expr.ScopeOf(root))
	if err != nil {
		t.Fatal(err)
	}
	input, _, err := array.FromJSON(mem, dtype.ToArrow(root), strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer input.Release()
	if res := checkDifferentialMode(mem, b, input, mode); res.mismatch != "" {
		t.Errorf("%s\nexpr: %s\ndata: %s", res.mismatch, text, res.data)
	}
}
