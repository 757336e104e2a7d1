package eval

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// list_reduce(xs, lambda acc, x[, i]: body[, init]) folds each list from
// the left. It is evaluated step by step, each step vectorized over the
// lists that still have an element: step k evaluates the body once, in an
// env of those rows, with acc the accumulators so far, x the k-th elements
// and i = k (1-based). A list leaves the active rows when its elements run
// out, with its accumulator as its result; the steps are as many as the
// longest list's length. acc starts as init, or as the first element (an
// empty list is then an error, as in DuckDB). A null list gives null.
func (ev *evaluator) listReduce(e *env, b *expr.Bound) (datum.Datum, error) {
	xs, err := ev.eval(e, b.Arg(0))
	if err != nil {
		return datum.Datum{}, err
	}
	defer xs.Release()
	if xs.IsScalar() && xs.Scalar().IsNull() {
		return datum.FromScalar(scalar.Null(b.DType()), e.n), nil
	}
	hasInit := len(b.Args()) > 2
	var init datum.Datum
	if hasInit {
		if init, err = ev.eval(e, b.Arg(2)); err != nil {
			return datum.Datum{}, err
		}
		defer init.Release()
	}
	xarr, err := materialize(ev.mem, xs, b.Arg(0).DType())
	if err != nil {
		return datum.Datum{}, err
	}
	defer xarr.Release()
	fl, err := flatten(ev.mem, xarr)
	if err != nil {
		return datum.Datum{}, err
	}
	defer fl.elems.Release()
	valid := kernels.RowValidityOf(xarr.Data()).Valid
	size := func(r int32) int { return int(fl.offs[r+1] - fl.offs[r]) }

	// The active rows and their first accumulators.
	k := 1 // elements consumed
	if hasInit {
		k = 0
	}
	active := make([]int32, 0, e.n)
	for r := range e.n {
		if !valid(r) {
			continue
		}
		if !hasInit && size(int32(r)) == 0 {
			return datum.Datum{}, callError(e, b, e.n, &fn.EvalError{Fn: fn.IDListReduce, Row: r,
				Err: fmt.Errorf("list_reduce of an empty list without an initial value: %w", errs.ErrInvalidArgument)})
		}
		active = append(active, int32(r))
	}
	var cur arrow.Array
	if hasInit {
		all, err := materialize(ev.mem, rebroadcast(init, e.n), b.Arg(1).ParamTypes()[0])
		if err != nil {
			return datum.Datum{}, err
		}
		cur, err = gather(ev.mem, all, active)
		all.Release()
		if err != nil {
			return datum.Datum{}, err
		}
	} else {
		first := make([]int32, len(active))
		for j, r := range active {
			first[j] = fl.offs[r]
		}
		g, err := gather(ev.mem, fl.elems, first)
		if err != nil {
			return datum.Datum{}, err
		}
		cur, err = relabel(g, dtype.ToArrow(b.Arg(1).ParamTypes()[0]))
		g.Release()
		if err != nil {
			return datum.Datum{}, err
		}
	}

	lam := b.Arg(1)
	var chunks []arrow.Array
	defer func() {
		for _, c := range chunks {
			c.Release()
		}
	}()
	final := make([]int32, e.n)
	for i := range final {
		final[i] = -1
	}
	base := int32(0)
	for {
		chunks = append(chunks, cur)
		var keep, rows, elems []int32
		for j, r := range active {
			if size(r) > k {
				keep = append(keep, int32(j))
				rows = append(rows, r)
				elems = append(elems, fl.offs[r]+int32(k))
			} else {
				final[r] = base + int32(j)
			}
		}
		base += int32(cur.Len())
		if len(rows) == 0 {
			break
		}
		next, err := ev.reduceStep(e, lam, cur, keep, fl.elems, elems, rows, k)
		if err != nil {
			return datum.Datum{}, err
		}
		cur, active = next, rows
		k++
	}
	all, err := array.Concatenate(chunks, zeroed.Allocator{Allocator: ev.mem})
	if err != nil {
		return datum.Datum{}, fmt.Errorf("eval: %w", err)
	}
	defer all.Release()
	out, err := gather(ev.mem, all, final)
	if err != nil {
		return datum.Datum{}, err
	}
	acc := b.Arg(1).ParamTypes()[0]
	if !acc.EqualIgnoreNullability(b.DType()) {
		// The accumulators to the (wider) result type.
		defer out.Release()
		c, err := fn.Cast(b.DType().AsNonNullable()).Eval(&ev.ctx, []datum.Datum{datum.FromArray(out, acc)}, b.DType())
		if err != nil {
			return datum.Datum{}, callError(e, b, e.n, err)
		}
		return c, nil
	}
	return datum.FromArray(out, b.DType()), nil
}

// reduceStep evaluates the body of list_reduce's lambda over the rows
// (of e) still active at step k: acc is cur at keep, x the elements at
// elems, the index k+1.
func (ev *evaluator) reduceStep(e *env, lam *expr.Bound, cur arrow.Array, keep []int32, elems arrow.Array, at, rows []int32, k int) (arrow.Array, error) {
	m := len(rows)
	acc, err := gather(ev.mem, cur, keep)
	if err != nil {
		return nil, err
	}
	x, err := gather(ev.mem, elems, at)
	if err != nil {
		acc.Release()
		return nil, err
	}
	child := e.child(m, rows, nil)
	defer child.release()
	params, types := lam.Params(), lam.ParamTypes()
	child.vars = append(child.vars,
		child.own(readyBinding(params[0], datum.FromArray(acc, types[0]))),
		child.own(readyBinding(params[1], datum.FromArray(x, types[1]))))
	if len(params) > 2 {
		child.vars = append(child.vars, child.own(readyBinding(params[2], datum.FromScalar(scalar.Int64(int64(k+1)), m))))
	}
	res, err := ev.eval(child, lam.Body())
	if err != nil {
		return nil, err
	}
	defer res.Release()
	if body := lam.Body().DType(); !body.EqualIgnoreNullability(types[0]) {
		// A wider body: back to the accumulator's type, checked.
		cast := fn.Cast(types[0].AsNonNullable())
		c, err := cast.Eval(&ev.ctx, []datum.Datum{rebroadcast(res, m)}, types[0].WithNullable(body.Nullable()))
		if err != nil {
			return nil, callError(child, lam.Body(), m, err)
		}
		defer c.Release()
		return materialize(ev.mem, c, types[0])
	}
	return materialize(ev.mem, rebroadcast(res, m), types[0])
}
