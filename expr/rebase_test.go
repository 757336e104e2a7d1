package expr_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// TestReplaceRoot moves trees bound against a wide struct onto a narrower
// one: the same text and dtypes where the narrow struct has every field read
// (lambda bodies and shared subtrees included), an error where it does not.
func TestReplaceRoot(t *testing.T) {
	i32 := dtype.Primitive(dtype.I32, false)
	wide := dtype.Struct([]dtype.Field{
		{Name: "a", Type: i32},
		{Name: "b", Type: dtype.Primitive(dtype.I64, true)},
		{Name: "xs", Type: dtype.List(i32, false)},
		{Name: "s", Type: dtype.Struct([]dtype.Field{{Name: "x", Type: i32}}, false)},
	}, false)
	narrow := func(names ...string) dtype.DType {
		var fs []dtype.Field
		for _, f := range wide.Fields() {
			for _, n := range names {
				if f.Name == n {
					fs = append(fs, f)
				}
			}
		}
		return dtype.Struct(fs, false)
	}
	a, s := expr.Col("a"), expr.GetItem(expr.Col("s"), "x")
	tests := []struct {
		name string
		e    expr.Expr
		to   dtype.DType
		err  string
	}{
		{"column", expr.Gt(a, expr.Lit(int32(1))), narrow("a"), ""},
		{"nested field", expr.Add(s, a), narrow("a", "s"), ""},
		{"lambda capture", expr.Apply(fn.ListTransform, expr.Col("xs"), expr.Fn([]string{"x"}, expr.Add(expr.V("x"), a))), narrow("xs", "a"), ""},
		{"shared subtree", expr.And(expr.Gt(a, a), expr.Gt(a, a)), narrow("a"), ""},
		{"no root", expr.Lit(int32(1)), narrow(), ""},
		{"missing column", expr.Gt(expr.Col("b"), expr.Lit(int64(1))), narrow("a"), `"b"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := expr.Bind(tc.e, expr.ScopeOf(wide))
			if err != nil {
				t.Fatal(err)
			}
			got, err := expr.ReplaceRoot(b, tc.to)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := expr.Bind(tc.e, expr.ScopeOf(tc.to))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("got\n%s\nwant\n%s", got.Tree(), want.Tree())
			}
		})
	}
}
