package expr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

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
// those parameters, outer variables and root fields.
func Bind(e Expr, scope Scope) (*Bound, error) {
	b := binder{}
	return b.bind(e, scope)
}

type binder struct {
	path  []string
	depth int // the nesting of the node being bound
}

func (b *binder) fail(e Expr, err error) error {
	return &BindError{Path: strings.Join(b.path, "."), Node: Shorten(Format(e)), Err: err}
}

// Shorten keeps the text of a huge expression readable in an error message:
// its start and end around an ellipsis, cut at character boundaries.
func Shorten(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	head, tail := max/2, len(s)-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + " … " + s[tail:]
}

// Abbreviate is Shorten followed, when it cut s, by how many characters it
// left out: "a + … + b (1 234 of 1 354 characters left out)". Explain and the
// optimizer's trace print long trees with it.
func Abbreviate(s string) string {
	short := Shorten(s)
	if len(short) == len(s) {
		return s
	}
	total := utf8.RuneCountInString(s)
	kept := utf8.RuneCountInString(short) - utf8.RuneCountInString(" … ")
	return fmt.Sprintf("%s (%d of %d characters left out)", short, total-kept, total)
}

func (b *binder) bind(e Expr, scope Scope) (*Bound, error) {
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > MaxDepth {
		// The path is MaxDepth segments long: keep the message readable.
		return nil, &BindError{Path: Shorten(strings.Join(b.path, ".")), Node: Shorten(Format(e)), Err: tooDeep()}
	}
	switch n := e.(type) {
	case *Root:
		return NewRoot(scope.root), nil
	case *Var:
		t, ok := scope.Lookup(n.Name)
		if !ok {
			if vars := scope.Vars(); len(vars) > 0 {
				return nil, b.fail(e, fmt.Errorf("%w %q (in scope: %s)", ErrUnresolvedVariable, n.Name, strings.Join(vars, ", ")))
			}
			return nil, b.fail(e, fmt.Errorf("%w %q (the scope has no variables)", ErrUnresolvedVariable, n.Name))
		}
		return NewVar(n.Name, t), nil
	case *Lambda:
		return nil, b.fail(e, fmt.Errorf("%w: a lambda is only allowed as an argument of a higher-order function such as list_transform", ErrMisplacedLambda))
	case *Call:
		return b.call(n, scope)
	case nil:
		return nil, b.fail(&Root{}, errors.New("nil expression"))
	}
	return nil, b.fail(e, fmt.Errorf("unknown node %T", e))
}

func (b *binder) call(c *Call, scope Scope) (*Bound, error) {
	if c.Fn == nil {
		return nil, b.fail(c, errors.New("call without a function"))
	}
	if err := fn.CheckArity(c.Fn, len(c.Args)); err != nil {
		return nil, b.fail(c, typeError{err})
	}
	hof, _ := c.Fn.(fn.HigherOrder)
	args := make([]*Bound, len(c.Args))
	types := make([]dtype.DType, len(c.Args))
	// Plain arguments first: a lambda's parameter types depend on them.
	for i, a := range c.Args {
		_, isLambda := a.(*Lambda)
		wantLambda := hof != nil && hof.IsLambdaArg(i)
		if wantLambda {
			if !isLambda {
				b.path = append(b.path, fmt.Sprintf("args[%d]", i))
				err := b.fail(a, fmt.Errorf("%w: argument %d of %s must be a lambda such as x -> x + 1", ErrMisplacedLambda, i+1, c.Fn.ID()))
				b.path = b.path[:len(b.path)-1]
				return nil, err
			}
			continue
		}
		b.path = append(b.path, fmt.Sprintf("args[%d]", i))
		bound, err := b.bind(a, scope)
		b.path = b.path[:len(b.path)-1]
		if err != nil {
			return nil, err
		}
		args[i], types[i] = bound, bound.dt
	}
	if hof != nil {
		for i, a := range c.Args {
			if !hof.IsLambdaArg(i) {
				continue
			}
			l := a.(*Lambda)
			b.path = append(b.path, fmt.Sprintf("args[%d]", i))
			params, err := hof.LambdaParams(i, types)
			if err != nil {
				b.path = b.path[:len(b.path)-1]
				var ae *fn.ArgError
				if errors.As(err, &ae) && ae.Arg >= 0 && ae.Arg < len(c.Args) {
					b.path = append(b.path, fmt.Sprintf("args[%d]", ae.Arg))
					err = b.fail(c.Args[ae.Arg], typeError{err})
					b.path = b.path[:len(b.path)-1]
					return nil, err
				}
				return nil, b.fail(c, typeError{err})
			}
			if len(params) != len(l.Params) {
				err := b.fail(a, fmt.Errorf("%w: %s gives its lambda %d parameter(s), this one takes %d", ErrMisplacedLambda, c.Fn.ID(), len(params), len(l.Params)))
				b.path = b.path[:len(b.path)-1]
				return nil, err
			}
			b.path = append(b.path, "body")
			body, err := b.bind(l.Body, scope.Push(l.Params, params))
			b.path = b.path[:len(b.path)-2]
			if err != nil {
				return nil, err
			}
			args[i] = NewLambda(l.Params, params, body)
			types[i] = body.dt
		}
	}
	t, err := c.Fn.ReturnType(types)
	if err != nil {
		var ae *fn.ArgError
		if errors.As(err, &ae) && ae.Arg >= 0 && ae.Arg < len(c.Args) {
			b.path = append(b.path, fmt.Sprintf("args[%d]", ae.Arg))
			err = b.fail(c.Args[ae.Arg], typeError{err})
			b.path = b.path[:len(b.path)-1]
			return nil, err
		}
		return nil, b.fail(c, typeError{err})
	}
	return &Bound{kind: KindCall, fn: c.Fn, id: c.Fn.ID(), args: args, dt: t, depth: depthOf(args)}, nil
}
