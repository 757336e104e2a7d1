package colexpr

import (
	"errors"
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

// TestErrorsPointAtTheText: an error found after parsing — an unknown
// column, a type error, a coercion that cannot be made — shows the source
// line with a caret under the expression it is about, as a parse error
// does.
func TestErrorsPointAtTheText(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
	for _, tc := range []struct {
		src       string
		line, col int
	}{
		{"qty > 1 AND qyt < 2", 1, 13},                 // unknown column
		{"qty + lower(qty) > 1", 1, 13},                // lower(qty): argument 1 is not utf8
		{"qty > 1 AND name > 2", 1, 13},                // utf8 with a number: no common type
		{"list_any(xs, lambda x: x = name)", 1, 24},    // in a lambda's body
		{"qty > 1\n  AND (name || 'x') + 1 > 0", 2, 7}, // the add starts at its (
		{"NOT qty", 1, 1},
	} {
		_, err := NewSchema(sc).Compile(tc.src, nil)
		var se *SourceError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a *SourceError", tc.src, err)
			continue
		}
		if se.Pos.Line != tc.line || se.Pos.Column != tc.col {
			t.Errorf("%q: error at %d:%d, want %d:%d:\n%v", tc.src, se.Pos.Line, se.Pos.Column, tc.line, tc.col, err)
		}
		if !strings.HasSuffix(err.Error(), "^") {
			t.Errorf("%q: the error shows no caret:\n%v", tc.src, err)
		}
	}
}
