package scan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/internal/kernels"
)

// Writing. Output files are written to a temporary file beside their
// target and renamed into place once complete (AtomicFile): an error, or
// an interrupt, leaves the target as it was.

// AtomicFile is a file written under a temporary name in the directory of
// its target, which Commit renames to the target and Abort removes.
type AtomicFile struct {
	*os.File
	target string
	mu     sync.Mutex
	done   bool
}

// CreateAtomic creates a temporary file beside path (hidden: its name is
// .BASE.RANDOM) to be committed to path.
func CreateAtomic(path string) (*AtomicFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write beside it: %w", path, unwrapPath(err))
	}
	return &AtomicFile{File: tmp, target: path}, nil
}

// Commit closes the file and renames it to its target, with a data file's
// mode (0644).
func (f *AtomicFile) Commit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return errors.New(f.target + ": already committed or aborted")
	}
	f.done = true
	err := f.File.Close()
	if err == nil {
		// CreateTemp makes the file private; give it the mode os.Create would.
		err = os.Chmod(f.File.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("%s: %w", f.target, unwrapPath(err))
	}
	return nil
}

// Abort closes and removes the temporary file; the target is untouched.
// It does nothing after Commit or a first Abort, so it can be deferred.
func (f *AtomicFile) Abort() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// ParquetOptions say how WriteParquet and ParquetWriter write.
type ParquetOptions struct {
	// RowGroupRows is the most rows of a row group; 0 is 128 Ki rows.
	RowGroupRows int64
	// Buffered gathers batches into row groups of RowGroupRows rows,
	// whatever their sizes (a query's output batches, which a filter
	// makes small). Otherwise each batch no longer than RowGroupRows
	// starts a row group of its own.
	Buffered bool
	// Mem allocates the writer's buffers; nil is memory.DefaultAllocator.
	Mem memory.Allocator
	// CreatedBy is appended to the writer's name in the file's
	// created_by field, such as "(build colexpr demo)".
	CreatedBy string
	// BloomFilters are the columns to write a bloom filter for in each
	// row group: a top-level column's name, or the path of a nested field
	// (l_dims.w); a struct or list column gets one for each of its leaf
	// columns. A name that is no column is an error. A scan skips the row
	// groups whose filters say that no row equals a value of the query's
	// = or IN (see the package doc, Row-group pruning).
	BloomFilters []string
	// BloomFilterFPP is the filters' false positive probability for a
	// row group of RowGroupRows distinct values (fewer make it lower);
	// 0 is 0.01. Each filter takes about 1.2 bytes a row at 0.01, rounded
	// up to a power of 2, at most 16 MiB.
	BloomFilterFPP float64
	// PageRows is the rows of a data page, in every column: 0 is
	// DefaultPageRows. Each row group then has several pages, which the
	// page index (written for every column) lets a scan skip (see the
	// package doc, Page pruning). With Buffered, whose batches would each
	// end a page, pages are cut at BufferedPageSize bytes of values
	// instead, and PageRows is not used.
	PageRows int64
	// NoPageIndex leaves the page index out.
	NoPageIndex bool
}

// DefaultPageRows is the rows of a data page ParquetWriter writes: a row
// group of 128 Ki rows has 16 pages to skip. Smaller pages cost more to
// read whole: a full scan (--no-prune) of TPC-H Q6's 4 columns of
// 10 000 000 rows took 0.45 s of CPU, against 0.32 s with arrow-go's
// 1 MiB pages (medians of 3, on a loaded machine).
const DefaultPageRows = 8192

// BufferedPageSize is the size of the values of a data page ParquetWriter
// writes with ParquetOptions.Buffered: as many rows as fill it, 16 Ki of
// a date or 8 Ki of a 64-bit integer or decimal.
const BufferedPageSize = 64 << 10

// maxBloomFilterBytes bounds the size of one bloom filter written.
const maxBloomFilterBytes = 16 << 20

// bloomFilterProps are the writer properties that write bloom filters on
// the leaf columns o.BloomFilters names.
func bloomFilterProps(sc *arrow.Schema, o ParquetOptions) ([]parquet.WriterProperty, error) {
	if len(o.BloomFilters) == 0 {
		return nil, nil
	}
	fpp := o.BloomFilterFPP
	if fpp == 0 {
		fpp = 0.01
	}
	if !(fpp > 0 && fpp < 1) {
		return nil, fmt.Errorf("the bloom filter false positive probability must be between 0 and 1, got %v", o.BloomFilterFPP)
	}
	pq, err := pqarrow.ToParquet(sc, parquet.NewWriterProperties(parquet.WithStoreDecimalAsInteger(true)), pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, err
	}
	// A row group of RowGroupRows rows has at most as many distinct values.
	ndv := min(o.RowGroupRows, 1<<30)
	props := []parquet.WriterProperty{parquet.WithMaxBloomFilterBytes(maxBloomFilterBytes)}
	for _, name := range o.BloomFilters {
		found := false
		for i := 0; i < pq.NumColumns(); i++ {
			path := pq.Column(i).ColumnPath().String()
			if path == name || strings.HasPrefix(path, name+".") {
				found = true
				props = append(props, parquet.WithBloomFilterEnabledFor(path, true),
					parquet.WithBloomFilterFPPFor(path, fpp), parquet.WithBloomFilterNDVFor(path, ndv))
			}
		}
		if !found {
			return nil, fmt.Errorf("bloom filter on %q: no such column", name)
		}
	}
	return props, nil
}

