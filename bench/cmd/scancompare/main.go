// Command scancompare times whole processes: `colexpr query` against DuckDB
// reading the same Parquet file with the same number of threads and writing
// the same CSV to standard output, and prints a markdown report (wall time,
// CPU time and peak RSS of each process; medians of round-robin runs).
//
// Usage (from the bench directory):
//
//	go run ./cmd/scancompare                       # 6 000 000 rows, 5 runs, 1 and 2 threads
//	go run ./cmd/scancompare -dir /tmp/sc -o SCAN.md
//	go run ./cmd/scancompare -rows 1000000 -reps 9 -threads 1,2,4
//	go run ./cmd/scancompare -rows 10000000 -threads 2 -queries bloom   # the bloom filter queries only
//
// It builds colexpr (../cmd/colexpr, the work tree of the module bench
// replaces colexpr with; -rev COMMIT builds a commit of it instead, exported
// with git archive), cmd/duckquery and cmd/scancompare/runner into a
// temporary directory (-colexpr and -duckquery take binaries instead),
// writes the input files into -dir (kept, and reused when their row count and
// layout match) or a temporary directory (removed), and, for every query,
// file and thread count, runs each engine once with its output captured —
// the two outputs must hold the same rows — and then -reps times with its
// output going to /dev/null, alternating the engines. Every process is
// started by the runner, which measures it (see runner's doc for why).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/colexpr/colexpr/bench"
)

func main() {
	rows := flag.Int64("rows", 6_000_000, "rows of the demo table")
	reps := flag.Int("reps", 5, "timed runs per engine and case; the median is reported")
	threads := flag.String("threads", "1,2", "comma-separated thread counts; speed-ups are from the first to each other")
	dir := flag.String("dir", "", "directory for the input files, kept and reused (default: a temporary directory, removed)")
	out := flag.String("o", "", "also write the report to this file")
	colexprBin := flag.String("colexpr", "", "the colexpr binary (default: built from ../cmd/colexpr, or -rev)")
	rev := flag.String("rev", "", "build colexpr from this commit of its repository (git archive) instead of the work tree")
	duckBin := flag.String("duckquery", "", "the duckquery binary (default: built from ./cmd/duckquery)")
	only := flag.String("queries", "", "run only the queries whose names match this regular expression (default: all)")
	flag.Parse()
	ts, err := parseThreads(*threads)
	var qs []query
	if err == nil {
		qs, err = selectQueries(*only)
	}
	if err == nil {
		err = run(config{rows: *rows, reps: *reps, threads: ts, dir: *dir, out: *out, colexpr: *colexprBin, rev: *rev, duckquery: *duckBin, queries: qs})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scancompare:", err)
		os.Exit(1)
	}
}

type config struct {
	rows               int64
	reps               int
	threads            []int
	dir, out           string
	colexpr, duckquery string
	rev                string  // build colexpr from this commit rather than the work tree
	runner             string  // cmd/scancompare/runner, built
	colexprFrom        string  // where the colexpr binary came from, for the report
	queries            []query // the queries to run
}

// A query is run by colexpr as `colexpr query --threads T --format csv
// [--where W] --select S [--limit 0] FILE`, and by DuckDB as `COPY (SELECT S
// FROM read_parquet('FILE') [WHERE W] [LIMIT 0]) TO '/dev/stdout' (FORMAT
// csv, HEADER true, USE_TMP_FILE false)` through duckquery.
type query struct {
	name   string
	where  string
	sel    string
	limit0 bool
	// sorted runs the query on bloom.parquet only, instead of demo.parquet
	// and duck.parquet: the file sorted by ship date, with a bloom filter of
	// l_orderkey and (as every file colexpr writes) a page index.
	sorted bool
}

var queries = []query{
	{name: "Q6", where: bench.Q6Pred, sel: bench.Q6Proj + " AS r"},
	{name: "one-column filter", where: "l_quantity < 1.5", sel: "l_orderkey"},
	{name: "header only (LIMIT 0)", sel: "l_orderkey", limit0: true},
	// The demo's order keys are 8 of every 32 (1 … 8, 33 … 40, …): 33 is
	// in every table, 20 in none. bloom.parquet is sorted by ship date, so
	// min/max cannot rule out either: only the bloom filters can.
	{name: "bloom: key present", where: "l_orderkey = 33", sel: "l_orderkey, l_linenumber, l_extendedprice", sorted: true},
	{name: "bloom: key absent", where: "l_orderkey = 20", sel: "l_orderkey, l_linenumber, l_extendedprice", sorted: true},
	// One day of a file sorted by that day: min/max keep one or two row
	// groups, the page index one or two pages of each column in them.
	{name: "page index: one day", where: "l_shipdate = DATE '1995-03-15'", sel: "l_orderkey, l_shipdate, l_extendedprice", sorted: true},
}

