package eval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of the numeric functions (fn/math.go), row at a
// time: integers and decimals through big.Int, floats by DuckDB's formulas
// written out again.

func init() {
	for id, mode := range map[string]fn.RoundMode{fn.IDRound: fn.RoundHalfAway, fn.IDTrunc: fn.RoundTrunc,
		fn.IDFloor: fn.RoundFloor, fn.IDCeil: fn.RoundCeil} {
		refFuncs[id] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refRound(mode, t, v) }
	}
	// The logarithms are computed as DuckDB's C library gives them
	// (kernels.Ln, Log2, Log10: the reference does not write them a second
	// time; their own tests check them).
	for id, f := range map[string]func(float64) float64{fn.IDSqrt: math.Sqrt, fn.IDCbrt: math.Cbrt, fn.IDExp: math.Exp,
		fn.IDLn: kernels.Ln, fn.IDLog10: kernels.Log10, fn.IDLog2: kernels.Log2} {
		refFuncs[id] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			return mk(t, f(v[0].Value().(float64))), nil
		}
	}
	refFuncs[fn.IDLog] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if len(v) == 1 {
			return mk(t, kernels.Log10(v[0].Value().(float64))), nil
		}
		return mk(t, kernels.Log10(v[1].Value().(float64))/kernels.Log10(v[0].Value().(float64))), nil
	}
	refFuncs[fn.IDPower] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, math.Pow(v[0].Value().(float64), v[1].Value().(float64))), nil
	}
	refFuncs[fn.IDPi] = func(t dtype.DType, _ []scalar.Scalar) (scalar.Scalar, error) { return mk(t, math.Pi), nil }
	refFuncs[fn.IDSign] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		switch x := v[0].Value().(type) {
		case int64:
			return mk(t, int64(cmpOf(x, 0))), nil
		case uint64:
			return mk(t, int64(cmpOf(x, 0))), nil
		case float64:
			if math.IsNaN(x) {
				return mk(t, int64(0)), nil
			}
			return mk(t, int64(cmpOf(x, 0))), nil
		case decimal128.Num:
			return mk(t, int64(x.Sign())), nil
		}
		return scalar.Scalar{}, fmt.Errorf("reference: sign of %s", v[0].DType())
	}
	refFuncs[fn.IDGreatest] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refExtreme(true, t, v), nil }
	refFuncs[fn.IDLeast] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refExtreme(false, t, v), nil }
	for id, op := range map[string]string{fn.IDBitAnd: "&", fn.IDBitOr: "|", fn.IDBitXor: "^", fn.IDShiftLeft: "<<", fn.IDShiftRight: ">>"} {
		refFuncs[id] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refBitwise(op, t, v[0], v[1]) }
	}
	refFuncs[fn.IDBitNot] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		x := bigOf(v[0])
		if !t.PType().IsSigned() {
			// ~x of an unsigned n-bit x is 2^n - 1 - x.
			m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.PType().BitWidth())), big.NewInt(1))
			return fitInt("~", m.Sub(m, x), t)
		}
		return fitInt("~", new(big.Int).Not(x), t)
	}
}

