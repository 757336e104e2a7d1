// Package demo generates colexpr's built-in demo table: a deterministic,
// seeded imitation of TPC-H's lineitem table, with two nested columns added,
// so that examples, tests, benchmarks and the colexpr command have realistic
// data to run on without any file.
//
// # Columns
//
//	l_orderkey      i64             increasing; 1–7 lines per order; sparse like dbgen (8 of every 32 keys)
//	l_partkey       i64             1 … 200 000 × SF
//	l_suppkey       i64             1 … 10 000 × SF, one of the part's 4 suppliers (dbgen's formula)
//	l_linenumber    i32             1 … 7 within the order
//	l_quantity      decimal(15,2)   1 … 50
//	l_extendedprice decimal(15,2)   quantity × the part's retail price
//	l_discount      decimal(15,2)   0.00 … 0.10
//	l_tax           decimal(15,2)   0.00 … 0.08
//	l_returnflag    utf8            R or A when received by 1995-06-17, else N
//	l_linestatus    utf8            O when shipped after 1995-06-17, else F
//	l_shipdate      date            order date + 1 … 121 days (1992-01-02 … 1998-12-01)
//	l_commitdate    date            order date + 30 … 90 days
//	l_receiptdate   date            ship date + 1 … 30 days
//	l_shipinstruct  utf8            DELIVER IN PERSON, COLLECT COD, NONE, TAKE BACK RETURN
//	l_shipmode      utf8            REG AIR, AIR, RAIL, SHIP, TRUCK, MAIL, FOB
//	l_comment       utf8            10 … 43 characters of words from a small list
//	l_tags          list<utf8>?     0 … 4 tags from a vocabulary of 8; null in about 1 row in 10
//	l_dims          struct<w: f64, h: f64>?  0.5 … 100.0 in steps of 0.1; null in about 1 row in 20
//
// SF, the TPC-H scale factor, is the table's row count divided by 6 000 000
// (dbgen makes about 6 million lines per unit of scale); the key ranges have
// a floor so small tables still have variety.
//
// # Determinism
//
// Every value of row r is a function of the seed, the table's row count and
// r alone (a counter-based random generator keyed by the row and, for
// order-level values, by the order), so a table is the same however it is cut
// into batches and whichever goroutine generates which batch. Tables with
// the same seed and row count are identical.
//
// # Use
//
// Schema is the Arrow schema. Batches makes a whole table in memory, in
// parallel; NewReader streams it batch by batch, generating ahead on every
// core, for scans whose memory must stay bounded. A Table with another Seed
// gives a different table of the same shape.
//
// NewReaderWith streams the same rows cut into an exact number of batches
// (as a file writer wants row groups), or sorted by a column (see Order and
// SortColumns): a sorted table is the shape that lets a reader skip row
// groups by their statistics. Sorting generates the table twice, once to
// find the order and once in it, and keeps only the order and the sort
// column in memory.
package demo

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DefaultSeed is the seed of the package-level functions and the colexpr
// command's demo table.
const DefaultSeed uint64 = 0x5eed_c01e_c0de

// DefaultRows is the row count of the colexpr command's demo table.
const DefaultRows = 1_000_000

// DefaultBatchSize is a batch size for Batches and NewReader callers with
// no reason to pick another: large enough that per-batch costs vanish.
const DefaultBatchSize = 64 * 1024

// The column names, in schema order.
const (
	ColOrderKey      = "l_orderkey"
	ColPartKey       = "l_partkey"
	ColSuppKey       = "l_suppkey"
	ColLineNumber    = "l_linenumber"
	ColQuantity      = "l_quantity"
	ColExtendedPrice = "l_extendedprice"
	ColDiscount      = "l_discount"
	ColTax           = "l_tax"
	ColReturnFlag    = "l_returnflag"
	ColLineStatus    = "l_linestatus"
	ColShipDate      = "l_shipdate"
	ColCommitDate    = "l_commitdate"
	ColReceiptDate   = "l_receiptdate"
	ColShipInstruct  = "l_shipinstruct"
	ColShipMode      = "l_shipmode"
	ColComment       = "l_comment"
	ColTags          = "l_tags"
	ColDims          = "l_dims"
)

