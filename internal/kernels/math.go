package kernels

// The numeric functions: rounding (round, trunc, floor, ceil, with or
// without a number of decimal places), the f64 functions (sqrt, cbrt, exp,
// ln, log10, log2, log, power, the trigonometric and hyperbolic ones,
// radians, degrees, even), sign, and the bitwise operators. The results
// are DuckDB's; package fn's doc (math.go) lists the types. radians(x) is
// x · (π / 180) and degrees(x) x · (180 / π), the constant folded first, as
// DuckDB computes them (x · π / 180 differs in the last bit for about a
// third of the values).
//
// Floats follow IEEE 754 and never fail: sqrt(-1) is NaN, ln(0) is -Inf.
// The logarithms are computed as DuckDB's C library gives them
// (math_log.go); sqrt, cbrt, exp and power are Go's math package's.
// Rounding a float to n places is DuckDB's formula, round(x · 10^n) / 10^n
// (x when that is not finite), and for n < 0 round(x / 10^-n) · 10^-n (0
// when not finite; x for trunc); Inf and NaN round to themselves; with 10^k correctly rounded (pow10Float) as C's pow gives
// it. f32 is computed in f64 and rounded back, as DuckDB does.
//
// Integer rounding to n < 0 places is exact (in 64-bit magnitudes), and a
// result that does not fit the type is errs.ErrOverflow. A shift left of a
// negative number, by a negative amount, or by the width or more (of a
// nonzero number) is errs.ErrInvalidArgument, and one whose result does not
// fit is errs.ErrOverflow, as DuckDB raises them.

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// RoundMode is how a rounding function rounds (the order of fn.RoundMode).
type RoundMode uint8

// The rounding modes.
const (
	RoundHalfAway RoundMode = iota // to nearest, ties away from zero
	RoundTrunc                     // toward zero
	RoundFloor                     // toward -Inf
	RoundCeil                      // toward +Inf
)

// MathOp is an f64 function (the order of fn.MathOp).
type MathOp uint8

// The f64 functions.
const (
	MathSqrt MathOp = iota
	MathCbrt
	MathExp
	MathLn
	MathLog10
	MathLog2
	MathLog   // log10(x); with two arguments ln(x) / ln(b)
	MathPower // x^y
	MathSin
	MathCos
	MathTan
	MathAsin
	MathAcos
	MathAtan
	MathAtan2 // atan2(y, x)
	MathSinh
	MathCosh
	MathTanh
	MathAsinh
	MathAcosh
	MathAtanh
	MathRadians // x · (π / 180)
	MathDegrees // x · (180 / π)
	MathEven    // away from zero to the next even integer
)

// trig are Go's math package's trigonometric and hyperbolic functions, by
// MathOp: IEEE results (NaN outside the domain, as DuckDB's C library
// gives them).
var trig = map[MathOp]func(float64) float64{
	MathSin: math.Sin, MathCos: math.Cos, MathTan: math.Tan,
	MathAsin: math.Asin, MathAcos: math.Acos, MathAtan: math.Atan,
	MathSinh: math.Sinh, MathCosh: math.Cosh, MathTanh: math.Tanh,
	MathAsinh: math.Asinh, MathAcosh: math.Acosh, MathAtanh: math.Atanh,
}

// BitOp is a bitwise operator (the order of fn.BitOp).
type BitOp uint8

// The bitwise operators.
const (
	BitAnd BitOp = iota
	BitOr
	BitXor
	BitShiftLeft
	BitShiftRight
)

// pow10Float is 10^k as a correctly rounded f64, k = 0…308 (as C's pow gives
// it; math.Pow10 multiplies two table entries and may be off by one ulp).
var pow10Float = func() [309]float64 {
	var t [309]float64
	for k := range t {
		t[k], _ = strconv.ParseFloat("1e"+strconv.Itoa(k), 64)
	}
	return t
}()

// pow10Of is 10^k for any k ≥ 0 (+Inf above 308).
func pow10Of(k int64) float64 {
	if k < int64(len(pow10Float)) {
		return pow10Float[k]
	}
	return math.Inf(1)
}

