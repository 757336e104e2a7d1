package scan

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/fn"
)

// process filters and projects one batch, with memory from mem.
func (p *Plan) process(mem memory.Allocator, b batch) (arrow.RecordBatch, error) {
	rec := b.rec
	whole := p.groups.whole
	if b.file != nil {
		whole = b.file.whole
	}
	// A batch of a row group whose statistics prove every row passes is
	// kept whole: the filter is not evaluated on it.
	filtered := p.where != nil && !whole.covers(b.offset, rec.NumRows())
	if filtered {
		kept, err := p.where.Filter(mem, rec)
		if err != nil {
			return nil, p.rowError(err, b, p.whereWhat, nil)
		}
		defer kept.Release()
		rec = kept
	}
	if p.selects == nil {
		return array.NewRecordBatch(p.out, rec.Columns(), rec.NumRows()), nil
	}
	cols := make([]arrow.Array, len(p.selects))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, s := range p.selects {
		col, err := s.EvalRecord(mem, rec)
		if err != nil {
			return nil, p.rowError(err, b, p.selectWhat[i], func(row int) int {
				if !filtered {
					return row
				}
				return p.unfilter(mem, b.rec, row)
			})
		}
		cols[i] = col
		if want := p.out.Field(i).Type; !arrow.TypeEqual(col.DataType(), want) {
			return nil, fmt.Errorf("%s: the result has Arrow type %s, the schema says %s", p.selectWhat[i], col.DataType(), want)
		}
	}
	return array.NewRecordBatch(p.out, cols, rec.NumRows()), nil
}

// unfilter maps a row of the filtered batch back to the row of rec it came
// from (or -1), by evaluating the filter again: only errors need it.
func (p *Plan) unfilter(mem memory.Allocator, rec arrow.RecordBatch, row int) int {
	if p.where == nil {
		return row
	}
	mask, err := p.where.EvalRecord(mem, rec)
	if err != nil {
		return -1
	}
	defer mask.Release()
	m, ok := mask.(*array.Boolean)
	if !ok {
		return -1
	}
	for i := 0; i < m.Len(); i++ {
		if m.IsValid(i) && m.Value(i) {
			if row == 0 {
				return i
			}
			row--
		}
	}
	return -1
}

// rowError names the row of the input a runtime error happened at,
// counting from 1. mapRow maps a row of the evaluated batch to a row of
// b.rec (nil when they are the same).
func (p *Plan) rowError(err error, b batch, what string, mapRow func(int) int) error {
	name, rows := p.src.name, p.groups.rows
	if b.file != nil {
		name, rows = b.file.name, b.file.rows
	}
	var ee *eval.Error
	if errors.As(err, &ee) && ee.Row >= 0 {
		row := ee.Row
		if mapRow != nil {
			row = mapRow(row)
		}
		cause := ee.Err
		var fe *fn.EvalError
		msg := cause.Error()
		if errors.As(cause, &fe) {
			msg = fe.Fn + ": " + fe.Err.Error()
		}
		if row >= 0 {
			return &RowError{What: what, err: fmt.Errorf("%s: row %d: %s (in `%s`, %s)", name, rows.file(b.offset+int64(row))+1, msg, ee.Expr, what), cause: err}
		}
	}
	return &RowError{What: what, err: fmt.Errorf("%s: rows %d to %d: %s: %w", name, rows.file(b.offset)+1, rows.file(b.offset+b.rec.NumRows()-1)+1, what, err), cause: err}
}

// RowError is an evaluation error of a scan, saying which row of the
// source (counting from 1, whatever was skipped) and which expression. It
// unwraps to the evaluation error, so errors.Is(err, colexpr.ErrOverflow)
// holds for an overflow.
type RowError struct {
	// What names the expression that failed, as its Expr.What gave it
	// ("--where", "select item 2").
	What       string
	err, cause error
}

func (e *RowError) Error() string { return e.err.Error() }
func (e *RowError) Unwrap() error { return e.cause }
