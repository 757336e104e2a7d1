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

// Write bloom filters, and let an equality on a column the rows are not
// sorted by skip the row groups that do not hold the value: the demo
// table sorted by ship date has an order's lines in a few row groups,
// and every row group's order keys span the whole range, so min/max
// rule nothing out.
func ExampleParquetOptions_bloomFilters() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	mem := memory.NewGoAllocator()
	rr, err := demo.Table{Seed: demo.DefaultSeed, Rows: 20000}.NewReaderWith(mem, demo.ReaderOptions{BatchSize: 1000, SortBy: demo.ColShipDate})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	path := filepath.Join(dir, "lineitem.parquet")
	o := scan.ParquetOptions{RowGroupRows: 1000, Mem: mem, BloomFilters: []string{"l_orderkey"}}
	if err := scan.WriteParquet(path, rr, o); err != nil {
		fmt.Println(err)
		return
	}
	src, err := scan.Open(mem, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	for _, where := range []string{"l_orderkey = 10017", "l_orderkey = 10010", "l_orderkey IN (10017, 10010) AND l_linenumber = 1"} {
		plan, err := scan.Compile(src, scan.Query{Where: &scan.Expr{Text: where}}, scan.Options{})
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
		fmt.Printf("%s: %d rows; %d of %d row groups read, %d skipped by min/max, %d by bloom filters\n",
			where, rows, st.RowGroupsRead, st.RowGroups, st.RowGroupsSkipped-st.RowGroupsSkippedBloom, st.RowGroupsSkippedBloom)
	}
	// Output:
	// l_orderkey = 10017: 6 rows; 1 of 20 row groups read, 0 skipped by min/max, 19 by bloom filters
	// l_orderkey = 10010: 0 rows; 0 of 20 row groups read, 0 skipped by min/max, 20 by bloom filters
	// l_orderkey IN (10017, 10010) AND l_linenumber = 1: 1 rows; 1 of 20 row groups read, 0 skipped by min/max, 19 by bloom filters
}