// refDivRound is x / 10^k rounded in mode, exactly.
func refDivRound(mode fn.RoundMode, x *big.Int, k int) *big.Int {
	p := pow10(k)
	q, r := new(big.Int).QuoRem(x, p, new(big.Int)) // toward zero
	switch mode {
	case fn.RoundHalfAway:
		if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(p) >= 0 {
			q.Add(q, big.NewInt(int64(x.Sign())))
		}
	case fn.RoundFloor:
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		}
	case fn.RoundCeil:
		if r.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

func refPow10(k int) float64 {
	if k > 308 {
		return math.Inf(1)
	}
	f, _ := strconv.ParseFloat("1e"+strconv.Itoa(k), 64)
	return f
}

func refRoundFloat(mode fn.RoundMode, x float64) float64 {
	switch mode {
	case fn.RoundTrunc:
		return math.Trunc(x)
	case fn.RoundFloor:
		return math.Floor(x)
	case fn.RoundCeil:
		return math.Ceil(x)
	}
	return math.Round(x)
}

func refRound(mode fn.RoundMode, t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	x := v[0]
	places := int64(0)
	if len(v) == 2 {
		places = v[1].Value().(int64)
	}
	switch {
	case x.DType().IsDecimal():
		s := x.DType().Scale()
		u := bigOf(x)
		if int(places) < s {
			k := s - int(places)
			if k > 80 {
				// beyond every 128-bit magnitude: round and trunc give 0
				return fitDecimal("round", big.NewInt(0), t)
			}
			q := refDivRound(mode, u, k)
			if places < 0 && q.Sign() != 0 {
				q.Mul(q, pow10(int(-places)))
			}
			u = q
		}
		return fitDecimal("round", u, t)
	case x.DType().IsInt():
		if places >= 0 {
			return x.WithDType(t), nil
		}
		if places < -40 {
			// 10^-places is beyond every 64-bit magnitude (its half too).
			return fitInt("round", big.NewInt(0), t)
		}
		q := refDivRound(mode, bigOf(x), int(-places))
		return fitInt("round", q.Mul(q, pow10(int(-places))), t)
	}
	f := x.Value().(float64)
	if t.PType() == dtype.F32 {
		f = float64(float32(f))
	}
	var r float64
	switch {
	case len(v) == 1:
		r = refRoundFloat(mode, f)
	case math.IsInf(f, 0) || math.IsNaN(f):
		r = f
	case places < 0:
		m := refPow10(int(-places))
		if r = refRoundFloat(mode, f/m) * m; math.IsInf(r, 0) || math.IsNaN(r) {
			r = 0
			if mode == fn.RoundTrunc {
				r = f
			}
		}
	default:
		m := refPow10(int(places))
		if r = refRoundFloat(mode, f*m) / m; math.IsInf(r, 0) || math.IsNaN(r) {
			r = f
		}
	}
	if t.PType() == dtype.F32 {
		r = float64(float32(r))
	}
	return mk(t, r), nil
}

// refExtreme is greatest or least: nulls skipped, NaN the greatest, the
// first of equal values.
func refExtreme(greatest bool, t dtype.DType, v []scalar.Scalar) scalar.Scalar {
	best := scalar.Null(t)
	for _, x := range v {
		if x.IsNull() {
			continue
		}
		if best.IsNull() {
			best = x
			continue
		}
		c, unordered := refOrder(x, best)
		if unordered {
			xn := math.IsNaN(x.Value().(float64))
			bn := math.IsNaN(best.Value().(float64))
			if greatest && xn && !bn || !greatest && bn && !xn {
				best = x
			}
			continue
		}
		if greatest && c > 0 || !greatest && c < 0 {
			best = x
		}
	}
	if best.IsNull() {
		return best
	}
	return best.WithDType(t)
}

func refBitwise(op string, t dtype.DType, a, b scalar.Scalar) (scalar.Scalar, error) {
	x, s := bigOf(a), bigOf(b)
	w := int64(t.PType().BitWidth())
	switch op {
	case "&":
		return fitInt(op, x.And(x, s), t)
	case "|":
		return fitInt(op, x.Or(x, s), t)
	case "^":
		return fitInt(op, x.Xor(x, s), t)
	case ">>":
		if s.Sign() < 0 || s.Cmp(big.NewInt(w)) >= 0 {
			return mk(t, zeroOf(t)), nil
		}
		return fitInt(op, x.Rsh(x, uint(s.Int64())), t)
	}
	switch {
	case s.Sign() < 0 || x.Sign() < 0:
		return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "<<: %s << %s", x, s)
	case x.Sign() == 0:
		return mk(t, zeroOf(t)), nil
	case s.Cmp(big.NewInt(w)) >= 0:
		return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "<<: %s << %s", x, s)
	}
	return fitInt(op, x.Lsh(x, uint(s.Int64())), t)
}

