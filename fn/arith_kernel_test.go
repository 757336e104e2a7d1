package fn_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func TestArithInt(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "add i32", f: fn.Add, args: []fkArg{col("i32", "[1, null, 3, -4]"), col("i32", "[10, 20, null, 4]")}, want: "[11, null, null, 0]"},
		{name: "add i32 scalar", f: fn.Add, args: []fkArg{col("i32", "[1, null, 3]"), lit("i32", "100")}, want: "[101, null, 103]"},
		{name: "add scalar i32", f: fn.Add, args: []fkArg{lit("i32", "100"), col("i32", "[1, null, 3]")}, want: "[101, null, 103]"},
		{name: "add scalars", f: fn.Add, args: []fkArg{lit("i16", "100"), lit("i16", "-7")}, want: "[93, 93]"},
		{name: "add null scalar", f: fn.Add, args: []fkArg{col("i32", "[1, 2]"), lit("i32", "null")}, want: "[null, null]"},
		{name: "add empty", f: fn.Add, args: []fkArg{col("i64", "[]"), col("i64", "[]")}, want: "[]"},
		{name: "add i8 max", f: fn.Add, args: []fkArg{col("i8", "[126, -128, 0]"), col("i8", "[1, 0, 127]")}, want: "[127, -128, 127]"},
		{name: "add i8 overflow", f: fn.Add, args: []fkArg{col("i8", "[1, 127, 127]"), col("i8", "[1, null, 1]")}, err: errs.ErrOverflow, row: 2},
		{name: "add i8 underflow", f: fn.Add, args: []fkArg{col("i8", "[-128]"), lit("i8", "-1")}, err: errs.ErrOverflow, row: 0},
		{name: "add i32 overflow", f: fn.Add, args: []fkArg{col("i32", "[0, 2147483647]"), lit("i32", "1")}, err: errs.ErrOverflow, row: 1},
		{name: "add i64 overflow", f: fn.Add, args: []fkArg{col("i64", "[9223372036854775807, 0]"), col("i64", "[1, 0]")}, err: errs.ErrOverflow, row: 0},
		{name: "add i64 negative overflow", f: fn.Add, args: []fkArg{col("i64", "[0, -9223372036854775808]"), col("i64", "[0, -1]")}, err: errs.ErrOverflow, row: 1},
		{name: "add i64 extremes", f: fn.Add, args: []fkArg{col("i64", "[9223372036854775807, -9223372036854775808]"), col("i64", "[-9223372036854775808, 9223372036854775807]")}, want: "[-1, -1]"},
		{name: "add u8 overflow", f: fn.Add, args: []fkArg{col("u8", "[255, 200]"), col("u8", "[0, 56]")}, err: errs.ErrOverflow, row: 1},
		{name: "add u32", f: fn.Add, args: []fkArg{col("u32", "[4294967294, null]"), lit("u32", "1")}, want: "[4294967295, null]"},
		{name: "add u32 overflow", f: fn.Add, args: []fkArg{col("u32", "[4294967295]"), lit("u32", "1")}, err: errs.ErrOverflow, row: 0},
		{name: "add u64 overflow", f: fn.Add, args: []fkArg{lit("u64", "1"), col("u64", "[1, 18446744073709551615]")}, err: errs.ErrOverflow, row: 1},
		{name: "add scalars overflow", f: fn.Add, args: []fkArg{lit("i32", "2147483647"), lit("i32", "1")}, err: errs.ErrOverflow, row: 0},
		{name: "add overflow only under null", f: fn.Add, args: []fkArg{col("i32", "[2147483647, 1]"), col("i32", "[null, 1]")}, want: "[null, 2]"},
		{name: "add u64 overflow only under null", f: fn.Add, args: []fkArg{col("u64", "[null, 18446744073709551615]"), col("u64", "[18446744073709551615, null]")}, want: "[null, null]"},

		{name: "sub i16", f: fn.Sub, args: []fkArg{col("i16", "[5, null, -32768]"), col("i16", "[7, 1, -1]")}, want: "[-2, null, -32767]"},
		{name: "sub scalar minus column", f: fn.Sub, args: []fkArg{lit("i32", "10"), col("i32", "[1, 20]")}, want: "[9, -10]"},
		{name: "sub i16 overflow", f: fn.Sub, args: []fkArg{col("i16", "[0, -32768]"), col("i16", "[0, 1]")}, err: errs.ErrOverflow, row: 1},
		{name: "sub i64 overflow", f: fn.Sub, args: []fkArg{lit("i64", "0"), col("i64", "[1, -9223372036854775808]")}, err: errs.ErrOverflow, row: 1},
		{name: "sub i64 column minus scalar", f: fn.Sub, args: []fkArg{col("i64", "[-9223372036854775807, 5]"), lit("i64", "1")}, want: "[-9223372036854775808, 4]"},
		{name: "sub i64 column minus scalar overflow", f: fn.Sub, args: []fkArg{col("i64", "[-9223372036854775808]"), lit("i64", "1")}, err: errs.ErrOverflow, row: 0},
		{name: "sub u16 below zero", f: fn.Sub, args: []fkArg{col("u16", "[3, 2]"), col("u16", "[3, 3]")}, err: errs.ErrOverflow, row: 1},
		{name: "sub u64", f: fn.Sub, args: []fkArg{col("u64", "[18446744073709551615, 3]"), col("u64", "[1, 3]")}, want: "[18446744073709551614, 0]"},
		{name: "sub u64 below zero", f: fn.Sub, args: []fkArg{lit("u64", "5"), col("u64", "[5, 6]")}, err: errs.ErrOverflow, row: 1},

		{name: "mul i32", f: fn.Mul, args: []fkArg{col("i32", "[3, null, -46341, 46340]"), col("i32", "[-4, 2, 46340, 46340]")}, want: "[-12, null, -2147441940, 2147395600]"},
		{name: "mul i32 overflow", f: fn.Mul, args: []fkArg{col("i32", "[46341]"), lit("i32", "46341")}, err: errs.ErrOverflow, row: 0},
		{name: "mul i64", f: fn.Mul, args: []fkArg{col("i64", "[-1, 4611686018427387904, 3037000499]"), col("i64", "[-9223372036854775807, -2, 3037000499]")}, want: "[9223372036854775807, -9223372036854775808, 9223372030926249001]"},
		{name: "mul i64 min times -1", f: fn.Mul, args: []fkArg{col("i64", "[2, -9223372036854775808]"), lit("i64", "-1")}, err: errs.ErrOverflow, row: 1},
		{name: "mul i64 overflow", f: fn.Mul, args: []fkArg{col("i64", "[4611686018427387904]"), col("i64", "[2]")}, err: errs.ErrOverflow, row: 0},
		{name: "mul i64 large negative overflow", f: fn.Mul, args: []fkArg{col("i64", "[3037000500, 1]"), col("i64", "[-3037000500, 1]")}, err: errs.ErrOverflow, row: 0},
		{name: "mul u64 overflow", f: fn.Mul, args: []fkArg{col("u64", "[4294967296]"), col("u64", "[4294967296]")}, err: errs.ErrOverflow, row: 0},
		{name: "mul u64", f: fn.Mul, args: []fkArg{col("u64", "[4294967295, 0]"), col("u64", "[4294967297, 18446744073709551615]")}, want: "[18446744073709551615, 0]"},
		{name: "mul u8 overflow", f: fn.Mul, args: []fkArg{col("u8", "[16, 16]"), col("u8", "[15, 16]")}, err: errs.ErrOverflow, row: 1},
		{name: "mul scalars i8", f: fn.Mul, args: []fkArg{lit("i8", "-128"), lit("i8", "-1")}, err: errs.ErrOverflow, row: 0},

		{name: "div truncates toward zero", f: fn.Div, args: []fkArg{col("i32", "[7, -7, 7, -7, null]"), col("i32", "[2, 2, -2, -2, 0]")}, want: "[3, -3, -3, 3, null]"},
		{name: "div by zero", f: fn.Div, args: []fkArg{col("i32", "[1, 2]"), col("i32", "[1, 0]")}, err: errs.ErrDivideByZero, row: 1},
		{name: "div by zero scalar", f: fn.Div, args: []fkArg{col("i64", "[null, 2]"), lit("i64", "0")}, err: errs.ErrDivideByZero, row: 1},
		{name: "div by zero scalar all null", f: fn.Div, args: []fkArg{col("i64", "[null, null]"), lit("i64", "0")}, want: "[null, null]"},
		{name: "div by zero under null", f: fn.Div, args: []fkArg{col("i16", "[5, null]"), col("i16", "[null, 0]")}, want: "[null, null]"},
		{name: "div min by -1", f: fn.Div, args: []fkArg{col("i32", "[-2147483647, -2147483648]"), lit("i32", "-1")}, err: errs.ErrOverflow, row: 1},
		{name: "div min by -1 column", f: fn.Div, args: []fkArg{col("i8", "[-128, -128]"), col("i8", "[1, -1]")}, err: errs.ErrOverflow, row: 1},
		{name: "div by -1", f: fn.Div, args: []fkArg{col("i32", "[-2147483647, 5]"), lit("i32", "-1")}, want: "[2147483647, -5]"},
		{name: "div u64", f: fn.Div, args: []fkArg{col("u64", "[18446744073709551615, 10]"), col("u64", "[2, 3]")}, want: "[9223372036854775807, 3]"},
		{name: "div scalar by column", f: fn.Div, args: []fkArg{lit("i32", "100"), col("i32", "[3, -7, null]")}, want: "[33, -14, null]"},
		{name: "div scalars by zero", f: fn.Div, args: []fkArg{lit("u8", "1"), lit("u8", "0")}, err: errs.ErrDivideByZero, row: 0},

		{name: "mod takes the dividend's sign", f: fn.Mod, args: []fkArg{col("i32", "[7, -7, 7, -7]"), col("i32", "[3, 3, -3, -3]")}, want: "[1, -1, 1, -1]"},
		{name: "mod by zero", f: fn.Mod, args: []fkArg{col("i8", "[1, 2]"), lit("i8", "0")}, err: errs.ErrDivideByZero, row: 0},
		{name: "mod min by -1", f: fn.Mod, args: []fkArg{col("i64", "[5, -9223372036854775808]"), col("i64", "[-1, -1]")}, err: errs.ErrOverflow, row: 1},
		{name: "mod by -1", f: fn.Mod, args: []fkArg{col("i64", "[5, -9223372036854775807]"), lit("i64", "-1")}, want: "[0, 0]"},
		{name: "mod u16", f: fn.Mod, args: []fkArg{col("u16", "[65535, null]"), lit("u16", "10")}, want: "[5, null]"},
	})
}

