package fn

// Kernels of get_item, pack, select and merge (struct.go), over
// internal/kernels. They share the argument arrays' buffers instead of
// copying them.

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

var (
	_ Kernel = GetItemFn{}
	_ Kernel = PackFn{}
	_ Kernel = SelectFn{}
	_ Kernel = merge{}
)

// Eval evaluates get_item: the field's child array, restricted to the
// struct's rows, null where the struct is null.
func (g GetItemFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(g, args); err != nil {
		return datum.Datum{}, err
	}
	t := args[0].DType()
	i := t.FieldIndex(g.Field)
	if i < 0 {
		return datum.Datum{}, argErr(g, 0, "has no field %q (its fields: %s)", g.Field, fieldNames(t))
	}
	out, err := kernels.GetItem(ctxMem(ctx), args[0], i, ret)
	return out, kernelError(g.ID(), err)
}

// Eval evaluates pack: a non-nullable struct of the arguments, scalars
// broadcast.
func (p PackFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(p, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.Pack(ctxMem(ctx), args, ret)
	return out, kernelError(p.ID(), err)
}

// Eval evaluates select: a struct of the chosen fields with the input's
// validity.
func (s SelectFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	t := args[0].DType()
	var keep []int
	if s.Exclude {
		drop := make(map[string]bool, len(s.Names))
		for _, n := range s.Names {
			drop[n] = true
		}
		for i, f := range t.Fields() {
			if !drop[f.Name] {
				keep = append(keep, i)
			}
		}
	} else {
		for _, n := range s.Names {
			i := t.FieldIndex(n)
			if i < 0 {
				return datum.Datum{}, argErr(s, 0, "has no field %q (its fields: %s)", n, fieldNames(t))
			}
			keep = append(keep, i)
		}
	}
	out, err := kernels.Select(ctxMem(ctx), args[0], keep, ret)
	return out, kernelError(s.ID(), err)
}

// Eval evaluates merge: every field of every argument, the last argument
// with a name winning; null where any argument is null.
func (m merge) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(m, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.Merge(ctxMem(ctx), args, ret)
	return out, kernelError(m.ID(), err)
}
