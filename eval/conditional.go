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
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// The lazy conditionals: case_when and coalesce (fill_null) evaluate an
// argument only over the rows that need it. Each such evaluation (evalRows)
// runs in a child env of the call's env: a subset env holding just those
// rows, or, when the argument cannot fail on null inputs, a masked env
// holding all rows with the others made null. The values produced
// ("parts") are merged back into one value of the call's rows at the end.

// part is a value computed for some rows of an env.
type part struct {
	d    datum.Datum
	rows []int32 // the env rows it is for, in order; nil: all of them
	// full: d has a row for every env row (a masked evaluation), rather
	// than one per entry of rows.
	full bool
}

// at is the row of p.d holding the value of the j-th row of p.rows, env
// row r.
func (p part) at(j int, r int32) int {
	if p.full {
		return int(r)
	}
	return j
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
	for i := range cw.Branches(len(args)) {
		cond, err := ev.evalRows(e, rem, args[2*i])
		if err != nil {
			return datum.Datum{}, err
		}
		taken, rest := splitTrue(cond, rem)
		cond.d.Release()
		if taken.n == 0 {
			continue
		}
		v, err := ev.evalRows(e, taken, args[2*i+1])
		if err != nil {
			return datum.Datum{}, err
		}
		parts = append(parts, v)
		if rem = rest; rem.n == 0 {
			break
		}
	}
	if cw.HasElse && rem.n > 0 {
		v, err := ev.evalRows(e, rem, args[len(args)-1])
		if err != nil {
			return datum.Datum{}, err
		}
		parts = append(parts, v)
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
	for i, a := range args {
		v, err := ev.evalRows(e, rem, a)
		if err != nil {
			return datum.Datum{}, err
		}
		if i == len(args)-1 {
			parts = append(parts, v)
			break
		}
		if v.d.IsScalar() && v.d.Scalar().IsNull() {
			continue // every row is still null: the next argument runs over the same rows
		}
		parts = append(parts, v)
		if rem = nullRows(v, rem); rem.n == 0 {
			break
		}
	}
	out, err := ev.merge(e, parts, b.DType())
	parts = nil
	return out, err
}

// evalRows evaluates b for the rows r of e: in e itself when r is all its
// rows; in a masked env when b is safe there and r is a large part of e;
// otherwise in a subset env.
func (ev *evaluator) evalRows(e *env, r rows, b *expr.Bound) (part, error) {
	if r.list == nil {
		d, err := ev.eval(e, b)
		return part{d: d, full: true}, err
	}
	if r.n*4 >= e.n && ev.maskable(e, b) {
		mask := make([]byte, bitutil.BytesForBits(int64(e.n)))
		for _, i := range r.list {
			bitutil.SetBit(mask, int(i))
		}
		m := e.masked(mask)
		defer m.release()
		d, err := ev.eval(m, b)
		return part{d: d, rows: r.list, full: true}, err
	}
	sub := e.child(r.n, r.list, nil)
	defer sub.release()
	d, err := ev.eval(sub, b)
	return part{d: d, rows: r.list}, err
}

// maskable reports whether b may run in a masked env of e: it cannot fail
// on the masked rows (maskSafe), and every value it reads from e is an
// array, which masking can null out.
func (ev *evaluator) maskable(e *env, b *expr.Bound) bool {
	safe, known := ev.safe[b]
	if !known {
		safe, _ = maskSafe(b)
		if ev.safe == nil {
			ev.safe = map[*expr.Bound]bool{}
		}
		ev.safe[b] = safe
	}
	if !safe {
		return false
	}
	r := ev.refsOf(b)
	if r.root && (e.root == nil || e.root.isScalar()) {
		return false
	}
	for _, name := range r.vars {
		if v := e.lookup(name); v == nil || v.isScalar() {
			return false
		}
	}
	return true
}

// maskSafe reports whether evaluating b where $ and every variable are
// null can raise no error (safe), and whether b is then null (null).
//
// A fallible function raises only on rows where it computes; a
// null-propagating one computes no row where an argument is null, so it is
// safe when an argument is null on the masked rows, or when it reads
// neither $ nor a variable (then it fails for the selected rows as well).
// The lazy forms choose rows by values, so they are never safe.
func maskSafe(b *expr.Bound) (safe, null bool) {
	safe, null, _ = maskSafeReads(b)
	return safe, null
}

// maskSafeReads is maskSafe, and whether b reads $ or a variable.
func maskSafeReads(b *expr.Bound) (safe, null, reads bool) {
	switch b.Kind() {
	case expr.KindRoot, expr.KindVar:
		return true, true, true
	case expr.KindLambda:
		return false, false, true
	}
	switch b.Fn().(type) {
	case fn.LiteralFn:
		return true, false, false
	case fn.GetItemFn:
		return maskSafeReads(b.Arg(0))
	case fn.CaseWhenFn:
		return false, false, true
	}
	if lazyForm(b.Fn()) != formKernel {
		return false, false, true
	}
	anyNull := false
	for _, a := range b.Args() {
		s, n, r := maskSafeReads(a)
		if !s {
			return false, false, true
		}
		anyNull = anyNull || n
		reads = reads || r
	}
	propagating := b.Fn().NullHandling() == fn.NullPropagating
	if b.Fn().Fallible() && reads && !(propagating && anyNull) {
		return false, false, true
	}
	return true, propagating && anyNull, reads
}

// merge combines parts into one value over e's rows: a row takes its value
// from the last part that is for it, and is null when none is. It takes
// over the parts' references. Fixed-width values are scattered straight
// into the result (kernels.Scatter); other types are concatenated and
// gathered.
func (ev *evaluator) merge(e *env, parts []part, t dtype.DType) (datum.Datum, error) {
	defer releaseParts(parts)
	switch {
	case len(parts) == 0:
		return datum.FromScalar(scalar.Null(t), e.n), nil
	case len(parts) == 1 && parts[0].rows == nil:
		d := parts[0].d.Retain()
		if d.IsScalar() {
			return datum.FromScalar(d.Scalar(), e.n), nil
		}
		return datum.FromArray(d.Array(), t), nil
	}
	want := dtype.ToArrow(t)
	srcs := make([]kernels.ScatterSrc, 0, len(parts))
	defer func() {
		for _, s := range srcs {
			s.Arr.Release()
		}
	}()
	for _, p := range parts {
		var arr arrow.Array
		var err error
		if p.d.IsScalar() {
			// A scalar part is one row that every row it is for reads.
			arr, err = materialize(ev.mem, datum.FromScalar(p.d.Scalar(), 1), t)
		} else {
			arr, err = relabel(p.d.Array(), want)
		}
		if err != nil {
			return datum.Datum{}, err
		}
		srcs = append(srcs, kernels.ScatterSrc{Arr: arr, Rows: p.rows, Full: p.full, One: p.d.IsScalar()})
	}
	var out arrow.Array
	var err error
	if kernels.Scatterable(want) {
		if out, err = kernels.Scatter(ev.mem, e.n, want, srcs); err != nil {
			err = fmt.Errorf("eval: %w", err)
		}
	} else {
		out, err = ev.concatGather(e.n, t, srcs)
	}
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, t), nil
}

