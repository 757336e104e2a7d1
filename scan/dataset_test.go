package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// writeParquetBatches writes a Parquet file of the given batches, each
// given as JSON rows, one row group per batch.
func writeParquetBatches(t testing.TB, path string, sc *arrow.Schema, batches ...string) {
	t.Helper()
	var recs []arrow.RecordBatch
	for _, b := range batches {
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer rec.Release()
		recs = append(recs, rec)
	}
	rr, err := array.NewRecordReader(sc, recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(path, rr, ParquetOptions{}); err != nil {
		t.Fatal(err)
	}
}

func field(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

var (
	i32   = arrow.PrimitiveTypes.Int32
	i64   = arrow.PrimitiveTypes.Int64
	f64   = arrow.PrimitiveTypes.Float64
	utf8T = arrow.BinaryTypes.String
)

// writeThreeFiles writes three Parquet files whose schemas differ: b has
// an extra column and a wider id, c its columns in another order.
func writeThreeFiles(t testing.TB, dir string) {
	writeParquetBatches(t, filepath.Join(dir, "a.parquet"), arrow.NewSchema([]arrow.Field{field("id", i32), field("name", utf8T)}, nil),
		`[{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]`)
	writeParquetBatches(t, filepath.Join(dir, "b.parquet"), arrow.NewSchema([]arrow.Field{field("id", i64), field("name", utf8T), field("score", f64)}, nil),
		`[{"id": 3, "name": "three", "score": 0.5}]`, `[{"id": 4000000000, "name": "big", "score": null}]`)
	writeParquetBatches(t, filepath.Join(dir, "c.parquet"), arrow.NewSchema([]arrow.Field{field("name", utf8T), field("id", i32)}, nil),
		`[{"name": "five", "id": 5}]`)
}

// writeHiveTree writes year=2023..2024/month=01..06/part-0.parquet, two
// rows each, and returns the directory.
func writeHiveTree(t testing.TB) string {
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{field("v", i64)}, nil)
	for _, y := range []int{2023, 2024} {
		for m := 1; m <= 6; m++ {
			p := filepath.Join(dir, fmt.Sprintf("year=%d", y), fmt.Sprintf("month=%02d", m), "part-0.parquet")
			writeParquetBatches(t, p, sc, fmt.Sprintf(`[{"v": %d}, {"v": %d}]`, y*100+m, -(y*100+m)))
		}
	}
	return dir
}

// query runs a query and renders its rows, one line each, with the
// reader's stats.
func query(t testing.TB, src *Source, where string, selects ...string) (string, Stats, error) {
	t.Helper()
	return queryWith(t, src, Options{Threads: 2, BatchSize: 3}, where, selects...)
}

// queryWith is query with options.
func queryWith(t testing.TB, src *Source, o Options, where string, selects ...string) (string, Stats, error) {
	t.Helper()
	var q Query
	if where != "" {
		q.Where = &Expr{Text: where}
	}
	if len(selects) > 0 {
		items, err := SplitSelect(strings.Join(selects, ", "))
		if err != nil {
			return "", Stats{}, err
		}
		q.Select = items
	}
	plan, err := Compile(src, q, o)
	if err != nil {
		return "", Stats{}, err
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		return "", Stats{}, err
	}
	defer rr.Release()
	var b strings.Builder
	for i, f := range rr.Schema().Fields() {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%s: %s", f.Name, f.Type)
	}
	b.WriteString("\n")
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			for c := 0; c < int(rec.NumCols()); c++ {
				if c > 0 {
					b.WriteString(" | ")
				}
				b.WriteString(rec.Column(c).ValueStr(r))
			}
			b.WriteString("\n")
		}
	}
	return b.String(), rr.Stats(), rr.Err()
}