func zeroOf(t dtype.DType) any {
	if t.PType().IsSigned() {
		return int64(0)
	}
	return uint64(0)
}

// mathCall is a call of a numeric function (fn/math.go) of type t, or nil
// when none gives t: rounding with and without places, the f64 functions,
// sign, greatest and least, the bitwise operators, and those of
// fn/math_more.go.
func (g *gen) mathCall(t dtype.DType, depth int) *expr.Bound {
	i32 := dtype.Primitive(dtype.I32, true)
	places := func() *expr.Bound {
		if g.chance(0.5) {
			return expr.NewLiteral(mk(dtype.Primitive(dtype.I32, false), int64(g.intn(9)-5)))
		}
		return g.expr(i32, depth)
	}
	p := t.PType()
	switch k := g.intn(7); {
	case k == 6:
		return g.mathMoreCall(t, depth) // reference_math_more_test.go
	case k == 0 && (t.IsFloat() && p != dtype.F16 || t.IsInt() && (p.IsSigned() || p == dtype.U64)):
		f := []fn.Function{fn.Round, fn.Trunc}[g.intn(2)]
		if t.IsFloat() && g.chance(0.3) {
			f = []fn.Function{fn.Floor, fn.Ceil}[g.intn(2)]
			return g.call(f, g.expr(t, depth))
		}
		if g.chance(0.3) {
			return g.call(f, g.expr(t, depth))
		}
		return g.call(f, g.expr(t, depth), places())
	case k == 1 && p == dtype.F64:
		f := []fn.Function{fn.Sqrt, fn.Cbrt, fn.Exp, fn.Ln, fn.Log10, fn.Log2, fn.Log}[g.intn(7)]
		return g.call(f, g.expr(t, depth))
	case k == 2 && p == dtype.F64:
		f := []fn.Function{fn.Power, fn.Log}[g.intn(2)]
		return g.call(f, g.expr(t, depth), g.expr(t, depth))
	case k == 3 && p == dtype.I8:
		return g.call(fn.Sign, g.expr(g.orderedNumber(), depth))
	case k == 4:
		f := []fn.Function{fn.Greatest, fn.Least}[g.intn(2)]
		args := []*expr.Bound{g.expr(t, depth)}
		for range g.intn(3) {
			args = append(args, g.expr(t, depth))
		}
		return g.call(f, args...)
	case k == 5 && t.IsInt():
		if g.chance(0.2) {
			return g.call(fn.BitNot, g.expr(t, depth))
		}
		f := []fn.Function{fn.BitAnd, fn.BitOr, fn.BitXor, fn.ShiftLeft, fn.ShiftRight}[g.intn(5)]
		return g.call(f, g.expr(t, depth), g.expr(t, depth))
	}
	return nil
}

// orderedNumber is a numeric type of the generator's.
func (g *gen) orderedNumber() dtype.DType {
	for {
		if t := g.orderedType(); t.IsNumeric() {
			return t
		}
	}
}

// mathDecimal is round, trunc, floor or ceil of a decimal of type t, with
// literal places, cast back to t when the scale changed.
func (g *gen) mathDecimal(t dtype.DType, depth int) *expr.Bound {
	f := []fn.Function{fn.Round, fn.Trunc, fn.Floor, fn.Ceil}[g.intn(4)]
	if !g.ok(f.ID()) {
		return nil
	}
	args := []*expr.Bound{g.expr(t, depth)}
	if (f == fn.Round || f == fn.Trunc) && g.chance(0.7) {
		args = append(args, expr.NewLiteral(mk(dtype.Primitive(dtype.I32, false), int64(g.intn(45)-40))))
	}
	b := g.call(f, args...)
	if b.DType().EqualIgnoreNullability(t) {
		return b
	}
	if !g.ok("cast") {
		return nil
	}
	return g.call(fn.Cast(t.AsNonNullable()), b)
}
