package coerce

import (
	"errors"
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/dtype"
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

func run(e expr.Expr, scope expr.Scope) (expr.Expr, *expr.Bound, error) {
	w := walker{scope: &scope}
	a, err := w.walk(e)
	if err != nil {
		return nil, nil, err
	}
	return a.e, a.b, nil
}

// arg is a coerced sub-expression together with its bound form.
type arg struct {
	e expr.Expr
	b *expr.Bound
}

// dt is the dtype of the argument.
func (a arg) dt() dtype.DType { return a.b.DType() }

// walker coerces bottom-up: each node's children are coerced and bound
// first, then the node's rule inserts casts using the children's dtypes, and
// the node is bound once from its bound children. path is the path of the
// node being visited, kept as a stack so that it costs nothing until an
// error is reported.
type walker struct {
	path []string
	// scope is the scope of the node being visited; a lambda body swaps in
	// its own. Held here rather than passed down, to keep the recursion's
	// stack frames small: deep trees make deep stacks, which the garbage
	// collector scans on every cycle.
	scope *expr.Scope
}

func (w *walker) push(seg string) { w.path = append(w.path, seg) }

// argSegs are the path segments of the first arguments, made once.
var argSegs = func() []string {
	segs := make([]string, 16)
	for i := range segs {
		segs[i] = fmt.Sprintf("args[%d]", i)
	}
	return segs
}()

// pushArg pushes the path segment of argument i.
func (w *walker) pushArg(i int) {
	if i < len(argSegs) {
		w.push(argSegs[i])
		return
	}
	w.push(fmt.Sprintf("args[%d]", i))
}

func (w *walker) pop()          { w.path = w.path[:len(w.path)-1] }
func (w *walker) where() string { return strings.Join(w.path, ".") }

// bindFail reports err at node e, the node being visited.
func (w *walker) bindFail(e expr.Expr, err error) error {
	return &expr.BindError{Path: w.where(), Node: expr.Shorten(expr.Format(e)), Err: err}
}

// leaf binds a node without children (or reports why it cannot be bound),
// placing binding's error at the walker's path.
func (w *walker) leaf(e expr.Expr) (arg, error) {
	scope := *w.scope
	switch n := e.(type) {
	case *expr.Root:
		return arg{e, expr.NewRoot(scope.Root())}, nil
	case *expr.Var:
		if t, ok := scope.Lookup(n.Name); ok {
			return arg{e, expr.NewVar(n.Name, t)}, nil
		}
	case *expr.Call:
		if l, ok := n.Fn.(fn.LiteralFn); ok && len(n.Args) == 0 {
			b, err := expr.NewCall(l)
			if err == nil {
				return arg{e, b}, nil
			}
		}
	}
	b, err := expr.Bind(e, scope)
	if err != nil {
		var be *expr.BindError
		if errors.As(err, &be) {
			return arg{}, &expr.BindError{Path: w.where(), Node: be.Node, Err: be.Err}
		}
		return arg{}, err
	}
	return arg{e, b}, nil
}

func (w *walker) walk(e expr.Expr) (arg, error) {
	if len(w.path) >= expr.MaxDepth {
		// The walk recurses: refuse what binding would refuse, before the
		// stack runs out. The path is MaxDepth segments long: shorten it.
		return arg{}, &expr.BindError{Path: expr.Shorten(w.where()), Node: expr.Shorten(expr.Format(e)),
			Err: fmt.Errorf("%w (more than %d levels)", expr.ErrTooDeep, expr.MaxDepth)}
	}
	c, ok := e.(*expr.Call)
	if ok && c.Fn == nil {
		// Not something the parser makes; the printer cannot show it.
		return arg{}, &expr.BindError{Path: w.where(), Node: "<call without a function>", Err: errors.New("call without a function")}
	}
	if !ok || len(c.Args) == 0 {
		// Root, variables, literals, and the misplaced lambda or nil node
		// that binding rejects.
		return w.leaf(e)
	}
	return w.call(c)
}

func (w *walker) call(c *expr.Call) (arg, error) {
	if err := fn.CheckArity(c.Fn, len(c.Args)); err != nil {
		return arg{}, w.bindFail(c, typeError{err})
	}
	hof, _ := c.Fn.(fn.HigherOrder)
	args := make([]arg, len(c.Args))
	// Plain arguments first: a lambda's parameter types depend on them.
	// This loop is the recursion; everything else happens in helpers so
	// that this frame, repeated once per level of a deep tree, stays small.
	for i, a := range c.Args {
		if hof != nil && hof.IsLambdaArg(i) {
			if _, isLambda := a.(*expr.Lambda); !isLambda {
				return arg{}, w.lambdaWanted(c, i)
			}
			continue
		}
		w.pushArg(i)
		ca, err := w.walk(a)
		w.pop()
		if err != nil {
			return arg{}, err
		}
		args[i] = ca
	}
	return w.complete(c, hof, args)
}

// lambdaWanted is the error for argument i of c, which must be a lambda.
func (w *walker) lambdaWanted(c *expr.Call, i int) error {
	w.pushArg(i)
	defer w.pop()
	return w.bindFail(c.Args[i], fmt.Errorf("%w: argument %d of %s must be a lambda such as x -> x + 1", expr.ErrMisplacedLambda, i+1, c.Fn.ID()))
}

// complete finishes the call c whose plain arguments are coerced: it
// coerces the lambdas' bodies, applies c's rule and binds c.
func (w *walker) complete(c *expr.Call, hof fn.HigherOrder, args []arg) (arg, error) {
	if hof != nil {
		types := make([]dtype.DType, len(args))
		for i, a := range args {
			if a.b != nil {
				types[i] = a.dt()
			}
		}
		for i, a := range c.Args {
			if !hof.IsLambdaArg(i) {
				continue
			}
			la, err := w.lambda(c, hof, i, a.(*expr.Lambda), types)
			if err != nil {
				return arg{}, err
			}
			args[i] = la
		}
	}
	if err := w.rule(c, args); err != nil {
		return arg{}, err
	}
	return w.finish(c, args)
}

// lambda coerces the body of the lambda at argument i of the higher-order
// call c, in the scope extended by a frame with the parameter types c gives
// it.
func (w *walker) lambda(c *expr.Call, hof fn.HigherOrder, i int, l *expr.Lambda, types []dtype.DType) (arg, error) {
	params, err := hof.LambdaParams(i, types)
	if err != nil {
		return arg{}, w.bindFail(c, typeError{err})
	}
	w.pushArg(i)
	defer w.pop()
	if len(params) != len(l.Params) {
		return arg{}, w.bindFail(l, fmt.Errorf("%w: %s gives its lambda %d parameter(s), this one takes %d", expr.ErrMisplacedLambda, c.Fn.ID(), len(params), len(l.Params)))
	}
	w.push("body")
	outer := w.scope
	inner := outer.Push(l.Params, params)
	w.scope = &inner
	body, err := w.walk(l.Body)
	w.scope = outer
	if err == nil && wantsBoolBody(c.Fn.ID()) {
		body, err = nullToBool(body)
	}
	w.pop()
	if err != nil {
		return arg{}, err
	}
	var e expr.Expr = l
	if body.e != l.Body {
		e = &expr.Lambda{Params: l.Params, Body: body.e}
	}
	return arg{e, expr.NewLambda(l.Params, params, body.b)}, nil
}

// wantsBoolBody reports whether the lambda of the higher-order function id
// is a predicate.
func wantsBoolBody(id string) bool {
	switch id {
	case "list_filter", "list_any", "list_all":
		return true
	}
	return false
}

// finish binds the call from its coerced, bound arguments and rebuilds the
// unbound node when an argument changed.
func (w *walker) finish(c *expr.Call, args []arg) (arg, error) {
	bound := make([]*expr.Bound, len(args))
	same := true
	for i, a := range args {
		bound[i] = a.b
		same = same && a.e == c.Args[i]
	}
	b, err := expr.NewCall(c.Fn, bound...)
	if err != nil {
		var ae *fn.ArgError
		if errors.As(err, &ae) && ae.Arg >= 0 && ae.Arg < len(c.Args) {
			w.pushArg(ae.Arg)
			err = w.bindFail(args[ae.Arg].e, typeError{err})
			w.pop()
			return arg{}, err
		}
		return arg{}, w.bindFail(c, typeError{err})
	}
	if same {
		return arg{c, b}, nil
	}
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		out[i] = a.e
	}
	return arg{&expr.Call{Fn: c.Fn, Args: out}, b}, nil
}
