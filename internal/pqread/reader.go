package pqread

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/internal/recycle"
)

// DefaultBatchSize is the rows per batch when Options.BatchSize is not set.
const DefaultBatchSize = 64 * 1024

// Options say how a Reader reads.
type Options struct {
	// BatchSize is the most rows a batch holds; 0 means DefaultBatchSize.
	// A row group is cut into batches of BatchSize rows, the last one
	// shorter; a batch never spans two row groups.
	BatchSize int
	// Threads is how many goroutines decode; 0 means GOMAXPROCS.
	Threads int
	// Mem allocates the batches' buffers; nil means memory.DefaultAllocator.
	Mem memory.Allocator
	// Source, when set, is what pf reads: the file. Set it when you can.
	// pqread then reads the column chunks from it through a file.Reader of
	// its own, on pf's metadata, whose page buffers come from Mem and are
	// recycled like the batches' buffers (through pf they are allocated
	// for each column chunk from pf's allocator and left to the garbage
	// collector), and decodes the pages of decimal columns itself (see the
	// package documentation). Reading TPC-H Q6's 4 columns that is 1.2×
	// as fast with INT64 decimals, 2.6× with FIXED_LEN_BYTE_ARRAY ones, on
	// one thread; more on two. Source must allow concurrent ReadAt calls
	// (an *os.File does). It is not closed, and not used for encrypted
	// files.
	Source parquet.ReaderAtSeeker
	// Process, when set, is called with each batch on the worker that
	// decoded its last column, as soon as it is decoded, and with the
	// number of rows of the batches before it; Next returns what Process
	// returns in the batch's stead. Process must not release the batch
	// (it may retain it). Filtering and projecting a batch there, while it
	// is in the cache and without handing it to another goroutine, is
	// cheaper than after Next. An error of Process is returned by Next as
	// it is, in file order, and stops the reader.
	Process func(rec arrow.RecordBatch, offset int64) (arrow.RecordBatch, error)
	// RowRanges, when set, narrows the row groups it has an entry for to
	// some of their rows: ranges of rows of the row group, in order and
	// disjoint (see RowRange). A row group without an entry is read whole;
	// one with an empty list, not at all. Batches then hold rows of one
	// range: a batch never spans two ranges, and its offset (Process)
	// counts the rows read before it. The pages no range overlaps are not
	// read when the column chunk has an offset index (see Page skipping in
	// the package documentation).
	RowRanges map[int][]RowRange
}

// minFlightRows is about the fewest rows a thread has in flight: with
// smaller batches, more of them.
const minFlightRows = 64 << 10

// sourceBufferSize is the buffer a column chunk is read through from
// Options.Source: a few pages at a time.
const sourceBufferSize = 128 << 10

// seekBufferSize is that buffer for a chunk whose reader seeks to the
// pages of some rows (Options.RowRanges): about a page. A larger page is
// read straight into its own buffer.
const seekBufferSize = 16 << 10

// ErrClosed is returned by Next after Close.
var ErrClosed = errors.New("pqread: the reader is closed")

// errStopped cancels the workers when the reader stops without a failure.
var errStopped = errors.New("pqread: stopped")

// Reader reads record batches of some columns of some row groups of a
// Parquet file. Its methods are for one goroutine; it decodes on its own
// goroutines.
type Reader struct {
	pf        *file.Reader // where the column chunks are read from
	schema    *arrow.Schema
	cols      []*column
	groups    []int // the row groups to read, in order
	ranges    map[int][]RowRange
	batchSize int64
	threads   int
	inFlight  int // most batches dispatched and not yet returned
	numRows   int64
	process   func(arrow.RecordBatch, int64) (arrow.RecordBatch, error)
	pool      *recycle.Allocator
	ownPages  bool         // pf is pqread's own: decode decimal pages with pageChunk
	seekPF    *file.Reader // pf with a small buffer, for row groups read in part
	encrypted bool         // pages are not sought: the decryptors count them

	parent context.Context
	ctx    context.Context // cancelled on a failure, at the end and on Close
	cancel context.CancelCauseFunc
	tasks  chan task
	wg     sync.WaitGroup

	// The rest belongs to the goroutine calling Next.
	started    bool
	dispatched int64    // rows of the batches dispatched
	nextGroup  int      // index in groups of the next row group to open
	cur        *group   // the row group being cut into batches
	live       []*group // row groups with batches not yet returned, in order
	queue      []*batch // batches dispatched and not yet returned, in order
	err        error    // the failure Next reports again
	stopped    bool
	closed     bool
}

