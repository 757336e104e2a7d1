package main

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/scan"
)

var demoCommand = &command{
	name:     "demo",
	synopsis: "demo [--rows N] [--sort COLUMN] [--row-groups N] [--bloom-filter COL,…] [--page-rows N] [flags] --out FILE.parquet",
	summary:  "write the demo table to a Parquet file",
	usage: `Usage: colexpr demo [--rows N] [--seed S] [--sort COLUMN]
                    [--row-group-size N | --row-groups N]
                    [--bloom-filter COLUMN,…] [--page-rows N] --out FILE.parquet

Writes the built-in demo table, a seeded imitation of TPC-H's lineitem with
two nested columns, to a Parquet file (Snappy-compressed, with statistics
and a page index).
The same rows and seed always give the same data.

  --rows N             rows to write (default 1000000)
  --seed S             the seed (default: the one query uses for the demo table)
  --sort COLUMN        sort the rows by COLUMN, ascending (ties in table order):
                       any integer, decimal, date or string column; the order
                       is kept in memory (16 bytes a row or more), for at most
                       268435456 rows
  --row-group-size N   rows per row group (default 131072)
  --row-groups N       write exactly N row groups of about rows/N rows each
  --bloom-filter COLUMN,…
                       write a bloom filter of each COLUMN in every row group
                       (1% false positives; about 1.2 bytes a row, rounded up
                       to a power of 2 per row group): query then skips the
                       row groups whose filters rule out every value of an =
                       or IN, also on a column the rows are not sorted by
  --page-rows N        rows per data page, in every column (default 8192):
                       query skips the pages whose statistics in the page
                       index rule out every row, within the row groups read
  --out FILE.parquet   the file to write; it is replaced only once complete

On a terminal, a progress bar shows the rows written (after a spinner
while --sort orders them) once writing takes longer than a second.

Sorted data in many row groups is what lets query skip row groups by their
statistics, for example:
  colexpr demo --sort l_shipdate --row-groups 100 --out lineitem.parquet
  colexpr query --stats --where "l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31'" lineitem.parquet
and bloom filters let it skip them on a key it is not sorted by:
  colexpr demo --sort l_shipdate --bloom-filter l_orderkey --out lineitem.parquet
  colexpr query --stats --where "l_orderkey = 4225" lineitem.parquet
The page index lets it read, of a row group, only the pages of one day:
  colexpr demo --sort l_shipdate --out lineitem.parquet
  colexpr query --stats --where "l_shipdate = DATE '1995-06-17'" lineitem.parquet
`,
	run: runDemo,
}

// defaultRowGroupSize is the rows per row group of the demo file.
const defaultRowGroupSize = 128 * 1024

func runDemo(e *env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	rows := fs.Int64("rows", demo.DefaultRows, "")
	seed := fs.Uint64("seed", demo.DefaultSeed, "")
	rowGroup := fs.Int("row-group-size", defaultRowGroupSize, "")
	groups := fs.Int("row-groups", 0, "")
	sortBy := fs.String("sort", "", "")
	bloom := fs.String("bloom-filter", "", "")
	pageRows := fs.Int64("page-rows", scan.DefaultPageRows, "")
	out := fs.String("out", "", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
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
	case *pageRows < 1:
		return usagef("--page-rows must be at least 1, got %d", *pageRows)
	case set["row-groups"] && set["row-group-size"]:
		return usagef("--row-groups and --row-group-size cannot be used together")
	case set["row-groups"] && *groups < 1:
		return usagef("--row-groups must be at least 1, got %d", *groups)
	case set["row-groups"] && int64(*groups) > *rows:
		return usagef("--row-groups %d is more than the %d rows: a row group would be empty", *groups, *rows)
	case set["sort"] && !contains(demo.SortColumns(), *sortBy):
		return usagef("--sort %q: not a column the demo table can be sorted by; use one of %s", *sortBy, strings.Join(demo.SortColumns(), ", "))
	case set["sort"] && *rows > demo.MaxSortRows:
		return usagef("--sort: %d rows are too many to sort; at most %d can be (the order is kept in memory, 16 bytes a row or more)", *rows, int64(demo.MaxSortRows))
	}
	var bloomCols []string
	if set["bloom-filter"] {
		for _, c := range strings.Split(*bloom, ",") {
			c = strings.TrimSpace(c)
			top, _, _ := strings.Cut(c, ".")
			if c == "" || demo.Schema().FieldIndices(top) == nil {
				return usagef("--bloom-filter %q: %q is not a column of the demo table; its columns are %s", *bloom, c, strings.Join(demoColumns(), ", "))
			}
			bloomCols = append(bloomCols, c)
		}
	}
	o := demo.ReaderOptions{BatchSize: *rowGroup, Batches: *groups, SortBy: *sortBy}
	var bar io.Writer
	if e.isTerminal {
		bar = e.stderr
	}
	po := scan.ParquetOptions{BloomFilters: bloomCols, PageRows: *pageRows}
	return writeDemoWith(memory.DefaultAllocator, demo.Table{Seed: *seed, Rows: *rows}, o, *out, bar, po)
}

// demoColumns are the names of the demo table's columns.
func demoColumns() []string {
	var names []string
	for _, f := range demo.Schema().Fields() {
		names = append(names, f.Name)
	}
	return names
}

// writeDemo writes t to path as Parquet, one row group per batch of the
// reader o describes, with query's progress bar on bar (when not nil):
// a spinner while the rows are sorted, then the rows written.
// bloom are the columns to write bloom filters of.
func writeDemo(mem memory.Allocator, t demo.Table, o demo.ReaderOptions, path string, bar io.Writer, bloom []string) error {
	return writeDemoWith(mem, t, o, path, bar, scan.ParquetOptions{BloomFilters: bloom})
}

// writeDemoWith is writeDemo with the writer's options po (its bloom
// filters and page size; the row groups, memory and name are set here).
func writeDemoWith(mem memory.Allocator, t demo.Table, o demo.ReaderOptions, path string, bar io.Writer, po scan.ParquetOptions) error {
	// A row group per batch: the writer starts a new row group for each
	// batch no longer than this.
	maxGroup := int64(o.BatchSize)
	if o.Batches > 0 {
		maxGroup = (t.Rows + int64(o.Batches) - 1) / int64(o.Batches)
	}
	var sorting *progress
	if o.SortBy != "" {
		sorting = startLabeledProgress(bar, "sorting by "+o.SortBy, func() float64 { return -1 }, nil)
	}
	rr, err := t.NewReaderWith(mem, o)
	if sorting != nil {
		sorting.finish()
	}
	if err != nil {
		return err
	}
	counted := &countingRecordReader{RecordReader: rr}
	defer counted.Release()
	prog := startLabeledProgress(bar, "writing", func() float64 {
		if t.Rows == 0 {
			return 1
		}
		return float64(counted.rows.Load()) / float64(t.Rows)
	}, counted.rows.Load)
	po.RowGroupRows, po.Mem, po.CreatedBy = max(maxGroup, 1), mem, "(build colexpr demo)"
	err = scan.WriteParquet(path, counted, po)
	prog.finish()
	return err
}

// countingRecordReader counts the rows of the batches it hands out.
type countingRecordReader struct {
	array.RecordReader
	rows atomic.Int64
}

func (r *countingRecordReader) Next() bool {
	if !r.RecordReader.Next() {
		return false
	}
	r.rows.Add(r.RecordBatch().NumRows())
	return true
}