func TestArithFloat(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "add f64", f: fn.Add, args: []fkArg{col("f64", `[1.5, null, "Inf", "NaN"]`), col("f64", `[2.25, 1, "-Inf", 1]`)}, want: `[3.75, null, "NaN", "NaN"]`},
		{name: "add f64 overflow to inf", f: fn.Add, args: []fkArg{col("f64", "[1.7976931348623157e308]"), lit("f64", "1.7976931348623157e308")}, want: `["+Inf"]`},
		{name: "sub f32 negative zero", f: fn.Sub, args: []fkArg{col("f32", "[-0.0, 0.0]"), col("f32", "[0.0, 0.0]")}, want: "[-0, 0]"},
		{name: "mul f32", f: fn.Mul, args: []fkArg{lit("f32", "0.5"), col("f32", "[3, null, -1e-45]")}, want: "[1.5, null, -0]"},
		{name: "div f64 by zero", f: fn.Div, args: []fkArg{col("f64", "[1, -1, 0]"), lit("f64", "0")}, want: `["+Inf", "-Inf", "NaN"]`},
		{name: "div f64 scalar by column", f: fn.Div, args: []fkArg{lit("f64", "1"), col("f64", "[4, -0.0]")}, want: `[0.25, "-Inf"]`},
		{name: "mod f64", f: fn.Mod, args: []fkArg{col("f64", "[7.5, -7.5, 1, 5]"), col("f64", `[2, 2, 0, "Inf"]`)}, want: `[1.5, -1.5, "NaN", 5]`},
		{name: "mod f32 scalars", f: fn.Mod, args: []fkArg{lit("f32", "-7"), lit("f32", "3")}, want: "[-1, -1]"},
		{name: "add f16", f: fn.Add, args: []fkArg{col("f16", "[1.5, null, 65504, 0.000061035156]"), col("f16", "[0.25, 1, 65504, 0.000061035156]")}, want: `[1.75, null, "+Inf", 0.00012207031]`},
		{name: "mul f16 rounds to nearest even", f: fn.Mul, args: []fkArg{col("f16", "[2049, 1]"), lit("f16", "1")}, want: "[2048, 1]"},
		{name: "div f16 subnormal", f: fn.Div, args: []fkArg{col("f16", "[1]"), lit("f16", "16384")}, want: "[0.000061035156]"},
		{name: "sub f16 scalars", f: fn.Sub, args: []fkArg{lit("f16", "1"), lit("f16", "0.5")}, want: "[0.5, 0.5]"},
	})
}

