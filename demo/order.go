package demo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// SortColumns are the columns a table can be sorted by (see Order): every
// integer, decimal, date and string column. The list and struct columns
// have no order.
func SortColumns() []string {
	var names []string
	for _, f := range schema.Fields() {
		if sortable(f.Type) {
			names = append(names, f.Name)
		}
	}
	return names
}

func sortable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DECIMAL128, arrow.STRING:
		return true
	}
	return false
}

// MaxSortRows is the most rows Order sorts: it keeps the order and a copy
// of the column in memory, 16 bytes a row or more (4 GiB at this limit).
const MaxSortRows = 1 << 28

// Order returns the row numbers of t in ascending order of column, rows
// with equal values in row order, so the order is the same on every run. It
// generates the table once, batch by batch, keeping only a copy of the
// column. The column must be one of SortColumns, and t.Rows at most
// MaxSortRows.
func (t Table) Order(mem memory.Allocator, column string) ([]int64, error) {
	idx := schema.FieldIndices(column)
	if len(idx) == 0 {
		return nil, fmt.Errorf("demo: no column %q to sort by; the sortable columns are %s", column, strings.Join(SortColumns(), ", "))
	}
	col := idx[0]
	if f := schema.Field(col); !sortable(f.Type) {
		return nil, fmt.Errorf("demo: cannot sort by %s: a %s column has no order; the sortable columns are %s", column, f.Type.Name(), strings.Join(SortColumns(), ", "))
	}
	if t.Rows < 0 {
		return nil, fmt.Errorf("demo: row count %d is negative", t.Rows)
	}
	if t.Rows > MaxSortRows {
		return nil, fmt.Errorf("demo: cannot sort %d rows: the order is kept in memory (16 bytes a row or more), so at most %d rows can be sorted", t.Rows, MaxSortRows)
	}
	rr, err := t.NewReader(mem, DefaultBatchSize)
	if err != nil {
		return nil, err
	}
	defer rr.Release()

	order := make([]int64, t.Rows)
	for i := range order {
		order[i] = int64(i)
	}
	// Every sortable column is non-nullable, so there are no nulls to
	// place. Integers, dates and decimals (all of one scale, and small
	// enough) compare as int64.
	switch schema.Field(col).Type.ID() {
	case arrow.STRING:
		keys := make([]string, 0, t.Rows)
		for rr.Next() {
			a := rr.RecordBatch().Column(col).(*array.String)
			for i := 0; i < a.Len(); i++ {
				keys = append(keys, strings.Clone(a.Value(i)))
			}
		}
		sortBy(order, keys)
	default:
		keys := make([]int64, 0, t.Rows)
		for rr.Next() {
			switch a := rr.RecordBatch().Column(col).(type) {
			case *array.Int64:
				keys = append(keys, a.Int64Values()...)
			case *array.Int32:
				for _, v := range a.Int32Values() {
					keys = append(keys, int64(v))
				}
			case *array.Date32:
				for _, v := range a.Date32Values() {
					keys = append(keys, int64(v))
				}
			case *array.Decimal128:
				for _, v := range a.Values() {
					if !v.FitsInPrecision(18) {
						return nil, fmt.Errorf("demo: %s value %s does not fit in 64 bits", column, v.ToString(2))
					}
					keys = append(keys, int64(v.LowBits()))
				}
			}
		}
		sortBy(order, keys)
	}
	return order, nil
}

// sortBy sorts the row numbers in order by keys[row], ties by row number.
func sortBy[K cmp.Ordered](order []int64, keys []K) {
	slices.SortFunc(order, func(a, b int64) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}
