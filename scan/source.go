package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/pqread"
	"github.com/colexpr/colexpr/prune"
)

// The readers. Each input is opened once to learn its schema, then scanned
// once for the columns a query needs; a scan hands out record batches one at
// a time, so memory is bounded by the batch size, not by the file's size.

// Source is an opened input: a Parquet, Arrow IPC (file or stream) or CSV
// file, or the demo table. A Parquet or Arrow IPC file can be scanned any
// number of times; a stream or a CSV file once.
type Source struct {
	// name is how messages refer to the input: the file name, or "the demo table".
	name   string
	schema *arrow.Schema
	typed  *colexpr.Schema
	mem    memory.Allocator
	// open starts a scan.
	open  func(spec scanSpec) (scanner, error)
	close func() error
	// rowGroups is set for inputs made of row groups with statistics
	// (Parquet): the row count of each group.
	rowGroups []int64
	// groupStats gives the statistics of the columns cols in every row
	// group. An error means the file's statistics cannot be read; the
	// file itself may still be.
	groupStats func(cols []prune.Column) ([]prune.ChunkStats, error)
	// probeBlooms asks the bloom filters of the given row groups about
	// the probes of cols and sets Absent in stats (one per row group); it
	// returns how many filters it read and a note when one could not be
	// (its row group is then read). nil when the source has none.
	probeBlooms func(cols []prune.Column, groups []int, stats []prune.ChunkStats) (read int, note string)
	// size is the file's size in bytes (0 for the demo table);
	// chunkBytes, for Parquet, the compressed size of the column chunks
	// of the given top-level fields in the given row groups (nil: all).
	size       int64
	chunkBytes func(fields, groups []int) int64
	// inline reports whether a scan of the given fields runs
	// scanSpec.process itself (Parquet of flat columns).
	inline func(fields []int) bool
	// pages reads the page index of a Parquet file; nil for other sources.
	pages *pageIndex
	// ds is set for a dataset of many files (OpenDataset); schema is then
	// nil until Resolve.
	ds *dataset
}

// Name is how messages name the source: its path, or "the demo table".
func (s *Source) Name() string { return s.name }

// SetName changes how messages name the source, for a source that stands
// for another file (playground.Open's copy of a CSV file is named after
// the file). It changes nothing that is read.
func (s *Source) SetName(name string) { s.name = name }

// Schema is the source's schema as colexpr types it, with the columns it
// cannot read left out.
//
// Of a dataset, it is the schema of every file (see Resolve), which it
// opens; a dataset whose files cannot be unified has an empty schema.
func (s *Source) Schema() *colexpr.Schema {
	if s.typed == nil {
		if s.ds != nil && s.Resolve() != nil {
			return colexpr.NewSchema(arrow.NewSchema(nil, nil))
		}
		s.typed = colexpr.NewSchema(s.schema)
	}
	return s.typed
}

// RowGroups is the number of row groups of a Parquet source, -1 for other
// sources (datasets too).
func (s *Source) RowGroups() int {
	if s.rowGroups == nil {
		return -1
	}
	return len(s.rowGroups)
}

// Close closes the file. Scans still running are not stopped: release
// their readers first.
func (s *Source) Close() error { return s.close() }

// scanSpec says what a scan reads.
type scanSpec struct {
	// ctx stops readers that decode on goroutines of their own.
	ctx context.Context
	// fields are the indices of the top-level fields to read, in schema
	// order; nil reads every field.
	fields []int
	// batchSize is about the most rows a batch holds; threads is how many
	// goroutines the reader may use.
	batchSize, threads int
	// groups, when not nil, are the row groups to read, in order (inputs
	// with rowGroups only).
	groups []int
	// ranges narrows some of them to ranges of their rows (page pruning;
	// Parquet read by pqread only).
	ranges map[int][]pqread.RowRange
	// process, when set, may be run by the scan on each batch it reads,
	// with the rows read before it, on the goroutine that decoded it; a
	// scan that does implements processor and hands out its results.
	process func(rec arrow.RecordBatch, offset int64) (arrow.RecordBatch, error)
	// processFile is process for a batch of a file of a dataset, which it
	// first makes the plan's; a dataset's scan runs it on the batches of
	// its files, or has their scans run it (process).
	processFile func(rec arrow.RecordBatch, offset int64, mp *memberPlan) (arrow.RecordBatch, error)
}

