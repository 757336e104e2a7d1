package coerce

import (
	"math"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// literalType is the type an untyped numeric literal v contributes when it
// meets an operand of type t:
//
//   - t itself when v fits t exactly;
//   - an integer literal that does not fit: the narrowest type of t's family
//     that holds it (u8 → u16 → u32 → u64, then the signed types for a
//     negative value; i8 → … → i64; f16 → f32 → f64; decimal(d,0) with d
//     its digits), else its natural type;
//   - a literal with a decimal point (or an exponent) with an integer t: f64;
//     with a float t: t or the next float wide enough for its magnitude;
//     with a decimal t: its natural decimal type;
//   - with any other t: its natural type (which then has no common type with
//     t: strings and bools never meet numbers).
func literalType(v scalar.Scalar, t dtype.DType) dtype.DType {
	nat := v.DType()
	if !t.IsNumeric() {
		return nat
	}
	if isInteger(v) {
		if fits(v, t) {
			return t
		}
		if t.IsInt() {
			// As DuckDB: a literal that does not fit the other side keeps
			// its own type (u8 * 1000 is i32, not u16).
			return nat
		}
		for _, c := range intCandidates(v, t) {
			if fits(v, c) {
				return c
			}
		}
		return nat
	}
	// A fractional literal: decimal(p,s), or f64 when written with an
	// exponent or more than 38 digits.
	switch {
	case t.IsInt():
		return dtype.Primitive(dtype.F64, false)
	case t.IsFloat():
		for p := t.PType(); p <= dtype.F64; p++ {
			if fitsFloat(v, p) {
				return dtype.Primitive(p, false)
			}
		}
		return dtype.Primitive(dtype.F64, false)
	case fits(v, t):
		return t
	}
	return nat
}

// intCandidates are the types tried, narrowest first, for an integer
// literal that does not fit t.
func intCandidates(v scalar.Scalar, t dtype.DType) []dtype.DType {
	prim := func(ps ...dtype.PType) []dtype.DType {
		out := make([]dtype.DType, len(ps))
		for i, p := range ps {
			out[i] = dtype.Primitive(p, false)
		}
		return out
	}
	switch {
	case t.IsDecimal():
		return []dtype.DType{dtype.Decimal(digits(v), 0, false)}
	case t.IsFloat():
		return prim(dtype.F16, dtype.F32, dtype.F64)
	case t.PType().IsUnsigned():
		return prim(dtype.U8, dtype.U16, dtype.U32, dtype.U64, dtype.I8, dtype.I16, dtype.I32, dtype.I64)
	}
	return prim(dtype.I8, dtype.I16, dtype.I32, dtype.I64)
}

// digits is the number of decimal digits of the integer literal v (at least
// 1, at most 38).
func digits(v scalar.Scalar) int {
	text := v.ValueText()
	n := 0
	for i := 0; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			n++
		}
	}
	return min(max(n, 1), dtype.MaxDecimalPrecision)
}

// fits reports whether v converts to t and back without change.
func fits(v scalar.Scalar, t dtype.DType) bool {
	c, err := scalar.Cast(v, t.AsNonNullable())
	if err != nil {
		return false
	}
	back, err := scalar.Cast(c, v.DType())
	if err != nil {
		return false
	}
	cmp, err := scalar.Compare(back, v)
	return err == nil && cmp == 0
}

