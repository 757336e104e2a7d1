package optimize

import (
	"math"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The cast family: casts that change nothing, casts of literals, chains of
// widening casts, and comparisons of a widened column with a literal.
//
// A cast from type A to type B is widening when every value of A converts
// to B exactly and the conversion never fails (Widening says which pairs).

// CastSameType drops a cast whose result dtype is its argument's own,
// nullability included:
//
//	CAST(a AS i64)       →  a        (a: i64)
//	TRY_CAST(a AS i64)   →  a        (a: i64?)
//
// `CAST(a AS i64?)` with a non-nullable a changes the dtype to i64? and
// stays.
var CastSameType = &Rule{
	Name: "cast/same_type",
	Fns:  []fn.Function{fn.CastFn{}, fn.CastFn{Try: true}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return keep(n.Arg(0), n.DType())
	},
}

// CastLiteral casts a literal when the cast succeeds, with the evaluator's
// cast kernel:
//
//	CAST(5 AS i64)          →  5::i64
//	CAST('12' AS i32)       →  12::i32
//	TRY_CAST('x' AS i32)    →  null::i32?
//	CAST(300 AS i8)         stays (it would fail wherever it is evaluated)
var CastLiteral = &Rule{
	Name:     "cast/literal",
	Fns:      []fn.Function{fn.CastFn{}, fn.CastFn{Try: true}},
	ConstArg: true,
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		return c.Fold(n)
	},
}

// CastWideningChain merges two widening casts into one:
//
//	CAST(CAST(a AS i32) AS i64)   →  CAST(a AS i64)     (a: i8)
//	CAST(CAST(f AS f32) AS f64)   →  CAST(f AS f64)     (f: f16)
//
// Both casts are checked casts and both are widening, so the value is the
// same either way and neither can fail.
var CastWideningChain = &Rule{
	Name: "cast/widening_chain",
	Fns:  []fn.Function{fn.CastFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		inner := n.Arg(0)
		if !isCall(inner, fn.IDCast) {
			return nil
		}
		if c, ok := asCast(inner); !ok || c.Try {
			return nil
		}
		x := inner.Arg(0)
		if !Widening(x.DType(), inner.DType()) || !Widening(inner.DType(), n.DType()) {
			return nil
		}
		outer, ok := asCast(n)
		if !ok {
			return nil
		}
		to := outer.To
		if b := call(n.DType(), fn.Cast(to), x); b != nil {
			return b
		}
		// The inner cast made x nullable (CAST(x AS i32?)): say so.
		return call(n.DType(), fn.Cast(to.AsNullable()), x)
	},
}

// CastCompareNarrow compares a widened value with a literal in the value's
// own type, when the literal converts to that type exactly:
//
//	CAST(a AS i32) = 5::i32        →  a = 5::i8          (a: i8)
//	CAST(a AS i64) < 7::i64        →  a < 7::i32         (a: i32)
//	CAST(a AS i32) IN (1, 2)       →  a IN (1::i8, 2::i8)
//
// It applies to = != < <= > >= IS [NOT] DISTINCT FROM and IN lists. A
// literal that does not fit (`CAST(a AS i32) = 300` for an i8 a) is left
// alone: the comparison is decided by the range of the type, and folding it
// would have to reproduce the null handling of every comparison, which the
// evaluator already does correctly.
var CastCompareNarrow = &Rule{
	Name:    "cast/compare_narrow",
	Fns:     []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom, fn.InList},
	Rewrite: castCompareNarrow,
}

func castCompareNarrow(c *Context, n *expr.Bound) *expr.Bound {
	cast := n.Arg(0)
	// The type check first: it needs no dynamic call.
	if _, ok := asCast(cast); !ok {
		return nil
	}
	if !isCall(cast, fn.IDCast, fn.IDTryCast) {
		return nil
	}
	x := cast.Arg(0)
	if !Widening(x.DType(), cast.DType()) {
		return nil
	}
	args := make([]*expr.Bound, len(n.Args()))
	args[0] = x
	for i := 1; i < len(args); i++ {
		lit := narrowLiteral(n.Arg(i), x.DType())
		if lit == nil {
			return nil
		}
		args[i] = lit
	}
	// The cast may have made a non-nullable x nullable (CAST(a AS i32?));
	// the literals then carry that nullability so the result keeps it.
	if n.DType().Nullable() && !x.DType().Nullable() {
		any := false
		for _, a := range args[1:] {
			any = any || a.DType().Nullable()
		}
		if !any && !isCall(n, fn.IDIsDistinctFrom, fn.IDIsNotDistinctFrom) {
			s, _ := args[1].Literal()
			args[1] = expr.NewLiteral(s.WithDType(s.DType().AsNullable()))
		}
	}
	return call(n.DType(), n.Fn(), args...)
}

// narrowLiteral is the literal l converted to type t (keeping l's
// nullability) when it converts exactly and back; nil otherwise.
func narrowLiteral(l *expr.Bound, t dtype.DType) *expr.Bound {
	s, ok := literal(l)
	if !ok {
		return nil
	}
	if f, isFloat := s.Value().(float64); isFloat && math.IsNaN(f) {
		return nil
	}
	to := t.WithNullable(s.DType().Nullable())
	narrow, err := scalar.Cast(s, to)
	if err != nil || narrow.IsNull() {
		return nil
	}
	back, err := scalar.Cast(narrow, s.DType())
	if err != nil {
		return nil
	}
	if cmp, err := scalar.Compare(back, s); err != nil || cmp != 0 {
		return nil
	}
	return expr.NewLiteral(narrow.WithDType(to))
}

// Widening reports whether a cast from one type to another converts every
// value exactly and never fails (nullability aside):
//
//   - an integer to an integer of the same signedness at least as wide, or
//     an unsigned integer to a strictly wider signed one;
//   - an integer to a float whose significand holds every value of it
//     (f16: 8-bit integers, f32: up to 16-bit, f64: up to 32-bit);
//   - a float to a float at least as wide;
//   - a decimal to a decimal with at least its scale and at least its
//     number of integer digits;
//   - an integer to a decimal with at least its number of digits
//     (dtype.IntDigits) before the point.
//
// A type to itself is widening.
func Widening(from, to dtype.DType) bool {
	if from.EqualIgnoreNullability(to) {
		return from.IsNumeric() || from.IsBool()
	}
	switch {
	case from.IsInt() && to.IsInt():
		f, t := from.PType(), to.PType()
		if f.IsSigned() == t.IsSigned() {
			return t.BitWidth() >= f.BitWidth()
		}
		return f.IsUnsigned() && t.IsSigned() && t.BitWidth() > f.BitWidth()
	case from.IsInt() && to.IsFloat():
		bits := from.PType().BitWidth()
		if from.PType().IsSigned() {
			bits--
		}
		return bits <= significand(to.PType())
	case from.IsFloat() && to.IsFloat():
		return to.PType().BitWidth() >= from.PType().BitWidth()
	case from.IsDecimal() && to.IsDecimal():
		return to.Scale() >= from.Scale() && to.Precision()-to.Scale() >= from.Precision()-from.Scale()
	case from.IsInt() && to.IsDecimal():
		return to.Precision()-to.Scale() >= dtype.IntDigits(from.PType())
	}
	return false
}

// significand is the number of significand bits of a float type,
// including the implicit one.
func significand(p dtype.PType) int {
	switch p {
	case dtype.F16:
		return 11
	case dtype.F32:
		return 24
	default:
		return 53
	}
}
