package eval

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// An env is the set of rows an expression is evaluated over, with the
// values of $ and of the variables on those rows.
//
// The top env holds the caller's input. A CASE branch or a later coalesce
// argument runs in a subset env, a lambda body in an element env; both are
// children of the env they come from: row i of the child is row idx[i] of
// the parent. Their bindings are gathered from the parent's lazily, on first
// use, so a branch or a lambda body only copies what it reads, field by
// field.
//
// A masked env is the other kind of child: the same rows as its parent, with
// $ and the variables null on the rows outside a selection (mask). A branch
// that cannot fail on null inputs (see maskSafe) runs there instead of in a
// subset env, which saves gathering its inputs and scattering its result.
type env struct {
	n      int
	parent *env
	idx    []int32        // row i is row idx[i] of parent
	mkIdx  func() []int32 // computes idx on first use, when idx is nil
	mask   []byte         // a masked env: the selected rows, a bitmap of n bits
	root   *binding       // nil when there is no $
	vars   []*binding     // outermost first; the innermost definition wins
	owned  []*binding     // released with the env
}

// indices is idx, computed on first use.
func (e *env) indices() []int32 {
	if e.idx == nil && e.mkIdx != nil {
		e.idx = e.mkIdx()
		e.mkIdx = nil
	}
	return e.idx
}

// origRow maps row r of e to the row of the caller's input it comes from:
// for an element env, the row of the list the element belongs to.
func (e *env) origRow(r int) int {
	for ; e.parent != nil; e = e.parent {
		if e.mask != nil {
			continue
		}
		idx := e.indices()
		if r < 0 || r >= len(idx) {
			return -1
		}
		r = int(idx[r])
	}
	return r
}

// lookup finds the innermost binding of a variable.
func (e *env) lookup(name string) *binding {
	for i := len(e.vars) - 1; i >= 0; i-- {
		if e.vars[i].name == name {
			return e.vars[i]
		}
	}
	return nil
}

func (e *env) own(b *binding) *binding {
	e.owned = append(e.owned, b)
	return b
}

// release drops every value the env holds.
func (e *env) release() {
	for _, b := range e.owned {
		b.release()
	}
	e.owned = nil
}

// child is an env of n rows whose row i is row idx[i] of e (idx may be
// given later through mkIdx), with $ and every variable of e gathered
// lazily.
func (e *env) child(n int, idx []int32, mkIdx func() []int32) *env {
	c := &env{n: n, parent: e, idx: idx, mkIdx: mkIdx}
	if e.root != nil {
		c.root = c.own(&binding{dt: e.root.dt, n: n, src: e.root, at: c})
	}
	c.vars = make([]*binding, len(e.vars), len(e.vars)+1)
	for i, v := range e.vars {
		c.vars[i] = c.own(&binding{name: v.name, dt: v.dt, n: n, src: v, at: c})
	}
	return c
}

// masked is an env over the rows of e whose $ and variables are null where
// the bitmap mask (n bits, offset 0) is clear.
func (e *env) masked(mask []byte) *env {
	c := e.child(e.n, nil, nil)
	c.mask = mask
	return c
}

// A binding is the value of $ or of a variable in one env: either ready, or
// gathered on first use from src (a binding of the parent env) with the
// env's row indices. Fields read with get_item get bindings of their own,
// so a struct's fields are gathered one at a time.
type binding struct {
	name   string
	dt     dtype.DType
	n      int
	d      datum.Datum
	ready  bool
	src    *binding
	at     *env       // the env whose indices gather src
	fields []*binding // the bindings of fields read so far (their name set)
	// rec, when set, is $ as a record batch's columns (of struct type
	// recType): a field is its column, and the struct array is made only
	// when $ is read whole. The caller of the evaluation holds rec.
	rec     arrow.RecordBatch
	recType *arrow.StructType
	recCols []int // the columns of $, when not all of rec's (recordRoot.cols)
	// encoded is set while d, the caller's array, holds a dictionary
	// (dictionary.go): get decodes it on first use.
	encoded bool
}

// ready makes a binding holding d (whose reference it takes over). An
// array that holds a dictionary is decoded when it is read whole; a field
// read with get_item decodes only that field.
func readyBinding(name string, d datum.Datum) *binding {
	encoded := !d.IsScalar() && hasDictionary(d.Array().DataType())
	return &binding{name: name, dt: d.DType(), n: d.Len(), d: d, ready: true, encoded: encoded}
}

// get returns the value, with a new reference the caller releases.
func (b *binding) get(mem memory.Allocator) (datum.Datum, error) {
	if !b.ready && b.rec != nil {
		st := recordStruct(b.rec, b.recType, b.recCols)
		b.d, b.ready = datum.FromArray(st, b.dt), true
		b.encoded = hasDictionary(b.recType)
	}
	if b.ready && b.encoded {
		arr, err := decodeDictionaries(mem, b.d.Array())
		if err != nil {
			return datum.Datum{}, err
		}
		b.d.Release()
		b.d, b.encoded = datum.FromArray(arr, b.dt), false
	}
	if !b.ready {
		s, err := b.src.get(mem)
		if err != nil {
			return datum.Datum{}, err
		}
		defer s.Release()
		switch {
		case s.IsScalar():
			b.d = datum.FromScalar(s.Scalar(), b.n)
		case b.at.mask != nil:
			b.d = datum.FromArray(maskArray(mem, s.Array(), b.at.mask, 0), b.dt)
		default:
			arr, err := gather(mem, s.Array(), b.at.indices())
			if err != nil {
				return datum.Datum{}, err
			}
			b.d = datum.FromArray(arr, b.dt)
		}
		b.ready = true
	}
	return b.d.Retain(), nil
}

