package fn

import (
	"fmt"
	"math"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// Kernels of the numeric functions. The loops live in internal/kernels
// (math.go, math_extreme.go); the switches here pick the instantiation for
// the argument's physical type.

var (
	_ Kernel = rounding{}
	_ Kernel = floatMath{}
	_ Kernel = signFn{}
	_ Kernel = piFn{}
	_ Kernel = extreme{}
	_ Kernel = bitwise{}
	_ Kernel = bitNot{}

	_ ArgTyper   = rounding{}
	_ ArgTyper   = floatMath{}
	_ ArgTyper   = signFn{}
	_ ArgTyper   = bitNot{}
	_ ConstTyper = rounding{}
)

// Eval rounds integers, floats or decimals; the places, when given, are
// i32 (a literal for decimals: the scale of ret).
func (r rounding) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(r, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	mode := kernels.RoundMode(r.mode)
	mem := ctx.Mem
	t := x.DType()
	var digits datum.Datum
	hasDigits := len(args) == 2
	if hasDigits {
		digits = args[1]
		if digits.DType().IsNull() || digits.IsScalar() && digits.Scalar().IsNull() {
			return kernels.NullResult(ret, x.Len()), nil
		}
	}
	var res datum.Datum
	var err error
	switch {
	case t.IsNull():
		res = kernels.NullResult(ret, x.Len())
	case t.IsDecimal():
		places := 0
		if hasDigits {
			if !digits.IsScalar() {
				return datum.Datum{}, fmt.Errorf("%s: the places of a decimal must be a constant", r.id)
			}
			places = int(digits.Scalar().Value().(int64))
		}
		res, err = kernels.DecimalRound(mem, mode, x, places, ret)
	case t.IsInt():
		if !hasDigits {
			// Rounding an integer to an integer changes nothing.
			return x.Retain(), nil
		}
		switch t.PType() {
		case dtype.I8:
			res, err = kernels.IntRoundDigits[int8](mem, mode, x, digits, ret)
		case dtype.I16:
			res, err = kernels.IntRoundDigits[int16](mem, mode, x, digits, ret)
		case dtype.I32:
			res, err = kernels.IntRoundDigits[int32](mem, mode, x, digits, ret)
		case dtype.I64:
			res, err = kernels.IntRoundDigits[int64](mem, mode, x, digits, ret)
		case dtype.U8:
			res, err = kernels.IntRoundDigits[uint8](mem, mode, x, digits, ret)
		case dtype.U16:
			res, err = kernels.IntRoundDigits[uint16](mem, mode, x, digits, ret)
		case dtype.U32:
			res, err = kernels.IntRoundDigits[uint32](mem, mode, x, digits, ret)
		case dtype.U64:
			res, err = kernels.IntRoundDigits[uint64](mem, mode, x, digits, ret)
		}
	case t.IsFloat() && t.PType() == dtype.F32:
		if hasDigits {
			res = kernels.FloatRoundDigits[float32](mem, mode, x, digits, ret)
		} else {
			res = kernels.FloatRound[float32](mem, mode, x, ret)
		}
	case t.IsFloat() && t.PType() == dtype.F64:
		if hasDigits {
			res = kernels.FloatRoundDigits[float64](mem, mode, x, digits, ret)
		} else {
			res = kernels.FloatRound[float64](mem, mode, x, ret)
		}
	default:
		err = fmt.Errorf("%s has no kernel for %s", r.id, t)
	}
	return res, kernelError(r.id, err)
}

// Eval computes the f64 function.
func (m floatMath) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(m, args); err != nil {
		return datum.Datum{}, err
	}
	for _, a := range args {
		if !a.DType().IsNull() && !(a.DType().IsFloat() && a.DType().PType() == dtype.F64) {
			return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", m.id, a.DType())
		}
	}
	if len(args) == 2 {
		return kernels.FloatMath2(ctx.Mem, kernels.MathOp(m.op), args[0], args[1], ret), nil
	}
	return kernels.FloatMath(ctx.Mem, kernels.MathOp(m.op), args[0], ret), nil
}

// Eval computes sign over any number.
func (s signFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	x, mem := args[0], ctx.Mem
	t := x.DType()
	switch {
	case t.IsNull():
		return kernels.NullResult(ret, x.Len()), nil
	case t.IsDecimal():
		return kernels.DecimalSign(mem, x, ret), nil
	case !t.IsPrimitive():
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", s.id, t)
	}
	switch t.PType() {
	case dtype.I8:
		return kernels.Sign[int8](mem, x, ret), nil
	case dtype.I16:
		return kernels.Sign[int16](mem, x, ret), nil
	case dtype.I32:
		return kernels.Sign[int32](mem, x, ret), nil
	case dtype.I64:
		return kernels.Sign[int64](mem, x, ret), nil
	case dtype.U8:
		return kernels.Sign[uint8](mem, x, ret), nil
	case dtype.U16:
		return kernels.Sign[uint16](mem, x, ret), nil
	case dtype.U32:
		return kernels.Sign[uint32](mem, x, ret), nil
	case dtype.U64:
		return kernels.Sign[uint64](mem, x, ret), nil
	case dtype.F16:
		return kernels.F16Sign(mem, x, ret), nil
	case dtype.F32:
		return kernels.Sign[float32](mem, x, ret), nil
	case dtype.F64:
		return kernels.Sign[float64](mem, x, ret), nil
	}
	return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", s.id, t)
}

