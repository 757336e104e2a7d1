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
// it failed on, as JSON. Each runs through the same check as the
// differential test: Eval and the reference must agree.
var regressions = []struct {
	name string
	expr string
	data string
}{
	{
		// internal/kernels.ListElement dereferenced the missing values
		// buffer of an empty list broadcast from a scalar.
		name: "list_element of an empty list literal",
		expr: "list_element([]::list<bool?>, i8)",
		data: `[{"i8": 29, "n64": 0}]`,
	},
	{
		// fn/list.go: list_contains is null when the value is absent and the
		// list holds a null (the SQL IN rule); the result type is nullable for
		// that reason.
		name: "list_contains miss against a null element",
		expr: "list_contains(xs, 1880070218::i32)",
		data: `[{"xs": [762129022, null, 1], "n64": 0}]`,
	},
}

func TestRegressions(t *testing.T) {
	root := mustType(t, diffSchema)
	for _, c := range regressions {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			mem := checkedMem(t)
			e, err := parse.Parse(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			b, err := expr.Bind(e, expr.ScopeOf(root))
			if err != nil {
				t.Fatal(err)
			}
			input, _, err := array.FromJSON(mem, dtype.ToArrow(root), strings.NewReader(c.data))
			if err != nil {
				t.Fatal(err)
			}
			defer input.Release()
			if res := checkDifferential(mem, b, input); res.mismatch != "" {
				t.Errorf("%s\nexpr: %s\ndata: %s", res.mismatch, c.expr, res.data)
			}
		})
	}
}
