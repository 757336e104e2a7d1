package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/partition"
)

var queryCommand = &command{
	name:     "query",
	synopsis: "query [--where EXPR] [--select LIST] [--substrait FILE.json] [flags] [FILE]",
	summary:  "print the rows where EXPR is true, as the LIST expressions",
	usage: `Usage: colexpr query [flags] [FILE]

Prints the rows of FILE (or of the demo table) where --where is true, as
the --select expressions; either can come from a Substrait file instead.

  --where EXPR        keep the rows where EXPR is true (not false or null)
  --select LIST       comma-separated expressions, each optionally "AS name";
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
  --limit N           print the first N rows, then stop reading; 0 prints only
                      the header (default: no limit)
  --format FORMAT     table (default), csv, jsonl or arrow (an Arrow IPC stream)
  --threads N         evaluate batches on N goroutines (default: the number of CPUs)
  --batch-size N      rows per batch (default 32768)
  --demo-rows N       rows of the demo table when there is no FILE (default 1000000)
  --stats             print to stderr how many Parquet row groups were read and
                      how many were skipped by their statistics
  --no-prune          read every row group, whatever their statistics say

FILE is a .parquet, .arrow/.feather (Arrow IPC file), .arrows (Arrow IPC
stream) or .csv file (a header row; types inferred from the first 1000 rows).
Of a Parquet file, the row groups whose statistics (minimum, maximum, null
count) prove that no row satisfies --where are not read at all.

Examples:
  colexpr query --where "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07" --limit 5
  colexpr query --select "l_orderkey, l_extendedprice * (1 - l_discount) AS price" --format csv data.parquet
  colexpr query --stats --where "l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31'" lineitem.parquet
  colexpr explain --substrait "l_quantity < 24" > filter.json && colexpr query --substrait filter.json --limit 5
  colexpr explain --substrait "l_orderkey, l_tax * 2 AS t" | colexpr query --substrait - --limit 5
`,
	run: runQuery,
}

// defaultBatchSize is the rows per batch of a scan. Larger batches cost
// memory (several are in flight: one per thread, one ahead, and the
// reader's) for no gain in speed; much smaller ones cost time per batch.
const defaultBatchSize = 32 * 1024

// queryOptions are the flags of query.
type queryOptions struct {
	where, selects, format string
	limit                  int64
	threads, batchSize     int
	demoRows               int64
	file                   string
	// stats prints the row groups read and skipped; noPrune reads them all.
	stats, noPrune bool
	// substrait is the file of a Substrait ExtendedExpression: the filter
	// or the select list (see readSubstrait).
	substrait string
}

func runQuery(e *env, args []string) error {
	var o queryOptions
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.StringVar(&o.where, "where", "", "")
	fs.StringVar(&o.selects, "select", "", "")
	fs.Int64Var(&o.limit, "limit", -1, "")
	fs.StringVar(&o.format, "format", "table", "")
	fs.IntVar(&o.threads, "threads", runtime.NumCPU(), "")
	fs.IntVar(&o.batchSize, "batch-size", defaultBatchSize, "")
	fs.Int64Var(&o.demoRows, "demo-rows", demo.DefaultRows, "")
	fs.BoolVar(&o.stats, "stats", false, "")
	fs.BoolVar(&o.noPrune, "no-prune", false, "")
	fs.StringVar(&o.substrait, "substrait", "", "")
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
	case len(pos) > 1:
		return usagef("one FILE at most, got %d: %s", len(pos), strings.Join(pos, " "))
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
	if !contains(formats, o.format) {
		return usagef("unknown --format %q: use one of %s", o.format, strings.Join(formats, ", "))
	}
	if len(pos) == 1 {
		o.file = pos[0]
	}
	return query(e, memory.DefaultAllocator, o)
}

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
			return nil, usagef("%v", err)
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

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// queryPlan is a compiled query.
type queryPlan struct {
	name  string
	where *expr.Bound // nil: every row
	// whereWhat names the filter in messages.
	whereWhat string
	selects   []*expr.Bound // nil: every column of the scan, as read
	what      []string      // how messages name each select item
	out       *arrow.Schema
	fields    []int // the input's fields to read
	mem       memory.Allocator
	sink      sink
	// rows maps the rows read to the rows of the file, when row groups
	// were skipped (nil: they are the same).
	rows *rowMap
}

