package expr

import "github.com/colexpr/colexpr/dtype"

// Scope is what an expression is typed against: the root dtype ($) and a
// stack of variable frames. A Scope is an immutable value; Push returns a
// new scope and leaves the receiver untouched, so passes can hand scopes to
// children without copying.
//
// A scope made from a plain dtype (ScopeOf) has no frames and resolves no
// variables: an expression with a free variable fails to bind against it.
type Scope struct {
	root dtype.DType
	top  *frame
}

type frame struct {
	names  []string
	types  []dtype.DType
	parent *frame
}

// ScopeOf is the scope with root dtype t and no frames.
func ScopeOf(t dtype.DType) Scope { return Scope{root: t} }

// Root is the root dtype.
func (s Scope) Root() dtype.DType { return s.root }

// Push returns s with a new innermost frame binding names to types.
func (s Scope) Push(names []string, types []dtype.DType) Scope {
	return Scope{root: s.root, top: &frame{names: names, types: types, parent: s.top}}
}

// With returns s with one more frame binding name to t.
func (s Scope) With(name string, t dtype.DType) Scope {
	return s.Push([]string{name}, []dtype.DType{t})
}

// Lookup resolves a variable against the innermost frame that defines it.
func (s Scope) Lookup(name string) (dtype.DType, bool) {
	for f := s.top; f != nil; f = f.parent {
		for i := len(f.names) - 1; i >= 0; i-- {
			if f.names[i] == name {
				return f.types[i], true
			}
		}
	}
	return dtype.DType{}, false
}

// Depth is the number of frames.
func (s Scope) Depth() int {
	n := 0
	for f := s.top; f != nil; f = f.parent {
		n++
	}
	return n
}

// Vars lists the variables visible in s, innermost first, each once.
func (s Scope) Vars() []string {
	var out []string
	seen := map[string]bool{}
	for f := s.top; f != nil; f = f.parent {
		for i := len(f.names) - 1; i >= 0; i-- {
			if !seen[f.names[i]] {
				seen[f.names[i]] = true
				out = append(out, f.names[i])
			}
		}
	}
	return out
}
