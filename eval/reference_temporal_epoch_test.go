package eval

import (
	"math"
	"math/big"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of the functions of fn/temporal_epoch.go, row
// at a time through Go's time package (names and milliseconds) and
// math/big (the range checks).

func init() {
	refFuncs[fn.IDDayName] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, refTime(v[0]).Weekday().String()), nil
	}
	refFuncs[fn.IDMonthName] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, refTime(v[0]).Month().String()), nil
	}
	refFuncs[fn.IDEpochMs] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if v[0].DType().IsInt() {
			us := new(big.Int).Mul(big.NewInt(v[0].Value().(int64)), big.NewInt(1000))
			if !us.IsInt64() {
				return scalar.Scalar{}, refFail(errs.ErrOverflow, "epoch_ms(%d)", v[0].Value())
			}
			return mk(t, us.Int64()), nil
		}
		return refEpoch(t, v[0], 1000)
	}
	refFuncs[fn.IDEpochUs] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refEpoch(t, v[0], 1e6) }
	refFuncs[fn.IDEpochNs] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refEpoch(t, v[0], 1e9) }
	refFuncs[fn.IDToTimestamp] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		s := v[0].Value().(float64)
		if p := s * 1e6; math.IsNaN(p) || math.IsInf(p, 0) {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "to_timestamp(%v)", s)
		}
		// s · 10^6 as a double, rounded to an integer, half to even.
		us, _ := new(big.Float).SetFloat64(s * 1e6).Int(nil)
		frac := new(big.Float).Sub(big.NewFloat(s*1e6), new(big.Float).SetInt(us))
		switch c := frac.Cmp(big.NewFloat(0.5)); {
		case c > 0 || c == 0 && us.Bit(0) == 1:
			us.Add(us, big.NewInt(1))
		}
		switch c := frac.Cmp(big.NewFloat(-0.5)); {
		case c < 0 || c == 0 && us.Bit(0) == 1:
			us.Sub(us, big.NewInt(1))
		}
		if !us.IsInt64() {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "to_timestamp(%v)", s)
		}
		return mk(t, us.Int64()), nil
	}
}

// temporalEpochCall is a call of a function of fn/temporal_epoch.go of
// type t, or nil when none gives t: epoch_ms of a date, of epoch_ms or of
// to_timestamp (i64), and dayname or monthname of a date or of those
// timestamps (utf8).
func (g *gen) temporalEpochCall(t dtype.DType, depth int) *expr.Bound {
	stamp := func() *expr.Bound {
		if g.chance(0.5) {
			return g.call(fn.EpochMs, g.expr(dtype.Primitive(dtype.I64, true), depth))
		}
		return g.call(fn.ToTimestamp, g.expr(dtype.Primitive(dtype.F64, true), depth))
	}
	x := g.expr(dtype.Date(true), depth)
	if g.chance(0.5) {
		x = stamp()
	}
	switch {
	case t.IsInt() && t.PType() == dtype.I64:
		return g.call(fn.EpochMs, x)
	case t.IsUtf8():
		return g.call([]fn.Function{fn.DayName, fn.MonthName}[g.intn(2)], x)
	}
	return nil
}

// refRoundHalfAway is x rounded to the nearest integer, half away from
// zero.
func refRoundHalfAway(x *big.Rat) *big.Int {
	abs := new(big.Rat).Abs(x)
	q := new(big.Int).Quo(new(big.Int).Add(new(big.Int).Mul(abs.Num(), big.NewInt(2)), abs.Denom()), new(big.Int).Mul(abs.Denom(), big.NewInt(2)))
	if x.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// refEpoch is a date's or timestamp's ticks of 1/per second since 1970,
// computed exactly: DuckDB's rounding, half away from zero, a thousand at a
// time (nanoseconds to microseconds, then to milliseconds); an overflow
// where they do not fit an i64.
func refEpoch(t dtype.DType, v scalar.Scalar, per int64) (scalar.Scalar, error) {
	tm := refTime(v)
	ns := new(big.Int).Add(new(big.Int).Mul(big.NewInt(tm.Unix()), big.NewInt(1e9)), big.NewInt(int64(tm.Nanosecond())))
	from := int64(1e9) // the ticks the value holds: whole ones of its unit
	if v.DType().ExtID() != dtype.ExtDate {
		from = v.DType().Unit().PerSecond()
	}
	x := new(big.Rat).SetFrac(ns, big.NewInt(1e9/from))
	for k := from; k > per; k /= 1000 {
		x = new(big.Rat).SetFrac(refRoundHalfAway(new(big.Rat).Quo(x, big.NewRat(1000, 1))), big.NewInt(1))
	}
	if from < per {
		x.Mul(x, big.NewRat(per/from, 1))
	}
	r := refRoundHalfAway(x)
	if !r.IsInt64() {
		return scalar.Scalar{}, refFail(errs.ErrOverflow, "epoch ticks of %s", v)
	}
	return mk(t, r.Int64()), nil
}
