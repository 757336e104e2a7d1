package fn

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the arithmetic functions. The loops live in internal/kernels,
// written once with generics; the switches here pick the instantiation for
// the argument's physical type.

var (
	_ Kernel = arith{}
	_ Kernel = unaryArith{}
)

var arithOps = map[byte]kernels.ArithOp{
	'+': kernels.OpAdd, '-': kernels.OpSub, '*': kernels.OpMul, '/': kernels.OpDiv, '%': kernels.OpMod,
}

// Eval computes the operator over two numbers of one type (decimals: the
// binder's result type).
func (a arith) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(a, args); err != nil {
		return datum.Datum{}, err
	}
	l, r := args[0], args[1]
	op := arithOps[a.op]
	mem := ctx.Mem
	var res datum.Datum
	var err error
	t := l.DType()
	switch {
	case t.IsNull() || r.DType().IsNull():
		res, err = kernels.NullResult(ret, l.Len()), nil
	case t.IsDecimal():
		res, err = kernels.DecimalArith(mem, op, l, r, ret)
	case involvesInterval(a.op, t, r.DType()):
		res, err = intervalArithEval(mem, a.op, l, r, ret) // interval_kernel.go
	case isDate(t) || isDate(r.DType()):
		res, err = dateArithEval(mem, a.op, l, r, ret) // temporal_kernel.go
	case !t.IsPrimitive():
		err = fmt.Errorf("%s has no kernel for %s", a.id, t)
	default:
		switch t.PType() {
		case dtype.I8:
			res, err = kernels.IntArith[int8](mem, op, l, r, ret)
		case dtype.I16:
			res, err = kernels.IntArith[int16](mem, op, l, r, ret)
		case dtype.I32:
			res, err = kernels.IntArith[int32](mem, op, l, r, ret)
		case dtype.I64:
			res, err = kernels.IntArith[int64](mem, op, l, r, ret)
		case dtype.U8:
			res, err = kernels.IntArith[uint8](mem, op, l, r, ret)
		case dtype.U16:
			res, err = kernels.IntArith[uint16](mem, op, l, r, ret)
		case dtype.U32:
			res, err = kernels.IntArith[uint32](mem, op, l, r, ret)
		case dtype.U64:
			res, err = kernels.IntArith[uint64](mem, op, l, r, ret)
		case dtype.F16:
			res, err = kernels.F16Arith(mem, op, l, r, ret)
		case dtype.F32:
			res, err = kernels.FloatArith[float32](mem, op, l, r, ret)
		case dtype.F64:
			res, err = kernels.FloatArith[float64](mem, op, l, r, ret)
		default:
			err = fmt.Errorf("%s has no kernel for %s", a.id, t)
		}
	}
	return res, kernelError(a.id, err)
}

// Eval computes neg or abs.
func (u unaryArith) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(u, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	abs := u.id == IDAbs
	mem := ctx.Mem
	var res datum.Datum
	var err error
	t := x.DType()
	switch {
	case t.IsNull():
		res = kernels.NullResult(ret, x.Len())
	case t.IsDecimal():
		res, err = kernels.DecimalNeg(mem, abs, x, ret)
	case t.IsInterval() && !abs:
		res, err = kernels.IntervalNeg(mem, x, ret)
	case !t.IsPrimitive():
		err = fmt.Errorf("%s has no kernel for %s", u.id, t)
	default:
		switch t.PType() {
		case dtype.I8:
			res, err = kernels.IntNeg[int8](mem, abs, x, ret)
		case dtype.I16:
			res, err = kernels.IntNeg[int16](mem, abs, x, ret)
		case dtype.I32:
			res, err = kernels.IntNeg[int32](mem, abs, x, ret)
		case dtype.I64:
			res, err = kernels.IntNeg[int64](mem, abs, x, ret)
		case dtype.U8:
			res, err = kernels.IntNeg[uint8](mem, abs, x, ret)
		case dtype.U16:
			res, err = kernels.IntNeg[uint16](mem, abs, x, ret)
		case dtype.U32:
			res, err = kernels.IntNeg[uint32](mem, abs, x, ret)
		case dtype.U64:
			res, err = kernels.IntNeg[uint64](mem, abs, x, ret)
		case dtype.F16:
			res, err = kernels.F16Neg(mem, abs, x, ret)
		case dtype.F32:
			res, err = kernels.FloatNeg[float32](mem, abs, x, ret)
		case dtype.F64:
			res, err = kernels.FloatNeg[float64](mem, abs, x, ret)
		default:
			err = fmt.Errorf("%s has no kernel for %s", u.id, t)
		}
	}
	return res, kernelError(u.id, err)
}

// checkArgs rejects an argument list the kernel cannot read: a wrong count,
// or arguments of different lengths. (The binder prevents both; the check
// keeps a misuse from panicking.)
func checkArgs(f Function, args []datum.Datum) error {
	if err := CheckArity(f, len(args)); err != nil {
		return err
	}
	for i := 1; i < len(args); i++ {
		if args[i].Len() != args[0].Len() {
			return fmt.Errorf("%s: argument %d has %d rows, argument 1 has %d", f.ID(), i+1, args[i].Len(), args[0].Len())
		}
	}
	return nil
}

// kernelError names the function in a kernel's error: a row error becomes
// an *EvalError; other errors (misuse) get the function's name in front.
func kernelError(id string, err error) error {
	if err == nil {
		return nil
	}
	var re *kernels.RowError
	if errors.As(err, &re) {
		return &EvalError{Fn: id, Row: re.Row, Err: re.Err}
	}
	return fmt.Errorf("%s: %w", id, err)
}
