package fn

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// CastFn converts its argument to To. cast fails on a value that does not
// fit or a string that does not parse; try_cast gives null instead.
// Float → integer rounds to nearest, ties to even; decimal → integer rounds
// half away from zero. Strings parse as scalar.Cast describes: bool from
// exactly true, t, yes, y, 1, false, f, no, n or 0 (any case, no white space
// around); numbers, dates, times and timestamps with surrounding white space
// trimmed, '1.5' → integer rounding as a decimal does.
//
// The result is To with the argument's nullability (try_cast: always
// nullable); To's own nullability is kept in the options only so the text
// form round-trips.
type CastFn struct {
	To  dtype.DType
	Try bool
}

// Cast is the checked cast to t.
func Cast(t dtype.DType) CastFn { return CastFn{To: t} }

// TryCast is the cast to t that gives null on failure.
func TryCast(t dtype.DType) CastFn { return CastFn{To: t, Try: true} }

func (c CastFn) ID() string {
	if c.Try {
		return IDTryCast
	}
	return IDCast
}
func (c CastFn) Arity() Arity { return Exactly(1) }
func (c CastFn) NullHandling() NullHandling {
	if c.Try {
		return NullAware
	}
	return NullPropagating
}
func (c CastFn) Volatility() Volatility { return Immutable }
func (c CastFn) Fallible() bool         { return !c.Try }
func (c CastFn) Hash() uint64           { return hashString(c.ID(), c.To.String()) }
func (c CastFn) Equal(o Function) bool {
	oc, ok := o.(CastFn)
	return ok && oc.Try == c.Try && oc.To.Equal(c.To)
}

func (c CastFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !CanCast(args[0], c.To) {
		return dtype.DType{}, argErr(c, 0, "cannot cast %s to %s", args[0], c.To)
	}
	return c.To.WithNullable(c.Try || args[0].Nullable() || c.To.Nullable()), nil
}

// CanCast reports whether a cast from one type to another is defined (it
// may still fail on particular values).
//
// Defined casts: between any two of bool, the numbers and decimals; from
// anything but nested types to utf8, and from utf8 to bool, numbers,
// decimals, dates, times and timestamps (by parsing); utf8 ↔ binary; date ↔
// timestamp; timestamp ↔ timestamp (unit or zone); time ↔ time; null to
// anything; lists element-wise; fixed-size list to list; structs with the
// same field names, field-wise.
func CanCast(from, to dtype.DType) bool {
	return scalar.CanCast(from, to) && !fixesLength(from, to)
}

// fixesLength reports whether a cast from one type to another turns a list
// into a fixed-size list anywhere in its nesting: scalar.Cast does that,
// checking each value's length, but a cast call does not.
func fixesLength(from, to dtype.DType) bool {
	switch {
	case from.Kind() == dtype.KindList && to.Kind() == dtype.KindFixedSizeList:
		return true
	case from.IsList() && to.IsList():
		return fixesLength(from.Elem(), to.Elem())
	case from.IsStruct() && to.IsStruct():
		ff, tf := from.Fields(), to.Fields()
		for i := range min(len(ff), len(tf)) {
			if fixesLength(ff[i].Type, tf[i].Type) {
				return true
			}
		}
	}
	return false
}
