package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
)

// Sentinel causes of bind errors; test with errors.Is.
var (
	// ErrUnresolvedVariable: a variable no frame of the scope defines.
	ErrUnresolvedVariable = errors.New("unresolved variable")
	// ErrMisplacedLambda: a lambda where no higher-order function takes one,
	// or a missing lambda where one must be.
	ErrMisplacedLambda = errors.New("misplaced lambda")
	// ErrType: a call whose arguments do not type-check (the cause is an
	// *fn.ArgError naming the function and argument).
	ErrType = errors.New("type error")
)

// BindError says where binding failed: the path from the root of the tree
// to the offending node (such as `args[1].body.args[0]`, empty for the root
// node itself), the node's text, and why.
type BindError struct {
	Path string
	Node string
	Err  error
}

func (e *BindError) Error() string {
	where := e.Path
	if where == "" {
		where = "the root node"
	}
	return fmt.Sprintf("bind: at %s `%s`: %v", where, e.Node, e.Err)
}

func (e *BindError) Unwrap() error { return e.Err }

type typeError struct{ err error }

func (t typeError) Error() string { return t.err.Error() }
func (t typeError) Unwrap() []error {
	return []error{ErrType, t.err}
}

// Bind type-checks e against scope in one walk and returns the bound tree
// with a dtype on every node.
//
// Root resolves to the scope's root dtype, a variable to the innermost
// frame that defines it. A higher-order function pushes a frame with its
// lambda's parameter types before binding the body, so the body may use
// those parameters, outer variables and root fields. Every $ of the tree is
// one shared node, and so is every $.field.
func Bind(e Expr, scope Scope) (*Bound, error) {
	_, b, err := BindWith(e, scope, nil)
	return b, err
}

// Arg is a sub-expression as a Hook sees it: the expression and its bound
// form.
type Arg struct {
	Expr  Expr
	Bound *Bound
}

// DType is the dtype of the bound form.
func (a Arg) DType() dtype.DType { return a.Bound.dt }

// A Hook adapts calls while BindWith types them: package coerce is one, and
// inserts the casts that make a call's arguments meet. The binder does the
// walking, the scopes of lambdas and the placing of errors; a hook only
// decides, call by call, what the arguments should be.
type Hook interface {
	// Call may replace elements of args — the arguments of c, bound, its
	// lambdas included — before c is typed from them. An error is returned
	// as it is; at says where c is, for its text.
	Call(at Site, c *Call, args []Arg) error
	// LambdaBody may replace the bound body of the lambda at argument i of
	// c, before the lambda is built from it.
	LambdaBody(at Site, c *Call, i int, body Arg) (Arg, error)
}

// Site is where in the tree a Hook is called.
type Site struct{ b *binder }

// Path is the path from the root to the node, as in BindError (empty for
// the root).
func (s Site) Path() string { return strings.Join(s.b.path, ".") }

// BindWith is Bind with a hook that adapts each call before it is typed.
// It returns the expression the hook made (e itself, pointers included,
// where the hook changed nothing) and its bound tree. A nil hook adapts
// nothing.
func BindWith(e Expr, scope Scope, h Hook) (Expr, *Bound, error) {
	b := binder{scope: &scope, hook: h}
	a, err := b.bind(e)
	return a.Expr, a.Bound, err
}

// binder binds bottom-up: each node's children are bound first, then the
// hook adapts the call, then the call is typed once from its bound
// arguments. path is the path of the node being visited, kept as a stack so
// that it costs nothing until an error is reported.
type binder struct {
	path  []string
	depth int // the nesting of the node being bound
	// scope is the scope of the node being visited; a lambda body swaps in
	// its own. Held here rather than passed down, to keep the recursion's
	// stack frames small: deep trees make deep stacks, which the garbage
	// collector scans on every cycle.
	scope *Scope
	hook  Hook
	// root is the last $ made: every $ of the scope's root dtype is this
	// one node (trees are immutable and share subtrees), which saves an
	// allocation per $ and lets a comparison of two subtrees that read $
	// stop at the same pointer. cols are the fields of $ read so far, one
	// node each for the same reason: a column is usually read more than
	// once (a = 1 OR a = 2 OR …).
	root *Bound
	cols map[colKey]*Bound
}

// colKey is a field of a $ node.
type colKey struct {
	root  *Bound
	field string
}