func TestArithDecimal(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "add rescales", f: fn.Add, args: []fkArg{col("decimal(5,2)", `["1.25", null, "-999.99"]`), col("decimal(4,1)", `["10.5", "1.0", "-999.9"]`)}, want: `["11.75", null, "-1999.89"]`},
		{name: "add scalar", f: fn.Add, args: []fkArg{col("decimal(3,1)", `["1.5", "99.9"]`), lit("decimal(3,1)", `"0.1"`)}, want: `["1.6", "100"]`},
		{name: "add overflow at 38 digits", f: fn.Add, args: []fkArg{col("decimal(38,0)", `["1", "99999999999999999999999999999999999999"]`), lit("decimal(38,0)", `"1"`)}, err: errs.ErrOverflow, row: 1},
		{name: "add rescale overflow", f: fn.Add, args: []fkArg{col("decimal(38,0)", `["99999999999999999999999999999999999999"]`), lit("decimal(38,2)", `"1"`)}, err: errs.ErrOverflow, row: 0},
		{name: "sub", f: fn.Sub, args: []fkArg{col("decimal(5,2)", `["1.25", "-3"]`), col("decimal(5,2)", `["1.26", "-3"]`)}, want: `["-0.01", "0"]`},
		{name: "mul adds scales", f: fn.Mul, args: []fkArg{col("decimal(4,2)", `["1.25", null, "-99.99"]`), col("decimal(3,1)", `["-2.0", "1.0", "99.9"]`)}, want: `["-2.5", null, "-9989.001"]`},
		{name: "mul overflow", f: fn.Mul, args: []fkArg{col("decimal(20,0)", `["10000000000000000000"]`), col("decimal(20,0)", `["10000000000000000000"]`)}, err: errs.ErrOverflow, row: 0},
		{name: "mod", f: fn.Mod, args: []fkArg{col("decimal(5,2)", `["7.50", "-7.50", "1"]`), col("decimal(3,1)", `["2.0", "2.0", "0.3"]`)}, want: `["1.5", "-1.5", "0.1"]`},
		{name: "mod by zero", f: fn.Mod, args: []fkArg{col("decimal(5,2)", `["7.50", "1"]`), col("decimal(3,1)", `["2.0", "0"]`)}, err: errs.ErrDivideByZero, row: 1},
		{name: "div gives f64", f: fn.Div, args: []fkArg{col("decimal(5,2)", `["7.50", null, "-1"]`), col("decimal(3,1)", `["2.5", "1", "0.4"]`)}, want: `[3, null, -2.5]`},
		{name: "div by zero", f: fn.Div, args: []fkArg{col("decimal(5,2)", `["7.50", "1"]`), lit("decimal(3,1)", `"0"`)}, err: errs.ErrDivideByZero, row: 0},
		{name: "div by zero under null", f: fn.Div, args: []fkArg{col("decimal(5,2)", `[null, "1"]`), col("decimal(3,1)", `["0", "1"]`)}, want: `[null, 1]`},
		{name: "add scalars", f: fn.Add, args: []fkArg{lit("decimal(5,2)", `"1.01"`), lit("decimal(5,2)", `"2.02"`)}, want: `["3.03", "3.03"]`},
	})
}

