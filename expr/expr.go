// Package expr is colexpr's expression tree, its scopes and its binder.
//
// An Expr is unbound: a tree of four node kinds, closed to this package.
//
//	*Call    a function (with its options) applied to arguments
//	*Root    the value the expression is evaluated against, written $
//	*Var     a variable, resolved against the scope's frames
//	*Lambda  parameters and a body; only as an argument of a higher-order function
//
// Trees are immutable: a rewrite returns a new node that shares the
// unchanged children. Equal and Hash compare trees structurally.
//
// Bind type-checks a tree against a Scope in one walk and returns a *Bound
// tree that records a dtype on every node. Everything after binding
// (evaluation, optimization, partitioning, pruning, export) works on Bound
// trees and never derives types again.
//
// There is one binder. BindWith runs it with a Hook, which may adapt each
// call's bound arguments before the call is typed; package coerce is such a
// hook (it inserts casts), so binding and coercion share the walk, the
// lambda frames, the paths and the texts of their errors.
//
// String prints the canonical text form, which the parse package reads back
// into an equal tree (untyped literals aside: see the parse package doc).
//
// No stage works on a tree deeper than MaxDepth levels: Bind refuses one,
// and so do NewCall and the other constructors of Bound nodes, with an
// error wrapping ErrTooDeep, so that no walk can exhaust the stack.
package expr

import (
	"hash/maphash"

	"github.com/colexpr/colexpr/fn"
)

// Expr is an unbound expression node.
type Expr interface {
	exprNode()
	// String is the canonical text form of the expression.
	String() string
}

// Call applies a function to arguments.
type Call struct {
	Fn   fn.Function
	Args []Expr
}

// Root is the value the expression is evaluated against: the struct of a
// record batch, or any array. It resolves against the scope's root dtype.
type Root struct{}

// Var is a variable: a lambda parameter, or a value a caller supplies
// through a scope frame (as partitioning does). It resolves against the
// innermost frame that defines Name.
type Var struct{ Name string }

// Lambda is an anonymous function. Its parameter types come from the
// higher-order function it is an argument of.
type Lambda struct {
	Params []string
	Body   Expr
}

func (*Call) exprNode()   {}
func (*Root) exprNode()   {}
func (*Var) exprNode()    {}
func (*Lambda) exprNode() {}

func (c *Call) String() string   { return Format(c) }
func (r *Root) String() string   { return Format(r) }
func (v *Var) String() string    { return Format(v) }
func (l *Lambda) String() string { return Format(l) }

// Children are the direct sub-expressions of e (a lambda's body).
func Children(e Expr) []Expr {
	switch n := e.(type) {
	case *Call:
		return n.Args
	case *Lambda:
		return []Expr{n.Body}
	}
	return nil
}

// Equal reports whether a and b are structurally equal: the same node
// kinds, equal functions with equal options, equal names and equal children.
func Equal(a, b Expr) bool {
	type pair struct{ a, b Expr }
	stack := []pair{{a, b}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.a == p.b {
			continue
		}
		switch x := p.a.(type) {
		case *Root:
			if _, ok := p.b.(*Root); !ok {
				return false
			}
		case *Var:
			y, ok := p.b.(*Var)
			if !ok || x.Name != y.Name {
				return false
			}
		case *Lambda:
			y, ok := p.b.(*Lambda)
			if !ok || !equalStrings(x.Params, y.Params) {
				return false
			}
			stack = append(stack, pair{x.Body, y.Body})
		case *Call:
			y, ok := p.b.(*Call)
			if !ok || len(x.Args) != len(y.Args) || !x.Fn.Equal(y.Fn) {
				return false
			}
			for i := range x.Args {
				stack = append(stack, pair{x.Args[i], y.Args[i]})
			}
		default:
			return false
		}
	}
	return true
}

// nameSeed seeds the hashes of variable and parameter names. Like the
// hashes of functions (fn.Function.Hash), Hash values hold within one
// process only.
var nameSeed = maphash.MakeSeed()

// Hash is a structural hash of e, consistent with Equal. Its values are
// valid within one process only.
func Hash(e Expr) uint64 {
	// Post-order over an explicit stack: deep trees cost no Go stack.
	type frame struct {
		e    Expr
		next int
		h    uint64
	}
	const prime = 1099511628211
	var results []uint64
	stack := []frame{{e: e, h: 14695981039346656037}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		kids := Children(top.e)
		if top.next < len(kids) {
			top.next++
			stack = append(stack, frame{e: kids[top.next-1], h: 14695981039346656037})
			continue
		}
		h := top.h
		switch n := top.e.(type) {
		case *Root:
			h = (h ^ 1) * prime
		case *Var:
			h = (h ^ 2 ^ maphash.String(nameSeed, n.Name)) * prime
		case *Lambda:
			h = (h ^ 3) * prime
			for _, p := range n.Params {
				h = (h ^ maphash.String(nameSeed, p)) * prime
			}
		case *Call:
			h = (h ^ n.Fn.Hash()) * prime
		}
		for _, kh := range results[len(results)-len(kids):] {
			h = (h ^ kh) * prime
		}
		results = results[:len(results)-len(kids)]
		results = append(results, h)
		stack = stack[:len(stack)-1]
	}
	return results[0]
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
