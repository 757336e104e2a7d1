package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/proto"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scan"
)

var queryCommand = &command{
	name:     "query",
	synopsis: "query [--where EXPR] [--select LIST] [--substrait FILE.json] [-o OUT] [flags] [FILE...]",
	summary:  "print the rows where EXPR is true, as the LIST expressions",
	usage: `Usage: colexpr query [flags] [FILE...]

Prints the rows of the FILEs (or of the demo table) where --where is true,
as the --select expressions; either can come from a Substrait file instead,
and so can the whole query, as a Substrait plan.

  --where EXPR        keep the rows where EXPR is true (not false or null)
  --select LIST       comma-separated expressions, each optionally "AS name";
                      a name used twice is renamed (a, a_1, a_2, …);
                      default: every column
  --substrait FILE    read the filter or the select list from a Substrait
                      ExtendedExpression (protobuf JSON or binary, such as
                      explain --substrait writes), bound to the input's columns
                      by name. With --where, its expressions are the select
                      list; with --select, it is the filter and must hold one
                      bool expression; with neither, it is the filter when it
                      holds one bool expression, else the select list. Output
                      columns take the message's output names. It cannot be
                      given with both --where and --select. FILE - is the
                      standard input.
                      FILE may instead hold a Substrait Plan (such as explain
                      --substrait-plan writes, or another engine): a read of
                      local files or of a named table, a filter and a project.
                      It runs as it is: the plan's files (or the FILEs given,
                      which a named table needs; the demo table for lineitem),
                      its filter and its output columns, so neither --where
                      nor --select can be given with it. Any other relation
                      (join, aggregate, sort, …) is an error that names it.
  --limit N           print the first N rows, then stop reading; 0 prints only
                      the header (default: no limit)
  --format FORMAT     table (default), csv, jsonl, arrow (an Arrow IPC stream),
                      feather (an Arrow IPC file) or parquet
  -o, --output FILE   write to FILE instead of stdout, in the format its
                      extension names (.csv, .jsonl, .arrows, .arrow/.feather,
                      .parquet, .txt), or --format; written to a temporary file
                      renamed into place when complete, so an error or an
                      interrupt leaves no half-written FILE
  --bloom-filter COLUMN,…
                      with Parquet output, write a bloom filter of each output
                      COLUMN in every row group (see colexpr help demo)
  --threads N         evaluate batches on N goroutines (default: the number of CPUs)
  --batch-size N      rows per batch (default 32768)
  --demo-rows N       rows of the demo table when there is no FILE (default 1000000)
  --stats             print to stderr how many files were read and how many
                      were skipped by their Hive partition values, how many
                      Parquet row groups were read and skipped by their statistics
                      and by their bloom filters, and how many pages the page
                      index skipped within the row groups read
  --no-prune          read every row group and page, whatever their statistics say
` + csvFlagsUsage + `
FILE is a Parquet, Arrow IPC (file or stream) or CSV file, told apart by
its first bytes (a CSV file has a header row; types inferred from the first
1000 rows, or as --csv-infer-rows and --csv-type say); a glob ('data/*.parquet',
'logs/**/*.csv'); a directory (every such file below it); or - for the
standard input (an Arrow IPC stream or CSV, streamed). Several are read as
one table, their columns matched by name: a column a file lacks is null in
it, and types that differ meet at their common supertype. Directories named
key=value (Hive partitioning: year=2024/month=07/part-0.parquet) add columns
key, typed i64, date or utf8 from their values; a --where on them skips whole
files without opening them.
Of a Parquet file, the row groups whose statistics (minimum, maximum, null
count) prove that no row satisfies --where are not read at all; nor are
those whose bloom filters (colexpr demo --bloom-filter writes them) rule
out every value an = or IN of --where needs.

Examples:
  colexpr query --where "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07" --limit 5
  colexpr query --select "l_orderkey, l_extendedprice * (1 - l_discount) AS price" --format csv data.parquet
  colexpr query --stats --where "l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31'" lineitem.parquet
  colexpr query --stats --where "year = 2024 AND month <= 6" --select "count, year, month" 'sales/**/*.parquet'
  colexpr query --where "l_quantity < 24" -o small.parquet data/
  cat data.csv | colexpr query --select "a, b * 2 AS b2" -
  colexpr explain --substrait "l_quantity < 24" > filter.json && colexpr query --substrait filter.json --limit 5
  colexpr explain --substrait "l_orderkey, l_tax * 2 AS t" | colexpr query --substrait - --limit 5
  colexpr explain --substrait-plan --where "l_quantity < 24" --select "l_orderkey" data.parquet > plan.json && colexpr query --substrait plan.json
`,
	run: runQuery,
}

