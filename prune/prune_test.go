package prune_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

var pruneIterations = flag.Int("prune.iterations", 300, "random predicates tried by TestNeverSkipsAMatch")

var schema = mustType("struct<a: i32?, b: i64?, f: f64?, s: utf8?, st: struct<x: i16?>?>")

func mustType(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

func compile(t testing.TB, src string) *expr.Bound {
	t.Helper()
	e, err := parse.Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	b, err := coerce.Bind(e, expr.ScopeOf(schema))
	if err != nil {
		t.Fatalf("bind %q: %v", src, err)
	}
	return b
}

func TestFalsifierShapes(t *testing.T) {
	for _, tc := range []struct {
		pred string
		want string // substring of the falsifier's text; "false" for inconclusive
	}{
		{"a = 5", "cols.a.min > 5 OR cols.a.max < 5"},
		{"5 < a", "cols.a.max <= 5"},
		{"a < 5", "cols.a.min >= 5"},
		{"a >= 5", "cols.a.max < 5"},
		{"a != 5", "cols.a.min = cols.a.max"},
		{"f != 1.5", "cols.f.null_count = row_count"},
		{"NOT (f < 1.5)", "false"},
		{"NOT (a < 5)", "cols.a.max < 5"},
		{"a IS NULL", "cols.a.null_count = 0"},
		{"a IS NOT NULL", "cols.a.null_count = row_count"},
		{"a BETWEEN 1 AND 3", "cols.a.max < 1 OR cols.a.min > 3"},
		{"s LIKE 'ab%'", "cols.s.max < 'ab' OR cols.s.min >= 'ac'"},
		{"s LIKE 'a_c%'", "false"},
		{"s ILIKE 'ab%'", "false"},
		{`s LIKE 'a\%' ESCAPE '!'`, "false"}, // '\' is a plain character here: the pattern is not the literal 'a%'
		{"a < b", "TRY_CAST(cols.a.min AS i64) >= cols.b.max"},
		{"CAST(a AS f64) > 2.5", "TRY_CAST(cols.a.max AS f64) <= 2.5"},
		{"st.x > 3", `cols."st.x".max <= 3`},
		{"a = 1 OR b = 2", " AND "},
		{"lower(s) = 'x'", "false"},
		// monotonic functions: the bounds go through them
		{"a + 1 > 5", "cols.a.max + 1 <= 5"},
		{"-a > 5", "-cols.a.min <= 5"},
		{"-(-a) > 5", "-(-cols.a.max) <= 5"},
		{"floor(f) = 2", "floor(cols.f.min) > 2"},
		{"a * 2 > 5", "false"},
		{"a + b > 5", "false"},
		{"(a + 1) IS NULL", "false"},
		{"false", "true"},
	} {
		t.Run(tc.pred, func(t *testing.T) {
			p, err := prune.Falsifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			got := p.Expr.String()
			if tc.want == "false" {
				if !p.Inconclusive() {
					t.Fatalf("falsifier of %s = %s, want inconclusive", tc.pred, got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("falsifier of %s =\n  %s\nwant it to contain\n  %s", tc.pred, got, tc.want)
			}
		})
	}
}

func TestFalsifierRejects(t *testing.T) {
	if _, err := prune.Falsifier(compile(t, "a + 1"), expr.ScopeOf(schema)); err == nil {
		t.Fatal("a non-boolean predicate gave no error")
	}
}

// TestColumnsAreThoseRead: Columns and Stats list only the columns the
// falsifier reads, not those of inconclusive parts of the predicate, and
// ComputeStats and Skip work over that shorter list.
func TestColumnsAreThoseRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		pred  string
		want  string // the keys of Columns, comma-separated
		stats string // Stats' cols struct
	}{
		{"a * b > 5 AND b < 3", "b", "cols: struct<b: struct<min: i64?, max: i64?, null_count: i64?>>"},
		{"lower(s) = 'x' AND st.x = 2", "st.x", `cols: struct<"st.x": struct<min: i16?, max: i16?, null_count: i64?, absent_0: bool?>>`},
		{"a = 1 OR s ILIKE 'x%'", "", "cols: struct<>"},
		{"lower(s) = 'x'", "", "cols: struct<>"},
		{"b = 2 AND a < b", "b,a", "cols: struct<b: struct<min: i64?, max: i64?, null_count: i64?, absent_0: bool?>, a: struct<min: i32?, max: i32?, null_count: i64?>>"},
	} {
		t.Run(tc.pred, func(t *testing.T) {
			p, err := prune.Falsifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, c := range p.Columns {
				keys = append(keys, c.Key())
			}
			if got := strings.Join(keys, ","); got != tc.want {
				t.Errorf("columns of %s = %q, want %q (falsifier %s)", tc.pred, got, tc.want, p.Expr)
			}
			if got := p.Stats.String(); !strings.Contains(got, tc.stats) {
				t.Errorf("stats of %s = %s, want it to contain %s", tc.pred, got, tc.stats)
			}
			batch := randomBatch(mem, rand.New(rand.NewPCG(3, 4)), 8, false)
			defer batch.Release()
			cs, err := p.ComputeStats(batch)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs.Columns) != len(p.Columns) {
				t.Fatalf("ComputeStats gave %d columns, want %d", len(cs.Columns), len(p.Columns))
			}
			if _, err := p.Skip(mem, []prune.ChunkStats{cs}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMissingStatisticsNeverSkip: with every statistic unknown nothing is skipped.
func TestMissingStatisticsNeverSkip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, pred := range []string{"a = 5", "a IS NULL", "a IS NOT NULL AND b > 3", "s LIKE 'x%'", "a BETWEEN 1 AND 2"} {
		p, err := prune.Falsifier(compile(t, pred), expr.ScopeOf(schema))
		if err != nil {
			t.Fatal(err)
		}
		chunk := prune.ChunkStats{RowCount: -1}
		for range p.Columns {
			chunk.Columns = append(chunk.Columns, prune.Unknown())
		}
		skip, err := p.Skip(mem, []prune.ChunkStats{chunk, chunk})
		if err != nil {
			t.Fatal(err)
		}
		if skip[0] || skip[1] {
			t.Errorf("%s: skipped a chunk without statistics", pred)
		}
	}
}

// randomBatch makes n rows; sorted makes column a ascending.
func randomBatch(mem memory.Allocator, r *rand.Rand, n int, sorted bool) arrow.Array {
	sb := array.NewStructBuilder(mem, dtype.ToArrow(schema).(*arrow.StructType))
	defer sb.Release()
	a := sb.FieldBuilder(0).(*array.Int32Builder)
	b := sb.FieldBuilder(1).(*array.Int64Builder)
	f := sb.FieldBuilder(2).(*array.Float64Builder)
	s := sb.FieldBuilder(3).(*array.StringBuilder)
	st := sb.FieldBuilder(4).(*array.StructBuilder)
	x := st.FieldBuilder(0).(*array.Int16Builder)
	words := []string{"", "a", "ab", "abc", "b", "ba", "zz", "é", "ab\u00ff"}
	for i := 0; i < n; i++ {
		sb.Append(true)
		switch {
		case sorted:
			a.Append(int32(i))
		case r.IntN(8) == 0:
			a.AppendNull()
		default:
			a.Append(int32(r.IntN(21) - 10))
		}
		if r.IntN(8) == 0 {
			b.AppendNull()
		} else {
			b.Append(int64(r.IntN(21) - 10))
		}
		switch r.IntN(10) {
		case 0:
			f.AppendNull()
		case 1:
			f.Append(math.NaN())
		default:
			f.Append(float64(r.IntN(9)-4) / 2)
		}
		if r.IntN(8) == 0 {
			s.AppendNull()
		} else {
			s.Append(words[r.IntN(len(words))])
		}
		if r.IntN(6) == 0 {
			st.AppendNull()
		} else {
			st.Append(true)
			if r.IntN(5) == 0 {
				x.AppendNull()
			} else {
				x.Append(int16(r.IntN(11) - 5))
			}
		}
	}
	return sb.NewArray()
}

func randomPredicate(r *rand.Rand, depth int) string {
	lit := func() string { return fmt.Sprint(r.IntN(25) - 12) }
	if depth > 0 && r.IntN(3) == 0 {
		switch r.IntN(3) {
		case 0:
			return "(" + randomPredicate(r, depth-1) + " AND " + randomPredicate(r, depth-1) + ")"
		case 1:
			return "(" + randomPredicate(r, depth-1) + " OR " + randomPredicate(r, depth-1) + ")"
		default:
			return "NOT (" + randomPredicate(r, depth-1) + ")"
		}
	}
	// Columns, monotonic casts and monotonic functions of columns: x + c
	// overflows at the largest i64 (b's values reach it), which the
	// falsifier must survive.
	cols := []string{"a", "b", "st.x", "CAST(a AS i64)", "CAST(b AS f32)", "a + 3", "b - 2", "-a", "b + 9223372036854775000", "floor(f)", "-(a - 1)"}
	ops := []string{"=", "!=", "<", "<=", ">", ">="}
	col := cols[r.IntN(len(cols))]
	switch r.IntN(9) {
	case 0:
		return col + " IS NULL"
	case 1:
		return col + " IS NOT NULL"
	case 2:
		return col + " BETWEEN " + lit() + " AND " + lit()
	case 3:
		return col + " IN (" + lit() + ", " + lit() + ", " + lit() + ")"
	case 4:
		return "s LIKE '" + []string{"a%", "ab%", "b%", "", "ab", "é%", "%", "ab\u00ff%"}[r.IntN(8)] + "'"
	case 5:
		return "f " + ops[r.IntN(len(ops))] + " " + fmt.Sprint(float64(r.IntN(9)-4)/2)
	case 6:
		return "a " + ops[r.IntN(len(ops))] + " b"
	case 7:
		return lit() + " " + ops[r.IntN(len(ops))] + " " + col
	default:
		return col + " " + ops[r.IntN(len(ops))] + " " + lit()
	}
}

// TestNeverSkipsAMatch is the soundness property: a chunk is never skipped
// when any row of it satisfies the predicate.
func TestNeverSkipsAMatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(7, 11))
	const chunks, rows = 12, 16
	iterations := *pruneIterations
	if testing.Short() {
		iterations = min(iterations, 60)
	}
	skipped, bloomSkipped := 0, 0
	for it := 0; it < iterations; it++ {
		src := randomPredicate(r, 2)
		pred := compile(t, src)
		p, err := prune.Falsifier(pred, expr.ScopeOf(schema))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		data := make([]arrow.Array, chunks)
		stats := make([]prune.ChunkStats, chunks)
		for i := range data {
			data[i] = randomBatch(mem, r, r.IntN(rows), false)
			if stats[i], err = p.ComputeStats(data[i]); err != nil {
				t.Fatal(err)
			}
			// A bloom filter's false positives: "maybe" for a value
			// the chunk does not hold.
			for _, c := range stats[i].Columns {
				for k := range c.Absent {
					if r.IntN(3) == 0 {
						c.Absent[k] = false
					}
				}
			}
		}
		skip, err := p.Skip(mem, stats)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		noBloom := make([]prune.ChunkStats, len(stats))
		for i, cs := range stats {
			noBloom[i] = prune.ChunkStats{RowCount: cs.RowCount, Columns: slices.Clone(cs.Columns)}
			for j := range noBloom[i].Columns {
				noBloom[i].Columns[j].Absent = nil
			}
		}
		byStats, err := p.Skip(mem, noBloom)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for i, d := range data {
			if byStats[i] && !skip[i] {
				t.Errorf("%s: chunk %d skipped by its bounds, not with its bloom filter too", src, i)
			}
			if skip[i] && !byStats[i] {
				bloomSkipped++
			}
			if skip[i] {
				skipped++
				res, err := eval.Eval(mem, pred, d)
				if err != nil {
					t.Fatalf("%s: %v", src, err)
				}
				bools := res.(*array.Boolean)
				for row := 0; row < bools.Len(); row++ {
					if bools.IsValid(row) && bools.Value(row) {
						t.Errorf("%s: chunk %d skipped, but its row %d matches\nfalsifier: %s", src, i, row, p.Expr)
						break
					}
				}
				res.Release()
			}
			d.Release()
		}
	}
	if skipped == 0 || bloomSkipped == 0 {
		t.Fatalf("%d chunks skipped, %d of them by bloom filters only: the property test proves too little", skipped, bloomSkipped)
	}
}

func TestBloomProbes(t *testing.T) {
	for _, tc := range []struct {
		pred   string
		probes string // the probes of each column, as column: values; "" for none
		want   string // a substring of the falsifier
	}{
		{"a = 5", "a: 5::i32", "cols.a.min > 5 OR cols.a.max < 5 OR cols.a.absent_0"},
		{"5 = a", "a: 5::i32", "cols.a.absent_0"},
		{"a IN (1, 2, 1)", "a: 1::i32, 2::i32", "cols.a.absent_0) AND (cols.a.min > 2 OR cols.a.max < 2 OR cols.a.absent_1"},
		{"a = 1 OR b = 2", "a: 1::i32; b: 2::i64", "cols.a.absent_0 OR cols.a.null_count = row_count) AND (cols.b.min > 2::i64 OR cols.b.max < 2::i64 OR cols.b.absent_0"},
		{"a = 1 AND b = 2", "a: 1::i32; b: 2::i64", "cols.a.absent_0 OR cols.a.null_count = row_count OR cols.b.min > 2::i64"},
		{"s = 'ab' OR s LIKE 'x'", "s: 'ab', 'x'", "cols.s.absent_1"},
		{"st.x = 3", "st.x: 3::i16", `cols."st.x".absent_0`},
		{"NOT (a != 5)", "a: 5::i32", "cols.a.absent_0"},
		{"f = 0.5", "f: 0.5", "cols.f.absent_0"},
		// A widening cast: the value converted back to the column's type.
		{"CAST(a AS i64) = 5", "a: 5::i32", "cols.a.absent_0"},
		{"CAST(a AS i64) = 3000000000", "", ""},
		{"CAST(a AS f64) = 2.5", "", ""},
		{"CAST(b AS f32) = 2", "", ""}, // not widening: two i64 can meet in one f32
		{"f = CAST('NaN' AS f64)", "", ""},
		{"a != 5", "", ""},
		{"NOT (a = 5)", "", ""},
		{"a + 1 = 5", "", ""},
		{"a = b", "", ""},
		{"a < 5", "", ""},
		{"a IN (" + inList(64) + ")", "a: 1::i32, 2::i32", "cols.a.absent_63"},
		{"a IN (" + inList(65) + ") OR b = 2", "b: 2::i64", "cols.b.absent_0"}, // too long to probe
	} {
		t.Run(tc.pred, func(t *testing.T) {
			p, err := prune.Falsifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			var cols []string
			for _, c := range p.Columns {
				if len(c.Probes) == 0 {
					continue
				}
				var vs []string
				for _, v := range c.Probes {
					if !v.DType().EqualIgnoreNullability(c.Type) {
						t.Errorf("probe %s of %s has type %s, want %s", v.SQL(), c.Key(), v.DType(), c.Type)
					}
					vs = append(vs, v.SQL())
				}
				cols = append(cols, c.Key()+": "+strings.Join(vs, ", "))
			}
			slices.Sort(cols)
			if got := strings.Join(cols, "; "); !strings.Contains(got, tc.probes) || (tc.probes == "") != (got == "") {
				t.Errorf("probes of %s = %q, want %q", tc.pred, got, tc.probes)
			}
			if p.HasProbes() != (tc.probes != "") {
				t.Errorf("HasProbes() = %v", p.HasProbes())
			}
			if got := p.Expr.String(); !strings.Contains(got, tc.want) {
				t.Errorf("falsifier of %s =\n  %s\nwant it to contain\n  %s", tc.pred, got, tc.want)
			}
			v, err := prune.Verifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			if v.HasProbes() {
				t.Errorf("the verifier of %s probes bloom filters: %s", tc.pred, v.Expr)
			}
		})
	}
}

// TestLongInListNotProbed: the values of an IN list longer than 64 are
// not probed, and the falsifier is built once (no probe to build it for).
func TestLongInListNotProbed(t *testing.T) {
	p, err := prune.Falsifier(compile(t, "a IN ("+inList(65)+")"), expr.ScopeOf(schema))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasProbes() || strings.Contains(p.Expr.String(), "absent") {
		t.Errorf("a long IN list is probed: %s", p.Expr)
	}
	if !strings.Contains(p.Expr.String(), "cols.a.min > 65") {
		t.Errorf("the bounds of a long IN list are lost: %s", p.Expr)
	}
}

// inList is "1, 2, …, n".
func inList(n int) string {
	var vs []string
	for i := 1; i <= n; i++ {
		vs = append(vs, fmt.Sprint(i))
	}
	return strings.Join(vs, ", ")
}

// TestBloomSkips: a chunk whose bounds hold the value is skipped only when
// the bloom filter rules it out — every value of an IN list, either side
// of an AND, both sides of an OR.
func TestBloomSkips(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		pred   string
		absent map[string][]bool // per column, per probe; the chunks' bounds are [-100, 100]
		skip   bool
	}{
		{"a = 5", map[string][]bool{"a": {true}}, true},
		{"a = 5", map[string][]bool{"a": {false}}, false},
		{"a = 5", nil, false}, // no filter
		{"a IN (1, 2)", map[string][]bool{"a": {true, false}}, false},
		{"a IN (1, 2)", map[string][]bool{"a": {true, true}}, true},
		{"a = 1 OR b = 2", map[string][]bool{"a": {true}, "b": {false}}, false},
		{"a = 1 OR b = 2", map[string][]bool{"a": {true}, "b": {true}}, true},
		{"a = 1 AND b = 2", map[string][]bool{"a": {false}, "b": {true}}, true},
		{"a = 1 AND b > 2", map[string][]bool{"a": {true}}, true},
		{"a = 1 AND b > 2", map[string][]bool{"a": {false}}, false},
	} {
		p, err := prune.Falsifier(compile(t, tc.pred), expr.ScopeOf(schema))
		if err != nil {
			t.Fatal(err)
		}
		chunk := prune.ChunkStats{RowCount: 10}
		for _, c := range p.Columns {
			lo, _ := scalar.Cast(scalar.Int64(-100), c.Type)
			hi, _ := scalar.Cast(scalar.Int64(100), c.Type)
			cs := prune.ColumnStats{Min: lo, Max: hi, NullCount: 0}
			cs.Absent = tc.absent[c.Key()]
			chunk.Columns = append(chunk.Columns, cs)
		}
		skip, err := p.Skip(mem, []prune.ChunkStats{chunk})
		if err != nil {
			t.Fatal(err)
		}
		if skip[0] != tc.skip {
			t.Errorf("%s with absent %v: skip = %v, want %v (falsifier %s)", tc.pred, tc.absent, skip[0], tc.skip, p.Expr)
		}
	}
}

// TestSortedRangeSkipsMost: on sorted data a selective range reads few chunks.
func TestSortedRangeSkipsMost(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(1, 2))
	all := randomBatch(mem, r, 10000, true)
	defer all.Release()
	p, err := prune.Falsifier(compile(t, "a >= 4200 AND a < 4300"), expr.ScopeOf(schema))
	if err != nil {
		t.Fatal(err)
	}
	var stats []prune.ChunkStats
	for off := 0; off < all.Len(); off += 100 {
		chunk := array.NewSlice(all, int64(off), int64(off+100))
		cs, err := p.ComputeStats(chunk)
		chunk.Release()
		if err != nil {
			t.Fatal(err)
		}
		stats = append(stats, cs)
	}
	skip, err := p.Skip(mem, stats)
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, s := range skip {
		if !s {
			read++
		}
	}
	if read != 1 {
		t.Fatalf("read %d of %d chunks, want exactly the 1 that holds 4200..4299", read, len(skip))
	}
}

