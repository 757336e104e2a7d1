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

// The reference operations of the functions of fn/math_more.go, row at a
// time: the float tests and even by their definitions, gcd, lcm, factorial
// and bit_count through big.Int.

func init() {
	f64 := func(v scalar.Scalar) float64 { return v.Value().(float64) }
	refFuncs[fn.IDIsNaN] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, math.IsNaN(f64(v[0]))), nil
	}
	refFuncs[fn.IDIsInf] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, math.IsInf(f64(v[0]), 0)), nil
	}
	refFuncs[fn.IDIsFinite] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		x := f64(v[0])
		return mk(t, !math.IsNaN(x) && !math.IsInf(x, 0)), nil
	}
	refFuncs[fn.IDRadians] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, f64(v[0])*(math.Pi/180)), nil
	}
	refFuncs[fn.IDDegrees] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, f64(v[0])*(180/math.Pi)), nil
	}
	refFuncs[fn.IDEven] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		x := f64(v[0])
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return mk(t, x), nil
		}
		// The magnitude rounded up to an even integer, with x's sign.
		m := math.Ceil(math.Abs(x))
		if math.Mod(m, 2) == 1 {
			m++
		}
		return mk(t, math.Copysign(m, x)), nil
	}
	gcd := func(v []scalar.Scalar) *big.Int {
		a, b := new(big.Int).Abs(bigOf(v[0])), new(big.Int).Abs(bigOf(v[1]))
		return new(big.Int).GCD(nil, nil, a, b)
	}
	refFuncs[fn.IDGCD] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return fitInt("gcd", gcd(v), t)
	}
	refFuncs[fn.IDLCM] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		g := gcd(v)
		if g.Sign() == 0 {
			return fitInt("lcm", g, t)
		}
		p := new(big.Int).Abs(new(big.Int).Mul(bigOf(v[0]), bigOf(v[1])))
		return fitInt("lcm", p.Quo(p, g), t)
	}
	refFuncs[fn.IDFactorial] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		n := v[0].Value().(int64)
		if n < 0 {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "factorial of %d", n)
		}
		if n > 100 {
			return scalar.Scalar{}, refFail(errs.ErrOverflow, "factorial(%d)", n)
		}
		return fitInt("factorial", new(big.Int).MulRange(1, n), t)
	}
	refFuncs[fn.IDBitCount] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		// The value modulo 2^width is its two's complement bit pattern.
		w := v[0].DType().PType().BitWidth()
		x := new(big.Int).Mod(bigOf(v[0]), new(big.Int).Lsh(big.NewInt(1), uint(w)))
		ones := 0
		for i := range x.BitLen() {
			ones += int(x.Bit(i))
		}
		return mk(t, int64(ones)), nil
	}
}

// mathMoreCall is a call of a function of fn/math_more.go of type t, or nil
// when none gives t: radians, degrees, even (f64), gcd, lcm, factorial
// (i64, u64 for gcd and lcm too) and bit_count (i8).
func (g *gen) mathMoreCall(t dtype.DType, depth int) *expr.Bound {
	switch p := t.PType(); {
	case p == dtype.F64:
		f := []fn.Function{fn.Radians, fn.Degrees, fn.Even}[g.intn(3)]
		return g.call(f, g.expr(t, depth))
	case p == dtype.I64 || p == dtype.U64:
		if p == dtype.I64 && g.chance(0.3) {
			return g.call(fn.Factorial, g.expr(dtype.Primitive(dtype.I32, true), depth))
		}
		f := []fn.Function{fn.GCD, fn.LCM}[g.intn(2)]
		return g.call(f, g.expr(t, depth), g.expr(t, depth))
	case p == dtype.I8:
		it := []string{"i8", "i16", "i32", "i64", "u8", "u32", "u64"}[g.intn(7)]
		return g.call(fn.BitCount, g.expr(mustParse(it+"?"), depth))
	}
	return nil
}

// floatTestCall is isnan, isinf or isfinite of an f32 or f64 expression.
func (g *gen) floatTestCall(depth int) *expr.Bound {
	f := []fn.Function{fn.IsNaN, fn.IsInf, fn.IsFinite}[g.intn(3)]
	return g.call(f, g.expr(mustParse([]string{"f32?", "f64?"}[g.intn(2)]), depth))
}
