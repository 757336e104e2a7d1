package parse_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

// num is the untyped literal the parser makes of a number.
func num(text string) expr.Expr {
	s, err := scalar.ParseNumber(text)
	if err != nil {
		panic(err)
	}
	return expr.Untyped(s)
}

// typed is the literal text converted to t, as text::t reads.
func typed(v scalar.Scalar, t dtype.DType) expr.Expr {
	s, err := scalar.Cast(v, t)
	if err != nil {
		panic(err)
	}
	return expr.LitScalar(s)
}

func mustType(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

func lit(v any) expr.Expr { return expr.Lit(v) }

var (
	a, b, s, xs = expr.Col("a"), expr.Col("b"), expr.Col("s"), expr.Col("xs")
	x, y        = expr.V("x"), expr.V("y")
	i32         = dtype.Primitive(dtype.I32, false)
	i64         = dtype.Primitive(dtype.I64, false)
)

// TestParseTrees checks the tree each input reads as.
func TestParseTrees(t *testing.T) {
	tests := []struct {
		src  string
		want expr.Expr
	}{
		// names
		{"a", a},
		{"$", expr.RootExpr()},
		{"$.a", a},
		{"$ . a", a},
		{"s.x.y", expr.Path("s", "x", "y")},
		{"$.s.x", expr.Path("s", "x")},
		{`"odd name"`, expr.Col("odd name")},
		{`"say ""hi"""`, expr.Col(`say "hi"`)},
		{`""`, expr.Col("")},
		{`a."end"`, expr.GetItem(a, "end")},
		{`a.end`, expr.GetItem(a, "end")},
		{"A", expr.Col("A")},
		{"ünï", expr.Col("ünï")},
		{"$x", x},
		{`$"odd var"`, expr.V("odd var")},
		{"$x.f", expr.GetItem(x, "f")},
		{"date", expr.Col("date")},
		{"Timestamp + 1", expr.Add(expr.Col("Timestamp"), num("1"))},
		// literals
		{"1", num("1")},
		{"2.5", num("2.5")},
		{"1e3", num("1e3")},
		{".5", num(".5")},
		{"5.", num("5.")},
		{"00.50", num("00.50")},
		{"-5", num("-5")},
		{"- 5", num("-5")},
		{"-2.5e-3", num("-2.5e-3")},
		{"-(5)", expr.Neg(num("5"))},
		{"- -5", expr.Neg(num("-5"))},
		{"a -- a comment\n+ 1", expr.Add(a, num("1"))},
		{"a /* a\ncomment */ + /**/1", expr.Add(a, num("1"))},
		{"a-- to the end", a},
		{"-a", expr.Neg(a)},
		{"- - a", expr.Neg(expr.Neg(a))},
		{"'it''s'", lit("it's")},
		{"''", lit("")},
		{"'line\nbreak'", lit("line\nbreak")},
		{"true", lit(true)},
		{"FALSE", lit(false)},
		{"null", lit(nil)},
		{"NULL", lit(nil)},
		{"x'00ff'", lit([]byte{0, 0xff})},
		{"X''", lit([]byte{})},
		{"DATE '1995-01-01'", typed(scalar.String("1995-01-01"), dtype.Date(false))},
		{"date '1995-01-01'", typed(scalar.String("1995-01-01"), dtype.Date(false))},
		{"TIMESTAMP '1995-01-01 12:00:00'", typed(scalar.String("1995-01-01 12:00:00"), dtype.Timestamp(dtype.Micro, "", false))},
		{"TIME '12:00:00'", typed(scalar.String("12:00:00"), dtype.Time(dtype.Micro, false))},
		// typed literals and casts
		{"5::i64", lit(int64(5))},
		{"-5::i32", lit(int32(-5))},
		{"-128::i8", lit(int8(-128))},
		{"(5)::i64", lit(int64(5))},
		{"-(5::i64)", expr.Neg(lit(int64(5)))},
		{"-(5)::i64", expr.Neg(lit(int64(5)))},
		{"null::i32?", expr.LitScalar(scalar.Null(dtype.Primitive(dtype.I32, true)))},
		{"null::i32", expr.Cast(lit(nil), i32)},
		{"'x'::i32", expr.Cast(lit("x"), i32)},
		{"300::u8", expr.Cast(num("300"), dtype.Primitive(dtype.U8, false))},
		{"1::i32::i64", lit(int64(1))},
		{"'1995-01-01'::date", typed(scalar.String("1995-01-01"), dtype.Date(false))},
		{"a::i64", expr.Cast(a, i64)},
		{"a::struct<x: i32>?", expr.Cast(a, mustType("struct<x: i32>?"))},
		{"a::decimal(15,2) + 1", expr.Add(expr.Cast(a, mustType("decimal(15,2)")), num("1"))},
		{"a::list<i32> > b", expr.Gt(expr.Cast(a, mustType("list<i32>")), b)},
		{"a.b::i64.c", expr.GetItem(expr.Cast(expr.GetItem(a, "b"), i64), "c")},
		{"CAST(a AS BIGINT)", expr.Cast(a, i64)},
		{"cast(5 as i64)", expr.Cast(num("5"), i64)},
		{"TRY_CAST(s AS double precision)", expr.TryCast(s, dtype.Primitive(dtype.F64, false))},
		{"CAST(a AS decimal(15,2)) + 1", expr.Add(expr.Cast(a, mustType("decimal(15,2)")), num("1"))},
		// list and struct literals
		{"[1, 2]", expr.LitScalar(scalar.List(mustType("list<i32>"), []scalar.Scalar{scalar.Int32(1), scalar.Int32(2)}))},
		{"[1, null]", expr.LitScalar(scalar.List(mustType("list<i32?>"), []scalar.Scalar{scalar.Int32(1), scalar.Null(mustType("i32?"))}))},
		{"[1, 5000000000]", expr.LitScalar(scalar.List(mustType("list<i64>"), []scalar.Scalar{scalar.Int64(1), scalar.Int64(5000000000)}))},
		{"[]", expr.LitScalar(scalar.List(dtype.List(dtype.Null(), false), nil))},
		{"[]::list<utf8>", expr.LitScalar(scalar.List(mustType("list<utf8>"), nil))},
		// [] is a list<null>, which meets list<i32> at list<i32?>.
		{"[[1], []]", expr.LitScalar(scalar.List(mustType("list<list<i32?>>"), []scalar.Scalar{
			scalar.List(mustType("list<i32?>"), []scalar.Scalar{scalar.Int32(1)}),
			scalar.List(mustType("list<i32?>"), nil),
		}))},
		{"{'a': 1, 'b c': 'x'}", expr.LitScalar(scalar.Struct(mustType(`struct<a: i32, "b c": utf8>`), []scalar.Scalar{scalar.Int32(1), scalar.String("x")}))},
		{"{}::struct<>", expr.LitScalar(scalar.Struct(mustType("struct<>"), nil))},
		{"[{}]", expr.LitScalar(scalar.List(mustType("list<struct<>>"), []scalar.Scalar{scalar.Struct(mustType("struct<>"), nil)}))},
		// struct pack and select
		{"{x: a, \"y z\": b + 1}", expr.Pack([]string{"x", "y z"}, []expr.Expr{a, expr.Add(b, num("1"))})},
		{"{}", expr.Pack(nil, nil)},
		{"{a: 1}.a", expr.GetItem(expr.Pack([]string{"a"}, []expr.Expr{num("1")}), "a")},
		{"struct_select(st, 'x', 'y')", expr.Apply(fn.Select("x", "y"), expr.Col("st"))},
		{"STRUCT_EXCLUDE(st, 'x')", expr.Apply(fn.Exclude("x"), expr.Col("st"))},
		{"struct_select(st)", expr.Apply(fn.Select(), expr.Col("st"))},
		// arithmetic and precedence
		{"a + b * 2", expr.Add(a, expr.Mul(b, num("2")))},
		{"(a + b) * 2", expr.Mul(expr.Add(a, b), num("2"))},
		{"a - b - 1", expr.Sub(expr.Sub(a, b), num("1"))},
		{"a / b % 3", expr.Mod(expr.Div(a, b), num("3"))},
		{"a - -5", expr.Sub(a, num("-5"))},
		{"a -5", expr.Sub(a, num("5"))},
		{"a*-b", expr.Mul(a, expr.Neg(b))},
		{"-a.b", expr.Neg(expr.GetItem(a, "b"))},
		{"-5.x", expr.GetItem(num("-5"), "x")},
		{"5..x", expr.GetItem(num("5."), "x")},
		{"-(5.x)", expr.Neg(expr.GetItem(num("5"), "x"))},
		// comparisons
		{"a = 1", expr.Eq(a, num("1"))},
		{"a == 1", expr.Eq(a, num("1"))},
		{"a <> 1", expr.NotEq(a, num("1"))},
		{"a != 1", expr.NotEq(a, num("1"))},
		{"a < b", expr.Lt(a, b)},
		{"a <= b", expr.LtEq(a, b)},
		{"a > b", expr.Gt(a, b)},
		{"a >= b", expr.GtEq(a, b)},
		{"a + 1 > b * 2", expr.Gt(expr.Add(a, num("1")), expr.Mul(b, num("2")))},
		{"a IS NULL", expr.IsNull(a)},
		{"a is not null", expr.IsNotNull(a)},
		{"a IS DISTINCT FROM b", expr.Apply(fn.IsDistinctFrom, a, b)},
		{"a IS NOT DISTINCT FROM b + 1", expr.Apply(fn.IsNotDistinctFrom, a, expr.Add(b, num("1")))},
		{"a BETWEEN 1 AND 10", expr.Between(a, num("1"), num("10"))},
		{"a BETWEEN 1 AND 10 AND b", expr.And(expr.Between(a, num("1"), num("10")), b)},
		{"a NOT BETWEEN b - 1 AND b + 1", expr.Not(expr.Between(a, expr.Sub(b, num("1")), expr.Add(b, num("1"))))},
		{"a IN (1, 2, 3)", expr.In(a, num("1"), num("2"), num("3"))},
		{"a NOT IN (1)", expr.Not(expr.In(a, num("1")))},
		{"a IN ()", expr.In(a)},
		{"s LIKE 'A%'", expr.Like(s, lit("A%"))},
		{"s NOT LIKE 'A%'", expr.Apply(fn.Like(true, false), s, lit("A%"))},
		{"s ILIKE 'a%'", expr.Apply(fn.Like(false, true), s, lit("a%"))},
		{"s not ilike 'a%'", expr.Apply(fn.Like(true, true), s, lit("a%"))},
		{"(a = b) = true", expr.Eq(expr.Eq(a, b), lit(true))},
		// boolean
		{"a AND b OR NOT a", expr.Or(expr.And(a, b), expr.Not(a))},
		{"a OR b AND a", expr.Or(a, expr.And(b, a))},
		{"NOT a = b", expr.Not(expr.Eq(a, b))},
		{"NOT NOT a", expr.Not(expr.Not(a))},
		{"NOT a IN (1)", expr.Not(expr.In(a, num("1")))},
		{"a and b and a", expr.And(expr.And(a, b), a)},
		// CASE
		{"CASE WHEN a > 0 THEN 'pos' ELSE 'neg' END", expr.Apply(fn.CaseWhen(true), expr.Gt(a, num("0")), lit("pos"), lit("neg"))},
		{"case when a then 1 when b then 2 end", expr.Apply(fn.CaseWhen(false), a, num("1"), b, num("2"))},
		{"CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END", expr.Apply(fn.CaseWhen(true),
			expr.Eq(a, num("1")), lit("one"), expr.Eq(a, num("2")), lit("two"), lit("many"))},
		{"CASE WHEN a THEN 1 END.x", expr.GetItem(expr.Apply(fn.CaseWhen(false), a, num("1")), "x")},
		// calls
		{"coalesce(a, 0)", expr.Coalesce(a, num("0"))},
		{"COALESCE(a)", expr.Coalesce(a)},
		{"lower(s)", expr.Apply(fn.Lower, s)},
		{"LCASE(s)", expr.Apply(fn.Lower, s)},
		{"concat()", expr.Apply(fn.Concat)},
		{"lower(s, s)", expr.Apply(fn.Lower, s, s)},
		{"lower (s).x", expr.GetItem(expr.Apply(fn.Lower, s), "x")},
		// lambdas
		{"list_transform(xs, x -> x * 2)", expr.Apply(fn.ListTransform, xs, expr.Fn([]string{"x"}, expr.Mul(x, num("2"))))},
		{"list_filter(xs, x -> x > a)", expr.Apply(fn.ListFilter, xs, expr.Fn([]string{"x"}, expr.Gt(x, a)))},
		{"list_any(xs, (x) -> x > 0)", expr.Apply(fn.ListAny, xs, expr.Fn([]string{"x"}, expr.Gt(x, num("0"))))},
		{"x -> x", expr.Fn([]string{"x"}, x)},
		{"(x, y) -> x + y", expr.Fn([]string{"x", "y"}, expr.Add(x, y))},
		{"() -> 1", expr.Fn(nil, num("1"))},
		{`"a b" -> "a b"`, expr.Fn([]string{"a b"}, expr.V("a b"))},
		{"x -> $.x + x", expr.Fn([]string{"x"}, expr.Add(expr.Col("x"), x))},
		{"x -> y -> x + y", expr.Fn([]string{"x"}, expr.Fn([]string{"y"}, expr.Add(x, y)))},
		{"x -> x.f", expr.Fn([]string{"x"}, expr.GetItem(x, "f"))},
		{"(x -> x) + 1", expr.Add(expr.Fn([]string{"x"}, x), num("1"))},
		{"x -> a OR b", expr.Fn([]string{"x"}, expr.Or(a, b))},
		{"list_transform(xs, lambda x: x * 2)", expr.Apply(fn.ListTransform, xs, expr.Fn([]string{"x"}, expr.Mul(x, num("2"))))},
		{"lambda x, y: x + y", expr.Fn([]string{"x", "y"}, expr.Add(x, y))},
		{"LAMBDA \"a b\": \"a b\"", expr.Fn([]string{"a b"}, expr.V("a b"))},
		{"lambda + 1", expr.Add(expr.Col("lambda"), num("1"))},
		{"list_transform(ys, y -> list_filter(y, z -> z > y[1]))", expr.Apply(fn.ListTransform, expr.Col("ys"),
			expr.Fn([]string{"y"}, expr.Apply(fn.ListFilter, y, expr.Fn([]string{"z"}, expr.Gt(expr.V("z"), expr.Apply(fn.ListElement, y, num("1")))))))},
		// DuckDB's indexing, struct forms and conditionals
		{"xs[1]", expr.Apply(fn.ListElement, xs, num("1"))},
		{"xs[2:-1:2]", expr.Apply(mustLookup("list_slice"), xs, num("2"), num("-1"), num("2"))},
		{"xs[::-1]", expr.Apply(mustLookup("list_slice"), xs, num("-1"), num("1"), num("-1"))},
		{"xs[:2:-1]", expr.Apply(mustLookup("list_slice"), xs, num("-1"), num("2"), num("-1"))},
		{"xs[4::-1]", expr.Apply(mustLookup("list_slice"), xs, num("4"), num("1"), num("-1"))},
		{"xs[a::i64]", expr.Apply(fn.ListElement, xs, expr.Cast(a, dtype.Primitive(dtype.I64, false)))},
		{"xs[2:3:a]", expr.Apply(mustLookup("list_slice"), xs, num("2"), num("3"), a)},
		{"xs[:3:a]", nil}, // the step's sign decides the missing bound
		{"xs[:3]", expr.Apply(mustLookup("list_slice"), xs, num("1"), num("3"))},
		{"xs[-1].f", expr.GetItem(expr.Apply(fn.ListElement, xs, num("-1")), "f")},
		{"s['a b']", expr.GetItem(s, "a b")},
		{"s['a']['b']", expr.GetItem(expr.GetItem(s, "a"), "b")},
		{"{'a': a + 1, 'b': 'x'}", expr.Pack([]string{"a", "b"}, []expr.Expr{expr.Add(a, num("1")), lit("x")})},
		{"struct_pack(a := 1, \"b c\" := s, a2)", expr.Pack([]string{"a", "b c", "a2"}, []expr.Expr{num("1"), s, expr.Col("a2")})},
		{"row(1, s)", expr.Pack([]string{"v1", "v2"}, []expr.Expr{num("1"), s})},
		{"ROW(s)", expr.Pack([]string{"v1"}, []expr.Expr{s})},
		{"if(a, 1, 2)", expr.Apply(fn.CaseWhen(true), a, num("1"), num("2"))},
		{"nullif(a, 0)", expr.Apply(fn.CaseWhen(true), expr.Eq(a, num("0")), expr.LitScalar(scalar.Null(dtype.Null())), a)},
		{"list_transform(ys, y -> list_any(y, z -> z = list_length(y)))", expr.Apply(fn.ListTransform, expr.Col("ys"),
			expr.Fn([]string{"y"}, expr.Apply(fn.ListAny, y, expr.Fn([]string{"z"}, expr.Eq(expr.V("z"), expr.Apply(fn.ListLength, y))))))},
		{"(a)", a},
		{"  a  \n", a},
	}
	for _, tt := range tests {
		got, err := parse.Parse(tt.src)
		if tt.want == nil {
			if err == nil {
				t.Errorf("Parse(%q) = %v, want an error", tt.src, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if !expr.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestCanonical checks the canonical text of parsed inputs, and that it
// reads back to the same tree.
func TestCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a+1", "a + 1"},
		{"a<>b", "a != b"},
		{"(a + b) * (c - d)", "(a + b) * (c - d)"},
		{"a - (b - c)", "a - (b - c)"},
		{"(a - b) - c", "a - b - c"},
		{"a and (b or c)", "a AND (b OR c)"},
		{"not (a and b)", "NOT (a AND b)"},
		{"not a in (1,2)", "a NOT IN (1, 2)"},
		{"a not between 1 and 2", "a NOT BETWEEN 1 AND 2"},
		{"a between (b between 1 and 2) and 3", "a BETWEEN (b BETWEEN 1 AND 2) AND 3"},
		{"not (s like 'x')", "NOT s LIKE 'x'"},
		{"s not like 'x'", "s NOT LIKE 'x'"},
		{"(a = b) = c", "(a = b) = c"},
		{"(a is null) is null", "(a IS NULL) IS NULL"},
		{"-(5)", "-(5)"},
		{"-5", "-5"},
		{"- -5", "-(-5)"},
		{"- -a", "-(-a)"},
		{"-(5.x)", "-(5.x)"},
		{"-(.5.x)", "-(.5.x)"},
		{"-5.x", "(-5).x"},
		{"a - -5", "a - -5"},
		{"5::i64", "5::i64"},
		{"-5::i64", "-5::i64"},
		{"(-5::i64).x", "(-5::i64).x"},
		{"CAST(5 AS BIGINT)", "CAST(5 AS i64)"},
		{"a::bigint", "CAST(a AS i64)"},
		{"x -> x", "lambda x: x"},
		{"list_transform(xs, x -> x + $.x)", "list_transform(xs, lambda x: x + $.x)"},
		{"list_transform(xs, x -> y -> x)", "list_transform(xs, lambda x: (lambda y: x))"},
		{"x -> $x", "lambda x: x"},
		{"$x + $\"odd\" + $\"odd name\"", `$x + $odd + $"odd name"`},
		{`"and"(a, b, a)`, `"and"(a, b, a)`},
		{`"not"(a)`, `NOT a`},
		{`"LOWER"(s)`, `lower(s)`},
		{`"and" + "a b" + "date"`, `"and" + "a b" + "date"`},
		{"CASE a WHEN 1 THEN 2 END", "CASE WHEN a = 1 THEN 2 END"},
		{"case when a then (x -> x) end", "CASE WHEN a THEN (lambda x: x) END"},
		{"{a: 1, \"b\": x -> x}", "{a: 1, b: (lambda x: x)}"},
		{"{}", "{}"},
		{"{}::struct<>", "{}::struct<>"},
		{"struct_exclude(st, 'it''s')", "struct_exclude(st, 'it''s')"},
		{"LOWER(s)", "lower(s)"},
		{"IFNULL(a, 0)", "coalesce(a, 0)"},
		{"a IN ()", "a IN ()"},
		{"DATE '1995-01-01'", "DATE '1995-01-01'"},
		{"[1, 2]", "[1::i32, 2::i32]"},
		{"{'a': 1}", "{'a': 1::i32}"},
		{"x'00FF'", "x'00ff'"},
		{"null::i32?", "null::i32?"},
	}
	for _, tt := range tests {
		e, err := parse.Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		got := expr.Format(e)
		if got != tt.want {
			t.Errorf("Format(Parse(%q)) = %q, want %q", tt.src, got, tt.want)
		}
		back, err := parse.Parse(got)
		if err != nil {
			t.Errorf("Parse(%q) (canonical of %q): %v", got, tt.src, err)
			continue
		}
		if !expr.Equal(back, e) {
			t.Errorf("Parse(%q) = %v, want the tree of %q", got, back, tt.src)
		}
	}
}

// TestErrors checks the rendered errors in testdata/errors.txt.
func TestErrors(t *testing.T) {
	checkGolden(t, "testdata/errors.txt", func(src string) string {
		e, err := parse.Parse(src)
		if err == nil {
			return "no error: " + expr.Format(e)
		}
		var pe *parse.Error
		if !errors.As(err, &pe) {
			return "not a *parse.Error: " + err.Error()
		}
		return err.Error()
	})
}

// TestErrorPosition checks line and column, counted in characters.
func TestErrorPosition(t *testing.T) {
	tests := []struct {
		src        string
		line, col  int
		sourceLine string
	}{
		{"a +", 1, 4, "a +"},
		{"a +\nb +\n", 3, 1, ""},
		{"a +\r\n* b", 2, 1, "* b"},
		{"'héllo' + ", 1, 11, "'héllo' + "},
		{"\n\n  'ünï' ? 1", 3, 9, "  'ünï' ? 1"},
		{"lower(\n  s,\n  lowr(s))", 3, 3, "  lowr(s))"},
		{"a +\t+", 1, 5, "a +\t+"},
	}
	for _, tt := range tests {
		_, err := parse.Parse(tt.src)
		var pe *parse.Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a *parse.Error", tt.src, err)
			continue
		}
		if pe.Line != tt.line || pe.Column != tt.col || pe.SourceLine != tt.sourceLine {
			t.Errorf("Parse(%q): error at %d:%d on %q, want %d:%d on %q (%v)", tt.src, pe.Line, pe.Column, pe.SourceLine, tt.line, tt.col, tt.sourceLine, err)
		}
	}
}

// TestErrorCauses checks that errors from the dtype and scalar packages
// stay reachable with errors.As.
func TestErrorCauses(t *testing.T) {
	_, err := parse.Parse("CAST(a AS i33)")
	var de *dtype.Error
	if !errors.As(err, &de) {
		t.Errorf("Parse(CAST(a AS i33)) = %v, want a *dtype.Error inside", err)
	}
	_, err = parse.Parse("DATE '1995-13-01'")
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Err == nil {
		t.Errorf("Parse(DATE '1995-13-01') = %v, want a *parse.Error with the cast error inside", err)
	}
}

// TestLongLineError checks that an error in a long line shows the part
// around the column.
func TestLongLineError(t *testing.T) {
	src := strings.Repeat("a + ", 1000) + ")"
	_, err := parse.Parse(src)
	if err == nil {
		t.Fatal("want an error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 {
		t.Fatalf("error has %d lines, want 3:\n%v", len(lines), err)
	}
	if len(lines[1]) > 200 {
		t.Errorf("source line shown with %d bytes, want it cut around the column:\n%v", len(lines[1]), err)
	}
	caret := strings.IndexByte(lines[2], '^')
	if got := string([]rune(lines[1])[caret]); got != ")" {
		t.Errorf("caret points at %q, want ')':\n%v", got, err)
	}
}

// TestDeep checks that deep nesting gives an error wrapping expr.ErrTooDeep,
// never a crash — runs of prefix and postfix operators count as nesting —
// and that long chains of binary operators parse without limit.
func TestDeep(t *testing.T) {
	const n = 100000
	const million = 1_000_000
	deep := []struct {
		name string
		src  string
	}{
		{"parentheses", strings.Repeat("(", 10000) + "a" + strings.Repeat(")", 10000)},
		{"unclosed parentheses", strings.Repeat("(", n)},
		{"calls", strings.Repeat("lower(", 5000) + "s" + strings.Repeat(")", 5000)},
		{"lambdas", strings.Repeat("x -> ", 5000) + "x"},
		{"lists", strings.Repeat("[", 5000) + strings.Repeat("]", 5000)},
		{"packs", strings.Repeat("{a: ", 5000) + "1" + strings.Repeat("}", 5000)},
		{"case", strings.Repeat("CASE WHEN a THEN ", 5000) + "1" + strings.Repeat(" END", 5000)},
		{"not", strings.Repeat("NOT ", million) + "(a = 1)"},
		{"minus", strings.Repeat("- ", million) + "a"},
		{"minus before a number", strings.Repeat("- ", million) + "1"},
		{"fields", "a" + strings.Repeat(".a", million)},
		{"casts", "a" + strings.Repeat("::i64", million)},
		{"not and minus", strings.Repeat("NOT ", 600) + strings.Repeat("- ", 600) + "a"},
		{"negated casts", strings.Repeat("- ", 600) + "a" + strings.Repeat("::i64", 600)},
		{"not inside parentheses", strings.Repeat("NOT (", 600) + "a" + strings.Repeat(")", 600)},
	}
	for _, tt := range deep {
		_, err := parse.Parse(tt.src)
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") || !errors.Is(err, expr.ErrTooDeep) {
			t.Errorf("%s: got %v, want a nesting error", tt.name, err)
		}
	}
	// Runs of prefix and postfix operators within the limit.
	const runs = 900
	within := []struct {
		name string
		src  string
		id   string
	}{
		{"not", strings.Repeat("NOT ", runs) + "a", "not"},
		{"minus", strings.Repeat("- ", runs) + "a", "neg"},
		{"fields", "a" + strings.Repeat(".a", runs), "get_item"},
		{"casts", "a" + strings.Repeat("::i32", runs), "cast"},
	}
	for _, tt := range within {
		e, err := parse.Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !isCall(e, tt.id) || expr.Depth(e) < runs {
			t.Errorf("%s: unexpected tree %.80s", tt.name, expr.Format(e))
		}
	}
	// Within the limit.
	if _, err := parse.Parse(strings.Repeat("(", 900) + "a" + strings.Repeat(")", 900)); err != nil {
		t.Errorf("900 parentheses: %v", err)
	}
	if _, err := parse.ParseWith(strings.Repeat("(", 2000)+"a"+strings.Repeat(")", 2000), parse.Options{MaxDepth: 3000}); err != nil {
		t.Errorf("2000 parentheses with MaxDepth 3000: %v", err)
	}
	chains := []struct {
		name string
		src  string
		want func(e expr.Expr) bool
	}{
		{"sum", "a" + strings.Repeat(" + a", n-1), func(e expr.Expr) bool { return isCall(e, "add") }},
		{"product", "a" + strings.Repeat(" * a", n-1), func(e expr.Expr) bool { return isCall(e, "mul") }},
		{"and", "a" + strings.Repeat(" AND a", n-1), func(e expr.Expr) bool { return isCall(e, "and") }},
		{"or", "a" + strings.Repeat(" OR a", n-1), func(e expr.Expr) bool { return isCall(e, "or") }},
		{"in list", "a IN (" + strings.Repeat("1, ", n) + "1)", func(e expr.Expr) bool { return len(e.(*expr.Call).Args) == n+2 }},
	}
	for _, tt := range chains {
		e, err := parse.Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !tt.want(e) {
			t.Errorf("%s: unexpected tree %.80s", tt.name, expr.Format(e))
		}
	}
	// A long chain round-trips.
	src := "a" + strings.Repeat(" + a", n-1)
	e, _ := parse.Parse(src)
	if got := expr.Format(e); got != src {
		t.Errorf("Format of a %d-long chain differs from its source", n)
	}
}

func isCall(e expr.Expr, id string) bool {
	c, ok := e.(*expr.Call)
	return ok && c.Fn.ID() == id
}

// TestKeywordsAreQuoted checks that the printer quotes every name the parser
// reads as a keyword, so a field named like one round-trips.
func TestKeywordsAreQuoted(t *testing.T) {
	for _, kw := range []string{"and", "or", "not", "is", "null", "true", "false", "in", "like", "ilike",
		"between", "case", "when", "then", "else", "end", "cast", "try_cast", "as", "distinct", "from",
		"date", "time", "timestamp", "AND", "Null"} {
		e := expr.Add(expr.Col(kw), expr.V(kw))
		text := expr.Format(e)
		back, err := parse.Parse(text)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", kw, text, err)
			continue
		}
		if !expr.Equal(back, e) {
			t.Errorf("%s: Parse(%q) = %v", kw, text, back)
		}
	}
}

// TestRegistry checks ParseWith's registry: names resolve against it, and
// unknown names get suggestions from it.
func TestRegistry(t *testing.T) {
	reg := fn.NewRegistry()
	if err := reg.Alias("MyLower", fn.Lower); err != nil {
		t.Fatal(err)
	}
	e, err := parse.ParseWith("MyLower(s)", parse.Options{Registry: reg})
	if err != nil || !expr.Equal(e, expr.Apply(fn.Lower, s)) {
		t.Errorf("ParseWith(MyLower(s)) = %v, %v", e, err)
	}
	e, err = parse.ParseWith("MYLOWER(s)", parse.Options{Registry: reg})
	if err != nil || !expr.Equal(e, expr.Apply(fn.Lower, s)) {
		t.Errorf("ParseWith(MYLOWER(s)) = %v, %v", e, err)
	}
	if _, err := parse.ParseWith("upper(s)", parse.Options{Registry: reg}); err == nil {
		t.Errorf("upper is not in the custom registry, want an error")
	}
	_, err = parse.ParseWith("mylowr(s)", parse.Options{Registry: reg})
	if err == nil || !strings.Contains(err.Error(), "did you mean MyLower") {
		t.Errorf("ParseWith(mylowr(s)) = %v, want a suggestion of MyLower", err)
	}
}

// TestFloatLiterals checks special float values written as typed literals.
func TestFloatLiterals(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0.1, 1e300, 5e-324} {
		want := expr.LitScalar(scalar.Float64(v))
		text := expr.Format(want)
		got, err := parse.Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if !expr.Equal(got, want) {
			t.Errorf("Parse(%q) = %v, want the f64 %v", text, got, v)
		}
	}
}

// TestScalarSQLForms reads every literal form scalar.SQL emits (see the
// scalar package doc) and checks that it is one literal that prints back
// the same.
func TestScalarSQLForms(t *testing.T) {
	for _, src := range []string{
		"null", "null::i32?", "5::i32", "-5::i64", "5::i32?", "-128::i8", "18446744073709551615::u64",
		"12.50::decimal(15,2)", "2.5::f64", "1e+20::f64", "'NaN'::f64", "'Infinity'::f32", "'-Infinity'::f64",
		"'-0.0'::f64", "'1e+20'::f32", "true", "false::bool?", "'it''s'", "'a'::utf8?", "x'00ff'", "x''::binary?",
		"DATE '1995-01-01'", "DATE '1995-01-01'::date?", "TIMESTAMP '1995-01-01 12:00:00'",
		"'1995-01-01 12:00:00.123456789'::timestamp(ns)", "'1995-01-01 12:00:00+00'::timestamp(us, 'UTC')",
		"'12:00:00.5'::time(ms)", "[1::i32, 2::i32]", "[1::i32?, null::i32?]", "[]::list<utf8>",
		"[1::i32]::list<i32>?", "[1::i32, 2::i32]::fixed_size_list<i32, 2>", "{'a': 1::i32, 'b': 'x'}",
		"{'a': 1::i32}::struct<a: i32>?", "{}::struct<>", "[{}, {}]", "{'a': {}}",
	} {
		e, err := parse.Parse(src)
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if c, ok := e.(*expr.Call); !ok || c.Fn.ID() != "literal" {
			t.Errorf("Parse(%q) = %v, want a literal", src, e)
			continue
		}
		if got := expr.Format(e); got != src {
			t.Errorf("Format(Parse(%q)) = %q", src, got)
		}
	}
}

// mustLookup is the registered function name.
func mustLookup(name string) fn.Function {
	f, ok := fn.Default.Lookup(name)
	if !ok {
		panic("no function " + name)
	}
	return f
}
