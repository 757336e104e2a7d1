package fn

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The numeric functions, typed as DuckDB types them (checked against the
// DuckDB that bench's duckdb-go v2 links, with bench/cmd/duckquery):
//
//	round(x), round(x, n)   i8…i64 → itself; u8, u16, u32 → i64 (DuckDB has
//	                        no unsigned round and casts them to BIGINT); u64 →
//	                        u64 (DuckDB: HUGEINT, which colexpr lacks); f32,
//	                        f64 → itself; decimal(p,s) → decimal(p, min(max(n,
//	                        0), s)), n a literal. Half away from zero.
//	trunc(x), trunc(x, n)   as round, toward zero, but unsigned integers stay
//	floor(x), ceil(x)       integers → f64; f32, f64 → itself;
//	                        decimal(p,s) → decimal(p,0)
//	sqrt cbrt exp ln log10  f64 (numbers are cast to f64): IEEE results, no
//	log2 log(x) log(b, x)   errors: sqrt(-1) and ln(-1) are NaN, ln(0) -Inf,
//	power(x, y)             as in DuckDB; log(x) is log10(x), log(b, x) is
//	                        log10(x) / log10(b)
//	sign(x)                 i8: -1, 0 or 1 (0 for NaN and ±0)
//	pi()                    f64
//	greatest, least         the arguments' common type; nulls are skipped (null
//	                        only when every argument is), NaN is the greatest
//	                        float, and of equal values the first wins; over
//	                        numbers, text, binary (bytewise), bools (false <
//	                        true), dates and times
//	a & b, a | b, xor(a, b) bitwise, on integers of one type
//	a << n, a >> n          shifts, on integers of one type: a negative a or n
//	                        or a shift out of range (n ≥ the width) is an error
//	                        for <<, as is a result that overflows; >> by n < 0
//	                        or n ≥ the width is 0, else arithmetic
//	~a                      bitwise not (bitwise_not(a))
//
// mod(a, b) is the % operator (Mod), and `//` is integer division, `/`.
//
// Integer round(x, n) with n < 0 rounds to a multiple of 10^-n, half away
// from zero, and raises an overflow when the result does not fit the type
// (round(127::i8, -1)); a float's round(x, n) is DuckDB's
// round(x · 10^n) / 10^n (x when that is not finite; for n < 0,
// round(x / 10^-n) · 10^-n, 0 when not finite, x for trunc), and Inf and
// NaN round to themselves. round(d, n) of a decimal
// needs n written as a literal, since the result's scale is n; a result
// beyond the precision is an overflow (DuckDB returns the value; see
// bench's knownDifferences).
//
// Their arguments are made to fit by coerce's CoerceDeclared class: each
// function says, through ArgTyper, which type each argument is cast to.
//
// round, trunc, floor, ceil, sqrt, cbrt, exp, ln, log10, log2 and sign are
// non-decreasing in their first argument (OrderIncreasing), so pruning
// carries a column's bounds through them. One edge is not: DuckDB's
// round(x, n) of a double for n ≤ -290 or so gives 0 where the rounded value
// overflows (round(1.7e308, -308) is 0), which only doubles within a few
// percent of the largest one reach.
var (
	Round Function = rounding{simple{IDRound}, RoundHalfAway} // round(x[, n])
	Trunc Function = rounding{simple{IDTrunc}, RoundTrunc}    // trunc(x[, n])
	Floor Function = rounding{simple{IDFloor}, RoundFloor}    // floor(x)
	Ceil  Function = rounding{simple{IDCeil}, RoundCeil}      // ceil(x), ceiling(x)

	Sqrt  Function = floatMath{simple{IDSqrt}, MathSqrt}   // sqrt(x)
	Cbrt  Function = floatMath{simple{IDCbrt}, MathCbrt}   // cbrt(x)
	Exp   Function = floatMath{simple{IDExp}, MathExp}     // exp(x)
	Ln    Function = floatMath{simple{IDLn}, MathLn}       // ln(x)
	Log10 Function = floatMath{simple{IDLog10}, MathLog10} // log10(x)
	Log2  Function = floatMath{simple{IDLog2}, MathLog2}   // log2(x)
	Log   Function = floatMath{simple{IDLog}, MathLog}     // log(x) = log10(x), log(b, x)
	Power Function = floatMath{simple{IDPower}, MathPower} // power(x, y), pow(x, y)

	Sign Function = signFn{simple{IDSign}} // sign(x)
	Pi   Function = piFn{simple{IDPi}}     // pi()

	Greatest Function = extreme{simple{IDGreatest}, true} // greatest(a, …)
	Least    Function = extreme{simple{IDLeast}, false}   // least(a, …)

	BitAnd     Function = bitwise{simple{IDBitAnd}, BitOpAnd}            // a & b
	BitOr      Function = bitwise{simple{IDBitOr}, BitOpOr}              // a | b
	BitXor     Function = bitwise{simple{IDBitXor}, BitOpXor}            // xor(a, b)
	ShiftLeft  Function = bitwise{simple{IDShiftLeft}, BitOpShiftLeft}   // a << n
	ShiftRight Function = bitwise{simple{IDShiftRight}, BitOpShiftRight} // a >> n
	BitNot     Function = bitNot{simple{IDBitNot}}                       // ~a
)

// The ids of the numeric functions.
const (
	IDRound      = "round"
	IDTrunc      = "trunc"
	IDFloor      = "floor"
	IDCeil       = "ceil"
	IDSqrt       = "sqrt"
	IDCbrt       = "cbrt"
	IDExp        = "exp"
	IDLn         = "ln"
	IDLog10      = "log10"
	IDLog2       = "log2"
	IDLog        = "log"
	IDPower      = "power"
	IDSign       = "sign"
	IDPi         = "pi"
	IDGreatest   = "greatest"
	IDLeast      = "least"
	IDBitAnd     = "bitwise_and"
	IDBitOr      = "bitwise_or"
	IDBitXor     = "xor"
	IDShiftLeft  = "shift_left"
	IDShiftRight = "shift_right"
	IDBitNot     = "bitwise_not"
)

// PrecBitwise is the precedence the bitwise operators & | << >> print at.
// The parser binds them, as DuckDB does, tighter than comparisons and
// looser than + and -, all four at one level, left-associative; printing
// them at the comparisons' level only adds parentheses
// ((a & b) & c), never loses any.
const PrecBitwise = PrecCompare

// ArgTyper is a function whose arguments coerce casts to the types it
// names (the CoerceDeclared class), as DuckDB's implicit casts to a
// function's signature do: sqrt(i32) becomes sqrt(CAST(x AS f64)).
type ArgTyper interface {
	Function
	// ArgTypes is the type each argument takes, given their types; the
	// null type (the zero DType) or the argument's own type leaves it as
	// it is. A null literal becomes a null of the type named.
	ArgTypes(args []dtype.DType) []dtype.DType
}

// ConstTyper is a function whose result type depends on the value of an
// argument written as a literal: the scale of round(d, n) on a decimal is
// n. The binder calls ReturnTypeConst, with the values of the literal
// arguments (nil for the others), instead of ReturnType.
type ConstTyper interface {
	Function
	// ReturnTypeConst is ReturnType given also consts[i], the value of
	// argument i when it is a literal (nil otherwise).
	ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error)
}