// concatGather merges parts of any type: their arrays concatenated, then
// gathered in row order.
func (ev *evaluator) concatGather(n int, t dtype.DType, srcs []kernels.ScatterSrc) (arrow.Array, error) {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	arrs := make([]arrow.Array, len(srcs))
	base := 0
	for k, s := range srcs {
		s.Each(n, func(r, i int) { pos[r] = int32(base + i) })
		arrs[k] = s.Arr
		base += s.Arr.Len()
	}
	src := arrs[0]
	if len(arrs) > 1 {
		all, err := array.Concatenate(arrs, zeroed.Allocator{Allocator: ev.mem})
		if err != nil {
			return nil, fmt.Errorf("eval: merging branches of type %s: %w", t, err)
		}
		defer all.Release()
		src = all
	}
	return gather(ev.mem, src, pos)
}

func releaseParts(parts []part) {
	for _, p := range parts {
		p.d.Release()
	}
}

// rows is a set of rows of an env: all of its n rows when list is nil,
// otherwise the rows listed, in increasing order.
type rows struct {
	n    int
	list []int32
}

func all(n int) rows { return rows{n: n} }

// row is the j-th row of r.
func (r rows) row(j int) int32 {
	if r.list == nil {
		return int32(j)
	}
	return r.list[j]
}

// splitTrue splits the rows r, for which the boolean part p was computed,
// into those where p is true and the others (false or null).
func splitTrue(p part, r rows) (taken, rest rows) {
	if p.d.IsScalar() {
		if v, ok := p.d.Scalar().Value().(bool); ok && v {
			return r, rows{}
		}
		return rows{}, r
	}
	ad := p.d.Array().Data()
	if r.list == nil {
		// All rows: walk the set bits of values AND validity word by word.
		n := r.n
		words := make([]byte, bitutil.BytesForBits(int64(n)))
		bitutil.CopyBitmap(kernels.BufferBytes(ad, 1), ad.Offset(), n, words, 0)
		if kernels.NullCount(ad) > 0 {
			bitutil.BitmapAnd(words, kernels.BufferBytes(ad, 0), 0, int64(ad.Offset()), words, 0, int64(n))
		}
		k := bitutil.CountSetBits(words, 0, n)
		t := make([]int32, 0, k)
		o := make([]int32, 0, n-k)
		for base := 0; base < n; base += 64 {
			var w uint64
			for b := 0; b < 8 && base/8+b < len(words); b++ {
				w |= uint64(words[base/8+b]) << (8 * b)
			}
			hi := min(64, n-base)
			for i := range hi {
				if w&(1<<i) != 0 {
					t = append(t, int32(base+i))
				} else {
					o = append(o, int32(base+i))
				}
			}
		}
		return rowsOf(t, r), rowsOf(o, r)
	}
	vals := kernels.BufferBytes(ad, 1)
	valid := kernels.RowValidityOf(ad)
	off := ad.Offset()
	t := make([]int32, 0, r.n)
	o := make([]int32, 0, r.n/8)
	for j := range r.n {
		row := r.row(j)
		i := p.at(j, row)
		if valid.Valid(i) && bitutil.BitIsSet(vals, off+i) {
			t = append(t, row)
		} else {
			o = append(o, row)
		}
	}
	return rowsOf(t, r), rowsOf(o, r)
}

// nullRows are the rows of r where the part p (computed for r) is null.
func nullRows(p part, r rows) rows {
	if p.d.IsScalar() {
		if p.d.Scalar().IsNull() {
			return r
		}
		return rows{}
	}
	valid := kernels.RowValidityOf(p.d.Array().Data())
	var out []int32
	for j := range r.n {
		row := r.row(j)
		if !valid.Valid(p.at(j, row)) {
			out = append(out, row)
		}
	}
	return rowsOf(out, r)
}

// rowsOf is the subset list of r, which is r itself when it holds all its
// rows.
func rowsOf(list []int32, r rows) rows {
	if len(list) == r.n {
		return r
	}
	return rows{n: len(list), list: list}
}
