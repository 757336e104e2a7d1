package kernels

// Decimal arithmetic. The result type comes from the binder (fn's
// ReturnType): add, sub and mod bring both operands to the result's scale
// (the larger of the two), mul adds the scales, div gives f64. A result
// whose magnitude reaches 10^precision of the result type is an overflow,
// as is an operand that cannot be rescaled within 38 digits.

import (
	"fmt"

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
	for i := range dst {
		if !valid.Get(i) {
			dst[i] = decimal128.Num{}
			continue
		}
		v, err := d.one(a.At(i), b.At(i))
		if err != nil {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
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