// mapUnary computes a one-argument function: a null argument gives a null
// result, a scalar a scalar, an array a new array with the argument's
// validity; loop fills dst from src (equal lengths).
func mapUnary[T, R any](mem memory.Allocator, x datum.Datum, ret dtype.DType, one func(T) R, loop func(dst []R, src []T)) datum.Datum {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n)
	}
	a := FixedOf[T](x)
	if a.IsScalar {
		d, err := scalarResult(ret, one(a.Scalar), n)
		if err != nil {
			panic(err) // a value of ret's Go type always makes a scalar
		}
		return d
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[R](mem, n)
	loop(dst[:len(a.Vals)], a.Vals)
	return fixedResult(ret, n, validity, nulls, values)
}

// FloatMath computes a one-argument f64 function (MathLog is log10).
func FloatMath(mem memory.Allocator, op MathOp, x datum.Datum, ret dtype.DType) datum.Datum {
	return mapUnary(mem, x, ret, func(v float64) float64 { return mathOne(op, v) }, func(dst, src []float64) {
		switch op {
		case MathSqrt:
			for i, v := range src {
				dst[i] = math.Sqrt(v)
			}
		case MathCbrt:
			for i, v := range src {
				dst[i] = math.Cbrt(v)
			}
		case MathExp:
			for i, v := range src {
				dst[i] = math.Exp(v)
			}
		case MathLn:
			for i, v := range src {
				dst[i] = Ln(v)
			}
		case MathLog10, MathLog:
			for i, v := range src {
				dst[i] = Log10(v)
			}
		case MathLog2:
			for i, v := range src {
				dst[i] = Log2(v)
			}
		case MathRadians:
			for i, v := range src {
				dst[i] = v * (math.Pi / 180)
			}
		case MathDegrees:
			for i, v := range src {
				dst[i] = v * (180 / math.Pi)
			}
		case MathEven:
			for i, v := range src {
				dst[i] = Even(v)
			}
		default:
			f := trig[op]
			for i, v := range src {
				dst[i] = f(v)
			}
		}
	})
}

func mathOne(op MathOp, v float64) float64 {
	switch op {
	case MathSqrt:
		return math.Sqrt(v)
	case MathCbrt:
		return math.Cbrt(v)
	case MathExp:
		return math.Exp(v)
	case MathLn:
		return Ln(v)
	case MathLog2:
		return Log2(v)
	case MathLog10, MathLog:
		return Log10(v)
	case MathRadians:
		return v * (math.Pi / 180)
	case MathDegrees:
		return v * (180 / math.Pi)
	case MathEven:
		return Even(v)
	}
	return trig[op](v)
}

// FloatMath2 computes a two-argument f64 function: power(x, y), or
// log(b, x) = log10(x) / log10(b) for MathLog (as DuckDB computes it).
func FloatMath2(mem memory.Allocator, op MathOp, l, r datum.Datum, ret dtype.DType) datum.Datum {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n)
	}
	a, b := FixedOf[float64](l), FixedOf[float64](r)
	one := math.Pow
	switch op {
	case MathLog:
		one = func(base, x float64) float64 { return Log10(x) / Log10(base) }
	case MathAtan2:
		one = math.Atan2
	}
	if a.IsScalar && b.IsScalar {
		d, _ := scalarResult(ret, one(a.Scalar, b.Scalar), n)
		return d
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[float64](mem, n)
	switch op {
	case MathLog:
		for i := range dst {
			dst[i] = Log10(b.At(i)) / Log10(a.At(i))
		}
	case MathAtan2:
		for i := range dst {
			dst[i] = math.Atan2(a.At(i), b.At(i))
		}
	default:
		for i := range dst {
			dst[i] = math.Pow(a.At(i), b.At(i))
		}
	}
	return fixedResult(ret, n, validity, nulls, values)
}

// roundFloat rounds v to an integer in mode.
func roundFloat(mode RoundMode, v float64) float64 {
	switch mode {
	case RoundTrunc:
		return math.Trunc(v)
	case RoundFloor:
		return math.Floor(v)
	case RoundCeil:
		return math.Ceil(v)
	}
	return math.Round(v)
}

