// Package colexpr compiles typed expressions over Apache Arrow data and
// evaluates them vectorized.
//
// Compile runs the common path in one call:
//
//	text ──parse──▶ Expr ──coerce──▶ Expr ──bind──▶ Bound ──optimize──▶ Bound
//
// and returns a Program that evaluates the expression against record batches
// of the schema it was compiled for:
//
//	p, err := colexpr.Compile("price * (1 - discount) > 100 AND mode IN ('AIR', 'MAIL')", schema)
//	mask, err := p.Eval(mem, batch)      // a bool array, one value per row
//	kept, err := p.Filter(mem, batch)    // the rows where it is true
//
// Compile wants every column of the schema to have a type colexpr supports.
// A file often has a column it does not (a large string, a map) or two
// columns of one name: NewSchema types such a schema with those columns left
// out, each with the reason, and Schema.Compile compiles against it; an
// expression that uses a left-out column is an error that gives the reason,
// and one that names an unknown column suggests the close names. Every
// compilation records its Stages (parsed, coerced, bound, optimized, and the
// optimizer's trace), which is what explain prints. Package scan compiles a
// query's expressions this way, once, against a file's whole schema.
//
// A stream of batches evaluated into a Pool reuses memory: each result,
// once released, gives its buffers to a later batch's, so that a program
// evaluated batch after batch takes no new Arrow memory after the first
// batches (and its output lands in memory still in cache):
//
//	pool := colexpr.NewPool(mem)
//	defer pool.Close()
//	for batch := range batches {
//		mask, err := p.Eval(pool, batch)
//		…
//		mask.Release() // its buffers go back to the pool
//	}
//
// A dictionary-encoded column (dictionary<indices, values>: a pandas
// categorical, a column an Arrow IPC or Parquet reader hands out encoded)
// has the type of its values, as in DuckDB and DataFusion: mode = 'AIR'
// compiles against it, and evaluation decodes the column (the values
// gathered by the indices) once per batch, where it is first read. Filter
// returns the batch's own columns, so a dictionary column stays one in its
// output.
//
// A record batch's columns are read as they are, without a struct array
// around them, so a batch costs a handful of small Go objects however wide
// it is.
//
// Every stage is also a package of its own, usable alone: parse, coerce,
// expr (binding and scopes), optimize, partition, eval, dtype and scalar.
//
// Runtime errors wrap the sentinels re-exported here; test them with
// errors.Is(err, colexpr.ErrOverflow).
package colexpr

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
)

// The sentinels of evaluation errors (the same values as package errs).
var (
	ErrOverflow        = errs.ErrOverflow
	ErrDivideByZero    = errs.ErrDivideByZero
	ErrInvalidCast     = errs.ErrInvalidCast
	ErrInvalidArgument = errs.ErrInvalidArgument
)

// Program is a compiled expression: bound, coerced and optimized against one
// schema. It is immutable and safe for concurrent use.
type Program struct {
	src    string
	scope  expr.Scope
	schema *arrow.Schema
	bound  *expr.Bound
	// prepared is bound checked for evaluation once, at compile time: no
	// batch repeats the walk.
	prepared *eval.Prepared
	stages   Stages
}

// Stages are the forms an expression took through compilation, as explain
// shows them.
type Stages struct {
	// Parsed is the tree as parsed or given; Coerced is it with the casts
	// and literal types coercion chose. Both are nil for a program compiled
	// from a bound tree.
	Parsed, Coerced expr.Expr
	// Bound is the bound tree before optimization, Optimized after.
	Bound, Optimized *expr.Bound
	// Trace is the optimizer's record of its rewrites.
	Trace *optimize.Trace
}

// Options tune compilation. The zero value is the default.
type Options struct {
	// Optimizer runs the rewrites; nil is optimize.New(), every built-in
	// rule.
	Optimizer *optimize.Optimizer
	// Now is the instant now(), current_timestamp, today() and
	// current_date stand for in the text (see fn.ClockFn); zero means the
	// time Compile is called. Every batch the program evaluates sees that
	// one instant, as every row of a DuckDB query sees its transaction's.
	Now time.Time
}

// parseOptions are the parse options o asks for.
func (o *Options) parseOptions() parse.Options {
	if o == nil {
		return parse.Options{}
	}
	return parse.Options{Now: o.Now}
}

func (o *Options) optimizer() *optimize.Optimizer {
	if o == nil || o.Optimizer == nil {
		return optimize.New()
	}
	return o.Optimizer
}

// Compile parses src, coerces and binds it against the schema's columns (as
// the root struct $), and optimizes it. Every column must have a type
// colexpr supports; NewSchema and Schema.Compile leave the others out
// instead.
func Compile(src string, schema *arrow.Schema) (*Program, error) {
	root, err := dtype.FromArrowSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("colexpr: schema: %w", err)
	}
	return (&Schema{Arrow: schema, Root: root}).Compile(src, nil)
}

// CompileExpr coerces, binds and optimizes an expression tree against the
// root type root (a struct type whose Arrow schema is schema; schema may be
// nil when the program is only evaluated with Eval on arrays).
func CompileExpr(e expr.Expr, root dtype.DType, schema *arrow.Schema) (*Program, error) {
	return (&Schema{Arrow: schema, Root: root}).CompileExpr(e, nil)
}

