package optimize

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The fold family: constant folding with the evaluator's own kernels.

// FoldConstant evaluates a call whose arguments are all literals and
// replaces it by the literal result, with the call's dtype:
//
//	1::i32 + 2::i32          →  3::i32
//	lower('ABC')             →  'abc'
//	list_transform([1, 2], x -> x * 2)  →  [2, 4]
//	pi()                     →  3.141592653589793
//	current_date             →  DATE '2026-12-03' (the parse's instant, fn.ClockFn)
//
// It folds only Immutable functions, and only when evaluation succeeds:
// `1::i8 + 127::i8` overflows, so it stays as it is and raises its error
// where the data would (a folded error would surface even where no row ever
// reaches it, say in an untaken CASE branch). A lambda argument counts as
// constant when its body uses only its own parameters and literals; a
// subtree that reads $ or a free variable is never constant.
var FoldConstant = &Rule{
	Name:     "fold/constant",
	AnyCall:  true,
	ConstArg: true,
	Rewrite:  foldConstant,
}

func foldConstant(c *Context, n *expr.Bound) *expr.Bound {
	// The common case first, inlined: a first argument that is neither a
	// literal nor a lambda.
	if args := n.Args(); len(args) > 0 && !mayBeLiteral(args[0]) && args[0].Kind() != expr.KindLambda {
		return nil
	}
	return c.Fold(n)
}

// isConstantCall reports whether n is an Immutable call other than a
// literal whose arguments are literals or closed lambdas (or that has
// none: pi(), a clock fixed at its parse's instant).
func isConstantCall(n *expr.Bound) bool {
	if n.Kind() != expr.KindCall || len(n.Args()) == 0 && !isCallLeaf(n) {
		return false
	}
	lambdas := false
	for _, a := range n.Args() {
		switch a.Kind() {
		case expr.KindLambda:
			lambdas = true
		case expr.KindCall:
			if !isLiteral(a) {
				return false
			}
		default:
			return false
		}
	}
	if n.Fn().Volatility() != fn.Immutable {
		return false
	}
	if lambdas {
		for _, a := range n.Args() {
			if a.Kind() == expr.KindLambda && !closedLambda(a) {
				return false
			}
		}
	}
	return true
}

// closedLambda reports whether a lambda's body refers to nothing but the
// parameters of lambdas it is inside of (its own and nested ones), and
// calls only Immutable functions: no $, no free variable.
func closedLambda(l *expr.Bound) bool {
	type item struct {
		n     *expr.Bound
		depth int // index into frames of the innermost enclosing lambda
	}
	frames := [][]string{l.Params()}
	parent := []int{-1}
	stack := []item{{l.Body(), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch it.n.Kind() {
		case expr.KindRoot:
			return false
		case expr.KindVar:
			if !boundIn(it.n.Name(), frames, parent, it.depth) {
				return false
			}
		case expr.KindLambda:
			frames = append(frames, it.n.Params())
			parent = append(parent, it.depth)
			stack = append(stack, item{it.n.Body(), len(frames) - 1})
		case expr.KindCall:
			if it.n.Fn().Volatility() != fn.Immutable {
				return false
			}
			for _, a := range it.n.Args() {
				stack = append(stack, item{a, it.depth})
			}
		}
	}
	return true
}

func boundIn(name string, frames [][]string, parent []int, f int) bool {
	for ; f >= 0; f = parent[f] {
		for _, p := range frames[f] {
			if p == name {
				return true
			}
		}
	}
	return false
}

// fold evaluates the constant call n; nil when evaluation fails.
func (r *run) fold(n *expr.Bound) *expr.Bound {
	s, err := r.o.eval(r.o.mem, n)
	if err != nil {
		return nil
	}
	return literalOf(s, n.DType())
}

// literalOf is the literal s with dtype t. A scalar whose dtype differs
// from t only in top-level nullability is relabelled; any other difference
// gives the scalar's own dtype, which the engine then rejects, so an
// evaluator that returns the wrong type shows up in traces and tests.
func literalOf(s scalar.Scalar, t dtype.DType) *expr.Bound {
	if s.DType().Equal(t) {
		return expr.NewLiteral(s)
	}
	if s.IsNull() && !t.Nullable() {
		return expr.NewLiteral(s)
	}
	if s.DType().AsNullable().Equal(t.AsNullable()) || (s.IsNull() && s.DType().IsNull()) {
		return expr.NewLiteral(s.WithDType(t))
	}
	return expr.NewLiteral(s)
}

// nullLiteral is the null of type t (which must be nullable).
func nullLiteral(t dtype.DType) *expr.Bound { return expr.NewLiteral(scalar.Null(t)) }

// boolLiteral is the non-null boolean v with dtype t (bool or bool?).
func boolLiteral(v bool, t dtype.DType) *expr.Bound {
	return expr.NewLiteral(scalar.Bool(v).WithDType(t))
}
