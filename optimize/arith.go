package optimize

import (
	"math"
	"slices"
	"strings"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Rules of the binary family (binary/*) on arithmetic: identities and
// merge_constants. The family's other rules are in boolean.go (AND, OR,
// NOT), compare.go (comparisons) and in.go (IN lists). (Folding a call
// whose arguments are all literals is fold/constant, which runs before
// these.)
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
	Name:     "binary/add_zero",
	Fns:      []fn.Function{fn.Add},
	ConstArg: true,
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
	Name:     "binary/sub_zero",
	Fns:      []fn.Function{fn.Sub},
	ConstArg: true,
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
	Name:     "binary/mul_one",
	Fns:      []fn.Function{fn.Mul},
	ConstArg: true,
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
	Name:     "binary/div_one",
	Fns:      []fn.Function{fn.Div},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		if y := n.Arg(1); mayBeLiteral(y) && (isIntLiteral(y, 1) || isFloatLiteral(y, 1)) {
			return keep(n.Arg(0), n.DType())
		}
		return nil
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
	Fns:     []fn.Function{fn.Add, fn.StringConcat},
	Rewrite: mergeConstants,
}

func mergeConstants(c *Context, n *expr.Bound) *expr.Bound {
	if !trailingPair(n) {
		return nil
	}
	if p, arg := c.position(); p != nil && p.IsCall(n.FnID()) && len(p.Args()) == 2 && p.Arg(0) == n {
		if arg == 0 && mergeable(n, n.Arg(1), p.Arg(1)) {
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
	if n.FnID() == fn.IDStringConcat {
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
	case fn.IDAdd:
		return n.DType().IsInt() && va.DType().IsInt() && vb.DType().IsInt() && sign(va.Value())*sign(vb.Value()) >= 0
	case fn.IDStringConcat:
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
