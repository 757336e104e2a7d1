package demo

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewReader streams t as batches of batchSize rows (the last one shorter),
// in order. Batches are generated ahead on up to GOMAXPROCS goroutines, and
// no more than about twice that many exist at a time, so memory stays
// bounded by the batch size whatever the table's size.
//
// The reader follows array.RecordReader's rules: the batch RecordBatch
// returns is valid until the next call to Next (Retain it to keep it), and
// Release stops the generation and frees what was generated ahead.
func (t Table) NewReader(mem memory.Allocator, batchSize int) (array.RecordReader, error) {
	return t.NewReaderWith(mem, ReaderOptions{BatchSize: batchSize})
}

// ReaderOptions say how NewReaderWith cuts the table into batches and in
// which order it gives the rows.
type ReaderOptions struct {
	// BatchSize is the rows per batch, the last one shorter. It is used
	// when Batches is 0.
	BatchSize int
	// Batches, when positive, cuts the table into exactly that many
	// batches of nearly equal size: batch i holds rows [i·Rows/Batches,
	// (i+1)·Rows/Batches) of the output. It must not exceed the row count
	// (a table of no rows has no batches).
	Batches int
	// SortBy, when not empty, names a column (see Order): the rows come in
	// ascending order of it, ties in row order.
	SortBy string
}

// NewReaderWith streams t as NewReader does, cut and ordered as o says.
// With SortBy, the whole table is generated once, batch by batch, to find
// the order (its memory is 8 bytes a row for the order and a copy of the
// sort column, so at most MaxSortRows rows are sorted), then generated
// again row by row in that order.
func (t Table) NewReaderWith(mem memory.Allocator, o ReaderOptions) (array.RecordReader, error) {
	if t.Rows < 0 {
		return nil, fmt.Errorf("demo: row count %d is negative", t.Rows)
	}
	// cut gives the output positions [lo, hi) of batch k.
	var cut func(k int64) (lo, hi int64)
	var count int64
	switch {
	case o.Batches < 0:
		return nil, fmt.Errorf("demo: batch count %d is negative", o.Batches)
	case o.Batches > 0:
		if int64(o.Batches) > t.Rows && t.Rows > 0 {
			return nil, fmt.Errorf("demo: %d batches is more than the %d rows", o.Batches, t.Rows)
		}
		count = int64(o.Batches)
		if t.Rows == 0 {
			count = 0
		}
		cut = func(k int64) (int64, int64) {
			return mulDiv(k, t.Rows, count), mulDiv(k+1, t.Rows, count)
		}
	case o.BatchSize <= 0:
		return nil, fmt.Errorf("demo: batch size %d must be positive", o.BatchSize)
	default:
		size := int64(o.BatchSize)
		count = (t.Rows + size - 1) / size
		cut = func(k int64) (int64, int64) { return k * size, min((k+1)*size, t.Rows) }
	}
	var order []int64
	if o.SortBy != "" {
		var err error
		if order, err = t.Order(mem, o.SortBy); err != nil {
			return nil, err
		}
	}
	r := &reader{
		futures: make(chan chan arrow.RecordBatch, runtime.GOMAXPROCS(0)),
		done:    make(chan struct{}),
	}
	r.refs.Store(1)
	p := newParams(t)
	go func() {
		defer close(r.futures)
		for k := int64(0); k < count; k++ {
			f := make(chan arrow.RecordBatch, 1)
			select {
			case r.futures <- f:
			case <-r.done:
				return
			}
			lo, hi := cut(k)
			var rows []int64
			if order != nil {
				rows = order[lo:hi]
			}
			go func() { f <- generate(mem, p, lo, int(hi-lo), rows) }()
		}
	}()
	return r, nil
}

// mulDiv is a·b/c rounded down, for 0 ≤ a ≤ c and b ≥ 0, without
// overflowing.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}

// NewReader streams the default-seeded table of rows rows; see Table.NewReader.
func NewReader(mem memory.Allocator, rows, batchSize int) (array.RecordReader, error) {
	return Table{Seed: DefaultSeed, Rows: int64(rows)}.NewReader(mem, batchSize)
}

type reader struct {
	refs    atomic.Int64
	futures chan chan arrow.RecordBatch
	done    chan struct{}
	cur     arrow.RecordBatch
	ended   bool
}

var _ array.RecordReader = (*reader)(nil)

func (r *reader) Schema() *arrow.Schema { return schema }

func (r *reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.ended {
		return false
	}
	f, ok := <-r.futures
	if !ok {
		r.ended = true
		return false
	}
	r.cur = <-f
	return true
}

func (r *reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch, for the deprecated half of array.RecordReader.
func (r *reader) Record() arrow.RecordBatch { return r.cur }

// Err is always nil: generation cannot fail.
func (r *reader) Err() error { return nil }

func (r *reader) Retain() { r.refs.Add(1) }

func (r *reader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.ended = true
	close(r.done)
	for f := range r.futures {
		(<-f).Release()
	}
}
