package expr

import (
	"errors"
	"fmt"
)

// MaxDepth is the deepest tree colexpr works on: the number of levels from
// the root of a tree down to its deepest leaf, where every node counts one
// level — a prefix or postfix operator, a call, a term of a binary chain
// (`a + b + c` is three levels of add above its leaves).
//
// Most walks over trees (binding, coercion, evaluation, Substrait export)
// recurse, so a tree of any depth would exhaust the stack, a crash no
// recover catches. Instead every stage refuses a deeper tree with an error
// wrapping ErrTooDeep: Bind and coerce for unbound trees, NewCall and
// WithArgsSameTypes for bound ones — no Bound tree is deeper than MaxDepth
// (plus one for a lambda on top), so the stages after binding never see
// one. The parser limits the nesting it reads more tightly (see
// parse.DefaultMaxDepth) with the same error. Format, Hash and Equal work
// on trees of any depth; Format elides what lies deeper than MaxDepth.
const MaxDepth = 100_000

// ErrTooDeep is the cause of the error for a tree deeper than MaxDepth (or
// text nested deeper than the parser's limit); test with errors.Is.
var ErrTooDeep = errors.New("expression nested too deeply")

func tooDeep() error { return fmt.Errorf("%w (more than %d levels)", ErrTooDeep, MaxDepth) }

// Depth is the number of levels from e down to its deepest leaf (a leaf is
// 1), measured without recursion, so it works on trees of any depth.
func Depth(e Expr) int {
	type item struct {
		e Expr
		d int
	}
	max := 0
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d > max {
			max = it.d
		}
		for _, c := range Children(it.e) {
			stack = append(stack, item{c, it.d + 1})
		}
	}
	return max
}