func TestArithUnary(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "neg i32", f: fn.Neg, args: []fkArg{col("i32", "[1, null, -2147483647, 0]")}, want: "[-1, null, 2147483647, 0]"},
		{name: "neg i32 min", f: fn.Neg, args: []fkArg{col("i32", "[1, -2147483648]")}, err: errs.ErrOverflow, row: 1},
		{name: "neg i64 min under null", f: fn.Neg, args: []fkArg{col("i64", "[null, 5]")}, want: "[null, -5]"},
		{name: "neg i8 scalar min", f: fn.Neg, args: []fkArg{lit("i8", "-128")}, err: errs.ErrOverflow, row: 0},
		{name: "neg scalar", f: fn.Neg, args: []fkArg{lit("i16", "7")}, want: "[-7, -7]"},
		{name: "abs i16", f: fn.Abs, args: []fkArg{col("i16", "[-5, null, 32767, -32767]")}, want: "[5, null, 32767, 32767]"},
		{name: "abs i16 min", f: fn.Abs, args: []fkArg{col("i16", "[-5, -32768]")}, err: errs.ErrOverflow, row: 1},
		{name: "abs u64", f: fn.Abs, args: []fkArg{col("u64", "[18446744073709551615, null]")}, want: "[18446744073709551615, null]"},
		{name: "neg f64", f: fn.Neg, args: []fkArg{col("f64", `[0, -0.0, "NaN", "-Inf", null]`)}, want: `[-0, 0, "NaN", "+Inf", null]`},
		{name: "abs f32", f: fn.Abs, args: []fkArg{col("f32", `[-0.0, -1.5, "-Inf"]`)}, want: `[0, 1.5, "+Inf"]`},
		{name: "neg f16", f: fn.Neg, args: []fkArg{col("f16", "[1.5, null, -65504]")}, want: "[-1.5, null, 65504]"},
		{name: "abs f16 scalar", f: fn.Abs, args: []fkArg{lit("f16", "-2.5")}, want: "[2.5, 2.5]"},
		{name: "neg decimal", f: fn.Neg, args: []fkArg{col("decimal(38,2)", `["-999999999999999999999999999999999999.99", null, "0.01"]`)}, want: `["999999999999999999999999999999999999.99", null, "-0.01"]`},
		{name: "abs decimal scalar", f: fn.Abs, args: []fkArg{lit("decimal(4,1)", `"-12.5"`)}, want: `["12.5", "12.5"]`},
		{name: "neg empty", f: fn.Neg, args: []fkArg{col("i32", "[]")}, want: "[]"},
	})
}

