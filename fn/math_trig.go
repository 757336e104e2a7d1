package fn

// The trigonometric and hyperbolic functions, over f64 as DuckDB's (numbers
// are cast to f64; IEEE results, no errors: asin(2) and acosh(0.5) are NaN,
// atanh(1) is +Inf):
//
//	sin cos tan             of an angle in radians
//	asin acos atan          the angle, in radians
//	atan2(y, x)             the angle of the point (x, y), in (-π, π]
//	sinh cosh tanh          hyperbolic
//	asinh acosh atanh       inverse hyperbolic
//
// They are Go's math package's, which may differ from DuckDB's C library in
// the last bit (tan(1) is one ulp below glibc's). Substrait's
// functions_arithmetic has each under the same name.
var (
	Sin   Function = floatMath{simple{IDSin}, MathSin}     // sin(x)
	Cos   Function = floatMath{simple{IDCos}, MathCos}     // cos(x)
	Tan   Function = floatMath{simple{IDTan}, MathTan}     // tan(x)
	Asin  Function = floatMath{simple{IDAsin}, MathAsin}   // asin(x)
	Acos  Function = floatMath{simple{IDAcos}, MathAcos}   // acos(x)
	Atan  Function = floatMath{simple{IDAtan}, MathAtan}   // atan(x)
	Atan2 Function = floatMath{simple{IDAtan2}, MathAtan2} // atan2(y, x)
	Sinh  Function = floatMath{simple{IDSinh}, MathSinh}   // sinh(x)
	Cosh  Function = floatMath{simple{IDCosh}, MathCosh}   // cosh(x)
	Tanh  Function = floatMath{simple{IDTanh}, MathTanh}   // tanh(x)
	Asinh Function = floatMath{simple{IDAsinh}, MathAsinh} // asinh(x)
	Acosh Function = floatMath{simple{IDAcosh}, MathAcosh} // acosh(x)
	Atanh Function = floatMath{simple{IDAtanh}, MathAtanh} // atanh(x)
)

// The ids of the trigonometric and hyperbolic functions.
const (
	IDSin   = "sin"
	IDCos   = "cos"
	IDTan   = "tan"
	IDAsin  = "asin"
	IDAcos  = "acos"
	IDAtan  = "atan"
	IDAtan2 = "atan2"
	IDSinh  = "sinh"
	IDCosh  = "cosh"
	IDTanh  = "tanh"
	IDAsinh = "asinh"
	IDAcosh = "acosh"
	IDAtanh = "atanh"
)

func init() {
	for _, f := range []Function{Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh} {
		mustRegister(f)
		// Only asin, atan, sinh, tanh, asinh, atanh (and acosh on its
		// domain) are monotonic; pruning gains little from them, so none
		// declares an order.
		builtinProperties[f.ID()] = &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Substrait: f.ID()}
	}
}
