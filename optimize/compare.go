package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Rules of the binary family (binary/*) on comparisons: their normal forms
// (a literal on the right, NOT pushed into the comparison).

// NotCompare pushes NOT into a comparison:
//
//	NOT (a < b)   →  a >= b
//	NOT (a = b)   →  a != b     (and so on for != <= > >=)
//
// only for operands without floats (NaN < 1 and NaN >= 1 are both false) and
// of non-nested types.
var NotCompare = &Rule{
	Name: "binary/not_compare",
	Fns:  []fn.Function{fn.Not},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		cmp := n.Arg(0)
		if cmp.Kind() != expr.KindCall || len(cmp.Args()) != 2 {
			return nil
		}
		neg, ok := fn.Negate(cmp.Fn())
		if !ok {
			return nil
		}
		if t := cmp.Arg(0).DType(); hasFloat(t) || isNested(t) {
			return nil
		}
		return call(n.DType(), neg, cmp.Arg(0), cmp.Arg(1))
	},
}

// LiteralRight moves a literal to the right of a comparison:
//
//	5 < a  →  a > 5
//	5 = a  →  a = 5
var LiteralRight = &Rule{
	Name:     "binary/literal_right",
	Fns:      []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		x, y := n.Arg(0), n.Arg(1)
		if !isLiteral(x) || isLiteral(y) {
			return nil
		}
		flip, ok := fn.Flip(n.Fn())
		if !ok {
			return nil
		}
		return call(n.DType(), flip, y, x)
	},
}
