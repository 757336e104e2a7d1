package demo

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// table views batches as a table; the caller releases it.
func table(bs []arrow.RecordBatch) arrow.Table {
	return array.NewTableFromRecords(schema, bs)
}

func equalTables(t *testing.T, a, b arrow.Table) {
	t.Helper()
	if a.NumRows() != b.NumRows() {
		t.Fatalf("row counts differ: %d and %d", a.NumRows(), b.NumRows())
	}
	for i := 0; i < int(a.NumCols()); i++ {
		if !array.ChunkedEqual(a.Column(i).Data(), b.Column(i).Data()) {
			t.Fatalf("column %s differs", a.Schema().Field(i).Name)
		}
	}
}

// TestDeterministic checks that a table depends only on its seed and row
// count: not on the batch size, not on which call made it, not on whether
// it was streamed.
func TestDeterministic(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := Table{Seed: 7, Rows: 10_000}

	cases := []struct {
		name  string
		batch int
	}{{"one batch", 10_000}, {"odd batches", 777}, {"block-sized", blockRows}, {"tiny", 3}}
	ref, err := tab.Batches(mem, 4096)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseAll(ref)
	want := table(ref)
	defer want.Release()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bs, err := tab.Batches(mem, c.batch)
			if err != nil {
				t.Fatal(err)
			}
			defer releaseAll(bs)
			got := table(bs)
			defer got.Release()
			equalTables(t, want, got)
		})
	}
	t.Run("reader", func(t *testing.T) {
		rr, err := tab.NewReader(mem, 1000)
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		var bs []arrow.RecordBatch
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			bs = append(bs, rec)
		}
		defer releaseAll(bs)
		got := table(bs)
		defer got.Release()
		equalTables(t, want, got)
	})
	t.Run("range", func(t *testing.T) {
		rec, err := tab.Batch(mem, 4000, 1234)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		whole, err := tab.Batch(mem, 0, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		defer whole.Release()
		part := whole.NewSlice(4000, 5234)
		defer part.Release()
		if !array.RecordEqual(rec, part) {
			t.Fatal("rows 4000..5234 generated alone differ from the same rows of the whole table")
		}
	})
	t.Run("other seed", func(t *testing.T) {
		other, err := Table{Seed: 8, Rows: 10_000}.Batches(mem, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		defer releaseAll(other)
		got := table(other)
		defer got.Release()
		if array.ChunkedEqual(want.Column(1).Data(), got.Column(1).Data()) {
			t.Fatal("seeds 7 and 8 gave the same l_partkey column")
		}
	})
}

func TestSchema(t *testing.T) {
	want := []string{
		"l_orderkey: int64", "l_partkey: int64", "l_suppkey: int64", "l_linenumber: int32",
		"l_quantity: decimal(15, 2)", "l_extendedprice: decimal(15, 2)", "l_discount: decimal(15, 2)",
		"l_tax: decimal(15, 2)", "l_returnflag: utf8", "l_linestatus: utf8", "l_shipdate: date32",
		"l_commitdate: date32", "l_receiptdate: date32", "l_shipinstruct: utf8", "l_shipmode: utf8",
		"l_comment: utf8", "l_tags: list<item: utf8>", "l_dims: struct<w: float64, h: float64>",
	}
	fs := Schema().Fields()
	if len(fs) != len(want) {
		t.Fatalf("%d fields, want %d", len(fs), len(want))
	}
	for i, f := range fs {
		if got := f.Name + ": " + f.Type.String(); got != want[i] {
			t.Errorf("field %d is %s, want %s", i, got, want[i])
		}
		if nullable := f.Name == ColTags || f.Name == ColDims; f.Nullable != nullable {
			t.Errorf("field %s: nullable is %v, want %v", f.Name, f.Nullable, nullable)
		}
	}
}

// TestValueRanges checks every column against the ranges and rules the
// package doc promises, over a table big enough to hit them all.
func TestValueRanges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = 50_000
	tab := Table{Seed: DefaultSeed, Rows: rows}
	p := newParams(tab)
	bs, err := tab.Batches(mem, 8192)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseAll(bs)

	var (
		prevKey            int64
		prevLine           int32
		orders             int
		tagNulls, dimNulls int
		flags              = map[string]int{}
		modes              = map[string]int{}
		instr              = map[string]int{}
		minShip, maxShip   = int32(1 << 30), int32(-1 << 30)
		tagCounts          [5]int
	)
	for _, rec := range bs {
		col := func(name string) arrow.Array { return rec.Column(rec.Schema().FieldIndices(name)[0]) }
		okey := col(ColOrderKey).(*array.Int64)
		pkey := col(ColPartKey).(*array.Int64)
		skey := col(ColSuppKey).(*array.Int64)
		line := col(ColLineNumber).(*array.Int32)
		qty := col(ColQuantity).(*array.Decimal128)
		price := col(ColExtendedPrice).(*array.Decimal128)
		disc := col(ColDiscount).(*array.Decimal128)
		tax := col(ColTax).(*array.Decimal128)
		flag := col(ColReturnFlag).(*array.String)
		status := col(ColLineStatus).(*array.String)
		ship := col(ColShipDate).(*array.Date32)
		commit := col(ColCommitDate).(*array.Date32)
		receipt := col(ColReceiptDate).(*array.Date32)
		inst := col(ColShipInstruct).(*array.String)
		mode := col(ColShipMode).(*array.String)
		comment := col(ColComment).(*array.String)
		tags := col(ColTags).(*array.List)
		tagVals := tags.ListValues().(*array.String)
		dims := col(ColDims).(*array.Struct)
		w, h := dims.Field(0).(*array.Float64), dims.Field(1).(*array.Float64)

		for i := 0; i < int(rec.NumRows()); i++ {
			fail := func(format string, a ...any) {
				t.Fatalf("row with l_orderkey %d line %d: %s", okey.Value(i), line.Value(i), fmt.Sprintf(format, a...))
			}
			k, l := okey.Value(i), line.Value(i)
			switch {
			case k < prevKey:
				fail("order key decreases from %d", prevKey)
			case k == prevKey && l != prevLine+1:
				fail("line number follows %d", prevLine)
			case k != prevKey && l != 1:
				fail("a new order starts at line %d", l)
			case l > 7:
				fail("more than 7 lines")
			}
			if k != prevKey {
				orders++
			}
			prevKey, prevLine = k, l
			pk := pkey.Value(i)
			if pk < 1 || pk > p.parts {
				fail("l_partkey %d outside 1..%d", pk, p.parts)
			}
			ok := false
			for s := int64(0); s < 4; s++ {
				ok = ok || suppKey(pk, s, p.supps) == skey.Value(i)
			}
			if !ok || skey.Value(i) < 1 || skey.Value(i) > p.supps {
				fail("l_suppkey %d is not a supplier of part %d", skey.Value(i), pk)
			}
			q := qty.Value(i).LowBits()
			if q < 100 || q > 5000 || q%100 != 0 {
				fail("l_quantity %s", qty.ValueStr(i))
			}
			if got, want := int64(price.Value(i).LowBits()), int64(q)/100*retailPrice(pk); got != want {
				fail("l_extendedprice %s, want quantity × retail price = %d cents", price.ValueStr(i), want)
			}
			if d := disc.Value(i).LowBits(); d > 10 {
				fail("l_discount %s", disc.ValueStr(i))
			}
			if x := tax.Value(i).LowBits(); x > 8 {
				fail("l_tax %s", tax.ValueStr(i))
			}
			sd, cd, rd := int32(ship.Value(i)), int32(commit.Value(i)), int32(receipt.Value(i))
			minShip, maxShip = min(minShip, sd), max(maxShip, sd)
			if rd-sd < 1 || rd-sd > 30 {
				fail("received %d days after shipping", rd-sd)
			}
			if cd-sd < 30-121 || cd-sd > 90-1 {
				fail("committed %d days after shipping", cd-sd)
			}
			f := flag.Value(i)
			flags[f]++
			if (rd <= currentDate) != (f == "R" || f == "A") || (f != "R" && f != "A" && f != "N") {
				fail("l_returnflag %q with receipt day %d", f, rd)
			}
			if s := status.Value(i); (sd > currentDate) != (s == "O") || (s != "O" && s != "F") {
				fail("l_linestatus %q with ship day %d", s, sd)
			}
			instr[inst.Value(i)]++
			modes[mode.Value(i)]++
			if c := comment.Value(i); len(c) < 10 || len(c) > 43 {
				fail("l_comment %q has %d characters", c, len(c))
			}
			if tags.IsNull(i) {
				tagNulls++
			} else {
				b, e := tags.ValueOffsets(i)
				tagCounts[e-b]++
				seen := map[string]bool{}
				for j := b; j < e; j++ {
					v := tagVals.Value(int(j))
					if seen[v] {
						fail("tag %q twice", v)
					}
					seen[v] = true
				}
			}
			if dims.IsNull(i) {
				dimNulls++
			} else if w.Value(i) < 0.5 || w.Value(i) > 100 || h.Value(i) < 0.5 || h.Value(i) > 100 {
				fail("l_dims {w: %v, h: %v}", w.Value(i), h.Value(i))
			}
		}
	}
	if minShip < days(1992, 1, 2) || maxShip > days(1998, 12, 1) {
		t.Errorf("ship dates span days %d..%d, outside 1992-01-02..1998-12-01", minShip, maxShip)
	}
	if avg := float64(rows) / float64(orders); avg < 3.5 || avg > 4.5 {
		t.Errorf("%.2f lines per order on average, want about 4", avg)
	}
	checkSet := func(name string, got map[string]int, want []string) {
		if len(got) != len(want) {
			t.Errorf("%s takes %d values (%v), want %d", name, len(got), got, len(want))
		}
		for _, v := range want {
			if got[v] == 0 {
				t.Errorf("%s never takes %q", name, v)
			}
		}
	}
	checkSet(ColReturnFlag, flags, returnFlags)
	checkSet(ColShipMode, modes, shipModes)
	checkSet(ColShipInstruct, instr, shipInstruct)
	if f := float64(tagNulls) / rows; f < 0.08 || f > 0.12 {
		t.Errorf("%.3f of l_tags are null, want about 0.1", f)
	}
	if f := float64(dimNulls) / rows; f < 0.035 || f > 0.065 {
		t.Errorf("%.3f of l_dims are null, want about 0.05", f)
	}
	for k, c := range tagCounts {
		if c == 0 {
			t.Errorf("no row has %d tags", k)
		}
	}
}

