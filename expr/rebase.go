package expr

import "github.com/colexpr/colexpr/dtype"

// ReplaceRoot is b with every $ node (in lambda bodies too) replaced by a $
// of type root, and every node above one retyped. A reader uses it to move a
// tree bound against a file's whole schema onto the narrower struct of the
// columns it reads: field access is by name, so a tree that reads only
// columns root has types as before. It is an error when a node no longer
// types, such as a get_item of a column root lacks.
//
// Subtrees without $ are shared, not copied; the walk is iterative, so any
// depth is fine.
func ReplaceRoot(b *Bound, root dtype.DType) (*Bound, error) {
	type frame struct {
		n    *Bound
		next int // the next child to visit
	}
	newRoot := NewRoot(root)
	done := map[*Bound]*Bound{} // a node to its replacement (shared subtrees once)
	stack := []frame{{n: b}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		n := top.n
		if _, ok := done[n]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		if n.kind == KindRoot {
			done[n] = newRoot
			stack = stack[:len(stack)-1]
			continue
		}
		if top.next < len(n.args) {
			c := n.args[top.next]
			top.next++
			if _, ok := done[c]; !ok {
				stack = append(stack, frame{n: c})
			}
			continue
		}
		stack = stack[:len(stack)-1]
		if len(n.args) == 0 {
			done[n] = n
			continue
		}
		args := make([]*Bound, len(n.args))
		for i, c := range n.args {
			args[i] = done[c]
		}
		r, err := n.WithArgs(args)
		if err != nil {
			return nil, err
		}
		done[n] = r
	}
	return done[b], nil
}