// group is a row group being read.
type group struct {
	index   int // in the file
	rows    int64
	nslices int
	created int // batches dispatched so far
	// starts and counts are each slice's first row in the row group and
	// its row count: batchSize-row slices of the ranges read.
	starts, counts []int64
	// offsets returns the offset index of the row group, read once, for
	// seeking to the pages of the ranges read; nil without ranges.
	offsets func() (*metadata.RowGroupPageIndexReader, error)

	mu      sync.Mutex // guards batches
	batches []*batch   // by slice; nil once returned
	cols    []colState // by output column
}

// colState is one column chunk of a row group: its reader, used by one
// worker at a time, which decodes the chunk's slices in order.
type colState struct {
	mu     sync.Mutex // guards queued and busy
	queued int        // slices asked for and not yet decoded
	busy   bool       // a worker is decoding the chunk's slices

	// The rest belongs to the busy worker.
	cr   file.ColumnChunkReader // opened by the first slice, closed after the last
	pc   *pageChunk             // or this, when pqread decodes the pages itself
	next int                    // the slice to decode next
	pos  int64                  // the row of the row group it is at
	locs []pageLoc              // the chunk's pages, for seeking; nil: skip by decoding
	err  error                  // a failure: no further slice is decoded
	hint float64                // binary data bytes per row, for the first allocation
}

func (cs *colState) close() {
	if cs.cr != nil {
		cs.cr.Close()
		cs.cr = nil
	}
	if cs.pc != nil {
		cs.pc.close()
		cs.pc = nil
	}
}

// batch is one slice of a row group, decoded column by column.
type batch struct {
	g       *group
	slice   int
	n       int64
	cols    []arrow.Array // each written by the worker that decodes it
	pending atomic.Int32  // columns still to decode
	done    chan struct{} // closed when pending reaches 0
	offset  int64         // rows of the batches before it
	first   int64         // its first row in the row group

	// With Options.Process: its result, which takes the columns' place.
	processed bool
	out       arrow.RecordBatch
	perr      error
}

// finish runs Options.Process on b once its columns are decoded.
func (r *Reader) finish(b *batch) {
	if r.process == nil || b.processed || r.ctx.Err() != nil {
		return
	}
	for _, a := range b.cols {
		if a == nil {
			return
		}
	}
	rec := array.NewRecordBatch(r.schema, b.cols, b.n)
	for i, a := range b.cols {
		a.Release()
		b.cols[i] = nil
	}
	b.out, b.perr = r.process(rec, b.offset)
	rec.Release()
	b.processed = true
}

// task asks a worker to decode the next slice of one column of g.
type task struct {
	g   *group
	col int
}

