package pqread

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestRowRanges reads some rows of each row group (Options.RowRanges) of
// files with a page index and pages of a few hundred rows, whose
// boundaries differ from column to column, and compares them with the
// same rows cut out of pqarrow's reading of the whole file: every column
// type, nulls, dictionary and plain pages, both page versions, with and
// without Source (pqread's own decimal pages).
func TestRowRanges(t *testing.T) {
	store := []pqarrow.WriterOption{pqarrow.WithStoreSchema()}
	index := parquet.WithPageIndexEnabled(true)
	snappy := parquet.WithCompression(compress.Codecs.Snappy)
	cases := []struct {
		name      string
		nulls     float64
		props     []parquet.WriterProperty
		batchSize int
		threads   int
	}{
		{name: "dict-integer-decimals", nulls: 0.1, batchSize: 300, threads: 2,
			props: []parquet.WriterProperty{index, snappy, parquet.WithDataPageSize(1024), parquet.WithBatchSize(64), parquet.WithStoreDecimalAsInteger(true)}},
		{name: "plain-flba-decimals", nulls: 0.3, batchSize: 1000, threads: 3,
			props: []parquet.WriterProperty{index, parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(2048), parquet.WithBatchSize(100)}},
		{name: "v2-pages", nulls: 0.2, batchSize: 128, threads: 1,
			props: []parquet.WriterProperty{index, snappy, parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDataPageSize(700), parquet.WithBatchSize(50)}},
		{name: "no-page-index", nulls: 0.2, batchSize: 500, threads: 2,
			props: []parquet.WriterProperty{parquet.WithDataPageSize(1024), parquet.WithBatchSize(64)}},
	}
	const rows, rowGroup = 6000, 2500
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := genTable(t, memory.DefaultAllocator, 5, allTypesSchema(), rows, tc.nulls)
			defer rec.Release()
			data := writeParquet(t, rec, rowGroup, tc.props, store)
			rng := rand.New(rand.NewPCG(9, 9))
			for trial := range 6 {
				ranges := map[int][]RowRange{}
				for g, n := range []int64{rowGroup, rowGroup, rows - 2*rowGroup} {
					switch {
					case trial == 0 && g == 1:
						ranges[g] = []RowRange{} // not read
					case trial == 1 && g == 0:
						// no entry: read whole
					case trial == 2:
						ranges[g] = []RowRange{{n - 1, n}} // the last row
					default:
						ranges[g] = randomRanges(rng, n)
					}
				}
				for _, source := range []bool{false, true} {
					readRanges(t, data, rec, rowGroup, ranges, tc.batchSize, tc.threads, source)
				}
			}
		})
	}
}

// randomRanges are a few ranges of a row group of n rows: some short, some
// long, some next to each other.
func randomRanges(rng *rand.Rand, n int64) []RowRange {
	var out []RowRange
	for at := rng.Int64N(n / 4); at < n; {
		end := min(n, at+1+rng.Int64N(n/5))
		out = append(out, RowRange{at, end})
		if rng.IntN(4) == 0 {
			at = end
		} else {
			at = end + rng.Int64N(n/4)
		}
	}
	return out
}