// isScalar reports whether the value is (or will be, once gathered) a
// scalar.
func (b *binding) isScalar() bool {
	for ; !b.ready && b.rec == nil; b = b.src {
	}
	return b.ready && b.d.IsScalar()
}

// field is the binding of field name of a struct binding, whose dtype is
// t (the get_item node's).
func (b *binding) field(mem memory.Allocator, name string, t dtype.DType) (*binding, error) {
	for _, f := range b.fields {
		if f.name == name {
			return f, nil
		}
	}
	var f *binding
	if !b.ready && b.rec != nil {
		col, err := recordColumn(b.rec, name)
		if err != nil {
			return nil, err
		}
		if col, err = decodeDictionaries(mem, col); err != nil {
			return nil, err
		}
		f = &binding{name: name, dt: t, n: b.n, d: datum.FromArray(col, t), ready: true}
	} else if b.ready {
		d, err := structField(mem, b.d, name, t)
		if err != nil {
			return nil, err
		}
		f = &binding{name: name, dt: t, n: b.n, d: d, ready: true}
	} else {
		sf, err := b.src.field(mem, name, t)
		if err != nil {
			return nil, err
		}
		f = &binding{name: name, dt: t, n: b.n, src: sf, at: b.at}
	}
	b.fields = append(b.fields, f)
	return f, nil
}

func (b *binding) release() {
	for _, f := range b.fields {
		f.release()
	}
	b.fields = nil
	if b.ready {
		b.d.Release()
		b.d = datum.Datum{}
		b.ready = false
	}
}

// recordColumn is the column called name of rec.
func recordColumn(rec arrow.RecordBatch, name string) (arrow.Array, error) {
	if i := rec.Schema().FieldIndices(name); len(i) > 0 {
		return rec.Column(i[0]), nil
	}
	return nil, fmt.Errorf("eval: get_item %q of a record batch with no such column", name)
}

// structField reads field name of a struct datum. For an array it is the
// child column itself (a new reference, no copy) when the struct has no
// null rows; otherwise the child's buffers with a validity bitmap that also
// masks the struct's null rows.
func structField(mem memory.Allocator, d datum.Datum, name string, t dtype.DType) (datum.Datum, error) {
	if d.IsScalar() {
		s := d.Scalar()
		if s.IsNull() {
			return datum.FromScalar(scalar.Null(t), d.Len()), nil
		}
		i := s.DType().FieldIndex(name)
		fs, ok := s.Value().([]scalar.Scalar)
		if i < 0 || !ok || i >= len(fs) {
			return datum.Datum{}, fmt.Errorf("eval: get_item %q of a %s scalar", name, s.DType())
		}
		return datum.FromScalar(fs[i].WithDType(t), d.Len()), nil
	}
	st, ok := d.Array().(*array.Struct)
	if !ok {
		return datum.Datum{}, fmt.Errorf("eval: get_item %q of an array of Arrow type %s", name, d.Array().DataType())
	}
	i, ok := st.DataType().(*arrow.StructType).FieldIdx(name)
	if !ok {
		return datum.Datum{}, fmt.Errorf("eval: get_item %q of an array of Arrow type %s, which has no such field", name, st.DataType())
	}
	child, err := decodeDictionaries(mem, st.Field(i))
	if err != nil {
		return datum.Datum{}, err
	}
	if st.NullN() == 0 {
		return datum.FromArray(child, t), nil
	}
	// Mask the struct's null rows.
	defer child.Release()
	sd := st.Data()
	return datum.FromArray(maskArray(mem, child, kernels.BufferBytes(sd, 0), sd.Offset()), t), nil
}

// maskArray is arr (its buffers shared) with the rows where the bitmap
// bits (read from bit bitsOff on) is clear made null: a new validity
// bitmap, aligned with arr's offset, that is the AND of both.
func maskArray(mem memory.Allocator, arr arrow.Array, bits []byte, bitsOff int) arrow.Array {
	cd := arr.Data()
	if cd.DataType().ID() == arrow.NULL {
		arr.Retain()
		return arr
	}
	off, n := cd.Offset(), cd.Len()
	bm := kernels.ZeroedBitmap(mem, off+n)
	defer bm.Release()
	if cv := kernels.BufferBytes(cd, 0); cv != nil && kernels.NullCount(cd) > 0 {
		bitutil.BitmapAnd(bits, cv, int64(bitsOff), int64(off), bm.Bytes(), int64(off), int64(n))
	} else {
		bitutil.CopyBitmap(bits, bitsOff, n, bm.Bytes(), off)
	}
	nulls := n - bitutil.CountSetBits(bm.Bytes(), off, n)
	bufs := append([]*memory.Buffer{bm}, cd.Buffers()[1:]...)
	nd := array.NewData(cd.DataType(), n, bufs, cd.Children(), nulls, off)
	defer nd.Release()
	return array.MakeFromData(nd)
}
