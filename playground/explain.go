package playground

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/internal/render"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scan"
)

// Limits of one explanation, so that a long expression or a wide result
// gives the page a bounded answer.
const (
	// DefaultLimit is how many rows a Request without a Limit gets.
	DefaultLimit = 20
	// MaxLimit is the most rows a Request may ask for.
	MaxLimit = 200
	// MaxTreeNodes is the most nodes a tree of the Response holds; the
	// nodes below are counted in Node.LeftOut.
	MaxTreeNodes = 2000
	// MaxTreeDepth is the deepest a tree of the Response goes.
	MaxTreeDepth = 200
	// MaxSteps is the most rewrites of a trace the Response holds.
	MaxSteps = 500
)

// Request is what the page asks for: a filter and a select list, written
// as the command's --where and --select take them (either may be empty),
// and how many result rows to show.
type Request struct {
	Where  string `json:"where"`
	Select string `json:"select"`
	Limit  int    `json:"limit,omitempty"`
}

// Response is everything the page shows for a Request.
type Response struct {
	Table Table `json:"table"`
	// Exprs explains the filter (first, when given) and each select item.
	Exprs []Explained `json:"exprs"`
	// Errors are what is wrong with the request, each at its place in the
	// text. When there are any, Rows and RowGroups are absent.
	Errors []Error `json:"errors,omitempty"`
	// Rows are the first rows of the result.
	Rows *Rows `json:"rows,omitempty"`
	// RowGroups says which row groups of a Parquet table the scan reads.
	RowGroups *RowGroups `json:"rowGroups,omitempty"`
}

// Table describes the table expressions are compiled against.
type Table struct {
	Name    string   `json:"name"`
	Columns []Column `json:"columns"`
	// LeftOut are the columns colexpr cannot read, each with the reason.
	LeftOut []Column `json:"leftOut,omitempty"`
	// RowGroups is the number of row groups of a Parquet table, -1 for
	// other tables.
	RowGroups int `json:"rowGroups"`
}

// Column is a column's name and dtype (or, of a left-out column, why).
type Column struct {
	Name  string `json:"name"`
	DType string `json:"dtype,omitempty"`
	Why   string `json:"why,omitempty"`
}