// Eval is π, the f64 nearest it. With no arguments the row count is
// unknown here: the result is a scalar of one row, which the evaluator
// broadcasts.
func (p piFn) Eval(_ *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(p, args); err != nil {
		return datum.Datum{}, err
	}
	s, err := scalar.New(ret, math.Pi)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("%s: %w", p.id, err)
	}
	return datum.FromScalar(s, 1), nil
}

// Eval picks the greatest (or least) argument per row.
func (e extreme) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(e, args); err != nil {
		return datum.Datum{}, err
	}
	mem, g := ctx.Mem, e.greatest
	t := ret
	var res datum.Datum
	var err error
	switch {
	case t.IsNull():
		res = kernels.NullResult(ret, args[0].Len())
	case t.IsDecimal():
		res, err = kernels.DecimalExtreme(mem, g, args, ret)
	case t.IsUtf8() || t.IsBinary():
		res, err = kernels.BytesExtreme(mem, g, args, ret)
	case t.IsBool():
		res, err = kernels.BoolExtreme(mem, g, args, ret)
	case t.IsTemporal():
		switch dtype.ToArrow(t).(interface{ BitWidth() int }).BitWidth() {
		case 32:
			res, err = kernels.TemporalExtreme[int32](mem, g, args, ret)
		default:
			res, err = kernels.TemporalExtreme[int64](mem, g, args, ret)
		}
	case t.IsPrimitive():
		switch t.PType() {
		case dtype.I8:
			res, err = kernels.NumberExtreme[int8](mem, g, args, ret)
		case dtype.I16:
			res, err = kernels.NumberExtreme[int16](mem, g, args, ret)
		case dtype.I32:
			res, err = kernels.NumberExtreme[int32](mem, g, args, ret)
		case dtype.I64:
			res, err = kernels.NumberExtreme[int64](mem, g, args, ret)
		case dtype.U8:
			res, err = kernels.NumberExtreme[uint8](mem, g, args, ret)
		case dtype.U16:
			res, err = kernels.NumberExtreme[uint16](mem, g, args, ret)
		case dtype.U32:
			res, err = kernels.NumberExtreme[uint32](mem, g, args, ret)
		case dtype.U64:
			res, err = kernels.NumberExtreme[uint64](mem, g, args, ret)
		case dtype.F16:
			res, err = kernels.F16Extreme(mem, g, args, ret)
		case dtype.F32:
			res, err = kernels.NumberExtreme[float32](mem, g, args, ret)
		case dtype.F64:
			res, err = kernels.NumberExtreme[float64](mem, g, args, ret)
		}
	default:
		err = fmt.Errorf("%s has no kernel for %s", e.id, t)
	}
	return res, kernelError(e.id, err)
}

// Eval computes the bitwise operator over integers of one type.
func (b bitwise) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(b, args); err != nil {
		return datum.Datum{}, err
	}
	l, r, mem := args[0], args[1], ctx.Mem
	op := kernels.BitOp(b.op)
	t := l.DType()
	var res datum.Datum
	var err error
	switch {
	case t.IsNull() || r.DType().IsNull():
		res = kernels.NullResult(ret, l.Len())
	case !t.IsInt():
		err = fmt.Errorf("%s has no kernel for %s", b.id, t)
	default:
		switch t.PType() {
		case dtype.I8:
			res, err = kernels.IntBitwise[int8](mem, op, l, r, ret)
		case dtype.I16:
			res, err = kernels.IntBitwise[int16](mem, op, l, r, ret)
		case dtype.I32:
			res, err = kernels.IntBitwise[int32](mem, op, l, r, ret)
		case dtype.I64:
			res, err = kernels.IntBitwise[int64](mem, op, l, r, ret)
		case dtype.U8:
			res, err = kernels.IntBitwise[uint8](mem, op, l, r, ret)
		case dtype.U16:
			res, err = kernels.IntBitwise[uint16](mem, op, l, r, ret)
		case dtype.U32:
			res, err = kernels.IntBitwise[uint32](mem, op, l, r, ret)
		case dtype.U64:
			res, err = kernels.IntBitwise[uint64](mem, op, l, r, ret)
		}
	}
	return res, kernelError(b.id, err)
}

// Eval computes ~x.
func (b bitNot) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(b, args); err != nil {
		return datum.Datum{}, err
	}
	x, mem := args[0], ctx.Mem
	t := x.DType()
	if t.IsNull() {
		return kernels.NullResult(ret, x.Len()), nil
	}
	if !t.IsInt() {
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", b.id, t)
	}
	switch t.PType() {
	case dtype.I8:
		return kernels.IntBitNot[int8](mem, x, ret), nil
	case dtype.I16:
		return kernels.IntBitNot[int16](mem, x, ret), nil
	case dtype.I32:
		return kernels.IntBitNot[int32](mem, x, ret), nil
	case dtype.I64:
		return kernels.IntBitNot[int64](mem, x, ret), nil
	case dtype.U8:
		return kernels.IntBitNot[uint8](mem, x, ret), nil
	case dtype.U16:
		return kernels.IntBitNot[uint16](mem, x, ret), nil
	case dtype.U32:
		return kernels.IntBitNot[uint32](mem, x, ret), nil
	}
	return kernels.IntBitNot[uint64](mem, x, ret), nil
}
