package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/scan"
)

var columnsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int64},
	{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true},
	)},
	{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
}, nil)

const columnsJSON = `[
{"a": 1, "b": 10, "s": "one", "st": {"x": 1, "y": "p"}, "xs": [1, 2]},
{"a": 2, "b": null, "s": "two", "st": {"x": 2, "y": null}, "xs": []},
{"a": 3, "b": 30, "s": "three", "st": {"x": 3, "y": "q"}, "xs": null},
{"a": 4, "b": -4, "s": "four", "st": {"x": 4, "y": "q"}, "xs": [4, null]},
{"a": 5, "b": null, "s": "five", "st": {"x": 5, "y": "p"}, "xs": [5]}
]`

// writeColumnsFiles writes the fixture as Parquet (row groups of 2 rows)
// and CSV (its flat columns), and returns their paths.
func writeColumnsFiles(t *testing.T) (parquetPath, csvPath string) {
	t.Helper()
	mem := memory.NewGoAllocator()
	rec, _, err := array.RecordFromJSON(mem, columnsSchema, strings.NewReader(columnsJSON))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	dir := t.TempDir()
	parquetPath = filepath.Join(dir, "t.parquet")
	f, err := os.Create(parquetPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(columnsSchema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(2)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	csvPath = filepath.Join(dir, "t.csv")
	csv := "a,b,s\n1,10,one\n2,,two\n3,30,three\n4,-4,four\n5,,five\n"
	if err := os.WriteFile(csvPath, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	return parquetPath, csvPath
}

// ColumnCases are queries whose optimization changes the columns read.
// The command's tests run them too.
var ColumnCases = []struct {
	Name          string
	Where, Select string // Select: items separated by ";"
	Reads         string // the columns read from the Parquet file
	CSV           bool   // only flat columns: the CSV file has them too
}{
	{"IS NOT NULL on a column without nulls", "s IS NOT NULL", "a", "a", true},
	{"coalesce with a non-null first argument", "", "coalesce(a, 1) IS NULL", "", true},
	{"CASE with a constant condition", "CASE WHEN 1 = 2 THEN b > 3 ELSE true END", "a", "a", true},
	{"x * 0 = 1 OR true", "b * 0 = 1 OR true", "s", "s", true},
	{"constant filter and select", "1 = 1", "1 + 1", "", true},
	{"filter false", "a > 1 AND false", "a", "a", true},
	{"filter null", "CAST(NULL AS bool) AND a > 1", "a; s", "a, s", true},
	{"a column used twice", "a > 1", "a; a + 1; a * a", "a", true},
	{"removed from one item, kept in another", "", "b IS NULL OR true; b", "b", true},
	{"nested field", "st.y = 'q'", "st.x + 1", "st", false},
	{"lambda capturing a column", "", "list_transform(xs, x -> x + a)", "a, xs", false},
	{"every column", "a < 3", "", "a, b, s, st, xs", false},
}

// TestColumnsRead runs queries whose optimization removes, duplicates or
// nests column uses, through the scan with the optimizer and without one
// (every column the text names read, nothing folded): the rows must be the
// same, and only the optimized trees' columns read.
func TestColumnsRead(t *testing.T) {
	pq, csv := writeColumnsFiles(t)
	for _, c := range ColumnCases {
		files := []string{pq}
		if c.CSV {
			files = append(files, csv)
		}
		for _, path := range files {
			t.Run(c.Name+"/"+filepath.Ext(path), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				src, err := scan.Open(mem, path)
				if err != nil {
					t.Fatal(err)
				}
				defer src.Close()
				q := scan.Query{}
				if c.Where != "" {
					q.Where = &scan.Expr{Text: c.Where}
				}
				if c.Select != "" {
					for _, s := range strings.Split(c.Select, ";") {
						q.Select = append(q.Select, scan.Expr{Text: strings.TrimSpace(s)})
					}
				}
				plan, err := scan.Compile(src, q, scan.Options{Threads: 2, BatchSize: 2})
				if err != nil {
					t.Fatal(err)
				}
				if filepath.Ext(path) == ".parquet" {
					if got := strings.Join(plan.Columns(), ", "); got != c.Reads {
						t.Errorf("reads %q, want %q", got, c.Reads)
					}
				}
				got := scanRows(t, plan)
				// A CSV file is read once: open it again.
				again, err := scan.Open(mem, path)
				if err != nil {
					t.Fatal(err)
				}
				defer again.Close()
				unopt, err := scan.Compile(again, q, scan.Options{Threads: 1, BatchSize: 3, Optimizer: optimize.NewEmpty()})
				if err != nil {
					t.Fatal(err)
				}
				if want := scanRows(t, unopt); got != want {
					t.Errorf("optimized:\n%s\nunoptimized:\n%s", got, want)
				}
			})
		}
	}
}

// scanRows runs plan and prints its output, a line a row.
func scanRows(t *testing.T, plan *scan.Plan) string {
	t.Helper()
	rr, err := plan.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var b strings.Builder
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			for j, col := range rec.Columns() {
				if j > 0 {
					b.WriteString(" | ")
				}
				fmt.Fprintf(&b, "%s", col.ValueStr(i))
			}
			b.WriteByte('\n')
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
