package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the functions of math_more.go; the loops live in
// internal/kernels (math_int.go, and math.go for radians, degrees and
// even, which are floatMath).

var (
	_ Kernel = floatTest{}
	_ Kernel = gcdFn{}
	_ Kernel = factorialFn{}
	_ Kernel = bitCount{}

	_ ArgTyper = floatTest{}
	_ ArgTyper = gcdFn{}
	_ ArgTyper = factorialFn{}
	_ ArgTyper = bitCount{}
)

// Eval tests f32 or f64 values.
func (f floatTest) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x, op := args[0], kernels.FloatTest(f.test)
	switch t := x.DType(); {
	case t.IsNull():
		return kernels.NullResult(ret, x.Len()), nil
	case t.IsFloat() && t.PType() == dtype.F32:
		return kernels.FloatTestOf[float32](ctx.Mem, op, x, ret), nil
	case t.IsFloat() && t.PType() == dtype.F64:
		return kernels.FloatTestOf[float64](ctx.Mem, op, x, ret), nil
	default:
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.id, t)
	}
}

// Eval computes gcd or lcm over i64 or u64.
func (g gcdFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(g, args); err != nil {
		return datum.Datum{}, err
	}
	l, r := args[0], args[1]
	var (
		res datum.Datum
		err error
	)
	switch t := l.DType(); {
	case t.IsNull() || r.DType().IsNull():
		res = kernels.NullResult(ret, l.Len())
	case t.IsInt() && t.PType() == dtype.I64:
		res, err = kernels.IntGCD[int64](ctx.Mem, g.lcm, l, r, ret)
	case t.IsInt() && t.PType() == dtype.U64:
		res, err = kernels.IntGCD[uint64](ctx.Mem, g.lcm, l, r, ret)
	default:
		err = fmt.Errorf("%s has no kernel for %s", g.id, t)
	}
	return res, kernelError(g.id, err)
}

// Eval computes n! of i32 values as i64.
func (f factorialFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	switch t := x.DType(); {
	case t.IsNull():
		return kernels.NullResult(ret, x.Len()), nil
	case t.IsInt() && t.PType() == dtype.I32:
		res, err := kernels.Factorial(ctx.Mem, x, ret)
		return res, kernelError(f.id, err)
	default:
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.id, t)
	}
}

// Eval counts the set bits of integers.
func (b bitCount) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
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
		return kernels.BitCount[int8](mem, x, ret), nil
	case dtype.I16:
		return kernels.BitCount[int16](mem, x, ret), nil
	case dtype.I32:
		return kernels.BitCount[int32](mem, x, ret), nil
	case dtype.I64:
		return kernels.BitCount[int64](mem, x, ret), nil
	case dtype.U8:
		return kernels.BitCount[uint8](mem, x, ret), nil
	case dtype.U16:
		return kernels.BitCount[uint16](mem, x, ret), nil
	case dtype.U32:
		return kernels.BitCount[uint32](mem, x, ret), nil
	}
	return kernels.BitCount[uint64](mem, x, ret), nil
}
