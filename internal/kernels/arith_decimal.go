package kernels

// Decimal arithmetic. The result type comes from the binder (fn's
// ReturnType): add, sub and mod bring both operands to the result's scale
// (the larger of the two), mul adds the scales, div gives f64. A result
// whose magnitude reaches 10^precision of the result type is an overflow,
// as is an operand that cannot be rescaled within 38 digits.

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// decArith is one decimal operation with its operand and result types.
type decArith struct {
	op         ArithOp
	lt, rt, rs dtype.DType // left, right and result types
	ka, kb     int         // scale increases of the operands
	prec       int         // the result's precision
}

func newDecArith(op ArithOp, lt, rt, ret dtype.DType) decArith {
	d := decArith{op: op, lt: lt, rt: rt, rs: ret, prec: ret.Precision()}
	if op != OpMul {
		d.ka, d.kb = ret.Scale()-lt.Scale(), ret.Scale()-rt.Scale()
	}
	return d
}

// one computes x op y for one row, or the error it raises.
func (d *decArith) one(x, y decimal128.Num) (decimal128.Num, error) {
	xs, ok1 := decScaleUp(x, d.ka)
	ys, ok2 := decScaleUp(y, d.kb)
	var v decimal128.Num
	ok := ok1 && ok2
	if ok {
		switch d.op {
		case OpAdd:
			v, ok = decAdd(xs, ys)
		case OpSub:
			v, ok = decSub(xs, ys)
		case OpMul:
			v, ok = decMul(xs, ys)
		default:
			if ys == (decimal128.Num{}) {
				return v, fmt.Errorf("%w: %s %% 0", errs.ErrDivideByZero, x.ToString(int32(d.lt.Scale())))
			}
			v = decRem(xs, ys)
		}
	}
	if !ok || !fitsPrecision(v, d.prec) {
		return v, fmt.Errorf("%w: %s %s %s does not fit %s", errs.ErrOverflow,
			x.ToString(int32(d.lt.Scale())), d.op, y.ToString(int32(d.rt.Scale())), d.rs.AsNonNullable())
	}
	return v, nil
}

