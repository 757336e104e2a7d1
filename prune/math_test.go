package prune_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/prune"
)

// TestFalsifierThroughNumericFunctions: the numeric functions that are
// non-decreasing in their first argument (fn.OrderIncreasing) carry a
// column's bounds, the places of round and trunc given as literals.
func TestFalsifierThroughNumericFunctions(t *testing.T) {
	for _, tc := range []struct {
		pred string
		want string // substring of the falsifier's text; "" for inconclusive
	}{
		{"round(f, 1) > 2.5", "round(cols.f.max, 1) <= 2.5"},
		{"round(a, -1) = 10", "round(cols.a.min, -1) > 10"},
		{"trunc(f) < 0", "trunc(cols.f.min) >= 0"},
		{"ceil(f) >= 3", "ceil(cols.f.max) < 3"},
		{"sqrt(f) > 3", "sqrt(cols.f.max) <= 3"},
		{"ln(f) < 1", "ln(cols.f.min) >= 1"},
		{"exp(f) = 1", "exp(cols.f.min) > 1"},
		{"sign(a) = 1", "sign(cols.a.max) < 1"},
		{"round(f, a) = 10", ""},   // the places are a column
		{"power(f, 2) > 4", ""},    // not monotonic
		{"greatest(a, 3) > 4", ""}, // several arguments vary
	} {
		t.Run(tc.pred, func(t *testing.T) {
			p, err := prune.Falsifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			got := p.Expr.String()
			if tc.want == "" {
				if !p.Inconclusive() {
					t.Fatalf("falsifier of %s = %s, want inconclusive", tc.pred, got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("falsifier of %s =\n  %s\nwant it to contain\n  %s", tc.pred, got, tc.want)
			}
		})
	}
}
