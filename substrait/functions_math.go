package substrait

import (
	"github.com/substrait-io/substrait-go/v8/extensions"
	"github.com/substrait-io/substrait-go/v8/types"

	"github.com/colexpr/colexpr/fn"
)

// The numeric functions (fn/math.go) that Substrait's standard extensions
// have with colexpr's semantics: floor and ceil of floats, sqrt, exp, ln,
// log10, log2 and power of f64 (IEEE results: NaN for a domain error, -Inf
// for the logarithm of 0), greatest and least skipping nulls, and the
// bitwise and, or, xor and not. The name comes from the function's
// properties; whether the extension has a signature for the argument types
// is for substrait-go to say (floor of a decimal, for one, is typed
// differently there and is refused).
const (
	urnRounding    = extensions.SubstraitDefaultURNPrefix + "functions_rounding"
	urnLogarithmic = extensions.SubstraitDefaultURNPrefix + "functions_logarithmic"
)

func init() {
	tieEven := option("rounding", "TIE_TO_EVEN")
	nan := option("on_domain_error", "NAN")
	logOpts := []*types.FunctionOption{tieEven, nan, option("on_log_zero", "MINUS_INFINITY")}
	exports[fn.IDFloor] = plain(urnRounding)
	exports[fn.IDCeil] = plain(urnRounding)
	exports[fn.IDSqrt] = plain(urnArithmetic, tieEven, nan)
	exports[fn.IDExp] = plain(urnArithmetic, tieEven)
	exports[fn.IDPower] = plain(urnArithmetic)
	for _, id := range []string{fn.IDLn, fn.IDLog10, fn.IDLog2} {
		exports[id] = plain(urnLogarithmic, logOpts...)
	}
	exports[fn.IDGreatest] = plain(urnComparison)
	exports[fn.IDLeast] = plain(urnComparison)
	for _, id := range []string{fn.IDBitAnd, fn.IDBitOr, fn.IDBitXor, fn.IDBitNot} {
		exports[id] = plain(urnArithmetic)
	}

	for why, ids := range map[string][]string{
		"Substrait's round has no form without places, and rounds the exact value where colexpr (DuckDB) computes round(x·10^n)/10^n": {fn.IDRound, fn.IDTrunc},
		"Substrait's sign returns the argument's type; colexpr's (DuckDB's) returns i8":                                               {fn.IDSign},
		"Substrait's shifts take an i32 amount and leave overflow and out-of-range shifts unspecified; colexpr's (DuckDB's) raise":    {fn.IDShiftLeft, fn.IDShiftRight},
		"Substrait's standard extensions have no such function":                                                                       {fn.IDCbrt, fn.IDLog, fn.IDPi},
	} {
		for _, id := range ids {
			refusals[id] = why
		}
	}

	logAllowed := allow(map[string][]string{"rounding": {"TIE_TO_EVEN"}, "on_domain_error": {"NAN"}, "on_log_zero": {"MINUS_INFINITY"}})
	imports[extensions.ID{URN: urnRounding, Name: "floor"}] = importSpec{allowed: noOptions, build: call(fn.Floor)}
	imports[extensions.ID{URN: urnRounding, Name: "ceil"}] = importSpec{allowed: noOptions, build: call(fn.Ceil)}
	imports[extensions.ID{URN: urnArithmetic, Name: "sqrt"}] = importSpec{allowed: allow(map[string][]string{"rounding": {"TIE_TO_EVEN"}, "on_domain_error": {"NAN"}}), build: call(fn.Sqrt)}
	imports[extensions.ID{URN: urnArithmetic, Name: "exp"}] = importSpec{allowed: allow(map[string][]string{"rounding": {"TIE_TO_EVEN"}}), build: call(fn.Exp)}
	imports[extensions.ID{URN: urnArithmetic, Name: "power"}] = importSpec{allowed: noOptions, build: call(fn.Power)}
	for name, f := range map[string]fn.Function{"ln": fn.Ln, "log10": fn.Log10, "log2": fn.Log2} {
		imports[extensions.ID{URN: urnLogarithmic, Name: name}] = importSpec{allowed: logAllowed, build: call(f)}
	}
	imports[extensions.ID{URN: urnComparison, Name: "greatest_skip_null"}] = importSpec{allowed: noOptions, build: call(fn.Greatest)}
	imports[extensions.ID{URN: urnComparison, Name: "least_skip_null"}] = importSpec{allowed: noOptions, build: call(fn.Least)}
	for name, f := range map[string]fn.Function{"bitwise_and": fn.BitAnd, "bitwise_or": fn.BitOr, "bitwise_xor": fn.BitXor, "bitwise_not": fn.BitNot} {
		imports[extensions.ID{URN: urnArithmetic, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
}