func query(e *env, mem memory.Allocator, o queryOptions) error {
	src, err := openSource(mem, o.file, o.demoRows)
	if err != nil {
		return err
	}
	defer src.close()
	full := newSchemaScope(src.schema)
	opt := optimize.New()

	var items []selectItem
	if o.selects != "" {
		if items, err = splitSelect(o.selects); err != nil {
			return err
		}
	}

	// The filter and the select list, from the text of --where and
	// --select or from the --substrait file, compiled against a scope.
	var sub *substraitFile
	if o.substrait != "" {
		if sub, err = readSubstrait(o.substrait, e.stdin, full, o.where != "", o.selects != ""); err != nil {
			return err
		}
		if !sub.filter {
			items = make([]selectItem, len(sub.names))
			for i, n := range sub.names {
				items[i] = selectItem{name: n}
			}
		}
	}
	hasWhere := o.where != "" || sub != nil && sub.filter
	compileWhere := func(s *schemaScope) (*stages, error) {
		if sub != nil && sub.filter {
			sts, err := sub.stages(s, opt)
			if err != nil {
				return nil, err
			}
			return sts[0], nil
		}
		return compile(o.where, "--where", s, opt)
	}
	compileSelects := func(s *schemaScope) ([]*stages, error) {
		if sub != nil && !sub.filter {
			return sub.stages(s, opt)
		}
		sts := make([]*stages, len(items))
		for i, it := range items {
			st, err := compile(it.src, itemWhat(items, i, "--select", "--select "), s, opt)
			if err != nil {
				return nil, err
			}
			sts[i] = st
		}
		return sts, nil
	}
	whatSelect := func(i int) string {
		if sub != nil && !sub.filter {
			return sub.what(i)
		}
		return itemWhat(items, i, "--select", "--select ")
	}

	// Compile against the whole schema first: errors then speak of the
	// file's columns, and the trees say which columns to read.
	var where *stages
	if hasWhere {
		if where, err = compileWhere(full); err != nil {
			return err
		}
		if t := where.optimized.DType(); !t.IsBool() {
			return fmt.Errorf("--where: the expression has type %s; it must be a bool", t)
		}
	}
	sels, err := compileSelects(full)
	if err != nil {
		return err
	}

	// The fields to read, in schema order.
	var fields []int
	warned := map[string]bool{}
	if items == nil {
		for i, f := range src.schema.Fields() {
			if why, bad := full.unsupported[f.Name]; bad {
				if !warned[f.Name] {
					fmt.Fprintf(e.stderr, "colexpr query: leaving out column %s: %s\n", dtype.QuoteFieldName(f.Name), why)
					warned[f.Name] = true
				}
				continue
			}
			fields = append(fields, i)
		}
	} else {
		used := map[string]bool{}
		all := false
		collect := func(b *expr.Bound) {
			for _, p := range partition.ReferencedFields(b) {
				if len(p) == 0 {
					all = true
				} else {
					used[p[0]] = true
				}
			}
		}
		if where != nil {
			collect(where.optimized)
		}
		for _, s := range sels {
			collect(s.optimized)
		}
		for i, f := range src.schema.Fields() {
			if _, bad := full.unsupported[f.Name]; bad {
				continue
			}
			if all || used[f.Name] {
				fields = append(fields, i)
			}
		}
		if len(fields) == 0 && len(full.root.Fields()) > 0 {
			// Nothing is read, but the rows still have to be counted.
			fields = []int{src.schema.FieldIndices(full.root.Fields()[0].Name)[0]}
		}
	}
	if len(fields) == 0 {
		return fmt.Errorf("%s has no column colexpr can read", src.name)
	}

	// Compile again against the columns read: the trees evaluate against
	// record batches of exactly those columns.
	fs := make([]arrow.Field, len(fields))
	for i, f := range fields {
		fs[i] = src.schema.Field(f)
	}
	scanSchema := arrow.NewSchema(fs, nil)
	pruned := newSchemaScope(scanSchema)
	plan := &queryPlan{name: src.name, fields: fields, mem: mem}
	if where != nil {
		st, err := compileWhere(pruned)
		if err != nil {
			return err
		}
		plan.where = st.optimized
		plan.whereWhat = "--where"
		if sub != nil && sub.filter {
			plan.whereWhat = sub.what(0)
		}
	}
	if items == nil {
		plan.out = scanSchema
	} else {
		sts, err := compileSelects(pruned)
		if err != nil {
			return err
		}
		out := make([]arrow.Field, len(items))
		for i, it := range items {
			plan.selects = append(plan.selects, sts[i].optimized)
			plan.what = append(plan.what, whatSelect(i))
			out[i] = dtype.ToArrowField(it.name, sts[i].optimized.DType())
		}
		plan.out = arrow.NewSchema(out, nil)
	}
	if plan.sink, err = newSink(o.format, e.stdout, plan.out, mem); err != nil {
		return err
	}

	groups := planRowGroups(src, where, full, o.noPrune, mem)
	plan.rows = groups.rows
	scan, err := src.open(scanSpec{fields: fields, batchSize: o.batchSize, threads: o.threads, groups: groups.read})
	if err != nil {
		return err
	}
	var progressTo = e.stderr
	if !e.isTerminal {
		progressTo = nil
	}
	prog := startProgress(progressTo, scan.Progress)
	p := &pipeline{
		scan:      scan,
		name:      src.name,
		threads:   o.threads,
		batchSize: o.batchSize,
		process:   plan.process,
		out:       plan.sink,
		limit:     o.limit,
		prog:      prog,
	}
	err = p.run()
	prog.finish()
	if err == nil {
		err = plan.sink.finish()
	}
	// After the output is complete (a table is held back until its
	// widths are known), so that on a terminal the report comes last.
	if o.stats {
		fmt.Fprint(e.stderr, groups.report(src.name))
	}
	if err != nil {
		var ie *internalError
		if errors.As(err, &ie) {
			return err
		}
		if n := plan.sink.written(); n > 0 {
			return fmt.Errorf("%w\nerror after %s rows: the output is incomplete", err, thousands(n))
		}
		return err
	}
	return nil
}