// processor is a scan that runs scanSpec.process itself.
type processor interface{ processes() bool }

// scanner reads batches.
type scanner interface {
	// Next returns the next batch, which the caller releases, or nil at
	// the end.
	Next() (arrow.RecordBatch, error)
	// Progress is the fraction of the input read so far, or -1 when unknown.
	Progress() float64
	Close()
}

// Open opens the file at path. Its format is told from its first bytes
// (Sniff): Parquet, an Arrow IPC file or stream, else CSV (read with the
// default CSVOptions; see OpenCSV). The name's extension is a hint: .parquet
// or .pq, .arrow, .feather or .ipc, .arrows and .csv must name the format
// the bytes are, or the error says what they are; another name is read as
// its bytes say. Scans allocate their memory from mem.
func Open(mem memory.Allocator, path string) (*Source, error) {
	return openSniffed(mem, path, CSVOptions{})
}

// openSniffed opens the file at path in the format its bytes give, a CSV
// file with o.
func openSniffed(mem memory.Allocator, path string, o CSVOptions) (*Source, error) {
	return openFile(mem, path, func(mem memory.Allocator, path string, f *os.File) (*Source, error) {
		if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
			// A pipe (<(cat data.csv), /dev/stdin): read as it streams in.
			src, err := OpenStream(mem, path, f, o)
			if err != nil {
				return nil, err
			}
			src.close = f.Close
			return src, nil
		}
		head := make([]byte, sniffLen)
		n, err := f.ReadAt(head, 0)
		if err != nil && err != io.EOF {
			return nil, fileError(path, "cannot be read", err)
		}
		format, err := sniffedFormat(path, head[:n])
		if err != nil {
			return nil, err
		}
		return openFormat(mem, path, f, format, o)
	})
}

// openFormat reads f as a file of the given format.
func openFormat(mem memory.Allocator, path string, f *os.File, format Format, o CSVOptions) (*Source, error) {
	switch format {
	case FormatParquet:
		return openParquet(mem, path, f)
	case FormatIPCFile:
		return openIPCFile(mem, path, f)
	case FormatIPCStream:
		return openIPCStream(mem, path, fileInput(f))
	}
	return openCSV(mem, path, fileInput(f), o)
}

// streamInput is an input read from its start to its end: a file or the
// standard input.
type streamInput struct {
	r    io.Reader
	size int64 // in bytes, or -1 when unknown
	// rewind starts reading r again from its start; nil when it cannot.
	rewind func() error
	close  func() error
}

// fileInput reads f as a stream.
func fileInput(f *os.File) streamInput {
	in := streamInput{r: f, size: -1, close: f.Close}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		in.size = st.Size()
		in.rewind = func() error { _, err := f.Seek(0, io.SeekStart); return err }
	}
	return in
}

// openFile opens the file at path and reads it with open.
func openFile(mem memory.Allocator, path string, open func(memory.Allocator, string, *os.File) (*Source, error)) (*Source, error) {
	if openHook != nil {
		openHook(path)
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory, not a file", path)
	}
	src, err := openRecovering(mem, path, f, open)
	if err != nil {
		f.Close()
		return nil, err
	}
	src.mem = mem
	if st, err := f.Stat(); err == nil {
		src.size = st.Size()
	}
	return src, nil
}

// openHook, when set (by tests), is called with the path of every file
// opened: partition pruning is tested by counting them.
var openHook func(path string)

