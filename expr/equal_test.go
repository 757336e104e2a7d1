package expr_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// equalTrees builds pairs of bound trees for TestBoundEqual and
// BenchmarkBoundEqual: each pair built twice, from separate nodes.
func equalTrees(tb testing.TB) (root dtype.DType, build map[string]func(root *expr.Bound) *expr.Bound) {
	call := func(f fn.Function, args ...*expr.Bound) *expr.Bound {
		b, err := expr.NewCall(f, args...)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	i32 := dtype.Primitive(dtype.I32, true)
	inner := dtype.Struct([]dtype.Field{{Name: "b", Type: i32}, {Name: "c", Type: dtype.Utf8(true)}}, true)
	root = dtype.Struct([]dtype.Field{
		{Name: "a", Type: i32},
		{Name: "s", Type: inner},
		{Name: "xs", Type: dtype.List(i32, true)},
	}, false)
	col := func(r *expr.Bound, name string) *expr.Bound { return call(fn.GetItem(name), r) }
	lit := func(v int32) *expr.Bound { return expr.NewLiteral(scalar.Int32(v)) }
	build = map[string]func(r *expr.Bound) *expr.Bound{
		"chain": func(r *expr.Bound) *expr.Bound { return call(fn.Not, call(fn.IsNull, col(col(r, "s"), "b"))) },
		"wide": func(r *expr.Bound) *expr.Bound {
			a := col(r, "a")
			return call(fn.And, call(fn.Gt, call(fn.Add, a, lit(1)), lit(5)), call(fn.Lt, call(fn.Mul, a, col(col(r, "s"), "b")), lit(100)))
		},
		"in list": func(r *expr.Bound) *expr.Bound {
			args := []*expr.Bound{col(r, "a")}
			for i := range 64 {
				args = append(args, lit(int32(i)))
			}
			return call(fn.InList, args...)
		},
		"lambda": func(r *expr.Bound) *expr.Bound {
			x := expr.NewVar("x", i32)
			return call(fn.ListFilter, col(r, "xs"), expr.NewLambda([]string{"x"}, []dtype.DType{i32}, call(fn.Gt, x, col(r, "a"))))
		},
	}
	return root, build
}

// TestBoundEqual: trees built twice are Equal, and a difference in a
// function, a literal's value or dtype, a leaf's dtype, a field name or a
// lambda's parameter makes them differ.
func TestBoundEqual(t *testing.T) {
	rt, build := equalTrees(t)
	for name, b := range build {
		x, y := b(expr.NewRoot(rt)), b(expr.NewRoot(rt))
		if !x.Equal(y) || !y.Equal(x) || !x.Equal(x) {
			t.Errorf("%s: two builds of %s differ", name, x)
		}
	}
	i32 := dtype.Primitive(dtype.I32, true)
	mk := func(f func() (*expr.Bound, error)) *expr.Bound {
		b, err := f()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	v := func(name string, t dtype.DType) *expr.Bound { return expr.NewVar(name, t) }
	add := func(a, b *expr.Bound) *expr.Bound {
		return mk(func() (*expr.Bound, error) { return expr.NewCall(fn.Add, a, b) })
	}
	isNull := func(a *expr.Bound) *expr.Bound {
		return mk(func() (*expr.Bound, error) { return expr.NewCall(fn.IsNull, a) })
	}
	lam := func(p string, body *expr.Bound) *expr.Bound {
		return expr.NewLambda([]string{p}, []dtype.DType{i32}, body)
	}
	for _, c := range []struct {
		name string
		x, y *expr.Bound
	}{
		{"function", add(v("a", i32), v("b", i32)), mk(func() (*expr.Bound, error) { return expr.NewCall(fn.Sub, v("a", i32), v("b", i32)) })},
		{"literal value", add(v("a", i32), expr.NewLiteral(scalar.Int32(1))), add(v("a", i32), expr.NewLiteral(scalar.Int32(2)))},
		{"literal dtype", isNull(expr.NewLiteral(scalar.Int64(1))), isNull(expr.NewLiteral(scalar.Int32(1)))},
		{"leaf dtype", add(v("a", i32), v("b", i32)), add(v("a", i32), v("b", dtype.Primitive(dtype.I32, false)))},
		{"variable name", add(v("a", i32), v("b", i32)), add(v("a", i32), v("c", i32))},
		{"field", mk(func() (*expr.Bound, error) {
			return expr.NewCall(fn.GetItem("a"), expr.NewRoot(dtype.Struct([]dtype.Field{{Name: "a", Type: i32}, {Name: "b", Type: i32}}, false)))
		}), mk(func() (*expr.Bound, error) {
			return expr.NewCall(fn.GetItem("b"), expr.NewRoot(dtype.Struct([]dtype.Field{{Name: "a", Type: i32}, {Name: "b", Type: i32}}, false)))
		})},
		{"lambda parameter", lam("x", v("x", i32)), lam("y", v("x", i32))},
		{"nil", add(v("a", i32), v("b", i32)), nil},
	} {
		if c.x.Equal(c.y) || (c.y != nil && c.y.Equal(c.x)) {
			t.Errorf("%s: %s and %s are Equal", c.name, c.x, c.y)
		}
	}
}

func BenchmarkBoundEqual(b *testing.B) {
	rt, build := equalTrees(b)
	for _, name := range []string{"chain", "wide", "in list", "lambda"} {
		x, y := build[name](expr.NewRoot(rt)), build[name](expr.NewRoot(rt))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if !x.Equal(y) {
					b.Fatal("not equal")
				}
			}
		})
	}
}
