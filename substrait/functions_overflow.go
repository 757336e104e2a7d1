package substrait

import (
	"fmt"
	"math"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// arithmeticBuild reads add, subtract, multiply, divide, negate and abs
// with their overflow option:
//
//	ERROR     colexpr's checked arithmetic
//	SILENT    the same: Substrait leaves the result undefined, and
//	          colexpr's is the overflow error
//	SATURATE  integers of at most 32 bits, computed in i64 (where the
//	          result of two such values always fits) and clamped:
//	          CAST(CASE WHEN r > MAX THEN MAX WHEN r < MIN THEN MIN ELSE r END AS T)
//
// SATURATE of i64 is refused (its exact result needs 128 bits), as is
// SATURATE of floats and decimals.
func arithmeticBuild(f fn.Function) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
		if chosen["overflow"] != "SATURATE" {
			return expr.NewCall(f, args...)
		}
		t := args[0].DType()
		var lo, hi int64
		switch {
		case t.IsInt() && t.PType() == dtype.I8:
			lo, hi = math.MinInt8, math.MaxInt8
		case t.IsInt() && t.PType() == dtype.I16:
			lo, hi = math.MinInt16, math.MaxInt16
		case t.IsInt() && t.PType() == dtype.I32:
			lo, hi = math.MinInt32, math.MaxInt32
		default:
			return nil, fmt.Errorf("%w: overflow SATURATE of %s: colexpr saturates integers of at most 32 bits (computed exactly in i64)", ErrUnsupported, t)
		}
		wide := make([]*expr.Bound, len(args))
		for i, a := range args {
			if !a.DType().Equal(t.WithNullable(a.DType().Nullable())) {
				return nil, fmt.Errorf("argument %d has type %s, want %s", i+1, a.DType(), t)
			}
			c, err := expr.NewCall(fn.Cast(dtype.Primitive(dtype.I64, a.DType().Nullable())), a)
			if err != nil {
				return nil, err
			}
			wide[i] = c
		}
		r, err := expr.NewCall(f, wide...)
		if err != nil {
			return nil, err
		}
		max, min := expr.NewLiteral(scalar.Int64(hi)), expr.NewLiteral(scalar.Int64(lo))
		above, err := expr.NewCall(fn.Gt, r, max)
		if err != nil {
			return nil, err
		}
		below, err := expr.NewCall(fn.Lt, r, min)
		if err != nil {
			return nil, err
		}
		clamped, err := expr.NewCall(fn.CaseWhen(true), above, max, below, min, r)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.Cast(t.WithNullable(r.DType().Nullable())), clamped)
	}
}
