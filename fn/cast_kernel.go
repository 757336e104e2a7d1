package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernel of cast and try_cast. The conversions agree with scalar.Cast row
// by row (internal/kernels/cast.go); a scalar argument is cast by
// scalar.Cast itself and stays a scalar.

var _ Kernel = CastFn{}

// Eval converts the argument to the cast's target type. cast fails at the
// first valid row that does not convert (errs.ErrInvalidCast); try_cast
// gives null there.
func (c CastFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(c, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Cast(ctx.Mem, args[0], ret, c.Try)
	return res, kernelError(c.ID(), err)
}