func (b *binder) push(seg string) { b.path = append(b.path, seg) }
func (b *binder) pop()            { b.path = b.path[:len(b.path)-1] }

// argSegs are the path segments of the first arguments, made once.
var argSegs = func() []string {
	segs := make([]string, 16)
	for i := range segs {
		segs[i] = fmt.Sprintf("args[%d]", i)
	}
	return segs
}()

// pushArg pushes the path segment of argument i.
func (b *binder) pushArg(i int) {
	if i < len(argSegs) {
		b.push(argSegs[i])
		return
	}
	b.push(fmt.Sprintf("args[%d]", i))
}

// fail reports err at node e, the node being visited.
func (b *binder) fail(e Expr, err error) error {
	return &BindError{Path: strings.Join(b.path, "."), Node: Shorten(Format(e)), Err: err}
}

// failArg reports err at argument i of c, whose text is e.
func (b *binder) failArg(i int, e Expr, err error) error {
	b.pushArg(i)
	defer b.pop()
	return b.fail(e, err)
}

// typeFail places the typing error err of call c: at the argument it names,
// else at c.
func (b *binder) typeFail(c *Call, args []Arg, err error) error {
	var ae *fn.ArgError
	if errors.As(err, &ae) && ae.Arg >= 0 && ae.Arg < len(c.Args) {
		e := c.Args[ae.Arg]
		if args != nil && args[ae.Arg].Expr != nil {
			e = args[ae.Arg].Expr
		}
		return b.failArg(ae.Arg, e, typeError{err})
	}
	return b.fail(c, typeError{err})
}

func (b *binder) bind(e Expr) (Arg, error) {
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > MaxDepth {
		// The path is MaxDepth segments long: keep the message readable.
		return Arg{}, &BindError{Path: Shorten(strings.Join(b.path, ".")), Node: Shorten(Format(e)), Err: tooDeep()}
	}
	switch n := e.(type) {
	case *Call:
		if n.Fn == nil {
			// Not something the parser makes; the printer cannot show it.
			return Arg{}, &BindError{Path: strings.Join(b.path, "."), Node: "<call without a function>", Err: errors.New("call without a function")}
		}
		return b.call(n)
	case *Root:
		if b.root == nil || b.root.dt != b.scope.root {
			b.root = NewRoot(b.scope.root)
		}
		return Arg{e, b.root}, nil
	case *Var:
		if t, ok := b.scope.Lookup(n.Name); ok {
			return Arg{e, NewVar(n.Name, t)}, nil
		}
		if vars := b.scope.Vars(); len(vars) > 0 {
			return Arg{}, b.fail(e, fmt.Errorf("%w %q (in scope: %s)", ErrUnresolvedVariable, n.Name, strings.Join(vars, ", ")))
		}
		return Arg{}, b.fail(e, fmt.Errorf("%w %q (the scope has no variables)", ErrUnresolvedVariable, n.Name))
	case *Lambda:
		return Arg{}, b.fail(e, fmt.Errorf("%w: a lambda is only allowed as an argument of a higher-order function such as list_transform", ErrMisplacedLambda))
	case nil:
		return Arg{}, b.fail(&Root{}, errors.New("nil expression"))
	}
	return Arg{}, b.fail(e, fmt.Errorf("unknown node %T", e))
}

// call binds c. Its loop over the plain arguments is the recursion;
// everything else happens in helpers so that this frame, repeated once per
// level of a deep tree, stays small.
func (b *binder) call(c *Call) (Arg, error) {
	if err := fn.CheckArity(c.Fn, len(c.Args)); err != nil {
		return Arg{}, b.fail(c, typeError{err})
	}
	hof, _ := c.Fn.(fn.HigherOrder)
	args := make([]Arg, len(c.Args))
	// Plain arguments first: a lambda's parameter types depend on them.
	for i, a := range c.Args {
		if hof != nil && hof.IsLambdaArg(i) {
			if _, isLambda := a.(*Lambda); !isLambda {
				return Arg{}, b.failArg(i, a, fmt.Errorf("%w: argument %d of %s must be a lambda such as lambda x: x + 1", ErrMisplacedLambda, i+1, c.Fn.ID()))
			}
			continue
		}
		b.pushArg(i)
		ba, err := b.bind(a)
		b.pop()
		if err != nil {
			return Arg{}, err
		}
		args[i] = ba
	}
	return b.complete(c, hof, args)
}

