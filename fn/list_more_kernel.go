package fn

// Kernels of the functions of list_more.go, over internal/kernels.
// list_reduce is evaluated by package eval.

import (
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/kernels"
)

var (
	_ Kernel = listValue{}
	_ Kernel = listSlice{}
	_ Kernel = listAgg{}
	_ Kernel = listSort{}
	_ Kernel = listRearrange{}
	_ Kernel = listHas{}
	_ Kernel = listPosition{}
	_ Kernel = listConcat{}
	_ Kernel = flatten{}
	_ Kernel = listAggregate{}

	_ ConstTyper = listAggregate{}

	_ HigherOrder          = listReduce{}
	_ OptionalLambdaParams = listReduce{}
	_ OptionalLambdaParams = listLambda{}
)

// Eval evaluates list_value. With no arguments it makes one row.
func (l listValue) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	n := 1
	if len(args) > 0 {
		n = args[0].Len()
	}
	out, err := kernels.ListValue(ctxMem(ctx), args, ret, n)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_slice on lists and strings.
func (l listSlice) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	var step *datum.Datum
	if len(args) > 3 {
		step = &args[3]
	}
	out, err := kernels.ListSlice(ctxMem(ctx), args[0], args[1], args[2], step, ret)
	return out, kernelError(l.ID(), err)
}

var listAggOps = map[string]kernels.ListAggOp{
	IDListSum: kernels.AggSum, IDListAvg: kernels.AggAvg, IDListMin: kernels.AggMin,
	IDListMax: kernels.AggMax, IDListCount: kernels.AggCount,
}

// Eval evaluates list_sum, list_avg, list_min, list_max and list_count.
func (l listAgg) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListAggregate(ctxMem(ctx), listAggOps[l.id], args[0], ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_sort and list_reverse_sort. The order arguments must
// be constants.
func (l listSort) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	desc, nullsFirst := l.id == IDListReverseSort, false
	for i, a := range args[1:] {
		if !a.IsScalar() {
			return datum.Datum{}, fmt.Errorf("%s: argument %d must be a constant: %w", l.id, i+2, errs.ErrInvalidArgument)
		}
		v, ok := a.Scalar().Value().(string)
		if !ok {
			return kernels.NullResult(ret, args[0].Len()), nil
		}
		switch w := strings.ToUpper(strings.TrimSpace(v)); {
		case l.id == IDListSort && i == 0 && (w == "ASC" || w == "DESC"):
			desc = w == "DESC"
		case (l.id == IDListReverseSort || i == 1) && (w == "NULLS FIRST" || w == "NULLS LAST"):
			nullsFirst = w == "NULLS FIRST"
		default:
			want := "'ASC' or 'DESC'"
			if l.id == IDListReverseSort || i == 1 {
				want = "'NULLS FIRST' or 'NULLS LAST'"
			}
			return datum.Datum{}, &EvalError{Fn: l.id, Row: -1, Err: fmt.Errorf("argument %d is %q, want %s: %w", i+2, v, want, errs.ErrInvalidArgument)}
		}
	}
	out, err := kernels.ListRearrange(ctxMem(ctx), kernels.ReorderSort, args[0], desc, nullsFirst, ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_reverse and list_distinct.
func (l listRearrange) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	op := kernels.ReorderReverse
	if l.id == IDListDistinct {
		op = kernels.ReorderDistinct
	}
	out, err := kernels.ListRearrange(ctxMem(ctx), op, args[0], false, false, ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_has_any and list_has_all.
func (l listHas) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListHas(ctxMem(ctx), args[0], args[1], l.id == IDListHasAll, ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_position.
func (l listPosition) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListPosition(ctxMem(ctx), args[0], args[1], ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_concat.
func (l listConcat) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListConcat(ctxMem(ctx), args, false, ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates flatten.
func (l flatten) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.Flatten(ctxMem(ctx), args[0], ret)
	return out, kernelError(l.ID(), err)
}

// Eval evaluates list_aggregate with the aggregate its name names.
func (l listAggregate) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	name, ok := args[1].Scalar().Value().(string)
	if !args[1].IsScalar() || !ok {
		return datum.Datum{}, fmt.Errorf("%s: argument 2 must be a literal name: %w", l.id, errs.ErrInvalidArgument)
	}
	f, err := l.aggregate(name)
	if err != nil {
		return datum.Datum{}, err
	}
	return f.(Kernel).Eval(ctx, args[:1], ret)
}
