package fn

import (
	"github.com/colexpr/colexpr/dtype"
)

// The comparison functions. Arguments share one type (nullability aside).
// eq and neq (and the DISTINCT FROM pair) accept every type, nested ones
// included; the ordering comparisons and between accept types with an order:
// numbers, bool, utf8, binary, date, time, timestamp and interval (by the
// span it covers, as DuckDB orders intervals: 30 days equal 1 month).
//
// Comparisons on a null give null, except is_distinct_from and
// is_not_distinct_from, which treat null as a value and never return null.
// Float comparisons follow IEEE 754: NaN is unequal to everything.
//
// in_list(x, v1, …, vn) is x = v1 OR … OR x = vn with SQL's null rule: a
// miss against a list holding null is null. between(x, lo, hi) is
// lo <= x AND x <= hi.
var (
	Eq                Function = compare{simple{IDEq}, "=", false}     // a = b
	NotEq             Function = compare{simple{IDNotEq}, "!=", false} // a != b (also a <> b)
	Lt                Function = compare{simple{IDLt}, "<", true}      // a < b
	LtEq              Function = compare{simple{IDLtEq}, "<=", true}   // a <= b
	Gt                Function = compare{simple{IDGt}, ">", true}      // a > b
	GtEq              Function = compare{simple{IDGtEq}, ">=", true}   // a >= b
	IsDistinctFrom    Function = distinct{simple{IDIsDistinctFrom}}    // a IS DISTINCT FROM b
	IsNotDistinctFrom Function = distinct{simple{IDIsNotDistinctFrom}} // a IS NOT DISTINCT FROM b
	Between           Function = between{simple{IDBetween}}            // x BETWEEN lo AND hi
	InList            Function = inList{simple{IDInList}}              // x IN (v1, …, vn)
)

type compare struct {
	simple
	op      string
	ordered bool
}

// Op is the operator symbol: = != < <= > >=.
func (c compare) Op() string { return c.op }

func (c compare) Arity() Arity { return Exactly(2) }

func (c compare) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return comparable2(c, args, c.ordered)
}

func comparable2(f Function, args []dtype.DType, ordered bool) (dtype.DType, error) {
	t, err := sameType(f, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if ordered && !IsOrdered(t) {
		return dtype.DType{}, argErr(f, 0, "has type %s, which has no order", t)
	}
	return dtype.Bool(anyNullable(args)), nil
}

// IsOrdered reports whether values of t can be compared with < and >.
func IsOrdered(t dtype.DType) bool {
	switch t.Kind() {
	case dtype.KindBool, dtype.KindPrimitive, dtype.KindDecimal, dtype.KindUtf8, dtype.KindBinary, dtype.KindExtension, dtype.KindInterval:
		return true
	}
	return false
}

// Negate is the comparison that is true exactly when c is false (on
// non-null, non-NaN operands): = ↔ !=, < ↔ >=, > ↔ <=.
func Negate(f Function) (Function, bool) {
	switch f.ID() {
	case IDEq:
		return NotEq, true
	case IDNotEq:
		return Eq, true
	case IDLt:
		return GtEq, true
	case IDGtEq:
		return Lt, true
	case IDGt:
		return LtEq, true
	case IDLtEq:
		return Gt, true
	}
	return nil, false
}

// Flip is the comparison with its operands swapped: a < b ⇔ b > a.
func Flip(f Function) (Function, bool) {
	switch f.ID() {
	case IDEq, IDNotEq, IDIsDistinctFrom, IDIsNotDistinctFrom:
		return f, true
	case IDLt:
		return Gt, true
	case IDGt:
		return Lt, true
	case IDLtEq:
		return GtEq, true
	case IDGtEq:
		return LtEq, true
	}
	return nil, false
}

type distinct struct{ simple }

func (d distinct) Arity() Arity               { return Exactly(2) }
func (d distinct) NullHandling() NullHandling { return NullAware }

func (d distinct) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if _, err := sameType(d, args, 0); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Bool(false), nil
}

type between struct{ simple }

func (b between) Arity() Arity { return Exactly(3) }

// NullHandling: between is lo <= x AND x <= hi, a Kleene AND, so a null
// bound does not make the result null when the other comparison is false.
func (b between) NullHandling() NullHandling { return NullAware }

func (b between) ReturnType(args []dtype.DType) (dtype.DType, error) {
	t, err := sameType(b, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if !IsOrdered(t) {
		return dtype.DType{}, argErr(b, 0, "has type %s, which has no order", t)
	}
	return dtype.Bool(anyNullable(args)), nil
}

type inList struct{ simple }

func (l inList) Arity() Arity               { return AtLeast(2) }
func (l inList) NullHandling() NullHandling { return NullAware }

func (l inList) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if _, err := sameType(l, args, 0); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Bool(anyNullable(args)), nil
}
