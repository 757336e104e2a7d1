package optimize

import (
	"math"
	"slices"
	"strings"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The binary family: arithmetic identities, boolean algebra, comparison
// normal forms and IN lists. (Folding a call whose arguments are all
// literals is fold/constant, which runs before these.)
//
// The arithmetic identities hold exactly, bit for bit:
//
//	integers  x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1  →  x
//	floats    x + -0.0, -0.0 + x, x - 0.0, x * 1.0, 1.0 * x, x / 1.0  →  x
//
// (NaN stays NaN), but not x + 0.0 for floats: -0.0 + 0.0 is +0.0, so it
// is left alone.
// Decimal arithmetic widens its result type (decimal(5,2) + decimal(1,0) is
// decimal(6,2); / gives f64), so the identities never apply to decimals.
// Every identity also needs the literal not to widen the nullability:
// `a + 0::i32?` with a non-nullable `a` is i32? and stays.

// AddZero drops an added zero:
//
//	a + 0  →  a     (integers)
//	0 + a  →  a
//	f + -0.0  →  f  (floats)
var AddZero = &Rule{
	Name: "binary/add_zero",
	Fns:  []string{"add"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		x, y := n.Arg(0), n.Arg(1)
		if mayBeLiteral(y) && (isIntLiteral(y, 0) || isFloatLiteral(y, negZero)) {
			return keep(x, n.DType())
		}
		if mayBeLiteral(x) && (isIntLiteral(x, 0) || isFloatLiteral(x, negZero)) {
			return keep(y, n.DType())
		}
		return nil
	},
}

var negZero = math.Copysign(0, -1)

// SubZero drops a subtracted zero:
//
//	a - 0    →  a   (integers)
//	f - 0.0  →  f   (floats; -0.0 - 0.0 is -0.0)
var SubZero = &Rule{
	Name: "binary/sub_zero",
	Fns:  []string{"sub"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if y := n.Arg(1); mayBeLiteral(y) && (isIntLiteral(y, 0) || isFloatLiteral(y, 0)) {
			return keep(n.Arg(0), n.DType())
		}
		return nil
	},
}

// MulOne drops a factor of one (integers and floats):
//
//	a * 1  →  a
//	1 * a  →  a
var MulOne = &Rule{
	Name: "binary/mul_one",
	Fns:  []string{"mul"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		x, y := n.Arg(0), n.Arg(1)
		if mayBeLiteral(y) && (isIntLiteral(y, 1) || isFloatLiteral(y, 1)) {
			return keep(x, n.DType())
		}
		if mayBeLiteral(x) && (isIntLiteral(x, 1) || isFloatLiteral(x, 1)) {
			return keep(y, n.DType())
		}
		return nil
	},
}

// DivOne drops a division by one (integers and floats; decimal division
// gives f64, so it never applies there):
//
//	a / 1  →  a
var DivOne = &Rule{
	Name: "binary/div_one",
	Fns:  []string{"div"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if y := n.Arg(1); mayBeLiteral(y) && (isIntLiteral(y, 1) || isFloatLiteral(y, 1)) {
			return keep(n.Arg(0), n.DType())
		}
		return nil
	},
}

// AndTrue drops a true operand of AND:
//
//	p AND true  →  p
//	true AND p  →  p
var AndTrue = &Rule{
	Name: "binary/and_true",
	Fns:  []string{"and"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return dropIdentity(n, true)
	},
}

// OrFalse drops a false operand of OR:
//
//	p OR false  →  p
//	false OR p  →  p
var OrFalse = &Rule{
	Name: "binary/or_false",
	Fns:  []string{"or"},
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
	Name: "binary/and_false",
	Fns:  []string{"and"},
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
	Name: "binary/or_true",
	Fns:  []string{"or"},
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
	Fns:     []string{"and"},
	Rewrite: idempotent,
}

// OrSelf drops a repeated operand of OR (unless it calls a Volatile
// function):
//
//	p OR p  →  p
var OrSelf = &Rule{
	Name:    "binary/or_self",
	Fns:     []string{"or"},
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
	Fns:  []string{"not"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if inner := n.Arg(0); isCall(inner, "not") {
			return keep(inner.Arg(0), n.DType())
		}
		return nil
	},
}

// NotCompare pushes NOT into a comparison:
//
//	NOT (a < b)   →  a >= b
//	NOT (a = b)   →  a != b     (and so on for != <= > >=)
//
// only for operands without floats (NaN < 1 and NaN >= 1 are both false) and
// of non-nested types.
var NotCompare = &Rule{
	Name: "binary/not_compare",
	Fns:  []string{"not"},
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
	Name: "binary/literal_right",
	Fns:  []string{"eq", "neq", "lt", "lte", "gt", "gte", "is_distinct_from", "is_not_distinct_from"},
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

// OrEqToIn turns a chain of ORs that compares one expression with literals
// into an IN list, merging IN lists of that expression too:
//
//	a = 1 OR a = 2 OR a = 3         →  a IN (1, 2, 3)
//	a IN (1, 2) OR b > 0 OR a = 3   →  a IN (1, 2, 3) OR b > 0
//
// The operands of the chain are grouped by the compared expression; each
// group of two or more takes the place of its first member. The rule acts
// once, at the top of a chain (a node whose parent is not an OR), so a chain
// of n comparisons costs O(n), not O(n²). The dtype is unchanged: in_list is
// nullable exactly when one of its arguments is, as the equalities were.
// An expression that calls a Volatile function is never grouped.
var OrEqToIn = &Rule{
	Name:    "binary/or_eq_to_in",
	Fns:     []string{"or"},
	Rewrite: orEqToIn,
}

func orEqToIn(c *Context, n *expr.Bound) *expr.Bound {
	if p := c.r.parent(); p != nil && isOr(p) {
		return nil
	}
	// Group the operands of the chain, left to right, by the compared
	// expression, as the chain is taken apart (the leaves and the stack
	// live in the run's scratch space). A chain usually compares one
	// expression throughout, so a leaf is compared with the previous
	// leaf's group first, then with the others.
	type group struct {
		x        *expr.Bound
		values   int // how many values the group's members hold
		members  int
		volatile bool
	}
	var buf [4]group
	groups := buf[:0]
	leaves, stack := c.r.scratchA[:0], append(c.r.scratchB[:0], n)
	member := c.r.scratchInts[:0] // per leaf: group index + 1, or 0
	merged := false
	last := -1 // the group of the previous comparison
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if isOr(l) {
			stack = append(stack, l.Arg(1), l.Arg(0))
			continue
		}
		leaves = append(leaves, l)
		x := inExpr(l)
		g := -1
		if x != nil {
			if last >= 0 && sameTree(groups[last].x, x) {
				g = last
			} else {
				for j := range groups {
					if j != last && sameTree(groups[j].x, x) {
						g = j
						break
					}
				}
			}
			if g < 0 {
				// Each comparison of a volatile x sees its own value: they
				// cannot share one.
				groups = append(groups, group{x: x, volatile: !deterministic(x)})
				g = len(groups) - 1
			}
			last = g
			if groups[g].volatile {
				g = -1
			} else {
				groups[g].values += len(l.Args()) - 1
				groups[g].members++
				merged = merged || groups[g].members > 1
			}
		}
		member = append(member, g+1)
	}
	c.r.scratchA, c.r.scratchB = leaves[:0], stack[:0]
	c.r.scratchInts = member[:0]
	if !merged {
		return nil
	}

	var acc *expr.Bound
	for i, l := range leaves {
		item := l
		if g := member[i] - 1; g >= 0 && groups[g].members != 1 {
			if groups[g].members < 0 {
				continue // emitted at its first member
			}
			// One IN list: the group's expression and every value, in
			// order (a member's values are its arguments after the first).
			args := make([]*expr.Bound, 1, groups[g].values+1)
			args[0] = groups[g].x
			for j := i; j < len(leaves); j++ {
				if member[j] == g+1 {
					// One by one: appending a short slice costs a
					// call to the runtime's typed copy.
					for _, v := range leaves[j].Args()[1:] {
						args = append(args, v)
					}
				}
			}
			groups[g].members = -1
			// Its arguments are optimized already: say so, so the engine
			// does not walk them again.
			c.Reuse(args...)
			in, err := expr.NewCall(fn.InList, args...)
			if err != nil {
				return nil
			}
			item = in
		} else {
			c.Reuse(l)
		}
		if acc == nil {
			acc = item
			continue
		}
		or, err := expr.NewCall(fn.Or, acc, item)
		if err != nil {
			return nil
		}
		acc = or
	}
	return keep(acc, n.DType())
}

// isOr reports whether n is a call of a function with the id "or" (isCall
// with one constant id, which compiles to a cheaper comparison).
func isOr(n *expr.Bound) bool {
	return n.Kind() == expr.KindCall && n.FnID() == "or"
}

// inExpr is x in `x = literal` and in `x IN (…)`, whose values are then
// the node's arguments after the first; it is nil for other nodes.
func inExpr(l *expr.Bound) *expr.Bound {
	if l.Kind() != expr.KindCall || len(l.Args()) == 0 {
		return nil
	}
	switch l.FnID() {
	case "eq":
		if x, y := l.Arg(0), l.Arg(1); mayBeLiteral(y) && isLiteral(y) && !isLiteral(x) {
			return x
		}
	case "in_list":
		return l.Arg(0)
	}
	return nil
}

// InSingle turns an IN list of one value into an equality:
//
//	a IN (5)  →  a = 5
var InSingle = &Rule{
	Name: "binary/in_single",
	Fns:  []string{"in_list"},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if len(n.Args()) != 2 {
			return nil
		}
		return call(n.DType(), fn.Eq, n.Arg(0), n.Arg(1))
	},
}