// queryOptions are the flags of query.
type queryOptions struct {
	where, selects, format string
	limit                  int64
	threads, batchSize     int
	demoRows               int64
	files                  []string
	// output is the file to write, "" for stdout.
	output string
	// stats prints the row groups read and skipped; noPrune reads them all.
	stats, noPrune bool
	// substrait is the file of a Substrait ExtendedExpression: the filter
	// or the select list (see readSubstrait).
	substrait string
	// csv says how a CSV file is read.
	csv csvFlags
	// bloom are the output columns to write bloom filters of (Parquet).
	bloom []string
}

func runQuery(e *env, args []string) error {
	var o queryOptions
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.StringVar(&o.where, "where", "", "")
	fs.StringVar(&o.selects, "select", "", "")
	fs.Int64Var(&o.limit, "limit", -1, "")
	fs.StringVar(&o.format, "format", "table", "")
	fs.IntVar(&o.threads, "threads", runtime.NumCPU(), "")
	fs.IntVar(&o.batchSize, "batch-size", scan.DefaultBatchSize, "")
	fs.Int64Var(&o.demoRows, "demo-rows", demo.DefaultRows, "")
	fs.BoolVar(&o.stats, "stats", false, "")
	fs.BoolVar(&o.noPrune, "no-prune", false, "")
	fs.StringVar(&o.substrait, "substrait", "", "")
	fs.StringVar(&o.output, "output", "", "")
	fs.StringVar(&o.output, "o", "", "")
	bloom := fs.String("bloom-filter", "", "")
	o.csv.register(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["substrait"] && o.substrait == "":
		return usagef("--substrait needs a FILE")
	case o.substrait != "" && o.where != "" && set["select"]:
		return usagef("--substrait FILE gives the filter or the select list, so it cannot be used with both --where and --select")
	case o.substrait == "-" && contains(pos, "-"):
		return usagef("--substrait - and FILE - cannot both read the standard input")
	case o.threads < 1:
		return usagef("--threads must be at least 1, got %d", o.threads)
	case o.batchSize < 1:
		return usagef("--batch-size must be at least 1, got %d", o.batchSize)
	case o.demoRows < 0:
		return usagef("--demo-rows must not be negative, got %d", o.demoRows)
	case set["limit"] && o.limit < 0:
		return usagef("--limit must not be negative, got %d", o.limit)
	}
	// An empty --where or --select is not taken for "every row" or "every
	// column": it is likely a mistake, such as an unset shell variable.
	if set["where"] && strings.TrimSpace(o.where) == "" {
		return errors.New("--where: the expression is empty")
	}
	if set["select"] && strings.TrimSpace(o.selects) == "" {
		return errors.New("--select: the list is empty")
	}
	if o.output != "" {
		f, ok := formatOfName(o.output)
		switch {
		case !set["format"] && !ok:
			return usagef("--output %s: the extension does not say which format to write; give --format (%s)", o.output, strings.Join(formats, ", "))
		case !set["format"]:
			o.format = f
		case ok && f != o.format && !(isArrowFormat(f) && isArrowFormat(o.format)):
			// Readers, colexpr's too, would take the name at its word
			// (.arrow names both IPC formats in the wild).
			return usagef("--output %s: the name says %s, but --format says %s", o.output, f, o.format)
		}
	}
	if (set["output"] || set["o"]) && o.output == "" {
		return usagef("--output needs a FILE")
	}
	if !contains(formats, o.format) {
		return usagef("unknown --format %q: use one of %s", o.format, strings.Join(formats, ", "))
	}
	if set["bloom-filter"] {
		if o.format != "parquet" {
			return usagef("--bloom-filter writes bloom filters into Parquet output: give -o FILE.parquet or --format parquet")
		}
		for _, c := range strings.Split(*bloom, ",") {
			if c = strings.TrimSpace(c); c == "" {
				return usagef("--bloom-filter %q: a column name is empty", *bloom)
			}
			o.bloom = append(o.bloom, c)
		}
	}
	o.files = pos
	return query(e, memory.DefaultAllocator, o)
}

// isArrowFormat reports whether format is one of the Arrow IPC formats.
func isArrowFormat(format string) bool { return format == "arrow" || format == "feather" }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseFlags parses flags and positional arguments in any order; after
// "--" everything is positional.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(discard{})
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usagef("%s", doubleDash(err.Error()))
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return append(pos, rest...), nil
}