// FloatRound rounds f32 or f64 values to integers (round, trunc, floor,
// ceil of one argument).
func FloatRound[T Float](mem memory.Allocator, mode RoundMode, x datum.Datum, ret dtype.DType) datum.Datum {
	return mapUnary(mem, x, ret, func(v T) T { return T(roundFloat(mode, float64(v))) }, func(dst, src []T) {
		switch mode {
		case RoundTrunc:
			for i, v := range src {
				dst[i] = T(math.Trunc(float64(v)))
			}
		case RoundFloor:
			for i, v := range src {
				dst[i] = T(math.Floor(float64(v)))
			}
		case RoundCeil:
			for i, v := range src {
				dst[i] = T(math.Ceil(float64(v)))
			}
		default:
			for i, v := range src {
				dst[i] = T(math.Round(float64(v)))
			}
		}
	})
}

// roundFloatDigits is DuckDB's round (or trunc) of v to n decimal places:
// Inf and NaN are themselves; when the formula overflows or gives NaN,
// round to n < 0 places gives 0, and otherwise v is returned.
func roundFloatDigits(mode RoundMode, v float64, n int32) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	if n < 0 {
		m := pow10Of(-int64(n))
		r := roundFloat(mode, v/m) * m
		if math.IsInf(r, 0) || math.IsNaN(r) {
			if mode == RoundTrunc {
				return v
			}
			return 0
		}
		return r
	}
	m := pow10Of(int64(n))
	r := roundFloat(mode, v*m) / m
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return v
	}
	return r
}

// FloatRoundDigits is round(x, n) or trunc(x, n) over f32 or f64 values
// and i32 places (a column or a scalar).
func FloatRoundDigits[T Float](mem memory.Allocator, mode RoundMode, x, digits datum.Datum, ret dtype.DType) datum.Datum {
	n := x.Len()
	if isNullDatum(x) || isNullDatum(digits) {
		return NullResult(ret, n)
	}
	d := FixedOf[int32](digits)
	if d.IsScalar {
		k := d.Scalar
		return mapUnary(mem, x, ret, func(v T) T { return T(roundFloatDigits(mode, float64(v), k)) }, func(dst, src []T) {
			for i, v := range src {
				dst[i] = T(roundFloatDigits(mode, float64(v), k))
			}
		})
	}
	a := FixedOf[T](x)
	validity, nulls := AndBitmaps(mem, n, a.Valid, d.Valid)
	values, dst := newValues[T](mem, n)
	for i, k := range d.Vals {
		dst[i] = T(roundFloatDigits(mode, float64(a.At(i)), k))
	}
	return fixedResult(ret, n, validity, nulls, values)
}

// pow10u is 10^k as a uint64, k = 0…19.
var pow10u = func() [20]uint64 {
	var t [20]uint64
	t[0] = 1
	for k := 1; k < len(t); k++ {
		t[k] = t[k-1] * 10
	}
	return t
}()

// roundIntDigits rounds x to n decimal places (a multiple of 10^-n when
// n < 0; x itself otherwise), exactly; ok is false when the result does
// not fit T.
func roundIntDigits[T Integer](mode RoundMode, x T, n int32) (T, bool) {
	if n >= 0 || x == 0 {
		return x, true
	}
	neg := x < 0
	m := uint64(x)
	if neg {
		m = -m // two's complement magnitude, MIN included
	}
	k := -int64(n)
	if k >= int64(len(pow10u)) {
		// 10^k exceeds every magnitude: the quotient is 0, and rounding
		// half away would need m ≥ 10^k / 2 > 2^64.
		return 0, true
	}
	p := pow10u[k]
	q := m / p
	if mode == RoundHalfAway && m-q*p >= p-(m-q*p) {
		q++
	}
	hi, r := bits.Mul64(q, p)
	lim := uint64(maxOf[T]())
	if neg {
		lim++ // |MIN| = MAX + 1
	}
	if hi != 0 || r > lim {
		return 0, false
	}
	if neg {
		return T(-r), true // wraps to MIN for |MIN|
	}
	return T(r), true
}

