package scan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/internal/pqread"
	"github.com/colexpr/colexpr/prune"
)

var pageSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
	{Name: "u", Type: arrow.PrimitiveTypes.Int32},
}, nil)

// writePageFile writes rows rows, sorted by every column but u, in row
// groups of groupRows, with a page index and pages of a few hundred bytes:
// their boundaries differ from column to column. k has nulls; f has NaN
// now and then and rows 2500 to 2699 all NaN (pages without a minimum and
// maximum: arrow-go then writes no column index for the chunk); s is null
// in rows 3813 to 3999, the end of a row group: its last page is all
// null (arrow-go ends a page by the bytes of its values, checked every 37
// rows, the write batch: the nulls start at a batch, after a page ended);
// d is null where k is.
func writePageFile(t *testing.T, path string, rows, groupRows int) {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 3))
	b := array.NewRecordBuilder(memory.DefaultAllocator, pageSchema)
	defer b.Release()
	for i := 0; i < rows; i++ {
		null := r.IntN(10) == 0
		if null {
			b.Field(0).AppendNull()
			b.Field(4).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(int64(i / 2))
			b.Field(4).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i) * 25))
		}
		switch {
		case i >= 2500 && i < 2700, r.IntN(20) == 0:
			b.Field(1).(*array.Float64Builder).Append(math.NaN())
		default:
			b.Field(1).(*array.Float64Builder).Append(float64(i) / 4)
		}
		if i >= 3813 && i < 4000 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%05d", i))
		}
		b.Field(3).(*array.Date32Builder).Append(arrow.Date32(9000 + i/10))
		b.Field(5).(*array.Int32Builder).Append(r.Int32N(1000))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(groupRows)), parquet.WithPageIndexEnabled(true),
		parquet.WithDataPageSize(300), parquet.WithBatchSize(37), parquet.WithStoreDecimalAsInteger(true))
	w, err := pqarrow.NewFileWriter(pageSchema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < rows; off += groupRows {
		part := rec.NewSlice(int64(off), int64(min(off+groupRows, rows)))
		err := w.Write(part)
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPagePruningKeepsRows queries a file with a page index by ranges,
// equalities, null tests, NaN, and their combinations, and checks every
// answer, and every row an error names, against the one without pruning.
func TestPagePruningKeepsRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "pages.parquet")
	writePageFile(t, path, 6000, 2000)
	src, err := Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	preds := []string{
		"k = 700", "k BETWEEN 100 AND 130", "k < 20 OR k > 2990", "k IN (5, 1500, 2999)", "k IS NULL", "k IS NULL AND k > 5",
		"k > 1000 AND k < 1010 OR day = DATE '1994-12-01'", "NOT (k >= 50)", "k != 40",
		"f > 700 AND f < 702", "f = 100.25", "f != 3", "f IS NULL", "f > 630 AND f < 680", "f = CAST('NaN' AS f64)", "NOT (f < 1000)",
		"s = 's03000'", "s >= 's03700' AND s < 's04050'", "s IS NULL", "s IS NULL AND k > 1950", "s IS NOT NULL AND k < 10", "s LIKE 's0123%'",
		"day = DATE '1994-09-01'", "day BETWEEN DATE '1995-01-01' AND DATE '1995-01-03'",
		"d BETWEEN 500.00 AND 700.00", "d = 25000.00", "d IS NULL AND day < DATE '1994-08-01'",
		"u = 5", "u = 5 AND k < 300", "u < 3 OR s = 's05999'", "k + 1 = 701", "year(day) = 1995 AND k < 3000",
	}
	skipped := 0
	for _, pred := range preds {
		for _, bs := range []int{64, 1000} {
			o := Options{Threads: 2, BatchSize: bs}
			got, st, err := queryWith(t, src, o, pred, "k", "f", "s", "day", "d", "u")
			if err != nil {
				t.Fatalf("%s: %v", pred, err)
			}
			o.NoPrune = true
			want, full, err := queryWith(t, src, o, pred, "k", "f", "s", "day", "d", "u")
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: pruning changed the rows:\n%s\nwithout pruning:\n%s", pred, got, want)
			}
			if full.PagesSkipped != 0 || full.PageGroups != 0 {
				t.Errorf("%s: NoPrune skipped %d pages", pred, full.PagesSkipped)
			}
			if st.PageNote != "" {
				t.Errorf("%s: %s", pred, st.PageNote)
			}
			if st.PagesSkipped > st.Pages || st.BytesSkippedPages < 0 || st.Bytes+st.BytesSkipped != full.Bytes {
				t.Errorf("%s: %d of %d pages skipped, %d bytes; %d read + %d skipped, %d in all", pred, st.PagesSkipped, st.Pages, st.BytesSkippedPages, st.Bytes, st.BytesSkipped, full.Bytes)
			}
			skipped += st.PagesSkipped
		}
		// A runtime error names the row of the file, whatever was skipped.
		_, _, err := queryWith(t, src, Options{Threads: 2, BatchSize: 50}, pred, "100 / (u - 500)")
		_, _, want := queryWith(t, src, Options{Threads: 2, BatchSize: 50, NoPrune: true}, pred, "100 / (u - 500)")
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Errorf("%s: error\n%v\nwithout pruning\n%v", pred, err, want)
		}
	}
	if skipped == 0 {
		t.Error("the page index never skipped a page")
	}
}

