package eval

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// The higher-order list functions: list_transform, list_filter, list_any
// and list_all. The lambda body is evaluated once, over the flattened
// elements of every valid list, in an element env where the parameter is
// the element array (and a second parameter, if any, the element's index)
// and $ and outer variables are gathered to element rows (element i
// belongs to list row parent[i]) on first use. The lists are then rebuilt
// from their offsets. list_reduce is in reduce.go.

// listLambda evaluates a call of a higher-order list function.
func (ev *evaluator) listLambda(e *env, b *expr.Bound) (datum.Datum, error) {
	xs, err := ev.eval(e, b.Arg(0))
	if err != nil {
		return datum.Datum{}, err
	}
	defer xs.Release()
	if !xs.IsScalar() {
		out, err := ev.applyLambda(e, b, xs.Array())
		if err != nil {
			return datum.Datum{}, err
		}
		return datum.FromArray(out, b.DType()), nil
	}
	s := xs.Scalar()
	if s.IsNull() {
		return datum.FromScalar(scalar.Null(b.DType()), e.n), nil
	}
	// A constant list: when the body reads nothing but scalars from outside,
	// one row gives the answer for all rows; otherwise the list is
	// broadcast and each row computes its own.
	target, n := e, e.n
	if ev.closedOverScalars(e, b.Arg(1)) {
		target, n = e.child(1, []int32{0}, nil), 1
		defer target.release()
	}
	arr, err := scalar.MakeArray(ev.mem, s, n)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("eval: broadcasting %s: %w", s, err)
	}
	defer arr.Release()
	out, err := ev.applyLambda(target, b, arr)
	if err != nil {
		return datum.Datum{}, err
	}
	if n == e.n && target == e {
		return datum.FromArray(out, b.DType()), nil
	}
	defer out.Release()
	v, err := toScalar(datum.FromArray(out, b.DType()), b.DType())
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(v, e.n), nil
}

// applyLambda evaluates the call b over the list array xs of e.n rows.
func (ev *evaluator) applyLambda(e *env, b *expr.Bound, xs arrow.Array) (arrow.Array, error) {
	lam := b.Arg(1)
	fl, err := flatten(ev.mem, xs)
	if err != nil {
		return nil, err
	}
	defer fl.elems.Release()
	m := fl.elems.Len()
	var res datum.Datum // the body over the m elements
	if m > 0 {
		child := e.child(m, nil, fl.parents)
		elems := fl.elems
		elems.Retain()
		child.vars = append(child.vars, child.own(readyBinding(lam.Params()[0], datum.FromArray(elems, lam.ParamTypes()[0]))))
		if len(lam.Params()) > 1 {
			// lambda x, i: the element's 1-based index in its list.
			child.vars = append(child.vars, child.own(readyBinding(lam.Params()[1], datum.FromArray(indexArray(ev.mem, fl.offs), lam.ParamTypes()[1]))))
		}
		res, err = ev.eval(child, lam.Body())
		child.release()
		if err != nil {
			return nil, err
		}
		defer res.Release()
	}
	switch b.Fn().ID() {
	case fn.IDListTransform:
		return ev.buildTransform(xs, fl, res, b.DType())
	case fn.IDListFilter:
		return ev.buildFilter(xs, fl, res, b.DType())
	default:
		return ev.buildQuantifier(xs, fl, res, b.Fn().ID() == fn.IDListAll)
	}
}

