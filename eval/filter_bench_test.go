package eval

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/internal/cputime"
	"github.com/colexpr/colexpr/parse"
)

const q6Predicate = "l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' " +
	"AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"

// foldForBench replaces every subtree that reads neither $ nor a variable
// by its value, as the optimizer does (the casts of Q6's literals).
func foldForBench(b *expr.Bound) (*expr.Bound, error) {
	if b.Kind() != expr.KindCall {
		return b, nil
	}
	if a, err := analyze(b); err == nil && !a.usesRoot {
		if len(a.free) == 0 {
			s, err := EvalConstant(memory.NewGoAllocator(), b)
			if err != nil {
				return nil, err
			}
			return expr.NewLiteral(s.WithDType(b.DType())), nil
		}
	}
	args := make([]*expr.Bound, len(b.Args()))
	for i, a := range b.Args() {
		f, err := foldForBench(a)
		if err != nil {
			return nil, err
		}
		args[i] = f
	}
	return b.WithArgs(args)
}

// filterWhole is Filter as it was before conjuncts: the whole predicate
// over every row, then a gather of the true rows.
func filterWhole(mem memory.Allocator, pred *expr.Bound, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	st := recordStruct(rec, arrow.StructOf(rec.Schema().Fields()...), nil)
	defer st.Release()
	a, _ := analyze(pred)
	d, err := EvalDatum(mem, pred, datum.FromArray(st, a.root), nil)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	keep, _ := splitTrue(part{d: d, full: true}, all(d.Len()))
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		if cols[i], err = gather(mem, c, keep.list); err != nil {
			return nil, err
		}
	}
	out := array.NewRecordBatch(rec.Schema(), cols, int64(keep.n))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// BenchmarkFilterQ6: Filter with TPC-H Q6's predicate over the 1M rows of
// the demo table (its four columns, batches of 64Ki rows). "conjuncts" is
// Filter; "whole" evaluates the whole predicate first, as Filter used to.
func BenchmarkFilterQ6(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches, bound := q6Batches(b, mem)
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	for _, c := range []struct {
		name   string
		filter func(memory.Allocator, *expr.Bound, arrow.RecordBatch) (arrow.RecordBatch, error)
	}{{"conjuncts", Filter}, {"whole", filterWhole}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			kept := 0
			for range b.N {
				kept = filterBatches(b, mem, c.filter, bound, batches)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(demo.DefaultRows), "ns/row")
			b.ReportMetric(float64(kept), "kept")
		})
	}
}

// BenchmarkQ6 is the whole Q6 workload as the bench suite runs it: Filter
// with the predicate, then the projection l_extendedprice * l_discount
// (decimal(15,2) × decimal(15,2) → decimal(30,4)) over the kept rows, per
// batch of the demo table.
func BenchmarkQ6(b *testing.B) {
	mem := memory.NewGoAllocator()
	batches, bound := q6Batches(b, mem)
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	proj, err := parse.Parse("l_extendedprice * l_discount")
	if err != nil {
		b.Fatal(err)
	}
	root, err := dtype.FromArrowSchema(batches[0].Schema())
	if err != nil {
		b.Fatal(err)
	}
	pb, err := coerce.Bind(proj, expr.ScopeOf(root))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, rec := range batches {
			kept, err := Filter(mem, bound, rec)
			if err != nil {
				b.Fatal(err)
			}
			out, err := EvalRecord(mem, pb, kept)
			kept.Release()
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(demo.DefaultRows), "ns/row")
}

