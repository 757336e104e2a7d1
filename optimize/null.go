package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// The null family: what nullability in the dtypes already decides, and null
// literals.

// IsNullNonNullable decides IS NULL of a non-nullable expression:
//
//	a IS NULL  →  false     (a: i32)
var IsNullNonNullable = &Rule{
	Name: "null/is_null_non_nullable",
	Fns:  []fn.Function{fn.IsNull},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if n.Arg(0).DType().Nullable() {
			return nil
		}
		return boolLiteral(false, n.DType())
	},
}

// IsNotNullNonNullable decides IS NOT NULL of a non-nullable expression:
//
//	a IS NOT NULL  →  true  (a: i32)
var IsNotNullNonNullable = &Rule{
	Name: "null/is_not_null_non_nullable",
	Fns:  []fn.Function{fn.IsNotNull},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if n.Arg(0).DType().Nullable() {
			return nil
		}
		return boolLiteral(true, n.DType())
	},
}

// CoalesceNonNullableFirst drops what follows a non-nullable first
// argument of coalesce or fill_null:
//
//	coalesce(a, b, c)  →  a      (a: i32)
//	fill_null(a, 0)    →  a      (a: i32)
var CoalesceNonNullableFirst = &Rule{
	Name: "null/coalesce_non_nullable_first",
	Fns:  []fn.Function{fn.Coalesce, fn.FillNull},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if a := n.Arg(0); !a.DType().Nullable() {
			return keep(a, n.DType())
		}
		return nil
	},
}

// CoalescePrune drops the arguments of coalesce that can never be chosen:
// null literals, and everything after the first non-nullable argument; one
// argument left (or given) is the result itself. fill_null with a null literal on one
// side is the other side:
//
//	coalesce(a, null, b, 0, c)  →  coalesce(a, b, 0)
//	coalesce(null, a)           →  a
//	coalesce(a)                 →  a
//	fill_null(a, null)          →  a
var CoalescePrune = &Rule{
	Name:    "null/coalesce_prune",
	Fns:     []fn.Function{fn.Coalesce, fn.FillNull},
	Rewrite: coalescePrune,
}

func coalescePrune(c *Context, n *expr.Bound) *expr.Bound {
	args := n.Args()
	if len(args) == 1 && !isNullLiteral(args[0]) {
		return keep(args[0], n.DType())
	}
	var kept []*expr.Bound
	for _, a := range args {
		if isNullLiteral(a) {
			continue
		}
		kept = append(kept, a)
		if !a.DType().Nullable() {
			break
		}
	}
	switch {
	case len(kept) == len(args) || len(kept) == 0:
		return nil
	case len(kept) == 1:
		return keep(kept[0], n.DType())
	case n.FnID() == fn.IDFillNull:
		return nil // two arguments kept: nothing was dropped
	}
	return call(n.DType(), fn.Coalesce, kept...)
}

// PropagateNull replaces arithmetic, a comparison or LIKE with a null
// literal operand by a null literal of its dtype:
//
//	a + null::i32   →  null::i32?
//	a < null::i32   →  null::bool?
var PropagateNull = &Rule{
	Name:     "null/propagate",
	Fns:      []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Div, fn.Mod, fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.LikeFn{}, fn.LikeFn{CaseInsensitive: true}},
	ConstArg: true,
	Rewrite:  propagateNull,
}

func propagateNull(c *Context, n *expr.Bound) *expr.Bound {
	// A non-nullable node has no null operand to propagate, and a function
	// that handles nulls itself keeps them: neither needs its operands
	// looked at (a literal's value lives apart from its node).
	if !n.DType().Nullable() || n.Fn().NullHandling() != fn.NullPropagating {
		return nil
	}
	for _, a := range n.Args() {
		if mayBeLiteral(a) && isNullLiteral(a) {
			return nullLiteral(n.DType())
		}
	}
	return nil
}