// DecimalArith computes l op r over decimals; ret is the decimal result
// type (f64 for div).
func DecimalArith(mem memory.Allocator, op ArithOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	if op == OpDiv {
		return decimalDiv(mem, l, r, ret)
	}
	d := newDecArith(op, l.DType(), r.DType(), ret)
	a, b := FixedOf[decimal128.Num](l), FixedOf[decimal128.Num](r)
	if a.IsScalar && b.IsScalar {
		v, err := d.one(a.Scalar, b.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[decimal128.Num](mem, n)
	valid := bufferBitmap(validity)
	if d.ka == 0 && d.kb == 0 && (op == OpAdd || op == OpSub) {
		// Operands at the result's scale: a loop without a branch per
		// row, then a rescan only if some row (maybe a null) failed.
		if !decAddSub(op == OpSub, dst, a, b, d.prec, max(d.lt.Precision(), d.rt.Precision())) {
			return fixedResult(ret, n, validity, nulls, values), nil
		}
	}
	if op == OpMul && max(d.lt.Precision(), d.rt.Precision()) <= 18 {
		// Two numbers of at most 18 digits: the exact 128-bit product of
		// their low words has at most 36 digits and always fits.
		decMulSmall(dst, a, b)
		return fixedResult(ret, n, validity, nulls, values), nil
	}
	xs, ys, x, y := a.Vals, b.Vals, a.Scalar, b.Scalar
	for i := range dst {
		if xs != nil {
			x = xs[i]
		}
		if ys != nil {
			y = ys[i]
		}
		if !valid.Get(i) {
			dst[i] = decimal128.Num{}
			continue
		}
		v, err := d.one(x, y)
		if err != nil {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// decAddSub computes x + y (or x - y) for every row of two decimals of at
// most pin digits at the result's scale and precision p, and reports
// whether some row overflowed 128 bits or p digits.
func decAddSub(sub bool, dst []decimal128.Num, a, b Fixed[decimal128.Num], p, pin int) bool {
	if pin <= 18 {
		return decAddSubSmall(sub, dst, a, b, p)
	}
	mx, mn := decBounds[p][1], decBounds[p][0]
	mh, ml, nh, nl := mx.HighBits(), mx.LowBits(), mn.HighBits(), mn.LowBits()
	xs, ys, x, y := a.Vals, b.Vals, a.Scalar, b.Scalar
	var bad uint64
	for i := range dst {
		if xs != nil {
			x = xs[i]
		}
		if ys != nil {
			y = ys[i]
		}
		xh, xl, yh, yl := x.HighBits(), x.LowBits(), y.HighBits(), y.LowBits()
		var hi, of int64
		var lo uint64
		if sub {
			var c uint64
			lo, c = bits.Sub64(xl, yl, 0)
			hi = xh - yh - int64(c)
			of = (xh ^ yh) & (xh ^ hi)
		} else {
			var c uint64
			lo, c = bits.Add64(xl, yl, 0)
			hi = xh + yh + int64(c)
			of = (xh ^ hi) & (yh ^ hi)
		}
		over := b2u(hi > mh) | b2u(hi == mh)&b2u(lo > ml)
		under := b2u(hi < nh) | b2u(hi == nh)&b2u(lo < nl)
		bad |= uint64(of)>>63 | over | under
		dst[i] = decimal128.New(hi, lo)
	}
	return bad != 0
}

// decAddSubSmall is decAddSub for operands of at most 18 digits: they are
// their low words as int64, and their sum (below 2·10^18) cannot overflow
// int64.
func decAddSubSmall(sub bool, dst []decimal128.Num, a, b Fixed[decimal128.Num], p int) bool {
	lim := int64(math.MaxInt64) // a 19-digit result holds every such sum
	if p <= 18 {
		lim = int64(pow10[p].lo) - 1
	}
	xs, ys := a.Vals, b.Vals
	x, y := int64(a.Scalar.LowBits()), int64(b.Scalar.LowBits())
	if sub {
		y = -y
	}
	var bad uint64
	for i := range dst {
		if xs != nil {
			x = int64(xs[i].LowBits())
		}
		if ys != nil {
			y = int64(ys[i].LowBits())
			if sub {
				y = -y
			}
		}
		v := x + y
		bad |= b2u(v > lim) | b2u(v < -lim)
		dst[i] = decimal128.New(v>>63, uint64(v))
	}
	return bad != 0
}

// decMulSmall multiplies decimals of at most 18 digits: the signed 128-bit
// product of two int64 values, from the unsigned one corrected for the
// operands' signs.
func decMulSmall(dst []decimal128.Num, a, b Fixed[decimal128.Num]) {
	xs, ys := a.Vals, b.Vals
	x, y := a.Scalar.LowBits(), b.Scalar.LowBits()
	for i := range dst {
		if xs != nil {
			x = xs[i].LowBits()
		}
		if ys != nil {
			y = ys[i].LowBits()
		}
		hi, lo := bits.Mul64(x, y)
		hi -= uint64(int64(x)>>63) & y
		hi -= uint64(int64(y)>>63) & x
		dst[i] = decimal128.New(int64(hi), lo)
	}
}

// bufferBitmap views a validity buffer made here (offset 0); nil is all
// valid.
func bufferBitmap(b *memory.Buffer) Bitmap {
	if b == nil {
		return Bitmap{}
	}
	return Bitmap{Buf: b.Bytes()}
}

// decimalDiv divides two decimals into f64 (DuckDB's result type for
// decimal division). A zero divisor is an error, as for integers.
func decimalDiv(mem memory.Allocator, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	sa, sb := int32(l.DType().Scale()), int32(r.DType().Scale())
	a, b := FixedOf[decimal128.Num](l), FixedOf[decimal128.Num](r)
	one := func(x, y decimal128.Num) (float64, error) {
		if y == (decimal128.Num{}) {
			return 0, fmt.Errorf("%w: %s / 0", errs.ErrDivideByZero, x.ToString(sa))
		}
		return x.ToFloat64(sa) / y.ToFloat64(sb), nil
	}
	if a.IsScalar && b.IsScalar {
		v, err := one(a.Scalar, b.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[float64](mem, n)
	valid := bufferBitmap(validity)
	for i := range dst {
		if !valid.Get(i) {
			dst[i] = 0
			continue
		}
		v, err := one(a.At(i), b.At(i))
		if err != nil {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// DecimalNeg computes -x or |x| over decimals (never an overflow: the
// magnitude is unchanged).
func DecimalNeg(mem memory.Allocator, abs bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	one := func(v decimal128.Num) decimal128.Num {
		if abs && v.Sign() >= 0 {
			return v
		}
		r, _ := decNeg(v)
		return r
	}
	a := FixedOf[decimal128.Num](x)
	if a.IsScalar {
		return scalarResult(ret, one(a.Scalar), n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[decimal128.Num](mem, n)
	for i, v := range a.Vals {
		dst[i] = one(v)
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}