// indexArray is the 1-based index of each element in its row, for rows
// whose elements are elems[offs[r]:offs[r+1]].
func indexArray(mem memory.Allocator, offs []int32) arrow.Array {
	m := int(offs[len(offs)-1])
	buf := kernels.AllocBuffer(mem, 8*m)
	vals := kernels.Reinterpret[int64](buf.Bytes())
	for r := range len(offs) - 1 {
		for j := offs[r]; j < offs[r+1]; j++ {
			vals[j] = int64(j-offs[r]) + 1
		}
	}
	d := array.NewData(arrow.PrimitiveTypes.Int64, m, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

// flatList is a list array taken apart.
type flatList struct {
	elems arrow.Array // the elements of the valid lists, in row order
	offs  []int32     // row r's elements are elems[offs[r]:offs[r+1]]; a null row has none
	size  int         // the size of a fixed-size list, -1 for a list
	// dense: elems is exactly the child range the rows address (no null
	// row addressed any element), so a fixed-size list keeps its layout.
	dense bool
	// shared: offs is the list array's own offsets (its rows' elements
	// start at the child's first), so a rebuilt list may share them.
	shared bool
}

// parents maps each element to its row.
func (f flatList) parents() []int32 {
	out := make([]int32, f.offs[len(f.offs)-1])
	for r := range len(f.offs) - 1 {
		for j := f.offs[r]; j < f.offs[r+1]; j++ {
			out[j] = int32(r)
		}
	}
	return out
}

// flatten takes the elements of the valid rows of a List or FixedSizeList
// array, which may be sliced. Elements of null rows are left out, so they
// are never evaluated. When no null row has elements, the elements are a
// zero-copy slice of the child array.
func flatten(mem memory.Allocator, xs arrow.Array) (flatList, error) {
	d := xs.Data()
	n, off := d.Len(), d.Offset()
	fl := flatList{size: -1, dense: true}
	if len(d.Children()) != 1 {
		return fl, fmt.Errorf("eval: a list function over an array of Arrow type %s", d.DataType())
	}
	child := d.Children()[0]
	var start, end int // the child range of all rows
	var ranges func(r int) (int, int)
	var src []int32 // a list's offsets
	switch t := d.DataType().(type) {
	case *arrow.ListType:
		src = kernels.Reinterpret[int32](kernels.BufferBytes(d, 1))
		if len(src) < off+n+1 {
			return fl, fmt.Errorf("eval: list array with %d offsets for %d rows", len(src), off+n)
		}
		ranges = func(r int) (int, int) { return int(src[off+r]), int(src[off+r+1]) }
		start, end = int(src[off]), int(src[off+n])
	case *arrow.FixedSizeListType:
		k := int(t.Len())
		fl.size = k
		ranges = func(r int) (int, int) { return (off + r) * k, (off + r + 1) * k }
		start, end = off*k, (off+n)*k
	default:
		return fl, fmt.Errorf("eval: a list function over an array of Arrow type %s", d.DataType())
	}
	valid := kernels.RowValidityOf(d)
	if start < 0 || end < start || end > child.Len() {
		return fl, fmt.Errorf("eval: list array addresses elements %d to %d of a child of %d", start, end, child.Len())
	}
	if fl.size < 0 && offsetsIncrease(src[off:off+n+1]) &&
		(valid.AllValid() || nullRowsEmpty(src[off:off+n+1], kernels.BufferBytes(d, 0), off)) {
		// The common case, a list whose null rows address no element: its
		// offsets, less the first, are the elements' offsets.
		if start == 0 {
			fl.offs, fl.shared = src[off:off+n+1], true
		} else {
			fl.offs = make([]int32, n+1)
			for r := range n {
				fl.offs[r+1] = src[off+r+1] - int32(start)
			}
		}
		sd := array.NewSliceData(child, int64(start), int64(end))
		defer sd.Release()
		fl.elems = array.MakeFromData(sd)
		return fl, nil
	}
	fl.offs = make([]int32, n+1)
	switch allValid := valid.AllValid(); {
	case allValid && fl.size >= 0: // the common cases, without a call per row
		for r := range n {
			fl.offs[r+1] = int32((r + 1) * fl.size)
		}
	case allValid:
		for r := range n {
			s, e := src[off+r], src[off+r+1]
			if e < s {
				return fl, fmt.Errorf("eval: list array row %d has offsets %d to %d", r, s, e)
			}
			fl.offs[r+1] = e - int32(start)
		}
	default:
		for r := range n {
			s, e := ranges(r)
			if s < start || e < s || e > end {
				return fl, fmt.Errorf("eval: list array row %d has offsets %d to %d", r, s, e)
			}
			if valid.Valid(r) {
				fl.offs[r+1] = fl.offs[r] + int32(e-s)
			} else {
				fl.offs[r+1] = fl.offs[r]
				if e > s {
					fl.dense = false
				}
			}
		}
	}
	if fl.dense {
		sd := array.NewSliceData(child, int64(start), int64(end))
		defer sd.Release()
		fl.elems = array.MakeFromData(sd)
		return fl, nil
	}
	idx := make([]int32, 0, fl.offs[n])
	for r := range n {
		if !valid.Valid(r) {
			continue
		}
		s, e := ranges(r)
		for j := s; j < e; j++ {
			idx = append(idx, int32(j))
		}
	}
	g, err := kernels.GatherData(mem, child, idx)
	if err != nil {
		return fl, fmt.Errorf("eval: %w", err)
	}
	defer g.Release()
	fl.elems = array.MakeFromData(g)
	return fl, nil
}

// offsetsIncrease reports whether offs never decreases.
func offsetsIncrease(offs []int32) bool {
	var down int64 // the sign bit of any decrease, in 64 bits so no step overflows
	for i := 1; i < len(offs); i++ {
		down |= int64(offs[i]) - int64(offs[i-1])
	}
	return down >= 0
}

// nullRowsEmpty reports whether every null row of the list rows whose
// offsets are offs (validity bit off+r of valid for row r) is empty,
// skipping eight valid rows a byte.
func nullRowsEmpty(offs []int32, valid []byte, off int) bool {
	n := len(offs) - 1
	for r := 0; r < n; {
		i := off + r
		if i&7 == 0 && r+8 <= n {
			for nulls := ^valid[i>>3]; nulls != 0; nulls &= nulls - 1 {
				k := r + bits.TrailingZeros8(nulls)
				if offs[k+1] != offs[k] {
					return false
				}
			}
			r += 8
			continue
		}
		if valid[i>>3]>>(i&7)&1 == 0 && offs[r+1] != offs[r] {
			return false
		}
		r++
	}
	return true
}

// buildTransform rebuilds the lists with the body's values as elements.
func (ev *evaluator) buildTransform(xs arrow.Array, fl flatList, res datum.Datum, t dtype.DType) (arrow.Array, error) {
	want := dtype.ToArrow(t)
	elemType := elemArrowType(want)
	values, err := ev.elementValues(res, fl, elemType)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	n := xs.Len()
	if fl.shared {
		// The rows, their validity and their offsets are xs's: share them.
		validity, nulls := kernels.ShareValidity(ev.mem, xs)
		defer kernels.ReleaseBuffer(validity)
		offs := memory.SliceBuffer(xs.Data().Buffers()[1], 4*xs.Data().Offset(), 4*(n+1))
		defer offs.Release()
		d := array.NewData(want, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{values.Data()}, nulls, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	validity, nulls := kernels.CopyValidity(ev.mem, xs.Data())
	defer kernels.ReleaseBuffer(validity)
	if fl.size >= 0 {
		// A fixed-size list keeps size slots per row, null rows included.
		child := values
		if !fl.dense {
			slots := make([]int32, 0, n*fl.size)
			for r := range n {
				for j := range fl.size {
					if fl.offs[r+1] > fl.offs[r] {
						slots = append(slots, fl.offs[r]+int32(j))
					} else {
						slots = append(slots, -1)
					}
				}
			}
			child, err = gather(ev.mem, values, slots)
			if err != nil {
				return nil, err
			}
			defer child.Release()
		}
		d := array.NewData(want, n, []*memory.Buffer{validity}, []arrow.ArrayData{child.Data()}, nulls, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	offs := offsetsBuffer(ev.mem, fl.offs)
	defer offs.Release()
	d := array.NewData(want, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{values.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// elementValues is the body's result as an array of the element rows.
func (ev *evaluator) elementValues(res datum.Datum, fl flatList, elemType arrow.DataType) (arrow.Array, error) {
	if fl.elems.Len() == 0 {
		return zeroed.NullArray(ev.mem, elemType, 0), nil
	}
	arr, err := materialize(ev.mem, res, res.DType())
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	return relabel(arr, elemType)
}

// buildFilter keeps the elements whose body value is true.
func (ev *evaluator) buildFilter(xs arrow.Array, fl flatList, res datum.Datum, t dtype.DType) (arrow.Array, error) {
	want := dtype.ToArrow(t)
	n := xs.Len()
	m := fl.elems.Len()
	pred := newBoolReader(res)
	newOffs := make([]int32, n+1)
	kept := make([]int32, 0, m)
	for r := range n {
		for j := fl.offs[r]; j < fl.offs[r+1]; j++ {
			if v, ok := pred.at(int(j)); ok && v {
				kept = append(kept, j)
			}
		}
		newOffs[r+1] = int32(len(kept))
	}
	var values arrow.Array
	var err error
	if len(kept) == m {
		values, err = relabel(fl.elems, elemArrowType(want))
	} else {
		var g arrow.Array
		g, err = gather(ev.mem, fl.elems, kept)
		if err == nil {
			values, err = relabel(g, elemArrowType(want))
			g.Release()
		}
	}
	if err != nil {
		return nil, err
	}
	defer values.Release()
	validity, nulls := kernels.CopyValidity(ev.mem, xs.Data())
	defer kernels.ReleaseBuffer(validity)
	offs := offsetsBuffer(ev.mem, newOffs)
	defer offs.Release()
	d := array.NewData(want, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{values.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// buildQuantifier folds the body's values of each list with Kleene OR
// (list_any: false for an empty list) or AND (list_all: true for an empty
// list). A null list gives null.
func (ev *evaluator) buildQuantifier(xs arrow.Array, fl flatList, res datum.Datum, isAll bool) (arrow.Array, error) {
	n := xs.Len()
	xv := kernels.RowValidityOf(xs.Data())
	pred := newBoolReader(res)
	vals := kernels.ZeroedBitmap(ev.mem, n)
	defer vals.Release()
	valid := kernels.ZeroedBitmap(ev.mem, n)
	defer valid.Release()
	vb, nb := vals.Bytes(), valid.Bytes()
	nulls := 0
	for r := range n {
		if !xv.Valid(r) {
			nulls++
			continue
		}
		// any: true wins, then null; all: false wins, then null.
		decisive := !isAll
		sawNull, decided := false, false
		for j := fl.offs[r]; j < fl.offs[r+1]; j++ {
			v, ok := pred.at(int(j))
			if !ok {
				sawNull = true
			} else if v == decisive {
				decided = true
				break
			}
		}
		switch {
		case decided:
			if decisive {
				bitutil.SetBit(vb, r)
			}
		case sawNull:
			nulls++
			continue
		case isAll:
			bitutil.SetBit(vb, r)
		}
		bitutil.SetBit(nb, r)
	}
	bufs := []*memory.Buffer{valid, vals}
	if nulls == 0 {
		bufs[0] = nil
	}
	d := array.NewData(arrow.FixedWidthTypes.Boolean, n, bufs, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// boolReader reads a boolean datum row by row.
type boolReader struct {
	vals, valid []byte
	off         int
	isScalar    bool
	sv, sok     bool
}

func newBoolReader(d datum.Datum) boolReader {
	if d.IsScalar() {
		v, ok := d.Scalar().Value().(bool)
		return boolReader{isScalar: true, sv: v, sok: ok}
	}
	ad := d.Array().Data()
	r := boolReader{vals: kernels.BufferBytes(ad, 1), off: ad.Offset()}
	if kernels.NullCount(ad) > 0 {
		r.valid = kernels.BufferBytes(ad, 0)
	}
	return r
}

// at is row i: its value, and false when it is null.
func (r boolReader) at(i int) (v, ok bool) {
	if r.isScalar {
		return r.sv, r.sok
	}
	if r.valid != nil && !bitutil.BitIsSet(r.valid, r.off+i) {
		return false, false
	}
	return bitutil.BitIsSet(r.vals, r.off+i), true
}

func offsetsBuffer(mem memory.Allocator, offs []int32) *memory.Buffer {
	buf := kernels.AllocBuffer(mem, 4*len(offs)) // the copy writes every byte
	copy(kernels.Reinterpret[int32](buf.Bytes()), offs)
	return buf
}

func elemArrowType(t arrow.DataType) arrow.DataType {
	switch lt := t.(type) {
	case *arrow.ListType:
		return lt.Elem()
	case *arrow.FixedSizeListType:
		return lt.Elem()
	}
	return t
}

// refs is what an expression (a lambda, a branch) reads from outside: $,
// and the variables it does not bind itself.
type refs struct {
	root bool
	vars []string
}

// refsOf finds whether b reads $ and which variables it reads that it does
// not bind (as a lambda, or with a lambda inside it).
func (ev *evaluator) refsOf(b *expr.Bound) refs {
	if r, ok := ev.refs[b]; ok {
		return r
	}
	var r refs
	seen := map[string]bool{}
	var walk func(n *expr.Bound, bound []string)
	walk = func(n *expr.Bound, bound []string) {
		switch n.Kind() {
		case expr.KindRoot:
			r.root = true
		case expr.KindVar:
			if !contains(bound, n.Name()) && !seen[n.Name()] {
				seen[n.Name()] = true
				r.vars = append(r.vars, n.Name())
			}
		case expr.KindLambda:
			walk(n.Body(), append(append([]string(nil), bound...), n.Params()...))
		default:
			for _, a := range n.Args() {
				walk(a, bound)
			}
		}
	}
	walk(b, nil)
	if ev.refs == nil {
		ev.refs = map[*expr.Bound]refs{}
	}
	ev.refs[b] = r
	return r
}

// closedOverScalars reports whether everything the lambda reads from e is
// a scalar.
func (ev *evaluator) closedOverScalars(e *env, lam *expr.Bound) bool {
	r := ev.refsOf(lam)
	if r.root && (e.root == nil || !e.root.isScalar()) {
		return false
	}
	for _, name := range r.vars {
		if v := e.lookup(name); v == nil || !v.isScalar() {
			return false
		}
	}
	return true
}