// NewReader returns a reader of the top-level fields of pf with the given
// indices in manifest (pqarrow's manifest of pf: FileReader.Manifest), in
// that order, and of the given row groups, in that order (nil means all
// of them). The fields must be Supported; nil fields means all of the
// manifest's. ctx stops the reading when cancelled.
func NewReader(ctx context.Context, pf *file.Reader, manifest *pqarrow.SchemaManifest, fields []int, rowGroups []int, opt Options) (*Reader, error) {
	if fields == nil {
		fields = make([]int, len(manifest.Fields))
		for i := range fields {
			fields[i] = i
		}
	}
	md := pf.MetaData()
	cols := make([]*column, len(fields))
	afs := make([]arrow.Field, len(fields))
	for i, fi := range fields {
		if fi < 0 || fi >= len(manifest.Fields) {
			return nil, fmt.Errorf("pqread: field %d is not in the schema of %d fields", fi, len(manifest.Fields))
		}
		f := &manifest.Fields[fi]
		if !Supported(f) {
			return nil, fmt.Errorf("pqread: field %q of type %s cannot be read by pqread", f.Field.Name, f.Field.Type)
		}
		col, err := planColumn(f, md.Schema.Column(f.ColIndex))
		if err != nil {
			return nil, fmt.Errorf("pqread: %w", err)
		}
		cols[i], afs[i] = col, *f.Field
	}
	if rowGroups == nil {
		rowGroups = make([]int, pf.NumRowGroups())
		for i := range rowGroups {
			rowGroups[i] = i
		}
	}
	var numRows int64
	for _, g := range rowGroups {
		if g < 0 || g >= pf.NumRowGroups() {
			return nil, fmt.Errorf("pqread: row group %d is not in the file's %d", g, pf.NumRowGroups())
		}
		rows := md.RowGroup(g).NumRows()
		if rr, ok := opt.RowRanges[g]; ok {
			n, err := checkRanges(rr, rows)
			if err != nil {
				return nil, fmt.Errorf("pqread: the row ranges of row group %d: %w", g, err)
			}
			rows = n
		}
		numRows += rows
	}
	// Like pqarrow's FileReader.Schema, with the stored Arrow schema's metadata.
	var meta *arrow.Metadata
	if manifest.OriginSchema != nil {
		m := manifest.OriginSchema.Metadata()
		meta = &m
	} else {
		meta = manifest.SchemaMeta
	}
	r := &Reader{
		pf:        pf,
		schema:    arrow.NewSchema(afs, meta),
		cols:      cols,
		groups:    rowGroups,
		ranges:    opt.RowRanges,
		batchSize: int64(opt.BatchSize),
		threads:   opt.Threads,
		numRows:   numRows,
		process:   opt.Process,
		parent:    ctx,
	}
	if r.batchSize <= 0 {
		r.batchSize = DefaultBatchSize
	}
	if r.threads <= 0 {
		r.threads = runtime.GOMAXPROCS(0)
	}
	encrypted := md.IsSetEncryptionAlgorithm() || md.FileDecryptor != nil
	// A file's decryptors are shared by its column chunks and keep state:
	// one worker reads the chunks one at a time.
	if encrypted {
		r.threads = 1
		r.encrypted = true
	}
	// 2×Threads batches in flight, or more when they are small and the
	// columns few: those of a column chunk are decoded one after the
	// other, so with few columns the workers need batches of several row
	// groups at hand to keep busy. Many columns keep them busy within a
	// batch, and more batches in flight would only cost memory.
	r.inFlight = max(2*r.threads, 2)
	if len(cols) <= 4*r.threads {
		r.inFlight *= max(1, minFlightRows/int(r.batchSize))
	}
	mem := opt.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	// Room for the buffers of the batches in flight and of a few more the
	// caller holds (up to three a column), and for the page buffers of the
	// column chunks open (three a chunk; a chunk for each batch in flight
	// at most).
	r.pool = recycle.New(mem, 6*(r.inFlight+4)*max(len(cols), 1), false)
	if opt.Source != nil && !encrypted {
		props := parquet.NewReaderProperties(r.pool)
		props.BufferedStreamEnabled = true
		props.BufferSize = sourceBufferSize
		own, err := file.NewParquetReader(opt.Source, file.WithReadProps(props), file.WithMetadata(md))
		if err != nil {
			return nil, fmt.Errorf("pqread: %w", err)
		}
		r.pf = own // not closed: that would close Source
		r.ownPages = true
		if len(opt.RowRanges) > 0 {
			// The chunks of row groups read in part seek from page to
			// page: a small buffer reads little beyond the pages wanted.
			props := parquet.NewReaderProperties(r.pool)
			props.BufferedStreamEnabled = true
			props.BufferSize = seekBufferSize
			if r.seekPF, err = file.NewParquetReader(opt.Source, file.WithReadProps(props), file.WithMetadata(md)); err != nil {
				return nil, fmt.Errorf("pqread: %w", err)
			}
		}
	}
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	r.tasks = make(chan task, r.inFlight*len(cols))
	return r, nil
}

// Schema is the schema of the batches: the fields read, as pqarrow's
// FileReader.Schema gives them.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// NumRows is the number of rows the reader reads in all.
func (r *Reader) NumRows() int64 { return r.numRows }