// Error is a problem with the request, at its place in the text.
type Error struct {
	// Field is the input the error is in: "where" or "select".
	Field   string `json:"field"`
	Message string `json:"message"`
	// Start and End delimit the offending text in UTF-16 code units (as a
	// browser's text field counts) from the start of the field; both are
	// -1 when the error has no place (an empty list, a failed scan).
	Start int `json:"start"`
	End   int `json:"end"`
	// Line and Column are 1-based, the column counted in characters, as
	// the command's caret shows it; 0 when the error has no place.
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Explained is every stage of one expression, as `colexpr explain` prints
// them.
type Explained struct {
	Field string `json:"field"`
	// What names the expression: "--where", "select item 2".
	What string `json:"what"`
	// Name is a select item's output column.
	Name      string `json:"name,omitempty"`
	Text      string `json:"text"`
	DType     string `json:"dtype"`
	Parsed    string `json:"parsed"`
	Coerced   string `json:"coerced"`
	Bound     *Node  `json:"bound"`
	Optimized string `json:"optimized"`
	// OptimizedTree is the tree the scan evaluates.
	OptimizedTree *Node `json:"optimizedTree"`
	// Trace is the optimizer's rewrites in order; TraceLeftOut counts
	// those after MaxSteps.
	Trace        []Step `json:"trace"`
	TraceLeftOut int    `json:"traceLeftOut,omitempty"`
	// Partitions split the optimized tree by column (package partition),
	// or PartitionError says why it cannot be.
	Partitions     []Partition `json:"partitions,omitempty"`
	PartitionRoot  string      `json:"partitionRoot,omitempty"`
	PartitionError string      `json:"partitionError,omitempty"`
	// Reads are the columns and struct fields the expression reads.
	Reads []string `json:"reads"`
	// Falsifier is the filter's falsifier over row-group statistics.
	Falsifier *Falsifier `json:"falsifier,omitempty"`
}

// Step is one rewrite of the optimizer's trace (optimize.Event).
type Step struct {
	Rule string `json:"rule"`
	// Kind is "applied", "rejected" or "budget exhausted"; only applied
	// steps change the tree.
	Kind   string `json:"kind"`
	Reason string `json:"reason,omitempty"`
	// Path is where the replaced node is in the tree as it stood: the
	// child index at each level from the top (optimize.Event.Path).
	Path   []int  `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Replacement is the tree of After, which takes the place of the node
	// at Path.
	Replacement *Node `json:"replacement"`
}

// Partition is the part of an expression one column computes.
type Partition struct {
	Field string `json:"field"`
	Var   string `json:"var"`
	Expr  string `json:"expr"`
}

// Falsifier is a filter's falsifier (package prune): true for a row group
// whose statistics prove that none of its rows satisfies the filter.
type Falsifier struct {
	// Expr is the falsifier's text; empty when there is none, and Note
	// says why.
	Expr  string `json:"expr,omitempty"`
	Tree  *Node  `json:"tree,omitempty"`
	Stats string `json:"stats,omitempty"`
	// Probes are the bloom filter look-ups it makes.
	Probes []string `json:"probes,omitempty"`
	Note   string   `json:"note,omitempty"`
}

// RowGroups are the row groups of a Parquet table the scan reads and
// those the falsifier rules out.
type RowGroups struct {
	Total   int   `json:"total"`
	Read    []int `json:"read"`
	Skipped []int `json:"skipped"`
}

// Rows are the first rows of the result: each value as text, as the
// command's table output prints it (DuckDB's way: decimals with their
// scale, timestamps without a Z, binary as \x escapes, lists and structs
// as JSON), null as a JSON null.
type Rows struct {
	Columns []Column    `json:"columns"`
	Values  [][]*string `json:"values"`
	// More is true when the result has rows after these.
	More bool `json:"more"`
}

// Explain compiles the request against src, explains each expression and
// scans the first rows. It is the one place the page's data comes from,
// for the server (Handler) and the WebAssembly build alike. Every problem
// is in Response.Errors — a syntax or type error at its place in the
// text, a runtime error (an overflow, a bad cast) of the scan with its
// row — so that the page shows it beside what it could still explain.
func Explain(ctx context.Context, src *scan.Source, req Request) *Response {
	sch := src.Schema()
	resp := &Response{Table: Describe(src), Exprs: []Explained{}}
	limit := req.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		limit = MaxLimit
	}
	var q scan.Query
	if strings.TrimSpace(req.Where) != "" {
		prog, ex, err := compile(sch, "where", "--where", req.Where, req.Where, 0)
		if err != nil {
			resp.Errors = append(resp.Errors, *err)
		} else {
			if !prog.DType().IsBool() {
				resp.Errors = append(resp.Errors, errorAt("where", req.Where, fmt.Sprintf("the filter has type %s, not bool", prog.DType()), 0, len(req.Where)))
			}
			resp.Exprs = append(resp.Exprs, ex)
			q.Where = &scan.Expr{Program: prog, What: "--where"}
		}
	}
	if strings.TrimSpace(req.Select) != "" {
		items, err := scan.SplitSelect(req.Select)
		if err != nil {
			resp.Errors = append(resp.Errors, sourceError("select", "--select", req.Select, 0, err))
		}
		from := 0
		for i, it := range items {
			off := strings.Index(req.Select[from:], it.Text)
			if off < 0 {
				off = 0 // SplitSelect's text is a substring; never taken
			}
			off += from
			from = off + len(it.Text)
			what := fmt.Sprintf("select item %d", i+1)
			prog, ex, perr := compile(sch, "select", what, it.Text, req.Select, off)
			if perr != nil {
				resp.Errors = append(resp.Errors, *perr)
				continue
			}
			ex.Name = it.Name
			resp.Exprs = append(resp.Exprs, ex)
			q.Select = append(q.Select, scan.Expr{Program: prog, Name: it.Name, What: what})
		}
	}
	if len(resp.Errors) > 0 {
		return resp
	}
	plan, err := scan.Compile(src, q, scan.Options{Threads: threads})
	if err != nil {
		resp.Errors = append(resp.Errors, Error{Field: "where", Message: err.Error(), Start: -1, End: -1})
		return resp
	}
	if q.Where != nil {
		resp.Exprs[0].Falsifier = falsifierOf(q.Where.Program, plan)
	}
	if read, total := plan.RowGroups(); total >= 0 {
		resp.RowGroups = rowGroupsOf(read, total)
	}
	rows, err := firstRows(ctx, plan, limit)
	if err != nil {
		// The error names its expression by the What given above.
		field := "select"
		if re := (*scan.RowError)(nil); errors.As(err, &re) && re.What == "--where" {
			field = "where"
		}
		resp.Errors = append(resp.Errors, Error{Field: field, Message: err.Error(), Start: -1, End: -1})
		return resp
	}
	resp.Rows = rows
	return resp
}

// threads is how many goroutines a scan uses: the page reads a few rows,
// and the server answers several pages at once.
const threads = 2

// compile compiles one expression, text, and explains it. text starts at
// byte off of full, the field's whole text, where an error is placed.
func compile(sch *colexpr.Schema, field, what, text, full string, off int) (*colexpr.Program, Explained, *Error) {
	prog, err := sch.Compile(text, nil)
	if err != nil {
		e := sourceError(field, what, full, off, err)
		return nil, Explained{}, &e
	}
	st := prog.Stages()
	root := sch.Root
	ex := Explained{
		Field:         field,
		What:          what,
		Text:          text,
		DType:         prog.DType().String(),
		Parsed:        st.Parsed.String(),
		Coerced:       st.Coerced.String(),
		Bound:         treeOf(st.Bound, root),
		Optimized:     st.Optimized.String(),
		OptimizedTree: treeOf(st.Optimized, root),
		Trace:         []Step{},
		Reads:         readsOf(st.Optimized),
	}
	ex.Trace, ex.TraceLeftOut = stepsOf(st.Trace, st.Bound, root)
	if p, err := partition.ByField(st.Optimized, sch.Scope()); err != nil {
		ex.PartitionError = err.Error()
	} else {
		for _, part := range p.Partitions {
			ex.Partitions = append(ex.Partitions, Partition{Field: part.Field, Var: part.Var, Expr: part.Expr.String()})
		}
		ex.PartitionRoot = p.Root.String()
	}
	return prog, ex, nil
}

// sourceError places a compile error of an expression that starts at
// byte off of its field's text full: a syntax error at its offset, an
// error found after parsing (colexpr.SourceError) at the offending node.
// The message leaves out the excerpt and caret the error's text ends
// with: the page underlines the place itself.
func sourceError(field, what, full string, off int, err error) Error {
	var pe *parse.Error
	var se *colexpr.SourceError
	switch {
	case errors.As(err, &pe):
		return errorAt(field, full, what+": "+pe.Msg, off+pe.Offset, off+pe.Offset)
	case errors.As(err, &se):
		return errorAt(field, full, what+": "+se.Err.Error(), off+se.Pos.Offset, off+se.Pos.Offset)
	}
	return Error{Field: field, Message: what + ": " + err.Error(), Start: -1, End: -1}
}

// errorAt is an error over text[start:end] (byte offsets), widened to the
// token at start when the span is empty.
func errorAt(field, text, msg string, start, end int) Error {
	start = min(max(start, 0), len(text))
	end = min(max(end, start), len(text))
	if end == start {
		end = tokenEnd(text, start)
	}
	pos := parse.PositionAt(text, start)
	return Error{Field: field, Message: msg, Start: utf16Len(text[:start]), End: utf16Len(text[:end]), Line: pos.Line, Column: pos.Column}
}

// tokenEnd is the end of the word or symbol at off, so that an underline
// has something to underline; at the end of the text it is the end.
func tokenEnd(text string, off int) int {
	if off >= len(text) {
		return off
	}
	r, n := utf8.DecodeRuneInString(text[off:])
	if !isWordRune(r) {
		return off + n
	}
	end := off
	for end < len(text) {
		r, n := utf8.DecodeRuneInString(text[end:])
		if !isWordRune(r) {
			break
		}
		end += n
	}
	return end
}

func isWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Describe is the Table of src: its name, its columns with their dtypes,
// the columns left out and why, and its row groups.
func Describe(src *scan.Source) Table {
	sch := src.Schema()
	t := Table{Name: src.Name(), Columns: []Column{}, RowGroups: src.RowGroups()}
	for _, f := range sch.Root.Fields() {
		t.Columns = append(t.Columns, Column{Name: f.Name, DType: f.Type.String()})
	}
	for _, f := range sch.Arrow.Fields() {
		if why, ok := sch.LeftOut[f.Name]; ok {
			t.LeftOut = append(t.LeftOut, Column{Name: f.Name, Why: why})
		}
	}
	return t
}

// readsOf are the columns and struct fields b reads, as explain names them.
func readsOf(b *expr.Bound) []string {
	out := []string{}
	for _, path := range partition.ReferencedFields(b) {
		if len(path) == 0 {
			out = append(out, "$ (every column)")
			continue
		}
		parts := make([]string, len(path))
		for i, n := range path {
			parts[i] = dtype.QuoteFieldName(n)
		}
		out = append(out, strings.Join(parts, "."))
	}
	return out
}

// stepsOf converts the trace. Each step's replacement is a tree of its own:
// the page puts it at the step's path in the tree it holds, as
// optimize.Trace.Replay does. The trace is replayed here too, to know the
// lambdas above each step's node: the replacement's variables are drawn
// with the frames they resolve in.
func stepsOf(tr *optimize.Trace, top *expr.Bound, root dtype.DType) ([]Step, int) {
	steps := []Step{}
	cur := top
	for i, ev := range tr.Events {
		if i == MaxSteps {
			return steps, len(tr.Events) - i
		}
		s := Step{
			Rule:   ev.Rule,
			Kind:   ev.Kind.String(),
			Path:   ev.Path,
			Before: expr.Abbreviate(ev.Before.String()),
			After:  expr.Abbreviate(ev.After.String()),
		}
		if s.Path == nil {
			s.Path = []int{}
		}
		budget := MaxTreeNodes
		s.Replacement = nodeOf(ev.After, root, framesAt(cur, ev.Path), len(ev.Path)+1, &budget)
		if ev.Kind != optimize.Applied {
			s.Reason = ev.Reason
		} else if cur != nil {
			// A replay that fails (it never should) leaves the frames of
			// later steps unknown, not the steps.
			next, err := (&optimize.Trace{Events: tr.Events[i : i+1]}).Replay(cur, 1)
			if err != nil {
				next = nil
			}
			cur = next
		}
		steps = append(steps, s)
	}
	return steps, 0
}

// framesAt are the parameters of the lambdas on the path from top down to
// (not including) the node at path.
func framesAt(top *expr.Bound, path []int) [][]string {
	var frames [][]string
	n := top
	for _, i := range path {
		if n == nil || i >= len(n.Args()) {
			return frames
		}
		if n.Kind() == expr.KindLambda {
			frames = append(frames, n.Params())
		}
		n = n.Arg(i)
	}
	return frames
}

// falsifierOf describes a filter's falsifier as explain does.
func falsifierOf(prog *colexpr.Program, plan *scan.Plan) *Falsifier {
	p, err := plan.Falsifier()
	switch {
	case err != nil:
		return &Falsifier{Note: "none: " + err.Error()}
	case plan.NoRows():
		return &Falsifier{Expr: "true", Note: "the filter is never true: nothing is read"}
	case p == nil || p.Inconclusive():
		return &Falsifier{Expr: "false", Note: "no statistics can rule out a row: nothing is skipped"}
	}
	f := &Falsifier{Expr: p.Expr.String(), Tree: treeOf(p.Expr, p.Stats), Stats: p.Stats.String()}
	for _, c := range p.Columns {
		for k, v := range c.Probes {
			f.Probes = append(f.Probes, fmt.Sprintf("cols.%s.absent_%d: true where the bloom filter rules out %s", dtype.QuoteFieldName(c.Key()), k, v.SQL()))
		}
	}
	return f
}

func rowGroupsOf(read []int, total int) *RowGroups {
	rg := &RowGroups{Total: total, Read: []int{}, Skipped: []int{}}
	if read == nil {
		for i := range total {
			rg.Read = append(rg.Read, i)
		}
		return rg
	}
	next := 0
	for i := range total {
		if next < len(read) && read[next] == i {
			rg.Read = append(rg.Read, i)
			next++
		} else {
			rg.Skipped = append(rg.Skipped, i)
		}
	}
	return rg
}

// firstRows scans until it has limit rows (and one more, to tell whether
// there are more), then stops the scan.
func firstRows(ctx context.Context, plan *scan.Plan, limit int) (*Rows, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r, err := plan.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	rows := &Rows{Columns: []Column{}, Values: [][]*string{}}
	for _, f := range plan.Schema().Fields() {
		rows.Columns = append(rows.Columns, Column{Name: f.Name, DType: arrowTypeName(f)})
	}
	for len(rows.Values) <= limit && r.Next() {
		rec := r.RecordBatch()
		cells := make([]render.Cell, rec.NumCols())
		for j, col := range rec.Columns() {
			cells[j] = render.Text(col)
		}
		for i := 0; i < int(rec.NumRows()) && len(rows.Values) <= limit; i++ {
			row := make([]*string, rec.NumCols())
			for j, col := range rec.Columns() {
				if !render.IsNull(col, i) {
					s := string(cells[j](nil, i))
					row[j] = &s
				}
			}
			rows.Values = append(rows.Values, row)
		}
	}
	if len(rows.Values) > limit {
		rows.Values, rows.More = rows.Values[:limit], true
		cancel()
		return rows, nil
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// arrowTypeName is an output column's dtype as colexpr writes it, or the
// Arrow type's name when colexpr has none for it.
func arrowTypeName(f arrow.Field) string {
	t, err := dtype.FromArrow(f.Type, f.Nullable)
	if err != nil {
		return f.Type.String()
	}
	return t.String()
}

// DemoRows is the size of the demo table the playground shows when it is
// given no file: as many rows as TPC-H's lineitem at scale factor 0.01, so
// that a filter that matches few rows still answers as fast as one types.
const DemoRows = 60_000
