package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// The conditional family: CASE with literal conditions, and CASE forms that
// are another function.
//
// A CASE is nullable when one of its values is, or when it has no ELSE, so
// dropping a branch can make the rest non-nullable. The rules then keep the
// original dtype with a cast to the nullable type (`CAST(x AS i32?)`, which
// changes only the dtype), or relabel a literal; they never change a dtype.

// caseParts splits the arguments of a case_when call; branches is 0 for a
// node of another function.
func caseParts(n *expr.Bound) (f fn.CaseWhenFn, branches int, els *expr.Bound) {
	f, ok := n.Fn().(fn.CaseWhenFn)
	if !ok {
		return f, 0, nil
	}
	branches = f.Branches(len(n.Args()))
	if f.HasElse {
		els = n.Arg(len(n.Args()) - 1)
	}
	return f, branches, els
}

// DropFalseBranch drops the branches whose condition is a false or null
// literal (a null condition counts as false); a CASE with no branch left is
// its ELSE, or null without one:
//
//	CASE WHEN false THEN a WHEN b THEN c END  →  CASE WHEN b THEN c END
//	CASE WHEN null THEN a ELSE b END          →  b
//	CASE WHEN false THEN a END                →  null
var DropFalseBranch = &Rule{
	Name: "conditional/drop_false_branch",
	Fns:  []fn.Function{fn.CaseWhenFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		f, branches, els := caseParts(n)
		var kept []*expr.Bound
		for i := range branches {
			cond := n.Arg(2 * i)
			if isBoolLiteral(cond, false) || isNullLiteral(cond) {
				continue
			}
			kept = append(kept, cond, n.Arg(2*i+1))
		}
		switch {
		case len(kept) == 2*branches:
			return nil
		case len(kept) == 0 && els != nil:
			return asType(els, n.DType())
		case len(kept) == 0:
			return nullLiteral(n.DType())
		}
		if els != nil {
			kept = append(kept, els)
		}
		b, err := expr.NewCall(f, kept...)
		if err != nil {
			return nil
		}
		return asType(b, n.DType())
	},
}

// TrueBranch makes the first branch whose condition is a true literal the
// ELSE, dropping the branches after it; when it is the first branch, the
// CASE is its value:
//
//	CASE WHEN a THEN b WHEN true THEN c WHEN d THEN e END  →  CASE WHEN a THEN b ELSE c END
//	CASE WHEN true THEN b ELSE c END                        →  b
var TrueBranch = &Rule{
	Name: "conditional/true_branch",
	Fns:  []fn.Function{fn.CaseWhenFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		_, branches, _ := caseParts(n)
		for i := range branches {
			if !isBoolLiteral(n.Arg(2*i), true) {
				continue
			}
			if i == 0 {
				return asType(n.Arg(1), n.DType())
			}
			args := append(append([]*expr.Bound(nil), n.Args()[:2*i]...), n.Arg(2*i+1))
			b, err := expr.NewCall(fn.CaseWhen(true), args...)
			if err != nil {
				return nil
			}
			return asType(b, n.DType())
		}
		return nil
	},
}

// BoolCase replaces a CASE that maps a condition to true and false by the
// condition (a null condition takes the ELSE, hence the coalesce when the
// condition is nullable):
//
//	CASE WHEN p THEN true ELSE false END  →  p                   (p: bool)
//	CASE WHEN p THEN false ELSE true END  →  NOT p               (p: bool)
//	CASE WHEN p THEN true ELSE false END  →  coalesce(p, false)  (p: bool?)
var BoolCase = &Rule{
	Name: "conditional/bool_case",
	Fns:  []fn.Function{fn.CaseWhenFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		_, branches, els := caseParts(n)
		if branches != 1 || els == nil {
			return nil
		}
		p, then := n.Arg(0), n.Arg(1)
		var negate bool
		switch {
		case isBoolLiteral(then, true) && isBoolLiteral(els, false):
		case isBoolLiteral(then, false) && isBoolLiteral(els, true):
			negate = true
		default:
			return nil
		}
		if p.DType().Nullable() {
			b, err := expr.NewCall(fn.Coalesce, p, boolLiteral(false, p.DType().AsNonNullable()))
			if err != nil {
				return nil
			}
			p = b
		}
		if negate {
			b, err := expr.NewCall(fn.Not, p)
			if err != nil {
				return nil
			}
			p = b
		}
		return asType(p, n.DType())
	},
}

// CaseCoalesce replaces a CASE that fills the nulls of an expression by
// coalesce, which evaluates the fill value only for the rows that are null,
// as the CASE did:
//
//	CASE WHEN a IS NULL THEN b ELSE a END      →  coalesce(a, b)
//	CASE WHEN a IS NOT NULL THEN a ELSE b END  →  coalesce(a, b)
var CaseCoalesce = &Rule{
	Name: "conditional/case_coalesce",
	Fns:  []fn.Function{fn.CaseWhenFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		_, branches, els := caseParts(n)
		if branches != 1 || els == nil {
			return nil
		}
		cond, then := n.Arg(0), n.Arg(1)
		var x, fill *expr.Bound
		switch {
		case isCall(cond, fn.IDIsNull) && sameTree(cond.Arg(0), els):
			x, fill = els, then
		case isCall(cond, fn.IDIsNotNull) && sameTree(cond.Arg(0), then):
			x, fill = then, els
		default:
			return nil
		}
		if !deterministic(x) {
			return nil // the CASE evaluates x twice, coalesce once
		}
		b, err := expr.NewCall(fn.Coalesce, x, fill)
		if err != nil {
			return nil
		}
		return asType(b, n.DType())
	},
}
