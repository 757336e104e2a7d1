package scan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/substrait"
)

// DemoTable is the name a plan over the demo table reads it by (a
// Substrait named table): the demo table is TPC-H's lineitem.
const DemoTable = "lineitem"

// Substrait is the compiled query as a Substrait plan (package substrait,
// "Plans"): a read of the source's files — Parquet, Arrow IPC or CSV, with
// the source's schema as the base schema and the columns the scan reads as
// its projection — whose best-effort filter is the part of the filter the
// row-group falsifier can use, then a filter of the optimized filter, then
// a project of the optimized select list under the output names. Of the
// demo table it reads the named table "lineitem" (DemoTable).
//
// A plan says what to read by file; the standard input has no file and is
// refused, as are a dataset's Hive partition columns (a Substrait read of
// local files has no partition values).
func (p *Plan) Substrait() (*pb.Plan, error) {
	var q substrait.PlanQuery
	src := p.src
	switch {
	case p.ds != nil:
		if len(p.ds.ds.hive) > 0 {
			return nil, fmt.Errorf("a Substrait plan reads files, not Hive partitions: the partition columns (%s) have no place in it; read the files with their partition directories as plain ones (DatasetOptions.NoHive, --no-hive)", describeKeys(hiveNames(p.ds.ds.hive)))
		}
		read, _ := p.Files()
		for _, path := range read {
			f, err := planFile(path)
			if err != nil {
				return nil, err
			}
			q.Files = append(q.Files, f)
		}
		if len(q.Files) == 0 {
			// Every file was ruled out: the plan still names one, and its
			// filter is false.
			f, err := planFile(p.ds.ds.files[0].path)
			if err != nil {
				return nil, err
			}
			q.Files = []substrait.File{f}
		}
	case src.name == Demo(nil, 0).name:
		q.Table = []string{DemoTable}
	case src.size == 0 && src.rowGroups == nil && isStream(src):
		return nil, fmt.Errorf("%s is a stream, not a file: a Substrait plan reads files by name", src.name)
	default:
		f, err := planFile(src.name)
		if err != nil {
			return nil, err
		}
		q.Files = []substrait.File{f}
	}
	scope := p.Input().Scope()
	if p.Where != nil {
		q.Where = p.Where.Bound()
		q.BestEffortFilter = p.prunable(scope)
	}
	if p.Selects != nil {
		for i, s := range p.Selects {
			q.Select = append(q.Select, substrait.Named{Name: p.out.Field(i).Name, Expr: s.Bound()})
		}
	}
	return substrait.ExportPlan(scope, q)
}

// isStream reports whether src was opened from a stream (OpenStream)
// rather than a file: its name is not a file's.
func isStream(src *Source) bool {
	st, err := os.Stat(src.name)
	return err != nil || !st.Mode().IsRegular()
}

func hiveNames(cols []hiveColumn) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return names
}

// planFile is the file at path with its format, told from its bytes.
func planFile(path string) (substrait.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return substrait.File{}, err
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return substrait.File{}, fmt.Errorf("%s: %w", path, err)
	}
	out := substrait.File{Path: path}
	switch Sniff(head[:n]) {
	case FormatParquet:
		out.Format = substrait.Parquet
	case FormatIPCFile, FormatIPCStream:
		out.Format = substrait.Arrow
	default:
		out.Format = substrait.CSV
	}
	return out, nil
}

// prunable is the part of the filter the row-group falsifier can use: its
// top-level conjuncts whose falsifier is not always inconclusive, ANDed;
// nil when there is none. Pruning is off with NoPrune, and then there is
// none either.
func (p *Plan) prunable(scope expr.Scope) *expr.Bound {
	if p.opts.NoPrune || p.Where == nil {
		return nil
	}
	var keep *expr.Bound
	for _, c := range partition.Conjuncts(p.Where.Bound()) {
		f, err := prune.Falsifier(c, scope)
		if err != nil || f.Inconclusive() {
			continue
		}
		if keep == nil {
			keep = c
		} else if and, err := expr.NewCall(fn.And, keep, c); err == nil {
			keep = and
		}
	}
	return keep
}

// SubstraitQuery imports a Substrait plan (a read, a filter, a project:
// package substrait's ImportPlan) against s, the schema of the input it
// reads, and compiles its filter and select list with the options o (nil:
// the defaults) into the Query that Compile plans.
func SubstraitQuery(s *colexpr.Schema, msg *pb.Plan, o *colexpr.Options) (Query, error) {
	pq, err := substrait.ImportPlan(msg, s.Scope())
	if err != nil {
		return Query{}, err
	}
	var q Query
	if pq.Where != nil {
		prog, err := s.CompileBound(pq.Where, o)
		if err != nil {
			return Query{}, fmt.Errorf("the plan's filter: %w", err)
		}
		q.Where = &Expr{Program: prog, What: "the plan's filter"}
	}
	for i, n := range pq.Select {
		prog, err := s.CompileBound(n.Expr, o)
		if err != nil {
			return Query{}, fmt.Errorf("the plan's output column %d (%s): %w", i+1, dtype.QuoteFieldName(n.Name), err)
		}
		q.Select = append(q.Select, Expr{Program: prog, Name: n.Name, What: fmt.Sprintf("the plan's output column %d (%s)", i+1, dtype.QuoteFieldName(n.Name))})
	}
	return q, nil
}

// OpenPlan opens the input of a Substrait plan and imports the query it
// computes: the plan's local files, or files, the paths given (which a
// plan of a named table needs, and which replace a plan's own files).
// Files are read as one table by name (OpenDataset, without Hive
// partitions: the plan's base schema names its columns), a CSV file with
// the base schema's types. A file the plan names must be in the format
// it says. The caller closes the source, and compiles the query:
//
//	src, q, err := scan.OpenPlan(mem, msg, nil, scan.DatasetOptions{})
//	defer src.Close()
//	plan, err := scan.Compile(src, q, scan.Options{})
func OpenPlan(mem memory.Allocator, msg *pb.Plan, files []string, o DatasetOptions) (*Source, Query, error) {
	r, err := substrait.ReadOf(msg)
	if err != nil {
		return nil, Query{}, err
	}
	paths := files
	if len(paths) == 0 {
		if r.Table != nil {
			return nil, Query{}, fmt.Errorf("the plan reads the named table %s: give the file to read as it", strings.Join(r.Table, "."))
		}
		for _, f := range r.Files {
			got, err := planFile(f.Path)
			if err != nil {
				return nil, Query{}, fmt.Errorf("the plan's file: %w", err)
			}
			if got.Format != f.Format {
				return nil, Query{}, fmt.Errorf("the plan reads %s as %s, but the file is %s", f.Path, f.Format, got.Format)
			}
			paths = append(paths, f.Path)
		}
	}
	// A CSV file is read with the types the plan gives its columns.
	if o.CSV.Types == nil {
		o.CSV.Types = map[string]arrow.DataType{}
		for _, f := range r.Schema.Fields() {
			o.CSV.Types[f.Name] = dtype.ToArrow(f.Type)
		}
		o.CSV.partialTypes = true
	}
	o.NoHive = true
	src, err := OpenDataset(mem, paths, o)
	if err != nil {
		return nil, Query{}, err
	}
	if err := src.Resolve(); err != nil {
		src.Close()
		return nil, Query{}, err
	}
	q, err := SubstraitQuery(src.Schema(), msg, nil)
	if err != nil {
		src.Close()
		return nil, Query{}, err
	}
	return src, q, nil
}
