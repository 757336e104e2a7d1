package fn_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
)

// TestMathMore: the expected values and errors are DuckDB's
// (bench/cmd/duckquery).
func TestMathMore(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "isnan", f: fn.IsNaN, args: []fkArg{col("f64", `[1, "NaN", "+Inf", null]`)}, want: "[false, true, false, null]"},
		{name: "isinf f32", f: fn.IsInf, args: []fkArg{col("f32", `[1, "NaN", "-Inf", null]`)}, want: "[false, false, true, null]"},
		{name: "isfinite", f: fn.IsFinite, args: []fkArg{col("f64", `[1, "NaN", "+Inf", -0]`)}, want: "[true, false, false, true]"},
		{name: "radians", f: fn.Radians, args: []fkArg{col("f64", `[180, 1, null, 1e308]`)}, want: "[3.141592653589793, 0.017453292519943295, null, 1.7453292519943295e+306]"},
		{name: "degrees", f: fn.Degrees, args: []fkArg{col("f64", `[3.141592653589793, 1, 1e307]`)}, want: `[180, 57.29577951308232, "+Inf"]`},
		{name: "even", f: fn.Even, args: []fkArg{col("f64", `[2.5, -2.5, 3, 4, -0.5, 0, null]`)}, want: "[4, -4, 4, 4, -2, 0, null]"},
		{name: "gcd", f: fn.GCD, args: []fkArg{col("i64", "[4, -4, 0, -9223372036854775808, null]"), col("i64", "[6, -6, 0, 2, 3]")}, want: "[2, 2, 0, 2, null]"},
		{name: "gcd of min and 0", f: fn.GCD, args: []fkArg{col("i64", "[1, -9223372036854775808]"), lit("i64", "0")}, err: errs.ErrOverflow, row: 1},
		{name: "gcd u64", f: fn.GCD, args: []fkArg{col("u64", "[18446744073709551615]"), lit("u64", "5")}, want: "[5]"},
		{name: "lcm", f: fn.LCM, args: []fkArg{col("i64", "[4, -4, 0, null]"), col("i64", "[6, -6, 5, 1]")}, want: "[12, 12, 0, null]"},
		{name: "lcm out of range", f: fn.LCM, args: []fkArg{col("i64", "[3037000500]"), lit("i64", "3037000501")}, err: errs.ErrOverflow, row: 0},
		{name: "factorial", f: fn.Factorial, args: []fkArg{col("i32", "[0, 5, 20, null]")}, want: "[1, 120, 2432902008176640000, null]"},
		{name: "factorial negative", f: fn.Factorial, args: []fkArg{col("i32", "[2, -1]")}, err: errs.ErrInvalidArgument, row: 1},
		{name: "factorial 21", f: fn.Factorial, args: []fkArg{col("i32", "[21]")}, err: errs.ErrOverflow, row: 0},
		{name: "bit_count", f: fn.BitCount, args: []fkArg{col("i32", "[7, -1, null]")}, want: "[3, 32, null]"},
		{name: "bit_count i8", f: fn.BitCount, args: []fkArg{col("i8", "[-1, -128]")}, want: "[8, 1]"},
	})
}

// TestMathMoreTypes: the argument types coerce casts to (ArgTypes) and the
// result types, as DuckDB types them, and the arguments refused.
func TestMathMoreTypes(t *testing.T) {
	ty := func(s string) dtype.DType {
		d, err := dtype.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		f        fn.Function
		args     []string
		cast     []string // "" leaves the argument as it is
		ret, err string
	}{
		{f: fn.IsNaN, args: []string{"i32"}, cast: []string{"f64?"}},
		{f: fn.IsNaN, args: []string{"f16"}, cast: []string{"f32?"}},
		{f: fn.IsNaN, args: []string{"f32?"}, ret: "bool?"},
		{f: fn.IsInf, args: []string{"utf8"}, err: "isinf: argument 1: has type utf8, want f32 or f64"},
		{f: fn.IsFinite, args: []string{"date"}, err: "want f32 or f64"},
		{f: fn.GCD, args: []string{"u8", "i8"}, cast: []string{"i64?", "i64?"}},
		{f: fn.GCD, args: []string{"u64", "u8"}, cast: []string{"u64?", "u64?"}},
		{f: fn.GCD, args: []string{"u64", "i8"}, cast: []string{"u64?", ""}},
		{f: fn.GCD, args: []string{"u64", "i8"}, err: "gcd: argument 2: has type i8, want u64"},
		{f: fn.LCM, args: []string{"i64", "i64?"}, ret: "i64?"},
		{f: fn.LCM, args: []string{"decimal(9,2)", "i64"}, err: "lcm: argument 1: has type decimal(9,2), want an integer"},
		{f: fn.Factorial, args: []string{"u16"}, cast: []string{"i32?"}},
		{f: fn.Factorial, args: []string{"i64"}, cast: []string{""}},
		{f: fn.Factorial, args: []string{"i64"}, err: "factorial: argument 1: has type i64, want i32"},
		{f: fn.Factorial, args: []string{"i32"}, ret: "i64"},
		{f: fn.BitCount, args: []string{"u32?"}, ret: "i8?"},
		{f: fn.BitCount, args: []string{"f64"}, err: "bit_count: argument 1: has type f64, want an integer"},
		{f: fn.Even, args: []string{"i32"}, cast: []string{"f64?"}},
	} {
		args := make([]dtype.DType, len(c.args))
		for i, a := range c.args {
			args[i] = ty(a)
		}
		switch {
		case c.cast != nil:
			got := c.f.(fn.ArgTyper).ArgTypes(args)
			for i, want := range c.cast {
				if (want == "") != got[i].IsNull() || want != "" && !got[i].Equal(ty(want)) {
					t.Errorf("%s%v: argument %d is cast to %s, want %q", c.f.ID(), c.args, i+1, got[i], want)
				}
			}
		case c.err != "":
			if _, err := c.f.ReturnType(args); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s%v: error %v, want %q", c.f.ID(), c.args, err, c.err)
			}
		default:
			if got, err := c.f.ReturnType(args); err != nil || !got.Equal(ty(c.ret)) {
				t.Errorf("%s%v = %s, %v; want %s", c.f.ID(), c.args, got, err, c.ret)
			}
		}
	}
}
