package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Rules of the binary family (binary/*) on IN lists: a chain of equalities
// ORed together becomes one IN list, and an IN list of one value an
// equality.

// OrEqToIn turns a chain of ORs that compares one expression with literals
// into an IN list, merging IN lists of that expression too:
//
//	a = 1 OR a = 2 OR a = 3         →  a IN (1, 2, 3)
//	a IN (1, 2) OR b > 0 OR a = 3   →  a IN (1, 2, 3) OR b > 0
//
// The operands of the chain are grouped by the compared expression; each
// group of two or more takes the place of its first member. The rule acts
// once, at the top of a chain (ChainTop: a node whose parent is not an OR),
// so a chain of n comparisons costs O(n), not O(n²). The dtype is
// unchanged: in_list is nullable exactly when one of its arguments is, as
// the equalities were. An expression that calls a Volatile function is
// never grouped.
var OrEqToIn = &Rule{
	Name:     "binary/or_eq_to_in",
	Fns:      []fn.Function{fn.Or},
	ChainTop: true,
	Rewrite:  orEqToIn,
}

func orEqToIn(c *Context, n *expr.Bound) *expr.Bound {
	if in, ok := oneInList(c, n); ok {
		return in
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
		// Down the left side of l, keeping the right operands for later:
		// a chain written a OR b OR c leans left, so it takes no stack.
		for isOr(l) {
			stack = append(stack, l.Arg(1))
			l = l.Arg(0)
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

// oneInList is orEqToIn of a chain whose operands all compare one
// expression (x = literal, or x IN (…)), the common case, in one pass that
// keeps only the values: the IN list of the chain's values in order, the
// result of the general grouping when every operand falls into the first
// group. ok is false when an operand does not, or x is volatile: then the
// general grouping decides.
func oneInList(c *Context, n *expr.Bound) (in *expr.Bound, ok bool) {
	var x0 *expr.Bound
	vals, stack := c.r.scratchA[:0], append(c.r.scratchB[:0], n)
	defer func() { c.r.scratchA, c.r.scratchB = vals[:0], stack[:0] }()
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for isOr(l) {
			stack = append(stack, l.Arg(1))
			l = l.Arg(0)
		}
		x := inExpr(l)
		switch {
		case x == nil:
			return nil, false
		case x0 == nil:
			if !deterministic(x) {
				return nil, false
			}
			x0 = x
		case !sameTree(x0, x):
			return nil, false
		}
		// One by one: appending a short slice costs a call to the
		// runtime's typed copy.
		for _, v := range l.Args()[1:] {
			vals = append(vals, v)
		}
	}
	args := make([]*expr.Bound, 1+len(vals))
	args[0] = x0
	copy(args[1:], vals)
	// Its arguments are optimized already: say so, so the engine does not
	// walk them again.
	c.Reuse(args...)
	b, err := expr.NewCall(fn.InList, args...)
	if err != nil {
		return nil, true
	}
	return keep(b, n.DType()), true
}

// isOr reports whether n is a call of a function with the id "or" (isCall
// with one constant id, which compiles to a cheaper comparison).
func isOr(n *expr.Bound) bool {
	return n.Kind() == expr.KindCall && n.FnID() == fn.IDOr
}

// inExpr is x in `x = literal` and in `x IN (…)`, whose values are then
// the node's arguments after the first; it is nil for other nodes.
func inExpr(l *expr.Bound) *expr.Bound {
	if l.Kind() != expr.KindCall || len(l.Args()) == 0 {
		return nil
	}
	switch l.FnID() {
	case fn.IDEq:
		if x, y := l.Arg(0), l.Arg(1); mayBeLiteral(y) && isLiteral(y) && !isLiteral(x) {
			return x
		}
	case fn.IDInList:
		return l.Arg(0)
	}
	return nil
}

// InSingle turns an IN list of one value into an equality:
//
//	a IN (5)  →  a = 5
var InSingle = &Rule{
	Name: "binary/in_single",
	Fns:  []fn.Function{fn.InList},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if len(n.Args()) != 2 {
			return nil
		}
		return call(n.DType(), fn.Eq, n.Arg(0), n.Arg(1))
	},
}
