package expr

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Kind is the kind of a Bound node.
type Kind uint8

// The kinds of Bound node, one per Expr node kind.
const (
	KindCall Kind = iota
	KindRoot
	KindVar
	KindLambda
)

// Bound is a type-checked expression node: the node, its bound children and
// its dtype. Bound trees are immutable and share unchanged subtrees.
//
// A lambda node has its body as its only child and the body's dtype as its
// own; its parameter types come from the higher-order function it belongs to.
type Bound struct {
	kind   Kind
	fn     fn.Function
	id     string // fn.ID(), kept so hot paths (the optimizer) skip the interface call
	args   []*Bound
	name   string
	params []string
	ptypes []dtype.DType
	dt     dtype.DType
	depth  int32 // levels from this node down to its deepest leaf; a leaf is 1
	size   int32 // nodes in the tree, a shared subtree once per use (saturating)
}

// Kind is the node kind.
func (b *Bound) Kind() Kind { return b.kind }

// Fn is the function of a call node (nil for other kinds).
func (b *Bound) Fn() fn.Function { return b.fn }

// Args are the children: a call's arguments, a lambda's body. The slice must
// not be modified.
func (b *Bound) Args() []*Bound { return b.args }

// Arg is child i.
func (b *Bound) Arg(i int) *Bound { return b.args[i] }

// Name is the name of a variable node.
func (b *Bound) Name() string { return b.name }

// Params are the parameter names of a lambda node.
func (b *Bound) Params() []string { return b.params }

// ParamTypes are the parameter dtypes of a lambda node.
func (b *Bound) ParamTypes() []dtype.DType { return b.ptypes }

// Body is the body of a lambda node.
func (b *Bound) Body() *Bound { return b.args[0] }

// DType is the node's type.
func (b *Bound) DType() dtype.DType { return b.dt }

// Depth is the number of levels from b down to its deepest leaf (a leaf is
// 1). It is recorded when the node is made, so asking costs nothing; no
// Bound tree is deeper than MaxDepth (+1 for a lambda on top).
func (b *Bound) Depth() int { return int(b.depth) }

// Size is the number of nodes of b's tree, a shared subtree counted once
// per use, saturating at the largest int32. Like Depth it is recorded when
// the node is made.
func (b *Bound) Size() int { return int(b.size) }

// shapeOf is the depth and the size of a node with children args: 1 +
// the depth of the deepest, and 1 + their sizes, saturating. One loop
// serves both: an IN list has hundreds of arguments.
func shapeOf(args []*Bound) (depth, size int32) {
	n := int64(1)
	for _, a := range args {
		if a != nil {
			n += int64(a.size)
			depth = max(depth, a.depth)
		}
	}
	return depth + 1, int32(min(n, math.MaxInt32))
}

// IsCall reports whether b calls the function with the given id.
func (b *Bound) IsCall(id string) bool { return b.kind == KindCall && b.id == id }

// FnID is the id of a call node's function ("" for other kinds): Fn().ID()
// without the interface call.
func (b *Bound) FnID() string { return b.id }

// Literal is the value of a literal node; ok is false for other nodes.
func (b *Bound) Literal() (s scalar.Scalar, ok bool) {
	if b.kind != KindCall {
		return scalar.Scalar{}, false
	}
	l, ok := b.fn.(fn.LiteralFn)
	return l.Value, ok
}

// NewRoot is the root node of type t.
func NewRoot(t dtype.DType) *Bound { return &Bound{kind: KindRoot, dt: t, depth: 1, size: 1} }

// NewVar is the variable name of type t.
func NewVar(name string, t dtype.DType) *Bound {
	return &Bound{kind: KindVar, name: name, dt: t, depth: 1, size: 1}
}

// NewLiteral is the typed literal s.
func NewLiteral(s scalar.Scalar) *Bound {
	return &Bound{kind: KindCall, fn: fn.Literal(s), id: fn.IDLiteral, dt: s.DType(), depth: 1, size: 1}
}

// NewLambda is a lambda with typed parameters and a bound body.
func NewLambda(params []string, types []dtype.DType, body *Bound) *Bound {
	return &Bound{kind: KindLambda, params: params, ptypes: types, args: []*Bound{body}, dt: body.dt, depth: body.depth + 1, size: int32(min(int64(body.size)+1, math.MaxInt32))}
}