var money = &arrow.Decimal128Type{Precision: 15, Scale: 2}

var dimsType = arrow.StructOf(
	arrow.Field{Name: "w", Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: "h", Type: arrow.PrimitiveTypes.Float64},
)

var tagsType = arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.BinaryTypes.String})

var schema = arrow.NewSchema([]arrow.Field{
	{Name: ColOrderKey, Type: arrow.PrimitiveTypes.Int64},
	{Name: ColPartKey, Type: arrow.PrimitiveTypes.Int64},
	{Name: ColSuppKey, Type: arrow.PrimitiveTypes.Int64},
	{Name: ColLineNumber, Type: arrow.PrimitiveTypes.Int32},
	{Name: ColQuantity, Type: money},
	{Name: ColExtendedPrice, Type: money},
	{Name: ColDiscount, Type: money},
	{Name: ColTax, Type: money},
	{Name: ColReturnFlag, Type: arrow.BinaryTypes.String},
	{Name: ColLineStatus, Type: arrow.BinaryTypes.String},
	{Name: ColShipDate, Type: arrow.FixedWidthTypes.Date32},
	{Name: ColCommitDate, Type: arrow.FixedWidthTypes.Date32},
	{Name: ColReceiptDate, Type: arrow.FixedWidthTypes.Date32},
	{Name: ColShipInstruct, Type: arrow.BinaryTypes.String},
	{Name: ColShipMode, Type: arrow.BinaryTypes.String},
	{Name: ColComment, Type: arrow.BinaryTypes.String},
	{Name: ColTags, Type: tagsType, Nullable: true},
	{Name: ColDims, Type: dimsType, Nullable: true},
}, nil)

// Schema is the Arrow schema of the demo table. It is shared: do not modify it.
func Schema() *arrow.Schema { return schema }

// Table describes one demo table: its seed and its row count.
type Table struct {
	Seed uint64
	Rows int64
}

// Default is the table of DefaultRows rows with DefaultSeed.
func Default() Table { return Table{Seed: DefaultSeed, Rows: DefaultRows} }

// Batch generates rows [offset, offset+n) of t as one record batch, its
// memory allocated from mem. The caller releases the batch. It returns an
// error when the range is not inside the table.
func (t Table) Batch(mem memory.Allocator, offset, n int64) (arrow.RecordBatch, error) {
	if t.Rows < 0 || offset < 0 || n < 0 || offset+n > t.Rows || offset+n < offset {
		return nil, fmt.Errorf("demo: rows [%d, %d) are not inside a table of %d rows", offset, offset+n, t.Rows)
	}
	return generate(mem, newParams(t), offset, int(n), nil), nil
}

// Batches generates the whole of t as batches of batchSize rows (the last
// one shorter), in order, using every core. The caller releases each batch.
func (t Table) Batches(mem memory.Allocator, batchSize int) ([]arrow.RecordBatch, error) {
	if batchSize <= 0 {
		return nil, fmt.Errorf("demo: batch size %d must be positive", batchSize)
	}
	if t.Rows < 0 {
		return nil, fmt.Errorf("demo: row count %d is negative", t.Rows)
	}
	p := newParams(t)
	nb := int((t.Rows + int64(batchSize) - 1) / int64(batchSize))
	out := make([]arrow.RecordBatch, nb)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				off := int64(i) * int64(batchSize)
				out[i] = generate(mem, p, off, int(min(int64(batchSize), t.Rows-off)), nil)
			}
		}()
	}
	for i := 0; i < nb; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, nil
}

// Batches generates the default-seeded table of rows rows as batches of
// batchSize rows, in order, using every core. The caller releases each batch.
func Batches(mem memory.Allocator, rows, batchSize int) ([]arrow.RecordBatch, error) {
	return Table{Seed: DefaultSeed, Rows: int64(rows)}.Batches(mem, batchSize)
}
