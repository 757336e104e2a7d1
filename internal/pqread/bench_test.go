package pqread

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/demo"

	"github.com/colexpr/colexpr/internal/cputime"
)

// The benchmarks read 4 columns like TPC-H Q6's (a date and three
// decimal(15,2)), with decimals stored as INT64 and as FIXED_LEN_BYTE_ARRAY,
// on 1 and 2 threads, with pqarrow's record reader ("pqarrow"), with pqread
// reading through the file.Reader ("pqread-pf") and with pqread reading
// from Options.Source ("pqread"):
//
//	go test -run '^$' -bench 'Scan$' -benchtime 10x ./internal/pqread
//
// BenchmarkScanDemo reads them from the demo table written as the colexpr
// demo command does (128Ki-row row groups, Snappy, all 18 columns), of
// PQREAD_DEMO_ROWS rows (default 6 000 000), to the directory
// PQREAD_DEMO_DIR on the first run; it is skipped when that is not set:
//
//	PQREAD_DEMO_DIR=/tmp go test -run '^$' -bench ScanDemo -benchtime 5x ./internal/pqread
//
// PQREAD_BATCH sets the batch size (default DefaultBatchSize). Besides
// ns/op they report the wall and the CPU time a row (the CPU time of the
// whole process: the garbage collector's too).

var benchBatch = func() int {
	n, _ := strconv.Atoi(os.Getenv("PQREAD_BATCH"))
	return cmp.Or(n, DefaultBatchSize)
}()

var (
	synthOnce sync.Once
	synth     map[string][]byte
)

// synthFiles are the synthetic files: the 4 columns of 1Mi rows of the
// demo table (TPC-H-like values: few distinct discounts and quantities),
// in row groups of 128Ki, Snappy, decimals stored "int64" and "flba".
func synthFiles(b *testing.B) map[string][]byte {
	synthOnce.Do(func() {
		names := []string{demo.ColShipDate, demo.ColDiscount, demo.ColQuantity, demo.ColExtendedPrice}
		full, err := demo.Table{Seed: demo.DefaultSeed, Rows: 1 << 20}.Batch(memory.DefaultAllocator, 0, 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		defer full.Release()
		var fs []arrow.Field
		var cols []arrow.Array
		for _, name := range names {
			i := full.Schema().FieldIndices(name)[0]
			fs = append(fs, full.Schema().Field(i))
			cols = append(cols, full.Column(i))
		}
		rec := array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, full.NumRows())
		defer rec.Release()
		synth = map[string][]byte{}
		for _, asInt := range []bool{true, false} {
			props := []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy), parquet.WithStoreDecimalAsInteger(asInt)}
			synth[storage(asInt)] = writeParquet(b, rec, 128<<10, props, []pqarrow.WriterOption{pqarrow.WithStoreSchema()})
		}
	})
	return synth
}

func storage(asInt bool) string {
	if asInt {
		return "int64"
	}
	return "flba"
}

func BenchmarkScan(b *testing.B) {
	files := synthFiles(b)
	for _, st := range []string{"int64", "flba"} {
		pf, fr := openParquet(b, files[st], memory.DefaultAllocator)
		benchScans(b, st, pf, fr, []int{0, 1, 2, 3}, bytes.NewReader(files[st]))
	}
}

func BenchmarkScanDemo(b *testing.B) {
	dir := os.Getenv("PQREAD_DEMO_DIR")
	if dir == "" {
		b.Skip("PQREAD_DEMO_DIR is not set")
	}
	rows := int64(6_000_000)
	if s := os.Getenv("PQREAD_DEMO_ROWS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		rows = n
	}
	for _, asInt := range []bool{true, false} {
		path := filepath.Join(dir, fmt.Sprintf("lineitem-%d-%s.parquet", rows, storage(asInt)))
		if _, err := os.Stat(path); err != nil {
			writeDemoFile(b, path, rows, asInt)
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		props := parquet.NewReaderProperties(memory.DefaultAllocator)
		props.BufferedStreamEnabled = true
		props.BufferSize = 128 << 10
		pf, err := file.NewParquetReader(f, file.WithReadProps(props))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		var fields []int
		for _, name := range []string{demo.ColShipDate, demo.ColDiscount, demo.ColQuantity, demo.ColExtendedPrice} {
			fields = append(fields, fr.Manifest.OriginSchema.FieldIndices(name)[0])
		}
		benchScans(b, storage(asInt), pf, fr, fields, f)
		f.Close()
	}
}

// writeDemoFile writes the demo table as the colexpr demo command does,
// with the decimals stored as integers when asInt.
func writeDemoFile(b *testing.B, path string, rows int64, asInt bool) {
	b.Helper()
	f, err := os.Create(path + ".tmp")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(128<<10),
		parquet.WithStoreDecimalAsInteger(asInt),
	)
	w, err := pqarrow.NewFileWriter(demo.Schema(), f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		b.Fatal(err)
	}
	rr, err := demo.Table{Seed: demo.DefaultSeed, Rows: rows}.NewReader(memory.DefaultAllocator, 128<<10)
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		b.Fatal(err)
	}
}

// benchScans reads fields of the whole file with pqarrow and with pqread,
// through pf ("pqread-pf") and from src (Options.Source, "pqread").
func benchScans(b *testing.B, name string, pf *file.Reader, fr *pqarrow.FileReader, fields []int, src parquet.ReaderAtSeeker) {
	var leaves []int
	for _, f := range fields {
		leaves = append(leaves, fr.Manifest.Fields[f].ColIndex)
	}
	rows := pf.NumRows()
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("%s/pqarrow/threads=%d", name, threads), func(b *testing.B) {
			fr.Props.BatchSize = int64(benchBatch)
			fr.Props.Parallel = threads > 1
			cpu0 := cputime.Process()
			for b.Loop() {
				rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
				if err != nil {
					b.Fatal(err)
				}
				var n int64
				for rr.Next() {
					n += rr.RecordBatch().NumRows()
				}
				if err := rr.Err(); err != nil || n != rows {
					b.Fatalf("%d rows, %v", n, err)
				}
				rr.Release()
			}
			reportRows(b, rows, cpu0)
		})
		for _, source := range []bool{false, true} {
			variant := "pqread-pf"
			opt := Options{Threads: threads, BatchSize: benchBatch}
			if source {
				variant, opt.Source = "pqread", src
			}
			b.Run(fmt.Sprintf("%s/%s/threads=%d", name, variant, threads), func(b *testing.B) {
				cpu0 := cputime.Process()
				for b.Loop() {
					r, err := NewReader(context.Background(), pf, fr.Manifest, fields, nil, opt)
					if err != nil {
						b.Fatal(err)
					}
					var n int64
					for {
						rec, err := r.Next()
						if err != nil {
							b.Fatal(err)
						}
						if rec == nil {
							break
						}
						n += rec.NumRows()
						rec.Release()
					}
					r.Close()
					if n != rows {
						b.Fatalf("%d rows", n)
					}
				}
				reportRows(b, rows, cpu0)
			})
		}
	}
}

// reportRows reports the wall and the CPU time (of the whole process, the
// garbage collector's included) per row read.
func reportRows(b *testing.B, rows int64, cpu0 time.Duration) {
	n := float64(int64(b.N) * rows)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/row")
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/n, "cpu-ns/row")
}