// flagNameRE matches a flag's name in package flag's messages ("flag
// provided but not defined: -wher", "invalid value "x" for flag -limit").
var flagNameRE = regexp.MustCompile(`(defined: |for flag |for |argument: )-([A-Za-z])`)

// doubleDash spells flag names in package flag's messages with two dashes,
// as the usage texts do: --limit, not -limit.
func doubleDash(msg string) string { return flagNameRE.ReplaceAllString(msg, "$1--$2") }

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func query(e *env, mem memory.Allocator, o queryOptions) error {
	var msg proto.Message
	if o.substrait != "" {
		var err error
		if msg, err = loadSubstrait(o.substrait, e.stdin); err != nil {
			return err
		}
	}
	var src *scan.Source
	var q scan.Query
	if plan, ok := msg.(*pb.Plan); ok {
		// A plan is the whole query: its read, filter and project.
		if o.where != "" || o.selects != "" {
			return fmt.Errorf("--substrait %s holds a Substrait plan, which has its own filter and select list: give neither --where nor --select with it", o.substrait)
		}
		var err error
		if src, q, err = openSubstraitPlan(e, mem, plan, o); err != nil {
			return err
		}
	} else {
		var err error
		if src, err = openInputs(e, mem, o.files, o.demoRows, &o.csv); err != nil {
			return err
		}
		if q, err = queryOf(o.where, o.selects); err != nil {
			src.Close()
			return err
		}
	}
	defer src.Close()

	opts := scan.Options{Threads: o.threads, BatchSize: o.batchSize, NoPrune: o.noPrune}
	if ext, ok := msg.(*pb.ExtendedExpression); ok {
		// The message binds by name against the whole schema: of a
		// dataset, every file's.
		if err := src.Resolve(); err != nil {
			return err
		}
		sub, err := readSubstrait(o.substrait, ext, src.Schema(), o.where != "", o.selects != "")
		if err != nil {
			return err
		}
		if sub.filter {
			q.Where = &sub.exprs[0]
		} else {
			q.Select = sub.exprs
		}
	}
	plan, err := scan.Compile(src, q, opts)
	if err != nil {
		return err
	}
	if q.Select == nil {
		warnLeftOut(e, plan.Input())
	}
	ctx := context.Background()
	w := e.stdout
	var file *scan.AtomicFile
	var buf *bufio.Writer
	if o.output != "" {
		// Written to a temporary file, renamed into place once complete;
		// an error or an interrupt removes it.
		if file, err = scan.CreateAtomic(o.output); err != nil {
			return err
		}
		defer file.Abort()
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		go func() {
			// On an interrupt, the temporary file goes at once, though the
			// scan may be blocked reading a pipe; the scan is cancelled,
			// and a second interrupt kills the process as usual. (On
			// return, after Commit, Abort does nothing.)
			<-ctx.Done()
			file.Abort()
			stop()
		}()
		buf = bufio.NewWriterSize(file, 1<<20)
		w = buf
	}
	out, err := newSink(o.format, w, plan.Schema(), mem, o.bloom)
	if err != nil {
		return err
	}
	if o.limit == 0 {
		return finishOutput(out, buf, file)
	}
	rr, err := plan.Read(ctx)
	if err != nil {
		out.abort()
		return err
	}
	var progressTo = e.stderr
	if !e.isTerminal {
		progressTo = nil
	}
	prog := startScanProgress(progressTo, rr)
	err = copyRows(rr, out, o.limit)
	stats := rr.Stats()
	rr.Release()
	prog.finish()
	if err == nil {
		err = finishOutput(out, buf, file)
	} else {
		out.abort()
	}
	// After the output is complete (a table is held back until its
	// widths are known), so that on a terminal the report comes last.
	if o.stats {
		fmt.Fprint(e.stderr, statsReport(stats, src.Name()))
	}
	if err != nil {
		if errors.Is(err, scan.ErrInternal) {
			return err
		}
		err = csvHint(err)
		if file != nil {
			return fmt.Errorf("%w\n%s was not written", err, o.output)
		}
		if n := out.written(); n > 0 {
			return fmt.Errorf("%w\nerror after %s rows: the output is incomplete", err, thousands(n))
		}
		return err
	}
	return nil
}

