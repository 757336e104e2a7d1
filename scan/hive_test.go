package scan

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestHivePairs(t *testing.T) {
	for _, c := range []struct {
		path, keys, values, err string
	}{
		{path: "data/year=2024/month=07/x.parquet", keys: "year month", values: "2024 07"},
		{path: "/abs/k=a%2Fb/x.csv", keys: "k", values: "a/b"},
		{path: "k=%zz/x.csv", keys: "k", values: "%zz"},         // not an escape: as it is
		{path: "=v/k=/x.csv", keys: "k", values: ""},            // no key: not a partition
		{path: "k=1/j=2/k=1/x.csv", keys: "k j", values: "1 2"}, // the same value twice is one
		{path: "x.parquet", keys: "", values: ""},               // no directory
		{path: "a=b=c/x.parquet", keys: "a", values: "b=c"},     // the first = splits
		{path: "k=1/k=2/x.parquet", err: "conflicting Hive partition values k=1 and k=2"},
	} {
		keys, values, err := hivePairs(c.path)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.path, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(keys, " ") != c.keys || strings.Join(values, " ") != c.values {
			t.Errorf("%s: %q %q %v, want %q %q", c.path, keys, values, err, c.keys, c.values)
		}
	}
}

// FuzzHivePartitions checks that no pair of paths makes partition parsing
// and typing panic, and that every file gets a value per column.
func FuzzHivePartitions(f *testing.F) {
	f.Add("y=2024/m=07/a.parquet", "y=2023/m=__HIVE_DEFAULT_PARTITION__/b.parquet")
	f.Add("d=2024-01-31/x", "d=2024-13-01/x")
	f.Add("n=99999999999999999999/x", "n=-1/x")
	f.Add("k=%41/x", "k=/x")
	f.Fuzz(func(t *testing.T, a, b string) {
		cols, values, err := hivePartitions([]string{a, b})
		if err != nil {
			return
		}
		for _, v := range values {
			if len(v) != len(cols) {
				t.Fatalf("%d values for %d columns", len(v), len(cols))
			}
			for k, x := range v {
				if !x.IsNull() && !x.DType().EqualIgnoreNullability(cols[k].typ) {
					t.Fatalf("value %s of column %s: type %s, want %s", x, cols[k].name, x.DType(), cols[k].typ)
				}
			}
		}
	})
}

func FuzzSniff(f *testing.F) {
	f.Add("x.csv", []byte("PAR1"))
	f.Add("x.parquet", []byte("a,b\n"))
	f.Add("x.arrow", []byte{0xff, 0xff, 0xff, 0xff})
	f.Add("x", []byte{})
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		got, err := sniffedFormat(name, head)
		if err == nil && got != Sniff(head) {
			t.Fatalf("%q %q: %v, but the bytes are %v", name, head, got, Sniff(head))
		}
	})
}

// FuzzOpenStream feeds any bytes to a stream source and scans it: an error
// or rows, never a panic, every buffer released.
func FuzzOpenStream(f *testing.F) {
	f.Add([]byte("a,b\n1,x\n2,\n"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0})
	f.Add([]byte("PAR1"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		src, err := OpenStream(mem, "stdin", bytes.NewReader(data), CSVOptions{})
		if err != nil {
			return
		}
		defer src.Close()
		plan, err := Compile(src, Query{}, Options{Threads: 2, BatchSize: 7})
		if err != nil {
			return
		}
		rr, err := plan.Read(context.Background())
		if err != nil {
			return
		}
		for rr.Next() {
		}
		rr.Release()
	})
}
