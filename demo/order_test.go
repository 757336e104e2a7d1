package demo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// readAll reads every batch of rr, retained.
func readAll(t *testing.T, rr array.RecordReader) []arrow.RecordBatch {
	t.Helper()
	defer rr.Release()
	var bs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		bs = append(bs, rec)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return bs
}

// rowText renders row i of rec, every column, as one string.
func rowText(rec arrow.RecordBatch, i int) string {
	var b strings.Builder
	for j := 0; j < int(rec.NumCols()); j++ {
		b.WriteString(rec.Column(j).ValueStr(i))
		b.WriteByte('|')
	}
	return b.String()
}

// TestSortedReader checks, for every sortable column, that the sorted
// table holds exactly the rows of the table (a permutation: each row whole),
// in ascending order of the column, ties in row order.
func TestSortedReader(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := Table{Seed: 3, Rows: 3000}
	ref, err := tab.Batches(mem, int(tab.Rows))
	if err != nil {
		t.Fatal(err)
	}
	defer releaseAll(ref)
	whole := ref[0]
	rowOf := map[string][]int{} // a row's text → its row numbers
	for i := 0; i < int(whole.NumRows()); i++ {
		k := rowText(whole, i)
		rowOf[k] = append(rowOf[k], i)
	}
	for _, col := range SortColumns() {
		t.Run(col, func(t *testing.T) {
			rr, err := tab.NewReaderWith(mem, ReaderOptions{BatchSize: 700, SortBy: col})
			if err != nil {
				t.Fatal(err)
			}
			bs := readAll(t, rr)
			defer releaseAll(bs)
			ci := schema.FieldIndices(col)[0]
			seen := make([]bool, tab.Rows)
			n := 0
			prevRow := -1
			var prev string
			for _, rec := range bs {
				for i := 0; i < int(rec.NumRows()); i++ {
					rows := rowOf[rowText(rec, i)]
					if len(rows) == 0 {
						t.Fatalf("output row %d is no row of the table", n)
					}
					// Identical rows are interchangeable: take the first unseen.
					row := -1
					for _, r := range rows {
						if !seen[r] {
							row = r
							break
						}
					}
					if row < 0 {
						t.Fatalf("output row %d appears more often than in the table", n)
					}
					seen[row] = true
					v := whole.Column(ci).ValueStr(row)
					if n > 0 {
						c := compareValues(whole.Column(ci), prevRow, row)
						if c > 0 || (c == 0 && prevRow > row) {
							t.Fatalf("output rows %d and %d are out of order: %s (row %d) then %s (row %d)", n-1, n, prev, prevRow, v, row)
						}
					}
					prev, prevRow = v, row
					n++
				}
			}
			if n != int(tab.Rows) {
				t.Fatalf("%d rows, want %d", n, tab.Rows)
			}
		})
	}
}