// ParquetWriter writes record batches to a Parquet file: Snappy-compressed,
// with statistics, the page index, pages of ParquetOptions.PageRows rows
// (and the bloom filters ParquetOptions asks for) and the
// Arrow schema stored, and decimals of up to 18
// digits as INT32/INT64, as DuckDB and Spark write them (half the bytes of
// FIXED_LEN_BYTE_ARRAY(16), and cheaper to decode).
//
// A dictionary column is written as one (its Arrow type stored, so readers
// get it back), a null value of its dictionary moved to the indices of
// the rows that pick it; a dictionary nested in a list or a struct, or of
// nested values, is written decoded, as its values: arrow-go's writer
// cannot start a list of dictionaries with a batch that holds no
// elements, nor write a dictionary of nested values.
type ParquetWriter struct {
	w        *pqarrow.FileWriter
	buffered bool
	closed   bool
	// decoded, when set, is the schema batches are written with: their
	// nested dictionaries decoded, with memory from mem. dictionaries says
	// the schema has a dictionary column, whose nulls in the dictionary
	// are moved to the indices.
	decoded      *arrow.Schema
	dictionaries bool
	mem          memory.Allocator
}

// keptDictionary reports whether ParquetWriter writes a column of type t
// as a dictionary: a dictionary of values that are not nested (arrow-go
// writes no other).
func keptDictionary(t arrow.DataType) bool {
	dt, ok := t.(*arrow.DictionaryType)
	if !ok {
		return false
	}
	_, nested := dt.ValueType.(arrow.NestedType)
	return !nested
}

// nestedDictionariesDecoded is sc with the dictionaries inside its
// columns' types, and those of nested values, replaced by their value
// types (those keptDictionary keeps stay), or nil when it has none.
func nestedDictionariesDecoded(sc *arrow.Schema) *arrow.Schema {
	fields := sc.Fields()
	changed := false
	for i, f := range fields {
		if !keptDictionary(f.Type) && kernels.HasDictionary(f.Type) {
			fields[i].Type = kernels.DecodedType(f.Type)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	md := sc.Metadata()
	return arrow.NewSchema(fields, &md)
}

// NewParquetWriter starts a Parquet file of schema sc on w, which Close
// does not close.
func NewParquetWriter(w io.Writer, sc *arrow.Schema, o ParquetOptions) (*ParquetWriter, error) {
	if o.RowGroupRows <= 0 {
		o.RowGroupRows = 128 << 10
	}
	if o.Mem == nil {
		o.Mem = memory.DefaultAllocator
	}
	createdBy := parquet.DefaultCreatedBy
	if o.CreatedBy != "" {
		// arrow-go names itself, with the build: readers know what it writes.
		createdBy += " " + o.CreatedBy
	}
	bloom, err := bloomFilterProps(sc, o)
	if err != nil {
		return nil, err
	}
	if o.PageRows < 0 {
		return nil, fmt.Errorf("the rows of a page must be at least 1, got %d", o.PageRows)
	}
	if o.PageRows == 0 {
		o.PageRows = DefaultPageRows
	}
	base := []parquet.WriterProperty{
		parquet.WithAllocator(o.Mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(o.RowGroupRows),
		parquet.WithStoreDecimalAsInteger(true),
		parquet.WithCreatedBy(createdBy),
		parquet.WithPageIndexEnabled(!o.NoPageIndex),
	}
	if o.Buffered {
		base = append(base, parquet.WithDataPageSize(BufferedPageSize))
	} else {
		// arrow-go ends a page once its values reach the page size, which
		// it checks after each write batch: a size of 1 ends a page after
		// every batch of PageRows values, in every column alike.
		base = append(base, parquet.WithDataPageSize(1), parquet.WithBatchSize(o.PageRows))
	}
	props := parquet.NewWriterProperties(append(base, bloom...)...)
	// Only an io.Writer: arrow-go would close an io.Closer, which is the
	// caller's to close (or to commit, or to abort).
	decoded := nestedDictionariesDecoded(sc)
	if decoded != nil {
		sc = decoded
	}
	fw, err := pqarrow.NewFileWriter(sc, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	dictionaries := slices.ContainsFunc(sc.Fields(), func(f arrow.Field) bool { return keptDictionary(f.Type) })
	return &ParquetWriter{w: fw, buffered: o.Buffered, decoded: decoded, dictionaries: dictionaries, mem: o.Mem}, nil
}

// Write writes a batch.
func (w *ParquetWriter) Write(rec arrow.RecordBatch) error {
	if w.decoded != nil || w.dictionaries {
		sc := w.decoded
		if sc == nil {
			sc = rec.Schema()
		}
		cols := make([]arrow.Array, rec.NumCols())
		defer releaseAll(cols)
		for i, c := range rec.Columns() {
			if keptDictionary(sc.Field(i).Type) {
				// arrow-go refuses a null in the dictionary: its rows are
				// made null by their index.
				cols[i] = kernels.NullValuesInIndices(w.mem, c)
				continue
			}
			var err error
			if cols[i], err = kernels.DecodeDictionaries(w.mem, c); err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
			}
		}
		rec = array.NewRecordBatch(sc, cols, rec.NumRows())
		defer rec.Release()
	}
	if w.buffered {
		return w.w.WriteBuffered(rec)
	}
	return w.w.Write(rec)
}

// Close writes the footer and releases the writer's buffers. After an
// error, call it all the same (and discard the file).
func (w *ParquetWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.w.Close()
}

// WriteParquet writes every batch of rr to a Parquet file at path with a
// ParquetWriter. The file is written to a temporary file beside path,
// renamed into place once complete (AtomicFile): an error leaves path as
// it was.
func WriteParquet(path string, rr array.RecordReader, o ParquetOptions) (err error) {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	w, err := NewParquetWriter(f, rr.Schema(), o)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			w.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := rr.Err(); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Commit()
}
