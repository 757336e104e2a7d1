package coerce_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

func mustParse(t testing.TB, src string) expr.Expr {
	t.Helper()
	e, err := parse.Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

func untyped(t testing.TB, text string) expr.Expr {
	t.Helper()
	s, err := scalar.ParseNumber(text)
	if err != nil {
		t.Fatalf("ParseNumber(%q): %v", text, err)
	}
	return expr.Untyped(s)
}

// TestUnchanged checks that expressions that already type-check come back
// as the very same tree, and that unchanged subtrees of a changed tree are
// shared.
func TestUnchanged(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema)).With("v", dtype.Primitive(dtype.I64, false))
	for _, src := range []string{
		"a + 1",
		"a > 10 AND ok",
		"c = a",
		"$v > b",
		"coalesce(c, a, 0)",
		"CASE WHEN ok THEN s WHEN ok2 THEN 'x' ELSE s2 END",
		"list_transform(xs, x -> x * 2 + a)",
		"list_filter(ys, y -> y > $v)",
		"d + d2",
		"concat(s, s2, null)",
		"{x: a, y: $.st.y}",
		"a IS NULL OR s LIKE 'x%'",
		"CAST(ua AS i32) + a",
	} {
		t.Run(src, func(t *testing.T) {
			e := mustParse(t, src)
			out, err := coerce.Coerce(e, scope)
			if err != nil {
				t.Fatal(err)
			}
			if out != e {
				t.Errorf("got a new tree %s, want the input itself", out)
			}
		})
	}

	// Only the path to the changed node is rebuilt.
	e := mustParse(t, "(a + b) = (c + 1) AND s = s2")
	out, err := coerce.Coerce(e, scope)
	if err != nil {
		t.Fatal(err)
	}
	and := out.(*expr.Call)
	if and == e {
		t.Fatal("the tree needed a cast but came back unchanged")
	}
	if and.Args[1] != e.(*expr.Call).Args[1] {
		t.Errorf("the unchanged operand s = s2 was rebuilt")
	}
	if got, want := expr.Format(out), "CAST(a AS i64) + b = CAST(c + 1 AS i64) AND s = s2"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestVariables checks that a variable resolves through the scope's frame
// and is coerced against its dtype, and that without a frame it is an
// unresolved variable — at the top level and inside a lambda body.
func TestVariables(t *testing.T) {
	root := mustType(t, testSchema)
	withV := expr.ScopeOf(root).Push([]string{"v", "w"}, []dtype.DType{dtype.Primitive(dtype.I64, true), dtype.Primitive(dtype.U8, false)})
	noVars := expr.ScopeOf(root)
	cases := []struct {
		name string
		e    expr.Expr
		want string // coerced text with the frame
		dt   string // its dtype
		path string // error path without the frame
	}{
		{"operand", expr.Add(expr.Col("a"), expr.V("v")), "CAST(a AS i64) + $v", "i64?", "args[1]"},
		{"literal", expr.Eq(expr.V("w"), untyped(t, "300")), "CAST($w AS i32) = 300", "bool", "args[0]"},
		{"lambda", expr.Apply(fn.ListTransform, expr.Col("xs"), expr.Fn([]string{"x"}, expr.Mul(expr.V("x"), expr.V("v")))),
			"list_transform(xs, lambda x: CAST(x AS i64) * $v)", "list<i64?>", "args[1].body.args[1]"},
		{"shadowed", expr.Apply(fn.ListAny, expr.Col("xs"), expr.Fn([]string{"v"}, expr.Gt(expr.V("v"), expr.V("w")))),
			"list_any(xs, lambda v: v > CAST($w AS i32))", "bool", "args[1].body.args[1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := coerce.Bind(c.e, withV)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != c.want {
				t.Errorf("coerced: got %s, want %s", got, c.want)
			}
			if got := b.DType().String(); got != c.dt {
				t.Errorf("dtype: got %s, want %s", got, c.dt)
			}

			_, err = coerce.Coerce(c.e, noVars)
			if !errors.Is(err, expr.ErrUnresolvedVariable) {
				t.Fatalf("without a frame: got %v, want an unresolved variable", err)
			}
			var be *expr.BindError
			if !errors.As(err, &be) || be.Path != c.path {
				t.Errorf("without a frame: got %v, want a BindError at %s", err, c.path)
			}
		})
	}
}

