package substrait_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/substrait"
)

// TestListSortRoundTrip: list_sort(xs) and list_reverse_sort(xs) export to
// functions_list's sort with a direction and import back; the list
// functions Substrait lacks are refused with the reason.
func TestListSortRoundTrip(t *testing.T) {
	root, _ := dtype.Parse("struct<xs: list<i32?>?>")
	scope := expr.ScopeOf(root)
	for _, c := range []struct{ src, want string }{
		{"list_sort(xs)", "list_sort(xs)"},
		{"list_reverse_sort(xs)", "list_reverse_sort(xs)"},
		{"list_sort(xs, 'DESC')", "no signature"},
		{"list_sum(xs)", "no such list function"},
		{"list_transform(xs, lambda x, i: x)", "has no Substrait form"},
	} {
		e, err := parse.Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := coerce.Bind(e, scope)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := substrait.Export(b, scope)
		if err != nil {
			if !errors.Is(err, substrait.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want unsupported with %q", c.src, err, c.want)
			}
			continue
		}
		back, err := substrait.Import(msg, scope)
		if err != nil {
			t.Fatalf("%s: import: %v", c.src, err)
		}
		if got := back[0].Expr.String(); got != c.want {
			t.Errorf("%s: round trip gives %s, want %s", c.src, got, c.want)
		}
	}
}