func TestBadArguments(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tab := Table{Seed: 1, Rows: 100}
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"range past the end", func() error { _, err := tab.Batch(mem, 90, 20); return err }, "demo: rows [90, 110) are not inside a table of 100 rows"},
		{"negative offset", func() error { _, err := tab.Batch(mem, -1, 5); return err }, "demo: rows [-1, 4) are not inside a table of 100 rows"},
		{"zero batch size", func() error { _, err := tab.Batches(mem, 0); return err }, "demo: batch size 0 must be positive"},
		{"reader batch size", func() error { _, err := tab.NewReader(mem, -5); return err }, "demo: batch size -5 must be positive"},
		{"negative rows", func() error { _, err := Table{Rows: -1}.Batches(mem, 10); return err }, "demo: row count -1 is negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if err == nil || err.Error() != c.want {
				t.Fatalf("got error %v, want %q", err, c.want)
			}
		})
	}
}

func TestEmptyAndEarlyRelease(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	bs, err := Table{Rows: 0}.Batches(mem, 10)
	if err != nil || len(bs) != 0 {
		t.Fatalf("empty table: %d batches, error %v", len(bs), err)
	}
	rec, err := Table{Rows: 5}.Batch(mem, 5, 0)
	if err != nil || rec.NumRows() != 0 {
		t.Fatalf("empty range: %v, error %v", rec, err)
	}
	rec.Release()
	// A reader released after one batch of many frees what it generated ahead.
	rr, err := Table{Rows: 100_000}.NewReader(mem, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Next() || rr.RecordBatch().NumRows() != 1000 {
		t.Fatal("first batch missing")
	}
	rr.Release()
}

func BenchmarkBatches1M(b *testing.B) {
	mem := memory.NewGoAllocator()
	b.ReportAllocs()
	for b.Loop() {
		bs, err := Batches(mem, DefaultRows, DefaultBatchSize)
		if err != nil {
			b.Fatal(err)
		}
		releaseAll(bs)
	}
	b.ReportMetric(float64(DefaultRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