// fitsFloat reports whether the fractional literal v converts to the float
// type p without overflowing to an infinity (rounding is what a float is
// for, so it is allowed).
func fitsFloat(v scalar.Scalar, p dtype.PType) bool {
	c, err := scalar.Cast(v, dtype.Primitive(p, false))
	if err != nil {
		return false
	}
	f, ok := c.Value().(float64)
	return ok && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// narrowestDecimal is the decimal type an untyped literal joins decimal
// arithmetic as: decimal(d,0) for an integer type with d digits, its own
// type for a decimal literal; ok is false for a float literal.
func narrowestDecimal(v scalar.Scalar) (dtype.DType, bool) {
	switch t := v.DType(); {
	case t.IsDecimal():
		// Already a decimal (a big integer is decimal(38,0)): arithmetic
		// takes it as it is.
		return t, true
	case t.IsInt():
		d := dtype.Decimal(digits(v), 0, false)
		return d, fits(v, d)
	}
	return dtype.DType{}, false
}

// isInteger reports whether the literal v was written as an integer: an
// integer type, or decimal(38,0) for one too big for u64 (ParseNumber's
// types; a number written with a point prints with it).
func isInteger(v scalar.Scalar) bool {
	t := v.DType()
	return t.IsInt() || (t.IsDecimal() && t.Scale() == 0 && !strings.ContainsAny(v.ValueText(), ".eE"))
}

// arith coerces the two operands of + - * / %. They meet like any other
// pair (see meet), except when they meet at a decimal: the functions accept
// decimals of different precision and scale and type the result by the SQL
// rule, so decimal operands keep their types, an integer operand joins as
// decimal(d,0) with d its widest number of digits, and an untyped literal
// joins as the narrowest decimal holding it (a decimal literal as written).
// Keeping the operands narrow keeps products from growing needless digits:
// d * 2 is decimal(p+1, s), not decimal(2p, 2s).
func (w *walker) arith(c *expr.Call, args []arg) error {
	if handled, err := w.intervalOperands(c, args); handled || err != nil {
		return err // temporal.go
	}
	if handled, err := w.dateDays(c, args); handled || err != nil {
		return err // temporal.go
	}
	idx := []int{0, 1}
	p, err := w.target(c, args, idx, verbArith)
	if err != nil || !p.ok {
		return err
	}
	if mixedSignWidens(args, p.t) {
		p.t = dtype.Primitive(dtype.I64, false)
	}
	for _, i := range idx {
		a := args[i]
		t := a.DType()
		target := p.t
		if p.t.IsDecimal() {
			if lv, isLit := untypedNumber(a); isLit {
				if nd, ok := narrowestDecimal(lv); ok {
					target = nd
				}
			} else if t.IsDecimal() {
				continue
			} else if t.IsInt() {
				target = dtype.Decimal(dtype.IntDigits(t.PType()), 0, false)
			}
		}
		if args[i], err = w.convert(c, a, target); err != nil {
			return err
		}
	}
	return nil
}

// mixedSignWidens reports whether the two operands of an arithmetic call
// are integers of different signedness that meet at t, a type neither of
// them has: DuckDB computes those in BIGINT (u8 + i8 and u16 - i16 are i64,
// u8 + i16 stays i16), where the supertype alone would give the narrowest
// signed type holding both (i16, i32).
func mixedSignWidens(args []arg, t dtype.DType) bool {
	if !t.IsInt() || len(args) != 2 {
		return false
	}
	var ts [2]dtype.DType
	for i, a := range args {
		if isNullLiteral(a) {
			return false
		}
		if lv, ok := untypedNumber(a); ok {
			ts[i] = literalType(lv, args[1-i].DType())
			if _, other := untypedNumber(args[1-i]); other {
				ts[i] = lv.DType()
			}
			continue
		}
		ts[i] = a.DType()
	}
	if !ts[0].IsInt() || !ts[1].IsInt() || ts[0].PType().IsSigned() == ts[1].PType().IsSigned() {
		return false
	}
	return !t.EqualIgnoreNullability(ts[0]) && !t.EqualIgnoreNullability(ts[1])
}

// noCommon is the error for the argument bad, of type u, that has no common
// type with t, the type of the arguments before it (the first of them is
// first). The hint casts bad to t, or else first to u.
func (w *walker) noCommon(c *expr.Call, v verb, t, u dtype.DType, first, bad arg) error {
	e := &Error{
		Path:  w.where(),
		Node:  expr.Shorten(expr.Format(c)),
		Fn:    c.Fn.ID(),
		What:  v.phrase(c.Fn.ID(), t, u),
		Types: [2]dtype.DType{t, u},
	}
	lv, badIsLit := untypedNumber(bad)
	switch {
	case badIsLit:
		// Cast the other side to a type holding the literal; between
		// integers, i64 when it holds the literal (a u64 cast to the
		// literal's i32 would fail on big values).
		to := u
		if i64 := dtype.Primitive(dtype.I64, false); to.IsInt() && t.IsInt() && fits(lv, i64) {
			to = i64
		}
		if fn.CanCast(t, to) {
			e.Hint = castText(first.Expr, to)
		}
	case fn.CanCast(u, t):
		e.Hint = castText(bad.Expr, t)
	case fn.CanCast(t, u):
		e.Hint = castText(first.Expr, u)
	}
	return e
}

// literalMisfit is the error for an untyped literal whose value does not fit
// the type its operands meet at.
func (w *walker) literalMisfit(c *expr.Call, a arg, v scalar.Scalar, t dtype.DType, cause error) error {
	return &Error{
		Path:   w.where(),
		Node:   expr.Shorten(expr.Format(c)),
		Fn:     c.Fn.ID(),
		What:   "convert the literal " + v.ValueText() + " to " + t.AsNonNullable().String(),
		Types:  [2]dtype.DType{t, v.DType()},
		Reason: "the value does not fit (" + cause.Error() + ")",
	}
}

// castText is the text of CAST(e AS t).
func castText(e expr.Expr, t dtype.DType) string {
	return expr.Shorten(expr.Format(expr.Cast(e, t.AsNonNullable())))
}