// MergeConstants adds up the constants at the end of a chain, so that a
// long chain is one call at run time instead of one a term:
//
//	(x + 2) + 3        →  x + 5      integers, constants of the same sign
//	(x || 'a') || 'b'  →  x || 'ab'
//
// Integer addition is checked, but with constants of the same sign the
// chain overflows exactly when x + (c1 + c2) does (x + c1 lies between x and
// x + c1 + c2), and a sum that overflows is not folded. || is associative
// and null when any operand is. Floats (rounding) and decimals (whose sums
// widen) are left alone, and so are null constants (null/propagate takes
// those).
//
// The rule acts once on a whole chain, at its top: a link whose parent
// would take it in leaves it to the parent, so a chain of n constants costs
// n steps, not n² (string constants would grow at every link).
var MergeConstants = &Rule{
	Name:    "binary/merge_constants",
	Fns:     []string{"add", "string_concat"},
	Rewrite: mergeConstants,
}

func mergeConstants(c *Context, n *expr.Bound) *expr.Bound {
	if !trailingPair(n) {
		return nil
	}
	if p := c.r.parent(); p != nil && p.IsCall(n.FnID()) && len(p.Args()) == 2 && p.Arg(0) == n {
		if f := &c.r.frames[len(c.r.frames)-1]; f.next == 1 && mergeable(n, n.Arg(1), p.Arg(1)) {
			return nil // the parent merges the chain, this link included
		}
	}
	// Collect the constants from the top down, while they merge.
	// Zero goes with either sign, so the chain's sign is that of its first
	// constant that is not zero.
	lits := []*expr.Bound{n.Arg(1)}
	v, _ := n.Arg(1).Literal()
	chainSign := sign(v.Value())
	x := n.Arg(0)
	for x.IsCall(n.FnID()) && len(x.Args()) == 2 && mergeable(n, x.Arg(1), lits[0]) {
		v, _ := x.Arg(1).Literal()
		s := sign(v.Value())
		if s*chainSign < 0 {
			break
		}
		if s != 0 {
			chainSign = s
		}
		lits = append(lits, x.Arg(1))
		x = x.Arg(0)
	}
	slices.Reverse(lits)
	var merged *expr.Bound
	if n.FnID() == "string_concat" {
		var b strings.Builder
		for _, l := range lits {
			v, _ := l.Literal()
			b.WriteString(v.Value().(string))
		}
		s := scalar.String(b.String())
		if lits[0].DType().IsBinary() {
			s = scalar.Binary([]byte(b.String()))
		}
		merged = expr.NewLiteral(s)
	} else {
		merged = lits[0]
		for _, l := range lits[1:] {
			sum, err := expr.NewCall(n.Fn(), merged, l)
			if err != nil {
				return nil
			}
			if merged = c.Fold(sum); merged == nil {
				return nil
			}
		}
	}
	return call(n.DType(), n.Fn(), x, merged)
}

