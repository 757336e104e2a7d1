package fn

import (
	"github.com/colexpr/colexpr/dtype"
)

// The arithmetic functions. Integer arithmetic is checked: overflow,
// division by zero and MIN / -1 are errors. `/` on integers truncates toward
// zero and `%` takes the dividend's sign. Floats follow IEEE 754.
//
// Both arguments must have one type (nullability aside), except decimals,
// which may differ in precision and scale; their result type follows SQL:
//
//	add, sub   decimal(max(p1-s1, p2-s2) + max(s1, s2) + 1, max(s1, s2))
//	mul        decimal(p1 + p2, s1 + s2)
//	mod        decimal(max(p1-s1, p2-s2) + max(s1, s2), max(s1, s2))
//	div        f64, as in DuckDB
//
// with the precision capped at 38 (a scale above 38 is a type error).
//
// Dates take days as DuckDB's signatures do: date + i32 and i32 + date
// and date - i32 are dates, date - date is the i64 number of days. Dates
// and timestamps take intervals, and intervals add, subtract, multiply by
// an integer and negate: see the interval functions (ToDays).
var (
	Add Function = arith{simple{IDAdd}, '+'} // a + b
	Sub Function = arith{simple{IDSub}, '-'} // a - b
	Mul Function = arith{simple{IDMul}, '*'} // a * b
	Div Function = arith{simple{IDDiv}, '/'} // a / b
	Mod Function = arith{simple{IDMod}, '%'} // a % b
	Neg Function = unaryArith{simple{IDNeg}} // -a
	Abs Function = unaryArith{simple{IDAbs}} // abs(a)
)

type arith struct {
	simple
	op byte
}

// Op is the operator symbol of the function: + - * / %.
func (a arith) Op() byte { return a.op }

func (a arith) Arity() Arity   { return Exactly(2) }
func (a arith) Fallible() bool { return true }

func (a arith) ReturnType(args []dtype.DType) (dtype.DType, error) {
	l, r := args[0], args[1]
	nullable := l.Nullable() || r.Nullable()
	if l.IsDecimal() && r.IsDecimal() {
		return decimalArith(a, l, r, nullable)
	}
	if involvesInterval(a.op, l, r) {
		return intervalArith(a, l, r, nullable) // interval.go
	}
	if isDate(l) || isDate(r) {
		return dateArith(a, l, r, nullable) // temporal.go
	}
	if !l.IsNumeric() {
		return dtype.DType{}, argErr(a, 0, "has type %s, want a number", l)
	}
	if !r.IsNumeric() {
		return dtype.DType{}, argErr(a, 1, "has type %s, want a number", r)
	}
	if !l.EqualIgnoreNullability(r) {
		return dtype.DType{}, argErr(a, 1, "has type %s, want %s like argument 1 (cast one of them)", r, l.AsNonNullable())
	}
	return l.WithNullable(nullable), nil
}

func decimalArith(a arith, l, r dtype.DType, nullable bool) (dtype.DType, error) {
	s1, s2 := l.Scale(), r.Scale()
	i1, i2 := l.Precision()-s1, r.Precision()-s2
	var p, s int
	switch a.op {
	case '+', '-':
		s = max(s1, s2)
		p = max(i1, i2) + s + 1
	case '*':
		s = s1 + s2
		p = l.Precision() + r.Precision()
	case '%':
		s = max(s1, s2)
		p = max(i1, i2) + s
	case '/':
		return dtype.Primitive(dtype.F64, nullable), nil
	}
	if s > dtype.MaxDecimalPrecision {
		return dtype.DType{}, argErr(a, 1, "result scale %d of %s and %s exceeds 38", s, l, r)
	}
	return dtype.Decimal(min(p, dtype.MaxDecimalPrecision), s, nullable), nil
}

type unaryArith struct{ simple }

func (u unaryArith) Arity() Arity   { return Exactly(1) }
func (u unaryArith) Fallible() bool { return true }

func (u unaryArith) ReturnType(args []dtype.DType) (dtype.DType, error) {
	t := args[0]
	if u.id == IDNeg && t.IsInterval() {
		return t, nil
	}
	if !t.IsNumeric() {
		return dtype.DType{}, argErr(u, 0, "has type %s, want a number", t)
	}
	if u.id == IDNeg && t.IsInt() && t.PType().IsUnsigned() {
		return dtype.DType{}, argErr(u, 0, "has unsigned type %s, which cannot be negated (cast it to a signed type)", t)
	}
	return t, nil
}