// RoundMode is how round, trunc, floor and ceil round.
type RoundMode uint8

// The rounding modes.
const (
	RoundHalfAway RoundMode = iota // to nearest, ties away from zero
	RoundTrunc                     // toward zero
	RoundFloor                     // toward -Inf
	RoundCeil                      // toward +Inf
)

// MathOp is one of the f64 functions.
type MathOp uint8

// The f64 functions.
const (
	MathSqrt MathOp = iota
	MathCbrt
	MathExp
	MathLn
	MathLog10
	MathLog2
	MathLog // log10(x) with one argument, ln(x)/ln(b) with two
	MathPower
	// The trigonometric and hyperbolic functions (math_trig.go).
	MathSin
	MathCos
	MathTan
	MathAsin
	MathAcos
	MathAtan
	MathAtan2 // atan2(y, x)
	MathSinh
	MathCosh
	MathTanh
	MathAsinh
	MathAcosh
	MathAtanh
	// radians, degrees and even (math_more.go).
	MathRadians
	MathDegrees
	MathEven
)

// BitOp is a bitwise operator.
type BitOp uint8

// The bitwise operators.
const (
	BitOpAnd BitOp = iota
	BitOpOr
	BitOpXor
	BitOpShiftLeft
	BitOpShiftRight
)

var (
	f64T = dtype.Primitive(dtype.F64, true)
	i64T = dtype.Primitive(dtype.I64, true)
	i32T = dtype.Primitive(dtype.I32, true)
)

