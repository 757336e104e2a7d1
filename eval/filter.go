package eval

import (
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Filter keeps the rows of rec where pred is true (null counts as false).
// The result is a new record batch owned by the caller; when every row
// passes it shares rec's columns, otherwise its columns are filtered. When
// more than a quarter of the rows are kept (the survivors are still a
// bitmap), each fixed-width column (integers, floats, dates, times,
// timestamps, decimals, intervals; bool and null too) is compressed
// straight from the bitmap, with SIMD kernels where the CPU has them
// (kernels.CompressData); the other columns, and every column when fewer
// rows are kept, are gathered by the list of the kept rows, made once.
//
// A predicate c1 AND c2 AND … is evaluated one conjunct at a time, in
// order. The first runs over every row; a later conjunct that cannot fail
// (no call in it is fn.Function.Fallible) runs only over the rows every
// earlier conjunct kept: over those rows alone, gathered, when they are
// fewer than a quarter of the batch, otherwise over all rows with its
// result ANDed in. A conjunct that can fail runs over every row, so that
// Filter raises exactly the errors, at exactly the rows, that evaluating
// the whole predicate would.
func Filter(mem memory.Allocator, pred *expr.Bound, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if pred == nil || rec == nil {
		return nil, errors.New("eval: Filter needs a predicate and a record batch")
	}
	p, err := Prepare(pred)
	if err != nil {
		return nil, err
	}
	return p.Filter(mem, rec)
}

// filter is Filter of a prepared bool predicate.
func filter(mem memory.Allocator, p *Prepared, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	root, err := p.recordBinding(rec)
	if err != nil {
		return nil, err
	}
	sc := scratchPool.Get().(*filterScratch)
	defer scratchPool.Put(sc)
	keep, err := filterRows(mem, p, int(rec.NumRows()), root, sc)
	if err != nil {
		return nil, err
	}
	if keep.count == keep.n {
		return array.NewRecordBatch(rec.Schema(), rec.Columns(), rec.NumRows()), nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var list []int32 // the rows kept, listed when a column first needs them
	for i, c := range rec.Columns() {
		if keep.bitmap() {
			if g, ok := kernels.Compress(mem, c, keep.bits, keep.count); ok {
				cols[i] = g
				continue
			}
		}
		if list == nil {
			list = keep.rows().list
		}
		g, err := gather(mem, c, list)
		if err != nil {
			return nil, fmt.Errorf("eval: filtering column %q: %w", rec.ColumnName(i), err)
		}
		cols[i] = g
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(keep.count)), nil
}

// filterRows is the rows where the prepared predicate is true, of n rows
// with $ bound to root (nil when the predicate does not read $; filterRows
// releases it), as the survivors of its conjuncts: a bitmap or a list, in
// sc's memory. Filter has no variables.
func filterRows(mem memory.Allocator, p *Prepared, n int, root *binding, sc *filterScratch) (survivors, error) {
	top := &env{n: n}
	defer top.release()
	if root != nil {
		top.root = top.own(root)
	}
	for name := range p.a.free {
		return survivors{}, fmt.Errorf("eval: no value for the free variable %q", name)
	}
	if n == 0 {
		return survivors{}, nil // no rows: nothing is evaluated, so nothing can fail
	}
	ev := newEvaluator(mem)
	s := survivors{n: n, count: n, scratch: sc}
	for i, c := range p.conjuncts {
		fallible := p.fallible[i]
		if i > 0 && s.count == 0 && !fallible {
			continue // no row left, and evaluating c over none raises nothing
		}
		if i > 0 && !fallible && s.count*4 < n {
			if err := s.andSubset(ev, top, c); err != nil {
				return survivors{}, err
			}
			continue
		}
		d, err := ev.eval(top, c)
		if err != nil {
			return survivors{}, err
		}
		s.and(d)
		d.Release()
	}
	return s, nil
}

// survivors are the rows every conjunct so far was true on (Kleene AND
// under Filter: null counts as false, so only the rows true so far can
// still pass). While many rows remain they are a bitmap; once fewer than a
// quarter do, a list of rows.
type survivors struct {
	n, count int
	bits     []byte  // n bits; nil: every row (when list is nil too)
	list     []int32 // the rows, in increasing order, once sparse
	sparse   bool
	scratch  *filterScratch // the memory of bits and list
}

// filterScratch is the memory of one Filter call's survivors, reused by
// later calls (through scratchPool), so that a stream of batches allocates
// no bitmap or selection vector after the first.
type filterScratch struct {
	bits []byte
	list []int32
}

var scratchPool = sync.Pool{New: func() any { return new(filterScratch) }}

// bitmap is room for n bits, not cleared.
func (f *filterScratch) bitmap(n int) []byte {
	nb := int(bitutil.BytesForBits(int64(n)))
	if cap(f.bits) < nb {
		f.bits = make([]byte, nb)
	}
	return f.bits[:nb]
}

// setBits lists the set bits among the first n of bm (count of them, or
// a guess) with kernels.AppendSelected, SIMD where the CPU has it, into
// the scratch list.
func (f *filterScratch) setBits(bm []byte, n, count int) []int32 {
	if need := max(count, 0) + 64; cap(f.list) < need { // the kernel's room
		f.list = make([]int32, 0, need)
	}
	f.list = kernels.AppendSelected(f.list[:0], bm, n, count)
	return f.list
}

// and narrows s to the rows where d, a bool value over all rows, is true.
func (s *survivors) and(d datum.Datum) {
	if d.IsScalar() {
		if v, ok := d.Scalar().Value().(bool); !ok || !v {
			s.none()
		}
		return
	}
	ad := d.Array().Data()
	vals, off := kernels.BufferBytes(ad, 1), ad.Offset()
	var valid []byte
	if kernels.NullCount(ad) > 0 {
		valid = kernels.BufferBytes(ad, 0)
	}
	if s.sparse {
		kept := s.list[:0]
		for _, r := range s.list {
			i := off + int(r)
			if bitutil.BitIsSet(vals, i) && (valid == nil || bitutil.BitIsSet(valid, i)) {
				kept = append(kept, r)
			}
		}
		s.list, s.count = kept, len(kept)
		return
	}
	if s.bits == nil {
		s.bits = s.scratch.bitmap(s.n)
		bitutil.CopyBitmap(vals, off, s.n, s.bits, 0)
	} else {
		bitutil.BitmapAnd(s.bits, vals, 0, int64(off), s.bits, 0, int64(s.n))
	}
	if valid != nil {
		bitutil.BitmapAnd(s.bits, valid, 0, int64(off), s.bits, 0, int64(s.n))
	}
	s.count = bitutil.CountSetBits(s.bits, 0, s.n)
	if s.count*4 < s.n {
		s.list, s.bits, s.sparse = s.scratch.setBits(s.bits, s.n, s.count), nil, true
	}
}

// andSubset evaluates the conjunct c (which cannot fail) over the surviving
// rows alone, in a subset env of top, and keeps those where it is true.
func (s *survivors) andSubset(ev *evaluator, top *env, c *expr.Bound) error {
	if !s.sparse {
		s.list, s.bits, s.sparse = s.scratch.setBits(s.bits, s.n, s.count), nil, true
	}
	r := rows{n: len(s.list), list: s.list}
	p, err := ev.evalRows(top, r, c)
	if err != nil {
		return err
	}
	defer p.d.Release()
	s.list = keepTrue(p, s.list)
	s.count = len(s.list)
	return nil
}

// keepTrue compacts list, the rows the part p was computed for, to those
// where p is true (null counts as false), in place.
func keepTrue(p part, list []int32) []int32 {
	if p.d.IsScalar() {
		if v, ok := p.d.Scalar().Value().(bool); ok && v {
			return list
		}
		return list[:0]
	}
	ad := p.d.Array().Data()
	vals, off := kernels.BufferBytes(ad, 1), ad.Offset()
	var valid []byte
	if kernels.NullCount(ad) > 0 {
		valid = kernels.BufferBytes(ad, 0)
	}
	k := 0
	for j, r := range list {
		i := off + j
		if p.full {
			i = off + int(r)
		}
		keep := vals[i>>3] >> (i & 7) & 1
		if valid != nil {
			keep &= valid[i>>3] >> (i & 7)
		}
		list[k] = r
		k += int(keep & 1)
	}
	return list[:k]
}

// none empties s.
func (s *survivors) none() {
	s.bits, s.list, s.count, s.sparse = nil, []int32{}, 0, true
}

// bitmap reports whether s is a bitmap of some (not all, not no) rows:
// s.bits, with s.count of its first s.n bits set.
func (s *survivors) bitmap() bool {
	return !s.sparse && s.bits != nil && s.count > 0 && s.count < s.n
}

// rows is s as a set of rows: nil list when every row survived.
func (s *survivors) rows() rows {
	switch {
	case s.count == s.n:
		return all(s.n)
	case s.count == 0:
		return rows{list: []int32{}}
	case s.sparse:
		return rows{n: s.count, list: s.list}
	}
	return rows{n: s.count, list: s.scratch.setBits(s.bits, s.n, s.count)}
}

// canFail reports whether evaluating b may raise an error on valid input:
// whether any call in it, lambda bodies included, is Fallible.
func canFail(b *expr.Bound) bool {
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == expr.KindCall && (n.Fn() == nil || n.Fn().Fallible()) {
			return true
		}
		stack = append(stack, n.Args()...)
	}
	return false
}
