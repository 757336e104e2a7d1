package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/fn"
)

// TestTrig: the expected values are DuckDB's (bench/cmd/duckquery), NaN
// outside the domain included.
func TestTrig(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "sin", f: fn.Sin, args: []fkArg{col("f64", `[0, 1, null, "+Inf"]`)}, want: `[0, 0.8414709848078965, null, "NaN"]`},
		{name: "cos", f: fn.Cos, args: []fkArg{col("f64", "[0, 1]")}, want: "[1, 0.5403023058681398]"},
		// DuckDB (glibc) gives 1.5574077246549023, correctly rounded; Go's
		// math.Tan is one ulp below.
		{name: "tan", f: fn.Tan, args: []fkArg{col("f64", "[1]")}, want: "[1.557407724654902]"},
		{name: "asin out of domain", f: fn.Asin, args: []fkArg{col("f64", "[1, 2]")}, want: `[1.5707963267948966, "NaN"]`},
		{name: "acos", f: fn.Acos, args: []fkArg{col("f64", "[1, 2]")}, want: `[0, "NaN"]`},
		{name: "atan", f: fn.Atan, args: []fkArg{col("f64", "[1]")}, want: "[0.7853981633974483]"},
		{name: "atan2", f: fn.Atan2, args: []fkArg{col("f64", "[1, null, 0]"), lit("f64", "2")}, want: "[0.4636476090008061, null, 0]"},
		{name: "sinh", f: fn.Sinh, args: []fkArg{col("f64", "[1]")}, want: "[1.1752011936438014]"},
		{name: "cosh", f: fn.Cosh, args: []fkArg{col("f64", "[1]")}, want: "[1.5430806348152437]"},
		{name: "tanh", f: fn.Tanh, args: []fkArg{col("f64", "[1]")}, want: "[0.7615941559557649]"},
		{name: "asinh", f: fn.Asinh, args: []fkArg{col("f64", "[1]")}, want: "[0.881373587019543]"},
		{name: "acosh", f: fn.Acosh, args: []fkArg{col("f64", "[1, 0.5]")}, want: `[0, "NaN"]`},
		{name: "atanh", f: fn.Atanh, args: []fkArg{col("f64", "[0.5, 1, 2]")}, want: `[0.5493061443340548, "+Inf", "NaN"]`},
	})
}
