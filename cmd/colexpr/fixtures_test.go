package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowcsv "github.com/apache/arrow-go/v18/arrow/csv"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/substrait"
)

// The fixture: six rows over every kind of column the formats must render,
// written with arrow-go's own writers as Parquet (two row groups), an Arrow
// IPC file and stream (two batches each) and CSV (its flat columns).

var fixtureSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "big", Type: arrow.PrimitiveTypes.Int64},
	{Name: "small", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "local", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "pt", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
}, nil)

// Row 4 holds a big value that overflows when multiplied by 1000.
const fixtureJSON = `[
{"id": 1, "big": 1, "small": 10, "price": "1.05", "name": "plain", "flag": true, "day": "1995-06-17", "ts": "1995-06-17T12:30:00Z", "local": "2001-02-03T04:05:06.789", "bin": "AAE=", "tags": [1, 2], "pt": {"a": 1, "b": "one"}},
{"id": 2, "big": 20, "small": null, "price": "0.05", "name": "with \"quotes\", a comma", "flag": false, "day": "1970-01-01", "ts": "2020-02-29T23:59:59.5Z", "local": "1999-12-31T23:59:59", "bin": "", "tags": [], "pt": {"a": null, "b": "two"}},
{"id": 3, "big": -300, "small": -3, "price": "-3.10", "name": "line\nbreak\ttab", "flag": null, "day": "2038-01-19", "ts": null, "local": null, "bin": "/w==", "tags": null, "pt": null},
{"id": 4, "big": 9223372036854776, "small": 4, "price": null, "name": "ünïcødé ✓ and a rather long text that a table cuts short", "flag": true, "day": null, "ts": "1969-12-31T23:59:59Z", "local": "1970-01-01T00:00:00", "bin": null, "tags": [3, null, 5], "pt": {"a": 4, "b": null}},
{"id": 5, "big": 50, "small": 5, "price": "100.00", "name": "", "flag": false, "day": "1992-01-02", "ts": "1998-12-01T00:00:00Z", "local": "1998-12-01T08:00:00.001", "bin": "3q2+7w==", "tags": [6], "pt": {"a": 5, "b": "five"}},
{"id": 6, "big": 60, "small": 6, "price": "0.00", "name": null, "flag": null, "day": "1998-12-01", "ts": null, "local": null, "bin": "AA==", "tags": [null], "pt": {"a": null, "b": null}}
]`

// fixtureFloats are column x: every float a format must take care of.
var fixtureFloats = []struct {
	v     float64
	valid bool
}{{1.5, true}, {math.NaN(), true}, {math.Inf(1), true}, {math.Inf(-1), true}, {1e-7, true}, {0, false}}

// fixtureRecord builds the fixture; the caller releases it.
func fixtureRecord(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, fixtureSchema, strings.NewReader(fixtureJSON))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	fb := array.NewFloat64Builder(mem)
	defer fb.Release()
	for _, f := range fixtureFloats {
		if f.valid {
			fb.Append(f.v)
		} else {
			fb.AppendNull()
		}
	}
	x := fb.NewArray()
	defer x.Release()
	cols := append([]arrow.Array(nil), rec.Columns()...)
	cols[fixtureSchema.FieldIndices("x")[0]] = x
	return array.NewRecordBatch(fixtureSchema, cols, rec.NumRows())
}

// csvColumns are the fixture's columns the CSV file holds.
var csvColumns = []string{"id", "big", "small", "x", "name", "flag", "day"}

