package eval

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scalar"
)

var flagFilterIterations = flag.Int("eval.filter-iterations", 400, "predicates the Filter differential test generates")

// filterReference is what Filter did before it evaluated conjuncts one by
// one: the whole predicate over every row, then the rows where it is true.
func filterReference(mem memory.Allocator, pred *expr.Bound, rec arrow.RecordBatch) ([]int, error) {
	arr, err := EvalRecord(mem, pred, rec)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	b, ok := arr.(*array.Boolean)
	if !ok {
		return nil, fmt.Errorf("predicate gave %T", arr)
	}
	var keep []int
	for i := range b.Len() {
		if b.IsValid(i) && b.Value(i) {
			keep = append(keep, i)
		}
	}
	return keep, nil
}

// checkFilter compares Filter with filterReference on one predicate and
// batch: the same rows, or the same error.
func checkFilter(mem memory.Allocator, pred *expr.Bound, rec arrow.RecordBatch) error {
	want, werr := filterReference(mem, pred, rec)
	out, gerr := Filter(mem, pred, rec)
	if werr != nil || gerr != nil {
		if out != nil {
			out.Release()
		}
		switch {
		case werr == nil:
			return fmt.Errorf("Filter failed (%v), the whole predicate did not", gerr)
		case gerr == nil:
			return fmt.Errorf("Filter succeeded, the whole predicate failed: %v", werr)
		case werr.Error() != gerr.Error():
			return fmt.Errorf("errors differ:\n\tFilter: %v\n\twhole:  %v", gerr, werr)
		}
		var we, ge *Error
		if errors.As(werr, &we) != errors.As(gerr, &ge) || (we != nil && we.Row != ge.Row) {
			return fmt.Errorf("error rows differ: Filter %v, whole %v", gerr, werr)
		}
		return nil
	}
	defer out.Release()
	if out.NumRows() != int64(len(want)) || out.NumCols() != rec.NumCols() {
		return fmt.Errorf("Filter kept %d rows (%d columns), want %d rows %v", out.NumRows(), out.NumCols(), len(want), want)
	}
	for c := range int(rec.NumCols()) {
		for k, i := range want {
			if !array.SliceApproxEqual(out.Column(c), int64(k), int64(k+1), rec.Column(c), int64(i), int64(i+1), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
				return fmt.Errorf("column %s, kept row %d: not input row %d", rec.ColumnName(c), k, i)
			}
		}
	}
	return nil
}

// filterConjunct is a random bool conjunct: usually a random expression,
// sometimes a selective comparison, a constant, or a fallible expression
// that fails on rows a selective conjunct rejects (x / $.i64 fails where
// $.i64 = 0; $.i8 + $.i8 overflows).
func (g *gen) filterConjunct() *expr.Bound {
	col := func(name string) *expr.Bound {
		return g.call(fn.GetItem(name), expr.NewRoot(g.root))
	}
	switch g.intn(8) {
	case 0:
		return g.call(fn.NotEq, col("n64"), expr.NewLiteral(scalar.Int64(0)))
	case 1:
		return g.call(fn.Gt, g.call(fn.Div, expr.NewLiteral(scalar.Int64(100)), col("n64")), expr.NewLiteral(scalar.Int64(g.r.Int64N(200)-100)))
	case 2:
		return g.call(fn.Lt, g.call(fn.Add, col("i8"), col("i8")), expr.NewLiteral(scalar.Int(dtype.I8, int64(g.intn(50)))))
	case 3:
		return g.call(fn.Lt, col("u8"), expr.NewLiteral(scalar.Uint(dtype.U8, uint64(g.intn(256)))))
	case 4:
		switch g.intn(3) {
		case 0:
			return expr.NewLiteral(scalar.Bool(true))
		case 1:
			return expr.NewLiteral(scalar.Bool(false))
		}
		return expr.NewLiteral(scalar.Null(dtype.Bool(true)))
	}
	for {
		if b := g.expr(dtype.Bool(true), 1+g.intn(3)); b != nil {
			return b
		}
	}
}