// Next returns the next batch, which the caller releases, or nil, nil
// after the last one. Batches come in file order (the order of the row
// groups asked for). After an error Next returns the same error again;
// the goroutines have stopped.
func (r *Reader) Next() (arrow.RecordBatch, error) {
	switch {
	case r.closed:
		return nil, ErrClosed
	case r.err != nil:
		return nil, r.err
	case r.stopped:
		return nil, nil
	}
	if err := r.parent.Err(); err != nil {
		return nil, r.fail(context.Cause(r.parent))
	}
	if !r.started {
		r.started = true
		if len(r.cols) > 0 {
			for range r.threads {
				r.wg.Add(1)
				go r.work()
			}
		}
	}
	r.dispatch()
	if len(r.queue) == 0 {
		r.stop()
		return nil, nil
	}
	b := r.queue[0]
	select {
	case <-b.done:
	case <-r.ctx.Done():
	}
	if err := r.parent.Err(); err != nil {
		return nil, r.fail(context.Cause(r.parent))
	}
	select {
	case <-b.done:
	default: // a failure cancelled the workers
		return nil, r.fail(context.Cause(r.ctx))
	}
	if !b.processed {
		for _, a := range b.cols {
			if a == nil { // not decoded: a failure cancelled the workers
				return nil, r.fail(context.Cause(r.ctx))
			}
		}
		r.finish(b) // a batch of no column
	}
	r.queue[0] = nil
	r.queue = r.queue[1:]
	g := b.g
	g.mu.Lock()
	g.batches[b.slice] = nil
	g.mu.Unlock()
	if b.slice == g.nslices-1 {
		r.live[0] = nil
		r.live = r.live[1:]
	}
	if b.processed {
		if b.perr != nil {
			return nil, r.fail(b.perr)
		}
		return b.out, nil
	}
	rec := array.NewRecordBatch(r.schema, b.cols, b.n)
	for _, a := range b.cols {
		a.Release()
	}
	return rec, nil
}

// dispatch makes batches, and the tasks decoding them, until inFlight
// batches are dispatched or every one is.
func (r *Reader) dispatch() {
	for len(r.queue) < r.inFlight {
		g := r.cur
		if g == nil || g.created == g.nslices {
			g = r.openGroup()
			if g == nil {
				return
			}
			r.cur = g
		}
		k := g.created
		g.created++
		b := &batch{g: g, slice: k, n: g.counts[k], first: g.starts[k], cols: make([]arrow.Array, len(r.cols)), done: make(chan struct{}), offset: r.dispatched}
		r.dispatched += b.n
		b.pending.Store(int32(len(r.cols)))
		if len(r.cols) == 0 {
			close(b.done)
		}
		g.mu.Lock()
		g.batches[k] = b
		g.mu.Unlock()
		r.queue = append(r.queue, b)
		for c := range r.cols {
			r.tasks <- task{g, c} // never blocks: the channel holds inFlight batches' tasks
		}
	}
}

// openGroup returns the next row group with rows to read, or nil.
func (r *Reader) openGroup() *group {
	for r.nextGroup < len(r.groups) {
		idx := r.groups[r.nextGroup]
		r.nextGroup++
		rows := r.pf.MetaData().RowGroup(idx).NumRows()
		ranges, narrowed := r.ranges[idx]
		if !narrowed {
			ranges = []RowRange{{0, rows}}
		}
		g := &group{index: idx, cols: make([]colState, len(r.cols))}
		for _, rr := range ranges {
			for at := rr.Start; at < rr.End; at += r.batchSize {
				g.starts = append(g.starts, at)
				g.counts = append(g.counts, min(r.batchSize, rr.End-at))
				g.rows += min(r.batchSize, rr.End-at)
			}
		}
		if g.rows <= 0 {
			continue
		}
		g.nslices = len(g.starts)
		g.batches = make([]*batch, g.nslices)
		if narrowed {
			pir := r.pf.GetPageIndexReader()
			g.offsets = sync.OnceValues(func() (*metadata.RowGroupPageIndexReader, error) { return pir.RowGroup(idx) })
		}
		r.live = append(r.live, g)
		return g
	}
	return nil
}

func (r *Reader) work() {
	defer r.wg.Done()
	sc := newScratch()
	for {
		select {
		case <-r.ctx.Done():
			return
		case t, ok := <-r.tasks:
			if !ok {
				return
			}
			r.run(t, sc)
		}
	}
}

// run decodes the next slice of the column t names. Tasks for one column
// chunk are dispatched in slice order, and its slices must be decoded in
// that order by one worker at a time: a worker that finds another decoding
// the chunk leaves its slice to that one, which decodes the slices left to
// it before it lets go, and goes on to its next task instead of waiting.
func (r *Reader) run(t task, sc *scratch) {
	g, cs := t.g, &t.g.cols[t.col]
	cs.mu.Lock()
	cs.queued++
	if cs.busy {
		cs.mu.Unlock()
		return
	}
	cs.busy = true
	for cs.queued > 0 {
		cs.queued--
		cs.mu.Unlock()
		r.decodeNext(g, t.col, cs, sc)
		cs.mu.Lock()
	}
	cs.busy = false
	cs.mu.Unlock()
}

