package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Rules of the binary family (binary/*) on boolean algebra: identities and
// absorbing operands of AND and OR (Kleene logic), repeated operands, and
// double negation. NOT of a comparison is binary/not_compare, in
// compare.go.

// AndTrue drops a true operand of AND:
//
//	p AND true  →  p
//	true AND p  →  p
var AndTrue = &Rule{
	Name:     "binary/and_true",
	Fns:      []fn.Function{fn.And},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return dropIdentity(n, true)
	},
}

// OrFalse drops a false operand of OR:
//
//	p OR false  →  p
//	false OR p  →  p
var OrFalse = &Rule{
	Name:     "binary/or_false",
	Fns:      []fn.Function{fn.Or},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return dropIdentity(n, false)
	},
}

func dropIdentity(n *expr.Bound, identity bool) *expr.Bound {
	x, y := n.Arg(0), n.Arg(1)
	if mayBeLiteral(y) && isBoolLiteral(y, identity) {
		return keep(x, n.DType())
	}
	if mayBeLiteral(x) && isBoolLiteral(x, identity) {
		return keep(y, n.DType())
	}
	return nil
}

// AndFalse makes AND with a false operand false, with the dtype of the AND
// (Kleene logic: null AND false is false):
//
//	p AND false  →  false
//	false AND p  →  false
var AndFalse = &Rule{
	Name:     "binary/and_false",
	Fns:      []fn.Function{fn.And},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return absorb(n, false)
	},
}

// OrTrue makes OR with a true operand true, with the dtype of the OR
// (Kleene logic: null OR true is true):
//
//	p OR true  →  true
//	true OR p  →  true
var OrTrue = &Rule{
	Name:     "binary/or_true",
	Fns:      []fn.Function{fn.Or},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return absorb(n, true)
	},
}

func absorb(n *expr.Bound, v bool) *expr.Bound {
	x, y := n.Arg(0), n.Arg(1)
	if (mayBeLiteral(x) && isBoolLiteral(x, v)) || (mayBeLiteral(y) && isBoolLiteral(y, v)) {
		return boolLiteral(v, n.DType())
	}
	return nil
}

// AndSelf drops a repeated operand of AND (unless it calls a Volatile
// function, whose two evaluations may differ):
//
//	p AND p  →  p
var AndSelf = &Rule{
	Name:    "binary/and_self",
	Fns:     []fn.Function{fn.And},
	Rewrite: idempotent,
}

// OrSelf drops a repeated operand of OR (unless it calls a Volatile
// function):
//
//	p OR p  →  p
var OrSelf = &Rule{
	Name:    "binary/or_self",
	Fns:     []fn.Function{fn.Or},
	Rewrite: idempotent,
}

func idempotent(c *Context, n *expr.Bound) *expr.Bound {
	if sameTree(n.Arg(0), n.Arg(1)) && deterministic(n.Arg(0)) {
		return keep(n.Arg(0), n.DType())
	}
	return nil
}

// NotNot drops a double negation:
//
//	NOT NOT p  →  p
var NotNot = &Rule{
	Name: "binary/not_not",
	Fns:  []fn.Function{fn.Not},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if inner := n.Arg(0); isCall(inner, fn.IDNot) {
			return keep(inner.Arg(0), n.DType())
		}
		return nil
	},
}