func ExampleFalsifier() {
	root, _ := dtype.Parse("struct<l_shipdate: date, l_quantity: i32>")
	e, _ := parse.Parse("l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-02-01'")
	b, _ := coerce.Bind(e, expr.ScopeOf(root))
	p, err := prune.Falsifier(b, expr.ScopeOf(root))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Expr)
	fmt.Println(p.Stats)
	// Output:
	// cols.l_shipdate.max < DATE '1995-01-01' OR cols.l_shipdate.null_count = row_count OR cols.l_shipdate.min >= DATE '1995-02-01'
	// struct<row_count: i64?, cols: struct<l_shipdate: struct<min: date?, max: date?, null_count: i64?>>>
}

// TestFailingBoundKeepsTheChunk: a monotonic function that fails on a
// chunk's bound (b + 10 at the largest i64) makes that chunk's falsifier
// fail; Skip keeps the chunk instead of failing, and still skips the others.
func TestFailingBoundKeepsTheChunk(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	p, err := prune.Falsifier(compile(t, "b + 10 < 0"), expr.ScopeOf(schema))
	if err != nil {
		t.Fatal(err)
	}
	chunk := func(lo, hi int64) prune.ChunkStats {
		return prune.ChunkStats{RowCount: 4, Columns: []prune.ColumnStats{{Min: scalar.Int64(lo), Max: scalar.Int64(hi), NullCount: 0}}}
	}
	skip, err := p.Skip(mem, []prune.ChunkStats{chunk(0, 5), chunk(math.MaxInt64-1, math.MaxInt64), chunk(-100, -50)})
	if err != nil {
		t.Fatalf("Skip: %v (falsifier %s)", err, p.Expr)
	}
	if want := []bool{true, false, false}; fmt.Sprint(skip) != fmt.Sprint(want) {
		t.Errorf("skip = %v, want %v (falsifier %s)", skip, want, p.Expr)
	}
}