// compareValues compares rows i and j of a sortable column, by value.
func compareValues(a arrow.Array, i, j int) int {
	switch a := a.(type) {
	case *array.Int64:
		return cmpInt(a.Value(i), a.Value(j))
	case *array.Int32:
		return cmpInt(int64(a.Value(i)), int64(a.Value(j)))
	case *array.Date32:
		return cmpInt(int64(a.Value(i)), int64(a.Value(j)))
	case *array.Decimal128:
		return a.Value(i).Cmp(a.Value(j))
	case *array.String:
		return strings.Compare(a.Value(i), a.Value(j))
	}
	panic(fmt.Sprintf("not sortable: %s", a.DataType()))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestOrderTies checks that rows with equal keys keep their row order.
func TestOrderTies(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := Table{Seed: 5, Rows: 2000}
	order, err := tab.Order(mem, ColShipMode)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := tab.Batch(mem, 0, tab.Rows)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	mode := rec.Column(schema.FieldIndices(ColShipMode)[0]).(*array.String)
	for k := 1; k < len(order); k++ {
		a, b := mode.Value(int(order[k-1])), mode.Value(int(order[k]))
		if a > b || (a == b && order[k-1] >= order[k]) {
			t.Fatalf("positions %d and %d: rows %d (%s) and %d (%s) out of order", k-1, k, order[k-1], a, order[k], b)
		}
	}
}

// TestBatchCount checks that Batches cuts the table into exactly that many
// batches of nearly equal size, sorted or not, and that the rows are those
// of the table.
func TestBatchCount(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		rows    int64
		batches int
	}{{1000, 1}, {1000, 3}, {1000, 7}, {1000, 1000}, {10, 4}, {0, 5}} {
		for _, sortBy := range []string{"", ColShipDate} {
			t.Run(fmt.Sprintf("%d rows, %d batches, sort %q", c.rows, c.batches, sortBy), func(t *testing.T) {
				tab := Table{Seed: 9, Rows: c.rows}
				rr, err := tab.NewReaderWith(mem, ReaderOptions{Batches: c.batches, SortBy: sortBy})
				if err != nil {
					t.Fatal(err)
				}
				bs := readAll(t, rr)
				defer releaseAll(bs)
				want := c.batches
				if c.rows == 0 {
					want = 0
				}
				if len(bs) != want {
					t.Fatalf("%d batches, want %d", len(bs), want)
				}
				var total int64
				for i, b := range bs {
					lo, hi := c.rows/int64(c.batches), (c.rows+int64(c.batches)-1)/int64(c.batches)
					if b.NumRows() < lo || b.NumRows() > hi {
						t.Errorf("batch %d has %d rows, want %d to %d", i, b.NumRows(), lo, hi)
					}
					total += b.NumRows()
				}
				if total != c.rows {
					t.Fatalf("%d rows, want %d", total, c.rows)
				}
				if sortBy != "" || c.rows == 0 {
					return
				}
				ref, err := tab.Batches(mem, int(c.rows))
				if err != nil {
					t.Fatal(err)
				}
				defer releaseAll(ref)
				got := table(bs)
				defer got.Release()
				want2 := table(ref)
				defer want2.Release()
				equalTables(t, want2, got)
			})
		}
	}
}

func TestReaderOptionErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := Table{Seed: 1, Rows: 100}
	cases := []struct {
		name string
		tab  Table // tab when zero
		o    ReaderOptions
		want string
	}{
		{"unknown column", Table{}, ReaderOptions{BatchSize: 10, SortBy: "l_shipdat"},
			`demo: no column "l_shipdat" to sort by; the sortable columns are l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment`},
		{"list column", Table{}, ReaderOptions{BatchSize: 10, SortBy: ColTags},
			"demo: cannot sort by l_tags: a list column has no order; the sortable columns are l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment"},
		{"struct column", Table{}, ReaderOptions{BatchSize: 10, SortBy: ColDims},
			"demo: cannot sort by l_dims: a struct column has no order; the sortable columns are l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment"},
		{"too many batches", Table{}, ReaderOptions{Batches: 101}, "demo: 101 batches is more than the 100 rows"},
		{"negative batches", Table{}, ReaderOptions{Batches: -1}, "demo: batch count -1 is negative"},
		{"no batch size", Table{}, ReaderOptions{}, "demo: batch size 0 must be positive"},
		{"too many rows to sort", Table{Seed: 1, Rows: MaxSortRows + 1}, ReaderOptions{BatchSize: 10, SortBy: ColOrderKey},
			"demo: cannot sort 268435457 rows: the order is kept in memory (16 bytes a row or more), so at most 268435456 rows can be sorted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := tab
			if c.tab != (Table{}) {
				tb = c.tab
			}
			rr, err := tb.NewReaderWith(mem, c.o)
			if err == nil {
				rr.Release()
			}
			if err == nil || err.Error() != c.want {
				t.Fatalf("got error %v, want %q", err, c.want)
			}
		})
	}
}