// selectQueries are the queries whose names match the regular expression
// re (all for "").
func selectQueries(re string) ([]query, error) {
	if re == "" {
		return queries, nil
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, fmt.Errorf("-queries: %w", err)
	}
	var qs []query
	for _, q := range queries {
		if rx.MatchString(q.name) {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("-queries %q matches no query", re)
	}
	return qs, nil
}

// colexprArgs and duckArgs are the engines' command lines; threads is a
// number, or "T" in the report.
func (q query) colexprArgs(threads, file string) []string {
	args := []string{"query", "--threads", threads, "--format", "csv"}
	if q.where != "" {
		args = append(args, "--where", q.where)
	}
	args = append(args, "--select", q.sel)
	if q.limit0 {
		args = append(args, "--limit", "0")
	}
	return append(args, file)
}

func (q query) sql(file string) string {
	s := "SELECT " + q.sel + " FROM read_parquet(" + sqlString(file) + ")"
	if q.where != "" {
		s += " WHERE " + q.where
	}
	if q.limit0 {
		s += " LIMIT 0"
	}
	// USE_TMP_FILE false: when the target exists as a regular file (standard
	// output redirected to one), DuckDB would otherwise write a temporary
	// file and rename it over the target; the output was lost when tried.
	return "COPY (" + s + ") TO '/dev/stdout' (FORMAT csv, HEADER true, USE_TMP_FILE false)"
}

func (q query) duckArgs(threads, file string) []string {
	return []string{"-threads", threads, q.sql(file)}
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// environment is what the report says of the machine and the runs.
type environment struct {
	machine               bench.Machine
	loadBefore, loadAfter string // /proc/loadavg's first three fields
	rssFloor              int64  // the peak RSS the runner reports for true(1), bytes; 0 if not measured
}

// inputFile is one Parquet file the queries read.
type inputFile struct {
	name, path string
	how        string // how it was written
	size       int64
	rowGroups  int
	codec      string
	decimals   string // the physical type of its decimal columns
}

// sample is one run of one process.
type sample struct {
	wall, cpu time.Duration // cpu is user + system
	rss       int64         // peak resident set, bytes
}

// stats is every timed run of one engine in one case.
type stats []sample

// median is the median of one measure of the samples.
func median[T int64 | time.Duration](st stats, measure func(sample) T) T {
	if len(st) == 0 {
		return 0
	}
	xs := make([]T, len(st))
	for i, s := range st {
		xs[i] = measure(s)
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

func (st stats) wall() time.Duration {
	return median(st, func(s sample) time.Duration { return s.wall })
}

func (st stats) cpu() time.Duration {
	return median(st, func(s sample) time.Duration { return s.cpu })
}

func (st stats) rss() int64 {
	return median(st, func(s sample) int64 { return s.rss })
}

// result is one case: a query on a file at a thread count.
type result struct {
	q             query
	file          *inputFile
	threads       int
	summary       string
	colexpr, duck stats
}

func run(c config) error {
	if c.reps < 1 {
		return fmt.Errorf("-reps must be at least 1, got %d", c.reps)
	}
	if c.rows < 1 {
		return fmt.Errorf("-rows must be at least 1, got %d", c.rows)
	}
	tmp, err := os.MkdirTemp("", "scancompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := buildBinaries(&c, tmp); err != nil {
		return err
	}
	if c.dir == "" {
		c.dir = filepath.Join(tmp, "data")
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	duck, err := bench.OpenDuck()
	if err != nil {
		return err
	}
	defer duck.Close()
	files, err := prepareFiles(duck, c, tmp)
	if err != nil {
		return err
	}
	e := &environment{machine: bench.ReadMachine(duck, c.reps, 0), loadBefore: loadAverage()}
	if t, err := exec.LookPath("true"); err == nil {
		s, err := runProcess(c.runner, t, nil, io.Discard)
		if err != nil {
			return err
		}
		e.rssFloor = s.rss
	}

	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer devNull.Close()
	var rs []*result
	for _, q := range c.queries {
		var want *output
		var wantFrom string
		for _, f := range files {
			if q.sorted != (f.name == "bloom.parquet") {
				continue
			}
			for _, t := range c.threads {
				r, got, err := measure(c, q, f, t, devNull)
				if err != nil {
					return err
				}
				from := fmt.Sprintf("%s, %d threads", f.name, t)
				if want == nil {
					want, wantFrom = got, from
				} else if d := diff(want, got); d != "" {
					return fmt.Errorf("%s: the output on %s differs from the output on %s: %s", q.name, from, wantFrom, d)
				}
				rs = append(rs, r)
			}
		}
	}

	var buf bytes.Buffer
	e.loadAfter = loadAverage()
	writeReport(&buf, c, e, files, rs)
	os.Stdout.Write(buf.Bytes())
	if c.out != "" {
		return os.WriteFile(c.out, buf.Bytes(), 0o644)
	}
	return nil
}

// buildBinaries builds colexpr and duckquery into dir unless given, and the
// runner.
func buildBinaries(c *config, dir string) error {
	benchDir, err := goList("-m", "-f", "{{.Dir}}")
	if err != nil {
		return err
	}
	switch {
	case c.colexpr != "":
		c.colexprFrom = "the binary " + c.colexpr + " (-colexpr)"
	default:
		// The module bench's go.mod replaces colexpr with (../), built with
		// its own go.mod, as its users build it: its work tree, or with
		// -rev a commit of its repository, exported with git archive.
		root, err := goList("-m", "-f", "{{.Dir}}", "github.com/colexpr/colexpr")
		if err != nil {
			return err
		}
		c.colexprFrom = "built from " + root
		if c.rev != "" {
			commit, err := gitOutput(root, "rev-parse", "--verify", c.rev+"^{commit}")
			if err != nil {
				return fmt.Errorf("-rev %s: %w", c.rev, err)
			}
			src := filepath.Join(dir, "src")
			if err := exportCommit(root, commit, src); err != nil {
				return err
			}
			c.colexprFrom = fmt.Sprintf("built from commit %s (-rev %s)", commit[:12], c.rev)
			root = src
		} else if d, err := gitOutput(root, "describe", "--always", "--dirty"); err == nil {
			c.colexprFrom += " at " + d
		}
		c.colexpr = filepath.Join(dir, "colexpr")
		fmt.Fprintf(os.Stderr, "building colexpr, %s…\n", c.colexprFrom)
		if err := goBuild(root, c.colexpr, "./cmd/colexpr"); err != nil {
			return fmt.Errorf("%w (-rev COMMIT builds a commit instead of the work tree; -colexpr takes a binary)", err)
		}
	}
	c.runner = filepath.Join(dir, "runner")
	if err := goBuild(benchDir, c.runner, "./cmd/scancompare/runner"); err != nil {
		return err
	}
	if c.duckquery == "" {
		c.duckquery = filepath.Join(dir, "duckquery")
		fmt.Fprintf(os.Stderr, "building %s/cmd/duckquery…\n", benchDir)
		if err := goBuild(benchDir, c.duckquery, "./cmd/duckquery"); err != nil {
			return err
		}
	}
	return nil
}

func goList(args ...string) (string, error) {
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

func goBuild(dir, out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s in %s: %w", pkg, dir, err)
	}
	return nil
}

// gitOutput runs git in dir and returns its output, trimmed.
func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return strings.TrimSpace(string(out)), nil
}

// exportCommit writes the files of commit, in the repository at root, into
// dir (git archive, unpacked with tar), without touching the repository.
func exportCommit(root, commit, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.Command("git", "-C", root, "archive", "--format=tar", commit)
	unpack := exec.Command("tar", "-x", "-C", dir)
	var err error
	if unpack.Stdin, err = archive.StdoutPipe(); err != nil {
		return err
	}
	archive.Stderr, unpack.Stderr = os.Stderr, os.Stderr
	if err := unpack.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		unpack.Wait()
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	if err := unpack.Wait(); err != nil {
		return fmt.Errorf("tar -x: %w", err)
	}
	return nil
}

// prepareFiles writes demo.parquet with colexpr demo and duck.parquet, the
// same rows without the nested columns, with DuckDB, into c.dir, when a
// query reads them; and bloom.parquet when a bloom filter query does. A file
// already there is reused when it has c.rows rows and, for demo.parquet, the
// layout (see layout) of a small file the colexpr binary writes now; tmp is
// for that small file.
func prepareFiles(duck *bench.Duck, c config, tmp string) ([]*inputFile, error) {
	demoFile := &inputFile{name: "demo.parquet", path: filepath.Join(c.dir, "demo.parquet"),
		how: fmt.Sprintf("`colexpr demo --rows %d --out demo.parquet` (arrow-go's writer), all 18 columns", c.rows)}
	duckFile := &inputFile{name: "duck.parquet", path: filepath.Join(c.dir, "duck.parquet")}
	copySQL := func(from, to string) string {
		return fmt.Sprintf("COPY (SELECT * EXCLUDE (l_tags, l_dims) FROM read_parquet(%s)) TO %s (FORMAT parquet)",
			sqlString(from), sqlString(to))
	}
	duckFile.how = fmt.Sprintf("the same rows rewritten by DuckDB (one thread), without the nested columns: `%s`",
		copySQL(demoFile.name, duckFile.name))
	writeDemo := func(path string, rows int64, flags ...string) error {
		cmd := exec.Command(c.colexpr, append(append([]string{"demo", "--rows", fmt.Sprint(rows)}, flags...), "--out", path)...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("colexpr demo --rows %d --out %s: %w", rows, path, err)
		}
		return nil
	}

	needPair, needBloom := false, false
	for _, q := range c.queries {
		needPair = needPair || !q.sorted
		needBloom = needBloom || q.sorted
	}
	var files []*inputFile
	// sameLayout reports whether the file at path has c.rows rows and the
	// layout of a small file writeDemo writes with the same flags now.
	sameLayout := func(path string, flags ...string) (bool, error) {
		if n, err := countRows(duck, path); err != nil || n != c.rows {
			return false, nil
		}
		sample := filepath.Join(tmp, "sample.parquet")
		if err := writeDemo(sample, min(c.rows, 1000), flags...); err != nil {
			return false, err
		}
		want, err := layout(duck, sample)
		if err != nil {
			return false, err
		}
		got, err := layout(duck, path)
		return err == nil && got == want, nil
	}
	if needPair {
		reuse, err := sameLayout(demoFile.path)
		if err != nil {
			return nil, err
		}
		if reuse {
			fmt.Fprintf(os.Stderr, "reusing %s (%d rows, the layout colexpr demo writes)\n", demoFile.path, c.rows)
		} else {
			fmt.Fprintf(os.Stderr, "writing %s (%d rows)…\n", demoFile.path, c.rows)
			if err := writeDemo(demoFile.path, c.rows); err != nil {
				return nil, err
			}
		}
		if n, err := countRows(duck, duckFile.path); reuse && err == nil && n == c.rows && !olderThan(duckFile.path, demoFile.path) {
			fmt.Fprintf(os.Stderr, "reusing %s (%d rows)\n", duckFile.path, n)
		} else {
			fmt.Fprintf(os.Stderr, "writing %s…\n", duckFile.path)
			q := copySQL(demoFile.path, duckFile.path)
			if _, err := duck.DB.Exec(q); err != nil {
				return nil, fmt.Errorf("%s: %w", q, err)
			}
		}
		files = append(files, demoFile, duckFile)
	}
	if needBloom {
		// The layout check cannot see the order or the filters: the
		// bloom filter queries check that they skip (the key absent reads
		// nothing), and -dir should be a new directory after a change.
		flags := []string{"--sort", "l_shipdate", "--bloom-filter", "l_orderkey"}
		bloomFile := &inputFile{name: "bloom.parquet", path: filepath.Join(c.dir, "bloom.parquet"),
			how: fmt.Sprintf("`colexpr demo --rows %d %s --out bloom.parquet`: sorted by ship date, so that its order keys are in every row group, with a bloom filter of l_orderkey in each (1%% false positives)", c.rows, strings.Join(flags, " "))}
		reuse, err := sameLayout(bloomFile.path, flags...)
		if err != nil {
			return nil, err
		}
		if reuse {
			fmt.Fprintf(os.Stderr, "reusing %s (%d rows)\n", bloomFile.path, c.rows)
		} else {
			fmt.Fprintf(os.Stderr, "writing %s (%d rows)…\n", bloomFile.path, c.rows)
			if err := writeDemo(bloomFile.path, c.rows, flags...); err != nil {
				return nil, err
			}
		}
		files = append(files, bloomFile)
	}

	for _, f := range files {
		fi, err := os.Stat(f.path)
		if err != nil {
			return nil, err
		}
		f.size = fi.Size()
		q := fmt.Sprintf("SELECT count(DISTINCT row_group_id), string_agg(DISTINCT compression, '+') FROM parquet_metadata(%s)", sqlString(f.path))
		if err := duck.DB.QueryRow(q).Scan(&f.rowGroups, &f.codec); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		q = fmt.Sprintf("SELECT string_agg(DISTINCT type, '+') FROM parquet_schema(%s) WHERE converted_type = 'DECIMAL'", sqlString(f.path))
		if err := duck.DB.QueryRow(q).Scan(&f.decimals); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	return files, nil
}

// layout describes a Parquet file's schema (every column's name, physical
// and logical type) and writer, to tell whether a demo file was written by
// the same colexpr demo as another. A change to the demo's values that
// keeps the layout is not seen.
func layout(duck *bench.Duck, path string) (string, error) {
	rows, err := duck.DB.Query(fmt.Sprintf("SELECT concat_ws(' ', name, type, logical_type) FROM parquet_schema(%s)", sqlString(path)))
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		b.WriteString(s + "\n")
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	var createdBy string
	if err := duck.DB.QueryRow(fmt.Sprintf("SELECT created_by FROM parquet_file_metadata(%s)", sqlString(path))).Scan(&createdBy); err != nil {
		return "", err
	}
	return b.String() + createdBy, nil
}

func countRows(duck *bench.Duck, path string) (int64, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, err
	}
	var n int64
	err := duck.DB.QueryRow("SELECT count(*) FROM read_parquet(" + sqlString(path) + ")").Scan(&n)
	return n, err
}

func olderThan(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA != nil || errB != nil || fa.ModTime().Before(fb.ModTime())
}

// measure runs one case: each engine once with its output captured (the
// outputs must agree; this is also the warm-up), then c.reps rounds of
// colexpr then DuckDB with output to /dev/null. It returns the result and
// colexpr's normalized output.
func measure(c config, q query, f *inputFile, threads int, devNull *os.File) (*result, *output, error) {
	r := &result{q: q, file: f, threads: threads}
	cArgs, dArgs := q.colexprArgs(fmt.Sprint(threads), f.path), q.duckArgs(fmt.Sprint(threads), f.path)
	var cOut, dOut bytes.Buffer
	if _, err := runProcess(c.runner, c.colexpr, cArgs, &cOut); err != nil {
		return nil, nil, err
	}
	if _, err := runProcess(c.runner, c.duckquery, dArgs, &dOut); err != nil {
		return nil, nil, err
	}
	co, err := parseOutput(cOut.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("%s on %s: colexpr's output: %w", q.name, f.name, err)
	}
	do, err := parseOutput(dOut.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("%s on %s: DuckDB's output: %w", q.name, f.name, err)
	}
	if d := diff(co, do); d != "" {
		return nil, nil, fmt.Errorf("%s on %s, %d threads: colexpr and DuckDB disagree: %s", q.name, f.name, threads, d)
	}
	r.summary = co.summary()
	for range c.reps {
		s, err := runProcess(c.runner, c.colexpr, cArgs, devNull)
		if err != nil {
			return nil, nil, err
		}
		r.colexpr = append(r.colexpr, s)
		s, err = runProcess(c.runner, c.duckquery, dArgs, devNull)
		if err != nil {
			return nil, nil, err
		}
		r.duck = append(r.duck, s)
	}
	fmt.Fprintf(os.Stderr, "%-22s %-13s %d threads  colexpr %-8s DuckDB %-8s  %s\n", q.name, f.name, threads,
		bench.FormatDuration(r.colexpr.wall()), bench.FormatDuration(r.duck.wall()), r.summary)
	return r, co, nil
}

// runProcess runs bin with args through the runner, standard output to
// stdout, and returns the wall time (from start to the end of wait), CPU time
// and peak RSS the runner measured.
func runProcess(runner, bin string, args []string, stdout io.Writer) (sample, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return sample{}, err
	}
	defer pr.Close()
	var stderr bytes.Buffer
	cmd := exec.Command(runner, append([]string{bin}, args...)...)
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	cmd.ExtraFiles = []*os.File{pw} // the runner's descriptor 3
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return sample{}, err
	}
	report, readErr := io.ReadAll(pr)
	if err := cmd.Wait(); err != nil {
		return sample{}, fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), quoteArgs(args), err, stderr.Bytes())
	}
	if readErr != nil {
		return sample{}, readErr
	}
	var wall, cpu, rssKiB int64
	if _, err := fmt.Sscan(string(report), &wall, &cpu, &rssKiB); err != nil {
		return sample{}, fmt.Errorf("runner's report %q: %w", report, err)
	}
	return sample{wall: time.Duration(wall), cpu: time.Duration(cpu), rss: rssKiB * 1024}, nil
}

// quoteArgs prints args as a shell would need them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " '\"*<>()$;|&") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
