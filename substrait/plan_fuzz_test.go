package substrait

import (
	"errors"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// FuzzImportPlan feeds arbitrary bytes, read as a plan in JSON or
// protobuf, to ImportPlan: it must return a query or an *Error, never
// panic. A query that imports must export again (or be refused as
// unsupported) and import back to the same trees. The seed corpus is the
// plans of a few queries, and testdata/fuzz/FuzzImportPlan.
func FuzzImportPlan(f *testing.F) {
	scope := expr.ScopeOf(planSchema)
	bind := func(src string) *expr.Bound {
		e, err := parse.Parse(src)
		if err != nil {
			f.Fatal(err)
		}
		b, err := coerce.Bind(e, scope)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	for _, c := range []struct{ where, sel string }{
		{"id > 1 AND name LIKE 'a%'", "price * 2"},
		{"", "list_transform(tags, x -> x + 1)"},
		{"day BETWEEN DATE '2020-01-01' AND DATE '2020-12-31' OR pt.b IS NULL", ""},
		{"day < DATE '1960-01-01'", "pt"},
	} {
		q := PlanQuery{Files: planFiles}
		if c.where != "" {
			q.Where = bind(c.where)
			q.BestEffortFilter = q.Where
		}
		if c.sel != "" {
			q.Select = []Named{{Name: "x", Expr: bind(c.sel)}}
		} else {
			q.Table, q.Files = []string{"t"}, nil
			q.Select = []Named{{Name: "id", Expr: bind("id")}}
		}
		msg, err := ExportPlan(scope, q)
		if err != nil {
			f.Fatal(err)
		}
		js, err := MarshalPlanJSON(msg)
		if err != nil {
			f.Fatal(err)
		}
		bin, err := MarshalPlan(msg)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(js)
		f.Add(bin)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, err := UnmarshalPlan(data)
		if err != nil {
			return
		}
		q, err := ImportPlan(msg, scope)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("import error %v is not an *Error", err)
			}
			return
		}
		again, err := ExportPlan(scope, *q)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("re-export: %v", err)
			}
			return
		}
		back, err := ImportPlan(again, scope)
		if err != nil {
			t.Fatalf("re-import: %v", err)
		}
		if (q.Where == nil) != (back.Where == nil) || q.Where != nil && !back.Where.Equal(normalize(q.Where)) {
			t.Fatalf("the filter %v reads back as %v", q.Where, back.Where)
		}
		if len(back.Select) != len(q.Select) {
			t.Fatalf("%d select items read back as %d", len(q.Select), len(back.Select))
		}
		for i, n := range q.Select {
			if back.Select[i].Name != n.Name || !back.Select[i].Expr.Equal(normalize(n.Expr)) {
				t.Fatalf("select item %s: %s reads back as %s: %s", n.Name, n.Expr, back.Select[i].Name, back.Select[i].Expr)
			}
		}
	})
}
