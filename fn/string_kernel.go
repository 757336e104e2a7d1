package fn

// Kernels of the string functions (string.go), over internal/kernels.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

var (
	_ Kernel = strFn{}
	_ Kernel = byteLength{}
	_ Kernel = concat{}
	_ Kernel = stringConcat{}
	_ Kernel = substring{}
)

// Eval evaluates lower, upper, length, starts_with, ends_with and contains.
func (s strFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	mem := ctxMem(ctx)
	var (
		out datum.Datum
		err error
	)
	switch s.id {
	case IDLower:
		out, err = kernels.CaseMap(mem, args[0], ret, false)
	case IDUpper:
		out, err = kernels.CaseMap(mem, args[0], ret, true)
	case IDLength:
		if args[0].DType().IsList() {
			out, err = kernels.ListLength(mem, args[0], ret)
		} else {
			out, err = kernels.Length(mem, args[0], ret)
		}
	case IDStartsWith:
		out, err = kernels.StringPredicate(mem, kernels.OpStartsWith, args[0], args[1], ret)
	case IDEndsWith:
		out, err = kernels.StringPredicate(mem, kernels.OpEndsWith, args[0], args[1], ret)
	case IDContains:
		out, err = kernels.StringPredicate(mem, kernels.OpContains, args[0], args[1], ret)
	default:
		return datum.Datum{}, fmt.Errorf("%s: no kernel", s.id)
	}
	return out, kernelError(s.ID(), err)
}

// Eval evaluates byte_length.
func (b byteLength) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(b, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ByteLength(ctxMem(ctx), args[0], ret)
	return out, kernelError(b.ID(), err)
}

// Eval evaluates concat.
func (c concat) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(c, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.Concat(ctxMem(ctx), args, ret)
	return out, kernelError(c.ID(), err)
}

// Eval evaluates a || b: concat's join, with the row null where either
// side is (null propagation is the kernel contract: the join of a null row
// is never looked at).
func (c stringConcat) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(c, args); err != nil {
		return datum.Datum{}, err
	}
	if ret.IsList() {
		out, err := kernels.ListConcat(ctxMem(ctx), args, true, ret)
		return out, kernelError(c.ID(), err)
	}
	out, err := kernels.ConcatStrict(ctxMem(ctx), args, ret)
	return out, kernelError(c.ID(), err)
}

// Eval evaluates substring.
func (s substring) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.Substring(ctxMem(ctx), args, ret)
	return out, kernelError(s.ID(), err)
}

// ctxMem is the allocator of ctx, Go's default when ctx has none.
func ctxMem(ctx *Context) memory.Allocator {
	if ctx == nil || ctx.Mem == nil {
		return memory.DefaultAllocator
	}
	return ctx.Mem
}
