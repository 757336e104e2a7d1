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
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// leafArray is the array of the leaf at path in a struct array.
func leafArray(t *testing.T, st *array.Struct, path []string) arrow.Array {
	t.Helper()
	var arr arrow.Array = st
	for _, name := range path {
		s := arr.(*array.Struct)
		i, ok := s.DataType().(*arrow.StructType).FieldIdx(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		arr = s.Field(i)
	}
	return arr
}

// readBack reads every row of src as one struct array, with the types
// colexpr reads them as.
func readBack(t *testing.T, src *Source, rows int) *array.Struct {
	t.Helper()
	sc, err := src.open(scanSpec{batchSize: rows, threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	b, err := sc.Next()
	if err != nil || b == nil || b.NumRows() != int64(rows) {
		t.Fatalf("read back %v rows: %v", b, err)
	}
	defer b.Release()
	if rest, err := sc.Next(); rest != nil || err != nil {
		t.Fatalf("more than one batch: %v", err)
	}
	return array.RecordToStructArray(b)
}

// TestBloomFiltersHaveNoFalseNegatives writes arrow-go's bloom filters on
// columns of every type colexpr probes, and asks them, in every row
// group, about values of the whole file: a value a row group holds (as
// colexpr compares: -0 equals +0) must never be ruled out, which it would
// be if colexpr encoded a value otherwise than the writer hashed it; and
// every column's filters must rule some value out (the probes reach them).
func TestBloomFiltersHaveNoFalseNegatives(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows, groupRows = 2000, 250
	rec := statsRecord(t, mem, rows, groupRows, 7)
	defer rec.Release()
	dir := t.TempDir()
	for _, v := range []struct {
		name        string
		storeSchema bool
		props       []parquet.WriterProperty
	}{
		{"default", true, nil},
		{"decimals as integers", true, []parquet.WriterProperty{parquet.WithStoreDecimalAsInteger(true)}},
		{"no stored schema, no dictionary", false, []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
	} {
		t.Run(v.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(v.name, " ", "_")+".parquet")
			props := append([]parquet.WriterProperty{parquet.WithBloomFilterEnabled(true), parquet.WithBloomFilterNDV(groupRows)}, v.props...)
			writeStatsFile(t, path, rec, groupRows, v.storeSchema, props...)
			src, err := Open(mem, path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			whole := readBack(t, src, rows)
			defer whole.Release()
			var cols []prune.Column
			for _, c := range leafColumns(src.Schema().Root) {
				if c.Type.IsBool() {
					continue // = true is the column itself: nothing to probe
				}
				arr := leafArray(t, whole, c.Path)
				seen := map[string]bool{}
				for i := 0; i < arr.Len() && len(c.Probes) < 40; i += 7 {
					if arr.IsNull(i) {
						continue
					}
					dt, err := dtype.FromArrow(arr.DataType(), true)
					if err != nil {
						t.Fatal(err)
					}
					at, err := scalar.FromArray(arr, i, dt)
					if err != nil {
						t.Fatal(err)
					}
					sv, err := scalar.Cast(at, c.Type)
					if err != nil {
						t.Fatalf("%s: %v", c.Key(), err)
					}
					if f, ok := sv.Value().(float64); ok && f != f {
						continue // never probed
					}
					if key := sv.SQL(); !seen[key] {
						seen[key] = true
						c.Probes = append(c.Probes, sv)
					}
				}
				if c.Type.Kind() == dtype.KindUtf8 {
					// st.z's words are in every group: one that is in none.
					c.Probes = append(c.Probes, scalar.String("no such word"))
				}
				if strings.HasPrefix(c.Key(), "f") {
					// Both zeros, whichever the data holds.
					c.Probes = append(c.Probes, scalar.Float(c.Type.PType(), 0), scalar.Float(c.Type.PType(), math.Copysign(0, -1)))
				}
				cols = append(cols, c)
			}
			groups := make([]int, src.RowGroups())
			for g := range groups {
				groups[g] = g
			}
			stats := make([]prune.ChunkStats, len(groups))
			for g := range stats {
				stats[g].Columns = make([]prune.ColumnStats, len(cols))
			}
			read, note := src.probeBlooms(cols, groups, stats)
			if note != "" {
				t.Fatal(note)
			}
			if want := len(groups) * len(cols); read != want {
				t.Errorf("%d filters read, want %d", read, want)
			}
			exact := &prune.Pruner{Columns: cols}
			ruledOut := make([]int, len(cols))
			for g := range groups {
				part := array.NewSlice(whole, int64(g*groupRows), int64(min((g+1)*groupRows, rows)))
				want, err := exact.ComputeStats(part)
				part.Release()
				if err != nil {
					t.Fatal(err)
				}
				for i, c := range cols {
					got := stats[g].Columns[i].Absent
					if len(got) != len(c.Probes) {
						t.Fatalf("group %d, %s: %d answers for %d probes", g, c.Key(), len(got), len(c.Probes))
					}
					for k, v := range c.Probes {
						if got[k] && !want.Columns[i].Absent[k] {
							t.Errorf("group %d, %s (%s): the bloom filter rules out %s, which the group holds", g, c.Key(), c.Type, v.SQL())
						}
						if got[k] {
							ruledOut[i]++
						}
					}
				}
			}
			for i, c := range cols {
				if ruledOut[i] == 0 {
					t.Errorf("%s (%s): no probe was ever ruled out", c.Key(), c.Type)
				}
			}
		})
	}
}

// TestPlainValues checks the encodings that are not a plain copy, and the
// values that have none.
func TestPlainValues(t *testing.T) {
	dec := func(v int64, p, s int) scalar.Scalar { return scalar.Decimal(decimal128.FromI64(v), p, s) }
	for _, tc := range []struct {
		name  string
		descr *schema.Column
		t     string
		v     scalar.Scalar
		want  string // the encodings in hex, comma-separated; "" for none
	}{
		{"i32", column(t, schema.NewIntLogicalType(32, true), parquet.Types.Int32, 0), "i32", scalar.Int32(-2), "feffffff"},
		{"i8 as INT32", column(t, schema.NewIntLogicalType(8, true), parquet.Types.Int32, 0), "i8", scalar.Int(dtype.I8, -1), "ffffffff"},
		{"u32", column(t, schema.NewIntLogicalType(32, false), parquet.Types.Int32, 0), "u32", scalar.Uint(dtype.U32, math.MaxUint32), "ffffffff"},
		{"u64", column(t, schema.NewIntLogicalType(64, false), parquet.Types.Int64, 0), "u64", scalar.Uint(dtype.U64, 1), "0100000000000000"},
		{"signed order differs", column(t, schema.NewIntLogicalType(32, false), parquet.Types.Int32, 0), "i32", scalar.Int32(1), ""},
		{"f64 zero", column(t, nil, parquet.Types.Double, 0), "f64", scalar.Float64(0), "0000000000000000,0000000000000080"},
		{"f64 NaN", column(t, nil, parquet.Types.Double, 0), "f64", scalar.Float64(math.NaN()), ""},
		{"decimal INT32", column(t, schema.NewDecimalLogicalType(9, 2), parquet.Types.Int32, 0), "decimal(9,2)", dec(-150, 9, 2), "6affffff"},
		{"decimal FLBA", column(t, schema.NewDecimalLogicalType(9, 2), parquet.Types.FixedLenByteArray, 4), "decimal(9,2)", dec(-150, 9, 2), "ffffff6a"},
		{"decimal FLBA too short", column(t, schema.NewDecimalLogicalType(2, 2), parquet.Types.FixedLenByteArray, 1), "decimal(4,2)", dec(300, 4, 2), ""},
		{"decimal BYTE_ARRAY", column(t, schema.NewDecimalLogicalType(9, 2), parquet.Types.ByteArray, 0), "decimal(9,2)", dec(1, 9, 2), ""},
		{"decimal of another scale", column(t, schema.NewDecimalLogicalType(9, 3), parquet.Types.Int32, 0), "decimal(9,2)", dec(1, 9, 2), ""},
		{"date", column(t, schema.DateLogicalType{}, parquet.Types.Int32, 0), "date", scalar.Date(-1), "ffffffff"},
		{"timestamp s in ms", column(t, schema.NewTimestampLogicalType(true, schema.TimeUnitMillis), parquet.Types.Int64, 0), "timestamp(s)", scalar.Timestamp(dtype.Second, "", 2), "d007000000000000"},
		{"timestamp ns in us, inexact", column(t, schema.NewTimestampLogicalType(true, schema.TimeUnitMicros), parquet.Types.Int64, 0), "timestamp(ns)", scalar.Timestamp(dtype.Nano, "", 1500), ""},
		{"utf8", column(t, schema.StringLogicalType{}, parquet.Types.ByteArray, 0), "utf8", scalar.String("hé"), "68c3a9"},
		{"JSON", column(t, schema.JSONLogicalType{}, parquet.Types.ByteArray, 0), "utf8", scalar.String("{}"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, err := dtype.Parse(tc.t)
			if err != nil {
				t.Fatal(err)
			}
			enc, ok := plainValues(tc.descr, typ, tc.v)
			var hex []string
			for _, b := range enc {
				hex = append(hex, fmt.Sprintf("%x", b))
			}
			if got := strings.Join(hex, ","); got != tc.want || ok != (tc.want != "") {
				t.Errorf("plainValues(%s) = %q, %v; want %q", tc.v.SQL(), got, ok, tc.want)
			}
			// The inverse of statValue: the encoding reads back as the value.
			for _, b := range enc {
				back, ok := statValue(tc.descr, typ, b, false)
				if c, err := scalar.Compare(back, tc.v.WithDType(back.DType())); !ok || err != nil || c != 0 {
					t.Errorf("%x reads back as %v (%v), want %s", b, back, ok, tc.v.SQL())
				}
			}
		})
	}
}

// bloomSchema is the file the pruning tests query: a key from a wide
// range in every row group (min/max cannot prune it), a string, a decimal,
// a float with both zeros and NaN, and a date, all with nulls.
var bloomSchema = arrow.NewSchema([]arrow.Field{
	field("k", i64), field("s", utf8T),
	field("d", &arrow.Decimal128Type{Precision: 12, Scale: 2}),
	field("f", f64), field("day", arrow.FixedWidthTypes.Date32),
}, nil)

// writeBloomFile writes rows of bloomSchema in row groups of 50 rows,
// with bloom filters of false positive rate fpp on k, s, d, f and day.
func writeBloomFile(t *testing.T, path string, rows int, fpp float64, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	b := array.NewRecordBuilder(memory.DefaultAllocator, bloomSchema)
	defer b.Release()
	for i := 0; i < rows; i++ {
		null := func() bool { return r.IntN(10) == 0 }
		if null() {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(int64(r.IntN(500)) * 2) // even keys only
		}
		if null() {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("s%d", r.IntN(300)*2))
		}
		if null() {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r.IntN(400)) * 25))
		}
		switch r.IntN(12) {
		case 0:
			b.Field(3).AppendNull()
		case 1:
			b.Field(3).(*array.Float64Builder).Append(math.NaN())
		case 2:
			b.Field(3).(*array.Float64Builder).Append(math.Copysign(0, -1))
		default:
			b.Field(3).(*array.Float64Builder).Append(float64(r.IntN(200)) + 0.5)
		}
		if null() {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.Date32Builder).Append(arrow.Date32(9000 + r.IntN(700)*2))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rr, err := array.NewRecordReader(bloomSchema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	o := ParquetOptions{RowGroupRows: 50, Buffered: true, BloomFilters: []string{"k", "s", "d", "f", "day"}, BloomFilterFPP: fpp}
	if err := WriteParquet(path, rr, o); err != nil {
		t.Fatal(err)
	}
}

// TestBloomPruningKeepsRows queries a file with bloom filters by = and
// IN, on values present and absent, alone and in AND and OR, with nulls,
// and checks every answer against the one without pruning. The filters
// are written with many false positives (30%), so that row groups are read
// whose filters say "maybe" and which hold no match; and with few (1%),
// so that the filters skip most row groups.
func TestBloomPruningKeepsRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	preds := []string{
		"k = 2", "k = 3", "k = 998", "k = 1001", "k IN (3, 5, 7)", "k IN (4, 5, 7)", "k IN (3, NULL)",
		"k = 10 OR s = 's20'", "k = 11 OR s = 's21'", "k = 10 AND s = 's21'", "k = 12 AND d = 25.00",
		"d = 25.00", "d = 25.01", "d IN (50, 75.00, 13)", "f = 0.0", "f = -0.0", "f = 3.5", "f = 3.25", "f = CAST('NaN' AS f64)",
		"day = DATE '1994-08-22'", "day = DATE '1994-08-23'", "NOT (k != 3)", "NOT (k != 4)",
		"k = 7 OR k IS NULL", "k = 7 OR day < DATE '1994-09-01'", "s LIKE 's41'", "CAST(k AS decimal(20, 0)) = 6",
		"s IN ('s1', 's3', 's5')",
	}
	for _, fpp := range []float64{0.3, 0.01} {
		t.Run(fmt.Sprint(fpp), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("bloom%v.parquet", fpp))
			writeBloomFile(t, path, 1000, fpp, 5)
			src, err := Open(mem, path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			skipped, falsePositives := 0, 0
			for _, pred := range preds {
				got, st, err := queryWith(t, src, Options{Threads: 2, BatchSize: 7}, pred, "k", "s", "d", "f", "day")
				if err != nil {
					t.Fatalf("%s: %v", pred, err)
				}
				want, full, err := queryWith(t, src, Options{Threads: 2, BatchSize: 7, NoPrune: true}, pred, "k", "s", "d", "f", "day")
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: pruning changed the rows:\n%s\nwithout pruning:\n%s", pred, got, want)
				}
				if full.RowGroupsSkipped != 0 || full.BloomFilters != 0 {
					t.Errorf("%s: NoPrune skipped %d row groups, read %d filters", pred, full.RowGroupsSkipped, full.BloomFilters)
				}
				if st.BloomNote != "" {
					t.Errorf("%s: %s", pred, st.BloomNote)
				}
				skipped += st.RowGroupsSkippedBloom
				if strings.Count(got, "\n") == 1 && st.RowGroupsRead > 0 {
					falsePositives++
				}
			}
			if skipped == 0 {
				t.Error("the bloom filters never skipped a row group")
			}
			if fpp == 0.3 && falsePositives == 0 {
				t.Error("no query without a match read a row group: the false positives were not tested")
			}
		})
	}
}