// decodeNext decodes the next slice of column c of g into its batch.
func (r *Reader) decodeNext(g *group, c int, cs *colState, sc *scratch) {
	k := cs.next
	cs.next++
	g.mu.Lock()
	b := g.batches[k]
	g.mu.Unlock()
	if cs.err == nil && r.ctx.Err() == nil {
		a, err := r.decode(g, c, cs, b, sc)
		if err != nil {
			cs.err = fmt.Errorf("pqread: row group %d, column %q: %w", g.index, r.cols[c].field.Name, err)
			// Before the batch is done: whoever finds it incomplete finds
			// the reader cancelled too.
			r.cancel(cs.err)
		} else {
			b.cols[c] = a
		}
	}
	if cs.next == g.nslices || cs.err != nil {
		cs.close()
	}
	if b.pending.Add(-1) == 0 {
		r.finish(b)
		close(b.done)
	}
}

// decode decodes slice b of column c, opening the column chunk for the
// first slice. A panic of arrow-go's decoders (on some corrupt input)
// becomes an error.
func (r *Reader) decode(g *group, c int, cs *colState, b *batch, sc *scratch) (a arrow.Array, err error) {
	col := r.cols[c]
	o := &sliceOut{pool: r.pool, n: int(b.n), first: b.first, maxDef: col.maxDef}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoding failed (the file may be corrupt): %v", p)
		}
		if err != nil {
			o.release()
			if a != nil {
				a.Release()
				a = nil
			}
		}
	}()
	if col.kind == kindNull {
		return array.NewNull(o.n), nil
	}
	if cs.cr == nil && cs.pc == nil {
		if b.slice != 0 { // only after a failure, which stops the reader
			return nil, errors.New("the column chunk is closed")
		}
		// A RowGroupReader of its own: nothing is shared with the chunks
		// other workers read but the file and its metadata.
		pf := r.pf
		if g.offsets != nil && r.seekPF != nil {
			pf = r.seekPF
		}
		rg := pf.RowGroup(g.index)
		cm, err := rg.MetaData().ColumnChunk(col.leaf)
		if err != nil {
			return nil, err
		}
		if cm.NumValues() > 0 {
			cs.hint = float64(cm.TotalUncompressedSize()) / float64(cm.NumValues())
		}
		// Pages are decoded here only from pqread's own reader, which
		// hands out whole pages (pf's may stream them).
		if r.ownPages && pageDecodable(col, cm) {
			pr, err := rg.GetColumnPageReader(col.leaf)
			if err != nil {
				return nil, err
			}
			cs.pc = newPageChunk(pr, col, r.pool)
		} else {
			if cs.cr, err = rg.Column(col.leaf); err != nil {
				return nil, err
			}
		}
		if g.offsets != nil && !r.encrypted {
			cs.locs = chunkPages(g, col.leaf, cm)
		}
	}
	if err := cs.moveTo(b.first, sc); err != nil {
		return nil, err
	}
	if a, err = decodeSlice(col, cs.cr, cs.pc, o, sc, &cs.hint); err == nil {
		cs.pos += b.n
	}
	return a, err
}

// fail records err, which Next returns from now on, and stops.
func (r *Reader) fail(err error) error {
	if err == nil {
		err = errors.New("pqread: reading was cancelled")
	}
	r.err = err
	r.stop()
	return err
}

// stop cancels the workers, waits for them to end and releases
// everything but the free buffers.
func (r *Reader) stop() {
	if r.stopped {
		return
	}
	r.stopped = true
	r.cancel(errStopped)
	r.wg.Wait()
	for _, b := range r.queue {
		for _, a := range b.cols {
			if a != nil {
				a.Release()
			}
		}
		if b.out != nil {
			b.out.Release()
		}
	}
	r.queue = nil
	for _, g := range r.live {
		for i := range g.cols {
			g.cols[i].close()
		}
	}
	r.live, r.cur = nil, nil
}

// Close stops the goroutines and releases everything the reader holds.
// Batches already returned stay valid until the caller releases them.
func (r *Reader) Close() {
	if r.closed {
		return
	}
	r.stop()
	r.closed = true
	r.pool.Close()
}