func init() {
	for _, f := range []Function{Round, Trunc, Floor, Ceil, Sqrt, Cbrt, Exp, Ln, Log10, Log2, Log, Power,
		Sign, Pi, Greatest, Least, BitAnd, BitOr, BitXor, ShiftLeft, ShiftRight, BitNot} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{"ceiling": Ceil, "pow": Power} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
	increasing := func(substrait string) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing, Substrait: substrait}
	}
	declared := func(substrait string) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Substrait: substrait}
	}
	bit := func(token, substrait string) *Properties {
		return &Properties{Syntax: SyntaxInfix, Token: token, Prec: PrecBitwise, Coercion: CoerceArith, Substrait: substrait}
	}
	for id, p := range map[string]*Properties{
		IDRound: increasing(""), IDTrunc: increasing(""), IDFloor: increasing("floor"), IDCeil: increasing("ceil"),
		IDSqrt: increasing("sqrt"), IDCbrt: increasing(""), IDExp: increasing("exp"), IDLn: increasing("ln"),
		IDLog10: increasing("log10"), IDLog2: increasing("log2"), IDLog: declared(""), IDPower: declared("power"),
		IDSign:     {Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing},
		IDPi:       {Prec: PrecPostfix},
		IDGreatest: {Prec: PrecPostfix, Coercion: CoerceCombine, Substrait: "greatest_skip_null"},
		IDLeast:    {Prec: PrecPostfix, Coercion: CoerceCombine, Substrait: "least_skip_null"},
		IDBitAnd:   bit(" & ", "bitwise_and"), IDBitOr: bit(" | ", "bitwise_or"),
		IDBitXor:     {Prec: PrecPostfix, Coercion: CoerceArith, Substrait: "bitwise_xor"},
		IDShiftLeft:  bit(" << ", ""),
		IDShiftRight: bit(" >> ", ""),
		IDBitNot:     {Prec: PrecPostfix, Coercion: CoerceDeclared, Substrait: "bitwise_not"},
	} {
		builtinProperties[id] = p
	}
}

// rounding is round, trunc, floor and ceil.
type rounding struct {
	simple
	mode RoundMode
}

// Mode is how the function rounds.
func (r rounding) Mode() RoundMode { return r.mode }

func (r rounding) Arity() Arity {
	if r.mode == RoundFloor || r.mode == RoundCeil {
		return Exactly(1)
	}
	return Arity{1, 2}
}

// Fallible: integer round(x, n) with n < 0 may overflow, as may a decimal
// rounded up past its precision.
func (r rounding) Fallible() bool { return true }

// ArgTypes: floor and ceil take integers as f64; round takes u8…u32 as
// i64 (DuckDB has no unsigned round); f16 is taken as f32; the digits are
// i32 (from an integer of at most 32 bits that fits).
func (r rounding) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	x := args[0]
	switch {
	case x.IsNull():
		if r.mode == RoundFloor || r.mode == RoundCeil {
			out[0] = f64T
		} else {
			out[0] = i64T
		}
	case x.IsInt() && (r.mode == RoundFloor || r.mode == RoundCeil):
		out[0] = f64T
	case x.IsInt() && r.mode == RoundHalfAway && x.PType().IsUnsigned() && x.PType() != dtype.U64:
		out[0] = i64T
	case x.IsFloat() && x.PType() == dtype.F16:
		out[0] = dtype.Primitive(dtype.F32, true)
	}
	if len(args) == 2 {
		if n := args[1]; n.IsNull() || n.IsInt() && n.PType() != dtype.I32 && digitsFit(n.PType()) {
			out[1] = i32T
		}
	}
	return out
}

// digitsFit reports whether integers of p cast implicitly to the i32
// digits of round (DuckDB casts tinyint, smallint, utinyint and usmallint,
// not bigint or uinteger).
func digitsFit(p dtype.PType) bool {
	switch p {
	case dtype.I8, dtype.I16, dtype.U8, dtype.U16:
		return true
	}
	return false
}

func (r rounding) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return r.ReturnTypeConst(args, nil)
}

// ReturnTypeConst types the call; a decimal's digits must be a literal.
func (r rounding) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	x := args[0]
	nullable := anyNullable(args)
	if len(args) == 2 && !(args[1].IsInt() && args[1].PType() == dtype.I32) {
		return dtype.DType{}, argErr(r, 1, "has type %s, want i32 (the number of decimal places)", args[1])
	}
	switch {
	case x.IsDecimal():
		s := 0
		if len(args) == 2 {
			if len(consts) < 2 || consts[1] == nil {
				return dtype.DType{}, argErr(r, 1, "must be a literal when argument 1 is a decimal (the result's scale is its value)")
			}
			if !consts[1].IsNull() {
				s = min(max(int(consts[1].Value().(int64)), 0), x.Scale())
			} else {
				s = x.Scale()
			}
		}
		return dtype.Decimal(x.Precision(), s, nullable), nil
	case x.IsFloat():
		if x.PType() == dtype.F16 {
			return dtype.DType{}, argErr(r, 0, "has type f16, want f32 or f64 (cast it)")
		}
		return x.WithNullable(nullable), nil
	case x.IsInt():
		if r.mode == RoundFloor || r.mode == RoundCeil {
			return dtype.DType{}, argErr(r, 0, "has type %s, want f64 (cast it: %s of an integer is f64, as in DuckDB)", x, r.id)
		}
		if r.mode == RoundHalfAway && x.PType().IsUnsigned() && x.PType() != dtype.U64 {
			return dtype.DType{}, argErr(r, 0, "has type %s, want i64 (cast it: round of an unsigned integer is i64, as in DuckDB)", x)
		}
		return x.WithNullable(nullable), nil
	}
	return dtype.DType{}, argErr(r, 0, "has type %s, want a number", x)
}

