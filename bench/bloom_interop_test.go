package bench_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/bench"
	"github.com/colexpr/colexpr/scan"
)

// TestDuckDBBloomFilters: DuckDB writes a bloom filter of each
// dictionary-encoded column chunk, hashing the plain encoding as the
// Parquet spec says; colexpr's scan asks them about the values of = and
// IN. Every answer is the one without pruning, a value a row group holds
// is never ruled out, and values no row holds skip row groups by the
// filters alone (each row group holds every key's range).
func TestDuckDBBloomFilters(t *testing.T) {
	duck, err := bench.OpenDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	path := filepath.Join(t.TempDir(), "duck.parquet")
	q := fmt.Sprintf(`COPY (SELECT i, 'w' || (hash(i) %% 50) AS s, ((hash(i) %% 40) * 3)::INTEGER AS k,
		DATE '1995-01-01' + ((hash(i) %% 30) * 2)::INTEGER AS day, ((hash(i) %% 60) * 0.25)::DECIMAL(9,2) AS d
		FROM range(20000) t(i)) TO '%s' (FORMAT parquet, ROW_GROUP_SIZE 2000)`, path)
	if _, err := duck.DB.Exec(q); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := scan.Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	run := func(where string, noPrune bool) (string, scan.Stats) {
		t.Helper()
		plan, err := scan.Compile(src, scan.Query{Where: &scan.Expr{Text: where}}, scan.Options{NoPrune: noPrune, Threads: 2})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		rr, err := plan.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		var b strings.Builder
		for rr.Next() {
			rec := rr.RecordBatch()
			for r := 0; r < int(rec.NumRows()); r++ {
				for c := 0; c < int(rec.NumCols()); c++ {
					b.WriteString(rec.Column(c).ValueStr(r) + " ")
				}
				b.WriteString("\n")
			}
		}
		if err := rr.Err(); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		return b.String(), rr.Stats()
	}
	read, skipped := 0, 0
	for _, where := range []string{
		"s = 'w7'", "s = 'w50'", "s IN ('w50', 'w51')", "s IN ('w50', 'w3')",
		"k = 6", "k = 7", "k IN (7, 8, 10)", "day = DATE '1995-01-03'", "day = DATE '1995-01-04'",
		"d = 1.50", "d = 1.30", "k = 7 OR s = 'w50'", "k = 7 OR s = 'w5'", "k = 6 AND s = 'w50'",
	} {
		got, st := run(where, false)
		want, _ := run(where, true)
		if got != want {
			t.Errorf("%s: pruning changed the rows: %d lines, %d without", where, strings.Count(got, "\n"), strings.Count(want, "\n"))
		}
		if st.BloomNote != "" {
			t.Errorf("%s: %s", where, st.BloomNote)
		}
		read += st.BloomFilters
		skipped += st.RowGroupsSkippedBloom
	}
	if read == 0 || skipped == 0 {
		t.Errorf("%d bloom filters read, %d row groups skipped by them: DuckDB's filters were not used", read, skipped)
	}
	t.Logf("%d bloom filters read, %d row groups skipped by them", read, skipped)
}
