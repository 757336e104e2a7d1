package scan

import (
	"errors"
	"testing"

	"github.com/colexpr/colexpr/parse"
)

func TestSplitSelect(t *testing.T) {
	cases := []struct {
		list string
		want []Expr
		err  string // the message of the *parse.Error
		col  int    // and its column
	}{
		{list: "a", want: []Expr{{Text: "a", Name: "a"}}},
		{list: " a , b + 1 ", want: []Expr{{Text: "a", Name: "a"}, {Text: "b + 1", Name: "b + 1"}}},
		{list: "coalesce(a, 0) AS z, b", want: []Expr{{Text: "coalesce(a, 0)", Name: "z"}, {Text: "b", Name: "b"}}},
		{list: "CAST(a AS i64)", want: []Expr{{Text: "CAST(a AS i64)", Name: "CAST(a AS i64)"}}},
		{list: "CAST(a AS i64) as wide", want: []Expr{{Text: "CAST(a AS i64)", Name: "wide"}}},
		{list: `'x, y' AS "odd, name"`, want: []Expr{{Text: "'x, y'", Name: "odd, name"}}},
		{list: `'it''s, here', "a ""b"", c"`, want: []Expr{{Text: "'it''s, here'", Name: "'it''s, here'"}, {Text: `"a ""b"", c"`, Name: `"a ""b"", c"`}}},
		{list: "{k: a, v: b} AS s, [1, 2]", want: []Expr{{Text: "{k: a, v: b}", Name: "s"}, {Text: "[1, 2]", Name: "[1, 2]"}}},
		{list: "has AS x", want: []Expr{{Text: "has", Name: "x"}}},
		{list: "a AS", want: []Expr{{Text: "a AS", Name: "a AS"}}},
		{list: "list_transform(xs, x -> x + 1) AS ys", want: []Expr{{Text: "list_transform(xs, x -> x + 1)", Name: "ys"}}},
		{list: "a,", err: "item 2 is empty", col: 2},
		{list: ", a", err: "item 1 is empty", col: 1},
		{list: "f(a, b", err: `'(' is never closed`, col: 2},
		{list: "a)", err: `unbalanced ')'`, col: 2},
		{list: "(a]", err: `unbalanced ']'`, col: 3},
		{list: "'abc", err: "unterminated ' quote", col: 1},
		// A name used again is renamed, as DuckDB does: a, a_1, a_2, …
		{list: "a, a", want: []Expr{{Text: "a", Name: "a"}, {Text: "a", Name: "a_1"}}},
		{list: "b AS a, a", want: []Expr{{Text: "b", Name: "a"}, {Text: "a", Name: "a_1"}}},
		{list: "a, a, a_1, a", want: []Expr{{Text: "a", Name: "a"}, {Text: "a", Name: "a_2"}, {Text: "a_1", Name: "a_1"}, {Text: "a", Name: "a_3"}}},
		{list: "AS x", err: "item 1 has a name (x) but no expression", col: 1},
		{list: "a,  AS x", err: "item 2 has a name (x) but no expression", col: 5},
		{list: "a,\n  f(b", err: `'(' is never closed`, col: 4},
		{list: "", err: "the select list is empty", col: 1},
		{list: " \t", err: "the select list is empty", col: 1},
	}
	for _, c := range cases {
		t.Run(c.list, func(t *testing.T) {
			got, err := SplitSelect(c.list)
			if c.err != "" {
				var pe *parse.Error
				if !errors.As(err, &pe) || pe.Msg != c.err || pe.Column != c.col {
					t.Fatalf("error %v, want %q at column %d", err, c.err, c.col)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if got[i].Text != c.want[i].Text || got[i].Name != c.want[i].Name {
					t.Errorf("item %d: got %q, want %q", i+1, got[i], c.want[i])
				}
			}
		})
	}
}
