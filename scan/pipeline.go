package scan

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr/internal/recycle"
)

// The scan pipeline: one goroutine reads batches, Threads workers filter
// and project them in parallel, and Reader.Next hands the results out in
// input order. A batch takes a token when it is read and gives it back
// when its result is handed out, so at most 2 × Threads batches are in
// flight and memory is bounded by the batch size, whatever the file's size.
//
// A reader that decodes on goroutines of its own (flat Parquet columns,
// package pqread) filters and projects each batch on the goroutine that
// decoded it, while it is in the cache (scanSpec.process); Next then takes
// its results in order, and the pipeline's goroutines are not started.

// ErrInternal marks an error that is a bug in colexpr (a panic caught in a
// worker): errors.Is(err, scan.ErrInternal).
var ErrInternal = errors.New("internal error (a bug, please report it)")

// internalError is a panic caught in a goroutine.
type internalError struct {
	value any
	stack []byte
}

func (e *internalError) Error() string {
	return fmt.Sprintf("%v: %v\n%s", ErrInternal, e.value, e.stack)
}

func (e *internalError) Unwrap() error { return ErrInternal }

// batch is one unit of work: a record batch and the number of rows before
// it in the scan.
type batch struct {
	seq    int
	offset int64 // in its file
	rec    arrow.RecordBatch
	err    error
	// file is the file of a dataset the batch comes from; nil for one
	// source.
	file *fileRead
}

type outcome struct {
	seq int
	rec arrow.RecordBatch
	err error
}

// Stats say what a scan did.
type Stats struct {
	// RowGroups is the number of row groups of the source (-1: it is not
	// Parquet); RowGroupsRead how many the scan was set to read after
	// pruning, RowGroupsSkipped how many pruning left out.
	RowGroups, RowGroupsRead, RowGroupsSkipped int
	// RowGroupsWhole is how many of the row groups read were taken whole:
	// their statistics prove every row passes the filter, which is not
	// evaluated on them.
	RowGroupsWhole int
	// PruneNote says why statistics were not used although the source has
	// them (they could not be read); empty when they were, or need not be.
	PruneNote string
	// RowGroupsSkippedBloom is how many of RowGroupsSkipped their bloom
	// filters ruled out (no row equals a value of an = or IN the filter
	// needs) after their statistics could not; the others were ruled out
	// by their statistics (min/max, null count), or by a filter that is
	// never true. BloomFilters is how many column chunks' bloom filters
	// were read for that: only those of row groups the statistics kept.
	RowGroupsSkippedBloom, BloomFilters int
	// BloomNote says why a bloom filter was not used (it could not be
	// read: its row group was read); empty when every one was.
	BloomNote string
	// PageGroups is how many of the row groups read the page index
	// narrowed to some of their rows: the pages of the filter's columns
	// whose statistics prove no row of them passes were left out, and
	// every column was read at the rows left. Pages is how many data pages
	// the column chunks read have in those row groups (of the chunks with
	// an offset index), PagesSkipped how many of them were not read, and
	// BytesSkippedPages their compressed size.
	PageGroups, Pages, PagesSkipped int
	BytesSkippedPages               int64
	// PageNote says why a page index was not used (it could not be read).
	PageNote string
	// RowsRead is how many rows were read from the source; RowsOut how
	// many the reader handed out.
	RowsRead, RowsOut int64
	// Batches is how many batches were read.
	Batches int64
	// Bytes is how much of the source the scan was set to read: of
	// Parquet, the compressed size of the column chunks of the columns
	// and row groups read, less that of the pages skipped; of another
	// file, its size; of the demo table, 0. BytesSkipped is how much of
	// the columns read pruning left unread: the chunks of the row groups
	// skipped and the pages skipped (Parquet only).
	Bytes, BytesSkipped int64
	// Files is the number of files of a dataset (0 for another source);
	// FilesRead how many the scan was set to read, FilesSkipped how many
	// their partition values ruled out, which were never opened. Of a
	// dataset, the row group counts and Bytes add up the files read.
	Files, FilesRead, FilesSkipped int
}

