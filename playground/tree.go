package playground

import (
	"fmt"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
)

// Node is one node of a bound tree as the page draws it.
type Node struct {
	// Kind is the node kind: call, root, var, literal or lambda.
	Kind string `json:"kind"`
	// Label names the node as explain's trees do (expr.Label): a call's
	// function and options, a literal's value, a variable's name.
	Label string `json:"label"`
	DType string `json:"dtype"`
	// Params are a lambda's parameters: the frame its body is bound in.
	Params []Param `json:"params,omitempty"`
	// Frame is, for a variable, how many lambdas out its frame is (1: the
	// innermost lambda around it); 0 for a variable of the scope itself.
	Frame    int     `json:"frame,omitempty"`
	Children []*Node `json:"children,omitempty"`
	// LeftOut counts the nodes below this one the tree leaves out
	// (MaxTreeNodes, MaxTreeDepth).
	LeftOut int `json:"leftOut,omitempty"`
}

// Param is a lambda parameter and its dtype.
type Param struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
}

// treeOf is b as a Node tree, of at most MaxTreeNodes nodes and
// MaxTreeDepth levels; root is the type of $, which a wide schema prints
// shortened.
func treeOf(b *expr.Bound, root dtype.DType) *Node {
	budget := MaxTreeNodes
	return nodeOf(b, root, nil, 1, &budget)
}

func nodeOf(b *expr.Bound, root dtype.DType, frames [][]string, depth int, budget *int) *Node {
	*budget--
	n := &Node{Kind: b.Kind().String(), Label: expr.Label(b), DType: b.DType().String()}
	if _, ok := b.Literal(); ok {
		n.Kind = "literal"
	}
	switch b.Kind() {
	case expr.KindRoot:
		if len(n.DType) > 80 && b.DType().Equal(root) {
			n.DType = fmt.Sprintf("struct<…> (the input schema: %d columns)", len(root.Fields()))
		}
	case expr.KindLambda:
		types := b.ParamTypes()
		for i, p := range b.Params() {
			n.Params = append(n.Params, Param{Name: p, DType: types[i].String()})
		}
		frames = append(frames[:len(frames):len(frames)], b.Params())
	case expr.KindVar:
		n.Frame = frameOf(frames, b.Name())
	}
	for i, c := range b.Args() {
		if *budget <= 0 || depth >= MaxTreeDepth {
			for _, rest := range b.Args()[i:] {
				n.LeftOut += rest.Size()
			}
			break
		}
		n.Children = append(n.Children, nodeOf(c, root, frames, depth+1, budget))
	}
	return n
}

// frameOf is how many lambdas out the frame defining name is, 0 when none
// of frames does: the variable is then the scope's.
func frameOf(frames [][]string, name string) int {
	for i := len(frames) - 1; i >= 0; i-- {
		for _, p := range frames[i] {
			if p == name {
				return len(frames) - i
			}
		}
	}
	return 0
}
