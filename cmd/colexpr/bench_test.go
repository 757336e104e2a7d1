package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/scan"
)

// BenchmarkQueryParquet runs the TPC-H-style filter of the package doc
// over 200 000 demo rows in Parquet, in every output format, end to end:
// reading, filtering and writing (to io.Discard).
func BenchmarkQueryParquet(b *testing.B) {
	const rows = 200_000
	path := filepath.Join(b.TempDir(), "lineitem.parquet")
	if err := writeDemo(memory.DefaultAllocator, demo.Table{Seed: demo.DefaultSeed, Rows: rows}, demo.ReaderOptions{BatchSize: defaultRowGroupSize}, path, nil, nil); err != nil {
		b.Fatal(err)
	}
	for _, format := range formats {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				err := query(&env{stdout: io.Discard, stderr: io.Discard}, memory.DefaultAllocator, queryOptions{
					where:     "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07",
					format:    format,
					limit:     -1,
					threads:   2,
					batchSize: scan.DefaultBatchSize,
					files:     []string{path},
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	b.Run("select", func(b *testing.B) {
		for b.Loop() {
			err := query(&env{stdout: io.Discard, stderr: io.Discard}, memory.DefaultAllocator, queryOptions{
				where:     "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07",
				selects:   "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue",
				format:    "csv",
				limit:     -1,
				threads:   2,
				batchSize: scan.DefaultBatchSize,
				files:     []string{path},
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// BenchmarkQueryPruned runs a month of ship dates over 1 000 000 demo rows
// sorted by ship date in 100 row groups, with row-group pruning and
// without: the difference is what pruning saves.
func BenchmarkQueryPruned(b *testing.B) {
	const rows = 1_000_000
	path := filepath.Join(b.TempDir(), "lineitem.parquet")
	t := demo.Table{Seed: demo.DefaultSeed, Rows: rows}
	if err := writeDemo(memory.DefaultAllocator, t, demo.ReaderOptions{Batches: 100, SortBy: demo.ColShipDate}, path, nil, nil); err != nil {
		b.Fatal(err)
	}
	for _, noPrune := range []bool{false, true} {
		name := "pruned"
		if noPrune {
			name = "no-prune"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				err := query(&env{stdout: io.Discard, stderr: io.Discard}, memory.DefaultAllocator, queryOptions{
					where:     "l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-02-01'",
					selects:   "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue, l_shipdate",
					format:    "csv",
					limit:     -1,
					threads:   2,
					batchSize: scan.DefaultBatchSize,
					files:     []string{path},
					noPrune:   noPrune,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
