package substrait

import (
	"fmt"
	"math"

	"github.com/substrait-io/substrait-go/v8/extensions"
	"github.com/substrait-io/substrait-go/v8/types"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
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
	for _, id := range []string{fn.IDSin, fn.IDCos, fn.IDTan, fn.IDAtan, fn.IDSinh, fn.IDCosh, fn.IDTanh, fn.IDAsinh} {
		exports[id] = plain(urnArithmetic, tieEven)
	}
	for _, id := range []string{fn.IDAsin, fn.IDAcos, fn.IDAtan2, fn.IDAcosh, fn.IDAtanh} {
		exports[id] = plain(urnArithmetic, tieEven, nan)
	}
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

	imports[extensions.ID{URN: urnRounding, Name: "floor"}] = importSpec{allowed: noOptions, build: call(fn.Floor)}
	imports[extensions.ID{URN: urnRounding, Name: "ceil"}] = importSpec{allowed: noOptions, build: call(fn.Ceil)}
	for name, f := range map[string]fn.Function{"sqrt": fn.Sqrt, "exp": fn.Exp, "power": fn.Power,
		"sin": fn.Sin, "cos": fn.Cos, "tan": fn.Tan, "asin": fn.Asin, "acos": fn.Acos, "atan": fn.Atan, "atan2": fn.Atan2,
		"sinh": fn.Sinh, "cosh": fn.Cosh, "tanh": fn.Tanh, "asinh": fn.Asinh, "acosh": fn.Acosh, "atanh": fn.Atanh} {
		imports[extensions.ID{URN: urnArithmetic, Name: name}] = floatImport(f, -1)
	}
	for name, f := range map[string]fn.Function{"ln": fn.Ln, "log10": fn.Log10, "log2": fn.Log2} {
		imports[extensions.ID{URN: urnLogarithmic, Name: name}] = floatImport(f, 0)
	}
	imports[extensions.ID{URN: urnLogarithmic, Name: "logb"}] = floatImport(fn.Log, 1)
	imports[extensions.ID{URN: urnDecimal, Name: "sqrt"}] = floatImportWith(fn.Sqrt, -1, "ERROR")
	imports[extensions.ID{URN: urnDecimal, Name: "power"}] = floatImport(fn.Power, -1)
	imports[extensions.ID{URN: urnComparison, Name: "greatest_skip_null"}] = importSpec{allowed: noOptions, build: call(fn.Greatest)}
	imports[extensions.ID{URN: urnComparison, Name: "least_skip_null"}] = importSpec{allowed: noOptions, build: call(fn.Least)}
	for name, f := range map[string]fn.Function{"bitwise_and": fn.BitAnd, "bitwise_or": fn.BitOr, "bitwise_xor": fn.BitXor, "bitwise_not": fn.BitNot} {
		imports[extensions.ID{URN: urnArithmetic, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
}

// inF64 reads a Substrait call of one of colexpr's f64 functions whose
// arguments Substrait also allows as i64 (the result is fp64) or fp32 (the
// result is fp32): the arguments are cast to f64 (an f32 exactly, an
// integer to the nearest f64, exactly below 2^53), and an fp32 call's
// result is the f64 result rounded to f32. Substrait's power of integers is an integer, which
// colexpr does not compute, and is refused.
func inF64(f fn.Function) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		f32 := len(args) > 0
		cast := make([]*expr.Bound, len(args))
		for i, a := range args {
			t := a.DType()
			switch {
			case t.IsFloat() && t.PType() == dtype.F64:
				cast[i], f32 = a, false
				continue
			case t.IsFloat() && t.PType() == dtype.F32:
			case t.IsInt() && f.ID() != fn.IDPower, t.IsDecimal():
				f32 = false
			default:
				return nil, fmt.Errorf("%s: argument %d has type %s, want f64, f32, a decimal or (but for power) an integer", f.ID(), i+1, t)
			}
			c, err := expr.NewCall(fn.Cast(dtype.Primitive(dtype.F64, t.Nullable())), a)
			if err != nil {
				return nil, err
			}
			cast[i] = c
		}
		out, err := expr.NewCall(f, cast...)
		if err != nil || !f32 {
			return out, err
		}
		return expr.NewCall(fn.Cast(dtype.Primitive(dtype.F32, out.DType().Nullable())), out)
	}
}

// floatImport reads a Substrait call of one of colexpr's f64 functions
// (inF64 adapts the argument types), with the options colexpr computes:
//
//	rounding TIE_TO_EVEN             IEEE results, as colexpr's are
//	on_domain_error NAN              colexpr's: NaN outside the domain
//	on_domain_error NONE             CASE WHEN <domain error> THEN null ELSE r END
//	on_domain_error ERROR            CASE WHEN <domain error> THEN CAST(error(…) AS T) ELSE r END
//	complex_number_result NAN/ERROR  the same, for power
//	on_log_zero MINUS_INFINITY       colexpr's: the logarithm of 0 is -Inf
//	on_log_zero NAN                  CASE WHEN x = 0 THEN NaN ELSE r END
//	on_log_zero ERROR                CASE WHEN x = 0 THEN CAST(error(…) AS T) ELSE r END
//	overflow SILENT                  power's: an f64 overflow is ±Inf
//
// where r is the call, <domain error> is r != r with no argument NaN, and
// x the argument whose logarithm is taken (index zero; -1 for the
// functions that take none). domainError says what a call without the
// option does: the decimal sqrt's YAML raises one.
func floatImport(f fn.Function, zero int) importSpec {
	return floatImportWith(f, zero, "NAN")
}

func floatImportWith(f fn.Function, zero int, domainError string) importSpec {
	opts := map[string][]string{"rounding": {"TIE_TO_EVEN"}, "on_domain_error": {"NAN", "NONE", "ERROR"}}
	if zero >= 0 {
		opts["on_log_zero"] = []string{"MINUS_INFINITY", "NAN", "ERROR"}
	}
	if f.ID() == fn.IDPower {
		opts["complex_number_result"] = []string{"NAN", "ERROR"}
		opts["overflow"] = []string{"SILENT"}
	}
	build := inF64(f)
	return importSpec{allowed: allow(opts), build: func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
		r, err := build(args, chosen)
		if err != nil {
			return nil, err
		}
		if zero >= 0 && zero < len(args) {
			x := args[zero]
			isZero, err := expr.NewCall(fn.Eq, x, zeroOf(x.DType()))
			if err != nil {
				return nil, err
			}
			switch chosen["on_log_zero"] {
			case "NAN":
				r, err = expr.NewCall(fn.CaseWhen(true), isZero, floatLiteral(r.DType(), math.NaN()), r)
			case "ERROR":
				r, err = raiseWhen(isZero, f.ID()+": the logarithm of 0", r)
			}
			if err != nil {
				return nil, err
			}
		}
		onDomain := domainError
		if v, ok := chosen["on_domain_error"]; ok {
			onDomain = v
		}
		if v, ok := chosen["complex_number_result"]; ok {
			onDomain = v
		}
		if onDomain == "NAN" {
			return r, nil
		}
		cond, err := expr.NewCall(fn.NotEq, r, r)
		for _, a := range args {
			if err != nil || !a.DType().IsFloat() {
				continue
			}
			var self *expr.Bound
			if self, err = expr.NewCall(fn.Eq, a, a); err == nil {
				cond, err = expr.NewCall(fn.And, cond, self)
			}
		}
		if err != nil {
			return nil, err
		}
		if onDomain == "ERROR" {
			return raiseWhen(cond, f.ID()+": an argument outside the domain", r)
		}
		return expr.NewCall(fn.CaseWhen(true), cond, expr.NewLiteral(scalar.Null(r.DType().WithNullable(true))), r)
	}}
}

// zeroOf is 0 as a literal of the numeric type t.
func zeroOf(t dtype.DType) *expr.Bound {
	if t.IsFloat() {
		return floatLiteral(t, 0)
	}
	return expr.NewLiteral(scalar.Int(t.PType(), 0))
}
