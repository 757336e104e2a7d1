package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of is_null and is_not_null, read from the validity bitmap.
// (coalesce and fill_null choose which rows of their arguments to compute,
// so the eval package evaluates them itself.)

var _ Kernel = isNull{}

// Eval computes IS NULL or IS NOT NULL; the result is never null.
func (n isNull) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(n, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.IsNull(ctx.Mem, n.id == IDIsNotNull, args[0], ret)
	return res, kernelError(n.id, err)
}
