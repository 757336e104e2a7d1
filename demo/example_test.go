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