// TestErrors checks the error values: their sentinels, the fields of
// *coerce.Error, and the parts of the message a user acts on.
func TestErrors(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema))
	cases := []struct {
		src   string
		is    error
		path  string
		types [2]string
		hint  string
		msg   []string
	}{
		{src: "uc = b", is: coerce.ErrNoCommonType, types: [2]string{"u64", "i64"}, hint: "CAST(b AS u64)",
			msg: []string{"cannot compare u64 with i64", "`uc = b`", "at the root node", "no common type", "CAST(b AS u64)"}},
		{src: "ok AND (uc < b OR s IS NULL)", is: coerce.ErrNoCommonType, path: "args[1].args[0]", types: [2]string{"u64", "i64"},
			msg: []string{"at args[1].args[0]", "`uc < b`", "(lt)"}},
		{src: "s + 1", is: coerce.ErrNoCommonType, types: [2]string{"utf8", "i32"}, hint: "CAST(s AS i32)"},
		{src: "s = a", is: coerce.ErrNoCommonType, types: [2]string{"utf8", "i32"}, hint: "CAST(a AS utf8)"},
		{src: "ok = a", is: coerce.ErrNoCommonType, types: [2]string{"bool", "i32"}, hint: "CAST(a AS bool)"},
		{src: "a OR ok", is: coerce.ErrNoCommonType, types: [2]string{"bool", "i32"}, hint: "CAST(a AS bool)",
			msg: []string{"cannot use i32 as bool", "cast it, e.g. CAST(a AS bool)"}},
		{src: "uc = -1", is: coerce.ErrNoCommonType, types: [2]string{"u64", "i32"}, hint: "CAST(uc AS i64)"},
		{src: "st = a", is: coerce.ErrNoCommonType, types: [2]string{"struct<x: i32, y: utf8?>", "i32"},
			msg: []string{"no cast between them exists"}},
		{src: "list_transform(xs, x -> CASE WHEN ok THEN x ELSE s END)", is: coerce.ErrNoCommonType, path: "args[1].body",
			types: [2]string{"i32", "utf8"}, msg: []string{"cannot combine i32 with utf8"}},
		{src: "d = 1234567890123456789012345678901234567", is: coerce.ErrNoCommonType,
			types: [2]string{"decimal(38,2)", "decimal(38,0)"}, msg: []string{"the value does not fit"}},
		{src: "lower(a)", is: expr.ErrType, path: "args[0]", msg: []string{"lower: argument 1: has type i32, want utf8"}},
		{src: "list_transform(xs, 1)", is: expr.ErrMisplacedLambda, path: "args[1]"},
		{src: "list_transform(xs, (x, i, y) -> x)", is: expr.ErrMisplacedLambda, path: "args[1]"},
		{src: "a + (x -> x)", is: expr.ErrMisplacedLambda, path: "args[1]"},
		{src: "nosuch = 1", is: expr.ErrType, msg: []string{`has no field "nosuch"`}},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			_, err := coerce.Coerce(mustParse(t, c.src), scope)
			if !errors.Is(err, c.is) {
				t.Fatalf("got %v, want an error wrapping %v", err, c.is)
			}
			for _, m := range c.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%q does not say %q", err, m)
				}
			}
			var ce *coerce.Error
			if errors.As(err, &ce) {
				if ce.Path != c.path {
					t.Errorf("path: got %q, want %q", ce.Path, c.path)
				}
				if got := [2]string{ce.Types[0].String(), ce.Types[1].String()}; got != c.types {
					t.Errorf("types: got %v, want %v", got, c.types)
				}
				if c.hint != "" && ce.Hint != c.hint {
					t.Errorf("hint: got %q, want %q", ce.Hint, c.hint)
				}
				return
			}
			var be *expr.BindError
			if !errors.As(err, &be) {
				t.Fatalf("got %T %v, want a *coerce.Error or *expr.BindError", err, err)
			}
			if c.path != "" && be.Path != c.path {
				t.Errorf("path: got %q, want %q", be.Path, c.path)
			}
		})
	}
}

