package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/scan"
)

// End-to-end tests of row-group pruning: demo tables written by the
// binary, sorted by ship date and not, in many row groups, queried with and
// without pruning.

var (
	pruneFilesOnce sync.Once
	pruneFiles     map[string]string
	pruneFilesErr  error
)

// prunedFiles writes, once per test run, the demo table as Parquet: sorted
// by l_shipdate in 100 row groups (100 000 rows), and two smaller ones of
// 30 000 rows in 50 row groups, sorted and in table order; the sorted
// one with bloom filters on l_orderkey and l_comment (bloom); and 300 000
// rows sorted, in row groups of 128 Ki rows and pages of 2000 (pages).
func prunedFiles(t *testing.T) map[string]string {
	t.Helper()
	bin := colexprBinary(t)
	dir, _ := fixtureFiles(t)
	pruneFilesOnce.Do(func() {
		files := map[string]string{
			"sorted100k": filepath.Join(dir, "sorted100k.parquet"),
			"sorted":     filepath.Join(dir, "sorted30k.parquet"),
			"unsorted":   filepath.Join(dir, "unsorted30k.parquet"),
			"bloom":      filepath.Join(dir, "bloom30k.parquet"),
			"pages":      filepath.Join(dir, "pages300k.parquet"),
		}
		for _, args := range [][]string{
			{"demo", "--rows", "100000", "--sort", "l_shipdate", "--row-groups", "100", "--out", files["sorted100k"]},
			{"demo", "--rows", "30000", "--sort", "l_shipdate", "--row-groups", "50", "--out", files["sorted"]},
			{"demo", "--rows", "30000", "--row-groups", "50", "--out", files["unsorted"]},
			{"demo", "--rows", "30000", "--sort", "l_shipdate", "--row-groups", "50", "--bloom-filter", "l_orderkey,l_comment", "--out", files["bloom"]},
			{"demo", "--rows", "300000", "--sort", "l_shipdate", "--page-rows", "2000", "--out", files["pages"]},
		} {
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				pruneFilesErr = fmt.Errorf("colexpr %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
		pruneFiles = files
	})
	if pruneFilesErr != nil {
		t.Fatal(pruneFilesErr)
	}
	return pruneFiles
}

var groupsLine = regexp.MustCompile(`(?m)^row groups: read (\d+), skipped (\d+) of (\d+) \(`)

// queryStats runs a query with --stats and returns its output and the
// row groups read, skipped and in all.
func queryStats(t *testing.T, args ...string) (out string, read, skipped, total int) {
	t.Helper()
	cmd := exec.Command(colexprBinary(t), append([]string{"query", "--stats"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("colexpr query --stats %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	m := groupsLine.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no row group line in stderr:\n%s", stderr.String())
	}
	read, _ = strconv.Atoi(m[1])
	skipped, _ = strconv.Atoi(m[2])
	total, _ = strconv.Atoi(m[3])
	if read+skipped != total {
		t.Fatalf("read %d + skipped %d != %d", read, skipped, total)
	}
	return stdout.String(), read, skipped, total
}

// TestPruningShipDateMonth is the case: a month of ship dates on a
// file sorted by ship date in 100 row groups reads at most 3 of them, and
// prints what reading them all prints.
func TestPruningShipDateMonth(t *testing.T) {
	files := prunedFiles(t)
	where := "l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-02-01'"
	sel := "l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) AS revenue, l_shipdate"
	pruned, read, skipped, total := queryStats(t, "--format", "csv", "--where", where, "--select", sel, files["sorted100k"])
	full, fullRead, _, _ := queryStats(t, "--no-prune", "--format", "csv", "--where", where, "--select", sel, files["sorted100k"])
	if total != 100 || read > 3 || read < 1 || skipped != total-read {
		t.Errorf("read %d, skipped %d of %d row groups; want at most 3 read of 100", read, skipped, total)
	}
	if fullRead != 100 {
		t.Errorf("--no-prune read %d row groups, want 100", fullRead)
	}
	if pruned != full {
		t.Errorf("the output with pruning differs from the output without")
	}
	if rows := strings.Count(pruned, "\n") - 1; rows < 1000 {
		t.Errorf("%d rows shipped in January 1995 of 100 000; the test expects over 1000", rows)
	}
}

// TestPruningKeepsResults checks, for predicates over every kind of
// statistic, on a sorted and an unsorted file, that pruning never changes
// the output; and that it skips row groups where the data allows it.
func TestPruningKeepsResults(t *testing.T) {
	files := prunedFiles(t)
	cases := []struct {
		name  string
		where string
		// mustSkip: the file ("sorted", "unsorted") on which pruning must skip something.
		mustSkip string
	}{
		{"date range", "l_shipdate BETWEEN DATE '1994-03-01' AND DATE '1994-03-31'", "sorted"},
		{"OR of ranges", "l_shipdate < DATE '1992-03-01' OR l_shipdate > DATE '1998-10-01' OR l_orderkey BETWEEN 1000 AND 2000", "sorted"},
		{"NOT of a range", "NOT (l_shipdate >= DATE '1992-06-01')", "sorted"},
		{"decimal", "l_extendedprice > 100000.00 OR l_quantity = 1 AND l_discount = 0.10", ""},
		{"decimal over sorted keys", "l_orderkey < 5000 AND l_extendedprice < 2000.00", "unsorted"},
		{"string prefix LIKE", "l_comment LIKE 'furiously%' AND l_linestatus = 'O'", "sorted"},
		{"string equality", "l_linestatus = 'F' AND l_returnflag = 'N'", "sorted"},
		{"string IN", "l_shipmode IN ('AIR', 'FOB') AND l_shipdate = DATE '1995-03-15'", "sorted"},
		{"IS NULL on a nullable column", "l_dims.w IS NULL AND l_shipdate > DATE '1998-01-01'", "sorted"},
		{"IS NOT NULL and a float range", "l_dims.h IS NOT NULL AND l_dims.h < 0.6", ""},
		{"an integer column", "l_linenumber = 7 AND l_orderkey > 110000", "unsorted"},
		{"monotonic functions", "l_orderkey + 10 < 5000 OR -l_orderkey > -2000", "unsorted"},
		{"nothing to prune on", "l_quantity * l_discount > 2", ""},
	}
	sel := "l_orderkey, l_linenumber, l_shipdate, l_comment, l_dims"
	for _, c := range cases {
		for _, file := range []string{"sorted", "unsorted"} {
			t.Run(c.name+"/"+file, func(t *testing.T) {
				t.Parallel()
				pruned, _, skipped, _ := queryStats(t, "--format", "jsonl", "--where", c.where, "--select", sel, files[file])
				full, _, fullSkipped, _ := queryStats(t, "--no-prune", "--format", "jsonl", "--where", c.where, "--select", sel, files[file])
				if fullSkipped != 0 {
					t.Errorf("--no-prune skipped %d row groups", fullSkipped)
				}
				if pruned != full {
					t.Errorf("pruning changed the output: %d lines, %d without pruning", strings.Count(pruned, "\n"), strings.Count(full, "\n"))
				}
				if pruned == "" {
					t.Errorf("no row matches: the case tests nothing")
				}
				if c.mustSkip == file && skipped == 0 {
					t.Errorf("no row group skipped")
				}
				if c.where == "l_quantity * l_discount > 2" && skipped != 0 {
					t.Errorf("%d row groups skipped by a predicate statistics cannot decide", skipped)
				}
			})
		}
	}
}

// TestPruningErrorsNameFileRows checks that a runtime error after skipped
// row groups names the row of the file, as without pruning, and that
// --limit still counts across the row groups read.
func TestPruningErrorsNameFileRows(t *testing.T) {
	files := prunedFiles(t)
	bin := colexprBinary(t)
	run := func(args ...string) string {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err == nil {
			t.Fatalf("colexpr %s succeeded, want an error", strings.Join(args, " "))
		}
		return string(out)
	}
	args := []string{"query", "--where", "l_shipdate >= DATE '1998-06-01'", "--select", "CAST(l_shipmode AS i64)", files["sorted"]}
	pruned := run(args...)
	full := run(append([]string{"query", "--no-prune"}, args[1:]...)...)
	if pruned != full {
		t.Errorf("the error differs with pruning:\n%s\nwithout:\n%s", pruned, full)
	}
	if !strings.Contains(pruned, ": row ") {
		t.Errorf("the error names no row:\n%s", pruned)
	}

	out, read, skipped, _ := queryStats(t, "--format", "csv", "--limit", "7", "--where", "l_shipdate >= DATE '1996-01-01'", "--select", "l_orderkey", files["sorted"])
	if n := strings.Count(out, "\n") - 1; n != 7 {
		t.Errorf("--limit 7 printed %d rows", n)
	}
	if skipped == 0 || read == 0 {
		t.Errorf("read %d, skipped %d row groups: want some of each", read, skipped)
	}
}

var wholeLine = regexp.MustCompile(`(?m)^row groups: .*; (\d+) taken whole`)

// TestRowGroupsTakenWhole: on a file sorted by ship date, a range that
// covers whole row groups keeps their rows without evaluating the filter
// (--stats says how many), and the output is the one without pruning.
func TestRowGroupsTakenWhole(t *testing.T) {
	files := prunedFiles(t)
	bin := colexprBinary(t)
	args := []string{"--format", "csv", "--where", "l_shipdate >= DATE '1996-06-01' AND l_linenumber BETWEEN 1 AND 7", "--select", "l_orderkey, l_linenumber, l_shipdate", files["sorted"]}
	cmd := exec.Command(bin, append([]string{"query", "--stats"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	m := wholeLine.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no row group was taken whole:\n%s", stderr.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 10 {
		t.Errorf("%d row groups taken whole; a third of a sorted file of 50 should be", n)
	}
	full, _, _, _ := queryStats(t, append([]string{"--no-prune"}, args...)...)
	if stdout.String() != full {
		t.Errorf("taking row groups whole changed the output: %d lines, %d without pruning", strings.Count(stdout.String(), "\n"), strings.Count(full, "\n"))
	}
}

var bloomLine = regexp.MustCompile(`(?m)^row groups: read \d+, skipped \d+ of \d+ \(.*; skipped by min/max (\d+), by bloom filters (\d+) \((\d+) filters read\)`)

// TestPruningBloomFilters is the case on a small scale: on a file
// sorted by ship date (so its order keys are spread over every row group)
// with bloom filters on l_orderkey, a present key reads at most 2 of 50
// row groups and an absent one none; and every predicate, with matches or
// without, prints what reading every row group prints.
func TestPruningBloomFilters(t *testing.T) {
	files := prunedFiles(t)
	bin := colexprBinary(t)
	sel := "l_orderkey, l_linenumber, l_shipdate, l_comment"
	// Keys of the 30 000-row demo table: 8 of every 32 are used (1 … 8,
	// 33 … 40, …), 20 is not. An absent value reads no row group, but for
	// a false positive of the filters (1 in 100 row groups or so).
	out, err := exec.Command(bin, "query", "--format", "csv", "--select", "l_orderkey, l_comment", "--where", "l_linenumber = 2", "--limit", "3", files["bloom"]).Output()
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(out)), "\n")[1:]
	if len(rows) != 3 {
		t.Fatalf("want 3 rows:\n%s", out)
	}
	key, comment, _ := strings.Cut(rows[0], ",")
	key2, _, _ := strings.Cut(rows[1], ",")
	for _, c := range []struct {
		where      string
		maxRead    int // -1: no bound
		rows       int // -1: some
		bloomSkips bool
	}{
		{"l_orderkey = " + key, 2, -1, true},
		{"l_orderkey = 20", 1, 0, true},
		{"l_orderkey IN (20, 21, 22)", 1, 0, true},
		{"l_orderkey IN (20, " + key2 + ")", 3, -1, true},
		{"l_orderkey = " + key + " OR l_orderkey = " + key2, 4, -1, true},
		{"l_orderkey = " + key + " AND l_linenumber = 2", 2, 1, true},
		{"l_comment = '" + comment + "'", -1, -1, false},
		{"l_comment = 'no such comment'", 1, 0, true},
		{"l_orderkey = 20 OR l_shipdate < DATE '1992-03-01'", -1, -1, true},
		{"NOT (l_orderkey != 20)", 1, 0, true},
	} {
		t.Run(c.where, func(t *testing.T) {
			cmd := exec.Command(bin, "query", "--stats", "--format", "csv", "--where", c.where, "--select", sel, files["bloom"])
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			m := groupsLine.FindStringSubmatch(stderr.String())
			b := bloomLine.FindStringSubmatch(stderr.String())
			if m == nil || b == nil {
				t.Fatalf("no row group line with bloom filters:\n%s", stderr.String())
			}
			read, _ := strconv.Atoi(m[1])
			skipped, _ := strconv.Atoi(m[2])
			byStats, _ := strconv.Atoi(b[1])
			byBloom, _ := strconv.Atoi(b[2])
			if byStats+byBloom != skipped {
				t.Errorf("skipped %d = %d by min/max + %d by bloom filters?\n%s", skipped, byStats, byBloom, stderr.String())
			}
			if c.maxRead >= 0 && read > c.maxRead {
				t.Errorf("read %d row groups, want at most %d:\n%s", read, c.maxRead, stderr.String())
			}
			if c.bloomSkips && byBloom == 0 {
				t.Errorf("the bloom filters skipped nothing:\n%s", stderr.String())
			}
			full, fullRead, _, _ := queryStats(t, "--no-prune", "--format", "csv", "--where", c.where, "--select", sel, files["bloom"])
			if fullRead != 50 {
				t.Errorf("--no-prune read %d row groups, want 50", fullRead)
			}
			if stdout.String() != full {
				t.Errorf("pruning changed the output:\n%s\nwithout:\n%s", stdout.String(), full)
			}
			n := strings.Count(full, "\n") - 1
			if c.rows >= 0 && n != c.rows || c.rows < 0 && n == 0 {
				t.Errorf("%d rows; the case wants %d (-1: some)", n, c.rows)
			}
		})
	}
}

// TestQueryOutputBloomFilters: query -o FILE.parquet --bloom-filter writes
// filters of output columns, which a query of that file then uses.
func TestQueryOutputBloomFilters(t *testing.T) {
	files := prunedFiles(t)
	bin := colexprBinary(t)
	out := filepath.Join(t.TempDir(), "keys.parquet")
	if b, err := exec.Command(bin, "query", "--select", "l_orderkey, l_comment", "--bloom-filter", "l_orderkey", "-o", out, files["unsorted"]).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	cmd := exec.Command(bin, "query", "--stats", "--format", "csv", "--where", "l_orderkey = 20", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	b := bloomLine.FindStringSubmatch(stderr.String())
	if b == nil || b[2] != "1" || stdout.String() != "l_orderkey,l_comment\n" {
		t.Errorf("want the one row group skipped by its bloom filter and no row; got\n%s%s", stdout.String(), stderr.String())
	}
	msg, err := exec.Command(bin, "query", "--bloom-filter", "l_orderkey", "--format", "csv", files["unsorted"]).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "--bloom-filter writes bloom filters into Parquet output") {
		t.Errorf("--bloom-filter with CSV output: %v\n%s", err, msg)
	}
}

// writePagesFixture writes $DIR/pages/sorted.parquet: 20 000 demo rows
// sorted by ship date, one row group of pages of 1000 rows, for the
// page index's goldens (in a directory of its own, out of the globs of
// the other cases); and $DIR/pagesds/, a dataset of two such files of
// 10 000 rows (seeds 1 and 2).
func writePagesFixture(t *testing.T, dir string) {
	t.Helper()
	for _, sub := range []string{"pages", "pagesds"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := demo.ReaderOptions{BatchSize: defaultRowGroupSize, SortBy: demo.ColShipDate}
	po := scan.ParquetOptions{PageRows: 1000}
	if err := writeDemoWith(memory.DefaultAllocator, demo.Table{Seed: demo.DefaultSeed, Rows: 20000}, o, filepath.Join(dir, "pages", "sorted.parquet"), nil, po); err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(2) {
		path := filepath.Join(dir, "pagesds", fmt.Sprintf("part%d.parquet", seed+1))
		if err := writeDemoWith(memory.DefaultAllocator, demo.Table{Seed: seed + 1, Rows: 10000}, o, path, nil, po); err != nil {
			t.Fatal(err)
		}
	}
}

var pagesLine = regexp.MustCompile(`(?m)^pages: read (\d+), skipped (\d+) of (\d+) in `)

// TestPruningPages: on a file sorted by ship date, of row groups of many
// pages, the page index skips pages within the row groups read; the
// output is the one without pruning, also where a page error names a row;
// and a day reads at most 2 pages of each column (the target).
func TestPruningPages(t *testing.T) {
	files := prunedFiles(t)
	sel := "l_orderkey, l_linenumber, l_shipdate, l_comment, l_extendedprice"
	cases := []struct {
		where string
		// maxPages: the most pages of each column read (0: no bound).
		maxPages int
	}{
		{"l_shipdate = DATE '1995-06-17'", 2},
		{"l_shipdate BETWEEN DATE '1994-03-01' AND DATE '1994-03-03'", 0},
		{"l_shipdate = DATE '1995-06-17' OR l_shipdate = DATE '1997-01-02'", 0},
		{"l_shipdate = DATE '1995-06-17' AND l_quantity < 10", 2},
		{"l_shipdate IN (DATE '1993-01-01', DATE '1998-01-01') AND l_comment LIKE 'f%'", 0},
		{"year(l_shipdate) = 1996 AND month(l_shipdate) = 2", 0},
		{"l_shipdate + 1 = DATE '1995-06-18'", 2},
		{"l_shipdate > DATE '1998-11-25'", 0},
	}
	for _, c := range cases {
		t.Run(c.where, func(t *testing.T) {
			t.Parallel()
			run := func(extra ...string) (string, string) {
				cmd := exec.Command(colexprBinary(t), append(append([]string{"query", "--stats"}, extra...), "--format", "csv", "--where", c.where, "--select", sel, files["pages"])...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%v\n%s", err, stderr.String())
				}
				return stdout.String(), stderr.String()
			}
			pruned, stats := run()
			full, fullStats := run("--no-prune")
			if pruned != full {
				t.Errorf("pruning changed the output: %d lines, %d without pruning", strings.Count(pruned, "\n"), strings.Count(full, "\n"))
			}
			if strings.Count(pruned, "\n") < 2 {
				t.Errorf("no row matches: the case tests nothing")
			}
			if pagesLine.MatchString(fullStats) {
				t.Errorf("--no-prune skipped pages:\n%s", fullStats)
			}
			m := pagesLine.FindStringSubmatch(stats)
			if m == nil {
				t.Fatalf("no page was skipped:\n%s", stats)
			}
			read, _ := strconv.Atoi(m[1])
			// The five columns selected, l_shipdate among them, and
			// l_quantity where the filter has it.
			cols := 5
			if strings.Contains(c.where, "l_quantity") {
				cols = 6
			}
			if c.maxPages > 0 && read > c.maxPages*cols {
				t.Errorf("read %d pages of %d columns, want at most %d of each:\n%s", read, cols, c.maxPages, stats)
			}
		})
	}
}
