package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/scan"
)

// Write pages of 1000 rows with a page index, and let a range of ship
// dates read, of the one row group, only the pages that may hold them:
// in every column read, the pages at those rows.
func ExampleParquetOptions_pageRows() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	mem := memory.NewGoAllocator()
	rr, err := demo.Table{Seed: demo.DefaultSeed, Rows: 20000}.NewReaderWith(mem, demo.ReaderOptions{BatchSize: 20000, SortBy: demo.ColShipDate})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	path := filepath.Join(dir, "lineitem.parquet")
	if err := scan.WriteParquet(path, rr, scan.ParquetOptions{RowGroupRows: 20000, PageRows: 1000, Mem: mem}); err != nil {
		fmt.Println(err)
		return
	}
	src, err := scan.Open(mem, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	for _, o := range []scan.Options{{}, {NoPrune: true}} {
		q := scan.Query{
			Where:  &scan.Expr{Text: "l_shipdate BETWEEN DATE '1995-06-17' AND DATE '1995-06-18'"},
			Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_extendedprice"}},
		}
		plan, err := scan.Compile(src, q, o)
		if err != nil {
			fmt.Println(err)
			return
		}
		r, err := plan.Read(context.Background())
		if err != nil {
			fmt.Println(err)
			return
		}
		rows := int64(0)
		for r.Next() {
			rows += r.RecordBatch().NumRows()
		}
		st := r.Stats()
		r.Release()
		fmt.Printf("NoPrune %v: %d rows of %d read; %d of %d pages skipped\n", o.NoPrune, rows, st.RowsRead, st.PagesSkipped, st.Pages)
	}
	// Output:
	// NoPrune false: 22 rows of 1000 read; 57 of 60 pages skipped
	// NoPrune true: 22 rows of 20000 read; 0 of 0 pages skipped
}
