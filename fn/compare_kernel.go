package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the comparison functions. The dtype switch that picks a loop
// for each physical type is kernels' cmpFill, shared by all four kernels.

var (
	_ Kernel = compare{}
	_ Kernel = distinct{}
	_ Kernel = between{}
	_ Kernel = inList{}
)

var cmpOps = map[string]kernels.CmpOp{
	IDEq: kernels.CmpEq, IDNotEq: kernels.CmpNe, IDLt: kernels.CmpLt,
	IDLtEq: kernels.CmpLe, IDGt: kernels.CmpGt, IDGtEq: kernels.CmpGe,
}

// Eval compares two values of one type; null on either side gives null.
func (c compare) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(c, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Compare(ctx.Mem, cmpOps[c.id], args[0], args[1], ret)
	return res, kernelError(c.id, err)
}

// Eval computes IS [NOT] DISTINCT FROM; the result is never null.
func (d distinct) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(d, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Distinct(ctx.Mem, d.id == IDIsNotDistinctFrom, args[0], args[1], ret)
	return res, kernelError(d.id, err)
}

// Eval computes x BETWEEN lo AND hi.
func (b between) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(b, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Between(ctx.Mem, args[0], args[1], args[2], ret)
	return res, kernelError(b.id, err)
}

// Eval computes x IN (v1, …, vn).
func (l inList) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.InList(ctx.Mem, args[0], args[1:], ret)
	return res, kernelError(l.id, err)
}
