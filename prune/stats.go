package prune

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/scalar"
)

// ChunkStats are the statistics of one chunk. RowCount and NullCount are
// -1 when unknown; Min and Max are null scalars when unknown.
type ChunkStats struct {
	RowCount int64
	// Columns are aligned with Pruner.Columns.
	Columns []ColumnStats
}

// ColumnStats are one column's statistics in one chunk.
type ColumnStats struct {
	Min, Max  scalar.Scalar
	NullCount int64
	// Absent, aligned with the Column's Probes, is true where the chunk's
	// bloom filter rules the probe out: no row of the chunk holds it.
	// False (or missing) is "maybe": no filter, one that cannot be read,
	// or one that holds the value or a false positive.
	Absent []bool
}

// Unknown is a column's statistics when the chunk has none.
func Unknown() ColumnStats {
	return ColumnStats{Min: scalar.Null(dtype.Null()), Max: scalar.Null(dtype.Null()), NullCount: -1}
}

// StatsArray builds the struct array of the chunks' statistics, one row per
// chunk, of type Stats: the input the falsifier is evaluated over. Min and
// Max must have the column's dtype (nullability aside) or be null; a value
// of another type is an error.
func (p *Pruner) StatsArray(mem memory.Allocator, chunks []ChunkStats) (arrow.Array, error) {
	sb := array.NewStructBuilder(mem, dtype.ToArrow(p.Stats).(*arrow.StructType))
	defer sb.Release()
	rows := sb.FieldBuilder(0).(*array.Int64Builder)
	cols := sb.FieldBuilder(1).(*array.StructBuilder)
	for ci, chunk := range chunks {
		if len(chunk.Columns) != len(p.Columns) {
			return nil, fmt.Errorf("prune: chunk %d has statistics of %d columns, want %d", ci, len(chunk.Columns), len(p.Columns))
		}
		sb.Append(true)
		appendCount(rows, chunk.RowCount)
		cols.Append(true)
		for i, c := range p.Columns {
			col := cols.FieldBuilder(i).(*array.StructBuilder)
			col.Append(true)
			s := chunk.Columns[i]
			for j, v := range []scalar.Scalar{s.Min, s.Max} {
				if err := appendStat(col.FieldBuilder(j), v, c); err != nil {
					return nil, fmt.Errorf("prune: chunk %d: %w", ci, err)
				}
			}
			appendCount(col.FieldBuilder(2).(*array.Int64Builder), s.NullCount)
			for k := range c.Probes {
				// Only "absent" proves anything: "maybe" is unknown.
				ab := col.FieldBuilder(3 + k).(*array.BooleanBuilder)
				if k < len(s.Absent) && s.Absent[k] {
					ab.Append(true)
				} else {
					ab.AppendNull()
				}
			}
		}
	}
	return sb.NewArray(), nil
}

func appendCount(b *array.Int64Builder, n int64) {
	if n < 0 {
		b.AppendNull()
		return
	}
	b.Append(n)
}

func appendStat(b array.Builder, v scalar.Scalar, c Column) error {
	if v.IsNull() {
		b.AppendNull()
		return nil
	}
	if !v.DType().EqualIgnoreNullability(c.Type) {
		return fmt.Errorf("statistic of %s has type %s, want %s", c.Key(), v.DType(), c.Type)
	}
	return scalar.Append(b, v.WithDType(c.Type.AsNullable()))
}

// Skip evaluates the falsifier over the statistics of every chunk at once
// and reports, per chunk, whether it can be skipped: no row of it satisfies
// the predicate.
func (p *Pruner) Skip(mem memory.Allocator, chunks []ChunkStats) ([]bool, error) {
	skip := make([]bool, len(chunks))
	if p.Inconclusive() || len(chunks) == 0 {
		return skip, nil
	}
	stats, err := p.StatsArray(mem, chunks)
	if err != nil {
		return nil, err
	}
	defer stats.Release()
	if err := p.skipInto(mem, stats, skip); err == nil {
		return skip, nil
	}
	// A monotonic function may fail on a chunk's bound (x + 1 at the
	// largest i64): evaluate chunk by chunk, and keep a chunk whose
	// falsifier fails — its rows are read, and the predicate decides.
	for i := range skip {
		one := array.NewSlice(stats, int64(i), int64(i+1))
		if p.skipInto(mem, one, skip[i:i+1]) != nil {
			skip[i] = false
		}
		one.Release()
	}
	return skip, nil
}

// skipInto evaluates the falsifier over stats and sets skip from it.
func (p *Pruner) skipInto(mem memory.Allocator, stats arrow.Array, skip []bool) error {
	out, err := eval.Eval(mem, p.Expr, stats)
	if err != nil {
		return fmt.Errorf("prune: evaluating the falsifier: %w", err)
	}
	defer out.Release()
	res, ok := out.(*array.Boolean)
	if !ok {
		return fmt.Errorf("prune: the falsifier returned %s, want bool", out.DataType())
	}
	for i := range skip {
		skip[i] = res.IsValid(i) && res.Value(i)
	}
	return nil
}

// nullAt reports whether row r is null at any level of a nested column: a
// field of a null struct is null.
func nullAt(levels []arrow.Array, r int) bool {
	for _, a := range levels {
		if a.IsNull(r) {
			return true
		}
	}
	return false
}

// ComputeStats computes exact statistics of every Pruner column over a
// record batch's struct array (a chunk held in memory): min and max of the
// non-null values (NaN left out, as Parquet writers do), the null count
// (a field of a null struct counts as null), and for each probe whether no
// row equals it (a bloom filter without false positives). It reads row by row: it is for
// data in memory and for tests, not for scans.
func (p *Pruner) ComputeStats(input arrow.Array) (ChunkStats, error) {
	cs := ChunkStats{RowCount: int64(input.Len()), Columns: make([]ColumnStats, len(p.Columns))}
	for i, c := range p.Columns {
		arr := input
		var levels []arrow.Array // the column and every struct above it
		for _, name := range c.Path {
			st, ok := arr.(*array.Struct)
			if !ok {
				return ChunkStats{}, fmt.Errorf("prune: %s: %s is not a struct", c.Key(), arr.DataType())
			}
			idx, found := st.DataType().(*arrow.StructType).FieldIdx(name)
			if !found {
				return ChunkStats{}, fmt.Errorf("prune: no field %q for %s", name, c.Key())
			}
			levels = append(levels, arr)
			arr = st.Field(idx)
		}
		levels = append(levels, arr)
		s := ColumnStats{Min: scalar.Null(c.Type), Max: scalar.Null(c.Type), Absent: make([]bool, len(c.Probes))}
		for k := range s.Absent {
			s.Absent[k] = true
		}
		for r := 0; r < arr.Len(); r++ {
			if nullAt(levels, r) {
				s.NullCount++
				continue
			}
			v, err := scalar.FromArray(arr, r, c.Type)
			if err != nil {
				return ChunkStats{}, err
			}
			for k, pv := range c.Probes {
				if cmp, err := scalar.Compare(v, pv.WithDType(v.DType())); err == nil && cmp == 0 {
					s.Absent[k] = false
				}
			}
			if f, ok := v.Value().(float64); ok && f != f {
				continue
			}
			if s.Min.IsNull() {
				s.Min, s.Max = v, v
				continue
			}
			if cmp, err := scalar.Compare(v, s.Min); err == nil && cmp < 0 {
				s.Min = v
			}
			if cmp, err := scalar.Compare(v, s.Max); err == nil && cmp > 0 {
				s.Max = v
			}
		}
		cs.Columns[i] = s
	}
	return cs, nil
}
