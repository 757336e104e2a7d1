package expr_test

import (
	"errors"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// TestWithArgsSameTypes checks that rebuilding a call with children of the
// same dtypes keeps its dtype without retyping, and that every other
// replacement is retyped as WithArgs would.
func TestWithArgsSameTypes(t *testing.T) {
	st := dtype.Struct([]dtype.Field{
		{Name: "a", Type: dtype.Primitive(dtype.I32, false)},
		{Name: "n", Type: dtype.Primitive(dtype.I32, true)},
		{Name: "s", Type: dtype.Utf8(false)},
	}, false)
	root := expr.NewRoot(st)
	col := func(name string) *expr.Bound {
		b, err := expr.NewCall(fn.GetItem(name), root)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, n, s := col("a"), col("n"), col("s")
	five := expr.NewLiteral(scalar.Int32(5))
	sum, err := expr.NewCall(fn.Add, a, five)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []*expr.Bound
		same    bool // the result is sum itself
		want    string
		wantErr bool
	}{
		{name: "unchanged", args: []*expr.Bound{a, five}, same: true, want: "i32"},
		{name: "same dtypes", args: []*expr.Bound{col("a"), expr.NewLiteral(scalar.Int32(7))}, want: "i32"},
		{name: "nullable child retypes", args: []*expr.Bound{n, five}, want: "i32?"},
		{name: "mistyped child fails", args: []*expr.Bound{s, five}, wantErr: true},
		{name: "lambda where none was", args: []*expr.Bound{expr.NewLambda([]string{"x"}, []dtype.DType{dtype.Primitive(dtype.I32, false)}, a), five}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sum.WithArgsSameTypes(tc.args)
			ref, refErr := sum.WithArgs(tc.args)
			if (err != nil) != tc.wantErr || (refErr != nil) != tc.wantErr {
				t.Fatalf("errors %v and %v (WithArgs), want error %v", err, refErr, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if (got == sum) != tc.same {
				t.Errorf("returned the node itself: %v, want %v", got == sum, tc.same)
			}
			if got.DType().String() != tc.want || !got.Equal(ref) {
				t.Errorf("got %s :: %s, want %s :: %s (like WithArgs)", got, got.DType(), ref, tc.want)
			}
		})
	}
}

// TestNewCallLongArgs types IN lists long enough to borrow their dtypes
// from the pool, one after another, including a failing one: the pool's
// scratch space must not leak between calls.
func TestNewCallLongArgs(t *testing.T) {
	st := dtype.Struct([]dtype.Field{{Name: "a", Type: dtype.Primitive(dtype.I64, false)}}, false)
	x, err := expr.NewCall(fn.GetItem("a"), expr.NewRoot(st))
	if err != nil {
		t.Fatal(err)
	}
	list := func(n int, last scalar.Scalar) []*expr.Bound {
		args := []*expr.Bound{x}
		for i := 1; i < n; i++ {
			args = append(args, expr.NewLiteral(scalar.Int64(int64(i))))
		}
		return append(args, expr.NewLiteral(last))
	}
	tests := []struct {
		name    string
		args    []*expr.Bound
		want    string
		wantErr bool
	}{
		{name: "short", args: list(3, scalar.Int64(0)), want: "bool"},
		{name: "long", args: list(300, scalar.Int64(0)), want: "bool"},
		{name: "long, mistyped last", args: list(300, scalar.String("z")), wantErr: true},
		{name: "long, nullable last", args: list(40, scalar.Null(dtype.Primitive(dtype.I64, true))), want: "bool?"},
		{name: "long again", args: list(20, scalar.Int64(0)), want: "bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := expr.NewCall(fn.InList, tc.args...)
			if tc.wantErr {
				var ae *fn.ArgError
				if !errors.As(err, &ae) || ae.Arg != len(tc.args)-1 {
					t.Fatalf("error %v, want an *fn.ArgError on argument %d", err, len(tc.args)-1)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := b.DType().String(); got != tc.want {
				t.Errorf("dtype %s, want %s", got, tc.want)
			}
		})
	}
}

// TestSize: a node records the size of its tree, a shared subtree counted
// once per use, as it records its depth.
func TestSize(t *testing.T) {
	i64 := dtype.Primitive(dtype.I64, false)
	x := expr.NewVar("x", i64)
	one := expr.NewLiteral(scalar.Int64(1))
	sum, err := expr.NewCall(fn.Add, x, one)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := expr.NewCall(fn.Mul, sum, sum)
	if err != nil {
		t.Fatal(err)
	}
	lam := expr.NewLambda([]string{"x"}, []dtype.DType{i64}, twice)
	for _, tc := range []struct {
		b    *expr.Bound
		want int
	}{{x, 1}, {one, 1}, {expr.NewRoot(i64), 1}, {sum, 3}, {twice, 7}, {lam, 8}} {
		if got := tc.b.Size(); got != tc.want {
			t.Errorf("Size(%s) = %d, want %d", tc.b, got, tc.want)
		}
	}
	if rebuilt, err := twice.WithArgs([]*expr.Bound{one, sum}); err != nil || rebuilt.Size() != 5 {
		t.Errorf("WithArgs: size %d, %v; want 5", rebuilt.Size(), err)
	}
}