// openRecovering runs open, turning a panic into an error: arrow-go's
// readers panic on some corrupt headers and footers instead of failing.
func openRecovering(mem memory.Allocator, path string, f *os.File, open func(memory.Allocator, string, *os.File) (*Source, error)) (src *Source, err error) {
	defer func() {
		if v := recover(); v != nil {
			src, err = nil, fmt.Errorf("%s: not a readable file, it may be corrupt: %v", path, v)
		}
	}()
	return open(mem, path, f)
}

// fileError describes a failure to read a file, corrupt or truncated.
func fileError(path, what string, err error) error {
	return fmt.Errorf("%s: %s: %w", path, what, err)
}

// Demo is the built-in demo table of the given number of rows (package
// demo, with its default seed).
func Demo(mem memory.Allocator, rows int64) *Source {
	t := demo.Table{Seed: demo.DefaultSeed, Rows: rows}
	return &Source{
		mem:    mem,
		name:   "the demo table",
		schema: demo.Schema(),
		open: func(spec scanSpec) (scanner, error) {
			rr, err := t.NewReader(mem, spec.batchSize)
			if err != nil {
				return nil, err
			}
			return &recordReaderScan{rr: rr, fields: spec.fields, total: rows}, nil
		},
		close: func() error { return nil },
	}
}

// recordReaderScan scans an array.RecordReader, keeping only some fields.
type recordReaderScan struct {
	rr     array.RecordReader
	fields []int
	total  int64 // rows in all, or -1
	read   int64
	bytes  *countingReader // for progress when total is unknown
	path   string          // for messages
}

func (s *recordReaderScan) Next() (arrow.RecordBatch, error) {
	if !s.rr.Next() {
		if err := s.rr.Err(); err != nil {
			return nil, fileError(s.path, "reading failed (the file may be corrupt)", err)
		}
		return nil, nil
	}
	rec, err := fillMissingDictionaries(project(s.rr.RecordBatch(), s.fields))
	if err != nil {
		return nil, fileError(s.path, "reading failed", err)
	}
	s.read += rec.NumRows()
	return rec, nil
}

