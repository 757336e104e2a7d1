package playground_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/playground"
)

// writeIPC writes 1000 rows of the demo table as an Arrow IPC file or
// stream.
func writeIPC(t *testing.T, path string, file bool) {
	t.Helper()
	tbl := demo.Table{Seed: demo.DefaultSeed, Rows: 1000}
	rr, err := tbl.NewReaderWith(memory.DefaultAllocator, demo.ReaderOptions{Batches: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if file {
		fw, err := ipc.NewFileWriter(f, ipc.WithSchema(rr.Schema()))
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			if err := fw.Write(rr.RecordBatch()); err != nil {
				t.Fatal(err)
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	sw := ipc.NewWriter(f, ipc.WithSchema(rr.Schema()))
	for rr.Next() {
		if err := sw.Write(rr.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOpen: every format a page can be given answers every request, not
// only the first (a CSV file or an IPC stream is scanned once: Open
// copies it), and closing removes the copy.
// copies are the directories playground.Open copies files into.
func copies(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "colexpr-playground-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "small.csv")
	if err := os.WriteFile(csv, []byte("a,b\n1,x\n2,y\n3,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stream := filepath.Join(dir, "lineitem.arrows")
	writeIPC(t, stream, false)
	file := filepath.Join(dir, "lineitem.arrow")
	writeIPC(t, file, true)
	for _, c := range []struct {
		path, where string
		rows        int
		copied      bool
	}{
		{csv, "a > 1", 2, true},
		{stream, "l_linenumber = 1", playground.DefaultLimit, true},
		{file, "l_linenumber = 1", playground.DefaultLimit, false},
		{sortedParquet(t), "l_shipdate < DATE '1993-01-01'", playground.DefaultLimit, false},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			before := copies(t)
			src, done, err := playground.Open(mem, c.path)
			if err != nil {
				t.Fatal(err)
			}
			if name := src.Name(); name != c.path {
				t.Errorf("the table is named %s, want the file's name", name)
			}
			made := copies(t)
			if copied := len(made) > len(before); copied != c.copied {
				t.Errorf("copied: %v, want %v", copied, c.copied)
			}
			for i := range 3 {
				resp := playground.Explain(context.Background(), src, playground.Request{Where: c.where})
				if len(resp.Errors) > 0 || resp.Rows == nil || len(resp.Rows.Values) != c.rows {
					t.Fatalf("request %d: %+v, rows %+v", i+1, resp.Errors, resp.Rows)
				}
			}
			if err := done(); err != nil {
				t.Fatal(err)
			}
			if after := copies(t); len(after) != len(before) {
				t.Errorf("copies before Open %v, after done %v", before, after)
			}
		})
	}
	if _, _, err := playground.Open(memory.DefaultAllocator, filepath.Join(dir, "nope.csv")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