// filterPredicate ANDs k random conjuncts in a random tree shape.
func (g *gen) filterPredicate(k int) *expr.Bound {
	if k == 1 {
		return g.filterConjunct()
	}
	l := 1 + g.intn(k-1)
	return g.call(fn.And, g.filterPredicate(l), g.filterPredicate(k-l))
}

// TestFilterDifferential checks Filter against evaluating the whole
// predicate on random conjunctions over random data: the same rows, or the
// same error at the same row, with no memory left allocated.
func TestFilterDifferential(t *testing.T) {
	root := mustType(t, diffSchema)
	funcs, _ := availableFuncs()
	var kept, failed, sparse int
	for it := range *flagFilterIterations {
		seed := *flagSeed*7_000_003 + uint64(it)
		g := newGen(seed, root, funcs)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		n := []int{0, 1, 3, 17, 64, 200, 300}[g.intn(7)]
		input, err := g.batch(mem, n)
		if err != nil {
			t.Fatalf("seed %d: data: %v", seed, err)
		}
		rec := array.RecordFromStructArray(input.(*array.Struct), nil)
		input.Release()
		pred := g.filterPredicate(1 + g.intn(5))
		if err := checkFilter(mem, pred, rec); err != nil {
			t.Errorf("seed %d (-eval.seed=%d, iteration %d), %d rows: %v\npredicate: %s", seed, *flagSeed, it, n, err, expr.Shorten(pred.String()))
		}
		if _, err := filterReference(mem, pred, rec); err != nil {
			failed++
		} else if out, err := Filter(mem, pred, rec); err == nil {
			kept++
			if out.NumRows()*4 < int64(n) {
				sparse++
			}
			out.Release()
		}
		rec.Release()
		mem.AssertSize(t, 0)
	}
	t.Logf("%d predicates: %d filtered (%d keeping under a quarter of the rows), %d failed on both sides", *flagFilterIterations, kept, sparse, failed)
}

// TestFilterCompress checks Filter where the rows kept stay a bitmap
// (more than a quarter of them), so that the fixed-width columns are
// compressed from it and the others gathered, against the whole
// predicate: every column type of the differential schema, sliced at
// every offset 0…63, at densities from a quarter to all.
func TestFilterCompress(t *testing.T) {
	root := mustType(t, diffSchema)
	funcs, _ := availableFuncs()
	g := newGen(31, root, funcs)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 300
	input, err := g.batch(mem, n+64)
	if err != nil {
		t.Fatal(err)
	}
	defer input.Release()
	col := func(name string) *expr.Bound { return g.call(fn.GetItem(name), expr.NewRoot(g.root)) }
	compressed := 0
	for off := range 64 {
		sliced := array.NewSlice(input, int64(off), int64(off+n))
		rec := array.RecordFromStructArray(sliced.(*array.Struct), nil)
		sliced.Release()
		for _, limit := range []uint64{80, 128, 200, 255} {
			// $.u8 < limit, or a null u8: about limit/256 of the rows.
			pred := g.call(fn.Or, g.call(fn.Lt, col("u8"), expr.NewLiteral(scalar.Uint(dtype.U8, limit))),
				g.call(fn.IsNull, col("u8")))
			if err := checkFilter(mem, pred, rec); err != nil {
				t.Fatalf("offset %d, u8 < %d: %v", off, limit, err)
			}
			if out, err := Filter(mem, pred, rec); err == nil {
				if k := out.NumRows(); k*4 >= n && k < n {
					compressed++
				}
				out.Release()
			}
		}
		rec.Release()
	}
	if compressed == 0 {
		t.Fatal("no case kept between a quarter and all of the rows")
	}
}

// seenFn is seen(b) → b for a bool b: an infallible identity that counts
// the rows it is evaluated on.
type seenFn struct {
	*testFn
	rows *int
}

func (s seenFn) Fallible() bool           { return false }
func (s seenFn) Equal(o fn.Function) bool { x, ok := o.(seenFn); return ok && x.testFn == s.testFn }

func newSeen() seenFn {
	rows := new(int)
	return seenFn{rows: rows, testFn: &testFn{
		id: "seen", arity: 1,
		ret: func(args []dtype.DType) (dtype.DType, error) { return args[0], nil },
		eval: func(_ *fn.Context, args []datum.Datum, _ dtype.DType) (datum.Datum, error) {
			*rows += args[0].Len()
			return args[0].Retain(), nil
		},
	}}
}

