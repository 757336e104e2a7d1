package partition

import (
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// FieldPath is a path of field names from the root: [a x] is $.a.x. The
// empty path is the root itself.
type FieldPath []string

// String is the path in the text syntax: $.a.x, $ for the empty path.
func (p FieldPath) String() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, n := range p {
		b.WriteByte('.')
		b.WriteString(dtype.QuoteFieldName(n))
	}
	return b.String()
}

func (p FieldPath) key() string { return strings.Join(p, "\x00") + "\x00" }

// ReferencedFields lists the field paths of the root that b reads: what a
// reader must load to evaluate it.
//
// A path follows field accesses from $ (lambda bodies included) and stops
// where the expression uses a whole struct: `$.a.x > 5` reads [a x], `$.a IS
// NULL` reads [a], and a use of $ itself reads the empty path (everything).
// Paths are deduplicated, and a path under another listed path is left out
// (reading [a] covers [a x]). They are listed in order of first use, a
// covering path at the place of the first path it covers.
//
// The walk is iterative, so trees of any depth are fine.
func ReferencedFields(b *expr.Bound) []FieldPath {
	if b == nil {
		return nil
	}
	var found []FieldPath
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind() {
		case expr.KindRoot:
			found = append(found, FieldPath{})
			continue
		case expr.KindCall:
			if _, ok := n.Fn().(fn.GetItemFn); ok {
				path, base := FieldChain(n)
				if base.Kind() == expr.KindRoot {
					found = append(found, path)
					continue
				}
				// A field of something else (a variable, a pack): only its
				// base can read the root.
				stack = append(stack, base)
				continue
			}
		}
		args := n.Args()
		for i := len(args) - 1; i >= 0; i-- {
			stack = append(stack, args[i])
		}
	}
	return cover(found)
}

// FieldChain follows the chain of get_item calls that ends at n down to
// its base, the first node that is not a get_item, and returns the field
// names from the base outwards: $.a.x gives [a x] and $; a node that is
// not a get_item gives an empty path and n itself.
func FieldChain(n *expr.Bound) (FieldPath, *expr.Bound) {
	var rev []string
	for n.Kind() == expr.KindCall {
		g, ok := n.Fn().(fn.GetItemFn)
		if !ok {
			break
		}
		rev = append(rev, g.Field)
		n = n.Arg(0)
	}
	path := make(FieldPath, len(rev))
	for i, name := range rev {
		path[len(rev)-1-i] = name
	}
	return path, n
}

// cover deduplicates paths and drops those under another path, keeping the
// order of first use.
func cover(found []FieldPath) []FieldPath {
	set := make(map[string]bool, len(found))
	for _, p := range found {
		set[p.key()] = true
	}
	var out []FieldPath
	listed := map[string]bool{}
	for _, p := range found {
		// The shortest listed prefix of p (p itself at worst) covers it.
		c := p
		for l := 0; l < len(p); l++ {
			if set[p[:l].key()] {
				c = p[:l]
				break
			}
		}
		if k := c.key(); !listed[k] {
			listed[k] = true
			out = append(out, append(FieldPath(nil), c...))
		}
	}
	return out
}

// Conjuncts splits a predicate into its top-level AND operands, left to
// right: `a AND (b AND c) AND d` gives [a b c d], the order in which
// evaluating it evaluates them (eval's Filter runs them one at a time). A
// node that is not an AND is its own single conjunct; nil has none. The
// walk is iterative, so chains of any depth are fine.
func Conjuncts(b *expr.Bound) []*expr.Bound {
	if b == nil {
		return nil
	}
	var out []*expr.Bound
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.IsCall(fn.IDAnd) {
			stack = append(stack, n.Arg(1), n.Arg(0))
			continue
		}
		out = append(out, n)
	}
	return out
}

// Conjoin is the inverse of Conjuncts: the left-deep AND of parts,
// ((p0 AND p1) AND p2) …; a single part is returned as it is, and no parts
// give the literal true. Every part must be bool (nullable or not).
//
// Conjoin(Conjuncts(b)) is b when b's ANDs are left-deep, and an equivalent
// predicate otherwise.
func Conjoin(parts []*expr.Bound) (*expr.Bound, error) {
	if len(parts) == 0 {
		return expr.NewLiteral(scalar.Bool(true)), nil
	}
	for i, p := range parts {
		if p == nil {
			return nil, fmt.Errorf("partition: conjoin: part %d is nil", i)
		}
		if !p.DType().IsBool() {
			return nil, fmt.Errorf("partition: conjoin: part %d `%s` has type %s, want bool", i, expr.Shorten(p.String()), p.DType())
		}
	}
	acc := parts[0]
	for _, p := range parts[1:] {
		var err error
		if acc, err = expr.NewCall(fn.And, acc, p); err != nil {
			return nil, fmt.Errorf("partition: conjoin: %w", err)
		}
	}
	return acc, nil
}
