package eval

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/partition"
)

// Prepared is a bound tree checked once for evaluation: every call has a
// kernel or is a form this package evaluates, the types of $ and of the
// free variables are known, and a predicate's conjuncts and which of them
// can fail are found. Evaluating batch after batch with it repeats none of
// that; the package functions Eval, EvalRecord, EvalDatum and Filter
// prepare the tree on every call.
//
// A Prepared is immutable: several goroutines may evaluate with it at once.
type Prepared struct {
	b *expr.Bound
	a analysis
	// conjuncts are b split at its top-level ANDs, in evaluation order,
	// and fallible says which of them can raise an error (Filter).
	conjuncts []*expr.Bound
	fallible  []bool
	// lastRecord is $ as the record batches of one schema give it: the
	// schema last seen, its struct type, and whether that holds the
	// tree's $, so that a stream of batches checks it once.
	lastRecord atomic.Pointer[recordRoot]
}

// recordRoot is what a record batch schema makes of $.
type recordRoot struct {
	schema *arrow.Schema
	st     *arrow.StructType
	// cols, when the batch has columns $ lacks, are the columns of $'s
	// fields, by name (st is their struct); nil when $ is every column.
	cols []int
	err  error // $ cannot be a batch of this schema
}

// recordBinding is $ bound to rec's columns (nil when the tree does not
// read $). A field read is the column itself; the struct array of all of
// them is made only if $ is read whole.
func (p *Prepared) recordBinding(rec arrow.RecordBatch) (*binding, error) {
	if !p.a.usesRoot {
		return nil, nil
	}
	schema := rec.Schema()
	rr := p.lastRecord.Load()
	if rr == nil || rr.schema != schema {
		rr = recordRootOf(schema, p.a.root)
		p.lastRecord.Store(rr)
	}
	if rr.err != nil {
		return nil, rr.err
	}
	return &binding{dt: p.a.root, n: int(rec.NumRows()), rec: rec, recType: rr.st, recCols: rr.cols}, nil
}

// recordRootOf is $ of type root as batches of schema hold it: all the
// columns, or, when the batch has more (such as a column of a type colexpr
// cannot read, which colexpr.NewSchema leaves out of $), the columns of
// root's fields found by name.
func recordRootOf(schema *arrow.Schema, root dtype.DType) *recordRoot {
	st := arrow.StructOf(schema.Fields()...)
	rr := &recordRoot{schema: schema, st: st}
	if holdsType(st, root) {
		return rr
	}
	if root.Kind() == dtype.KindStruct && len(root.Fields()) < schema.NumFields() {
		fields := make([]arrow.Field, len(root.Fields()))
		rr.cols = make([]int, len(root.Fields()))
		ok := true
		for i, f := range root.Fields() {
			idx := schema.FieldIndices(f.Name)
			if len(idx) != 1 || !holdsType(schema.Field(idx[0]).Type, f.Type) {
				ok = false
				break
			}
			fields[i], rr.cols[i] = schema.Field(idx[0]), idx[0]
		}
		if ok {
			rr.st = arrow.StructOf(fields...)
			return rr
		}
		rr.cols = nil
	}
	rr.err = fmt.Errorf("eval: the input ($) has Arrow type %s, the expression was bound with %s", st, root)
	return rr
}

// Prepare checks b for evaluation.
func Prepare(b *expr.Bound) (*Prepared, error) {
	p := &Prepared{}
	if err := p.init(b, true); err != nil {
		return nil, err
	}
	return p, nil
}

// init prepares b; the conjuncts only when filter is set (a Prepared made
// by a package function for one evaluation needs them only to filter).
func (p *Prepared) init(b *expr.Bound, filter bool) error {
	if b == nil {
		return errors.New("eval: nil expression")
	}
	a, err := analyze(b)
	if err != nil {
		return err
	}
	p.b, p.a = b, a
	if filter && b.DType().IsBool() {
		p.conjuncts = partition.Conjuncts(b)
		p.fallible = make([]bool, len(p.conjuncts))
		for i, c := range p.conjuncts {
			p.fallible[i] = canFail(c)
		}
	}
	return nil
}

// Bound is the prepared tree.
func (p *Prepared) Bound() *expr.Bound { return p.b }

// Eval is the package's Eval of the prepared tree.
func (p *Prepared) Eval(mem memory.Allocator, input arrow.Array) (arrow.Array, error) {
	if input == nil {
		return nil, errors.New("eval: nil input array")
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	d, err := p.EvalDatum(mem, datum.FromArray(input, p.inputType(input)), nil)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return materialize(mem, d, p.b.DType())
}

// EvalRecord is the package's EvalRecord of the prepared tree.
func (p *Prepared) EvalRecord(mem memory.Allocator, rec arrow.RecordBatch) (arrow.Array, error) {
	if rec == nil {
		return nil, errors.New("eval: nil record batch")
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	root, err := p.recordBinding(rec)
	if err != nil {
		return nil, err
	}
	d, err := p.evalIn(mem, int(rec.NumRows()), root, nil)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return materialize(mem, d, p.b.DType())
}

// Filter is the package's Filter with the prepared tree as the predicate.
func (p *Prepared) Filter(mem memory.Allocator, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if rec == nil {
		return nil, errors.New("eval: Filter needs a predicate and a record batch")
	}
	if !p.b.DType().IsBool() {
		return nil, fmt.Errorf("eval: Filter predicate has type %s, want bool", p.b.DType())
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return filter(mem, p, rec)
}

// inputType is the dtype of the input array: the bound type of $ when the
// tree reads $ (checked against the array's Arrow type when evaluation
// starts), otherwise the dtype of its Arrow type.
func (p *Prepared) inputType(input arrow.Array) dtype.DType {
	if p.a.usesRoot {
		return p.a.root
	}
	t, err := dtype.FromArrow(input.DataType(), true)
	if err != nil {
		return dtype.Null() // the tree does not read $: only the length matters
	}
	return t
}
