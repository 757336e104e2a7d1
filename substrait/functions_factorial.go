package substrait

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Substrait's factorial has no colexpr function; n! is read as the table
// of the values that fit the result type, and an error past it:
//
//	factorial(n)   CASE WHEN n = 0 THEN 1 WHEN n = 1 THEN 1 … WHEN n = k THEN k!
//	               ELSE CAST(error('factorial: …') AS T) END
//
// k is 12 for i32, 20 for i64 and 33 for the decimal extension's
// decimal<38,0> result (a larger n overflows: overflow ERROR, what the
// YAMLs offer), and a negative n is an error too. A null n is null (a null
// condition takes no branch and the ELSE is not reached: CASE evaluates
// error() only on the rows that take it).
func init() {
	imports[extensions.ID{URN: urnArithmetic, Name: "factorial"}] = importSpec{
		allowed: allow(map[string][]string{"overflow": {"ERROR"}}), build: unary(importFactorial),
	}
	imports[extensions.ID{URN: urnDecimal, Name: "factorial"}] = importSpec{
		allowed: allow(map[string][]string{"overflow": {"ERROR"}}), build: unary(importFactorial),
	}
}

func importFactorial(n *expr.Bound) (*expr.Bound, error) {
	t := n.DType()
	var last int
	var value func(v *big.Int) scalar.Scalar
	out := t
	switch {
	case t.IsInt() && t.PType() == dtype.I32:
		last, value = 12, func(v *big.Int) scalar.Scalar { return scalar.Int(dtype.I32, v.Int64()) }
	case t.IsInt() && t.PType() == dtype.I64:
		last, value = 20, func(v *big.Int) scalar.Scalar { return scalar.Int64(v.Int64()) }
	case t.IsDecimal() && t.Scale() == 0:
		out = dtype.Decimal(38, 0, t.Nullable())
		last, value = 33, func(v *big.Int) scalar.Scalar { return scalar.Decimal(decimal128.FromBigInt(v), 38, 0) }
	default:
		return nil, fmt.Errorf("factorial takes i32, i64 or decimal(p, 0), got %s", t)
	}
	args := make([]*expr.Bound, 0, 2*(last+1)+1)
	f := big.NewInt(1)
	for k := 0; k <= last; k++ {
		if k > 0 {
			f.Mul(f, big.NewInt(int64(k)))
		}
		var kLit *expr.Bound
		if t.IsDecimal() {
			kLit = expr.NewLiteral(scalar.Decimal(decimal128.FromI64(int64(k)), t.Precision(), 0))
		} else {
			kLit = expr.NewLiteral(scalar.Int(t.PType(), int64(k)))
		}
		eq, err := expr.NewCall(fn.Eq, n, kLit)
		if err != nil {
			return nil, err
		}
		args = append(args, eq, expr.NewLiteral(value(f).WithDType(out.WithNullable(false))))
	}
	e, err := expr.NewCall(fn.Raise, expr.NewLiteral(scalar.String(fmt.Sprintf("factorial: the argument is negative or its factorial overflows %s (%d! is the largest that fits)", out.WithNullable(false), last))))
	if err != nil {
		return nil, err
	}
	if e, err = expr.NewCall(fn.Cast(out.WithNullable(true)), e); err != nil {
		return nil, err
	}
	// A null n takes the ELSE; it must give null, not the error.
	isNull, err := expr.NewCall(fn.IsNull, n)
	if err != nil {
		return nil, err
	}
	args = append([]*expr.Bound{isNull, expr.NewLiteral(scalar.Null(out.WithNullable(true)))}, args...)
	args = append(args, e)
	return expr.NewCall(fn.CaseWhen(true), args...)
}