// NewCall types f applied to bound args and returns the call node, or the
// typing error. A call deeper than MaxDepth is an error wrapping
// ErrTooDeep.
//
// The dtypes handed to f.ReturnType are scratch space that NewCall reuses
// once ReturnType returns: a Function must not keep its argument slice.
func NewCall(f fn.Function, args ...*Bound) (*Bound, error) {
	if err := fn.CheckArity(f, len(args)); err != nil {
		return nil, err
	}
	depth, size := shapeOf(args)
	if depth > MaxDepth {
		return nil, tooDeep()
	}
	// A long argument list (an IN list) borrows its dtypes slice from a
	// pool: the slice escapes through the interface call, and allocating
	// and clearing it would cost more than typing the call.
	var types []dtype.DType
	var pooled *[]dtype.DType
	if len(args) > pooledTypesMin {
		pooled = typesPool.Get().(*[]dtype.DType)
		if cap(*pooled) < len(args) {
			*pooled = make([]dtype.DType, len(args))
		}
		types = (*pooled)[:len(args)]
	} else {
		types = make([]dtype.DType, len(args))
	}
	t, err := typeCall(f, args, types)
	if pooled != nil {
		clear(types) // a pooled slice holds no nested dtype alive
		if cap(*pooled) <= pooledTypesMax {
			typesPool.Put(pooled)
		}
	}
	if err != nil {
		return nil, err
	}
	return &Bound{kind: KindCall, fn: f, id: f.ID(), args: args, dt: t, depth: depth, size: size}, nil
}

// Argument counts above pooledTypesMin take their dtypes slice from
// typesPool; slices longer than pooledTypesMax are not kept.
const (
	pooledTypesMin = 8
	pooledTypesMax = 1 << 12
)

var typesPool = sync.Pool{New: func() any { s := make([]dtype.DType, 0, 64); return &s }}

// typeCall checks that lambdas are exactly where f takes them, fills types
// with the arguments' dtypes and returns f's ReturnType of them.
func typeCall(f fn.Function, args []*Bound, types []dtype.DType) (dtype.DType, error) {
	hof, _ := f.(fn.HigherOrder)
	for i, a := range args {
		isLambda := hof != nil && hof.IsLambdaArg(i)
		if (a.kind == KindLambda) != isLambda {
			if isLambda {
				return dtype.DType{}, &fn.ArgError{Fn: f.ID(), Arg: i, Msg: "must be a lambda"}
			}
			return dtype.DType{}, &fn.ArgError{Fn: f.ID(), Arg: i, Msg: "is a lambda, which only a higher-order function takes"}
		}
		types[i] = a.dt
	}
	if ct, ok := f.(fn.ConstTyper); ok {
		return ct.ReturnTypeConst(types, literalValues(args))
	}
	return f.ReturnType(types)
}

// literalValues are the values of the arguments that are literals (nil for
// the others), for a fn.ConstTyper.
func literalValues(args []*Bound) []*scalar.Scalar {
	vals := make([]*scalar.Scalar, len(args))
	for i, a := range args {
		if l, ok := a.fn.(fn.LiteralFn); ok && a.kind == KindCall {
			v := l.Value
			vals[i] = &v
		}
	}
	return vals
}

// WithArgs is b with its children replaced, retyped. It returns b itself
// when every child is the same pointer.
func (b *Bound) WithArgs(args []*Bound) (*Bound, error) {
	same := len(args) == len(b.args)
	for i := 0; same && i < len(args); i++ {
		same = args[i] == b.args[i]
	}
	if same {
		return b, nil
	}
	switch b.kind {
	case KindLambda:
		return NewLambda(b.params, b.ptypes, args[0]), nil
	case KindCall:
		return NewCall(b.fn, args...)
	}
	return nil, fmt.Errorf("expr: a %v node has no children", b.kind)
}

