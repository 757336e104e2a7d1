package scan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Dictionary-encoded columns read through the scan: typed and evaluated as
// their values, pruned by the values' statistics, written back.

func dictType(index, values arrow.DataType) *arrow.DictionaryType {
	return &arrow.DictionaryType{IndexType: index, ValueType: values}
}

var (
	scanDictSchema = arrow.NewSchema([]arrow.Field{
		{Name: "mode", Type: dictType(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String), Nullable: true},
		{Name: "price", Type: dictType(arrow.PrimitiveTypes.Int32, &arrow.Decimal128Type{Precision: 7, Scale: 2})},
		{Name: "tags", Type: arrow.ListOf(dictType(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.String)), Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	scanPlainSchema = arrow.NewSchema([]arrow.Field{
		{Name: "mode", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 7, Scale: 2}},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	// Two batches with dictionaries of their own; the first's prices are
	// all below 5, its second row has no tags.
	scanDictBatches = []string{
		`[{"mode": "AIR", "price": "1.50", "tags": ["a", "b"], "qty": 1},
		  {"mode": null, "price": "2.00", "tags": null, "qty": 2},
		  {"mode": "MAIL", "price": "1.50", "tags": [], "qty": 3}]`,
		`[{"mode": "SHIP", "price": "9.99", "tags": ["c", null], "qty": 4},
		  {"mode": "AIR", "price": "9.99", "tags": ["a"], "qty": 5},
		  {"mode": "RAIL", "price": "12.00", "tags": ["c"], "qty": 6}]`,
	}
)

// writeDictFiles writes the batches as dict.arrows (an IPC stream, the
// second batch replacing the dictionaries), dict.arrow (an IPC file of the
// first batch), dict.parquet (the Arrow schema stored: a row group per
// batch, read back as dictionaries) and, stored plain, plain.parquet.
func writeDictFiles(t *testing.T, dir string) {
	t.Helper()
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	batches := func(sc *arrow.Schema) []arrow.RecordBatch {
		var recs []arrow.RecordBatch
		for _, js := range scanDictBatches {
			rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(js))
			check(err)
			t.Cleanup(rec.Release)
			recs = append(recs, rec)
		}
		return recs
	}
	recs := batches(scanDictSchema)
	f, err := os.Create(filepath.Join(dir, "dict.arrows"))
	check(err)
	sw := ipc.NewWriter(f, ipc.WithSchema(scanDictSchema))
	for _, rec := range recs {
		check(sw.Write(rec))
	}
	check(sw.Close())
	check(f.Close())

	f, err = os.Create(filepath.Join(dir, "dict.arrow"))
	check(err)
	fw, err := ipc.NewFileWriter(f, ipc.WithSchema(scanDictSchema))
	check(err)
	check(fw.Write(recs[0]))
	check(fw.Close())
	check(f.Close())

	for name, recs := range map[string][]arrow.RecordBatch{"dict.parquet": recs, "plain.parquet": batches(scanPlainSchema)} {
		f, err = os.Create(filepath.Join(dir, name))
		check(err)
		pw, err := pqarrow.NewFileWriter(recs[0].Schema(), f, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		check(err)
		for _, rec := range recs {
			check(pw.Write(rec))
		}
		check(pw.Close())
	}
}

// rowsOf is query's text without its first line (the output's Arrow
// types, which differ between a dictionary column and a plain one).
func rowsOf(s string) string {
	_, rows, _ := strings.Cut(s, "\n")
	return rows
}

// TestScanDictionary: each file with dictionary columns types them as
// their values and answers every query as the same rows stored plain do,
// with batches of one row (the Parquet reader then gives a list of
// dictionaries without a dictionary) and of three.
func TestScanDictionary(t *testing.T) {
	dir := t.TempDir()
	writeDictFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	plain, err := Open(mem, filepath.Join(dir, "plain.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	queries := []struct {
		where   string
		selects []string
	}{
		{"", nil},
		{"mode = 'AIR' OR mode IS NULL", nil},
		{"price < 5", []string{"mode", "price * 2 AS p2", "tags"}},
		{"list_any(tags, x -> x = 'c')", []string{"upper(mode) AS m", "list_transform(tags, x -> x || '!') AS t"}},
		{"", []string{"coalesce(mode, 'none') || ':' || qty AS k"}},
	}
	for _, name := range []string{"dict.arrows", "dict.arrow", "dict.parquet"} {
		for _, q := range queries {
			for _, batch := range []int{1, 3} {
				// A stream is scanned once: a source for each query.
				src, err := Open(mem, filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if got := src.Schema().Root.String(); got != "struct<mode: utf8?, price: decimal(7,2), tags: list<utf8?>?, qty: i64>" {
					t.Errorf("%s: typed as %s", name, got)
				}
				o := Options{Threads: 2, BatchSize: batch}
				got, _, err := queryWith(t, src, o, q.where, q.selects...)
				src.Close()
				if err != nil {
					t.Fatalf("%s: %s: %v", name, q.where, err)
				}
				plainWhere := q.where
				if name == "dict.arrow" {
					// The file holds the first batch only.
					plainWhere = "qty <= 3"
					if q.where != "" {
						plainWhere = "(" + q.where + ") AND qty <= 3"
					}
				}
				want, _, err := queryWith(t, plain, o, plainWhere, q.selects...)
				if err != nil {
					t.Fatal(err)
				}
				if rowsOf(got) != rowsOf(want) {
					t.Errorf("%s, where %q select %v, batches of %d:\n%s\nwant\n%s", name, q.where, q.selects, batch, got, want)
				}
			}
		}
	}
}

// TestScanDictionaryPruning: a dictionary column's Parquet statistics are
// its values', so a row group whose prices are all below 5 is skipped, in
// a dataset too, beside a file that stores the column plain.
func TestScanDictionaryPruning(t *testing.T) {
	dir := t.TempDir()
	writeDictFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := Open(mem, filepath.Join(dir, "dict.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, st, err := query(t, src, "price > 5 AND mode <> 'RAIL'", "mode", "price")
	if err != nil {
		t.Fatal(err)
	}
	if st.RowGroupsSkipped != 1 || rowsOf(got) != "SHIP | 9.99\nAIR | 9.99\n" {
		t.Errorf("skipped %d row groups, want 1; got\n%s", st.RowGroupsSkipped, got)
	}
	ds, err := OpenDataset(mem, []string{filepath.Join(dir, "*.parquet")}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if got := ds.Schema().Root.String(); got != "struct<mode: utf8?, price: decimal(7,2), tags: list<utf8?>?, qty: i64>" {
		t.Errorf("dataset typed as %s", got)
	}
	got, st, err = query(t, ds, "price > 5 AND mode = 'AIR'", "mode", "qty")
	if err != nil {
		t.Fatal(err)
	}
	if st.RowGroupsSkipped != 2 || rowsOf(got) != "AIR | 5\nAIR | 5\n" {
		t.Errorf("dataset: skipped %d row groups, want 2; got\n%s", st.RowGroupsSkipped, got)
	}
}

// TestParquetWriterDictionaries writes the dictionary batches of a scan
// (batches of one row: the first of the filtered output has no tags) with
// ParquetWriter and reads them back: a column's own dictionary is kept,
// the list's written as its values.
func TestParquetWriterDictionaries(t *testing.T) {
	dir := t.TempDir()
	writeDictFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, input := range []string{"dict.parquet", "dict.arrows"} {
		first, err := Open(mem, filepath.Join(dir, input))
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := query(t, first, "price > 1.5")
		first.Close()
		if err != nil {
			t.Fatal(err)
		}
		src, err := Open(mem, filepath.Join(dir, input))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := Compile(src, Query{Where: &Expr{Text: "price > 1.5"}}, Options{BatchSize: 1, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := plan.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out-"+input+".parquet")
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewParquetWriter(f, rr.Schema(), ParquetOptions{Buffered: true, Mem: mem})
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			if err := w.Write(rr.RecordBatch()); err != nil {
				t.Fatalf("%s: %v", input, err)
			}
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		src.Close()

		back, err := Open(mem, out)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := query(t, back, "")
		if err != nil {
			t.Fatal(err)
		}
		if rowsOf(got) != rowsOf(want) {
			t.Errorf("%s read back:\n%s\nwant\n%s", input, got, want)
		}
		sc := back.Schema().Arrow
		if _, ok := sc.Field(0).Type.(*arrow.DictionaryType); !ok {
			t.Errorf("%s: mode written as %s", input, sc.Field(0).Type)
		}
		if tags := sc.Field(2).Type.String(); strings.Contains(tags, "dictionary") {
			t.Errorf("%s: tags written as %s", input, tags)
		}
		back.Close()
	}
}

// TestParquetWriterNullInDictionary: a dictionary with a null value (which
// arrow-go's writer refuses) is written with those rows null by their
// index, still a dictionary column.
func TestParquetWriterNullInDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["a", null, "c"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer vals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int8, strings.NewReader(`[0, 1, 2, null, 1]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	dt := dictType(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String)
	col := array.NewDictionaryArray(dt, idx, vals)
	defer col.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "m", Type: dt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{col}, 5)
	defer rec.Release()
	back, err := Open(mem, writeWithParquetWriter(t, mem, rec, "n.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if typ := back.Schema().Arrow.Field(0).Type; typ.ID() != arrow.DICTIONARY {
		t.Errorf("written as %s", typ)
	}
	got, _, err := query(t, back, "m IS NULL OR m = 'c'", "m IS NULL AS n", "m")
	if err != nil {
		t.Fatal(err)
	}
	if rowsOf(got) != "true | (null)\nfalse | c\ntrue | (null)\ntrue | (null)\n" {
		t.Errorf("read back:\n%s", got)
	}
}

// TestParquetWriterDictionaryOfLists: a dictionary of nested values, which
// arrow-go's writer cannot write as one, is written as its values, and
// reads back as the same rows.
func TestParquetWriterDictionaryOfLists(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals, _, err := array.FromJSON(mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), strings.NewReader(`[[1, 2], null, []]`))
	if err != nil {
		t.Fatal(err)
	}
	defer vals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, 2, null, 1, 0]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	dt := dictType(arrow.PrimitiveTypes.Int32, vals.DataType())
	col := array.NewDictionaryArray(dt, idx, vals)
	defer col.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "xs", Type: dt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{col}, 5)
	defer rec.Release()
	back, err := Open(mem, writeWithParquetWriter(t, mem, rec, "l.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	got, _, err := query(t, back, "", "xs", "len(xs) AS n")
	if err != nil {
		t.Fatal(err)
	}
	if rowsOf(got) != "[1,2] | 2\n[] | 0\n(null) | (null)\n(null) | (null)\n[1,2] | 2\n" {
		t.Errorf("read back:\n%s", got)
	}
}

// writeWithParquetWriter writes rec with colexpr's ParquetWriter to a file
// of that name in a temporary directory, and returns its path.
func writeWithParquetWriter(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := NewParquetWriter(f, rec.Schema(), ParquetOptions{Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
