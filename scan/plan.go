package scan

import (
	"fmt"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/prune"
)

// Expr is one expression of a query — the filter or a select item — given
// in one of three forms: Text (parsed), Tree (an unbound tree) or Program
// (compiled against the source's Schema, such as an import from Substrait).
// Exactly one is set.
type Expr struct {
	Text    string
	Tree    expr.Expr
	Program *colexpr.Program
	// Name is a select item's output column: by default its Text, or the
	// text of its tree. Two select items of one name are an error: Compile
	// does not rename, so a program gets the columns it named or an error.
	// (The colexpr command renames a later one a_1, a_2, … as DuckDB does,
	// before it calls Compile.)
	Name string
	// What names the expression in error messages ("--where", "--select
	// item 2"); by default "the filter" or "select item N".
	What string
}

// Query is what a scan computes: the rows where Where is true, as the
// Select expressions.
type Query struct {
	// Where keeps the rows where it is true (not false, not null); nil
	// keeps every row.
	Where *Expr
	// Select are the output columns; nil outputs every column of the
	// source colexpr can read, as read.
	Select []Expr
}

// Options tune a scan. The zero value is the default.
type Options struct {
	// Threads is how many goroutines filter and project batches (and
	// decode Parquet); 0 is runtime.NumCPU().
	Threads int
	// BatchSize is the most rows an output batch holds; 0 is
	// DefaultBatchSize.
	BatchSize int
	// NoPrune reads every row group, whatever the statistics say.
	NoPrune bool
	// Optimizer rewrites the expressions; nil is optimize.New().
	Optimizer *optimize.Optimizer
	// Now is the instant now(), current_timestamp, today() and
	// current_date stand for in the query's text; zero means the time
	// Compile is called. The filter, every select item and the partition
	// filter of a dataset share it, as a DuckDB query shares its
	// transaction's.
	Now time.Time
}

// DefaultBatchSize is the rows per batch of a scan. Larger batches cost
// memory (several are in flight: one per thread, one ahead, and the
// reader's) for no gain in speed; much smaller ones cost time per batch.
const DefaultBatchSize = 32 * 1024

// Plan is a compiled query over a source: the expressions compiled once
// against the source's whole schema, the columns to read taken from the
// optimized trees, the trees moved onto those columns, and the row groups
// to read. Plans are immutable; Read starts a scan.
type Plan struct {
	src  *Source
	opts Options

	// Where is the compiled filter (nil: every row); Selects the compiled
	// select items (nil: every column). Both are bound against the
	// source's whole schema, as explain shows them.
	Where   *colexpr.Program
	Selects []*colexpr.Program

	whereWhat  string
	selectWhat []string

	// fields are the indices of the Arrow schema's top-level fields to
	// read, in schema order; read is their struct, the root the trees
	// below are bound against.
	fields []int
	read   dtype.DType
	// where and selects are the optimized trees over read, prepared for
	// evaluation once. where is nil
	// when every row passes; none is set when no row can.
	where   *eval.Prepared
	selects []*eval.Prepared
	none    bool
	out     *arrow.Schema

	// pruner is the filter's falsifier, or pruneErr why there is none;
	// verifier proves instead that every row of a row group passes.
	pruner   *prune.Pruner
	pruneErr error
	verifier *prune.Pruner
	groups   rowGroupPlan
	// ds says how a dataset's files are read; nil for one source.
	ds *datasetPlan
}

// Compile compiles q against the source's schema and plans its scan.
// Errors name the expression (Expr.What) and say what is wrong with it.
//
// Of a dataset (OpenDataset), the files whose partition values rule out
// every row are left out before they are opened; the query is compiled
// against the unified schema of the files it reads (see the package doc).
func Compile(src *Source, q Query, o Options) (*Plan, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if src.ds != nil {
		return compileDataset(src, q, o)
	}
	return compile(src, q, o)
}