// writeFixtures writes the fixture in every input format into dir and
// returns the paths by extension.
func writeFixtures(t testing.TB, dir string) map[string]string {
	t.Helper()
	mem := memory.NewGoAllocator()
	rec := fixtureRecord(t, mem)
	defer rec.Release()
	first, second := rec.NewSlice(0, 3), rec.NewSlice(3, rec.NumRows())
	defer first.Release()
	defer second.Release()
	paths := map[string]string{}
	create := func(ext string) *os.File {
		p := filepath.Join(dir, "fixture"+ext)
		paths[ext] = p
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	f := create(".parquet")
	pw, err := pqarrow.NewFileWriter(fixtureSchema, f,
		parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(4)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	check(err)
	check(pw.Write(rec)) // row groups of 4 and 2 rows
	check(pw.Close())

	f = create(".arrow")
	fw, err := ipc.NewFileWriter(f, ipc.WithSchema(fixtureSchema))
	check(err)
	check(fw.Write(first))
	check(fw.Write(second))
	check(fw.Close())
	check(f.Close())

	f = create(".arrows")
	sw := ipc.NewWriter(f, ipc.WithSchema(fixtureSchema))
	check(sw.Write(first))
	check(sw.Write(second))
	check(sw.Close())
	check(f.Close())

	var idx []int
	for _, c := range csvColumns {
		idx = append(idx, fixtureSchema.FieldIndices(c)[0])
	}
	cols := make([]arrow.Array, len(idx))
	fs := make([]arrow.Field, len(idx))
	for i, c := range idx {
		cols[i], fs[i] = rec.Column(c), fixtureSchema.Field(c)
	}
	flat := array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, rec.NumRows())
	defer flat.Release()
	f = create(".csv")
	cw := arrowcsv.NewWriter(f, flat.Schema(), arrowcsv.WithHeader(true), arrowcsv.WithNullWriter(""))
	check(cw.Write(flat))
	check(cw.Flush())
	check(f.Close())
	return paths
}

// writeOddFile writes an Arrow IPC file with a column of a type colexpr
// does not model (large_utf8) and two columns of one name.
func writeOddFile(t testing.TB, path string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "txt", Type: arrow.BinaryTypes.LargeString},
		{Name: "d", Type: arrow.PrimitiveTypes.Int32},
		{Name: "d", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	b.Field(1).(*array.LargeStringBuilder).AppendValues([]string{"a", "b"}, nil)
	b.Field(2).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
	b.Field(3).(*array.Int32Builder).AppendValues([]int32{3, 4}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(sc))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// substraitFixtures are the Substrait files query --substrait reads in the
// tests, written into the fixture directory by writeSubstraitFixtures:
// name → (schema, list) for messages exported as explain --substrait
// exports them. A name ending in .pb is written in protobuf binary.
var substraitFixtures = []struct {
	name   string
	schema *arrow.Schema
	list   string
}{
	// A filter that skips the fixture's first Parquet row group (ids 1–4).
	{"sub_filter.json", fixtureSchema, "id > 4 AND small IS NOT NULL"},
	// A select list, in binary.
	{"sub_select.pb", fixtureSchema, "id, big + small AS total, name LIKE 'p%' AS p, pt.b, tags"},
	// One bool expression: the filter, unless --where is given.
	{"sub_bool.json", fixtureSchema, "flag IS NOT DISTINCT FROM true AS flagged"},
	// A select item that overflows on row 4.
	{"sub_overflow.json", fixtureSchema, "id, big * 1000 AS k"},
	// Exported where small is i64 (as in the CSV file); the Parquet
	// file's is i32.
	{"sub_small_i64.json", arrow.NewSchema([]arrow.Field{{Name: "small", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil), "small = 3"},
	// Reads txt, a column of odd.arrow that colexpr cannot read.
	{"sub_txt.json", arrow.NewSchema([]arrow.Field{{Name: "txt", Type: arrow.BinaryTypes.String}}, nil), "txt = 'a'"},
}

// writeSubstraitFixtures writes substraitFixtures and a few broken files
// into dir: sub_unsupported.json (a function colexpr lacks), sub_dup.json
// (two expressions of one name), sub_malformed.json, sub_notmessage.json
// and sub_empty.json.
func writeSubstraitFixtures(t testing.TB, dir string) {
	t.Helper()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range substraitFixtures {
		js, err := exportSubstrait(f.list, colexpr.NewSchema(f.schema))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if strings.HasSuffix(f.name, ".pb") {
			msg, err := substrait.Unmarshal(js)
			if err != nil {
				t.Fatal(err)
			}
			if js, err = substrait.Marshal(msg); err != nil {
				t.Fatal(err)
			}
		}
		write(f.name, js)
	}

	// is_nan is a standard Substrait function colexpr has no counterpart of.
	js, err := exportSubstrait("id > 4 AND small IS NOT NULL", colexpr.NewSchema(fixtureSchema))
	if err != nil {
		t.Fatal(err)
	}
	js = bytes.Replace(js, []byte(`"is_not_null:any"`), []byte(`"is_nan:fp64"`), 1)
	write("sub_unsupported.json", js)

	s := colexpr.NewSchema(fixtureSchema)
	var named []substrait.Named
	for _, src := range []string{"id", "id + 1"} {
		prog, err := s.Compile(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, substrait.Named{Name: "a", Expr: prog.Bound()})
	}
	msg, err := substrait.Options{PruneSchema: true}.ExportAll(s.Scope(), named...)
	if err != nil {
		t.Fatal(err)
	}
	if js, err = substrait.MarshalJSON(msg); err != nil {
		t.Fatal(err)
	}
	write("sub_dup.json", js)

	write("sub_malformed.json", []byte(`{"referredExpr": [{"expression": `))
	write("sub_notmessage.json", []byte(`{"query": "SELECT 1"}`))
	write("sub_empty.json", []byte("\n"))
}

// writeUnsignedFile writes an Arrow IPC file with an i64 column n and a u8
// column u, which Substrait has no type for.
func writeUnsignedFile(t testing.TB, path string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint8},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).(*array.Uint8Builder).AppendValues([]uint8{200, 100, 255}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(sc))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
