package substrait

import (
	"fmt"
	"math"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The Substrait functions colexpr has no function of its own for but
// computes exactly as a composition of its functions. Import reads them as
// the composition, so export writes the composition's functions, never
// these:
//
//	nullif(a, b)         CASE WHEN a = b THEN null ELSE a END
//	is_true(x)           x IS NOT DISTINCT FROM true (never null)
//	is_not_true(x)       x IS DISTINCT FROM true
//	is_false(x)          x IS NOT DISTINCT FROM false
//	is_not_false(x)      x IS DISTINCT FROM false
//	xor(a, b)            a != b (null when either is)
//	and_not(a, b)        a AND NOT b (Kleene)
//	is_nan(x)            x != x (IEEE: only NaN differs from itself)
//	is_finite(x)         x - x = 0 (Inf - Inf and NaN - NaN are NaN)
//	is_infinite(x)       abs(x) = Inf
func init() {
	distinct := func(f fn.Function, v bool) importSpec {
		return importSpec{allowed: noOptions, build: unary(func(x *expr.Bound) (*expr.Bound, error) {
			return expr.NewCall(f, x, literalBool(v))
		})}
	}
	imports[extensions.ID{URN: urnComparison, Name: "is_true"}] = distinct(fn.IsNotDistinctFrom, true)
	imports[extensions.ID{URN: urnComparison, Name: "is_not_true"}] = distinct(fn.IsDistinctFrom, true)
	imports[extensions.ID{URN: urnComparison, Name: "is_false"}] = distinct(fn.IsNotDistinctFrom, false)
	imports[extensions.ID{URN: urnComparison, Name: "is_not_false"}] = distinct(fn.IsDistinctFrom, false)
	imports[extensions.ID{URN: urnComparison, Name: "nullif"}] = importSpec{allowed: noOptions, build: binaryFn(func(a, b *expr.Bound) (*expr.Bound, error) {
		eq, err := expr.NewCall(fn.Eq, a, b)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.CaseWhen(true), eq, expr.NewLiteral(scalar.Null(a.DType().WithNullable(true))), a)
	})}
	imports[extensions.ID{URN: urnBoolean, Name: "xor"}] = importSpec{allowed: noOptions, build: binaryFn(func(a, b *expr.Bound) (*expr.Bound, error) {
		if !a.DType().IsBool() || !b.DType().IsBool() {
			return nil, fmt.Errorf("xor takes bools, got %s and %s", a.DType(), b.DType())
		}
		return expr.NewCall(fn.NotEq, a, b)
	})}
	imports[extensions.ID{URN: urnBoolean, Name: "and_not"}] = importSpec{allowed: noOptions, build: binaryFn(func(a, b *expr.Bound) (*expr.Bound, error) {
		not, err := expr.NewCall(fn.Not, b)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.And, a, not)
	})}
	imports[extensions.ID{URN: urnComparison, Name: "is_nan"}] = importSpec{allowed: noOptions, build: unary(func(x *expr.Bound) (*expr.Bound, error) {
		if err := wantFloat("is_nan", x); err != nil {
			return nil, err
		}
		return expr.NewCall(fn.NotEq, x, x)
	})}
	imports[extensions.ID{URN: urnComparison, Name: "is_finite"}] = importSpec{allowed: noOptions, build: unary(func(x *expr.Bound) (*expr.Bound, error) {
		if err := wantFloat("is_finite", x); err != nil {
			return nil, err
		}
		d, err := expr.NewCall(fn.Sub, x, x)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.Eq, d, floatLiteral(x.DType(), 0))
	})}
	imports[extensions.ID{URN: urnComparison, Name: "is_infinite"}] = importSpec{allowed: noOptions, build: unary(func(x *expr.Bound) (*expr.Bound, error) {
		if err := wantFloat("is_infinite", x); err != nil {
			return nil, err
		}
		a, err := expr.NewCall(fn.Abs, x)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.Eq, a, floatLiteral(x.DType(), math.Inf(1)))
	})}
}

// unary and binaryFn check a composition's arity before building it.
func unary(f func(x *expr.Bound) (*expr.Bound, error)) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		if len(args) != 1 {
			return nil, fmt.Errorf("takes 1 argument, got %d", len(args))
		}
		return f(args[0])
	}
}

func binaryFn(f func(a, b *expr.Bound) (*expr.Bound, error)) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("takes 2 arguments, got %d", len(args))
		}
		return f(args[0], args[1])
	}
}

func wantFloat(name string, x *expr.Bound) error {
	if !x.DType().IsFloat() {
		return fmt.Errorf("%s takes a float, got %s", name, x.DType())
	}
	return nil
}

// floatLiteral is v as a non-null literal of the float type t.
func floatLiteral(t dtype.DType, v float64) *expr.Bound {
	return expr.NewLiteral(scalar.Float(t.PType(), v))
}

// raiseWhen is CASE WHEN cond THEN CAST(error(msg) AS T) ELSE value END,
// T value's type: the error an option asks for, raised only on the rows
// where cond holds.
func raiseWhen(cond *expr.Bound, msg string, value *expr.Bound) (*expr.Bound, error) {
	e, err := expr.NewCall(fn.Raise, expr.NewLiteral(scalar.String(msg)))
	if err != nil {
		return nil, err
	}
	if e, err = expr.NewCall(fn.Cast(value.DType().WithNullable(true)), e); err != nil {
		return nil, err
	}
	return expr.NewCall(fn.CaseWhen(true), cond, e, value)
}
