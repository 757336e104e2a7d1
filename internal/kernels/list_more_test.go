package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// goList is a list row in plain Go: nil when the row is null; a nil
// element is a null element.
type goList []*int32

// randomLists makes a sliced list<i32?>? array (or fixed_size_list<i32?,
// 3>?) of n rows after off rows that are sliced away, with null rows,
// empty lists and null elements, and the same rows in Go.
func randomLists(mem memory.Allocator, rng *rand.Rand, n, off int, fixed bool) (arrow.Array, []goList) {
	var lb array.ListLikeBuilder
	if fixed {
		lb = array.NewFixedSizeListBuilder(mem, 3, arrow.PrimitiveTypes.Int32)
	} else {
		lb = array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	}
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Int32Builder)
	var rows []goList
	for range off + n {
		if rng.IntN(7) == 0 {
			lb.AppendNull() // a fixed-size null row gets its null slots
			rows = append(rows, nil)
			continue
		}
		lb.Append(true)
		m := 3
		if !fixed {
			m = rng.IntN(6)
		}
		row := goList{}
		for range m {
			if rng.IntN(5) == 0 {
				vb.AppendNull()
				row = append(row, nil)
				continue
			}
			v := int32(rng.IntN(9) - 4)
			vb.Append(v)
			row = append(row, &v)
		}
		rows = append(rows, row)
	}
	full := lb.NewArray()
	defer full.Release()
	return array.NewSlice(full, int64(off), int64(off+n)), rows[off:]
}

// listRows reads a list<i32?> result back into Go.
func listRows(t *testing.T, d datum.Datum, n int) []goList {
	t.Helper()
	if d.IsScalar() {
		t.Fatalf("want an array, got scalar %s", d.Scalar())
	}
	arr := d.Array().(*array.List)
	vals := arr.ListValues().(*array.Int32)
	out := make([]goList, n)
	for i := range n {
		if arr.IsNull(i) {
			continue
		}
		s, e := arr.ValueOffsets(i)
		out[i] = goList{}
		for p := s; p < e; p++ {
			if vals.IsNull(int(p)) {
				out[i] = append(out[i], nil)
			} else {
				v := vals.Value(int(p))
				out[i] = append(out[i], &v)
			}
		}
	}
	return out
}

func sameList(a, b goList) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) || (a[i] != nil && *a[i] != *b[i]) {
			return false
		}
	}
	return true
}

func show(l goList) []any {
	if l == nil {
		return nil
	}
	out := []any{}
	for _, p := range l {
		if p == nil {
			out = append(out, "null")
		} else {
			out = append(out, *p)
		}
	}
	return out
}

