package substrait

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
)

// TestStringMoreRoundTrip exports each DuckDB-dialect string function that
// functions_string has, checks the message with substrait-go and reads it
// back to the same tree.
func TestStringMoreRoundTrip(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	for _, src := range []string{
		"trim(s, 'xy')", "ltrim(s, ' ')", "rtrim(s, s)",
		"replace(s, 'a', 'b')", "left(s, a)", "right(s, 2)", "reverse(s)", "repeat(s, b)",
		"lpad(s, 5, '*')", "rpad(s, 5, '*')", "string_split(s, ',')", "strpos(s, 'b')", "position('b' IN s)",
		"concat_ws(',', s, 'x')",
	} {
		if err := roundTrip(t, bindText(t, src, scope), scope); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	// len of a string and length of a list read back as length and
	// list_length.
	for src, want := range map[string]string{"len(s)": "length(s)", "length(xs)": "list_length(xs)"} {
		b := bindText(t, src, scope)
		msg, err := Export(b, scope)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := Import(msg, scope)
		if err != nil || len(got) != 1 || got[0].Expr.String() != want {
			t.Errorf("%s: read back as %v (%v), want %s", src, got, err, want)
		}
	}
}

// TestStringMoreRefusals checks the errors for the string functions and
// forms Substrait has no function for.
func TestStringMoreRefusals(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	for src, want := range map[string]string{
		"split_part(s, ',', 1)":   "split_part has no Substrait form",
		"chr(a)":                  "chr has no Substrait form",
		"format('{}', a)":         "format has no Substrait form",
		"regexp_matches(s, 'a')":  "ICU's",
		"s LIKE 'a!%' ESCAPE '!'": "has no escape character argument",
		"left(s, b)":              "has no signature",
		"trim(s)":                 "has no signature",
	} {
		_, err := Export(bindText(t, src, scope), scope)
		if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrUnsupported saying %q", src, err, want)
		}
	}
}
