package scan_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/scan"
)

// settledGoroutines waits for the goroutine count to come down to at most
// want, and returns it.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// writeDemoParquet writes rows of the demo table to a Parquet file in row
// groups of 4096 rows.
func writeDemoParquet(t *testing.T, rows int64) string {
	t.Helper()
	rr, err := demo.Table{Seed: demo.DefaultSeed, Rows: rows}.NewReader(memory.NewGoAllocator(), 4096)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	path := filepath.Join(t.TempDir(), "demo.parquet")
	if err := scan.WriteParquet(path, rr, scan.ParquetOptions{RowGroupRows: 4096}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStopEarly releases readers before their end — after one batch, and
// after a cancelled context — and checks that no goroutine is left running
// and every byte is given back.
func TestStopEarly(t *testing.T) {
	path := writeDemoParquet(t, 50_000)
	for _, cancel := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		before := runtime.NumGoroutine()
		src, err := scan.Open(mem, path)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := scan.Compile(src, scan.Query{Where: &scan.Expr{Text: "l_quantity > 1"}, Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_comment"}}}, scan.Options{Threads: 2, BatchSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		rr, err := plan.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !rr.Next() {
			t.Fatal(rr.Err())
		}
		if cancel {
			stop()
			for rr.Next() {
			}
			if err := rr.Err(); err == nil || !strings.Contains(err.Error(), "context canceled") {
				t.Errorf("after cancelling: error %v, want context canceled", err)
			}
		}
		rr.Release()
		stop()
		src.Close()
		if n := settledGoroutines(before); n > before {
			t.Errorf("cancel %v: %d goroutines after the scan, %d before", cancel, n, before)
		}
		mem.AssertSize(t, 0)
	}
}

// TestCorruptParquet damages a Parquet file's column data and truncates
// it: errors that name the file, never a panic, nothing leaked.
func TestCorruptParquet(t *testing.T) {
	path := writeDemoParquet(t, 20_000)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	damaged := append([]byte(nil), data...)
	for i := len(damaged) / 4; i < len(damaged)/2; i += 7 {
		damaged[i] ^= 0x5a
	}
	cases := map[string][]byte{
		"damaged.parquet":   damaged,
		"truncated.parquet": data[:len(data)/2],
	}
	for name, content := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		src, err := scan.Open(mem, p)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %v does not name the file", name, err)
			}
			mem.AssertSize(t, 0)
			continue
		}
		plan, err := scan.Compile(src, scan.Query{Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_comment"}, {Text: "l_quantity"}}}, scan.Options{Threads: 2, BatchSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := plan.Read(context.Background())
		if err == nil {
			for rr.Next() {
			}
			err = rr.Err()
			rr.Release()
		}
		src.Close()
		t.Logf("%s: %v", name, err)
		if err == nil {
			t.Errorf("%s: read without an error", name)
		} else if !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: error %v does not name the file, or is a panic", name, err)
		}
		mem.AssertSize(t, 0)
	}
}
