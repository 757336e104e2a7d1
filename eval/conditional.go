package eval

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The lazy conditionals: case_when and coalesce (fill_null) evaluate an
// argument only over the rows that need it. Each such evaluation runs in a
// subset env, a child of the call's env; the values it produces ("parts")
// are merged back into one value of the call's rows at the end.

// part is a value computed over some rows of an env.
type part struct {
	d    datum.Datum
	rows []int32 // the env rows it covers, in order; nil: all of them
}

// caseWhen evaluates CASE WHEN c1 THEN v1 … [ELSE e] END. Condition i runs
// over the rows no earlier condition took; value i only over the rows
// whose condition i is true (null counts as false); ELSE over the rows
// left. Rows nothing takes are null.
func (ev *evaluator) caseWhen(e *env, b *expr.Bound, cw fn.CaseWhenFn) (datum.Datum, error) {
	args := b.Args()
	var parts []part
	defer func() { releaseParts(parts) }()
	rem := all(e.n) // the rows of e no branch has taken
	cur := e        // an env over rem
	defer func() {
		if cur != e {
			cur.release()
		}
	}()
	for i := range cw.Branches(len(args)) {
		cond, err := ev.eval(cur, args[2*i])
		if err != nil {
			return datum.Datum{}, err
		}
		taken, rest, allTrue := splitTrue(cond)
		cond.Release()
		if allTrue { // every remaining row takes this branch
			v, err := ev.eval(cur, args[2*i+1])
			if err != nil {
				return datum.Datum{}, err
			}
			parts = append(parts, part{v, rem.list})
			rem = rows{}
			break
		}
		if len(taken) == 0 {
			continue
		}
		picked := rem.compose(taken)
		v, err := ev.evalOver(e, picked, args[2*i+1])
		if err != nil {
			return datum.Datum{}, err
		}
		parts = append(parts, part{v, picked.list})
		rem = rem.compose(rest)
		if cur != e {
			cur.release()
		}
		cur = e.child(rem.n, rem.list, nil)
	}
	if cw.HasElse && rem.n > 0 {
		v, err := ev.eval(cur, args[len(args)-1])
		if err != nil {
			return datum.Datum{}, err
		}
		parts = append(parts, part{v, rem.list})
	}
	out, err := ev.merge(e, parts, b.DType())
	parts = nil
	return out, err
}

// coalesce evaluates coalesce(a1, …, an) and fill_null(a1, a2): argument
// i+1 runs only over the rows where argument i is null.
func (ev *evaluator) coalesce(e *env, b *expr.Bound) (datum.Datum, error) {
	args := b.Args()
	var parts []part
	defer func() { releaseParts(parts) }()
	rem := all(e.n)
	cur := e
	defer func() {
		if cur != e {
			cur.release()
		}
	}()
	for i, a := range args {
		v, err := ev.eval(cur, a)
		if err != nil {
			return datum.Datum{}, err
		}
		if i == len(args)-1 {
			parts = append(parts, part{v, rem.list})
			break
		}
		if v.IsScalar() {
			if v.Scalar().IsNull() {
				continue // every row is still null: the next argument runs over the same env
			}
			parts = append(parts, part{v, rem.list})
			break
		}
		parts = append(parts, part{v, rem.list})
		nulls := nullRows(v.Array())
		if len(nulls) == 0 {
			break
		}
		rem = rem.compose(nulls)
		if cur != e {
			cur.release()
		}
		cur = e.child(rem.n, rem.list, nil)
	}
	out, err := ev.merge(e, parts, b.DType())
	parts = nil
	return out, err
}

// evalOver evaluates b over the rows list of e, in a subset env.
func (ev *evaluator) evalOver(e *env, r rows, b *expr.Bound) (datum.Datum, error) {
	sub := e.child(r.n, r.list, nil)
	defer sub.release()
	return ev.eval(sub, b)
}

// merge combines parts into one value over e's rows: a row takes its value
// from the last part that covers it, and is null when none does. It takes
// over the parts' references.
func (ev *evaluator) merge(e *env, parts []part, t dtype.DType) (datum.Datum, error) {
	defer releaseParts(parts)
	switch {
	case len(parts) == 0:
		return datum.FromScalar(scalar.Null(t), e.n), nil
	case len(parts) == 1 && parts[0].rows == nil:
		d := parts[0].d.Retain()
		if d.IsScalar() {
			return d, nil
		}
		return datum.FromArray(d.Array(), t), nil
	}
	arrs := make([]arrow.Array, 0, len(parts))
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	pos := make([]int32, e.n)
	for i := range pos {
		pos[i] = -1
	}
	base := 0
	for _, p := range parts {
		arr, err := materialize(ev.mem, p.d, t)
		if err != nil {
			return datum.Datum{}, err
		}
		arrs = append(arrs, arr)
		if p.rows == nil {
			for j := range p.d.Len() {
				pos[j] = int32(base + j)
			}
		} else {
			for j, r := range p.rows {
				pos[r] = int32(base + j)
			}
		}
		base += p.d.Len()
	}
	all, err := array.Concatenate(arrs, ev.mem)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("eval: merging branches of type %s: %w", t, err)
	}
	defer all.Release()
	out, err := gather(ev.mem, all, pos)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, t), nil
}

func releaseParts(parts []part) {
	for _, p := range parts {
		p.d.Release()
	}
}

// rows is a set of rows of an env: the first n rows when list is nil,
// otherwise the rows listed (in increasing order).
type rows struct {
	n    int
	list []int32
}

func all(n int) rows { return rows{n: n} }

// compose is the rows of r picked by idx (indices into r).
func (r rows) compose(idx []int32) rows {
	if r.list == nil {
		return rows{n: len(idx), list: idx}
	}
	out := make([]int32, len(idx))
	for i, j := range idx {
		out[i] = r.list[j]
	}
	return rows{n: len(out), list: out}
}

// splitTrue splits the rows of a boolean datum into those that are true
// and the others (false or null). A scalar gives all rows to one side:
// allTrue, or neither list.
func splitTrue(d datum.Datum) (taken, rest []int32, allTrue bool) {
	if d.IsScalar() {
		v, ok := d.Scalar().Value().(bool)
		return nil, nil, ok && v
	}
	n := d.Len()
	ad := d.Array().Data()
	vals := bufferBytes(ad, 1)
	valid := validityOf(ad)
	off := ad.Offset()
	taken = make([]int32, 0, n)
	rest = make([]int32, 0, n)
	for i := range n {
		if valid.valid(i) && bitutil.BitIsSet(vals, off+i) {
			taken = append(taken, int32(i))
		} else {
			rest = append(rest, int32(i))
		}
	}
	return taken, rest, len(rest) == 0
}

// nullRows lists the null rows of arr.
func nullRows(arr arrow.Array) []int32 {
	if arr.NullN() == 0 {
		return nil
	}
	var out []int32
	for i := range arr.Len() {
		if arr.IsNull(i) {
			out = append(out, int32(i))
		}
	}
	return out
}
