package colexpr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestClosest(t *testing.T) {
	names := []string{"l_orderkey", "l_quantity", "l_discount", "l_tax", "l_dims", "id", "ID2"}
	cases := []struct {
		name string
		want []string
	}{
		{"l_quantiy", []string{"l_quantity"}},
		{"L_QUANTITY", []string{"l_quantity"}},
		{"l_discont", []string{"l_discount"}},
		{"l_ta", []string{"l_tax"}},
		{"l_order", []string{"l_orderkey"}},
		{"Id", []string{"id", "ID2"}},
		{"zzzzzzzz", nil},
	}
	for _, c := range cases {
		got := closest(c.name, names)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestLambdaExpected checks that a non-lambda where a lambda belongs is
// told so, not taken for an unknown column (issue 16.7).
func TestLambdaExpected(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)}}, nil)
	for _, src := range []string{"list_transform(xs, y)", "list_filter(xs, 1)", "list_any(xs, xs)"} {
		_, err := NewSchema(sc).Compile(src, nil)
		if err == nil || !strings.Contains(err.Error(), "must be a lambda") {
			t.Errorf("%s: error %v, want one saying a lambda is needed", src, err)
		}
	}
	// An unknown column inside a lambda is still named as one.
	if _, err := NewSchema(sc).Compile("list_transform(xs, x -> x + y)", nil); err == nil || !strings.Contains(err.Error(), `unknown column "y"`) {
		t.Errorf("error %v, want unknown column y", err)
	}
}