// trailingPair reports whether n is op(op(x, c1), c2) with constants c1 and
// c2 that merge.
func trailingPair(n *expr.Bound) bool {
	if len(n.Args()) != 2 {
		return false
	}
	inner := n.Arg(0)
	return inner.IsCall(n.FnID()) && len(inner.Args()) == 2 && mergeable(n, inner.Arg(1), n.Arg(1))
}

// mergeable reports whether the constants a and b of a chain of n's
// function merge: non-null literals, and for add integers of the same sign.
func mergeable(n, a, b *expr.Bound) bool {
	if !isLiteral(a) || !isLiteral(b) {
		return false
	}
	va, _ := a.Literal()
	vb, _ := b.Literal()
	if va.IsNull() || vb.IsNull() {
		return false
	}
	switch n.FnID() {
	case "add":
		return n.DType().IsInt() && va.DType().IsInt() && vb.DType().IsInt() && sign(va.Value())*sign(vb.Value()) >= 0
	case "string_concat":
		ta, tb := va.DType(), vb.DType()
		return (ta.IsUtf8() && tb.IsUtf8()) || (ta.IsBinary() && tb.IsBinary())
	}
	return false
}

// sign is -1, 0 or 1 for an integer literal's value (int64 or uint64).
func sign(v any) int {
	switch x := v.(type) {
	case int64:
		switch {
		case x < 0:
			return -1
		case x > 0:
			return 1
		}
	case uint64:
		if x > 0 {
			return 1
		}
	}
	return 0
}