// TestFilterConjuncts checks which rows each conjunct is evaluated on: an
// infallible later conjunct only on the rows the earlier ones kept when
// they are under a quarter, a fallible one on every row, and that a
// fallible conjunct still fails on a row an earlier one rejected.
func TestFilterConjuncts(t *testing.T) {
	const n = 1000
	mem := checkedMem(t)
	bld := array.NewInt64Builder(mem)
	bb := array.NewBooleanBuilder(mem)
	for i := range n {
		bld.Append(int64(i % 100))
		if i%7 == 0 {
			bb.AppendNull()
		} else {
			bb.Append(i%3 != 0)
		}
	}
	av, bv := bld.NewArray(), bb.NewArray()
	bld.Release()
	bb.Release()
	input := structOf(t, []string{"a", "b"}, av, bv)
	av.Release()
	bv.Release()
	defer input.Release()
	rt := mustType(t, "struct<a: i64, b: bool?>")
	rec := array.RecordFromStructArray(input.(*array.Struct), nil)
	defer rec.Release()
	ca, cb := expr.Col("a"), expr.Col("b")
	gt := func(v int64) expr.Expr { return expr.Gt(ca, expr.Lit(v)) }
	for _, c := range []struct {
		name string
		pred func(seen fn.Function) expr.Expr
		rows int // rows seen() is evaluated on
		err  string
	}{
		{"sparse: a subset", func(s fn.Function) expr.Expr { return expr.And(gt(89), expr.Apply(s, cb)) }, 100, ""},
		{"dense: all rows", func(s fn.Function) expr.Expr { return expr.And(gt(10), expr.Apply(s, cb)) }, n, ""},
		{"first conjunct: all rows", func(s fn.Function) expr.Expr { return expr.And(expr.Apply(s, cb), gt(89)) }, n, ""},
		{"narrowing chain", func(s fn.Function) expr.Expr {
			return expr.And(expr.And(gt(50), expr.Lt(ca, expr.Lit(int64(60)))), expr.Apply(s, cb))
		}, 90, ""},
		{"right-deep", func(s fn.Function) expr.Expr {
			return expr.And(gt(94), expr.And(expr.Apply(s, cb), expr.Apply(s, expr.Lt(ca, expr.Lit(int64(97))))))
		}, 50 + 28, ""}, // b on a > 94; a < 97 where b is also true
		{"nothing left", func(s fn.Function) expr.Expr { return expr.And(expr.Lit(false), expr.Apply(s, cb)) }, 0, ""},
		{"fallible: all rows", func(s fn.Function) expr.Expr {
			return expr.And(gt(89), expr.And(expr.Apply(s, cb), expr.Gt(expr.Div(expr.Lit(int64(100)), expr.Add(ca, expr.Lit(int64(1)))), expr.Lit(int64(0)))))
		}, 100, ""},
		{"fails on a rejected row", func(s fn.Function) expr.Expr {
			return expr.And(expr.NotEq(ca, expr.Lit(int64(0))), expr.Gt(expr.Div(expr.Lit(int64(100)), ca), expr.Lit(int64(0))))
		}, 0, "row 0"},
		{"fails after nothing is left", func(s fn.Function) expr.Expr {
			return expr.And(gt(200), expr.Gt(expr.Div(expr.Lit(int64(100)), ca), expr.Lit(int64(0))))
		}, 0, "row 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seen := newSeen()
			pred := mustBind(t, c.pred(seen), rt)
			if err := checkFilter(mem, pred, rec); err != nil {
				t.Fatal(err)
			}
			*seen.rows = 0
			out, err := Filter(mem, pred, rec)
			if c.err != "" {
				if err == nil || !errors.Is(err, errs.ErrDivideByZero) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got error %v, want a division by zero at %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out.Release()
			if *seen.rows != c.rows {
				t.Errorf("seen() evaluated on %d rows, want %d", *seen.rows, c.rows)
			}
		})
	}
}

