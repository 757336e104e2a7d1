package demo

import (
	"fmt"
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
	if batchSize <= 0 {
		return nil, fmt.Errorf("demo: batch size %d must be positive", batchSize)
	}
	if t.Rows < 0 {
		return nil, fmt.Errorf("demo: row count %d is negative", t.Rows)
	}
	r := &reader{
		futures: make(chan chan arrow.RecordBatch, runtime.GOMAXPROCS(0)),
		done:    make(chan struct{}),
	}
	r.refs.Store(1)
	p := newParams(t)
	go func() {
		defer close(r.futures)
		for off := int64(0); off < t.Rows; off += int64(batchSize) {
			f := make(chan arrow.RecordBatch, 1)
			select {
			case r.futures <- f:
			case <-r.done:
				return
			}
			n := int(min(int64(batchSize), t.Rows-off))
			go func(off int64) { f <- generate(mem, p, off, n) }(off)
		}
	}()
	return r, nil
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
