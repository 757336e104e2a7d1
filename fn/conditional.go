package fn

import (
	"github.com/colexpr/colexpr/dtype"
)

// CaseWhenFn is `CASE WHEN c1 THEN v1 … [ELSE e] END`, with arguments
// c1, v1, c2, v2, …, and e last when HasElse. Conditions are bool; a null
// condition counts as false. The values share one type; the result is
// nullable when any value is, or when there is no ELSE. Each value is
// evaluated only for the rows that take it, so a guard such as
// `CASE WHEN b <> 0 THEN a / b END` never raises.
type CaseWhenFn struct{ HasElse bool }

// CaseWhen is the CASE function, with or without an ELSE.
func CaseWhen(hasElse bool) CaseWhenFn { return CaseWhenFn{hasElse} }

func (c CaseWhenFn) ID() string { return IDCaseWhen }
func (c CaseWhenFn) Arity() Arity {
	if c.HasElse {
		return AtLeast(3)
	}
	return AtLeast(2)
}
func (c CaseWhenFn) NullHandling() NullHandling { return NullAware }
func (c CaseWhenFn) Volatility() Volatility     { return Immutable }
func (c CaseWhenFn) Fallible() bool             { return false }
func (c CaseWhenFn) Hash() uint64 {
	if c.HasElse {
		return hashString("case_when", "else")
	}
	return hashString("case_when")
}
func (c CaseWhenFn) Equal(o Function) bool { oc, ok := o.(CaseWhenFn); return ok && oc == c }

// Branches is the number of WHEN branches of a call with n arguments.
func (c CaseWhenFn) Branches(n int) int {
	if c.HasElse {
		return (n - 1) / 2
	}
	return n / 2
}

func (c CaseWhenFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	n := len(args)
	if c.HasElse {
		n--
	}
	if n%2 != 0 || n == 0 {
		return dtype.DType{}, &ArgError{Fn: c.ID(), Arg: -1, Msg: "wants condition/value pairs"}
	}
	var t dtype.DType
	nullable := !c.HasElse
	for i := 0; i < n; i += 2 {
		if !args[i].IsBool() {
			return dtype.DType{}, argErr(c, i, "is a WHEN condition of type %s, want bool", args[i])
		}
	}
	values := make([]int, 0, n/2+1)
	for i := 1; i < n; i += 2 {
		values = append(values, i)
	}
	if c.HasElse {
		values = append(values, len(args)-1)
	}
	t = args[values[0]]
	for _, i := range values {
		if !args[i].EqualIgnoreNullability(t) {
			return dtype.DType{}, argErr(c, i, "has type %s, want %s like the first THEN (cast one of them)", args[i], t.AsNonNullable())
		}
		nullable = nullable || args[i].Nullable()
		t = unionNullability(t, args[i])
	}
	return t.WithNullable(nullable), nil
}