// TestConjuncts checks the split at top-level ANDs and the fallibility
// test.
func TestConjuncts(t *testing.T) {
	rt := mustType(t, "struct<a: i64, b: bool?>")
	ca, cb := expr.Col("a"), expr.Col("b")
	for _, c := range []struct {
		name     string
		pred     expr.Expr
		parts    []string
		fallible []bool
	}{
		{"one", cb, []string{"b"}, []bool{false}},
		{"left-deep", expr.And(expr.And(cb, expr.Not(cb)), expr.Gt(ca, expr.Lit(int64(1)))),
			[]string{"b", "NOT b", "a > 1::i64"}, []bool{false, false, false}},
		{"right-deep", expr.And(cb, expr.And(expr.Gt(expr.Add(ca, ca), expr.Lit(int64(1))), cb)),
			[]string{"b", "a + a > 1::i64", "b"}, []bool{false, true, false}},
		{"OR is one", expr.Or(cb, expr.And(cb, cb)), []string{"b OR b AND b"}, []bool{false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts := partition.Conjuncts(mustBind(t, c.pred, rt))
			if len(parts) != len(c.parts) {
				t.Fatalf("got %d conjuncts %v, want %v", len(parts), parts, c.parts)
			}
			for i, p := range parts {
				if p.String() != c.parts[i] || canFail(p) != c.fallible[i] {
					t.Errorf("conjunct %d: got %s (fallible %v), want %s (%v)", i, p, canFail(p), c.parts[i], c.fallible[i])
				}
			}
		})
	}
}

// TestKeepTrue: keepTrue compacts a row list to the rows where a part is
// true, nulls counting as false, whether the part has a row per listed row
// or per env row (full), and for a scalar part.
func TestKeepTrue(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	// Eight rows: true, false, null, true, true, null, false, true.
	b.AppendValues([]bool{true, false, false, true, true, false, false, true},
		[]bool{true, true, false, true, true, false, true, true})
	arr := b.NewArray()
	defer arr.Release()
	sliced := array.NewSlice(arr, 1, 8) // false, null, true, true, null, false, true
	defer sliced.Release()
	for _, c := range []struct {
		name string
		p    part
		list []int32
		want []int32
	}{
		{"one row per listed row", part{d: datum.FromArray(arr, dtype.Bool(true))}, []int32{3, 5, 9, 10, 20, 21, 30, 40}, []int32{3, 10, 20, 40}},
		{"an offset array", part{d: datum.FromArray(sliced, dtype.Bool(true))}, []int32{1, 2, 3, 4, 5, 6, 7}, []int32{3, 4, 7}},
		{"full: indexed by row", part{d: datum.FromArray(arr, dtype.Bool(true)), full: true}, []int32{0, 2, 4, 5, 7}, []int32{0, 4, 7}},
		{"scalar true", part{d: datum.FromScalar(scalar.Bool(true), 3)}, []int32{1, 2, 3}, []int32{1, 2, 3}},
		{"scalar null", part{d: datum.FromScalar(scalar.Null(dtype.Bool(true)), 3)}, []int32{1, 2, 3}, []int32{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := keepTrue(c.p, append([]int32(nil), c.list...))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("keepTrue = %v, want %v", got, c.want)
			}
		})
	}
}

// TestSetBits: setBits lists exactly the set bits among the first n, for
// lengths around word boundaries and bits set beyond n, with one scratch
// reused from longer to shorter lists and back.
func TestSetBits(t *testing.T) {
	sc := new(filterScratch)
	for _, n := range []int{0, 1, 7, 63, 64, 65, 128, 200, 65, 3, 1000} {
		bm := make([]byte, (n+7)/8+1) // one byte more than needed, all set past n
		var want []int32
		for i := range len(bm) * 8 {
			if i >= n || i%3 == 0 || i%7 == 1 {
				bm[i/8] |= 1 << (i % 8)
				if i < n {
					want = append(want, int32(i))
				}
			}
		}
		got := sc.setBits(bm, n, len(want))
		if fmt.Sprint(got) != fmt.Sprint(want) { // nil and empty both print []
			t.Errorf("n=%d: setBits = %v, want %v", n, got, want)
		}
	}
}
