package eval

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/expr"
)

// Filter keeps the rows of rec where pred is true (null counts as false).
// The result is a new record batch owned by the caller; when every row
// passes it shares rec's columns, otherwise its columns are gathered.
func Filter(mem memory.Allocator, pred *expr.Bound, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if pred == nil || rec == nil {
		return nil, errors.New("eval: Filter needs a predicate and a record batch")
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if !pred.DType().IsBool() {
		return nil, fmt.Errorf("eval: Filter predicate has type %s, want bool", pred.DType())
	}
	st := recordStruct(rec)
	defer st.Release()
	t, err := inputType(pred, st)
	if err != nil {
		return nil, err
	}
	d, err := EvalDatum(mem, pred, datum.FromArray(st, t), nil)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	keep, _ := splitTrue(part{d: d, full: true}, all(d.Len()))
	if keep.n == d.Len() {
		return array.NewRecordBatch(rec.Schema(), rec.Columns(), rec.NumRows()), nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range rec.Columns() {
		g, err := gather(mem, c, keep.list)
		if err != nil {
			return nil, fmt.Errorf("eval: filtering column %q: %w", rec.ColumnName(i), err)
		}
		cols[i] = g
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(keep.n)), nil
}