// IntRoundDigits is round(x, n) or trunc(x, n) over integers of type T
// and i32 places; a result that does not fit T is errs.ErrOverflow.
func IntRoundDigits[T Integer](mem memory.Allocator, mode RoundMode, x, digits datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) || isNullDatum(digits) {
		return NullResult(ret, n), nil
	}
	a, d := FixedOf[T](x), FixedOf[int32](digits)
	if a.IsScalar && d.IsScalar {
		v, ok := roundIntDigits(mode, a.Scalar, d.Scalar)
		if !ok && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: roundOverflow(a.Scalar, d.Scalar, ret)}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, d.Valid)
	values, dst := newValues[T](mem, n)
	valid := bufferBitmap(validity)
	if d.IsScalar && d.Scalar >= 0 {
		copy(dst, a.Vals)
		return fixedResult(ret, n, validity, nulls, values), nil
	}
	for i := range dst {
		x, k := a.At(i), d.At(i)
		v, ok := roundIntDigits(mode, x, k)
		if !ok && valid.Get(i) {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: roundOverflow(x, k, ret)}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

func roundOverflow[T Integer](x T, n int32, t dtype.DType) error {
	return fmt.Errorf("%w: %d rounded to %d places does not fit %s", errs.ErrOverflow, x, n, t.AsNonNullable())
}

// DecimalRound rounds decimals of scale s in mode to places decimal places
// (places ≥ s leaves them as they are; places < 0 rounds to a multiple of
// 10^-places). ret is the result type, whose scale is min(max(places, 0),
// s); a result of more digits than its precision is errs.ErrOverflow.
func DecimalRound(mem memory.Allocator, mode RoundMode, x datum.Datum, places int, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	s := x.DType().Scale()
	k := s - places // the digits dropped
	if places >= s {
		k = 0
	}
	up := 0 // the zeros put back (places < 0)
	if places < 0 {
		up = -places
	}
	prec := ret.Precision()
	one := func(v decimal128.Num) (decimal128.Num, error) {
		r, ok := decRound(mode, v, k, up)
		if !ok || !fitsPrecision(r, prec) {
			return r, fmt.Errorf("%w: %s rounded to %d places does not fit %s", errs.ErrOverflow, v.ToString(int32(s)), places, ret.AsNonNullable())
		}
		return r, nil
	}
	a := FixedOf[decimal128.Num](x)
	if a.IsScalar {
		v, err := one(a.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[decimal128.Num](mem, n)
	valid := ValidityOf(x.Array())
	for i, v := range a.Vals {
		r, err := one(v)
		if err != nil && valid.Get(i) {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = r
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// decRound drops k digits of v rounding in mode, then appends up zeros; ok
// is false on a 128-bit overflow.
func decRound(mode RoundMode, v decimal128.Num, k, up int) (decimal128.Num, bool) {
	if k > 0 {
		neg, m := magnitude(v)
		if k >= len(pow10) {
			// 10^k exceeds every 128-bit magnitude: the quotient is 0 and
			// the remainder m (never half of 10^k); only floor and ceil
			// of a nonzero value move to ∓1.
			q := u128{}
			if !m.isZero() && (mode == RoundFloor && neg || mode == RoundCeil && !neg) {
				q = u128{0, 1}
			}
			r, _ := signed(neg, q) // 0 or ±1
			if r == (decimal128.Num{}) {
				return r, true
			}
			if up >= len(pow10) {
				return r, false
			}
			return decScaleUp(r, up)
		}
		p := pow10[k]
		q, r := m.divmod(p)
		var bump bool
		switch mode {
		case RoundHalfAway:
			r2, _ := r.add(r)
			bump = !r2.less(p)
		case RoundFloor:
			bump = neg && !r.isZero()
		case RoundCeil:
			bump = !neg && !r.isZero()
		}
		if bump {
			q, _ = q.add(u128{0, 1})
		}
		var ok bool
		if v, ok = signed(neg, q); !ok {
			return v, false
		}
	}
	switch {
	case v == (decimal128.Num{}):
		return v, true
	case up >= len(pow10):
		return v, false
	}
	return decScaleUp(v, up)
}

// Sign is sign(x) over integers or floats: -1, 0 or 1 as i8 (0 for NaN).
func Sign[T Number](mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	return mapUnary(mem, x, ret, signOne[T], func(dst []int8, src []T) {
		for i, v := range src {
			dst[i] = signOne(v)
		}
	})
}

func signOne[T Number](v T) int8 {
	return int8(b2u(v > 0)) - int8(b2u(v < 0))
}

// DecimalSign is sign(x) over decimals.
func DecimalSign(mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	one := func(v decimal128.Num) int8 { return int8(v.Sign()) }
	return mapUnary(mem, x, ret, one, func(dst []int8, src []decimal128.Num) {
		for i, v := range src {
			dst[i] = int8(v.Sign())
		}
	})
}

// F16Sign is sign(x) over f16 bit patterns.
func F16Sign(mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	one := func(v half) int8 { return signOne(f16ToF32(v)) }
	return mapUnary(mem, x, ret, one, func(dst []int8, src []half) {
		for i, v := range src {
			dst[i] = signOne(f16ToF32(v))
		}
	})
}

// IntBitNot is ~x over integers.
func IntBitNot[T Integer](mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	return mapUnary(mem, x, ret, func(v T) T { return ^v }, func(dst, src []T) {
		for i, v := range src {
			dst[i] = ^v
		}
	})
}

// IntBitwise computes a op b over integers of type T: & | xor never fail;
// see the file's doc for the shifts.
func IntBitwise[T Integer](mem memory.Allocator, op BitOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	a, b := FixedOf[T](l), FixedOf[T](r)
	if a.IsScalar && b.IsScalar {
		v, err := bitOne(op, a.Scalar, b.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[T](mem, n)
	switch op {
	case BitAnd, BitOr, BitXor:
		bitLoop(op, dst, a, b)
	default:
		valid := bufferBitmap(validity)
		for i := range dst {
			v, err := bitOne(op, a.At(i), b.At(i))
			if err != nil && valid.Get(i) {
				releaseAll(validity, values)
				return datum.Datum{}, &RowError{Row: i, Err: err}
			}
			dst[i] = v
		}
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// bitLoop computes & | xor (commutative: a scalar on either side is the
// same loop).
func bitLoop[T Integer](op BitOp, dst []T, a, b Fixed[T]) {
	if a.IsScalar {
		a, b = b, a
	}
	if b.IsScalar {
		y := b.Scalar
		switch op {
		case BitAnd:
			for i, x := range a.Vals {
				dst[i] = x & y
			}
		case BitOr:
			for i, x := range a.Vals {
				dst[i] = x | y
			}
		default:
			for i, x := range a.Vals {
				dst[i] = x ^ y
			}
		}
		return
	}
	xs, ys := a.Vals, b.Vals[:len(a.Vals)]
	switch op {
	case BitAnd:
		for i, x := range xs {
			dst[i] = x & ys[i]
		}
	case BitOr:
		for i, x := range xs {
			dst[i] = x | ys[i]
		}
	default:
		for i, x := range xs {
			dst[i] = x ^ ys[i]
		}
	}
}

// bitOne is x op s for one row, with the error DuckDB raises.
func bitOne[T Integer](op BitOp, x, s T) (T, error) {
	w := T(bitWidth[T]())
	switch op {
	case BitAnd:
		return x & s, nil
	case BitOr:
		return x | s, nil
	case BitXor:
		return x ^ s, nil
	case BitShiftRight:
		if s < 0 || s >= w {
			return 0, nil
		}
		return x >> s, nil
	}
	switch {
	case s < 0:
		return 0, fmt.Errorf("%w: cannot left-shift by the negative number %d", errs.ErrInvalidArgument, s)
	case x < 0:
		return 0, fmt.Errorf("%w: cannot left-shift the negative number %d", errs.ErrInvalidArgument, x)
	case x == 0:
		return 0, nil
	case s >= w:
		return 0, fmt.Errorf("%w: left-shift by %d is out of range for %d bits", errs.ErrInvalidArgument, s, w)
	}
	if x > maxOf[T]()>>s {
		return 0, fmt.Errorf("%w: %d << %d", errs.ErrOverflow, x, s)
	}
	return x << s, nil
}