// Compile parses src and compiles it against s, with the options o (nil:
// the defaults). A column s does not have, or has left out, is an error
// that says why and names the columns close to it.
func (s *Schema) Compile(src string, o *Options) (*Program, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("the expression is empty")
	}
	e, spans, err := parse.ParseSpans(src, o.parseOptions())
	if err != nil {
		return nil, err
	}
	p, err := s.CompileExpr(e, o)
	if err != nil {
		return nil, locate(err, e, spans)
	}
	return p, nil
}

// SourceError is an error found after parsing (an unknown column, a type
// error, a coercion that cannot be made) together with where in the text
// the offending expression is. Its text is the error's, then the source
// line with a caret under that place, as a parse error shows it.
type SourceError struct {
	Err error
	Pos parse.Position
}

func (e *SourceError) Error() string { return e.Err.Error() + "\n" + e.Pos.Excerpt() }

func (e *SourceError) Unwrap() error { return e.Err }

// nodeError is an error about one node of a tree, before it is known where
// the node is in the text.
type nodeError struct {
	node expr.Expr
	err  error
}

func (e *nodeError) Error() string { return e.err.Error() }
func (e *nodeError) Unwrap() error { return e.err }

// locate points err at the text of the node it is about, when it names
// one (by node or by path) that the parser placed.
func locate(err error, root expr.Expr, spans *parse.Spans) error {
	var pos parse.Position
	var ok bool
	var ne *nodeError
	var be *expr.BindError
	var ce *coerce.Error
	switch {
	case errors.As(err, &ne):
		err = ne.err
		pos, ok = spans.PositionOf(ne.node)
	case errors.As(err, &be):
		pos, ok = spans.Position(root, be.Path)
	case errors.As(err, &ce):
		pos, ok = spans.Position(root, ce.Path)
	}
	if !ok {
		return err
	}
	return &SourceError{Err: err, Pos: pos}
}

// CompileExpr compiles the tree e against s: coerce, bind, optimize.
func (s *Schema) CompileExpr(e expr.Expr, o *Options) (*Program, error) {
	if err := s.checkFields(e); err != nil {
		return nil, err // a *nodeError, which Compile places in the text
	}
	st := Stages{Parsed: e}
	var err error
	if st.Coerced, st.Bound, err = coerce.CoerceAndBind(e, s.Scope()); err != nil {
		return nil, err
	}
	return s.optimize(st, o)
}

// CompileBound optimizes b, a tree already bound against s (such as one
// imported from Substrait).
func (s *Schema) CompileBound(b *expr.Bound, o *Options) (*Program, error) {
	return s.optimize(Stages{Bound: b}, o)
}

func (s *Schema) optimize(st Stages, o *Options) (*Program, error) {
	var err error
	if st.Optimized, st.Trace, err = o.optimizer().ExplainIn(st.Bound, s.Scope()); err != nil {
		return nil, fmt.Errorf("optimizing: %w", err)
	}
	src := st.Bound.String()
	if st.Parsed != nil {
		src = st.Parsed.String()
	}
	prepared, err := eval.Prepare(st.Optimized)
	if err != nil {
		return nil, err
	}
	return &Program{src: src, scope: s.Scope(), schema: s.Arrow, bound: st.Optimized, prepared: prepared, stages: st}, nil
}

// Stages are the forms the program took through compilation.
func (p *Program) Stages() Stages { return p.stages }

// Bound is the optimized, bound tree.
func (p *Program) Bound() *expr.Bound { return p.bound }

// DType is the type of the program's result.
func (p *Program) DType() dtype.DType { return p.bound.DType() }

// Scope is the scope the program was bound in.
func (p *Program) Scope() expr.Scope { return p.scope }

// String is the canonical text of the optimized program.
func (p *Program) String() string { return p.bound.String() }

// Eval evaluates the program over a record batch and returns one value per
// row, an array the caller releases. Memory comes from mem.
func (p *Program) Eval(mem memory.Allocator, rec arrow.RecordBatch) (arrow.Array, error) {
	if err := p.checkSchema(rec.Schema()); err != nil {
		return nil, err
	}
	return p.prepared.EvalRecord(mem, rec)
}

// EvalArray evaluates the program with $ bound to arr (which must have the
// root type).
func (p *Program) EvalArray(mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	return p.prepared.Eval(mem, arr)
}

// Filter keeps the rows of rec where the program, a predicate, is true (null
// counts as false).
func (p *Program) Filter(mem memory.Allocator, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if !p.bound.DType().IsBool() {
		return nil, fmt.Errorf("colexpr: Filter needs a bool predicate, %q has type %s", p.src, p.bound.DType())
	}
	if err := p.checkSchema(rec.Schema()); err != nil {
		return nil, err
	}
	return p.prepared.Filter(mem, rec)
}

// checkSchema checks that a batch's schema is the one p was compiled for,
// or one of the same types. A batch usually carries the very schema
// pointer its reader made, which costs one comparison.
func (p *Program) checkSchema(s *arrow.Schema) error {
	if p.schema == nil || p.schema == s || p.schema.Equal(s) {
		return nil
	}
	got, err := dtype.FromArrowSchema(s)
	if err != nil {
		return fmt.Errorf("colexpr: record batch schema: %w", err)
	}
	if !got.EqualIgnoreNullability(p.scope.Root()) {
		return fmt.Errorf("colexpr: record batch has schema %s, the program was compiled for %s", got, p.scope.Root())
	}
	return nil
}
