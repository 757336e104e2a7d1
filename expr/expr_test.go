package expr_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func mustType(t *testing.T, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var (
	i32 = dtype.Primitive(dtype.I32, false)
	i64 = dtype.Primitive(dtype.I64, false)
)

// TestVariablesResolveThroughFrames binds a tree with a free variable
// against scopes with and without a frame for it.
func TestVariablesResolveThroughFrames(t *testing.T) {
	root := mustType(t, "struct<a: i64, xs: list<i32>>")
	// a + $off, and list_transform(xs, x -> x + $k): one free variable at
	// the top, one inside a lambda body.
	top := expr.Add(expr.Col("a"), expr.V("off"))
	inLambda := expr.Apply(fn.ListTransform, expr.Col("xs"), expr.Fn([]string{"x"}, expr.Add(expr.V("x"), expr.V("k"))))

	withFrame := expr.ScopeOf(root).Push([]string{"off", "k"}, []dtype.DType{i64, i32})
	for _, e := range []expr.Expr{top, inLambda} {
		if _, err := expr.Bind(e, withFrame); err != nil {
			t.Errorf("Bind(%s) with a frame: %v", e, err)
		}
	}

	tests := []struct {
		e    expr.Expr
		path string
	}{
		{top, "args[1]"},
		{inLambda, "args[1].body.args[1]"},
	}
	for _, tt := range tests {
		_, err := expr.Bind(tt.e, expr.ScopeOf(root))
		if !errors.Is(err, expr.ErrUnresolvedVariable) {
			t.Errorf("Bind(%s) without frames = %v, want ErrUnresolvedVariable", tt.e, err)
			continue
		}
		var be *expr.BindError
		if !errors.As(err, &be) || be.Path != tt.path {
			t.Errorf("Bind(%s) without frames: error %v, want one at path %s", tt.e, err, tt.path)
		}
	}
}

// TestScopeShadowing checks that the innermost frame wins, and that a
// lambda parameter shadows a frame variable of the same name.
func TestScopeShadowing(t *testing.T) {
	root := mustType(t, "struct<xs: list<utf8>>")
	s := expr.ScopeOf(root).With("x", i32).With("x", i64)
	if got, ok := s.Lookup("x"); !ok || !got.Equal(i64) {
		t.Errorf("Lookup(x) = %v, %v; want the inner i64", got, ok)
	}
	if s.Depth() != 2 || strings.Join(s.Vars(), ",") != "x" {
		t.Errorf("Depth = %d, Vars = %v; want 2 and [x]", s.Depth(), s.Vars())
	}
	e := expr.Apply(fn.ListTransform, expr.Col("xs"), expr.Fn([]string{"x"}, expr.Apply(fn.Lower, expr.V("x"))))
	b, err := expr.Bind(e, s)
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if want := mustType(t, "list<utf8>"); !b.DType().Equal(want) {
		t.Errorf("dtype %s, want %s: the lambda's x (utf8) must shadow the frame's x (i64)", b.DType(), want)
	}
	// The scope the caller holds is unchanged.
	if _, ok := expr.ScopeOf(root).Lookup("x"); ok {
		t.Error("ScopeOf(root) resolves x")
	}
}

// TestBindDeepChain binds a left chain a + a + … + a as deep as MaxDepth
// allows (n-1 adds over $.a: n+1 levels), and refuses one a term longer.
func TestBindDeepChain(t *testing.T) {
	const n = expr.MaxDepth - 1
	var e expr.Expr = expr.Col("a")
	for i := 1; i < n; i++ {
		e = expr.Add(e, expr.Col("a"))
	}
	if d := expr.Depth(e); d != expr.MaxDepth {
		t.Fatalf("Depth %d, want %d", d, expr.MaxDepth)
	}
	scope := expr.ScopeOf(mustType(t, "struct<a: i32?>"))
	if _, err := expr.Bind(expr.Add(e, expr.Col("a")), scope); !errors.Is(err, expr.ErrTooDeep) {
		t.Errorf("one level deeper: got %v, want ErrTooDeep", err)
	}
	b, err := expr.Bind(e, scope)
	if err != nil {
		t.Fatal(err)
	}
	if b.Depth() != expr.MaxDepth {
		t.Errorf("bound Depth %d, want %d", b.Depth(), expr.MaxDepth)
	}
	if want := dtype.Primitive(dtype.I32, true); !b.DType().Equal(want) {
		t.Errorf("dtype %s, want %s", b.DType(), want)
	}
	depth := 0
	for n := b; n.Kind() == expr.KindCall && n.Fn().ID() == "add"; n = n.Arg(0) {
		depth++
	}
	if depth != n-1 {
		t.Errorf("bound chain has %d adds, want %d", depth, n-1)
	}
	if !expr.Equal(b.Expr(), e) || expr.Hash(b.Expr()) != expr.Hash(e) {
		t.Error("the bound tree's Expr differs from the input")
	}
	// A type error deep down is reported with its path.
	var bad expr.Expr = expr.Lit("x")
	for i := 1; i < 1000; i++ {
		bad = expr.Add(bad, expr.Col("a"))
	}
	_, err = expr.Bind(bad, expr.ScopeOf(mustType(t, "struct<a: i32?>")))
	var be *expr.BindError
	if !errors.As(err, &be) || !errors.Is(err, expr.ErrType) || strings.Count(be.Path, "args[0]") != 999 {
		t.Errorf("deep type error = %.200v", err)
	}
}

func TestBindSharesColumns(t *testing.T) {
	// Every $ of a bound tree is one node, and so is every $.field, lambda
	// bodies included.
	scope := expr.ScopeOf(mustType(t, "struct<a: i32?, xs: list<i32>>"))
	for _, tc := range []struct {
		e           expr.Expr
		roots, cols int // occurrences of $ and of $.a
	}{
		{expr.Add(expr.Col("a"), expr.Col("a")), 2, 2},
		{expr.Add(expr.Col("a"), expr.Add(expr.Col("a"), expr.Lit(int32(1)))), 2, 2},
		{expr.Apply(fn.ListTransform, expr.Col("xs"), expr.Fn([]string{"x"}, expr.Add(expr.V("x"), expr.Col("a")))), 2, 1},
		{expr.Add(expr.GetItem(expr.Col("a"), "a"), expr.Col("a")), 0, 0}, // a type error: a is no struct
	} {
		b, err := expr.Bind(tc.e, scope)
		if tc.roots == 0 {
			if err == nil {
				t.Errorf("%s: bound", expr.Format(tc.e))
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var roots, cols []*expr.Bound
		stack := []*expr.Bound{b}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = append(stack[:len(stack)-1], n.Args()...)
			switch {
			case n.Kind() == expr.KindRoot:
				roots = append(roots, n)
			case n.IsCall(fn.IDGetItem) && n.Fn().Equal(fn.GetItem("a")):
				cols = append(cols, n)
			}
		}
		if len(roots) != tc.roots || len(cols) != tc.cols {
			t.Fatalf("%s: %d $ and %d $.a, want %d and %d", expr.Format(tc.e), len(roots), len(cols), tc.roots, tc.cols)
		}
		for _, r := range roots[1:] {
			if r != roots[0] {
				t.Errorf("%s: two $ nodes", expr.Format(tc.e))
			}
		}
		for _, c := range cols[1:] {
			if c != cols[0] {
				t.Errorf("%s: two $.a nodes", expr.Format(tc.e))
			}
		}
	}
}

func untyped(t *testing.T, text string) expr.Expr {
	s, err := scalar.ParseNumber(text)
	if err != nil {
		t.Fatal(err)
	}
	return expr.Untyped(s)
}

// TestEqualHash checks Equal on pairs of trees and that equal trees hash
// alike.
func TestEqualHash(t *testing.T) {
	a, b := expr.Col("a"), expr.Col("b")
	nan := math.NaN()
	tests := []struct {
		name  string
		x, y  expr.Expr
		equal bool
	}{
		{"same column", expr.Col("a"), expr.Col("a"), true},
		{"different columns", a, b, false},
		{"root", expr.RootExpr(), expr.RootExpr(), true},
		{"root and var", expr.RootExpr(), expr.V("a"), false},
		{"vars", expr.V("x"), expr.V("x"), true},
		{"different vars", expr.V("x"), expr.V("y"), false},
		{"var and column", expr.V("a"), a, false},
		{"nested path", expr.Path("s", "x"), expr.GetItem(expr.Col("s"), "x"), true},
		{"operands swapped", expr.Add(a, b), expr.Add(b, a), false},
		{"add and sub", expr.Add(a, b), expr.Sub(a, b), false},
		{"deep equal", expr.Mul(expr.Add(a, b), expr.Neg(a)), expr.Mul(expr.Add(a, b), expr.Neg(a)), true},
		{"typed literals", expr.Lit(int32(5)), expr.Lit(int32(5)), true},
		{"literal types differ", expr.Lit(int32(5)), expr.Lit(int64(5)), false},
		{"untyped and typed", untyped(t, "5"), expr.Lit(int32(5)), false},
		{"untyped", untyped(t, "2.50"), untyped(t, "2.50"), true},
		{"untyped scales differ", untyped(t, "2.5"), untyped(t, "2.50"), false},
		{"NaN", expr.Lit(nan), expr.Lit(nan), true},
		{"zero signs", expr.Lit(0.0), expr.Lit(math.Copysign(0, -1)), false},
		{"null types", expr.Lit(nil), expr.LitScalar(scalar.Null(dtype.Primitive(dtype.I32, true))), false},
		{"cast targets", expr.Cast(a, i64), expr.Cast(a, i64), true},
		{"cast nullability", expr.Cast(a, i64), expr.Cast(a, i64.AsNullable()), false},
		{"cast and try_cast", expr.Cast(a, i64), expr.TryCast(a, i64), false},
		{"like flags", expr.Apply(fn.Like(true, false), a, b), expr.Apply(fn.Like(false, false), a, b), false},
		{"case else", expr.Apply(fn.CaseWhen(true), a, b, a), expr.Apply(fn.CaseWhen(false), a, b, a), false},
		{"pack names", expr.Pack([]string{"x"}, []expr.Expr{a}), expr.Pack([]string{"y"}, []expr.Expr{a}), false},
		{"select and exclude", expr.Apply(fn.Select("x"), a), expr.Apply(fn.Exclude("x"), a), false},
		{"lambdas", expr.Fn([]string{"x"}, expr.V("x")), expr.Fn([]string{"x"}, expr.V("x")), true},
		{"lambda params", expr.Fn([]string{"x"}, expr.V("x")), expr.Fn([]string{"y"}, expr.V("x")), false},
		{"lambda arity", expr.Fn([]string{"x"}, a), expr.Fn([]string{"x", "y"}, a), false},
		{"argument counts", expr.Coalesce(a), expr.Coalesce(a, a), false},
	}
	for _, tt := range tests {
		if got := expr.Equal(tt.x, tt.y); got != tt.equal {
			t.Errorf("%s: Equal(%s, %s) = %v, want %v", tt.name, tt.x, tt.y, got, tt.equal)
		}
		if got := expr.Equal(tt.y, tt.x); got != tt.equal {
			t.Errorf("%s: Equal is not symmetric", tt.name)
		}
		if tt.equal && expr.Hash(tt.x) != expr.Hash(tt.y) {
			t.Errorf("%s: equal trees %s and %s hash differently", tt.name, tt.x, tt.y)
		}
		if !tt.equal && expr.Hash(tt.x) == expr.Hash(tt.y) {
			// Not wrong, but these distinct trees should not collide.
			t.Errorf("%s: distinct trees %s and %s hash alike", tt.name, tt.x, tt.y)
		}
	}
}

// TestFormat checks the canonical text of trees built with the
// constructors, including ones the operator syntax cannot show.
func TestFormat(t *testing.T) {
	a, b := expr.Col("a"), expr.Col("b")
	five := expr.Lit(int32(5))
	tests := []struct {
		e    expr.Expr
		want string
	}{
		{expr.Add(a, expr.Mul(b, five)), "a + b * 5::i32"},
		{expr.Mul(expr.Add(a, b), five), "(a + b) * 5::i32"},
		{expr.Sub(a, expr.Sub(b, a)), "a - (b - a)"},
		{expr.Eq(expr.Eq(a, b), b), "(a = b) = b"},
		{expr.Not(expr.And(a, b)), "NOT (a AND b)"},
		{expr.Not(expr.In(a, five)), "a NOT IN (5::i32)"},
		{expr.Not(expr.Between(a, b, five)), "a NOT BETWEEN b AND 5::i32"},
		{expr.Neg(five), "-(5::i32)"},
		{expr.Neg(expr.Lit(int32(-5))), "-(-5::i32)"},
		{expr.Neg(expr.GetItem(five, "x")), "-(5::i32.x)"},
		{expr.GetItem(expr.Lit(int32(-5)), "x"), "(-5::i32).x"},
		{expr.Neg(expr.Neg(a)), "-(-a)"}, // -- would start a comment
		{expr.Fn([]string{"x"}, expr.Add(expr.V("x"), expr.Col("x"))), "lambda x: x + $.x"},
		{expr.Fn([]string{"x", "odd name"}, expr.V("odd name")), `lambda x, "odd name": "odd name"`},
		{expr.Fn(nil, five), "() -> 5::i32"},
		{expr.Add(expr.Fn([]string{"x"}, expr.V("x")), a), "(lambda x: x) + a"},
		{expr.V("free"), "$free"},
		{expr.V("and"), `$"and"`},
		{expr.Col("and"), `"and"`},
		{expr.Path("s", "odd name"), `s."odd name"`},
		{expr.Pack(nil, nil), "{}"},
		{expr.LitScalar(scalar.Struct(dtype.Struct(nil, false), nil)), "{}::struct<>"},
		// Argument counts the operator syntax cannot show print as calls.
		{expr.Apply(fn.Add, a, b, a), "add(a, b, a)"},
		{expr.Apply(fn.And, a), `"and"(a)`},
		{expr.Apply(fn.Not, a, b), `"not"(a, b)`},
		{expr.Apply(fn.Neg), "neg()"},
		{expr.Apply(fn.Between, a, b), `"between"(a, b)`},
		{expr.Apply(fn.IsNull), "is_null()"},
		{expr.Not(expr.Apply(fn.Between, a)), `NOT "between"(a)`},
		{expr.Apply(fn.GetItem("x")), "get_item()"},
		{expr.Apply(fn.Cast(i64), a, b), `"cast"(a, b)`},
		{expr.Apply(fn.Like(false, false), a), `"like"(a)`},
		{expr.Apply(fn.Pack("x", "y"), a), "pack(a)"},
		{expr.Apply(fn.CaseWhen(true), a, b), "case_when(a, b)"},
		{expr.Apply(fn.Select("x")), "select()"},
		{expr.Apply(fn.Literal(scalar.Int32(1)), a), "literal(a)"},
	}
	for _, tt := range tests {
		if got := expr.Format(tt.e); got != tt.want {
			t.Errorf("Format = %s, want %s", got, tt.want)
		}
	}
}

func TestFormatNilFunction(t *testing.T) {
	got := expr.Format(&expr.Call{Args: []expr.Expr{expr.Col("a")}})
	if got != "<nil function>(a)" {
		t.Fatalf("Format of a call without a function = %q", got)
	}
	if _, err := expr.Bind(&expr.Call{}, expr.ScopeOf(dtype.Null())); err == nil {
		t.Fatal("binding a call without a function succeeded")
	}
}

func TestAt(t *testing.T) {
	a, b := expr.Col("a"), expr.Col("b")
	body := expr.Add(expr.V("x"), b)
	tree := expr.Apply(fn.ListTransform, a, expr.Fn([]string{"x"}, body))
	for _, tc := range []struct {
		path string
		want expr.Expr
	}{
		{"", tree},
		{"args[0]", a},
		{"args[1].body", body},
		{"args[1].body.args[1]", b},
		{"args[2]", nil},
		{"args[1].args[0]", nil},
		{"args[x]", nil},
		{"body", nil},
	} {
		got, ok := expr.At(tree, tc.path)
		if ok != (tc.want != nil) || got != tc.want {
			t.Errorf("At(%q) = %v, %v; want %v", tc.path, got, ok, tc.want)
		}
	}
}
