package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the boolean functions: Kleene AND and OR and NOT, word by
// word on the bitmaps (internal/kernels/boolean.go).

var (
	_ Kernel = logical{}
	_ Kernel = not{}
)

// Eval computes AND or OR under Kleene logic.
func (l logical) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Logic(ctx.Mem, l.id == IDOr, args[0], args[1], ret)
	return res, kernelError(l.id, err)
}

// Eval computes NOT.
func (n not) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(n, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Not(ctx.Mem, args[0], ret)
	return res, kernelError(n.id, err)
}
