package dtype_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
)

func TestQuoting(t *testing.T) {
	for _, tc := range []struct {
		name, field, str string
		keyword          bool
	}{
		{"a", "a", "'a'", false},
		{"_x9", "_x9", "'_x9'", false},
		{"9x", `"9x"`, "'9x'", false},
		{"", `""`, "''", false},
		{"a b", `"a b"`, "'a b'", false},
		{`x"y`, `"x""y"`, `'x"y'`, false},
		{"it's", `"it's"`, "'it''s'", false},
		{"é", `"é"`, "'é'", false},
		{"null", `"null"`, "'null'", true},
		{"AND", `"AND"`, "'AND'", true},
		{"Try_Cast", `"Try_Cast"`, "'Try_Cast'", true},
		{"select", "select", "'select'", false},
	} {
		if got := dtype.QuoteFieldName(tc.name); got != tc.field {
			t.Errorf("QuoteFieldName(%q) = %s, want %s", tc.name, got, tc.field)
		}
		if got := dtype.QuoteString(tc.name); got != tc.str {
			t.Errorf("QuoteString(%q) = %s, want %s", tc.name, got, tc.str)
		}
		if got := dtype.IsKeyword(tc.name); got != tc.keyword {
			t.Errorf("IsKeyword(%q) = %v, want %v", tc.name, got, tc.keyword)
		}
		if got, want := dtype.IsPlainIdent(tc.name), tc.field == tc.name; got != want {
			t.Errorf("IsPlainIdent(%q) = %v, want %v", tc.name, got, want)
		}
	}
}
