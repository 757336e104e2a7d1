package fn

import "github.com/colexpr/colexpr/dtype"

// The boolean functions, with SQL's three-valued (Kleene) logic:
// false AND null is false, true OR null is true, NOT null is null.
var (
	And Function = logical{simple{IDAnd}} // a AND b
	Or  Function = logical{simple{IDOr}}  // a OR b
	Not Function = not{simple{IDNot}}     // NOT a
)

type logical struct{ simple }

func (l logical) Arity() Arity               { return Exactly(2) }
func (l logical) NullHandling() NullHandling { return NullAware }

func (l logical) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsBool() {
			return dtype.DType{}, argErr(l, i, "has type %s, want bool", a)
		}
	}
	return dtype.Bool(anyNullable(args)), nil
}

type not struct{ simple }

func (n not) Arity() Arity { return Exactly(1) }

func (n not) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsBool() {
		return dtype.DType{}, argErr(n, 0, "has type %s, want bool", args[0])
	}
	return args[0], nil
}
