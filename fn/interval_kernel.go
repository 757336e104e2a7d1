package fn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the interval arithmetic and functions; the loops live in
// internal/kernels/interval.go.

var (
	_ Kernel   = toInterval{}
	_ ArgTyper = toInterval{}
)

// intervalArithEval computes l op r where intervalArith typed it.
func intervalArithEval(mem memory.Allocator, op byte, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	lt, rt := l.DType(), r.DType()
	switch {
	case lt.IsInterval() && rt.IsInterval():
		return kernels.IntervalArith(mem, op == '-', l, r, ret)
	case (op == '*' || op == '/') && lt.IsInterval() && rt.IsFloat():
		return kernels.IntervalScale(mem, l, r, op == '/', ret)
	case op == '*' && rt.IsInterval() && lt.IsFloat():
		return kernels.IntervalScale(mem, r, l, false, ret)
	case op == '*' && lt.IsInterval():
		return kernels.IntervalMul(mem, l, r, ret)
	case op == '*':
		return kernels.IntervalMul(mem, r, l, ret)
	case isTimestamp(lt) && isTimestamp(rt):
		return kernels.TimestampDiff(mem, lt.Unit().PerSecond(), l, r, ret)
	case rt.IsInterval() && (isDate(lt) || isTimestamp(lt)):
		return kernels.AddInterval(mem, kernels.TemporalOf(lt), l, r, op == '-', ret)
	case lt.IsInterval() && (isDate(rt) || isTimestamp(rt)):
		return kernels.AddInterval(mem, kernels.TemporalOf(rt), r, l, false, ret)
	}
	return datum.Datum{}, fmt.Errorf("no interval kernel for %s %c %s", lt, op, rt)
}

// Eval makes n units of the function's interval.
func (t toInterval) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(t, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.ToInterval(ctx.Mem, t.months, t.days, t.nanos, args[0], ret)
	return res, kernelError(t.id, err)
}