// TestArithErrorText checks that a runtime error names the function, the
// row, the values and the type.
func TestArithErrorText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cases := []struct {
		f    fn.Function
		l, r fkArg
		want string
	}{
		{fn.Add, fkCol("i32", "[0, 2147483647]"), fkLit("i32", "1"), "add: row 1: overflow: 2147483647 + 1 does not fit i32"},
		{fn.Div, fkCol("i64", "[7]"), fkCol("i64", "[0]"), "div: row 0: division by zero: 7 / 0"},
		{fn.Mod, fkCol("i8", "[-128]"), fkLit("i8", "-1"), "mod: row 0: overflow: -128 % -1 does not fit i8"},
		{fn.Mul, fkCol("decimal(20,0)", `["10", "99999999999999999999"]`), fkLit("decimal(20,0)", `"10000000000000000000"`), "mul: row 1: overflow: 99999999999999999999 * 10000000000000000000 does not fit decimal(38,0)"},
	}
	for _, c := range cases {
		l := fkArray(t, mem, c.l.typ, c.l.json)
		var r datum.Datum
		if c.r.lit {
			r = datum.FromScalar(fkScalar(t, mem, c.r.typ, c.r.json), l.Len())
		} else {
			r = fkArray(t, mem, c.r.typ, c.r.json)
		}
		got, err := fkEval(t, mem, c.f, []datum.Datum{l, r})
		if err == nil {
			got.Release()
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
		l.Release()
		r.Release()
	}
}

