package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/demo"
)

var demoCommand = &command{
	name:     "demo",
	synopsis: "demo [--rows N] --out FILE.parquet",
	summary:  "write the demo table to a Parquet file",
	usage: `Usage: colexpr demo [--rows N] [--seed S] [--row-group-size N] --out FILE.parquet

Writes the built-in demo table, a seeded imitation of TPC-H's lineitem with
two nested columns, to a Parquet file (Snappy-compressed, with statistics).
The same rows and seed always give the same data.

  --rows N             rows to write (default 1000000)
  --seed S             the seed (default: the one query uses for the demo table)
  --row-group-size N   rows per row group (default 131072)
  --out FILE.parquet   the file to write; it is replaced only once complete
`,
	run: runDemo,
}

func runDemo(e *env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	rows := fs.Int64("rows", demo.DefaultRows, "")
	seed := fs.Uint64("seed", demo.DefaultSeed, "")
	rowGroup := fs.Int("row-group-size", 128*1024, "")
	out := fs.String("out", "", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usagef("unexpected argument %q (the file goes after --out)", pos[0])
	case *out == "":
		return usagef("--out FILE.parquet is required")
	case strings.ToLower(filepath.Ext(*out)) != ".parquet":
		return usagef("--out %s: the demo table is written as Parquet; the name must end in .parquet", *out)
	case *rows < 0:
		return usagef("--rows must not be negative, got %d", *rows)
	case *rowGroup < 1:
		return usagef("--row-group-size must be at least 1, got %d", *rowGroup)
	}
	return writeDemo(memory.DefaultAllocator, demo.Table{Seed: *seed, Rows: *rows}, *rowGroup, *out)
}

// writeDemo writes t to path as Parquet, one row group per rowGroup rows,
// through a temporary file renamed into place at the end.
func writeDemo(mem memory.Allocator, t demo.Table, rowGroup int, path string) (err error) {
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
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(rowGroup)),
		parquet.WithCreatedBy("colexpr demo"),
	)
	w, err := pqarrow.NewFileWriter(demo.Schema(), tmp, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rr, err := t.NewReader(mem, rowGroup)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
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