// TestListRearrangeRandom checks list_slice, list_reverse, list_sort and
// list_distinct, list_concat and the aggregates on random sliced arrays
// against plain loops.
func TestListRearrangeRandom(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(5, 8))
	lt := ty("list<i32?>?")
	for iter := range 200 {
		n, off := rng.IntN(150), rng.IntN(70)
		fixed := iter%4 == 0
		xs, rows := randomLists(mem, rng, n, off, fixed)
		xt := lt
		if fixed {
			xt = ty("fixed_size_list<i32?, 3>?")
		}
		x := datum.FromArray(xs, xt)
		check := func(name string, got datum.Datum, err error, want func(r goList) goList) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			defer got.Release()
			g := listRows(t, got, n)
			for i, r := range rows {
				if w := want(r); !sameList(g[i], w) {
					t.Fatalf("iter %d %s row %d of %v: got %v, want %v", iter, name, i, show(r), show(g[i]), show(w))
				}
			}
		}
		b, e := int64(rng.IntN(9)-4), int64(rng.IntN(9)-4)
		got, err := ListSlice(mem, x, datum.FromScalar(scalarInt64(b), n), datum.FromScalar(scalarInt64(e), n), nil, lt)
		check("list_slice", got, err, func(r goList) goList {
			if r == nil {
				return nil
			}
			lo, hi := SliceRange(int64(len(r)), b, e)
			return r[lo:hi]
		})
		k := []int64{2, 3, -1, -2, math.MaxInt64, math.MinInt64}[rng.IntN(6)]
		stepD := datum.FromScalar(scalarInt64(k), n)
		got, err = ListSlice(mem, x, datum.FromScalar(scalarInt64(b), n), datum.FromScalar(scalarInt64(e), n), &stepD, lt)
		check("list_slice step", got, err, func(r goList) goList {
			if r == nil {
				return nil
			}
			out := goList{}
			if k > 0 {
				lo, hi := SliceRange(int64(len(r)), b, e)
				for p := lo; p < hi; p++ {
					if (p-lo)%k == 0 {
						out = append(out, r[p])
					}
				}
				return out
			}
			lo, hi := SliceRange(int64(len(r)), e, b)
			for p := hi - 1; p >= lo; p-- {
				if (hi-1-p)%k == 0 {
					out = append(out, r[p])
				}
			}
			return out
		})
		got, err = ListRearrange(mem, ReorderReverse, x, false, false, lt)
		check("list_reverse", got, err, func(r goList) goList {
			if r == nil {
				return nil
			}
			out := slices.Clone(r)
			slices.Reverse(out)
			return out
		})
		desc, nullsFirst := rng.IntN(2) == 0, rng.IntN(2) == 0
		got, err = ListRearrange(mem, ReorderSort, x, desc, nullsFirst, lt)
		check("list_sort", got, err, func(r goList) goList {
			if r == nil {
				return nil
			}
			var vals, nulls goList
			for _, p := range r {
				if p == nil {
					nulls = append(nulls, nil)
				} else {
					vals = append(vals, p)
				}
			}
			slices.SortStableFunc(vals, func(a, b *int32) int {
				if desc {
					return int(*b) - int(*a)
				}
				return int(*a) - int(*b)
			})
			if nullsFirst {
				return append(append(goList{}, nulls...), vals...)
			}
			return append(append(goList{}, vals...), nulls...)
		})
		got, err = ListRearrange(mem, ReorderDistinct, x, false, false, lt)
		check("list_distinct", got, err, func(r goList) goList {
			if r == nil {
				return nil
			}
			out := goList{}
			for _, p := range r {
				if p != nil && !slices.ContainsFunc(out, func(q *int32) bool { return *q == *p }) {
					out = append(out, p)
				}
			}
			return out
		})
		got, err = ListConcat(mem, []datum.Datum{x, x}, iter%2 == 0, lt)
		check("list_concat", got, err, func(r goList) goList {
			if r == nil {
				if iter%2 == 0 {
					return nil
				}
				return goList{}
			}
			return append(slices.Clone(r), r...)
		})
		for _, op := range []ListAggOp{AggSum, AggMin, AggMax, AggCount, AggAvg} {
			ret := map[ListAggOp]dtype.DType{AggSum: ty("i64?"), AggMin: ty("i32?"), AggMax: ty("i32?"), AggCount: ty("i64?"), AggAvg: ty("f64?")}[op]
			got, err := ListAggregate(mem, op, x, ret)
			if err != nil {
				t.Fatal(err)
			}
			arr := got.Array()
			for i, r := range rows {
				var vals []int64
				for _, p := range r {
					if p != nil {
						vals = append(vals, int64(*p))
					}
				}
				wantNull := r == nil || (op != AggCount && len(vals) == 0)
				if arr.IsNull(i) != wantNull {
					t.Fatalf("iter %d agg %d row %d %v: null %v", iter, op, i, show(r), arr.IsNull(i))
				}
				if wantNull {
					continue
				}
				var g, w float64
				switch a := arr.(type) {
				case *array.Int64:
					g = float64(a.Value(i))
				case *array.Int32:
					g = float64(a.Value(i))
				case *array.Float64:
					g = a.Value(i)
				}
				switch op {
				case AggSum, AggAvg:
					for _, v := range vals {
						w += float64(v)
					}
					if op == AggAvg {
						w /= float64(len(vals))
					}
				case AggMin:
					w = float64(slices.Min(vals))
				case AggMax:
					w = float64(slices.Max(vals))
				case AggCount:
					w = float64(len(vals))
				}
				if math.Abs(g-w) > 1e-12 {
					t.Fatalf("iter %d agg %d row %d %v: got %v, want %v", iter, op, i, show(r), g, w)
				}
			}
			got.Release()
		}
		xs.Release()
	}
}

