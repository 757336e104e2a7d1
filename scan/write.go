package scan

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ParquetOptions say how WriteParquet writes.
type ParquetOptions struct {
	// RowGroupRows is the most rows of a row group; each batch of the
	// reader no longer than it starts a new row group. 0 is 128 Ki rows.
	RowGroupRows int64
	// Mem allocates the writer's buffers; nil is memory.DefaultAllocator.
	Mem memory.Allocator
	// CreatedBy is appended to the writer's name in the file's
	// created_by field, such as "(build colexpr demo)".
	CreatedBy string
}

// WriteParquet writes every batch of rr to a Parquet file at path:
// Snappy-compressed, with statistics and the Arrow schema stored, and
// decimals of up to 18 digits as INT32/INT64, as DuckDB and Spark write
// them (half the bytes of FIXED_LEN_BYTE_ARRAY(16), and cheaper to
// decode). The file is written to a temporary file beside path, renamed
// into place once complete: an error leaves path as it was.
func WriteParquet(path string, rr array.RecordReader, o ParquetOptions) (err error) {
	if o.RowGroupRows <= 0 {
		o.RowGroupRows = 128 << 10
	}
	if o.Mem == nil {
		o.Mem = memory.DefaultAllocator
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	createdBy := parquet.DefaultCreatedBy
	if o.CreatedBy != "" {
		// arrow-go names itself, with the build: readers know what it writes.
		createdBy += " " + o.CreatedBy
	}
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(o.Mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(o.RowGroupRows),
		parquet.WithStoreDecimalAsInteger(true),
		parquet.WithCreatedBy(createdBy),
	)
	w, err := pqarrow.NewFileWriter(rr.Schema(), tmp, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
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
	// CreateTemp makes the file private; give it a data file's mode.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