// queryOf is the query of --where and --select (either may be empty).
func queryOf(where, selects string) (scan.Query, error) {
	var q scan.Query
	if where != "" {
		q.Where = &scan.Expr{Text: where, What: "--where"}
	}
	if selects != "" {
		items, err := scan.SplitSelect(selects)
		if err != nil {
			return q, fmt.Errorf("--select: %w", err)
		}
		for i := range items {
			items[i].What = itemWhat(len(items), i, "--select", "--select ")
		}
		q.Select = items
	}
	return q, nil
}

// finishOutput ends the output: the sink's end, and of a file, its buffer
// flushed and the file renamed into place.
func finishOutput(out sink, buf *bufio.Writer, file *scan.AtomicFile) error {
	if err := out.finish(); err != nil {
		return err
	}
	if file == nil {
		return nil
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("%s: %w", file.Name(), err)
	}
	return file.Commit()
}

// copyRows writes the batches of rr to out, up to limit rows (-1: all).
func copyRows(rr *scan.Reader, out sink, limit int64) error {
	// sent counts the rows handed to the sink. The limit is checked
	// against it, not against out.written(): a sink may hold rows back
	// (the table waits for enough rows to size its columns), and those
	// count towards the limit too.
	var sent int64
	for rr.Next() {
		c, err := out.encode(rr.RecordBatch())
		if err != nil {
			return err
		}
		n := c.rows()
		if limit >= 0 {
			n = int(min(int64(n), limit-sent))
		}
		err = out.write(c, n)
		c.release()
		sent += int64(n)
		if err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
		if limit >= 0 && sent >= limit {
			return nil
		}
	}
	return rr.Err()
}

// warnLeftOut notes on stderr each column of the input a query of every
// column leaves out, and why.
func warnLeftOut(e *env, sch *colexpr.Schema) {
	warned := map[string]bool{}
	for _, f := range sch.Arrow.Fields() {
		if why, bad := sch.LeftOut[f.Name]; bad && !warned[f.Name] {
			fmt.Fprintf(e.stderr, "colexpr query: leaving out column %s: %s\n", dtype.QuoteFieldName(f.Name), why)
			warned[f.Name] = true
		}
	}
}

// statsReport is what --stats prints.
func statsReport(s scan.Stats, name string) string {
	r := ""
	if s.Files > 0 {
		r = fmt.Sprintf("files: read %d, skipped %d of %d", s.FilesRead, s.FilesSkipped, s.Files)
		if s.FilesSkipped > 0 {
			r += " (by their partition values)"
		}
		r += "\n"
		switch {
		case s.RowGroups < 0 && s.FilesRead == 0:
			return r + "row groups: none (no file is read)\n"
		case s.RowGroups < 0:
			return r + "row groups: none (no file read is a Parquet file)\n"
		}
	} else if s.RowGroups < 0 {
		return fmt.Sprintf("row groups: none (%s is not a Parquet file)\n", name)
	}
	r += fmt.Sprintf("row groups: read %d, skipped %d of %d (%s bytes of column chunks)", s.RowGroupsRead, s.RowGroupsSkipped, s.RowGroups, thousands(s.Bytes))
	if s.BloomFilters > 0 {
		r += fmt.Sprintf("; skipped by min/max %d, by bloom filters %d (%d filters read)", s.RowGroupsSkipped-s.RowGroupsSkippedBloom, s.RowGroupsSkippedBloom, s.BloomFilters)
	}
	if s.RowGroupsWhole > 0 {
		r += fmt.Sprintf("; %d taken whole, without evaluating the filter", s.RowGroupsWhole)
	}
	r += "\n"
	if s.PageGroups > 0 {
		groups := "1 row group"
		if s.PageGroups > 1 {
			groups = fmt.Sprintf("%d row groups", s.PageGroups)
		}
		r += fmt.Sprintf("pages: read %d, skipped %d of %d in %s narrowed by the page index (%s bytes not read)\n",
			s.Pages-s.PagesSkipped, s.PagesSkipped, s.Pages, groups, thousands(s.BytesSkippedPages))
	}
	if s.PruneNote != "" {
		r += "row groups: not pruned: " + s.PruneNote + "\n"
	}
	if s.BloomNote != "" {
		r += "row groups: a bloom filter not used: " + s.BloomNote + "\n"
	}
	if s.PageNote != "" {
		r += "pages: a page index not used: " + s.PageNote + "\n"
	}
	return r
}

// itemWhat names item i of a list of n in messages: whole when the list
// has one item, else prefix + "item N" (counting from 1).
func itemWhat(n, i int, whole, prefix string) string {
	if n == 1 {
		return whole
	}
	return fmt.Sprintf("%sitem %d", prefix, i+1)
}
