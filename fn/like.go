package fn

import (
	"github.com/colexpr/colexpr/dtype"
)

// LikeFn is SQL LIKE: `%` matches any run of characters, `_` one character
// and `\` escapes the next one. With CaseInsensitive it is ILIKE; Negated
// gives NOT LIKE / NOT ILIKE. Both arguments are utf8: the value and the
// pattern (usually a literal, but any expression works).
type LikeFn struct {
	Negated         bool
	CaseInsensitive bool
}

// Like is the LIKE function with the given flags.
func Like(negated, caseInsensitive bool) LikeFn { return LikeFn{negated, caseInsensitive} }

func (l LikeFn) ID() string {
	if l.CaseInsensitive {
		return IDILike
	}
	return IDLike
}
func (l LikeFn) Arity() Arity               { return Exactly(2) }
func (l LikeFn) NullHandling() NullHandling { return NullPropagating }
func (l LikeFn) Volatility() Volatility     { return Immutable }
func (l LikeFn) Fallible() bool             { return true } // a malformed escape in a pattern
func (l LikeFn) Hash() uint64 {
	if l.Negated {
		return hashString(l.ID(), "not")
	}
	return hashString(l.ID())
}
func (l LikeFn) Equal(o Function) bool { ol, ok := o.(LikeFn); return ok && ol == l }

func (l LikeFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsUtf8() {
			return dtype.DType{}, argErr(l, i, "has type %s, want utf8", a)
		}
	}
	return dtype.Bool(anyNullable(args)), nil
}