// readRanges reads the ranges of data and compares them with the same
// rows of rec, which data holds in row groups of rowGroup rows.
func readRanges(t *testing.T, data []byte, rec arrow.RecordBatch, rowGroup int64, ranges map[int][]RowRange, batchSize, threads int, source bool) {
	t.Helper()
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opt := Options{BatchSize: batchSize, Threads: threads, Mem: mem, RowRanges: ranges}
	if source {
		opt.Source = bytes.NewReader(data)
	}
	r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The rows wanted, and the batches: at most batchSize rows of one range.
	var parts []arrow.RecordBatch
	var sizes []int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		n := pf.MetaData().RowGroup(g).NumRows()
		rr, ok := ranges[g]
		if !ok {
			rr = []RowRange{{0, n}}
		}
		for _, x := range rr {
			from := int64(g)*rowGroup + x.Start
			parts = append(parts, rec.NewSlice(from, int64(g)*rowGroup+x.End))
			for m := x.End - x.Start; m > 0; m -= int64(batchSize) {
				sizes = append(sizes, min(m, int64(batchSize)))
			}
		}
	}
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	var total int64
	for _, s := range sizes {
		total += s
	}
	if r.NumRows() != total {
		t.Fatalf("NumRows %d, want %d", r.NumRows(), total)
	}
	nb := 0
	got := collect(t, int(rec.NumCols()), r.Next, func(b arrow.RecordBatch) {
		if nb >= len(sizes) || b.NumRows() != sizes[nb] {
			t.Fatalf("batch %d has %d rows, want those of %v", nb, b.NumRows(), sizes)
		}
		nb++
	})
	defer releaseAll(got)
	if nb != len(sizes) {
		t.Fatalf("%d batches, want %d", nb, len(sizes))
	}
	for i := range rec.NumCols() {
		var chunks []arrow.Array
		for _, p := range parts {
			chunks = append(chunks, p.Column(int(i)))
		}
		if len(chunks) == 0 {
			if got[i] != nil {
				t.Fatalf("column %d: %d rows, want none", i, got[i].Len())
			}
			continue
		}
		want, err := array.Concatenate(chunks, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got[i], want) {
			t.Errorf("source %v, ranges %v: column %s differs: %s", source, ranges, rec.Schema().Field(int(i)).Name, firstDiff(got[i], want))
		}
		want.Release()
	}
}

func TestRowRangesInvalid(t *testing.T) {
	rec := genTable(t, memory.DefaultAllocator, 5, allTypesSchema(), 100, 0)
	defer rec.Release()
	data := writeParquet(t, rec, 100, nil, nil)
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	for _, tc := range []struct {
		ranges []RowRange
		want   string
	}{
		{[]RowRange{{10, 20}, {15, 30}}, "range 1 [15, 30) starts before the end of the one before it (20)"},
		{[]RowRange{{10, 10}}, "range 0 [10, 10) is empty"},
		{[]RowRange{{90, 101}}, "range 0 [90, 101) ends past the row group's 100 rows"},
	} {
		_, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{RowRanges: map[int][]RowRange{0: tc.ranges}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.ranges, err, tc.want)
		}
	}
}

// countingSource counts the bytes read from it.
type countingSource struct {
	*bytes.Reader
	n atomic.Int64
}

func (c *countingSource) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.Reader.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestRowRangesSeek checks that pages no range overlaps are not read: one
// short range in each row group of a file of many pages reads a small part
// of what reading it whole does, with a page index, and without one, the
// chunks up to their last range.
func TestRowRangesSeek(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}},
	}, nil)
	rec := genTable(t, memory.DefaultAllocator, 3, sc, 40000, 0.1)
	defer rec.Release()
	for _, tc := range []struct {
		name               string
		index              bool
		minShare, maxShare float64
	}{{"page-index", true, 0, 0.2}, {"no-page-index", false, 0.5, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			props := []parquet.WriterProperty{parquet.WithDataPageSize(4096), parquet.WithDictionaryDefault(false),
				parquet.WithStoreDecimalAsInteger(true), parquet.WithPageIndexEnabled(tc.index)}
			data := writeParquet(t, rec, 20000, props, nil)
			read := func(ranges map[int][]RowRange) int64 {
				pf, fr := openParquet(t, data, memory.DefaultAllocator)
				src := &countingSource{Reader: bytes.NewReader(data)}
				r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{Threads: 2, Source: src, RowRanges: ranges})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if err := drain(r); err != nil {
					t.Fatal(err)
				}
				return src.n.Load()
			}
			whole := read(nil)
			part := read(map[int][]RowRange{0: {{15000, 15100}}, 1: {{300, 350}, {19000, 19010}}})
			// Without an index, the pages before the last range are read.
			if share := float64(part) / float64(whole); share < tc.minShare || share > tc.maxShare {
				t.Errorf("read %d bytes for the ranges, %d for the whole file (%.2f)", part, whole, share)
			}
		})
	}
}
