package optimize

import (
	"math"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Helpers shared by the rule families. Every rule builds its replacement
// with these, so a replacement with the wrong dtype is skipped before the
// engine ever sees it.

// keep is x when it has dtype t, else nil.
func keep(x *expr.Bound, t dtype.DType) *expr.Bound {
	if x.DType().Equal(t) {
		return x
	}
	return nil
}

// call types f over args; nil when they do not type or the result's dtype
// is not t.
func call(t dtype.DType, f fn.Function, args ...*expr.Bound) *expr.Bound {
	b, err := expr.NewCall(f, args...)
	if err != nil || !b.DType().Equal(t) {
		return nil
	}
	return b
}

// asType is x with dtype t: x itself when its dtype is t; a literal
// relabelled when only its top-level nullability differs (and the value
// allows it); otherwise, when x is non-nullable and t is x's dtype made
// nullable, `CAST(x AS t)`, which changes only the dtype. It is nil when no
// such form exists.
func asType(x *expr.Bound, t dtype.DType) *expr.Bound {
	xt := x.DType()
	if xt.Equal(t) {
		return x
	}
	if !xt.AsNullable().Equal(t.AsNullable()) {
		return nil
	}
	if s, ok := x.Literal(); ok {
		if s.IsNull() && !t.Nullable() {
			return nil
		}
		return expr.NewLiteral(s.WithDType(t))
	}
	if xt.Nullable() || !t.Nullable() {
		return nil
	}
	return call(t, fn.Cast(t), x)
}

// isLiteral reports whether n is a literal node, without copying its value.
func isLiteral(n *expr.Bound) bool {
	if !mayBeLiteral(n) {
		return false
	}
	// A type check first (no dynamic call); then the id, which a user's
	// function may share.
	if _, ok := n.Fn().(fn.LiteralFn); ok {
		return true
	}
	return n.FnID() == fn.IDLiteral
}

// isCallLeaf reports whether n is a call without arguments that is not a
// literal: pi(), a clock fixed at its parse's instant — a leaf the call
// rules (folding) see, where the walk passes literals and $ by.
func isCallLeaf(n *expr.Bound) bool {
	return n.Kind() == expr.KindCall && len(n.Args()) == 0 && n.FnID() != fn.IDLiteral
}

// mayBeLiteral is the cheap, inlined part of isLiteral: a call without
// arguments. Rules test it first on hot paths.
func mayBeLiteral(n *expr.Bound) bool {
	return len(n.Args()) == 0 && n.Kind() == expr.KindCall
}

// literalFn is the function of a literal node: ok is false for other
// nodes. A node whose function is a fn.LiteralFn is exactly a node that
// isLiteral accepts and whose Literal value is available.
func literalFn(n *expr.Bound) (l fn.LiteralFn, ok bool) {
	if !mayBeLiteral(n) {
		return fn.LiteralFn{}, false
	}
	l, ok = n.Fn().(fn.LiteralFn)
	return l, ok
}

// literal is the value of a non-null literal node.
func literal(n *expr.Bound) (scalar.Scalar, bool) {
	l, ok := literalFn(n)
	if !ok || l.Value.IsNull() {
		return scalar.Scalar{}, false
	}
	return l.Value, true
}

// isNullLiteral reports whether n is a literal null (of any dtype).
func isNullLiteral(n *expr.Bound) bool {
	l, ok := literalFn(n)
	return ok && l.Value.IsNull()
}

// isBoolLiteral reports whether n is the non-null literal v.
func isBoolLiteral(n *expr.Bound, v bool) bool {
	s, ok := literal(n)
	if !ok || !s.DType().IsBool() {
		return false
	}
	b, ok := s.Value().(bool)
	return ok && b == v
}

// isIntLiteral reports whether n is a non-null integer literal equal to v.
func isIntLiteral(n *expr.Bound, v int64) bool {
	s, ok := literal(n)
	if !ok || !s.DType().IsInt() {
		return false
	}
	switch x := s.Value().(type) {
	case int64:
		return x == v
	case uint64:
		return v >= 0 && x == uint64(v)
	}
	return false
}

// isFloatLiteral reports whether n is a non-null float literal equal to v,
// with v's sign (so -0.0 and 0.0 differ).
func isFloatLiteral(n *expr.Bound, v float64) bool {
	s, ok := literal(n)
	if !ok || !s.DType().IsFloat() {
		return false
	}
	x, ok := s.Value().(float64)
	return ok && x == v && math.Signbit(x) == math.Signbit(v)
}

// isCall reports whether n calls a function with one of the ids.
func isCall(n *expr.Bound, ids ...string) bool {
	if n.Kind() != expr.KindCall {
		return false
	}
	id := n.FnID()
	for _, want := range ids {
		if id == want {
			return true
		}
	}
	return false
}

// sameTree reports whether a and b are the same tree with the same dtypes:
// a.Equal(b), by the name the rules use. The same node, or trees of
// different sizes (an OR chain and its last operand, which binary/or_self
// compares at every link), are told apart inline, without the call. The
// engine never hands a rule a nil node (a tree with one is an error).
func sameTree(a, b *expr.Bound) bool {
	return a == b || (a.Size() == b.Size() && a.Equal(b))
}

// hasFloat reports whether values of t contain floating-point numbers, at
// any level of nesting.
func hasFloat(t dtype.DType) bool {
	switch t.Kind() {
	case dtype.KindPrimitive:
		return t.IsFloat()
	case dtype.KindList, dtype.KindFixedSizeList:
		return hasFloat(t.Elem())
	case dtype.KindStruct:
		for _, f := range t.Fields() {
			if hasFloat(f.Type) {
				return true
			}
		}
	}
	return false
}

// isNested reports whether t is a struct or a list.
func isNested(t dtype.DType) bool { return t.IsStruct() || t.IsList() }

// deterministic reports whether b calls no Volatile function: evaluating
// it twice gives the same values, so rules may merge or duplicate it.
func deterministic(b *expr.Bound) bool {
	var buf [16]*expr.Bound
	stack := append(buf[:0], b)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == expr.KindCall && n.Fn().Volatility() != fn.Immutable {
			return false
		}
		stack = append(stack, n.Args()...)
	}
	return true
}

// The functions with options, read from a node; ok is false for a node of
// another kind (a user's function may reuse an id, so rules never assume
// the type from the id alone).

func asPack(n *expr.Bound) (fn.PackFn, bool) {
	if n.Kind() != expr.KindCall {
		return fn.PackFn{}, false
	}
	f, ok := n.Fn().(fn.PackFn)
	return f, ok
}

func asGetItem(n *expr.Bound) (fn.GetItemFn, bool) {
	if n.Kind() != expr.KindCall {
		return fn.GetItemFn{}, false
	}
	f, ok := n.Fn().(fn.GetItemFn)
	return f, ok
}

func asCast(n *expr.Bound) (fn.CastFn, bool) {
	if n.Kind() != expr.KindCall {
		return fn.CastFn{}, false
	}
	f, ok := n.Fn().(fn.CastFn)
	return f, ok
}
