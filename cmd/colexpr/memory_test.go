package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/colexpr/colexpr/demo"
)

// TestBoundedMemory scans a Parquet file of 2 million rows in 64 row groups
// with a selective filter and checks that the heap never holds more than a
// small part of the file's uncompressed size, the size of its rows in
// Arrow's memory layout: the scan streams batch by batch, it does not load
// the file.
//
// The collector runs at GOGC=25 during the scan, so that the heap measures
// what the scan keeps rather than when garbage happens to be collected.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and scans a 2M-row Parquet file")
	}
	const rows = 2_000_000
	path := filepath.Join(t.TempDir(), "lineitem.parquet")
	if err := writeDemo(memory.DefaultAllocator, demo.Table{Seed: demo.DefaultSeed, Rows: rows}, demo.ReaderOptions{BatchSize: int(rows / 64)}, path, nil, nil); err != nil {
		t.Fatal(err)
	}
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var uncompressed int64
	for i := 0; i < pf.NumRowGroups(); i++ {
		uncompressed += pf.MetaData().RowGroup(i).TotalByteSize()
	}
	groups := pf.NumRowGroups()
	pf.Close()
	if groups != 64 {
		t.Fatalf("%d row groups, want 64", groups)
	}
	// The rows' size in memory, from a sample batch.
	sample, err := demo.Table{Seed: demo.DefaultSeed, Rows: rows}.Batch(memory.DefaultAllocator, 0, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	var sampleBytes int64
	for _, c := range sample.Columns() {
		sampleBytes += dataSize(c.Data())
	}
	sample.Release()
	decoded := sampleBytes * rows / (1 << 16)

	defer debug.SetGCPercent(debug.SetGCPercent(25))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()
	var stderr bytes.Buffer
	code := run([]string{"query", "--batch-size", "16384", "--where", "l_quantity < 2 AND l_discount = 0.05", "--format", "csv", path}, nil, io.Discard, &stderr)
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	used := int64(peak) - int64(base.HeapInuse)
	t.Logf("%d rows in %d row groups: %d MiB in memory, %d MiB of uncompressed Parquet pages; peak heap in use %d MiB above the %d MiB before the scan",
		rows, groups, decoded>>20, uncompressed>>20, used>>20, base.HeapInuse>>20)
	if used > decoded/6 {
		t.Errorf("the scan held up to %d MiB, more than a sixth of the file's %d MiB uncompressed", used>>20, decoded>>20)
	}
	debug.FreeOSMemory()
	os.Remove(path)
}

// dataSize is the size of the buffers of an array and its children.
func dataSize(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataSize(c)
	}
	return n
}