// TestArithBigColumns crosses word boundaries of the bitmaps: many rows,
// nulls on a pattern, an overflow only under nulls and then one at a valid
// row far down.
func TestArithBigColumns(t *testing.T) {
	const n = 1000
	var a, b, want []string
	for i := 0; i < n; i++ {
		switch {
		case i%7 == 3:
			a, b, want = append(a, "null"), append(b, "2147483647"), append(want, "null")
		case i%11 == 5:
			a, b, want = append(a, "2147483647"), append(b, "null"), append(want, "null")
		default:
			a, b, want = append(a, fmt.Sprint(i)), append(b, fmt.Sprint(-2*i)), append(want, fmt.Sprint(-i))
		}
	}
	js := func(v []string) string { return "[" + strings.Join(v, ",") + "]" }
	fkRun(t, []fkCase{{name: "ok", f: fn.Add, args: []fkArg{fkCol("i32", js(a)), fkCol("i32", js(b))}, want: js(want)}})
	a[777], b[777] = "2147483647", "1"
	fkRun(t, []fkCase{{name: "overflow", f: fn.Add, args: []fkArg{fkCol("i32", js(a)), fkCol("i32", js(b))}, err: errs.ErrOverflow, row: 777}})
}

// TestArithMisuse: argument lists the binder would reject give errors, not
// panics.
func TestArithMisuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	k := fn.Add.(fn.Kernel)
	a := fkArray(t, mem, "i32", "[1, 2]")
	defer a.Release()
	b := fkArray(t, mem, "i32", "[1, 2, 3]")
	defer b.Release()
	if _, err := k.Eval(&fn.Context{Mem: mem}, []datum.Datum{a}, a.DType()); err == nil {
		t.Error("one argument: no error")
	}
	if _, err := k.Eval(&fn.Context{Mem: mem}, []datum.Datum{a, b}, a.DType()); err == nil {
		t.Error("different lengths: no error")
	}
	s := datum.FromScalar(scalar.String("x"), 2)
	if _, err := k.Eval(&fn.Context{Mem: mem}, []datum.Datum{s, s}, s.DType()); err == nil || errors.Is(err, errs.ErrOverflow) {
		t.Errorf("strings: got %v", err)
	}
}

// Example_checkedArithmetic evaluates add over a column and a literal: the
// literal is not broadcast, nulls propagate, and an overflow names the
// function, the row and the values.
func Example_checkedArithmetic() {
	mem := memory.NewGoAllocator()
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{1, 0, 2147483646}, []bool{true, false, true})
	col := datum.FromArray(b.NewArray(), dtype.Primitive(dtype.I32, true))
	defer col.Release()
	one := datum.FromScalar(scalar.Int32(1), col.Len())

	add := fn.Add.(fn.Kernel)
	ctx := &fn.Context{Mem: mem}
	ret := dtype.Primitive(dtype.I32, true)
	res, err := add.Eval(ctx, []datum.Datum{col, one}, ret)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Release()
	fmt.Println(res.Array())

	_, err = add.Eval(ctx, []datum.Datum{res, one}, ret)
	fmt.Println(err)
	fmt.Println(errors.Is(err, errs.ErrOverflow))
	// Output:
	// [2 (null) 2147483647]
	// add: row 2: overflow: 2147483647 + 1 does not fit i32
	// true
}

// TestFixedWidthKernelsRegistered: every fixed-width function of the
// registry, and cast, has a kernel.
func TestFixedWidthKernelsRegistered(t *testing.T) {
	for _, id := range []string{"add", "sub", "mul", "div", "mod", "neg", "abs",
		"eq", "neq", "lt", "lte", "gt", "gte", "is_distinct_from", "is_not_distinct_from", "between", "in_list",
		"and", "or", "not", "is_null", "is_not_null"} {
		f, ok := fn.Default.Lookup(id)
		if !ok {
			t.Errorf("%s is not registered", id)
			continue
		}
		if _, ok := f.(fn.Kernel); !ok {
			t.Errorf("%s has no kernel", id)
		}
	}
	for _, f := range []fn.Function{fn.Cast(dtype.Utf8(false)), fn.TryCast(dtype.Utf8(false))} {
		if _, ok := f.(fn.Kernel); !ok {
			t.Errorf("%s has no kernel", f.ID())
		}
	}
}
