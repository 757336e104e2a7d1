package scan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestCSVInference(t *testing.T) {
	ts := &arrow.TimestampType{Unit: arrow.Microsecond}
	cases := []struct {
		values []string
		want   arrow.DataType
	}{
		{[]string{"1", "-2", ""}, arrow.PrimitiveTypes.Int64},
		{[]string{"1", "2.5", "NaN"}, arrow.PrimitiveTypes.Float64},
		{[]string{"true", "FALSE", ""}, arrow.FixedWidthTypes.Boolean},
		{[]string{"1995-06-17", "2000-02-29"}, arrow.FixedWidthTypes.Date32},
		{[]string{"1995-06-17", "1995-6-1"}, arrow.BinaryTypes.String},
		{[]string{"1", "yes"}, arrow.BinaryTypes.String},
		{[]string{"", ""}, arrow.BinaryTypes.String},
		{[]string{"99999999999999999999"}, arrow.PrimitiveTypes.Float64},
		{[]string{"2020-01-01 10:00:00"}, ts},
		{[]string{"2020-01-01T10:00:00.123456", "2020-01-02 23:59:59.5", "2020-01-03"}, ts},
		{[]string{"2020-01-01 10:00:00", "2020-01-01 25:00:00"}, arrow.BinaryTypes.String},
		{[]string{"2020-01-01 10:00:00+02:00"}, arrow.BinaryTypes.String},
	}
	for _, c := range cases {
		var inf csvInference
		for _, v := range c.values {
			inf.see(v)
		}
		if got := inf.result(); !arrow.TypeEqual(got, c.want) {
			t.Errorf("%q infers %s, want %s", c.values, got, c.want)
		}
	}
}

// readCSV scans every row of the CSV text with o and returns the schema,
// the rows as text, and the error.
func readCSV(t *testing.T, text string, o CSVOptions) (*arrow.Schema, []string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenCSV(mem, path, o)
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	plan, err := Compile(src, Query{}, Options{Threads: 1, BatchSize: 7})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var rows []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			var row []string
			for j := 0; j < int(rec.NumCols()); j++ {
				row = append(row, rec.Column(j).ValueStr(i))
			}
			rows = append(rows, strings.Join(row, ","))
		}
	}
	return src.schema, rows, rr.Err()
}

// TestCSVLateValue checks that a value after the rows the types are
// inferred from, which does not fit its column's type, is an error that
// names the line, the column and the type, and that more rows to infer
// from, or a type given, read it.
func TestCSVLateValue(t *testing.T) {
	text := "n,s\n" + strings.Repeat("1,x\n", 20) + "\"two\nlines\",y\n2.5,z\n"
	_, _, err := readCSV(t, text, CSVOptions{InferRows: 10})
	var ve *CSVValueError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v, want a *CSVValueError", err)
	}
	if ve.Line != 22 || ve.Column != 1 || ve.Name != "n" || ve.Value != "two\nlines" || ve.InferredFrom != 10 || ve.Given ||
		!arrow.TypeEqual(ve.Type, arrow.PrimitiveTypes.Int64) || !arrow.TypeEqual(ve.Fits, arrow.BinaryTypes.String) {
		t.Errorf("error %+v", ve)
	}
	want := `t.csv: line 22, column 1 (n): "two\nlines" is not a valid i64, the column's type (inferred from the first 10 rows); to read it, give the column the type utf8 (CSVOptions.Types) or infer the types from more rows (CSVOptions.InferRows)`
	if msg := err.Error(); !strings.HasSuffix(msg, want) {
		t.Errorf("message\n%s\nwant it to end in\n%s", msg, want)
	}

	sc, rows, err := readCSV(t, text, CSVOptions{InferRows: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Field(0).Type; !arrow.TypeEqual(got, arrow.BinaryTypes.String) || len(rows) != 22 || rows[20] != "two\nlines,y" {
		t.Errorf("inferring from every row: %s, %d rows, row 21 %q", got, len(rows), rows[20])
	}

	// A type given is used, and a value that does not fit it says so.
	_, _, err = readCSV(t, "n\n1\n2.5\n", CSVOptions{Types: map[string]arrow.DataType{"n": arrow.PrimitiveTypes.Int32}})
	if !errors.As(err, &ve) || !ve.Given || ve.Line != 3 || !arrow.TypeEqual(ve.Fits, arrow.PrimitiveTypes.Float64) ||
		!strings.Contains(err.Error(), `line 3, column 1 (n): "2.5" is not a valid i32, the column's type (given to it)`) {
		t.Errorf("error %v", err)
	}
	sc, rows, err = readCSV(t, "n,t\n1,2020-01-01 10:00:00\n2.5,\n",
		CSVOptions{Types: map[string]arrow.DataType{"n": arrow.PrimitiveTypes.Float32}})
	if err != nil {
		t.Fatal(err)
	}
	if !arrow.TypeEqual(sc.Field(0).Type, arrow.PrimitiveTypes.Float32) || strings.Join(rows, ";") != "1,2020-01-01T10:00:00;2.5,(null)" {
		t.Errorf("schema %v, rows %q", sc, rows)
	}
}

func TestCSVOptionErrors(t *testing.T) {
	_, _, err := readCSV(t, "a\n1\n", CSVOptions{Types: map[string]arrow.DataType{"b": arrow.PrimitiveTypes.Int64}})
	if err == nil || !strings.Contains(err.Error(), `a type is given to column b, which the header does not name (it names a)`) {
		t.Errorf("unknown column: %v", err)
	}
	_, _, err = readCSV(t, "a\n1\n", CSVOptions{Types: map[string]arrow.DataType{"a": arrow.ListOf(arrow.PrimitiveTypes.Int64)}})
	if err == nil || !strings.Contains(err.Error(), `column a: a CSV value cannot be read as list`) {
		t.Errorf("unsupported type: %v", err)
	}
}