// compile is Compile of one source.
func compile(src *Source, q Query, o Options) (*Plan, error) {
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	p := &Plan{src: src, opts: o}
	sch := src.Schema()
	copts := &colexpr.Options{Optimizer: o.Optimizer, Now: o.Now}

	if q.Where != nil {
		p.whereWhat = q.Where.What
		if p.whereWhat == "" {
			p.whereWhat = "the filter"
		}
		prog, err := compileExpr(sch, q.Where, copts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.whereWhat, err)
		}
		if t := prog.DType(); !t.IsBool() {
			return nil, fmt.Errorf("%s: the expression has type %s; it must be a bool", p.whereWhat, t)
		}
		p.Where = prog
	}
	names := make([]string, len(q.Select))
	seen := map[string]int{}
	for i := range q.Select {
		it := &q.Select[i]
		what := it.What
		if what == "" {
			what = fmt.Sprintf("select item %d", i+1)
		}
		prog, err := compileExpr(sch, it, copts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		names[i] = it.Name
		if names[i] == "" {
			names[i] = it.Text
		}
		if names[i] == "" {
			names[i] = prog.Stages().Bound.String()
		}
		if j, dup := seen[names[i]]; dup {
			return nil, fmt.Errorf("select items %d and %d are both named %q; the output columns need distinct names", j+1, i+1, names[i])
		}
		seen[names[i]] = i
		p.Selects = append(p.Selects, prog)
		p.selectWhat = append(p.selectWhat, what)
	}

	p.chooseColumns(q.Select == nil)
	if len(p.fields) == 0 && src.rowGroups == nil && len(sch.Root.Fields()) > 0 {
		// Nothing is read, but the rows still have to be counted, and
		// only a Parquet footer counts them without reading a column.
		p.fields = []int{sch.Arrow.FieldIndices(sch.Root.Fields()[0].Name)[0]}
	}
	if len(p.fields) == 0 && src.rowGroups == nil {
		return nil, fmt.Errorf("%s has no column colexpr can read", src.name)
	}
	var fs []dtype.Field
	afs := make([]arrow.Field, len(p.fields))
	for i, f := range p.fields {
		af := sch.Arrow.Field(f)
		afs[i] = af
		fs = append(fs, sch.Root.Fields()[sch.Root.FieldIndex(af.Name)])
	}
	p.read = dtype.Struct(fs, false)

	// Move the optimized trees onto the columns read: the same trees,
	// never parsed or bound again.
	if p.Where != nil {
		w := p.Where.Bound()
		if v, ok := w.Literal(); ok {
			if v.IsNull() || v.Value() == false {
				p.none = true
			}
		} else {
			rebased, err := expr.ReplaceRoot(w, p.read)
			if err != nil {
				return nil, fmt.Errorf("%s: moving the filter onto the columns read: %w", p.whereWhat, err)
			}
			if p.where, err = eval.Prepare(rebased); err != nil {
				return nil, fmt.Errorf("%s: %w", p.whereWhat, err)
			}
		}
	}
	if q.Select == nil {
		p.out = arrow.NewSchema(afs, nil)
	} else {
		out := make([]arrow.Field, len(p.Selects))
		for i, prog := range p.Selects {
			rebased, err := expr.ReplaceRoot(prog.Bound(), p.read)
			if err != nil {
				return nil, fmt.Errorf("%s: moving the expression onto the columns read: %w", p.selectWhat[i], err)
			}
			prepared, err := eval.Prepare(rebased)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.selectWhat[i], err)
			}
			p.selects = append(p.selects, prepared)
			out[i] = dtype.ToArrowField(names[i], rebased.DType())
		}
		p.out = arrow.NewSchema(out, nil)
	}
	p.planRowGroups()
	return p, nil
}

// compileExpr compiles one expression of a query against s.
func compileExpr(s *colexpr.Schema, e *Expr, o *colexpr.Options) (*colexpr.Program, error) {
	switch {
	case e.Program != nil:
		return e.Program, nil
	case e.Tree != nil:
		return s.CompileExpr(e.Tree, o)
	}
	return s.Compile(e.Text, o)
}

// chooseColumns sets the fields to read: every column colexpr can read for
// a query without a select list, else those the optimized trees use.
func (p *Plan) chooseColumns(all bool) {
	sch := p.src.Schema()
	used := map[string]bool{}
	collect := func(b *expr.Bound) {
		for _, path := range partition.ReferencedFields(b) {
			if len(path) == 0 {
				all = true
			} else {
				used[path[0]] = true
			}
		}
	}
	if p.Where != nil {
		collect(p.Where.Bound())
	}
	for _, s := range p.Selects {
		collect(s.Bound())
	}
	for i, f := range sch.Arrow.Fields() {
		if _, bad := sch.LeftOut[f.Name]; bad {
			continue
		}
		if all || used[f.Name] {
			p.fields = append(p.fields, i)
		}
	}
}

// Source is the input the plan scans. Of a dataset, it is a view of the
// files the plan reads, whose Schema is theirs unified.
func (p *Plan) Source() *Source { return p.src }

// Input is the schema the plan's expressions are compiled against: the
// source's, or, of a dataset, that of the files the plan reads.
func (p *Plan) Input() *colexpr.Schema { return p.src.Schema() }

// Files says which files of a dataset the scan reads, by their paths, and
// how many the dataset has; the others were ruled out by their partition
// values. Of another source it is nil and 0.
func (p *Plan) Files() (read []string, total int) {
	if p.ds == nil {
		return nil, 0
	}
	for _, mp := range p.ds.members {
		read = append(read, mp.m.path)
	}
	return read, len(p.ds.ds.files)
}

// Schema is the schema of the output batches.
func (p *Plan) Schema() *arrow.Schema { return p.out }

// Columns are the names of the top-level columns the scan reads, in schema
// order. A nested field used is read with its whole top-level column.
func (p *Plan) Columns() []string {
	names := make([]string, len(p.fields))
	for i, f := range p.fields {
		names[i] = p.src.schema.Field(f).Name
	}
	return names
}

// NoRows reports whether the filter optimized to false or null: the scan
// reads nothing.
func (p *Plan) NoRows() bool { return p.none }

// RowGroups says which row groups the scan reads: their indices, in order
// (nil: all of them), and how many the source has (-1: it has none, it is
// not Parquet).
func (p *Plan) RowGroups() (read []int, total int) {
	if p.groups.read == nil || p.groups.total < 0 {
		return nil, p.groups.total
	}
	return append([]int(nil), p.groups.read...), p.groups.total
}

// Falsifier is the filter's falsifier over row-group statistics, which
// the scan evaluates to skip row groups (package prune). It is nil, with a
// nil error, when there is no filter, the filter is constant or pruning is
// off; the error says why a filter has none.
func (p *Plan) Falsifier() (*prune.Pruner, error) { return p.pruner, p.pruneErr }