// fillMissingDictionaries is rec (whose reference it takes) with an empty
// dictionary given to the dictionary arrays in it that have none, as
// arrow-go's Parquet reader gives the list elements of a batch without
// any: kernels.FillMissingDictionaries. The Parquet writer fails on them.
// The empty dictionaries, a few bytes each, come from Go's allocator.
func fillMissingDictionaries(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	var cols []arrow.Array
	for i, c := range rec.Columns() {
		if !kernels.HasDictionary(c.DataType()) {
			continue
		}
		f, err := kernels.FillMissingDictionaries(memory.DefaultAllocator, c)
		if err != nil {
			releaseAll(cols)
			rec.Release()
			return nil, fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
		}
		if f == c {
			f.Release()
			continue
		}
		if cols == nil {
			cols = make([]arrow.Array, rec.NumCols())
		}
		cols[i] = f
	}
	if cols == nil {
		return rec, nil
	}
	defer releaseAll(cols)
	defer rec.Release()
	for i, c := range rec.Columns() {
		if cols[i] == nil {
			cols[i] = c
			c.Retain()
		}
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}

func releaseAll(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

func (s *recordReaderScan) Progress() float64 {
	switch {
	case s.total > 0:
		return float64(s.read) / float64(s.total)
	case s.bytes != nil:
		return s.bytes.fraction()
	}
	return -1
}

func (s *recordReaderScan) Close() { s.rr.Release() }

// project is a new reference to rec's fields with the given indices, or to
// all of rec when fields is nil.
func project(rec arrow.RecordBatch, fields []int) arrow.RecordBatch {
	if fields == nil {
		rec.Retain()
		return rec
	}
	sc := rec.Schema()
	cols := make([]arrow.Array, len(fields))
	fs := make([]arrow.Field, len(fields))
	for i, f := range fields {
		cols[i] = rec.Column(f)
		fs[i] = sc.Field(f)
	}
	return array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, rec.NumRows())
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r    io.Reader
	n    atomic.Int64
	size int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// fraction is the part of the file read so far, or -1 when its size is
// unknown.
func (c *countingReader) fraction() float64 {
	if c.size <= 0 {
		return -1
	}
	return float64(c.n.Load()) / float64(c.size)
}

func newCountingReader(in streamInput) *countingReader {
	return &countingReader{r: in.r, size: in.size}
}

// Parquet.

func openParquet(mem memory.Allocator, path string, f *os.File) (*Source, error) {
	props := parquet.NewReaderProperties(mem)
	// Read column chunks page by page rather than whole.
	props.BufferedStreamEnabled = true
	props.BufferSize = 128 << 10
	pf, err := file.NewParquetReader(f, file.WithReadProps(props))
	if err != nil {
		return nil, fileError(path, "not a readable Parquet file", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		pf.Close()
		return nil, fileError(path, "cannot read its schema", err)
	}
	sc, err := fr.Schema()
	if err != nil {
		pf.Close()
		return nil, fileError(path, "cannot read its schema", err)
	}
	groups := make([]int64, pf.NumRowGroups())
	for i := range groups {
		groups[i] = pf.MetaData().RowGroup(i).NumRows()
	}
	var raw [][]rawStats
	var rawErr error
	rawRead := false
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return &Source{
		name:      path,
		schema:    sc,
		rowGroups: groups,
		pages:     &pageIndex{pf: pf, manifest: fr.Manifest, size: size},
		groupStats: func(cols []prune.Column) ([]prune.ChunkStats, error) {
			if !rawRead {
				rawRead = true
				raw, rawErr = parquetFooterStats(f)
			}
			if rawErr != nil {
				return nil, fmt.Errorf("%s: the row group statistics cannot be read: %w", path, rawErr)
			}
			return rowGroupStats(pf, fr.Manifest, raw, cols), nil
		},
		probeBlooms: func(cols []prune.Column, read []int, stats []prune.ChunkStats) (int, string) {
			size := int64(-1)
			if st, err := f.Stat(); err == nil {
				size = st.Size()
			}
			return probeBloomFilters(pf, fr.Manifest, size, cols, read, stats)
		},
		inline: func(fields []int) bool {
			for _, i := range fields {
				if !pqread.Supported(&fr.Manifest.Fields[i]) {
					return false
				}
			}
			return true
		},
		chunkBytes: func(fields, read []int) int64 {
			var leaves []int
			for _, i := range fields {
				leaves = appendLeaves(leaves, &fr.Manifest.Fields[i])
			}
			var n int64
			add := func(g int) {
				rg := pf.MetaData().RowGroup(g)
				for _, l := range leaves {
					if cc, err := rg.ColumnChunk(l); err == nil {
						n += cc.TotalCompressedSize()
					}
				}
			}
			if read == nil {
				for g := range groups {
					add(g)
				}
			}
			for _, g := range read {
				add(g)
			}
			return n
		},
		open: func(spec scanSpec) (scanner, error) {
			var total int64
			if spec.groups == nil {
				total = pf.NumRows()
			} else {
				for _, g := range spec.groups {
					total += groups[g]
				}
				if len(spec.groups) == 0 {
					return emptyScan{}, nil
				}
			}
			for g, rr := range spec.ranges {
				total -= groups[g]
				for _, r := range rr {
					total += r.End - r.Start
				}
			}
			if spec.fields != nil && len(spec.fields) == 0 {
				return newRowCountScan(groups, spec.groups, spec.batchSize), nil
			}
			fields := spec.fields
			if fields == nil {
				for i := range fr.Manifest.Fields {
					fields = append(fields, i)
				}
			}
			fast := true
			for _, i := range fields {
				fast = fast && pqread.Supported(&fr.Manifest.Fields[i])
			}
			if fast {
				scan := &fastParquetScan{total: total, path: path, processed: spec.process != nil}
				o := pqread.Options{BatchSize: spec.batchSize, Threads: spec.threads, Mem: mem, Source: f, RowRanges: spec.ranges}
				if spec.process != nil {
					o.Process = func(rec arrow.RecordBatch, offset int64) (arrow.RecordBatch, error) {
						scan.read.Add(rec.NumRows())
						out, err := spec.process(rec, offset)
						if err != nil {
							err = &processError{err}
						}
						return out, err
					}
				}
				var err error
				if scan.r, err = pqread.NewReader(spec.ctx, pf, fr.Manifest, fields, spec.groups, o); err != nil {
					return nil, fileError(path, "cannot read", err)
				}
				return scan, nil
			}
			if spec.ranges != nil {
				// Pages are pruned only for columns pqread reads.
				return nil, fmt.Errorf("%s: %w: row ranges asked of columns pqread cannot read", path, ErrInternal)
			}
			var leaves []int
			for _, i := range fields {
				leaves = appendLeaves(leaves, &fr.Manifest.Fields[i])
			}
			fr.Props.BatchSize = int64(spec.batchSize)
			// Not in parallel: pqarrow would decode on goroutines of its
			// own, where a panic of its decoders on a corrupt page cannot
			// be recovered; on the reading goroutine it is an error.
			fr.Props.Parallel = false
			rr, err := fr.GetRecordReader(context.Background(), leaves, spec.groups)
			if err != nil {
				return nil, fileError(path, "cannot read", err)
			}
			return &recordReaderScan{rr: rr, total: total, path: path}, nil
		},
		close: pf.Close,
	}, nil
}

// parquetFooterStats reads the statistics of every column chunk from the
// footer of the Parquet file f.
func parquetFooterStats(f *os.File) ([][]rawStats, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	footer, err := readFooter(f, st.Size())
	if err != nil {
		return nil, err
	}
	return footerStats(footer)
}

// emptyScan has no rows: the scan of a file whose row groups were all
// skipped.
type emptyScan struct{}

func (emptyScan) Next() (arrow.RecordBatch, error) { return nil, nil }
func (emptyScan) Progress() float64                { return 1 }
func (emptyScan) Close()                           {}

// fastParquetScan reads flat Parquet columns with package pqread, which
// decodes row groups on several goroutines into recycled buffers; other
// columns (lists, structs) go through pqarrow's record reader.
type fastParquetScan struct {
	r         *pqread.Reader
	total     int64
	read      atomic.Int64
	path      string
	processed bool // the batches are those of scanSpec.process
}

// processError is an error of scanSpec.process, which passes through
// pqread as it is.
type processError struct{ err error }

func (e *processError) Error() string { return e.err.Error() }

func (s *fastParquetScan) processes() bool { return s.processed }

func (s *fastParquetScan) Next() (arrow.RecordBatch, error) {
	rec, err := s.r.Next()
	if err != nil {
		if pe, ok := err.(*processError); ok {
			return nil, pe.err
		}
		return nil, fileError(s.path, "reading failed (the file may be corrupt)", err)
	}
	if rec != nil && !s.processed {
		s.read.Add(rec.NumRows())
	}
	return rec, nil
}

func (s *fastParquetScan) Progress() float64 {
	if s.total <= 0 {
		return 1
	}
	return float64(s.read.Load()) / float64(s.total)
}

func (s *fastParquetScan) Close() { s.r.Close() }

// rowCountScan reads no column: its batches have rows and no columns,
// counted from the row groups' row counts. A query that reads no column
// (a constant select list) reads nothing of a Parquet file but its footer.
type rowCountScan struct {
	counts []int64 // rows of each group to read, in order
	batch  int64
	at     int   // the group being read
	left   int64 // rows of it not yet handed out
	done   int64
	total  int64
	schema *arrow.Schema
}

func newRowCountScan(groupRows []int64, read []int, batchSize int) *rowCountScan {
	s := &rowCountScan{batch: int64(batchSize), schema: arrow.NewSchema(nil, nil)}
	if read == nil {
		s.counts = append(s.counts, groupRows...)
	} else {
		for _, g := range read {
			s.counts = append(s.counts, groupRows[g])
		}
	}
	for _, n := range s.counts {
		s.total += n
	}
	if len(s.counts) > 0 {
		s.left = s.counts[0]
	}
	return s
}

func (s *rowCountScan) Next() (arrow.RecordBatch, error) {
	for s.left == 0 {
		s.at++
		if s.at >= len(s.counts) {
			return nil, nil
		}
		s.left = s.counts[s.at]
	}
	n := min(s.left, s.batch)
	s.left -= n
	s.done += n
	return array.NewRecordBatch(s.schema, nil, n), nil
}

func (s *rowCountScan) Progress() float64 {
	if s.total == 0 {
		return 1
	}
	return float64(s.done) / float64(s.total)
}

func (s *rowCountScan) Close() {}

// appendLeaves appends the Parquet leaf column indices under field.
func appendLeaves(leaves []int, field *pqarrow.SchemaField) []int {
	if field.IsLeaf() {
		return append(leaves, field.ColIndex)
	}
	for i := range field.Children {
		leaves = appendLeaves(leaves, &field.Children[i])
	}
	return leaves
}

// Arrow IPC.

func openIPCFile(mem memory.Allocator, path string, f *os.File) (*Source, error) {
	if st, err := f.Stat(); err == nil {
		if err := checkIPCFileFooter(f, st.Size()); err != nil {
			return nil, fileError(path, "not a readable Arrow IPC file", err)
		}
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		return nil, fileError(path, "not a readable Arrow IPC file", err)
	}
	return &Source{
		name:   path,
		schema: r.Schema(),
		open: func(spec scanSpec) (scanner, error) {
			return &ipcFileScan{r: r, fields: spec.fields, path: path}, nil
		},
		close: func() error { r.Close(); return f.Close() },
	}, nil
}

type ipcFileScan struct {
	r      *ipc.FileReader
	fields []int
	next   int
	path   string
}

func (s *ipcFileScan) Next() (arrow.RecordBatch, error) {
	if s.next >= s.r.NumRecords() {
		return nil, nil
	}
	rec, err := s.r.RecordBatchAt(s.next)
	if err != nil {
		return nil, fileError(s.path, fmt.Sprintf("reading record batch %d", s.next), err)
	}
	s.next++
	defer rec.Release()
	return project(rec, s.fields), nil
}

func (s *ipcFileScan) Progress() float64 {
	if s.r.NumRecords() == 0 {
		return -1
	}
	return float64(s.next) / float64(s.r.NumRecords())
}

func (s *ipcFileScan) Close() {}

func openIPCStream(mem memory.Allocator, path string, in streamInput) (*Source, error) {
	cr := newCountingReader(in)
	head, err := peekIPCStreamSchema(cr)
	if err != nil {
		return nil, fileError(path, "not a readable Arrow IPC stream", err)
	}
	r, err := ipc.NewReader(io.MultiReader(bytes.NewReader(head), cr), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fileError(path, "not a readable Arrow IPC stream", err)
	}
	used := false
	return &Source{
		name:   path,
		schema: r.Schema(),
		open: func(spec scanSpec) (scanner, error) {
			if used {
				return nil, fmt.Errorf("%s: a stream can be scanned once", path)
			}
			used = true
			return &recordReaderScan{rr: r, fields: spec.fields, total: -1, bytes: cr, path: path}, nil
		},
		close: func() error {
			if !used {
				r.Release()
			}
			return in.close()
		},
	}, nil
}
