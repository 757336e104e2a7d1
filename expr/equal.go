package expr

import "github.com/colexpr/colexpr/dtype"

// Equal reports whether b and o are the same tree with the same dtypes.
//
// It allocates nothing for trees of modest width: it follows chains of
// nodes with one child (`$.a.b`, `NOT x`) in a loop and keeps a stack, on
// the Go stack while it is small, only below the first node with several.
// A call's dtype is its function's ReturnType of its arguments' dtypes
// (NewCall, WithArgsSameTypes), so equal functions of equal arguments have
// equal dtypes: only the dtypes of leaves and lambdas are compared. Equal
// trees have equal sizes, which every node records, so trees of different
// sizes (a chain and one of its operands) differ at the first node.
func (b *Bound) Equal(o *Bound) bool {
	for {
		if b == o {
			return true
		}
		same, descend := sameNode(b, o)
		if !same {
			return false
		}
		if !descend {
			return true
		}
		switch len(b.args) {
		case 0:
			return true
		case 1:
			b, o = b.args[0], o.args[0]
			continue
		}
		return sameSubtrees(b, o)
	}
}

// sameSubtrees compares the children of a and b, which sameNode found
// equal, with a stack.
func sameSubtrees(a, b *Bound) bool {
	type pair struct{ a, b *Bound }
	var buf [16]pair
	stack := buf[:0]
	for i := len(a.args) - 1; i >= 0; i-- {
		stack = append(stack, pair{a.args[i], b.args[i]})
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.a, p.b
		if x == y {
			continue
		}
		same, descend := sameNode(x, y)
		if !same {
			return false
		}
		if !descend {
			continue
		}
		for i := len(x.args) - 1; i >= 0; i-- {
			stack = append(stack, pair{x.args[i], y.args[i]})
		}
	}
	return true
}

// sameNode compares two distinct nodes apart from their children: same
// reports whether they may still be equal, and descend whether their
// children remain to be compared.
func sameNode(x, y *Bound) (same, descend bool) {
	if x == nil || y == nil || x.size != y.size || x.kind != y.kind || len(x.args) != len(y.args) {
		return false, false
	}
	switch x.kind {
	case KindCall:
		// Only the function: the dtype follows from the arguments' (a
		// literal's function compares its value's dtype).
		return x.fn.Equal(y.fn), true
	case KindLambda:
		return equalStrings(x.params, y.params) && sameDType(&x.dt, &y.dt), true
	case KindVar:
		return x.name == y.name && sameDType(&x.dt, &y.dt), true
	default: // $
		return sameDType(&x.dt, &y.dt), true
	}
}

// sameDType is dtype equality with fast paths for identical values (the
// same parameters and the same nested part, as every $ of one bound tree
// has), the flat types and struct types that share their fields. It takes
// pointers: a DType passed by value is split into its byte-sized fields,
// and putting them back together costs more than the comparison.
func sameDType(a, b *dtype.DType) bool {
	if *a == *b {
		return true
	}
	if a.Kind() != b.Kind() || a.Nullable() != b.Nullable() {
		return false
	}
	switch a.Kind() {
	case dtype.KindNull, dtype.KindBool, dtype.KindUtf8, dtype.KindBinary:
		return true
	case dtype.KindPrimitive:
		return a.PType() == b.PType()
	case dtype.KindStruct:
		fa, fb := a.Fields(), b.Fields()
		if len(fa) == len(fb) && (len(fa) == 0 || &fa[0] == &fb[0]) {
			return true
		}
	}
	return a.Equal(*b)
}