func TestVerifierShapes(t *testing.T) {
	for _, tc := range []struct {
		pred string
		want string // substring of the verifier's text; "false" when it never claims
	}{
		{"a < 5", "cols.a.max < 5 OR cols.a.null_count = row_count) AND cols.a.null_count = 0"},
		{"a BETWEEN 1 AND 3", "cols.a.min >= 1 AND cols.a.max <= 3"},
		{"a = 5", "cols.a.min = cols.a.max AND cols.a.min = 5"},
		{"a IS NULL", "cols.a.null_count = row_count"},
		{"a > 1 AND b < 3", "cols.b.null_count = 0"},
		{"CAST(a AS i64) > 1", "cols.a.min > 1::i32"},
		{"f > 1.5", "false"},        // NaN
		{"a + 1 > 5", "false"},      // can fail
		{"lower(s) = 'x'", "false"}, // not reasoned about
		{"TRY_CAST(s AS i32) = 1", "false"},
	} {
		t.Run(tc.pred, func(t *testing.T) {
			p, err := prune.Verifier(compile(t, tc.pred), expr.ScopeOf(schema))
			if err != nil {
				t.Fatal(err)
			}
			got := p.Expr.String()
			if tc.want == "false" {
				if !p.Inconclusive() {
					t.Fatalf("verifier of %s = %s, want one that never claims", tc.pred, got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("verifier of %s =\n  %s\nwant it to contain\n  %s", tc.pred, got, tc.want)
			}
		})
	}
}

// TestVerifierNeverClaimsAMiss is the verifier's soundness property: a
// chunk it says every row passes has no row where the predicate is false
// or null.
func TestVerifierNeverClaimsAMiss(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(3, 5))
	const chunks, rows = 12, 8
	iterations := *pruneIterations
	if testing.Short() {
		iterations = min(iterations, 60)
	}
	claimed := 0
	for it := 0; it < iterations; it++ {
		src := randomPredicate(r, 2)
		pred := compile(t, src)
		p, err := prune.Verifier(pred, expr.ScopeOf(schema))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		data := make([]arrow.Array, chunks)
		stats := make([]prune.ChunkStats, chunks)
		for i := range data {
			data[i] = randomBatch(mem, r, 1+r.IntN(rows), r.IntN(2) == 0)
			if stats[i], err = p.ComputeStats(data[i]); err != nil {
				t.Fatal(err)
			}
		}
		all, err := p.Skip(mem, stats)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for i, d := range data {
			if all[i] {
				claimed++
				res, err := eval.Eval(mem, pred, d)
				if err != nil {
					t.Fatalf("%s: %v", src, err)
				}
				bools := res.(*array.Boolean)
				for row := 0; row < bools.Len(); row++ {
					if !bools.IsValid(row) || !bools.Value(row) {
						t.Errorf("%s: chunk %d claimed whole, but its row %d does not pass\nverifier: %s", src, i, row, p.Expr)
						break
					}
				}
				res.Release()
			}
			d.Release()
		}
	}
	if claimed == 0 {
		t.Fatal("no chunk was ever claimed whole: the property test proves nothing")
	}
}
