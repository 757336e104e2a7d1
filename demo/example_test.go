package demo_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
)

// Generate the first rows of the default demo table and print a few columns.
func ExampleTable_Batch() {
	rec, err := demo.Default().Batch(memory.DefaultAllocator, 0, 5)
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	key := rec.Column(0).(*array.Int64)
	line := rec.Column(3).(*array.Int32)
	qty := rec.Column(4).(*array.Decimal128)
	ship := rec.Column(10).(*array.Date32)
	mode := rec.Column(14).(*array.String)
	tags := rec.Column(16).(*array.List)
	for i := 0; i < int(rec.NumRows()); i++ {
		fmt.Println(key.Value(i), line.Value(i), qty.Value(i).ToString(2), ship.Value(i).FormattedString(), mode.Value(i), tags.ValueStr(i))
	}
	// Output:
	// 1 1 41.00 1996-11-03 FOB (null)
	// 1 2 33.00 1996-08-05 RAIL ["gift"]
	// 2 1 28.00 1997-04-06 AIR []
	// 2 2 22.00 1997-03-22 MAIL (null)
	// 2 3 11.00 1997-02-28 SHIP ["gift","oversize","bulk"]
}

// Stream a table batch by batch: memory stays bounded by the batch size.
func ExampleNewReader() {
	rr, err := demo.NewReader(memory.DefaultAllocator, 250_000, 100_000)
	if err != nil {
		panic(err)
	}
	defer rr.Release()
	for rr.Next() {
		fmt.Println(rr.RecordBatch().NumRows(), "rows")
	}
	// Output:
	// 100000 rows
	// 100000 rows
	// 50000 rows
}

// Stream a table sorted by ship date, cut into exactly 4 batches: the
// shape of a Parquet file whose row groups have narrow date ranges.
func ExampleTable_NewReaderWith() {
	t := demo.Table{Seed: demo.DefaultSeed, Rows: 10_000}
	rr, err := t.NewReaderWith(memory.DefaultAllocator, demo.ReaderOptions{Batches: 4, SortBy: demo.ColShipDate})
	if err != nil {
		panic(err)
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		ship := rec.Column(10).(*array.Date32)
		fmt.Println(rec.NumRows(), "rows shipped", ship.Value(0).FormattedString(), "to", ship.Value(ship.Len()-1).FormattedString())
	}
	// Output:
	// 2500 rows shipped 1992-01-08 to 1993-10-31
	// 2500 rows shipped 1993-11-01 to 1995-06-15
	// 2500 rows shipped 1995-06-16 to 1997-01-09
	// 2500 rows shipped 1997-01-09 to 1998-11-25
}