// TestListHasPositionRandom checks list_has_any, list_has_all and
// list_position against plain loops, with a second list column.
func TestListHasPositionRandom(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(9, 2))
	lt := ty("list<i32?>?")
	for range 150 {
		n := rng.IntN(120)
		xs, xr := randomLists(mem, rng, n, rng.IntN(40), false)
		ys, yr := randomLists(mem, rng, n, rng.IntN(40), false)
		x, y := datum.FromArray(xs, lt), datum.FromArray(ys, lt)
		in := func(v *int32, l goList) bool {
			return slices.ContainsFunc(l, func(q *int32) bool { return q != nil && *q == *v })
		}
		for _, all := range []bool{false, true} {
			got, err := ListHas(mem, x, y, all, ty("bool?"))
			if err != nil {
				t.Fatal(err)
			}
			arr := got.Array().(*array.Boolean)
			for i := range n {
				if xr[i] == nil || yr[i] == nil {
					if arr.IsValid(i) {
						t.Fatalf("row %d: want null", i)
					}
					continue
				}
				want := all
				for _, v := range yr[i] {
					if v != nil && in(v, xr[i]) != all {
						want = !all
						break
					}
				}
				if arr.IsNull(i) || arr.Value(i) != want {
					t.Fatalf("all=%v row %d %v %v: got %v, want %v", all, i, show(xr[i]), show(yr[i]), arr.Value(i), want)
				}
			}
			got.Release()
		}
		// list_position(xs, list_element(ys, 1)): a value or a null.
		first, err := ListElement(mem, y, datum.FromScalar(scalarInt64(1), n), ty("i32?"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ListPosition(mem, x, first, ty("i64?"))
		if err != nil {
			t.Fatal(err)
		}
		arr := got.Array().(*array.Int64)
		for i := range n {
			var v *int32
			if len(yr[i]) > 0 {
				v = yr[i][0]
			}
			want := int64(0)
			for k, p := range xr[i] {
				if (p == nil && v == nil) || (p != nil && v != nil && *p == *v) {
					want = int64(k + 1)
					break
				}
			}
			if (want == 0) != arr.IsNull(i) || (want != 0 && arr.Value(i) != want) {
				t.Fatalf("list_position row %d %v %v: got %v", i, show(xr[i]), v, arr.ValueStr(i))
			}
		}
		got.Release()
		first.Release()
		xs.Release()
		ys.Release()
	}
}

func TestSliceRange(t *testing.T) {
	// DuckDB's results for a list of 4 (checked with bench's duckquery).
	cases := []struct{ b, e, lo, hi int64 }{
		{2, 3, 1, 3}, {0, 2, 0, 2}, {2, -1, 1, 4}, {2, 0, 1, 1}, {-1, -1, 3, 4}, {5, 6, 4, 4}, {-5, 1, 0, 1},
		{-4, 1, 0, 1}, {4, 4, 3, 4}, {math.MaxInt64, 2, 4, 4}, {math.MinInt64, 2, 0, 2}, {1, math.MinInt64, 0, 0},
		{1, math.MaxInt64, 0, 4}, {1, -4, 0, 1}, {1, -5, 0, 0}, {-10, -4, 0, 1}, {-10, -3, 0, 2}, {3, 2, 2, 2},
	}
	for _, c := range cases {
		if lo, hi := SliceRange(4, c.b, c.e); lo != c.lo || hi != c.hi {
			t.Errorf("SliceRange(4, %d, %d) = [%d, %d), want [%d, %d)", c.b, c.e, lo, hi, c.lo, c.hi)
		}
	}
}

func TestStringElementAndSlice(t *testing.T) {
	mem := checkedMem(t)
	st := ty("utf8?")
	s := fromJSON(t, mem, st, `["héllo", null, "", "abc"]`)
	defer s.Release()
	for _, c := range []struct {
		k    int64
		want string
	}{
		{2, `["é",null,"","b"]`}, {-1, `["o",null,"","c"]`}, {0, `["",null,"",""]`}, {9, `["",null,"",""]`},
	} {
		got, err := StringElement(mem, datum.FromArray(s, st), datum.FromScalar(scalarInt64(c.k), 4), st)
		if err != nil {
			t.Fatal(err)
		}
		if js, _ := got.Array().MarshalJSON(); string(js) != c.want {
			t.Errorf("s[%d] = %s, want %s", c.k, js, c.want)
		}
		got.Release()
	}
	got, err := ListSlice(mem, datum.FromArray(s, st), datum.FromScalar(scalarInt64(-4), 4), datum.FromScalar(scalarInt64(3), 4), nil, st)
	if err != nil {
		t.Fatal(err)
	}
	if js, _ := got.Array().MarshalJSON(); string(js) != `["él",null,"","abc"]` {
		t.Errorf("s[-4:3] = %s", js)
	}
	got.Release()
	if _, err := StringElement(mem, datum.FromArray(s, st), datum.FromScalar(scalarInt64(1<<32), 4), st); !errorIs(err, errs.ErrInvalidArgument) {
		t.Errorf("s[2^32]: %v, want an invalid argument", err)
	}
}

func scalarInt64(v int64) scalar.Scalar { return scalar.Int64(v) }

func errorIs(err, target error) bool { return errors.Is(err, target) }

// BenchmarkListMore measures the list kernels over 65 536 lists of about
// 2.5 i32 elements, nulls included.
func BenchmarkListMore(b *testing.B) {
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(1, 1))
	xs, _ := randomLists(mem, rng, 1<<16, 0, false)
	defer xs.Release()
	lt := ty("list<i32?>?")
	x := datum.FromArray(xs, lt)
	n := xs.Len()
	one, minus := datum.FromScalar(scalarInt64(2), n), datum.FromScalar(scalarInt64(-1), n)
	for _, c := range []struct {
		name string
		run  func() (datum.Datum, error)
	}{
		{"list_sum", func() (datum.Datum, error) { return ListAggregate(mem, AggSum, x, ty("i64?")) }},
		{"list_max", func() (datum.Datum, error) { return ListAggregate(mem, AggMax, x, ty("i32?")) }},
		{"list_sort", func() (datum.Datum, error) { return ListRearrange(mem, ReorderSort, x, false, false, lt) }},
		{"list_distinct", func() (datum.Datum, error) { return ListRearrange(mem, ReorderDistinct, x, false, false, lt) }},
		{"list_slice", func() (datum.Datum, error) { return ListSlice(mem, x, one, minus, nil, lt) }},
		{"list_has_any", func() (datum.Datum, error) { return ListHas(mem, x, x, false, ty("bool?")) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				out, err := c.run()
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
}

func TestListUnique(t *testing.T) {
	u64N := dtype.Primitive(dtype.U64, true)
	runCases(t, []kernelCase{
		{name: "ints", args: []in{col(dtype.List(i64N, true), `[[1, 1, 2, null], [], null, [null], [3]]`)}, ret: u64N, want: `[2, 0, null, 0, 1]`},
		{name: "floats", args: []in{col(dtype.List(dtype.Primitive(dtype.F64, true), true), `[[1, -0, 0, "NaN", "NaN"]]`)}, ret: u64N, want: `[3]`},
		{name: "strings", args: []in{col(dtype.List(strN, true), `[["a", "b", "a", null]]`)}, ret: u64N, want: `[2]`},
		{name: "nested", args: []in{col(dtype.List(dtype.List(i64N, true), true), `[[[1], [1], [2], null, [null], [null]]]`)}, ret: u64N, want: `[3]`},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ListUnique(mem, a[0], ret)
	})
}

// TestListToString: the expected values are DuckDB's (bench/cmd/duckquery).
func TestListToString(t *testing.T) {
	ints := dtype.List(i64N, true)
	call := func(agg bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			var sep *datum.Datum
			if len(a) == 2 {
				sep = &a[1]
			}
			return ListToString(mem, a[0], sep, a[0].DType().Elem(), agg, ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "join", args: []in{col(ints, `[[1, 2, null, 3], [], [null], null, [7]]`), s("-")}, ret: strN, want: `["1-2-3", "", null, null, "7"]`},
		{name: "separator per row", args: []in{col(ints, `[[1, 2], [3, 4], [5, 6]]`), col(strN, `["", null, "|"]`)}, ret: strN, want: `["12", "3,4", "5|6"]`},
		{name: "doubles", args: []in{col(dtype.List(dtype.Primitive(dtype.F64, true), true), `[[1.5, 2]]`), s(",")}, ret: strN, want: `["1.5,2.0"]`},
		{name: "scalar list, column separator", args: []in{lit(scalarList(t)), col(strN, `[";", "--"]`)}, ret: strN, want: `["1;2", "1--2"]`},
	}, call(false))
	runCases(t, []kernelCase{
		{name: "agg", args: []in{col(dtype.List(strN, true), `[["a", null, "b"], [], [null, null], null]`)}, ret: strN, want: `["a,b", null, null, null]`},
	}, call(true))
}

func scalarList(t *testing.T) scalar.Scalar {
	t.Helper()
	s, err := scalar.New(dtype.List(i64N, false), []scalar.Scalar{scalar.Int64(1), scalar.Int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
