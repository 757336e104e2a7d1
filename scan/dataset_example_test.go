package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
)

// writeExampleParquet writes a Parquet file of JSON rows, its parent
// directories made as needed.
func writeExampleParquet(path string, fields []arrow.Field, rows string) {
	sc := arrow.NewSchema(fields, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(rows))
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	rr, _ := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	defer rr.Release()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := scan.WriteParquet(path, rr, scan.ParquetOptions{}); err != nil {
		panic(err)
	}
}

// printRows runs a query and prints its schema and rows.
func printRows(src *scan.Source, q scan.Query) {
	plan, err := scan.Compile(src, q, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	var names []string
	for _, f := range rr.Schema().Fields() {
		names = append(names, f.Name+" "+f.Type.String())
	}
	fmt.Println(strings.Join(names, ", "))
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			var vals []string
			for c := 0; c < int(rec.NumCols()); c++ {
				vals = append(vals, rec.Column(c).ValueStr(r))
			}
			fmt.Println(strings.Join(vals, " "))
		}
	}
	if err := rr.Err(); err != nil {
		fmt.Println(err)
	}
	if st := rr.Stats(); st.Files > 0 {
		fmt.Printf("files read %d, skipped %d of %d\n", st.FilesRead, st.FilesSkipped, st.Files)
	}
}

// Files whose schemas differ, read as one table by a glob: columns matched
// by name, a missing one null, an i32 and an i64 id read as i64.
func ExampleOpenDataset() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	i32, i64, str := arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	writeExampleParquet(filepath.Join(dir, "a.parquet"), []arrow.Field{{Name: "id", Type: i32}, {Name: "name", Type: str}}, `[{"id": 1, "name": "one"}]`)
	writeExampleParquet(filepath.Join(dir, "b.parquet"), []arrow.Field{{Name: "name", Type: str}, {Name: "id", Type: i64}, {Name: "note", Type: str, Nullable: true}}, `[{"name": "two", "id": 2, "note": "new"}]`)

	src, err := scan.OpenDataset(memory.NewGoAllocator(), []string{filepath.Join(dir, "*.parquet")}, scan.DatasetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	printRows(src, scan.Query{})
	origins, _ := src.Origins()
	for _, o := range origins {
		fmt.Println(o.Name, "from", len(o.Files), "files")
	}
	// Output:
	// id int64, name utf8, note utf8
	// 1 one (null)
	// 2 two new
	// files read 2, skipped 0 of 2
	// id from 2 files
	// name from 2 files
	// note from 1 files
}

// A Hive-partitioned directory: year and month are columns, and a filter
// on them leaves out whole files before they are opened.
func ExampleOpenDataset_hive() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	for _, p := range []string{"year=2023/month=12", "year=2024/month=01", "year=2024/month=02"} {
		writeExampleParquet(filepath.Join(dir, p, "part-0.parquet"), []arrow.Field{{Name: "amount", Type: arrow.PrimitiveTypes.Int64}}, `[{"amount": 10}, {"amount": 20}]`)
	}
	src, err := scan.OpenDataset(memory.NewGoAllocator(), []string{dir}, scan.DatasetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	printRows(src, scan.Query{
		Where:  &scan.Expr{Text: "year = 2024 AND month > 1 AND amount > 10"},
		Select: []scan.Expr{{Text: "year"}, {Text: "month"}, {Text: "amount"}},
	})
	// Output:
	// year int64, month int64, amount int64
	// 2024 2 20
	// files read 1, skipped 2 of 3
}

// The standard input, or any reader, streamed: CSV or an Arrow IPC stream,
// told apart by the first bytes.
func ExampleOpenStream() {
	in := strings.NewReader("city,temp\nOslo,-3\nLima,19\n")
	src, err := scan.OpenStream(memory.NewGoAllocator(), "stdin", in, scan.CSVOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	printRows(src, scan.Query{Where: &scan.Expr{Text: "temp > 0"}})
	// Output:
	// city utf8, temp int64
	// Lima 19
}

// Formats are told from the bytes, not the name.
func ExampleSniff() {
	for _, head := range []string{"PAR1\x15\x04", "ARROW1\x00\x00", "\xff\xff\xff\xff\x10\x01", "id,name\n"} {
		fmt.Println(scan.Sniff([]byte(head)))
	}
	// Output:
	// Parquet
	// an Arrow IPC file
	// an Arrow IPC stream
	// CSV
}

// Write a query's output as Parquet through an AtomicFile: the target
// appears only once the file is complete.
func ExampleParquetWriter() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	mem := memory.NewGoAllocator()
	src := scan.Demo(mem, 1000)
	defer src.Close()
	plan, err := scan.Compile(src, scan.Query{
		Where:  &scan.Expr{Text: "l_quantity < 5"},
		Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_quantity"}},
	}, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	path := filepath.Join(dir, "small.parquet")
	f, err := scan.CreateAtomic(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Abort() // removes the temporary file unless committed
	w, err := scan.NewParquetWriter(f, rr.Schema(), scan.ParquetOptions{Buffered: true, Mem: mem})
	if err != nil {
		fmt.Println(err)
		return
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			w.Close()
			fmt.Println(err)
			return
		}
	}
	if err := rr.Err(); err != nil {
		w.Close()
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	if err := f.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	back, err := scan.Open(mem, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer back.Close()
	fmt.Println(back.Schema().Root, back.RowGroups(), "row group")
	// Output:
	// struct<l_orderkey: i64, l_quantity: decimal(15,2)> 1 row group
}