// Reader is a running scan: an array.RecordReader of the plan's output
// batches, in input order. Release it when done, also to stop it early:
// that cancels the reading and the workers and waits for them.
type Reader struct {
	plan   *Plan
	refs   atomic.Int64
	ctx    context.Context
	cancel context.CancelFunc
	scan   scanner
	// complete is set when the reading goroutine has read the whole input.
	complete atomic.Bool
	// direct: the scan filters and projects on its own goroutines
	// (scanSpec.process); Next takes its batches as they are.
	direct bool

	results chan outcome
	tokens  chan struct{}
	wg      sync.WaitGroup // the reading goroutine and the workers
	pending map[int]outcome
	next    int
	cur     arrow.RecordBatch
	err     error
	done    bool

	rowsRead, batches atomic.Int64
	rowsOut           int64

	// pool is the memory filtering and projecting take: the buffers of
	// batches released come back for later ones, so a long scan neither
	// faults in fresh pages nor leaves garbage for every batch.
	pool *recycle.Allocator
}

var _ array.RecordReader = (*Reader)(nil)

// Read starts the scan. Cancelling ctx stops it: Next then returns false
// and Err the context's error.
func (p *Plan) Read(ctx context.Context) (*Reader, error) {
	r := &Reader{plan: p, pending: map[int]outcome{}}
	r.refs.Store(1)
	if p.none {
		r.done = true
		return r, nil
	}
	ctx, r.cancel = context.WithCancel(ctx)
	r.ctx = ctx
	r.pool = recycle.New(p.src.mem, 64*(p.opts.Threads+2), true)
	fields := append([]int{}, p.fields...) // not nil: nil reads every field
	spec := scanSpec{ctx: ctx, fields: fields, batchSize: p.opts.BatchSize, threads: p.opts.Threads, groups: p.groups.read, ranges: p.groups.pages.ranges, process: r.processInline, processFile: r.processFile}
	scan, err := p.src.open(spec)
	if err != nil {
		r.cancel()
		r.pool.Close()
		return nil, err
	}
	r.scan = scan
	if pr, ok := scan.(processor); ok && pr.processes() {
		r.direct = true
		return r, nil
	}
	threads := p.opts.Threads
	jobs := make(chan batch)
	r.results = make(chan outcome)
	r.tokens = make(chan struct{}, 2*threads)

	r.wg.Add(1 + threads)
	go func() {
		defer r.wg.Done()
		r.read(ctx, jobs)
	}()
	var workers sync.WaitGroup
	workers.Add(threads)
	for w := 0; w < threads; w++ {
		go func() {
			defer r.wg.Done()
			defer workers.Done()
			for b := range jobs {
				r.results <- r.work(ctx, b)
			}
		}()
	}
	go func() {
		workers.Wait()
		close(r.results)
	}()
	return r, nil
}

// Schema is the schema of the output batches.
func (r *Reader) Schema() *arrow.Schema { return r.plan.out }

// Next makes the next batch current, in input order, and reports whether
// there is one. The previous batch is released: Retain it to keep it.
func (r *Reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.direct {
		return r.nextDirect()
	}
	for !r.done {
		if q, ok := r.pending[r.next]; ok {
			delete(r.pending, r.next)
			r.next++
			<-r.tokens
			if q.err != nil {
				r.fail(q.err)
				return false
			}
			if q.rec.NumRows() == 0 {
				q.rec.Release()
				continue
			}
			r.cur = q.rec
			r.rowsOut += q.rec.NumRows()
			return true
		}
		o, ok := <-r.results
		if !ok {
			r.done = true
			if err := r.ctx.Err(); err != nil && !r.complete.Load() {
				r.err = fmt.Errorf("%s: the scan was stopped after %d rows: %w", r.plan.src.name, r.rowsRead.Load(), err)
			}
			break
		}
		r.pending[o.seq] = o
	}
	return false
}

