package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Dictionary-encoded columns (pandas categoricals, what Arrow writers and
// pqarrow often hand out): read as their values, printed as values,
// written with -o.

// dictSchema has a dictionary of strings (nullable), a dictionary of
// decimals with unsigned indices, a list of dictionary strings and a plain
// column.
var dictSchema = arrow.NewSchema([]arrow.Field{
	{Name: "mode", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, Nullable: true},
	{Name: "price", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: &arrow.Decimal128Type{Precision: 7, Scale: 2}}},
	{Name: "tags", Type: arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}), Nullable: true},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// dictBatches are two batches whose dictionaries differ.
var dictBatches = []string{
	`[{"mode": "AIR", "price": "1.50", "tags": ["a", "b"], "qty": 1},
	  {"mode": null, "price": "2.00", "tags": null, "qty": 2},
	  {"mode": "MAIL", "price": "1.50", "tags": [], "qty": 3}]`,
	`[{"mode": "SHIP", "price": "9.99", "tags": ["c", null], "qty": 4},
	  {"mode": "AIR", "price": "9.99", "tags": ["a"], "qty": 5},
	  {"mode": "RAIL", "price": "12.00", "tags": ["c"], "qty": 6}]`,
}

// writeDictionaryFixtures writes dict.arrows (an IPC stream whose second
// batch replaces the dictionaries), dict.arrow (an IPC file: one batch,
// one dictionary per field) and dict.parquet (pqarrow with the Arrow schema
// stored, so that its reader gives dictionaries back; a row group per
// batch).
func writeDictionaryFixtures(t testing.TB, dir string) {
	t.Helper()
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var recs []arrow.RecordBatch
	for _, js := range dictBatches {
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, dictSchema, strings.NewReader(js))
		check(err)
		defer rec.Release()
		recs = append(recs, rec)
	}
	f, err := os.Create(filepath.Join(dir, "dict.arrows"))
	check(err)
	sw := ipc.NewWriter(f, ipc.WithSchema(dictSchema))
	for _, rec := range recs {
		check(sw.Write(rec))
	}
	check(sw.Close())
	check(f.Close())

	f, err = os.Create(filepath.Join(dir, "dict.arrow"))
	check(err)
	fw, err := ipc.NewFileWriter(f, ipc.WithSchema(dictSchema))
	check(err)
	check(fw.Write(recs[0]))
	check(fw.Close())
	check(f.Close())

	f, err = os.Create(filepath.Join(dir, "dict.parquet"))
	check(err)
	pw, err := pqarrow.NewFileWriter(dictSchema, f, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	check(err)
	for _, rec := range recs {
		check(pw.Write(rec))
	}
	check(pw.Close())
}

func init() {
	cliCases = append(cliCases, []cliCase{
		// The dtypes of the values.
		{name: "dict_schema", args: []string{"schema", "$DIR/dict.arrows"}},
		{name: "dict_schema_parquet", args: []string{"schema", "--origins", "$DIR/dict.parquet"}},
		// Filter and compute on the values; the table prints values.
		{name: "dict_query_arrows", args: []string{"query", "--where", "mode IN ('AIR', 'SHIP') OR mode IS NULL", "--select", "mode, lower(mode) || '/' || qty AS m, price * 2 AS p2, list_transform(tags, t -> upper(t)) AS tags", "$DIR/dict.arrows"}},
		// Rows kept whole: the dictionary columns as they are, as CSV and
		// JSON lines.
		{name: "dict_query_csv", args: []string{"query", "--format", "csv", "--where", "price < 5", "$DIR/dict.arrow"}},
		{name: "dict_query_jsonl", args: []string{"query", "--format", "jsonl", "--where", "mode <> 'AIR' AND list_any(tags, t -> t = 'c')", "$DIR/dict.arrows"}},
		// Statistics are the values': the first row group (prices 1.50 to
		// 2.00) is skipped.
		{name: "dict_parquet_pruned", args: []string{"query", "--stats", "--where", "price > 5 AND mode <> 'RAIL'", "--select", "mode, price, tags", "$DIR/dict.parquet"}},
		// Arrow output of a batch kept whole keeps its dictionaries.
		{name: "dict_arrow_output", args: []string{"query", "--format", "arrow", "--where", "qty % 2 = 0", "$DIR/dict.arrows"}, arrowOut: true},
	}...)
}