// process filters and projects one batch and encodes the result.
func (q *queryPlan) process(b batch) (chunk, error) {
	rec := b.rec
	if q.where != nil {
		filtered, err := eval.Filter(q.mem, q.where, rec)
		if err != nil {
			return nil, q.rowError(err, b, q.whereWhat, nil)
		}
		defer filtered.Release()
		rec = filtered
	}
	if q.selects == nil {
		if rec.Schema() != q.out {
			rec = array.NewRecordBatch(q.out, rec.Columns(), rec.NumRows())
			defer rec.Release()
		}
		return q.sink.encode(rec)
	}
	cols := make([]arrow.Array, len(q.selects))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, s := range q.selects {
		col, err := eval.EvalRecord(q.mem, s, rec)
		if err != nil {
			return nil, q.rowError(err, b, q.what[i], func(row int) int { return q.unfilter(b.rec, row) })
		}
		cols[i] = col
		if want := q.out.Field(i).Type; !arrow.TypeEqual(col.DataType(), want) {
			return nil, fmt.Errorf("%s: the result has Arrow type %s, the schema says %s", q.what[i], col.DataType(), want)
		}
	}
	out := array.NewRecordBatch(q.out, cols, rec.NumRows())
	defer out.Release()
	return q.sink.encode(out)
}

// unfilter maps a row of the filtered batch back to the row of rec it came
// from (or -1), by evaluating the filter again: only errors need it.
func (q *queryPlan) unfilter(rec arrow.RecordBatch, row int) int {
	if q.where == nil {
		return row
	}
	mask, err := eval.EvalRecord(q.mem, q.where, rec)
	if err != nil {
		return -1
	}
	defer mask.Release()
	m, ok := mask.(*array.Boolean)
	if !ok {
		return -1
	}
	for i := 0; i < m.Len(); i++ {
		if m.IsValid(i) && m.Value(i) {
			if row == 0 {
				return i
			}
			row--
		}
	}
	return -1
}

// rowError names the row of the input a runtime error happened at,
// counting from 1. mapRow maps a row of the evaluated batch to a row of
// b.rec (nil when they are the same).
func (q *queryPlan) rowError(err error, b batch, what string, mapRow func(int) int) error {
	var ee *eval.Error
	if errors.As(err, &ee) && ee.Row >= 0 {
		row := ee.Row
		if mapRow != nil {
			row = mapRow(row)
		}
		cause := ee.Err
		var fe *fn.EvalError
		msg := cause.Error()
		if errors.As(cause, &fe) {
			msg = fe.Fn + ": " + fe.Err.Error()
		}
		if row >= 0 {
			return fmt.Errorf("%s: row %d: %s (in `%s`, %s)", q.name, q.rows.file(b.offset+int64(row))+1, msg, ee.Expr, what)
		}
	}
	return fmt.Errorf("%s: rows %d to %d: %s: %w", q.name, q.rows.file(b.offset)+1, q.rows.file(b.offset+b.rec.NumRows()-1)+1, what, err)
}