// floatMath is a function over f64.
type floatMath struct {
	simple
	op MathOp
}

// Op is the function computed.
func (m floatMath) Op() MathOp { return m.op }

func (m floatMath) Arity() Arity {
	switch m.op {
	case MathPower, MathAtan2:
		return Exactly(2)
	case MathLog:
		return Arity{1, 2}
	}
	return Exactly(1)
}

// ArgTypes: every argument is f64.
func (m floatMath) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for i, a := range args {
		if a.IsNull() || a.IsNumeric() {
			out[i] = f64T
		}
	}
	return out
}

func (m floatMath) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsFloat() || a.PType() != dtype.F64 {
			return dtype.DType{}, argErr(m, i, "has type %s, want f64 (cast it)", a)
		}
	}
	return dtype.Primitive(dtype.F64, anyNullable(args)), nil
}

// signFn is sign(x).
type signFn struct{ simple }

func (s signFn) Arity() Arity { return Exactly(1) }

// ArgTypes: a null is taken as f64 (any number would do).
func (s signFn) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if args[0].IsNull() {
		out[0] = f64T
	}
	return out
}

func (s signFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsNumeric() {
		return dtype.DType{}, argErr(s, 0, "has type %s, want a number", args[0])
	}
	return dtype.Primitive(dtype.I8, args[0].Nullable()), nil
}

// piFn is pi().
type piFn struct{ simple }

func (piFn) Arity() Arity { return Exactly(0) }

func (piFn) ReturnType([]dtype.DType) (dtype.DType, error) {
	return dtype.Primitive(dtype.F64, false), nil
}

// extreme is greatest and least.
type extreme struct {
	simple
	greatest bool
}

func (e extreme) Arity() Arity { return AtLeast(1) }

// NullHandling: nulls are skipped.
func (e extreme) NullHandling() NullHandling { return NullAware }

func (e extreme) ReturnType(args []dtype.DType) (dtype.DType, error) {
	t, err := sameType(e, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	switch {
	case t.IsNull() || t.IsNumeric() || t.IsUtf8() || t.IsBinary() || t.IsBool():
	case t.IsTemporal() && IsOrdered(t):
	case IsOrdered(t):
		return dtype.DType{}, argErr(e, 0, "has type %s, which %s does not take (numbers, text, binary, bools, dates and times)", t, e.id)
	default:
		return dtype.DType{}, argErr(e, 0, "has type %s, which has no order", t)
	}
	nullable := true
	for _, a := range args {
		nullable = nullable && a.Nullable()
	}
	return t.WithNullable(nullable), nil
}

// bitwise is & | xor << >> over integers of one type.
type bitwise struct {
	simple
	op BitOp
}

// Op is the operator.
func (b bitwise) Op() BitOp { return b.op }

func (b bitwise) Arity() Arity { return Exactly(2) }

// Fallible: << fails on a negative operand, an out-of-range shift or an
// overflow.
func (b bitwise) Fallible() bool { return b.op == BitOpShiftLeft }

func (b bitwise) ReturnType(args []dtype.DType) (dtype.DType, error) {
	t, err := sameType(b, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if !t.IsInt() {
		return dtype.DType{}, argErr(b, 0, "has type %s, want an integer", t)
	}
	return t.WithNullable(anyNullable(args)), nil
}

// bitNot is ~x.
type bitNot struct{ simple }

func (b bitNot) Arity() Arity { return Exactly(1) }

// ArgTypes: a null is taken as i64.
func (b bitNot) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if args[0].IsNull() {
		out[0] = i64T
	}
	return out
}

func (b bitNot) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsInt() {
		return dtype.DType{}, argErr(b, 0, "has type %s, want an integer", args[0])
	}
	return args[0], nil
}