// nextDirect is Next of a scan that filters and projects itself.
func (r *Reader) nextDirect() bool {
	for !r.done {
		rec, err := r.scan.Next()
		switch {
		case r.ctx.Err() != nil && (err != nil || rec == nil):
			if rec != nil {
				rec.Release()
			}
			r.fail(fmt.Errorf("%s: the scan was stopped after %d rows: %w", r.plan.src.name, r.rowsRead.Load(), r.ctx.Err()))
		case err != nil:
			r.fail(err)
		case rec == nil:
			r.done = true
		case rec.NumRows() == 0:
			rec.Release()
		default:
			r.cur = rec
			r.rowsOut += rec.NumRows()
			return true
		}
	}
	return false
}

// processInline filters and projects a batch on the scan's own goroutine
// (scanSpec.process): offset is the rows read before it.
func (r *Reader) processInline(rec arrow.RecordBatch, offset int64) (out arrow.RecordBatch, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &internalError{value: v, stack: debug.Stack()}
		}
	}()
	r.batches.Add(1)
	r.rowsRead.Add(rec.NumRows())
	return r.plan.process(r.pool, batch{offset: offset, rec: rec})
}

// processFile is processInline of a batch of a dataset's file, which is
// first made the plan's (adapter), with memory from the scan's pool.
func (r *Reader) processFile(rec arrow.RecordBatch, offset int64, mp *memberPlan) (out arrow.RecordBatch, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &internalError{value: v, stack: debug.Stack()}
		}
	}()
	adapted, err := mp.adapt.apply(r.pool, rec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mp.m.path, err)
	}
	defer adapted.Release()
	r.batches.Add(1)
	r.rowsRead.Add(rec.NumRows())
	return r.plan.process(r.pool, batch{offset: offset, rec: adapted, file: mp.file})
}

// fail ends the scan with err.
func (r *Reader) fail(err error) {
	r.err = err
	r.done = true
	r.cancel()
}

// RecordBatch is the current batch, valid until the next call of Next.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch.
//
// Deprecated: use RecordBatch (as array.RecordReader does).
func (r *Reader) Record() arrow.RecordBatch { return r.cur }

// Err is the error that ended the scan, if any.
func (r *Reader) Err() error { return r.err }

// Progress is the fraction of the input read so far, or -1 when unknown
// (a stream).
func (r *Reader) Progress() float64 {
	if r.scan == nil {
		return 1
	}
	return r.scan.Progress()
}

// Position says how far a scan of a dataset is: the file it is at
// (counting from 1; 0 before the first) of the files it reads, and the
// bytes of them read so far (estimated within a file) of their sizes.
type Position struct {
	File, Files       int
	Bytes, TotalBytes int64
}

// Position is where the scan of a dataset is; the zero Position for
// another source.
func (r *Reader) Position() Position {
	if ds, ok := r.scan.(*datasetScan); ok {
		return ds.position()
	}
	return Position{}
}

// RowsRead is how many rows have been read from the source so far.
func (r *Reader) RowsRead() int64 { return r.rowsRead.Load() }

// Stats say what the scan has done so far. Call it from the goroutine
// that calls Next.
func (r *Reader) Stats() Stats {
	s := Stats{
		RowGroups: r.plan.groups.total,
		PruneNote: r.plan.groups.note,
		RowsRead:  r.rowsRead.Load(),
		RowsOut:   r.rowsOut,
		Batches:   r.batches.Load(),
	}
	if s.RowGroups >= 0 {
		s.RowGroupsRead = s.RowGroups
		if r.plan.groups.read != nil {
			s.RowGroupsRead = len(r.plan.groups.read)
		}
		s.RowGroupsSkipped = s.RowGroups - s.RowGroupsRead
		if w := r.plan.groups.whole; w != nil {
			s.RowGroupsWhole = w.groups
		}
		s.RowGroupsSkippedBloom = r.plan.groups.bloomSkipped
		s.BloomFilters = r.plan.groups.bloomFilters
		s.BloomNote = r.plan.groups.bloomNote
		pp := &r.plan.groups.pages
		s.PageGroups, s.Pages, s.PagesSkipped, s.BytesSkippedPages, s.PageNote = pp.groups, pp.pages, pp.skipped, pp.skippedBytes, pp.note
	}
	if r.plan.ds != nil {
		r.plan.ds.stats(&s)
		return s
	}
	switch src := r.plan.src; {
	case r.plan.none:
	case src.chunkBytes != nil:
		s.Bytes = src.chunkBytes(r.plan.fields, r.plan.groups.read) - s.BytesSkippedPages
		s.BytesSkipped = src.chunkBytes(r.plan.fields, nil) - s.Bytes
	default:
		s.Bytes = src.size
	}
	return s
}