// TestPagePruningShapes: what the page index decides and what Stats say.
func TestPagePruningShapes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "pages.parquet")
	writePageFile(t, path, 6000, 2000)
	src, err := Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, tc := range []struct {
		pred   string
		groups int   // narrowed
		rows   int64 // read, at most
	}{
		{"k = 700", 1, 400},
		{"day = DATE '1994-09-01'", 1, 200},
		{"k < 20 OR k > 2990", 2, 500},
		{"u = 5", 3, 6000},                         // unsorted, but a page holds few values
		{"f > 630 AND f < 680", 0, 2000},           // the NaN pages: no column index in that row group
		{"s >= 's03700' AND s < 's04050'", 2, 300}, // the all-null page is skipped
		{"k > 3000", 0, 0},                         // no row group
	} {
		_, st, err := queryWith(t, src, Options{Threads: 1}, tc.pred, "k", "s")
		if err != nil {
			t.Fatal(err)
		}
		if st.PageGroups != tc.groups || st.RowsRead > tc.rows || (tc.groups > 0) != (st.PagesSkipped > 0) {
			t.Errorf("%s: %d row groups narrowed, %d rows read, %d of %d pages skipped; want %d, at most %d rows",
				tc.pred, st.PageGroups, st.RowsRead, st.PagesSkipped, st.Pages, tc.groups, tc.rows)
		}
	}
}

// TestIntervals: the rows are cut at every page start of the columns,
// and an interval has its pages' bounds and, where they say it, nulls.
func TestIntervals(t *testing.T) {
	noNulls := prune.Unknown()
	noNulls.NullCount = 0
	a := &columnPages{starts: []int64{0, 100, 250}, stats: []prune.ColumnStats{noNulls, {NullCount: 150}, {NullCount: 3}}}
	b := &columnPages{starts: []int64{0, 200}, stats: []prune.ColumnStats{noNulls, noNulls}}
	starts, stats := intervals([]*columnPages{a, nil, b}, 300)
	if fmt.Sprint(starts) != "[0 100 200 250]" {
		t.Fatalf("starts %v", starts)
	}
	var got []string
	for _, s := range stats {
		got = append(got, fmt.Sprintf("%d:%d/%d/%d", s.RowCount, s.Columns[0].NullCount, s.Columns[1].NullCount, s.Columns[2].NullCount))
	}
	// a's second page is all null (150 of 150 rows): so are its parts;
	// its third has some nulls: unknown; the missing column is unknown.
	if want := "100:0/-1/0 100:100/-1/0 50:50/-1/0 50:-1/-1/0"; strings.Join(got, " ") != want {
		t.Errorf("intervals %s, want %s", strings.Join(got, " "), want)
	}
}

// TestOverlaps: a page is read when a range has a row in it.
func TestOverlaps(t *testing.T) {
	rr := []pqread.RowRange{{Start: 10, End: 20}, {Start: 40, End: 50}}
	for _, tc := range []struct {
		start, end int64
		want       bool
	}{{0, 10, false}, {0, 11, true}, {19, 40, true}, {20, 40, false}, {49, 60, true}, {50, 60, false}} {
		if got := overlaps(rr, tc.start, tc.end); got != tc.want {
			t.Errorf("[%d, %d): %v, want %v", tc.start, tc.end, got, tc.want)
		}
	}
}

// TestDatasetPagePruning: each file of a dataset has its pages pruned as a
// single file's are, and the rows are those read without pruning — also
// where the filter asks about a partition column, and for a file that
// holds the filter's column as a narrower type (its pages are read whole).
func TestDatasetPagePruning(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	for _, part := range []string{"part=1", "part=2", "part=3"} {
		if err := os.Mkdir(filepath.Join(dir, part), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writePageFile(t, filepath.Join(dir, "part=1", "a.parquet"), 6000, 2000)
	writePageFile(t, filepath.Join(dir, "part=2", "b.parquet"), 3000, 1000)
	writeNarrowKeys(t, filepath.Join(dir, "part=3", "c.parquet"), 2000, 1000)
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	preds := []string{
		"k = 700", "k BETWEEN 100 AND 130", "k IS NULL", "k < 20 OR k > 2990",
		"day = DATE '1994-09-01'", "s >= 's03700' AND s < 's04050'",
		"part = 1 AND k = 700", "part >= 2 AND k BETWEEN 400 AND 420",
	}
	skipped := 0
	for _, pred := range preds {
		o := Options{Threads: 2, BatchSize: 128}
		got, st, err := queryWith(t, src, o, pred, "part", "k", "s", "day")
		if err != nil {
			t.Fatalf("%s: %v", pred, err)
		}
		o.NoPrune = true
		want, full, err := queryWith(t, src, o, pred, "part", "k", "s", "day")
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: pruning changed the rows:\n%s\nwithout pruning:\n%s", pred, got, want)
		}
		if st.PageNote != "" {
			t.Errorf("%s: %s", pred, st.PageNote)
		}
		// Files the partition filter leaves out are not opened: their
		// bytes are in neither count.
		if st.PagesSkipped > st.Pages || st.FilesSkipped == 0 && st.Bytes+st.BytesSkipped != full.Bytes {
			t.Errorf("%s: %d of %d pages skipped; %d bytes read + %d skipped, %d in all", pred, st.PagesSkipped, st.Pages, st.Bytes, st.BytesSkipped, full.Bytes)
		}
		skipped += st.PagesSkipped
	}
	if skipped == 0 {
		t.Error("the page index never skipped a page of a dataset")
	}
}

// writeNarrowKeys writes a file whose k is an int32 (k = row / 2), with a
// page index and small pages: a dataset with pageSchema's files widens it.
func writeNarrowKeys(t *testing.T, path string, rows, groupRows int) {
	t.Helper()
	sch := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.Int32Builder).Append(int32(i / 2))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(groupRows)), parquet.WithPageIndexEnabled(true),
		parquet.WithDataPageSize(300), parquet.WithBatchSize(37))
	if err := pqarrow.WriteTable(array.NewTableFromRecords(sch, []arrow.RecordBatch{rec}), f, int64(groupRows), props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}