// TestBloomPruningShapes: what the bloom filters decide, and what Stats
// say of it.
func TestBloomPruningShapes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "b.parquet")
	writeBloomFile(t, path, 1000, 0.001, 5)
	src, err := Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, tc := range []struct {
		pred                string
		read, bloom, filter int // row groups read, skipped by bloom filters; filters read
	}{
		// An odd key is in no row group; min/max rule out none of 501
		// (each group's keys are spread over 0 … 998); 1001 is above
		// every maximum: no filter is read.
		{"k = 501", 0, 20, 20},
		{"k = 1001", 0, 0, 0},
		{"k = 501 OR s = 's301'", 0, 20, 40},
		{"k = 501 OR s = 's300'", -1, -1, 40},
		{"k = 501 AND s = 's300'", 0, 20, 40},
		{"k > 3", 20, 0, 0},
	} {
		_, st, err := queryWith(t, src, Options{Threads: 1}, tc.pred, "k")
		if err != nil {
			t.Fatal(err)
		}
		if st.RowGroups != 20 || tc.read >= 0 && (st.RowGroupsRead != tc.read || st.RowGroupsSkippedBloom != tc.bloom) || st.BloomFilters != tc.filter {
			t.Errorf("%s: %d row groups, %d read, %d skipped by bloom filters, %d filters read; want 20, %d, %d, %d",
				tc.pred, st.RowGroups, st.RowGroupsRead, st.RowGroupsSkippedBloom, st.BloomFilters, tc.read, tc.bloom, tc.filter)
		}
	}
}

