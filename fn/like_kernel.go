package fn

// Kernel of LIKE and ILIKE (like.go), over internal/kernels.

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

var _ Kernel = LikeFn{}

// Eval evaluates `value [NOT] [I]LIKE pattern`. A scalar pattern is
// compiled once for all rows. A pattern ending in a lone escape character
// (`\` unless ESCAPE names another) is an *EvalError wrapping errs.ErrInvalidArgument at the first row
// that uses it.
func (l LikeFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	esc := int(kernels.LikeEscape)
	switch {
	case l.Escape == NoLikeEscape:
		esc = kernels.NoLikeEscape
	case l.Escape != 0:
		esc = int(l.Escape)
	}
	out, err := kernels.LikeEscaped(ctxMem(ctx), args[0], args[1], l.Negated, l.CaseInsensitive, esc, ret)
	return out, kernelError(l.ID(), err)
}
