package parse_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// fuzzSeeds are added to the checked-in corpus in testdata/fuzz.
var fuzzSeeds = []string{
	"a + 1 > b AND s IS NOT NULL",
	"list_transform(xs, x -> x * 2)",
	"CASE WHEN a > 0 THEN 'pos' ELSE 'neg' END",
	"{x: a, \"y z\": b + 1}",
	"[1, 2.5, null]::list<f64?>",
	"-5::i8 - -(5) - - -a",
	"a -- comment\n/* and /* another */ + 1",
	"xs[1] + xs[-1:][2] + s['a b'].c",
	"{'a': a + 1, 'b': [a, 2]} = struct_pack(a := 1, b)",
	"if(a > 0, nullif(a, 1), 2)",
	"list_transform(xs, lambda x, i: x + i)",
	"DATE '1995-01-01' < dt",
	"x'00ff' || s",
	"a NOT BETWEEN 1 AND 2 OR s NOT ILIKE 'x%'",
	"a & 3 | 8 << 1 >> b = ~a + 1",
	"a // 2 * ~-a - (~a) IS NULL",
	"round(d, -1) + sqrt(f) + greatest(a, b, pi())",
	"extract(year FROM dt) + extract('Epoch' from ts) + date_part('doy', dt)",
	"date_trunc('month', dt) > '1995-01-01' AND dt + 1 - dt BETWEEN 0 AND date_diff('day', dt, ts)",
	"strftime(last_day(dt), '%Y-%m-%d') || strptime(s, '%d/%m/%Y')",
	"row(a, s).v2 = 'x' AND row(1) = row(b)",
	"dt + INTERVAL 1 MONTH - INTERVAL '3 days' < ts + INTERVAL (a) DAY",
	"INTERVAL '1 year 2 months 3 days 04:05:06' * 2 > to_days(a) + to_hours(1)",
	"date_part('month', INTERVAL 14 MONTH) + epoch(ts - ts)",
}

// FuzzParse checks that Parse never panics, that errors carry a valid
// position, and that every tree it reads prints to a text that reads back
// to an equal tree, with Format stable.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := parse.Parse(src)
		if err != nil {
			checkParseError(t, src, err)
			return
		}
		text := expr.Format(e)
		back, err := parse.Parse(text)
		if err != nil {
			if strings.Contains(err.Error(), "nested too deeply") {
				return // parentheses the printer added may push a deep tree over the limit
			}
			t.Fatalf("Parse(%q) read a tree whose text %q does not parse: %v", src, text, err)
		}
		if !expr.Equal(back, e) {
			t.Fatalf("Parse(%q) = %q, which reads back as a different tree %q", src, text, expr.Format(back))
		}
		if again := expr.Format(back); again != text {
			t.Fatalf("Format is not stable for %q: %q then %q", src, text, again)
		}
	})
}

// FuzzBind checks that parsing and binding any text against the test
// schema never panics, and that bind errors and bound trees print.
func FuzzBind(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := parse.Parse(src)
		if err != nil {
			return
		}
		bound, err := expr.Bind(e, testScope)
		if err != nil {
			var be *expr.BindError
			if !errors.As(err, &be) {
				t.Fatalf("Bind(%q): error %T is not a *expr.BindError: %v", src, err, err)
			}
			if be.Error() == "" {
				t.Fatalf("Bind(%q): empty error text", src)
			}
			return
		}
		if tree := bound.Tree(); !strings.HasPrefix(tree, expr.Label(bound)+" :: "+bound.DType().String()+"\n") {
			t.Fatalf("Bind(%q): tree does not start with the dtype %s:\n%s", src, bound.DType(), tree)
		}
		if !expr.Equal(bound.Expr(), e) {
			t.Fatalf("Bind(%q).Expr() = %s, want the parsed tree", src, bound)
		}
	})
}

func checkParseError(t *testing.T, src string, err error) {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(%q): error %T is not a *parse.Error: %v", src, err, err)
	}
	if pe.Offset < 0 || pe.Offset > len(src) {
		t.Fatalf("Parse(%q): error offset %d out of range: %v", src, pe.Offset, err)
	}
	lines := strings.Count(src[:pe.Offset], "\n") + 1
	if pe.Line != lines || pe.Column < 1 || pe.Column > utf8.RuneCountInString(src)+1 {
		t.Fatalf("Parse(%q): error at %d:%d, offset %d: %v", src, pe.Line, pe.Column, pe.Offset, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "parse error at ") || strings.Count(msg, "\n") < 2 {
		t.Fatalf("Parse(%q): malformed error text %q", src, msg)
	}
}