// q6Batches is the demo table cut to Q6's four columns, and Q6's predicate
// bound to it with its literal casts folded.
func q6Batches(b *testing.B, mem memory.Allocator) ([]arrow.RecordBatch, *expr.Bound) {
	b.Helper()
	full, err := demo.Batches(mem, demo.DefaultRows, demo.DefaultBatchSize)
	if err != nil {
		b.Fatal(err)
	}
	cols := []string{demo.ColShipDate, demo.ColDiscount, demo.ColQuantity, demo.ColExtendedPrice}
	var batches []arrow.RecordBatch
	for _, rec := range full {
		var fields []arrow.Field
		var arrs []arrow.Array
		for _, name := range cols {
			i := rec.Schema().FieldIndices(name)[0]
			fields = append(fields, rec.Schema().Field(i))
			arrs = append(arrs, rec.Column(i))
		}
		batches = append(batches, array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, rec.NumRows()))
		rec.Release()
	}
	root, err := dtype.FromArrowSchema(batches[0].Schema())
	if err != nil {
		b.Fatal(err)
	}
	e, err := parse.Parse(q6Predicate)
	if err != nil {
		b.Fatal(err)
	}
	bound, err := coerce.Bind(e, expr.ScopeOf(root))
	if err != nil {
		b.Fatal(err)
	}
	if bound, err = foldForBench(bound); err != nil {
		b.Fatal(err)
	}
	return batches, bound
}

// BenchmarkFilterHalf: Filter keeping half the rows (l_quantity < 26) of
// the demo table's fixed-width columns and one utf8 column, batches of
// 64Ki rows. "conjuncts" is Filter, which compresses the fixed-width
// columns from the bitmap of the kept rows (and gathers the utf8 one by
// their list); "whole" lists the rows and gathers every column, as Filter
// did before.
func BenchmarkFilterHalf(b *testing.B) {
	mem := memory.NewGoAllocator()
	full, err := demo.Batches(mem, demo.DefaultRows, demo.DefaultBatchSize)
	if err != nil {
		b.Fatal(err)
	}
	cols := []string{"l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", demo.ColQuantity, demo.ColExtendedPrice,
		demo.ColDiscount, "l_tax", demo.ColShipDate, "l_commitdate", "l_receiptdate", "l_returnflag"}
	var batches []arrow.RecordBatch
	for _, rec := range full {
		var fields []arrow.Field
		var arrs []arrow.Array
		for _, name := range cols {
			i := rec.Schema().FieldIndices(name)[0]
			fields = append(fields, rec.Schema().Field(i))
			arrs = append(arrs, rec.Column(i))
		}
		batches = append(batches, array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, rec.NumRows()))
		rec.Release()
	}
	defer func() {
		for _, r := range batches {
			r.Release()
		}
	}()
	root, err := dtype.FromArrowSchema(batches[0].Schema())
	if err != nil {
		b.Fatal(err)
	}
	e, err := parse.Parse("l_quantity < 26")
	if err != nil {
		b.Fatal(err)
	}
	bound, err := coerce.Bind(e, expr.ScopeOf(root))
	if err != nil {
		b.Fatal(err)
	}
	if bound, err = foldForBench(bound); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		filter func(memory.Allocator, *expr.Bound, arrow.RecordBatch) (arrow.RecordBatch, error)
	}{{"conjuncts", Filter}, {"whole", filterWhole}} {
		b.Run(c.name, func(b *testing.B) {
			kept := 0
			start := cputime.Process()
			for range b.N {
				kept = filterBatches(b, mem, c.filter, bound, batches)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(demo.DefaultRows), "ns/row")
			// The process's CPU time (the GC's included), steadier than
			// the wall clock on a shared machine.
			b.ReportMetric(float64((cputime.Process()-start).Nanoseconds())/float64(b.N)/float64(demo.DefaultRows), "cpu-ns/row")
			b.ReportMetric(float64(kept), "kept")
		})
	}
}

// filterBatches filters every batch with filter and returns the rows kept.
func filterBatches(b *testing.B, mem memory.Allocator, filter func(memory.Allocator, *expr.Bound, arrow.RecordBatch) (arrow.RecordBatch, error), bound *expr.Bound, batches []arrow.RecordBatch) int {
	kept := 0
	for _, rec := range batches {
		out, err := filter(mem, bound, rec)
		if err != nil {
			b.Fatal(err)
		}
		kept += int(out.NumRows())
		out.Release()
	}
	return kept
}
