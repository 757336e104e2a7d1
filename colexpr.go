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
// Every stage is also a package of its own, usable alone: parse, coerce,
// expr (binding and scopes), optimize, partition, eval, dtype and scalar.
//
// Runtime errors wrap the sentinels re-exported here; test them with
// errors.Is(err, colexpr.ErrOverflow).
package colexpr

import (
	"fmt"

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
}

// Compile parses src, coerces and binds it against the schema's columns (as
// the root struct $), and optimizes it.
func Compile(src string, schema *arrow.Schema) (*Program, error) {
	root, err := dtype.FromArrowSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("colexpr: schema: %w", err)
	}
	e, err := parse.Parse(src)
	if err != nil {
		return nil, err
	}
	return CompileExpr(e, root, schema)
}

// CompileExpr coerces, binds and optimizes an expression tree against the
// root type root (a struct type whose Arrow schema is schema; schema may be
// nil when the program is only evaluated with Eval on arrays).
func CompileExpr(e expr.Expr, root dtype.DType, schema *arrow.Schema) (*Program, error) {
	scope := expr.ScopeOf(root)
	b, err := coerce.Bind(e, scope)
	if err != nil {
		return nil, err
	}
	opt, err := optimize.Optimize(b)
	if err != nil {
		return nil, fmt.Errorf("colexpr: optimize: %w", err)
	}
	return &Program{src: e.String(), scope: scope, schema: schema, bound: opt}, nil
}

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
	return eval.EvalRecord(mem, p.bound, rec)
}

// EvalArray evaluates the program with $ bound to arr (which must have the
// root type).
func (p *Program) EvalArray(mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	return eval.Eval(mem, p.bound, arr)
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
	return eval.Filter(mem, p.bound, rec)
}

func (p *Program) checkSchema(s *arrow.Schema) error {
	if p.schema == nil || p.schema.Equal(s) {
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
