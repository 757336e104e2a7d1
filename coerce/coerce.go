package coerce

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Coerce returns e with the casts and literal adaptations that make it bind
// against scope (see the package doc for the rules). Subtrees that need no
// change are returned as they are, pointers included: an expression that
// already binds comes back unchanged.
//
// Errors are *Error (no common type, wrapping ErrNoCommonType) or
// *expr.BindError (anything binding itself rejects: an unknown field, an
// unresolved variable, a misplaced lambda, an argument of the wrong kind).
// Both name the path of the offending node.
func Coerce(e expr.Expr, scope expr.Scope) (expr.Expr, error) {
	out, _, err := run(e, scope)
	return out, err
}

// Bind is Coerce followed by expr.Bind, done in the same walk: every node is
// bound once.
func Bind(e expr.Expr, scope expr.Scope) (*expr.Bound, error) {
	_, b, err := run(e, scope)
	return b, err
}

// CoerceAndBind is Coerce and Bind in one walk: it returns the coerced
// expression and its bound tree.
func CoerceAndBind(e expr.Expr, scope expr.Scope) (expr.Expr, *expr.Bound, error) {
	return run(e, scope)
}

func run(e expr.Expr, scope expr.Scope) (expr.Expr, *expr.Bound, error) {
	return expr.BindWith(e, scope, &walker{})
}

// arg is a coerced sub-expression together with its bound form.
type arg = expr.Arg

// walker is the hook through which expr.BindWith coerces: the binder binds
// each node's children first, then the walker's rule inserts casts using
// the children's dtypes, and the node is bound once from its bound
// children. at is where the call being coerced is, for errors.
type walker struct{ at expr.Site }

// Call applies c's rule to its bound arguments.
func (w *walker) Call(at expr.Site, c *expr.Call, args []expr.Arg) error {
	w.at = at
	return w.rule(c, args)
}

// LambdaBody makes a null body of a predicate lambda bool; anything else is
// left for binding to judge.
func (w *walker) LambdaBody(at expr.Site, c *expr.Call, i int, body expr.Arg) (expr.Arg, error) {
	if !fn.PropertiesOf(c.Fn).PredicateLambda {
		return body, nil
	}
	return nullToBool(body)
}

func (w *walker) where() string { return w.at.Path() }