// complete finishes the call c whose plain arguments are bound: it binds
// the lambdas' bodies, lets the hook adapt the arguments and types c.
func (b *binder) complete(c *Call, hof fn.HigherOrder, args []Arg) (Arg, error) {
	if hof != nil {
		types := make([]dtype.DType, len(args))
		for i, a := range args {
			if a.Bound != nil {
				types[i] = a.DType()
			}
		}
		for i, a := range c.Args {
			if !hof.IsLambdaArg(i) {
				continue
			}
			la, err := b.lambda(c, hof, i, a.(*Lambda), types)
			if err != nil {
				return Arg{}, err
			}
			args[i] = la
		}
	}
	if b.hook != nil {
		if err := b.hook.Call(Site{b}, c, args); err != nil {
			return Arg{}, err
		}
	}
	return b.finish(c, args)
}

// lambda binds the body of the lambda at argument i of the higher-order
// call c, in the scope extended by a frame with the parameter types c gives
// it.
func (b *binder) lambda(c *Call, hof fn.HigherOrder, i int, l *Lambda, types []dtype.DType) (Arg, error) {
	params, err := hof.LambdaParams(i, types)
	if err != nil {
		return Arg{}, b.typeFail(c, nil, err)
	}
	b.pushArg(i)
	defer b.pop()
	if len(params) != len(l.Params) {
		// A function may let its lambda leave out its last parameters
		// (list_transform's index).
		o, ok := hof.(fn.OptionalLambdaParams)
		if !ok || len(l.Params) > len(params) || len(l.Params) < o.MinLambdaParams(i) {
			return Arg{}, b.fail(l, fmt.Errorf("%w: %s gives its lambda %s, this one takes %d", ErrMisplacedLambda, c.Fn.ID(), lambdaCount(hof, i, len(params)), len(l.Params)))
		}
		params = params[:len(l.Params)]
	}
	b.push("body")
	outer := b.scope
	inner := outer.Push(l.Params, params)
	b.scope = &inner
	body, err := b.bind(l.Body)
	b.scope = outer
	if err == nil && b.hook != nil {
		body, err = b.hook.LambdaBody(Site{b}, c, i, body)
	}
	b.pop()
	if err != nil {
		return Arg{}, err
	}
	var e Expr = l
	if body.Expr != l.Body {
		e = &Lambda{Params: l.Params, Body: body.Expr}
	}
	return Arg{e, NewLambda(l.Params, params, body.Bound)}, nil
}

// finish types the call from its bound arguments and rebuilds the unbound
// node when the hook changed an argument.
func (b *binder) finish(c *Call, args []Arg) (Arg, error) {
	bound := make([]*Bound, len(args))
	same := true
	for i, a := range args {
		bound[i] = a.Bound
		same = same && a.Expr == c.Args[i]
	}
	var key colKey
	var nb *Bound
	if g, ok := c.Fn.(fn.GetItemFn); ok && len(bound) == 1 && bound[0] != nil && bound[0] == b.root {
		key = colKey{b.root, g.Field}
		nb = b.cols[key]
	}
	if nb == nil {
		var err error
		if nb, err = NewCall(c.Fn, bound...); err != nil {
			if errors.Is(err, ErrTooDeep) {
				return Arg{}, b.fail(c, err)
			}
			return Arg{}, b.typeFail(c, args, err)
		}
		if key.root != nil {
			if b.cols == nil {
				b.cols = map[colKey]*Bound{}
			}
			b.cols[key] = nb
		}
	}
	if same {
		return Arg{c, nb}, nil
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		out[i] = a.Expr
	}
	return Arg{&Call{Fn: c.Fn, Args: out}, nb}, nil
}

// lambdaCount says how many parameters hof gives its lambda at argument i
// (all of them: n): "2 parameter(s)", "1 to 2 parameter(s)".
func lambdaCount(hof fn.HigherOrder, i, n int) string {
	if o, ok := hof.(fn.OptionalLambdaParams); ok && o.MinLambdaParams(i) < n {
		return fmt.Sprintf("%d to %d parameter(s)", o.MinLambdaParams(i), n)
	}
	return fmt.Sprintf("%d parameter(s)", n)
}