// Retain adds a reference.
func (r *Reader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last one stops the scan, waits for its
// goroutines and releases every batch it holds.
func (r *Reader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.done = true
	if r.scan == nil {
		return
	}
	r.cancel()
	if r.direct {
		r.scan.Close()
		r.pool.Close()
		return
	}
	for o := range r.results { // unblock the workers
		if o.rec != nil {
			o.rec.Release()
		}
	}
	r.wg.Wait()
	for _, q := range r.pending {
		if q.rec != nil {
			q.rec.Release()
		}
	}
	r.pending = nil
	r.scan.Close()
	r.pool.Close()
}

// read sends the input's batches, cut to at most BatchSize rows, as jobs.
func (r *Reader) read(ctx context.Context, jobs chan<- batch) {
	defer close(jobs)
	batchSize := int64(r.plan.opts.BatchSize)
	name := r.plan.src.name
	seq := 0
	// offset counts the rows of the current file, total those of all.
	var offset, total int64
	ds, _ := r.scan.(*datasetScan)
	var file *fileRead
	send := func(b batch) bool {
		select {
		case r.tokens <- struct{}{}:
		case <-ctx.Done():
			if b.rec != nil {
				b.rec.Release()
			}
			return false
		}
		select {
		case jobs <- b:
			seq++
			return true
		case <-ctx.Done():
			if b.rec != nil {
				b.rec.Release()
			}
			return false
		}
	}
	next := func() (rec arrow.RecordBatch, err error) {
		defer func() {
			if v := recover(); v != nil {
				rec, err = nil, fmt.Errorf("%s: reading failed, the file may be corrupt: %v", name, v)
			}
		}()
		if rec, err = r.scan.Next(); rec == nil || err != nil {
			return rec, err
		}
		// A batch decoded from damaged bytes (an IPC body whose offsets
		// decrease or point past its data, text that is not UTF-8) must not
		// reach the slicing and the kernels, which trust Arrow's
		// invariants. The full check reads the offsets and the text once;
		// flat Parquet, decoded by pqread, does not come this way.
		if verr := array.ValidateRecordFull(rec); verr != nil {
			rec.Release()
			return nil, fmt.Errorf("%s: the file is corrupt: %w", name, verr)
		}
		return rec, nil
	}
	for ctx.Err() == nil {
		rec, err := next()
		if err != nil {
			send(batch{seq: seq, err: err})
			return
		}
		if rec == nil {
			r.complete.Store(true)
			return
		}
		if ds != nil {
			if f := ds.file(); f != file {
				file, offset = f, 0
			}
		}
		n := rec.NumRows()
		r.batches.Add(1)
		if n <= batchSize {
			if !send(batch{seq: seq, offset: offset, rec: rec, file: file}) {
				return
			}
		} else {
			for from := int64(0); from < n; from += batchSize {
				part := rec.NewSlice(from, min(n, from+batchSize))
				if !send(batch{seq: seq, offset: offset + from, rec: part, file: file}) {
					rec.Release()
					return
				}
			}
			rec.Release()
		}
		offset += n
		total += n
		r.rowsRead.Store(total)
	}
}

// work processes one batch, turning a panic into an internal error.
func (r *Reader) work(ctx context.Context, b batch) (o outcome) {
	o.seq = b.seq
	if b.err != nil {
		o.err = b.err
		return o
	}
	defer b.rec.Release()
	if err := ctx.Err(); err != nil {
		o.err = err
		return o
	}
	defer func() {
		if v := recover(); v != nil {
			o.rec, o.err = nil, &internalError{value: v, stack: debug.Stack()}
		}
	}()
	o.rec, o.err = r.plan.process(r.pool, b)
	return o
}