// TestDictionaryOutputFiles writes a query over dictionary columns to a
// file in every format and reads it back: the rows printed to stdout. The
// IPC stream and Parquet keep the dictionaries; an IPC file, which holds
// one dictionary per field while the input's batches bring two, holds the
// values.
func TestDictionaryOutputFiles(t *testing.T) {
	bin := colexprBinary(t)
	dir, _ := fixtureFiles(t)
	out := t.TempDir()
	for _, input := range []string{"dict.arrows", "dict.parquet"} {
		args := []string{"--where", "qty <> 2", filepath.Join(dir, input)}
		want, err := exec.Command(bin, append([]string{"query", "--format", "jsonl"}, args...)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(want, []byte(`{"mode":"SHIP","price":"9.99","tags":["c",null],"qty":4}`)) {
			t.Fatalf("%s: the values are not printed:\n%s", input, want)
		}
		for _, name := range []string{"x.arrows", "x.arrow", "x.parquet", "x.csv", "x.jsonl"} {
			path := filepath.Join(out, name)
			if msg, err := exec.Command(bin, append([]string{"query", "-o", path}, args...)...).CombinedOutput(); err != nil || len(msg) > 0 {
				t.Fatalf("%s to %s: %v: %s", input, name, err, msg)
			}
			var got []byte
			switch name {
			case "x.csv", "x.jsonl":
				stdout, err := exec.Command(bin, append([]string{"query", "--format", strings.TrimPrefix(filepath.Ext(name), ".")}, args...)...).Output()
				if err != nil {
					t.Fatal(err)
				}
				want := stdout
				if got, _ = os.ReadFile(path); !bytes.Equal(got, want) {
					t.Errorf("%s to %s: the file holds\n%s\nstdout has\n%s", input, name, got, want)
				}
				continue
			}
			if got, err = exec.Command(bin, "query", "--format", "jsonl", path).Output(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s to %s, read back:\n%s\nwant\n%s", input, name, got, want)
			}
			modeType := outputFieldType(t, path, "mode")
			if _, isDict := modeType.(*arrow.DictionaryType); isDict == (name == "x.arrow") {
				t.Errorf("%s to %s: mode has Arrow type %s", input, name, modeType)
			}
		}
	}
}

// outputFieldType is the Arrow type of a column of an output file, as
// arrow-go reads it back.
func outputFieldType(t *testing.T, path, column string) arrow.DataType {
	t.Helper()
	var sc *arrow.Schema
	switch filepath.Ext(path) {
	case ".arrows":
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := ipc.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		sc = r.Schema()
	case ".arrow":
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		sc = r.Schema()
	case ".parquet":
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if sc, err = fr.Schema(); err != nil {
			t.Fatal(err)
		}
	}
	i := sc.FieldIndices(column)
	if len(i) != 1 {
		t.Fatalf("%s has no column %s: %s", path, column, sc)
	}
	return sc.Field(i[0]).Type
}

// TestDictionaryQueryReleasesMemory runs queries over dictionary columns
// into every output format with a checked allocator.
func TestDictionaryQueryReleasesMemory(t *testing.T) {
	dir, _ := fixtureFiles(t)
	out := t.TempDir()
	for _, c := range []struct {
		name string
		o    queryOptions
	}{
		{"stream to feather", queryOptions{files: []string{filepath.Join(dir, "dict.arrows")}, where: "mode <> 'MAIL'", format: "feather", output: filepath.Join(out, "a.arrow")}},
		{"parquet to parquet", queryOptions{files: []string{filepath.Join(dir, "dict.parquet")}, where: "price > 1.5", format: "parquet", output: filepath.Join(out, "b.parquet")}},
		{"file to jsonl", queryOptions{files: []string{filepath.Join(dir, "dict.arrow")}, selects: "upper(mode), price + 1, tags", format: "jsonl", output: filepath.Join(out, "c.jsonl")}},
		{"stream to table", queryOptions{files: []string{filepath.Join(dir, "dict.arrows")}, where: "list_any(tags, t -> t = 'a')", format: "table", output: filepath.Join(out, "d.txt")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			c.o.threads, c.o.batchSize, c.o.limit = 2, 1, -1
			var stderr bytes.Buffer
			if err := query(&env{stdout: &bytes.Buffer{}, stderr: &stderr}, mem, c.o); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if st, err := os.Stat(c.o.output); err != nil || st.Size() == 0 {
				t.Errorf("the output file: %v", err)
			}
		})
	}
}
