package scan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestParquetRoundTrip writes a dataset query's output with a buffered
// ParquetWriter through an AtomicFile, reads it back, and compares.
func TestParquetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeThreeFiles(t, filepath.Join(dir, "in"))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := OpenDataset(mem, []string{filepath.Join(dir, "in")}, DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	want, _, err := query(t, src, "id <> 2", "id", "name", "score * 2 AS s", "CAST(id AS decimal(12, 2)) AS d")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Compile(src, Query{Where: &Expr{Text: "id <> 2"}, Select: []Expr{{Text: "id"}, {Text: "name"}, {Text: "score * 2", Name: "s"}, {Text: "CAST(id AS decimal(12, 2))", Name: "d"}}}, Options{BatchSize: 1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	f, err := CreateAtomic(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewParquetWriter(f, rr.Schema(), ParquetOptions{Buffered: true, Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	rr.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the target exists before Commit")
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	back, err := Open(mem, out)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if back.RowGroups() != 1 {
		t.Errorf("%d row groups, want 1: buffered batches of one row make one group", back.RowGroups())
	}
	got, _, err := query(t, back, "")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("read back\n%s\nwant\n%s", got, want)
	}
}

// failingReader hands out its batch, then fails.
type failingReader struct {
	array.RecordReader
	n int
}

func (r *failingReader) Next() bool {
	r.n++
	return r.n == 1 && r.RecordReader.Next()
}

func (r *failingReader) Err() error {
	if r.n > 1 {
		return errors.New("the scan failed")
	}
	return nil
}

// TestWriteErrorLeavesNoFile checks that an error mid-write leaves neither
// the target nor a temporary file, and an existing target as it was.
func TestWriteErrorLeavesNoFile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{field("a", i64)}, nil)
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(`[{"a": 1}, {"a": 2}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	for _, existing := range []bool{false, true} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out.parquet")
		if existing {
			os.WriteFile(out, []byte("before"), 0o644)
		}
		rr, _ := array.NewRecordReader(sc, []arrow.RecordBatch{rec, rec})
		err := WriteParquet(out, &failingReader{RecordReader: rr}, ParquetOptions{Mem: mem})
		rr.Release()
		if err == nil || err.Error() != "the scan failed" {
			t.Errorf("error %v, want the scan's", err)
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		want := ""
		if existing {
			want = "out.parquet"
			if b, _ := os.ReadFile(out); string(b) != "before" {
				t.Errorf("the existing target was changed: %q", b)
			}
		}
		if strings.Join(names, " ") != want {
			t.Errorf("existing %v: the directory holds %v, want %q", existing, names, want)
		}
	}
}