// WithArgsSameTypes is WithArgs for children that keep the dtypes of the
// ones they replace, as rewrites that preserve types do: when every new
// child has exactly (dtype.Equal) the dtype of the old child at its place,
// and is a lambda exactly where the old one was, the node's function would
// type it as before, so the copy keeps b's dtype without asking the
// function again. Otherwise it is WithArgs.
func (b *Bound) WithArgsSameTypes(args []*Bound) (*Bound, error) {
	if b.kind != KindCall || len(args) != len(b.args) {
		return b.WithArgs(args)
	}
	same := true
	for i, a := range args {
		old := b.args[i]
		if a == old {
			continue
		}
		same = false
		if a == nil || (a.kind == KindLambda) != (old.kind == KindLambda) || !a.dt.Equal(old.dt) {
			return b.WithArgs(args)
		}
	}
	if same {
		return b, nil
	}
	depth, size := shapeOf(args)
	if depth > MaxDepth {
		return nil, tooDeep()
	}
	return &Bound{kind: KindCall, fn: b.fn, id: b.id, args: args, dt: b.dt, depth: depth, size: size}, nil
}

func (k Kind) String() string {
	switch k {
	case KindCall:
		return "call"
	case KindRoot:
		return "root"
	case KindVar:
		return "var"
	case KindLambda:
		return "lambda"
	}
	return "kind?"
}

// Expr is the unbound tree b was bound from (or an equivalent one).
func (b *Bound) Expr() Expr {
	switch b.kind {
	case KindRoot:
		return root
	case KindVar:
		return &Var{Name: b.name}
	case KindLambda:
		return &Lambda{Params: b.params, Body: b.args[0].Expr()}
	}
	args := make([]Expr, len(b.args))
	for i, a := range b.args {
		args[i] = a.Expr()
	}
	return &Call{Fn: b.fn, Args: args}
}

// String is the canonical text of b.
func (b *Bound) String() string { return Format(b.Expr()) }

// Tree prints b one node per line, indented by depth, with the dtype of
// every node: the form golden tests and explain use.
//
//	gt :: bool?
//	  get_item a :: i32?
//	    $ :: struct<a: i32?>
//	  literal 5::i32 :: i32
func (b *Bound) Tree() string {
	s, _ := b.TreeUpTo(-1)
	return s
}

// TreeUpTo is Tree cut after max lines (no limit when max < 0): the lines,
// and the number of nodes left out. A tree's first lines are its top nodes,
// so a cut tree costs time and space for max lines only — the whole of a
// deep chain would take its depth squared, in indentation.
func (b *Bound) TreeUpTo(max int) (string, int) {
	var sb strings.Builder
	type item struct {
		n     *Bound
		depth int
	}
	stack := []item{{b, 0}}
	lines, left := 0, 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if max >= 0 && lines >= max {
			left++
			for i := len(it.n.args) - 1; i >= 0; i-- {
				stack = append(stack, item{it.n.args[i], 0})
			}
			continue
		}
		lines++
		sb.WriteString(strings.Repeat("  ", it.depth))
		sb.WriteString(Label(it.n))
		sb.WriteString(" :: ")
		sb.WriteString(it.n.dt.String())
		sb.WriteByte('\n')
		for i := len(it.n.args) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.args[i], it.depth + 1})
		}
	}
	return sb.String(), left
}

// Label names a node and its options on one line, without its children.
func Label(b *Bound) string {
	switch b.kind {
	case KindRoot:
		return "$"
	case KindVar:
		return "var " + b.name
	case KindLambda:
		parts := make([]string, len(b.params))
		for i, p := range b.params {
			parts[i] = p + ": " + b.ptypes[i].String()
		}
		return "lambda (" + strings.Join(parts, ", ") + ")"
	}
	return FnLabel(b.fn)
}

// FnLabel is a function's id followed by its options.
func FnLabel(f fn.Function) string {
	switch o := f.(type) {
	case fn.LiteralFn:
		if o.Untyped {
			return "literal " + o.Value.SQL() + " (untyped)"
		}
		return "literal " + o.Value.SQL()
	case fn.GetItemFn:
		return "get_item " + dtype.QuoteFieldName(o.Field)
	case fn.CastFn:
		return o.ID() + " " + o.To.String()
	case fn.PackFn:
		return "pack {" + strings.Join(o.Names, ", ") + "}"
	case fn.SelectFn:
		if o.Exclude {
			return "select exclude {" + strings.Join(o.Names, ", ") + "}"
		}
		return "select {" + strings.Join(o.Names, ", ") + "}"
	case fn.LikeFn:
		label := o.ID()
		if o.Negated {
			label += " negated"
		}
		if esc, ok := o.EscapeText(); ok {
			label += " escape " + dtype.QuoteString(esc)
		}
		return label
	case fn.CaseWhenFn:
		if o.HasElse {
			return "case_when with else"
		}
	}
	return f.ID()
}
