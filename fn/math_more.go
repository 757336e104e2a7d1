package fn

import "github.com/colexpr/colexpr/dtype"

// More numeric functions of DuckDB's, typed as DuckDB types them (checked
// with bench/cmd/duckquery):
//
//	isnan(x), isinf(x), isfinite(x)   bool; of f32 or f64 (integers and decimals
//	                                  are cast to f64, f16 to f32): whether x is
//	                                  NaN, ±Inf, neither
//	radians(x), degrees(x)            f64: x · (π / 180), x · (180 / π)
//	even(x)                           f64: x rounded away from zero to the next
//	                                  even integer (even(2.5) is 4, even(-0.5) -2)
//	gcd(a, b), lcm(a, b)              i64 (integers are cast to i64), or u64 when
//	                                  both are unsigned and one is u64 (DuckDB:
//	                                  HUGEINT); never negative; gcd(0, 0) and
//	                                  lcm(a, 0) are 0; a result that does not fit
//	                                  (gcd(MIN, 0) is 2^63) is an overflow, as
//	                                  in DuckDB
//	factorial(n)                      i64 of an i32 n (narrower integers are cast
//	                                  to i32; i64 and u32 are not, as in DuckDB):
//	                                  a negative n is an error, as in DuckDB, and
//	                                  so is n > 20, whose factorial does not fit
//	                                  i64 (DuckDB's HUGEINT holds up to 33!)
//	bit_count(x)                      i8: the set bits of an integer's two's
//	                                  complement at its width (bit_count(-1::i8)
//	                                  is 8)
//
// radians, degrees and even are non-decreasing (OrderIncreasing), so
// pruning carries a column's bounds through them.
//
// DuckDB's isinf and isfinite also take dates and timestamps, whose
// 'infinity' values colexpr does not have; here they want a number.
var (
	IsNaN    Function = floatTest{simple{IDIsNaN}, FloatTestNaN}       // isnan(x)
	IsInf    Function = floatTest{simple{IDIsInf}, FloatTestInf}       // isinf(x)
	IsFinite Function = floatTest{simple{IDIsFinite}, FloatTestFinite} // isfinite(x)

	Radians Function = floatMath{simple{IDRadians}, MathRadians} // radians(x)
	Degrees Function = floatMath{simple{IDDegrees}, MathDegrees} // degrees(x)
	Even    Function = floatMath{simple{IDEven}, MathEven}       // even(x)

	GCD       Function = gcdFn{simple{IDGCD}, false} // gcd(a, b)
	LCM       Function = gcdFn{simple{IDLCM}, true}  // lcm(a, b)
	Factorial Function = factorialFn{simple{IDFactorial}}
	BitCount  Function = bitCount{simple{IDBitCount}}
)

// The ids of the functions of math_more.go.
const (
	IDIsNaN     = "isnan"
	IDIsInf     = "isinf"
	IDIsFinite  = "isfinite"
	IDRadians   = "radians"
	IDDegrees   = "degrees"
	IDEven      = "even"
	IDGCD       = "gcd"
	IDLCM       = "lcm"
	IDFactorial = "factorial"
	IDBitCount  = "bit_count"
)

// FloatTest is what isnan, isinf and isfinite test.
type FloatTest uint8

// The float tests.
const (
	FloatTestNaN FloatTest = iota
	FloatTestInf
	FloatTestFinite
)

func init() {
	for _, f := range []Function{IsNaN, IsInf, IsFinite, Radians, Degrees, Even, GCD, LCM, Factorial, BitCount} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{"greatest_common_divisor": GCD, "least_common_multiple": LCM} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
	declared := func(substrait string) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Substrait: substrait}
	}
	increasing := func(substrait string) *Properties {
		p := declared(substrait)
		p.Order = OrderIncreasing
		return p
	}
	for id, p := range map[string]*Properties{
		IDIsNaN: declared("is_nan"), IDIsInf: declared("is_infinite"), IDIsFinite: declared("is_finite"),
		IDRadians: increasing("radians"), IDDegrees: increasing("degrees"), IDEven: increasing(""),
		// Substrait has no gcd or lcm, and its factorial keeps the
		// argument's type (i32 → i32), where DuckDB's widens.
		IDGCD: declared(""), IDLCM: declared(""), IDFactorial: declared(""),
		IDBitCount: declared(""),
	} {
		builtinProperties[id] = p
	}
}