// TestBloomFilterCorrupt: a filter whose header cannot be read is not
// used — its row group is read, and Stats.BloomNote says why — and the
// scan's output is the one without pruning.
func TestBloomFilterCorrupt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "b.parquet")
	writeBloomFile(t, path, 1000, 0.01, 5)
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var offsets []int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(0)
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, cc.BloomFilterOffset())
	}
	pf.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Group 0's header: a field of an unknown type; group 1's: a bitset
	// longer than the file.
	garbage := []byte{0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	huge := []byte{0x15, 0xfe, 0xff, 0xff, 0xff, 0x0f}
	if _, err := f.WriteAt(garbage, offsets[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(huge, offsets[1]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src, err := Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, st, err := queryWith(t, src, Options{Threads: 2}, "k = 501", "k", "s")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := queryWith(t, src, Options{Threads: 2, NoPrune: true}, "k = 501", "k", "s")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if st.RowGroupsRead != 2 || st.RowGroupsSkippedBloom != 18 || !strings.Contains(st.BloomNote, "row group 0, column k: the bloom filter cannot be read") {
		t.Errorf("read %d row groups, skipped %d by bloom filters, note %q; want 2 read (the corrupt ones), 18 skipped, a note on row group 0", st.RowGroupsRead, st.RowGroupsSkippedBloom, st.BloomNote)
	}
}

// TestDatasetBloomFilters: in a dataset whose files store a column as i32
// and as i64, a probe of the unified i64 is asked of each file's filters
// in the file's type, and one no i32 holds is not asked of the i32 file.
func TestDatasetBloomFilters(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	for _, f := range []struct {
		name string
		typ  arrow.DataType
	}{{"a.parquet", i32}, {"b.parquet", i64}} {
		sc := arrow.NewSchema([]arrow.Field{field("id", f.typ)}, nil)
		var batches []string
		for g := 0; g < 4; g++ {
			// Every group spans 0 … 1000: only the filters tell them apart.
			batches = append(batches, fmt.Sprintf(`[{"id": 0}, {"id": %d}, {"id": 1000}, {"id": null}]`, 10+g))
		}
		var recs []arrow.RecordBatch
		for _, b := range batches {
			rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Release()
			recs = append(recs, rec)
		}
		rr, err := array.NewRecordReader(sc, recs)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteParquet(filepath.Join(dir, f.name), rr, ParquetOptions{BloomFilters: []string{"id"}}); err != nil {
			t.Fatal(err)
		}
		rr.Release()
	}
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, tc := range []struct {
		pred                       string
		read, bloom, filters, rows int
	}{
		{"id = 12", 2, 6, 8, 2},
		// a cannot hold 4000000000 (its ids are i32): only 12 is asked.
		{"id IN (12, 4000000000)", 2, 6, 8, 2},
		{"id = 4000000000", 0, 0, 0, 0}, // above every maximum
		{"id = 11 OR id = 13", 4, 4, 8, 4},
	} {
		got, st, err := query(t, src, tc.pred, "id")
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := queryWith(t, src, Options{NoPrune: true}, tc.pred, "id")
		if err != nil {
			t.Fatal(err)
		}
		if got != want || strings.Count(got, "\n")-1 != tc.rows {
			t.Errorf("%s: got\n%s\nwant %d rows:\n%s", tc.pred, got, tc.rows, want)
		}
		if st.RowGroups != 8 || st.RowGroupsRead != tc.read || st.RowGroupsSkippedBloom != tc.bloom || st.BloomFilters != tc.filters {
			t.Errorf("%s: %d of %d row groups read, %d skipped by bloom filters, %d filters read; want %d, %d, %d",
				tc.pred, st.RowGroupsRead, st.RowGroups, st.RowGroupsSkippedBloom, st.BloomFilters, tc.read, tc.bloom, tc.filters)
		}
	}
}