// TestMalformed feeds trees the parser would never make: they are errors,
// not panics.
func TestMalformed(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema))
	for name, e := range map[string]expr.Expr{
		"nil":              nil,
		"nil function":     &expr.Call{Args: []expr.Expr{expr.Col("a")}},
		"arity":            &expr.Call{Fn: fn.Add, Args: []expr.Expr{expr.Col("a")}},
		"lambda at root":   expr.Fn([]string{"x"}, expr.V("x")),
		"nil argument":     expr.Add(expr.Col("a"), nil),
		"case without any": &expr.Call{Fn: fn.CaseWhen(true), Args: []expr.Expr{expr.Col("ok"), expr.Col("a"), expr.Col("b"), expr.Col("a")}},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := coerce.Coerce(e, scope)
			if err == nil {
				t.Fatalf("got %s, want an error", out)
			}
			var be *expr.BindError
			if !errors.As(err, &be) {
				t.Errorf("got %T %v, want a *expr.BindError", err, err)
			}
		})
	}
}

// deepChain is ((((col op lit) op lit) …), n levels deep.
func deepChain(col string, n int, op func(a, b expr.Expr) expr.Expr, lit expr.Expr) expr.Expr {
	e := expr.Col(col)
	for i := 0; i < n; i++ {
		e = op(e, lit)
	}
	return e
}

// TestDeepChain coerces left chains nearly expr.MaxDepth deep.
func TestDeepChain(t *testing.T) {
	const n = expr.MaxDepth - 10
	scope := expr.ScopeOf(mustType(t, testSchema))

	// Every literal adapts to u8.
	b, err := coerce.Bind(deepChain("ua", n, expr.Add, untyped(t, "1")), scope)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.DType().String(); got != "u8" {
		t.Errorf("dtype: got %s, want u8", got)
	}
	if lit, ok := b.Arg(1).Literal(); !ok || lit.SQL() != "1::u8" {
		t.Errorf("top literal: got %v, want 1::u8", b.Arg(1))
	}

	// One cast at the bottom, every level i64.
	e := deepChain("a", n, expr.Add, expr.Col("b"))
	out, err := coerce.Coerce(e, scope)
	if err != nil {
		t.Fatal(err)
	}
	casts := 0
	for n := out; ; {
		c := n.(*expr.Call)
		if c.Fn.ID() == "cast" {
			casts++
		}
		if len(c.Args) == 0 || c.Fn.ID() == "get_item" {
			break
		}
		n = c.Args[0]
	}
	if casts != 1 {
		t.Errorf("got %d casts, want 1", casts)
	}

	// Already well typed: nothing is rebuilt.
	e = deepChain("b", n, expr.Sub, expr.Col("b"))
	if out, err := coerce.Coerce(e, scope); err != nil || out != e {
		t.Errorf("well-typed chain: got a new tree or %v", err)
	}

	// An error at the bottom names its path.
	e = deepChain("uc", 1000, expr.Add, expr.Col("b"))
	_, err = coerce.Coerce(e, scope)
	var ce *coerce.Error
	if !errors.As(err, &ce) || ce.Path != strings.Repeat("args[0].", 999)[:len("args[0].")*999-1] {
		t.Errorf("got %v, want an error 999 levels down", err)
	}
}

func BenchmarkCoerceDeepChain(b *testing.B) {
	scope := expr.ScopeOf(mustType(b, testSchema))
	for _, n := range []int{1000, 10_000, expr.MaxDepth - 1} { // a chain of n adds is n+1 levels deep
		e := deepChain("ua", n, expr.Add, untyped(b, "1"))
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := coerce.Bind(e, scope); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