// floatTest is isnan, isinf or isfinite.
type floatTest struct {
	simple
	test FloatTest
}

// Test is what the function tests.
func (f floatTest) Test() FloatTest { return f.test }

func (f floatTest) Arity() Arity { return Exactly(1) }

// ArgTypes: integers, decimals and a null are taken as f64, f16 as f32.
func (f floatTest) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	switch x := args[0]; {
	case x.IsNull() || x.IsInt() || x.IsDecimal():
		out[0] = f64T
	case x.IsFloat() && x.PType() == dtype.F16:
		out[0] = dtype.Primitive(dtype.F32, true)
	}
	return out
}

func (f floatTest) ReturnType(args []dtype.DType) (dtype.DType, error) {
	x := args[0]
	if !x.IsFloat() || x.PType() == dtype.F16 {
		return dtype.DType{}, argErr(f, 0, "has type %s, want f32 or f64", x)
	}
	return dtype.Bool(x.Nullable()), nil
}

// gcdFn is gcd or lcm.
type gcdFn struct {
	simple
	lcm bool
}

func (g gcdFn) Arity() Arity { return Exactly(2) }

// Fallible: a result beyond the type (gcd(MIN, 0), a large lcm) is an
// overflow.
func (g gcdFn) Fallible() bool { return true }

// ArgTypes: integers and nulls are taken as i64, or as u64 when one is u64
// and the other unsigned (or null).
func (g gcdFn) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	to := i64T
	for _, a := range args {
		if a.IsInt() && a.PType() == dtype.U64 {
			to = dtype.Primitive(dtype.U64, true)
		}
	}
	for i, a := range args {
		switch {
		case a.IsNull():
			out[i] = to
		case a.IsInt() && (to.PType() == dtype.I64 || a.PType().IsUnsigned()):
			out[i] = to
		}
	}
	return out
}

func (g gcdFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsInt() {
			return dtype.DType{}, argErr(g, i, "has type %s, want an integer", a)
		}
	}
	t, err := sameType(g, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	if p := t.PType(); p != dtype.I64 && p != dtype.U64 {
		return dtype.DType{}, argErr(g, 0, "has type %s, want i64 or u64 (cast it)", t)
	}
	return t.WithNullable(anyNullable(args)), nil
}

// factorialFn is factorial(n).
type factorialFn struct{ simple }

func (f factorialFn) Arity() Arity { return Exactly(1) }

// Fallible: a negative n, or one above 20.
func (f factorialFn) Fallible() bool { return true }

// ArgTypes: i8, i16, u8, u16 and a null are taken as i32, as DuckDB casts
// them to INTEGER (it does not cast BIGINT or UINTEGER).
func (f factorialFn) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if x := args[0]; x.IsNull() || x.IsInt() && digitsFit(x.PType()) {
		out[0] = i32T
	}
	return out
}

func (f factorialFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if x := args[0]; !x.IsInt() || x.PType() != dtype.I32 {
		return dtype.DType{}, argErr(f, 0, "has type %s, want i32 (cast it: DuckDB's factorial takes INTEGER)", x)
	}
	return dtype.Primitive(dtype.I64, args[0].Nullable()), nil
}

// bitCount is bit_count(x).
type bitCount struct{ simple }

func (b bitCount) Arity() Arity { return Exactly(1) }

// ArgTypes: a null is taken as i64.
func (b bitCount) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if args[0].IsNull() {
		out[0] = i64T
	}
	return out
}

func (b bitCount) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsInt() {
		return dtype.DType{}, argErr(b, 0, "has type %s, want an integer", args[0])
	}
	return dtype.Primitive(dtype.I8, args[0].Nullable()), nil
}
