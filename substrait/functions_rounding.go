package substrait

import (
	"fmt"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

const urnRoundingDecimal = extensions.SubstraitDefaultURNPrefix + "functions_rounding_decimal"

// Substrait's rounding of integers and decimals, imported as colexpr's
// round and trunc (rounding TIE_AWAY_FROM_ZERO and TRUNCATE; without the
// option, colexpr's ties away from zero) and ceil and floor:
//
//	round(i, s), i an integer         round(i, s) (trunc for TRUNCATE): the integer's type
//	round(d, s) of decimal<P,S>       CAST(round(d, s) AS decimal(P+1, S))
//	ceil(d), floor(d) of decimal<P,S> CAST(ceil(d) AS decimal(P-S+1, 0))
//
// The casts are exact: Substrait keeps the scale of the decimal round
// and gives ceil and floor only the digits they need, where colexpr's
// results are decimal(P, min(max(s, 0), S)) and decimal(P, 0), and every
// value fits both. s must be a literal (colexpr's result scale is s).
// round of a float stays refused: colexpr computes DuckDB's
// round(x · 10^s) / 10^s, Substrait rounds the exact value.
func init() {
	roundOpts := allow(map[string][]string{"rounding": {"TIE_AWAY_FROM_ZERO", "TRUNCATE"}})
	imports[extensions.ID{URN: urnRounding, Name: "round"}] = importSpec{allowed: roundOpts, build: importRound(false)}
	imports[extensions.ID{URN: urnRoundingDecimal, Name: "round"}] = importSpec{allowed: roundOpts, build: importRound(true)}
	for name, f := range map[string]fn.Function{"ceil": fn.Ceil, "floor": fn.Floor} {
		imports[extensions.ID{URN: urnRoundingDecimal, Name: name}] = importSpec{allowed: noOptions, build: importDecimalCeilFloor(f)}
	}
}

func importRound(decimal bool) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("round takes 2 arguments, got %d", len(args))
		}
		x := args[0].DType()
		if !decimal && !x.IsInt() {
			return nil, fmt.Errorf("%w: round of %s: colexpr rounds a float as DuckDB does, round(x · 10^s) / 10^s, where Substrait rounds the exact value", ErrUnsupported, x)
		}
		f := fn.Round
		if chosen["rounding"] == "TRUNCATE" {
			f = fn.Trunc
		}
		r, err := expr.NewCall(f, args...)
		if err != nil || !decimal {
			return r, err
		}
		return castDecimal(r, x.Precision()+1, x.Scale())
	}
}

func importDecimalCeilFloor(f fn.Function) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		if len(args) != 1 || !args[0].DType().IsDecimal() {
			return nil, fmt.Errorf("%s of functions_rounding_decimal takes one decimal", f.ID())
		}
		r, err := expr.NewCall(f, args[0])
		if err != nil {
			return nil, err
		}
		x := args[0].DType()
		return castDecimal(r, x.Precision()-x.Scale()+1, 0)
	}
}

// castDecimal casts the decimal r to decimal(p, s), or leaves it as it is
// when that is no valid decimal type (p above 38): Substrait's type is
// then none either.
func castDecimal(r *expr.Bound, p, s int) (*expr.Bound, error) {
	if dtype.ValidDecimal(p, s) != nil || (r.DType().Precision() == p && r.DType().Scale() == s) {
		return r, nil
	}
	return expr.NewCall(fn.Cast(dtype.Decimal(p, s, r.DType().Nullable())), r)
}