func TestDatasetUnionByName(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		name   string
		inputs []string
		where  string
		want   string
	}{
		{"glob", []string{dir + "/*.parquet"}, "", "id: int64 | name: utf8 | score: float64\n1 | one | (null)\n2 | two | (null)\n3 | three | 0.5\n4000000000 | big | (null)\n5 | five | (null)\n"},
		{"directory", []string{dir}, "id > 2", "id: int64 | name: utf8 | score: float64\n3 | three | 0.5\n4000000000 | big | (null)\n5 | five | (null)\n"},
		{"files in order given", []string{dir + "/c.parquet", dir + "/a.parquet"}, "", "name: utf8 | id: int32\nfive | 5\none | 1\ntwo | 2\n"},
		{"trailing **", []string{dir + "/**"}, "id > 4", "id: int64 | name: utf8 | score: float64\n4000000000 | big | (null)\n5 | five | (null)\n"},
		{"missing column is null", []string{dir + "/?.parquet"}, "score IS NULL AND id < 3", "id: int64 | name: utf8 | score: float64\n1 | one | (null)\n2 | two | (null)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := OpenDataset(mem, c.inputs, DatasetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			got, _, err := query(t, src, c.where)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestDatasetProgress checks the progress of a dataset's scan: by the bytes
// of the files, and the file reached.
func TestDatasetProgress(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	plan, err := Compile(src, Query{}, Options{Threads: 1, BatchSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	openFiles := func() (n int) {
		for _, m := range src.ds.files {
			if m.src != nil {
				n++
			}
		}
		return n
	}
	if n := openFiles(); n != 0 {
		t.Errorf("%d files open after Compile, want 0: a file is open only while it is used", n)
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.direct {
		t.Error("a dataset of flat Parquet files is not filtered on its decoding goroutines")
	}
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	if pos := rr.Position(); pos.File < 1 || pos.Files != 3 || pos.TotalBytes <= 0 {
		t.Errorf("after the first batch: %+v, want at least file 1 of 3, and the files' sizes", pos)
	}
	for rr.Next() {
	}
	if pos := rr.Position(); pos.File != 3 || pos.Files != 3 || pos.Bytes != pos.TotalBytes {
		t.Errorf("at the end: %+v, want file 3 of 3, every byte read", pos)
	}
	if f := rr.Progress(); f != 1 {
		t.Errorf("at the end: progress %v, want 1", f)
	}
	if n := openFiles(); n != 0 {
		t.Errorf("%d files open at the end of the scan, want 0", n)
	}
	if read, _ := plan.Files(); len(read) != 3 {
		t.Errorf("plan reads %v", read)
	}
}

func TestDatasetRowGroupPruningAcrossTypes(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	// a's and c's ids (i32) are widened to i64: their bounds are too, and
	// b's second row group is skipped by its own.
	got, st, err := query(t, src, "id BETWEEN 2 AND 3", "id", "name")
	if err != nil {
		t.Fatal(err)
	}
	if want := "id: int64 | name: utf8\n2 | two\n3 | three\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if st.Files != 3 || st.FilesRead != 3 || st.RowGroups != 4 || st.RowGroupsRead != 2 || st.RowGroupsSkipped != 2 {
		t.Errorf("stats %+v, want 3 files read, 2 of 4 row groups", st)
	}
}

func TestDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	writeParquetBatches(t, filepath.Join(dir, "bad", "d.parquet"), arrow.NewSchema([]arrow.Field{field("id", utf8T)}, nil), `[{"id": "x"}]`)
	os.MkdirAll(filepath.Join(dir, "empty", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "empty", "sub", "notes.txt"), []byte("x"), 0o644)
	writeParquetBatches(t, filepath.Join(dir, "hive", "k=1", "k=2", "x.parquet"), arrow.NewSchema([]arrow.Field{field("v", i64)}, nil), `[{"v": 1}]`)
	writeParquetBatches(t, filepath.Join(dir, "mixed", "k=1", "x.parquet"), arrow.NewSchema([]arrow.Field{field("v", i64)}, nil), `[{"v": 1}]`)
	writeParquetBatches(t, filepath.Join(dir, "mixed", "other", "y.parquet"), arrow.NewSchema([]arrow.Field{field("v", i64)}, nil), `[{"v": 1}]`)
	os.WriteFile(filepath.Join(dir, "renamed.csv"), mustRead(t, filepath.Join(dir, "a.parquet")), 0o644)
	os.WriteFile(filepath.Join(dir, "text.parquet"), []byte("a,b\n1,2\n"), 0o644)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		name   string
		inputs []string
		want   string
	}{
		{"types meet nowhere", []string{dir + "/[abc].parquet", dir + "/bad/d.parquet"}, "column id: DIR/b.parquet has type i64? and DIR/bad/d.parquet has utf8?, which have no common type"},
		{"empty glob", []string{dir + "/*.arrow"}, "DIR/*.arrow: no file matches the pattern"},
		{"bad pattern", []string{dir + "/[.parquet"}, "DIR/[.parquet: a bad pattern"},
		{"directory without files", []string{dir + "/empty"}, "DIR/empty: the directory holds no Parquet, Arrow or CSV file"},
		{"missing", []string{dir + "/nope.parquet", dir + "/a.parquet"}, "DIR/nope.parquet: no such file or directory"},
		{"conflicting hive values", []string{dir + "/hive"}, "DIR/hive/k=1/k=2/x.parquet: conflicting Hive partition values k=1 and k=2 in one path"},
		{"mixed hive", []string{dir + "/mixed"}, "DIR/mixed/other/y.parquet: its Hive partitions (none) are not those of DIR/mixed/k=1/x.parquet (k)"},
		{"stdin with files", []string{"-", dir + "/a.parquet"}, "- (the standard input) must be the only input"},
		{"parquet named csv", []string{dir + "/renamed.csv"}, `DIR/renamed.csv: the name says CSV, but the bytes are Parquet (they begin with "PAR1")`},
		{"csv named parquet", []string{dir + "/text.parquet"}, `DIR/text.parquet: not Parquet: the name says so, but the file does not begin with its magic bytes (it begins with "a,b\n1,2\n")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := OpenDataset(mem, c.inputs, DatasetOptions{})
			if err == nil {
				_, _, err = query(t, src, "")
				src.Close()
			}
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.ReplaceAll(err.Error(), dir, "DIR"); !strings.Contains(got, c.want) {
				t.Errorf("error\n%s\nwant it to hold\n%s", got, c.want)
			}
		})
	}
}

func mustRead(t testing.TB, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// countOpens lists the files opened while f runs, each once (a file
// read is opened for its schema, its plan and its scan, one at a time).
func countOpens(f func()) []string {
	var mu sync.Mutex
	seen := map[string]bool{}
	var opened []string
	openHook = func(p string) {
		mu.Lock()
		if !seen[p] {
			seen[p] = true
			opened = append(opened, p)
		}
		mu.Unlock()
	}
	defer func() { openHook = nil }()
	f()
	sort.Strings(opened)
	return opened
}

// TestHivePruningOpens checks that a filter on partition columns opens only
// the files whose partition values may match.
func TestHivePruningOpens(t *testing.T) {
	dir := writeHiveTree(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		where string
		opens []string // relative to dir
		rows  string
		files int
	}{
		{"year = 2024 AND month <= 2", []string{"year=2024/month=01/part-0.parquet", "year=2024/month=02/part-0.parquet"},
			"202401 | 2024 | 1\n-202401 | 2024 | 1\n202402 | 2024 | 2\n-202402 | 2024 | 2\n", 2},
		// The conjunct on v cannot prune files; the one on month can.
		{"month IN (3, 7) AND v > 0", []string{"year=2023/month=03/part-0.parquet", "year=2024/month=03/part-0.parquet"},
			"202303 | 2023 | 3\n202403 | 2024 | 3\n", 2},
		// Any expression of partition columns, not only comparisons.
		{"month % 3 = 0 AND CAST(year AS utf8) LIKE '%24'", []string{"year=2024/month=03/part-0.parquet", "year=2024/month=06/part-0.parquet"},
			"202403 | 2024 | 3\n-202403 | 2024 | 3\n202406 | 2024 | 6\n-202406 | 2024 | 6\n", 2},
		// An OR across partition and data columns prunes nothing.
		{"year = 2023 OR v = 202405", nil, "", 12},
		// No file matches: the first is opened for its schema, none read.
		{"year > 2030", []string{"year=2023/month=01/part-0.parquet"}, "", 0},
	} {
		t.Run(c.where, func(t *testing.T) {
			var got string
			var st Stats
			opened := countOpens(func() {
				src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer src.Close()
				var qerr error
				got, st, qerr = query(t, src, c.where, "v", "year", "month")
				if qerr != nil {
					t.Fatal(qerr)
				}
			})
			if c.opens != nil {
				var rel []string
				for _, p := range opened {
					r, _ := filepath.Rel(dir, p)
					rel = append(rel, filepath.ToSlash(r))
				}
				if strings.Join(rel, " ") != strings.Join(c.opens, " ") {
					t.Errorf("opened %v, want %v", rel, c.opens)
				}
			} else if len(opened) != 12 {
				t.Errorf("opened %d files, want 12", len(opened))
			}
			if c.rows != "" {
				if want := "v: int64 | year: int64 | month: int64\n" + c.rows; got != want {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
			}
			if st.Files != 12 || st.FilesRead != c.files || st.FilesSkipped != 12-c.files {
				t.Errorf("stats: files %d, read %d, skipped %d; want 12, %d, %d", st.Files, st.FilesRead, st.FilesSkipped, c.files, 12-c.files)
			}
		})
	}
}

func TestHiveTypes(t *testing.T) {
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{field("v", i64)}, nil)
	for i, p := range []string{
		"d=2024-01-31/s=a%2Fb/n=007/x.parquet",
		"d=" + hiveNull + "/s=plain/n=" + hiveNull + "/x.parquet",
		"d=2024-02-01/s=12/n=-3/x.parquet",
	} {
		writeParquetBatches(t, filepath.Join(dir, p), sc, fmt.Sprintf(`[{"v": %d}]`, i))
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{dir + "/**/*.parquet"}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, _, err := query(t, src, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "v: int64 | d: date32 | s: utf8 | n: int64\n0 | 2024-01-31 | a/b | 7\n2 | 2024-02-01 | 12 | -3\n1 | (null) | plain | (null)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got, st, err := query(t, src, "n IS NULL", "v")
	if err != nil {
		t.Fatal(err)
	}
	if got != "v: int64\n1\n" || st.FilesRead != 1 {
		t.Errorf("n IS NULL: got %q, %d files read; want v 1, 1 file", got, st.FilesRead)
	}
	// Without Hive partitioning, the directories are only directories.
	plain, err := OpenDataset(mem, []string{dir}, DatasetOptions{NoHive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := plain.Resolve(); err != nil {
		t.Fatal(err)
	}
	if got := plain.Schema().Root.String(); got != "struct<v: i64?>" {
		t.Errorf("NoHive schema %s", got)
	}
}

// TestDatasetCSVTypes checks that a type given to a CSV column applies to
// the files that have it, and that a name no file has is an error.
func TestDatasetCSVTypes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("n,s\n1,x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.csv"), []byte("s\ny\n"), 0o644)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		types map[string]arrow.DataType
		want  string
	}{
		{map[string]arrow.DataType{"n": arrow.PrimitiveTypes.Int8}, "n: int8 | s: utf8\n1 | x\n(null) | y\n"},
		{map[string]arrow.DataType{"m": arrow.PrimitiveTypes.Int8}, "a type is given to column m, which no file has"},
	} {
		src, err := OpenDataset(mem, []string{dir}, DatasetOptions{CSV: CSVOptions{Types: c.types}})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := query(t, src, "")
		src.Close()
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v: got\n%s\nwant\n%s", c.types, got, c.want)
		}
	}
}

func TestDatasetRowError(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	_, _, err = query(t, src, "", "CAST(id AS i32)")
	var re *RowError
	if !errors.As(err, &re) || !errors.Is(err, colexpr.ErrOverflow) && !strings.Contains(err.Error(), "b.parquet: row 2:") {
		t.Fatalf("error %v, want a row error naming b.parquet, row 2", err)
	}
	if !strings.Contains(err.Error(), "b.parquet: row 2:") {
		t.Errorf("error %v, want it to name b.parquet, row 2", err)
	}
}

func TestOpenStream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{field("a", i64), field("b", utf8T)}, nil)
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(`[{"a": 1, "b": "x"}, {"a": 2, "b": null}]`))
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(sc))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rec.Release()
	for _, c := range []struct {
		name, input, want string
	}{
		{"csv", "a,b\n1,x\n2,\n", "a: int64 | b: utf8\n1 | x\n2 | (null)\n"},
		{"arrow stream", stream.String(), "a: int64 | b: utf8\n1 | x\n2 | (null)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := OpenDataset(mem, []string{"-"}, DatasetOptions{Stdin: strings.NewReader(c.input)})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			got, _, err := query(t, src, "")
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	_, err = OpenDataset(mem, []string{"-"}, DatasetOptions{Stdin: bytes.NewReader(mustRead(t, filepath.Join(dir, "a.parquet")))})
	if err == nil || !strings.Contains(err.Error(), "stdin: the bytes are Parquet, which is read from a file, not a stream") {
		t.Errorf("Parquet on stdin: %v", err)
	}
}

func TestSniffedWithoutExtension(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	os.WriteFile(filepath.Join(dir, "data"), mustRead(t, filepath.Join(dir, "a.parquet")), 0o644)
	os.WriteFile(filepath.Join(dir, "table.txt"), []byte("x\n1\n"), 0o644)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for name, want := range map[string]string{
		"data":      "id: int32 | name: utf8\n1 | one\n2 | two\n",
		"table.txt": "x: int64\n1\n",
	} {
		src, err := Open(mem, filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := query(t, src, "")
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestDatasetDuplicateColumn checks that a name a file has twice is left
// out of the unified schema, as of the file's own, not read as null.
func TestDatasetDuplicateColumn(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, dir)
	sc := arrow.NewSchema([]arrow.Field{field("name", utf8T), field("name", utf8T), field("id", i64)}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append("x")
	b.Field(1).(*array.StringBuilder).Append("y")
	b.Field(2).(*array.Int64Builder).Append(9)
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(filepath.Join(dir, "dup.arrow"))
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
	w.Close()
	f.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{filepath.Join(dir, "a.parquet"), filepath.Join(dir, "dup.arrow")}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, _, err := query(t, src, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "id: int64\n1\n2\n9\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if why := src.Schema().LeftOut["name"]; why == "" {
		t.Error("name is not left out")
	}
}

// TestDatasetStopEarly releases a dataset's reader after its first batch:
// every buffer is released and no file is left open.
func TestDatasetStopEarly(t *testing.T) {
	dir := writeHiveTree(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{dir}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, threads := range []int{1, 3} {
		plan, err := Compile(src, Query{Where: &Expr{Text: "v <> 0"}}, Options{Threads: threads, BatchSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := plan.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !rr.Next() {
			t.Fatal(rr.Err())
		}
		rr.Release()
		for _, m := range src.ds.files {
			if m.src != nil {
				t.Errorf("threads %d: %s is still open", threads, m.path)
			}
		}
	}
}
