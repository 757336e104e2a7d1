package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/colexpr/colexpr/bench"
)

func writeReport(w io.Writer, c config, e *environment, files []*inputFile, rs []*result) {
	m := e.machine
	fmt.Fprintf(w, "# colexpr query against DuckDB: whole processes on one Parquet file\n\n")
	fmt.Fprintf(w, "Machine: %s, %d CPUs (nproc), %s, %s; DuckDB %s through duckdb-go (cmd/duckquery). %s. "+
		"colexpr: %s. Load average (1, 5, 15 min) before the runs: %s; after: %s.\n\n",
		m.CPU, m.NumCPU, m.Go, m.OSArch, m.DuckDB, m.Date, c.colexprFrom, e.loadBefore, e.loadAfter)

	fmt.Fprintf(w, "Files, %d rows each:\n\n", c.rows)
	for _, f := range files {
		fmt.Fprintf(w, "- %s: %s; %.1f MiB, %d row groups, %s, decimals stored as %s.\n",
			f.name, f.how, float64(f.size)/(1<<20), f.rowGroups, f.codec, f.decimals)
	}
	fmt.Fprintf(w, "\nQueries, with T the thread count and FILE the file; both engines write CSV with a header row to standard output:\n\n")
	fmt.Fprintf(w, "| query | colexpr | DuckDB |\n|---|---|---|\n")
	for _, q := range c.queries {
		fmt.Fprintf(w, "| %s | `colexpr %s` | `duckquery %s` |\n", q.name,
			mdCode(quoteArgs(q.colexprArgs("T", "FILE"))), mdCode(quoteArgs(q.duckArgs("T", "FILE"))))
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "Each figure is the median of %d runs of a whole process (start to exit, standard output to /dev/null), "+
		"taken round-robin, colexpr then DuckDB, after one untimed run of each whose outputs are compared. "+
		"CPU is user + system time, peak RSS the process's maximum resident set (`ru_maxrss` of the child, started by a small runner process; "+
		"the runner's own peak is a floor under the figure: %s for true(1)). "+
		"The ratio is DuckDB's wall time divided by colexpr's: above 1, colexpr is faster.\n\n", c.reps, floorText(e.rssFloor))

	fmt.Fprintf(w, "| query | file | threads | colexpr | DuckDB | DuckDB / colexpr | colexpr CPU | DuckDB CPU | colexpr peak RSS | DuckDB peak RSS |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.q.name, r.file.name, r.threads,
			bench.FormatDuration(r.colexpr.wall()), bench.FormatDuration(r.duck.wall()), ratio(r.duck.wall(), r.colexpr.wall()),
			bench.FormatDuration(r.colexpr.cpu()), bench.FormatDuration(r.duck.cpu()), mib(r.colexpr.rss()), mib(r.duck.rss()))
	}

	if len(c.threads) > 1 {
		t0 := c.threads[0]
		fmt.Fprintf(w, "\nSpeed-up with more threads: the median wall time at %d thread(s) divided by the one at", t0)
		fmt.Fprintf(w, " %s.\n\n| query | file |", joinInts(c.threads[1:], ", "))
		for _, t := range c.threads[1:] {
			fmt.Fprintf(w, " colexpr %d→%d | DuckDB %d→%d |", t0, t, t0, t)
		}
		fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---:|---:|", len(c.threads)-1))
		for _, r := range rs {
			if r.threads != t0 {
				continue
			}
			fmt.Fprintf(w, "| %s | %s |", r.q.name, r.file.name)
			for _, t := range c.threads[1:] {
				o := find(rs, r.q.name, r.file.name, t)
				fmt.Fprintf(w, " %s | %s |", ratio(r.colexpr.wall(), o.colexpr.wall()), ratio(r.duck.wall(), o.duck.wall()))
			}
			fmt.Fprintln(w)
		}
	}

	fmt.Fprintf(w, "\nOutputs: before timing each case, both outputs are parsed as CSV, every number is written without the trailing zeros of its fraction, "+
		"and the rows are sorted; headers and rows must be equal, and equal to those of the same query on the other file and at the other thread counts. They were:\n\n")
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.q.name] {
			seen[r.q.name] = true
			fmt.Fprintf(w, "- %s: %s\n", r.q.name, r.summary)
		}
	}
}

func find(rs []*result, q, file string, threads int) *result {
	for _, r := range rs {
		if r.q.name == q && r.file.name == file && r.threads == threads {
			return r
		}
	}
	panic("scancompare: no result for " + q + " on " + file)
}

func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

func floorText(b int64) string {
	if b == 0 {
		return "not measured"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, sep)
}

// mdCode escapes text for a code span in a table cell.
func mdCode(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
