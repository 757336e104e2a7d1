package kernels

// Floating-point arithmetic: IEEE 754, never an error. Division by zero
// gives ±Inf or NaN, and % is fmod (the dividend's sign; NaN for a zero
// divisor). f16 values are widened to float32, computed, and rounded back:
// float32 holds the exact sum, difference and product of two f16 values,
// and the quotient to more than twice f16's precision, so the result is the
// correctly rounded f16 result.

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// FloatArith computes l op r over f32 or f64.
func FloatArith[T Float](mem memory.Allocator, op ArithOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	a, b := FixedOf[T](l), FixedOf[T](r)
	if a.IsScalar && b.IsScalar {
		return scalarResult(ret, floatOne(op, a.Scalar, b.Scalar), n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[T](mem, n)
	floatLoop(op, dst, a, b)
	return fixedResult(ret, n, validity, nulls, values), nil
}

func floatOne[T Float](op ArithOp, x, y T) T {
	switch op {
	case OpAdd:
		return x + y
	case OpSub:
		return x - y
	case OpMul:
		return x * y
	case OpDiv:
		return x / y
	}
	return T(math.Mod(float64(x), float64(y)))
}

func floatLoop[T Float](op ArithOp, dst []T, a, b Fixed[T]) {
	switch {
	case a.IsScalar:
		x, b := a.Scalar, b.Vals
		dst = dst[:len(b)]
		switch op {
		case OpAdd:
			for i, y := range b {
				dst[i] = x + y
			}
		case OpSub:
			for i, y := range b {
				dst[i] = x - y
			}
		case OpMul:
			for i, y := range b {
				dst[i] = x * y
			}
		case OpDiv:
			for i, y := range b {
				dst[i] = x / y
			}
		default:
			for i, y := range b {
				dst[i] = T(math.Mod(float64(x), float64(y)))
			}
		}
	case b.IsScalar:
		a, y := a.Vals, b.Scalar
		dst = dst[:len(a)]
		switch op {
		case OpAdd:
			for i, x := range a {
				dst[i] = x + y
			}
		case OpSub:
			for i, x := range a {
				dst[i] = x - y
			}
		case OpMul:
			for i, x := range a {
				dst[i] = x * y
			}
		case OpDiv:
			for i, x := range a {
				dst[i] = x / y
			}
		default:
			for i, x := range a {
				dst[i] = T(math.Mod(float64(x), float64(y)))
			}
		}
	default:
		a, b := a.Vals, b.Vals[:len(a.Vals)]
		dst = dst[:len(a)]
		switch op {
		case OpAdd:
			for i, x := range a {
				dst[i] = x + b[i]
			}
		case OpSub:
			for i, x := range a {
				dst[i] = x - b[i]
			}
		case OpMul:
			for i, x := range a {
				dst[i] = x * b[i]
			}
		case OpDiv:
			for i, x := range a {
				dst[i] = x / b[i]
			}
		default:
			for i, x := range a {
				dst[i] = T(math.Mod(float64(x), float64(b[i])))
			}
		}
	}
}

// FloatNeg computes -x or |x| over f32 or f64.
func FloatNeg[T Float](mem memory.Allocator, abs bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[T](x)
	if a.IsScalar {
		return scalarResult(ret, floatNegOne(abs, a.Scalar), n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[T](mem, n)
	dst = dst[:len(a.Vals)]
	if abs {
		for i, v := range a.Vals {
			dst[i] = T(math.Abs(float64(v)))
		}
	} else {
		for i, v := range a.Vals {
			dst[i] = -v
		}
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

func floatNegOne[T Float](abs bool, v T) T {
	if abs {
		return T(math.Abs(float64(v)))
	}
	return -v
}

// F16Arith computes l op r over f16 through float32.
func F16Arith(mem memory.Allocator, op ArithOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	a, b := FixedOf[half](l), FixedOf[half](r)
	if a.IsScalar && b.IsScalar {
		return scalarResult(ret, f16FromF32(floatOne(op, f16ToF32(a.Scalar), f16ToF32(b.Scalar))), n)
	}
	// Three simple passes: widen the columns to float32, compute with the
	// float32 loops, round the results to f16.
	fa, ab := widenHalves(mem, a)
	fb, bb := widenHalves(mem, b)
	defer releaseAll(ab, bb)
	tmp, f := newValues[float32](mem, n)
	defer tmp.Release()
	floatLoop(op, f, fa, fb)
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[half](mem, n)
	for i, v := range f {
		dst[i] = f16FromF32(v)
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// widenHalves is h as float32 values: a scalar stays one; a column is
// copied into a buffer from mem (returned for release; nil for a scalar).
func widenHalves(mem memory.Allocator, h Fixed[half]) (Fixed[float32], *memory.Buffer) {
	f := Fixed[float32]{IsScalar: h.IsScalar, Null: h.Null, Scalar: f16ToF32(h.Scalar), Valid: h.Valid}
	if h.IsScalar {
		return f, nil
	}
	buf, vals := newValues[float32](mem, len(h.Vals))
	widenF16(vals, h.Vals)
	f.Vals = vals
	return f, buf
}

// F16Neg computes -x or |x| over f16 by flipping or clearing the sign bit.
func F16Neg(mem memory.Allocator, abs bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[half](x)
	if a.IsScalar {
		return scalarResult(ret, f16NegOne(abs, a.Scalar), n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[half](mem, n)
	dst = dst[:len(a.Vals)]
	for i, v := range a.Vals {
		dst[i] = f16NegOne(abs, v)
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

func f16NegOne(abs bool, v half) half {
	if abs {
		return v &^ 0x8000
	}
	return v ^ 0x8000
}
