package fn

// Kernels of list_length, list_contains and list_element (list.go), over
// internal/kernels. The lambda functions are evaluated by package eval.

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

var (
	_ Kernel = listLength{}
	_ Kernel = listContains{}
	_ Kernel = listElement{}
)

// Eval evaluates list_length.
func (l listLength) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	if args[0].DType().IsUtf8() {
		out, err := kernels.Length(ctxMem(ctx), args[0], ret) // len('abc')
		return out, kernelError(l.ID(), err)
	}
	out, err := kernels.ListLength(ctxMem(ctx), args[0], ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_contains with DuckDB's null rules: null when the list
// or the value is null, otherwise true or false; null elements never match.
func (l listContains) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListContains(ctxMem(ctx), args[0], args[1], ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_element.
func (l listElement) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	if args[0].DType().IsUtf8() { // 'abc'[2]; a list of strings is a list
		out, err := kernels.StringElement(ctxMem(ctx), args[0], args[1], ret)
		return out, kernelError(l.ID(), err)
	}
	out, err := kernels.ListElement(ctxMem(ctx), args[0], args[1], ret)
	return out, kernelError(l.ID(), err)
}
