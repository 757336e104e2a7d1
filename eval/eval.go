package eval

import (
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// Eval evaluates b against input (the value of $: the struct array of a
// record batch, or any array) and returns an array of input.Len() rows,
// owned by the caller. A scalar result is broadcast to input.Len() rows.
func Eval(mem memory.Allocator, b *expr.Bound, input arrow.Array) (arrow.Array, error) {
	var p Prepared
	if err := p.init(b, false); err != nil {
		return nil, err
	}
	return p.Eval(mem, input)
}

// EvalRecord evaluates b with $ bound to the struct of rec's columns.
func EvalRecord(mem memory.Allocator, b *expr.Bound, rec arrow.RecordBatch) (arrow.Array, error) {
	var p Prepared
	if err := p.init(b, false); err != nil {
		return nil, err
	}
	return p.EvalRecord(mem, rec)
}

// EvalDatum is the general form: $ may be a datum (scalar or array), and
// vars gives the values of free variables (name → datum), as partitioning
// needs. The result has input.Len() rows and may be a scalar datum; the
// caller releases it. Array values in vars must have input.Len() rows;
// variables the tree does not use are ignored.
func EvalDatum(mem memory.Allocator, b *expr.Bound, input datum.Datum, vars map[string]datum.Datum) (datum.Datum, error) {
	var p Prepared
	if err := p.init(b, false); err != nil {
		return datum.Datum{}, err
	}
	return p.EvalDatum(mem, input, vars)
}

// EvalDatum is the package's EvalDatum of the prepared tree.
func (p *Prepared) EvalDatum(mem memory.Allocator, input datum.Datum, vars map[string]datum.Datum) (datum.Datum, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := input.Len()
	var root *binding
	if p.a.usesRoot {
		if err := checkDatum("the input ($)", input, p.a.root); err != nil {
			return datum.Datum{}, err
		}
		root = readyBinding("", rebroadcast(input, n).Retain())
	}
	return p.evalIn(mem, n, root, vars)
}

// evalIn evaluates the prepared tree over n rows with $ bound to root (nil
// when the tree does not read $; evalIn releases it) and the free
// variables to vars.
func (p *Prepared) evalIn(mem memory.Allocator, n int, root *binding, vars map[string]datum.Datum) (datum.Datum, error) {
	a, b := p.a, p.b
	top := &env{n: n}
	defer top.release()
	if root != nil {
		top.root = top.own(root)
	}
	for name, t := range a.free {
		v, ok := vars[name]
		if !ok {
			return datum.Datum{}, fmt.Errorf("eval: no value for the free variable %q", name)
		}
		if err := checkDatum(fmt.Sprintf("variable %q", name), v, t); err != nil {
			return datum.Datum{}, err
		}
		if !v.IsScalar() && v.Len() != n {
			return datum.Datum{}, fmt.Errorf("eval: variable %q has %d rows, the input %d", name, v.Len(), n)
		}
	}
	if n == 0 {
		// No rows: nothing is evaluated, so nothing can fail.
		arr := zeroed.NullArray(mem, dtype.ToArrow(b.DType()), 0)
		return datum.FromArray(arr, b.DType()), nil
	}
	for name := range a.free {
		top.vars = append(top.vars, top.own(readyBinding(name, rebroadcast(vars[name], n).Retain())))
	}
	ev := newEvaluator(mem)
	d, err := ev.eval(top, b)
	if err != nil {
		return datum.Datum{}, err
	}
	if d.IsScalar() {
		return d, nil
	}
	defer d.Release()
	arr, err := relabel(d.Array(), dtype.ToArrow(b.DType()))
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(arr, b.DType()), nil
}

// EvalConstant evaluates a tree with no Root and no free Var (a constant
// subtree) to a scalar: what the optimizer's constant folding calls. Errors
// are those evaluation would raise on any row.
func EvalConstant(mem memory.Allocator, b *expr.Bound) (scalar.Scalar, error) {
	if b == nil {
		return scalar.Scalar{}, errors.New("eval: nil expression")
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	a, err := analyze(b)
	if err != nil {
		return scalar.Scalar{}, err
	}
	if a.usesRoot {
		return scalar.Scalar{}, errors.New("eval: EvalConstant of an expression that reads $")
	}
	for name := range a.free {
		return scalar.Scalar{}, fmt.Errorf("eval: EvalConstant of an expression with the free variable %q", name)
	}
	top := &env{n: 1}
	defer top.release()
	d, err := newEvaluator(mem).eval(top, b)
	if err != nil {
		return scalar.Scalar{}, err
	}
	defer d.Release()
	return toScalar(d, b.DType())
}

// recordStruct is the non-null struct array of rec's columns, of type st
// (arrow.StructOf(rec.Schema().Fields()...), which callers keep).
func recordStruct(rec arrow.RecordBatch, st *arrow.StructType, cols []int) arrow.Array {
	children := make([]arrow.ArrayData, st.NumFields())
	for i := range children {
		if cols != nil {
			children[i] = rec.Column(cols[i]).Data()
		} else {
			children[i] = rec.Column(i).Data()
		}
	}
	d := array.NewData(st, int(rec.NumRows()), []*memory.Buffer{nil}, children, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// checkDatum checks that d can stand for a value of type want.
func checkDatum(what string, d datum.Datum, want dtype.DType) error {
	if d.IsScalar() {
		if !d.Scalar().DType().EqualIgnoreNullability(want) && !d.Scalar().IsNull() {
			return fmt.Errorf("eval: %s is a %s scalar, the expression was bound with %s", what, d.Scalar().DType(), want)
		}
		return nil
	}
	if !holdsType(d.Array().DataType(), want) {
		return fmt.Errorf("eval: %s has Arrow type %s, the expression was bound with %s", what, d.Array().DataType(), want)
	}
	return nil
}

// holdsType reports whether an array of Arrow type at holds values of t:
// the Arrow type of t, nested nullability aside, or a dictionary whose
// values hold t (dtype.FromArrow types a dictionary as its values; the
// evaluator decodes it where it reads it). It allocates nothing for nested
// types.
func holdsType(at arrow.DataType, t dtype.DType) bool {
	if dt, ok := at.(*arrow.DictionaryType); ok {
		return holdsType(dt.ValueType, t)
	}
	switch t.Kind() {
	case dtype.KindStruct:
		st, ok := at.(*arrow.StructType)
		if !ok || st.NumFields() != len(t.Fields()) {
			return false
		}
		for i, f := range t.Fields() {
			if af := st.Field(i); af.Name != f.Name || !holdsType(af.Type, f.Type) {
				return false
			}
		}
		return true
	case dtype.KindList:
		lt, ok := at.(*arrow.ListType)
		return ok && holdsType(lt.Elem(), t.Elem())
	case dtype.KindFixedSizeList:
		lt, ok := at.(*arrow.FixedSizeListType)
		return ok && int(lt.Len()) == t.Size() && holdsType(lt.Elem(), t.Elem())
	}
	return arrow.TypeEqual(at, dtype.ToArrow(t))
}

// rebroadcast is d with n rows when it is a scalar, d itself otherwise.
func rebroadcast(d datum.Datum, n int) datum.Datum {
	if d.IsScalar() && d.Len() != n {
		return datum.FromScalar(d.Scalar(), n)
	}
	return d
}

// materialize is d as an array of the Arrow type of t (a new reference).
func materialize(mem memory.Allocator, d datum.Datum, t dtype.DType) (arrow.Array, error) {
	want := dtype.ToArrow(t)
	if !d.IsScalar() {
		return relabel(d.Array(), want)
	}
	s := d.Scalar()
	if s.IsNull() {
		s = scalar.Null(t) // a null of the result's type, whatever the kernel labelled it
	}
	arr, err := scalar.MakeArray(mem, s, d.Len())
	if err != nil {
		return nil, fmt.Errorf("eval: broadcasting %s: %w", s, err)
	}
	defer arr.Release()
	return relabel(arr, want)
}

// toScalar is the value of a one-row datum.
func toScalar(d datum.Datum, t dtype.DType) (scalar.Scalar, error) {
	if d.IsScalar() {
		return d.Scalar(), nil
	}
	if d.Len() < 1 {
		return scalar.Scalar{}, errors.New("eval: no row to read a scalar from")
	}
	s, err := scalar.FromArray(d.Array(), 0, t)
	if err != nil {
		return scalar.Scalar{}, fmt.Errorf("eval: reading a %s result: %w", t, err)
	}
	return s, nil
}

// evaluator walks a bound tree. It holds what is shared by every env of one
// evaluation.
type evaluator struct {
	mem  memory.Allocator
	ctx  fn.Context
	refs map[*expr.Bound]refs // what lambdas and branches read from outside
	safe map[*expr.Bound]bool // maskSafe of branches
}

func newEvaluator(mem memory.Allocator) *evaluator {
	return &evaluator{mem: mem, ctx: fn.Context{Mem: mem}}
}

// eval evaluates b over the rows of e (at least one). The result has e.n
// rows and is owned by the caller.
func (ev *evaluator) eval(e *env, b *expr.Bound) (datum.Datum, error) {
	switch b.Kind() {
	case expr.KindRoot:
		if e.root == nil {
			return datum.Datum{}, errors.New("eval: the expression reads $ but has no input")
		}
		return e.root.get(ev.mem)
	case expr.KindVar:
		v := e.lookup(b.Name())
		if v == nil {
			return datum.Datum{}, fmt.Errorf("eval: no value for the variable %q", b.Name())
		}
		return v.get(ev.mem)
	case expr.KindLambda:
		return datum.Datum{}, errors.New("eval: a lambda outside a higher-order function")
	}
	switch f := b.Fn().(type) {
	case fn.LiteralFn:
		return datum.FromScalar(f.Value, e.n), nil
	case fn.GetItemFn:
		return ev.getItem(e, b, f)
	case fn.CaseWhenFn:
		return ev.caseWhen(e, b, f)
	}
	switch lazyForm(b.Fn()) {
	case formCoalesce:
		return ev.coalesce(e, b)
	case formList:
		return ev.listLambda(e, b)
	case formReduce:
		return ev.listReduce(e, b)
	}
	return ev.kernel(e, b)
}

// getItem reads a struct field. On $, a variable or a field of those, the
// field has its own binding: on the input it is the child column itself,
// and in a subset or element env only that field is gathered.
func (ev *evaluator) getItem(e *env, b *expr.Bound, g fn.GetItemFn) (datum.Datum, error) {
	if fb, err := ev.bindingOf(e, b); fb != nil || err != nil {
		if err != nil {
			return datum.Datum{}, err
		}
		return fb.get(ev.mem)
	}
	arg, err := ev.eval(e, b.Arg(0))
	if err != nil {
		return datum.Datum{}, err
	}
	defer arg.Release()
	return structField(ev.mem, arg, g.Field, b.DType())
}

// bindingOf is the binding b reads when b is $, a variable, or a chain of
// get_item on them; nil otherwise.
func (ev *evaluator) bindingOf(e *env, b *expr.Bound) (*binding, error) {
	switch b.Kind() {
	case expr.KindRoot:
		return e.root, nil
	case expr.KindVar:
		return e.lookup(b.Name()), nil
	case expr.KindCall:
		g, ok := b.Fn().(fn.GetItemFn)
		if !ok {
			return nil, nil
		}
		p, err := ev.bindingOf(e, b.Arg(0))
		if p == nil || err != nil {
			return nil, err
		}
		return p.field(ev.mem, g.Field, b.DType())
	}
	return nil, nil
}

// kernel evaluates a call with an eager kernel: every argument first, then
// the kernel. When every argument is a scalar, the kernel runs on one row
// and the result stays a scalar: `1 + 2` is computed once, and `col + 1`
// never makes a column of ones.
func (ev *evaluator) kernel(e *env, b *expr.Bound) (datum.Datum, error) {
	k, ok := b.Fn().(fn.Kernel)
	if !ok {
		return datum.Datum{}, noKernel(b.Fn())
	}
	operands := b.Args()
	run := func(args []datum.Datum) (datum.Datum, error) { return k.Eval(&ev.ctx, args, b.DType()) }
	if b.IsCall(fn.IDStringConcat) && len(operands) == 2 && operands[0].IsCall(fn.IDStringConcat) && !b.DType().IsList() {
		// A chain (a || b) || c … is joined in one pass: link by link,
		// each row's text so far would be copied again at every link,
		// which is quadratic in the length of the chain.
		operands = concatOperands(b)
		run = func(args []datum.Datum) (datum.Datum, error) { return kernels.ConcatStrict(ev.mem, args, b.DType()) }
	}
	args := make([]datum.Datum, len(operands))
	defer func() {
		for _, a := range args {
			a.Release()
		}
	}()
	allScalar := true
	for i, a := range operands {
		d, err := ev.eval(e, a)
		if err != nil {
			return datum.Datum{}, err
		}
		args[i] = d
		allScalar = allScalar && d.IsScalar()
	}
	rows := e.n
	if allScalar {
		rows = 1
		for i := range args {
			args[i] = datum.FromScalar(args[i].Scalar(), 1)
		}
	}
	out, err := run(args)
	if err != nil {
		return datum.Datum{}, callError(e, b, rows, err)
	}
	if out.Len() != rows {
		out.Release()
		return datum.Datum{}, &Error{Expr: expr.Shorten(b.String()), Row: -1,
			Err: fmt.Errorf("kernel %s returned %d rows for %d", b.Fn().ID(), out.Len(), rows)}
	}
	if !out.IsScalar() && !holdsType(out.Array().DataType(), b.DType()) {
		got := out.Array().DataType()
		out.Release()
		return datum.Datum{}, &Error{Expr: expr.Shorten(b.String()), Row: -1,
			Err: fmt.Errorf("kernel %s returned an array of Arrow type %s for %s", b.Fn().ID(), got, b.DType())}
	}
	if !allScalar {
		if out.IsScalar() {
			return datum.FromScalar(out.Scalar(), e.n), nil
		}
		return datum.FromArray(out.Array(), b.DType()), nil
	}
	defer out.Release()
	s, err := toScalar(out, b.DType())
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(s, e.n), nil
}

// concatOperands are the operands of the chain of || whose top is b, left
// to right: the right operands down its left spine, then what is left.
func concatOperands(b *expr.Bound) []*expr.Bound {
	var ops []*expr.Bound
	n := b
	for n.IsCall(fn.IDStringConcat) && len(n.Args()) == 2 {
		ops = append(ops, n.Arg(1))
		n = n.Arg(0)
	}
	ops = append(ops, n)
	slices.Reverse(ops)
	return ops
}

type form uint8

const (
	formKernel form = iota
	formCoalesce
	formList
	formReduce
)

// lazyForm says how a function that evaluates some arguments only on the
// rows that need them (fn.Properties.Lazy) is evaluated by this package.
// (case_when, literal and get_item are recognised by their option types.)
// A lazy function this package does not know goes to its kernel.
func lazyForm(f fn.Function) form {
	if !fn.PropertiesOf(f).Lazy {
		return formKernel
	}
	if _, ok := f.(fn.HigherOrder); ok {
		switch f.ID() {
		case fn.IDListTransform, fn.IDListFilter, fn.IDListAny, fn.IDListAll:
			return formList
		case fn.IDListReduce:
			return formReduce
		}
	}
	switch f.ID() {
	case fn.IDCoalesce, fn.IDFillNull:
		return formCoalesce
	}
	return formKernel
}

// analysis is what an evaluation needs to know about a tree before it
// starts.
type analysis struct {
	usesRoot bool
	root     dtype.DType
	free     map[string]dtype.DType
}

// analyze checks that every node of b can be evaluated (a function without
// a kernel fails here, before any work) and finds the type of $ and the
// free variables.
func analyze(b *expr.Bound) (analysis, error) {
	var a analysis
	type item struct {
		b     *expr.Bound
		bound []string // lambda parameters in scope
	}
	stack := []item{{b: b}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.b
		switch n.Kind() {
		case expr.KindRoot:
			if a.usesRoot && !a.root.EqualIgnoreNullability(n.DType()) {
				return a, fmt.Errorf("eval: the tree reads $ as both %s and %s", a.root, n.DType())
			}
			a.usesRoot, a.root = true, n.DType()
			continue
		case expr.KindVar:
			if contains(it.bound, n.Name()) {
				continue
			}
			if t, ok := a.free[n.Name()]; ok && !t.EqualIgnoreNullability(n.DType()) {
				return a, fmt.Errorf("eval: the tree reads variable %q as both %s and %s", n.Name(), t, n.DType())
			}
			if a.free == nil {
				a.free = map[string]dtype.DType{}
			}
			a.free[n.Name()] = n.DType()
			continue
		case expr.KindLambda:
			return a, errors.New("eval: a lambda outside a higher-order function")
		}
		f := n.Fn()
		if f == nil {
			return a, errors.New("eval: a call without a function")
		}
		switch f.(type) {
		case fn.LiteralFn, fn.GetItemFn, fn.CaseWhenFn:
		default:
			if lazyForm(f) == formKernel {
				if _, ok := f.(fn.Kernel); !ok {
					return a, noKernel(f)
				}
			}
		}
		for i, arg := range n.Args() {
			if arg.Kind() != expr.KindLambda {
				stack = append(stack, item{arg, it.bound})
				continue
			}
			form := lazyForm(f)
			if (form != formList && form != formReduce) || i != 1 {
				return a, fmt.Errorf("eval: %s takes a lambda as argument %d, which this evaluator cannot evaluate", f.ID(), i+1)
			}
			lo, hi := 1, 1 // the element
			switch {
			case form == formReduce:
				lo, hi = 2, 3 // the accumulator, the element, its index
			case f.ID() == fn.IDListTransform || f.ID() == fn.IDListFilter:
				hi = 2 // the element, its index
			}
			if k := len(arg.Params()); k < lo || k > hi {
				return a, fmt.Errorf("eval: the lambda of %s takes %d parameters, want %d to %d", f.ID(), k, lo, hi)
			}
			inner := append(append([]string(nil), it.bound...), arg.Params()...)
			stack = append(stack, item{arg.Body(), inner})
		}
	}
	return a, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
