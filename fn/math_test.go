package fn_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values are DuckDB's (bench/cmd/duckquery).

func TestRounding(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "round f64 half away", f: fn.Round, args: []fkArg{col("f64", "[2.5, -2.5, 0.5, -0.4, 1.4999, null]")}, want: "[3, -3, 1, -0, 1, null]"},
		{name: "round f32", f: fn.Round, args: []fkArg{col("f32", "[1.5, -1.5]")}, want: "[2, -2]"},
		{name: "floor f64", f: fn.Floor, args: []fkArg{col("f64", "[-0.5, 1.5, null]")}, want: "[-1, 1, null]"},
		{name: "ceil f64", f: fn.Ceil, args: []fkArg{col("f64", "[-0.5, 1.2]")}, want: "[-0, 2]"},
		{name: "trunc f64", f: fn.Trunc, args: []fkArg{col("f64", "[-2.7, 2.7]")}, want: "[-2, 2]"},
		{name: "round i32 is itself", f: fn.Round, args: []fkArg{col("i32", "[7, null, -3]")}, want: "[7, null, -3]"},
		{name: "round f64 places", f: fn.Round, args: []fkArg{col("f64", "[0.285, 1.005, 2.675, 1234.5, 7.25]"), lit("i32", "2")}, want: "[0.28, 1, 2.68, 1234.5, 7.25]"},
		{name: "round f64 negative places", f: fn.Round, args: []fkArg{col("f64", "[1234.5, 1250, -1250, 6e307]"), lit("i32", "-2")}, want: "[1200, 1300, -1300, 6e+307]"},
		{name: "round f64 far places", f: fn.Round, args: []fkArg{col("f64", "[7, 5e-324]"), lit("i32", "400")}, want: "[7, 5e-324]"},
		{name: "round f64 far negative places", f: fn.Round, args: []fkArg{col("f64", "[7, 1e308]"), lit("i32", "-400")}, want: "[0, 0]"},
		{name: "round f64 places per row", f: fn.Round, args: []fkArg{col("f64", "[7.25, 1.25, 3]"), col("i32", "[1, -1, null]")}, want: "[7.3, 0, null]"},
		{name: "round null places", f: fn.Round, args: []fkArg{col("f64", "[7.25]"), lit("i32", "null")}, want: "[null]"},
		{name: "round f64 not finite", f: fn.Round, args: []fkArg{col("f64", `["NaN", "+Inf", "-Inf", -123.456]`), lit("i32", "-3")}, want: `["NaN", "+Inf", "-Inf", -0]`},
		{name: "trunc f64 far negative places", f: fn.Trunc, args: []fkArg{col("f64", "[1, -123.456]"), lit("i32", "-400")}, want: "[1, -123.456]"},
		{name: "trunc f64 places", f: fn.Trunc, args: []fkArg{col("f64", "[1.57, -2.5, 1234.5]"), lit("i32", "1")}, want: "[1.5, -2.5, 1234.5]"},
		{name: "round i8 negative places", f: fn.Round, args: []fkArg{col("i8", "[124, -124, -50, -49, -45, null]"), lit("i32", "-1")}, want: "[120, -120, -50, -50, -50, null]"},
		{name: "round i8 overflow", f: fn.Round, args: []fkArg{col("i8", "[124, 125]"), lit("i32", "-1")}, err: errs.ErrOverflow, row: 1},
		{name: "round i8 min overflow", f: fn.Round, args: []fkArg{col("i8", "[-128]"), lit("i32", "-1")}, err: errs.ErrOverflow, row: 0},
		{name: "round i8 min", f: fn.Round, args: []fkArg{col("i8", "[-128, 127, -128]"), col("i32", "[-2, -2, -3]")}, want: "[-100, 100, 0]"},
		{name: "round i32 far", f: fn.Round, args: []fkArg{col("i32", "[2147483647, -2147483648]"), lit("i32", "-10")}, want: "[0, 0]"},
		{name: "round i64 19 places", f: fn.Round, args: []fkArg{col("i64", "[4999999999999999999, -4999999999999999999]"), lit("i32", "-19")}, want: "[0, 0]"},
		{name: "round i64 19 places overflow", f: fn.Round, args: []fkArg{col("i64", "[5000000000000000000]"), lit("i32", "-19")}, err: errs.ErrOverflow, row: 0},
		{name: "round i64 min", f: fn.Round, args: []fkArg{col("i64", "[-9223372036854775808, -9223372036854775804]"), col("i32", "[-18, -1]")}, want: "[-9000000000000000000, -9223372036854775800]"},
		{name: "round overflow under null", f: fn.Round, args: []fkArg{col("i8", "[125, 1]"), col("i32", "[null, -1]")}, want: "[null, 0]"},
		{name: "round u64", f: fn.Round, args: []fkArg{col("u64", "[18446744073709551615, 15]"), lit("i32", "-1")}, err: errs.ErrOverflow, row: 0},
		{name: "trunc i32 negative places", f: fn.Trunc, args: []fkArg{col("i32", "[-1255, 1259]"), lit("i32", "-1")}, want: "[-1250, 1250]"},
		{name: "trunc i8 min", f: fn.Trunc, args: []fkArg{col("i8", "[-128]"), lit("i32", "-1")}, want: "[-120]"},
		{name: "trunc u8", f: fn.Trunc, args: []fkArg{col("u8", "[255]"), lit("i32", "-1")}, want: "[250]"},
	})
}

// TestRoundDecimal rounds decimals to places given as a literal, which the
// result type depends on.
func TestRoundDecimal(t *testing.T) {
	cases := []struct {
		f      fn.Function
		typ    string
		vals   string
		places *int32
		want   string
		rtype  dtype.DType
		err    error
	}{
		{fn.Round, "decimal(9,3)", `["1.255", "-1.255", null]`, p32(2), `["1.26", "-1.26", null]`, dtype.Decimal(9, 2, true), nil},
		{fn.Round, "decimal(9,3)", `["1.255"]`, p32(5), `["1.255"]`, dtype.Decimal(9, 3, true), nil},
		{fn.Round, "decimal(9,1)", `["1255.5", "-1250.0", "49.9"]`, p32(-2), `["1300", "-1300", "0"]`, dtype.Decimal(9, 0, true), nil},
		{fn.Round, "decimal(9,2)", `["1.10"]`, p32(-50), `["0"]`, dtype.Decimal(9, 0, true), nil},
		{fn.Round, "decimal(9,2)", `["-1.50", "1.49"]`, nil, `["-2", "1"]`, dtype.Decimal(9, 0, true), nil},
		{fn.Floor, "decimal(9,2)", `["-1.50", "1.50", "-1.00"]`, nil, `["-2", "1", "-1"]`, dtype.Decimal(9, 0, true), nil},
		{fn.Ceil, "decimal(9,2)", `["-1.50", "1.50", "1.00"]`, nil, `["-1", "2", "1"]`, dtype.Decimal(9, 0, true), nil},
		{fn.Trunc, "decimal(9,2)", `["-1.57", "1.57"]`, p32(1), `["-1.5", "1.5"]`, dtype.Decimal(9, 1, true), nil},
		{fn.Trunc, "decimal(9,2)", `["1.99"]`, p32(-1), `["0"]`, dtype.Decimal(9, 0, true), nil},
		// DuckDB returns 1000000000 beyond decimal(9,0); colexpr raises.
		{fn.Round, "decimal(9,0)", `["999999999"]`, p32(-1), ``, dtype.Decimal(9, 0, true), errs.ErrOverflow},
	}
	for _, c := range cases {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		x := fkArray(t, mem, c.typ, c.vals)
		args := []datum.Datum{x}
		types := []dtype.DType{x.DType()}
		consts := []*scalar.Scalar{nil}
		if c.places != nil {
			s, err := scalar.New(dtype.Primitive(dtype.I32, false), int64(*c.places))
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, datum.FromScalar(s, x.Len()))
			types = append(types, s.DType())
			consts = append(consts, &s)
		}
		ret, err := c.f.(fn.ConstTyper).ReturnTypeConst(types, consts)
		if err != nil {
			t.Fatal(err)
		}
		if !ret.Equal(c.rtype) {
			t.Errorf("%s(%s, %v): type %s, want %s", c.f.ID(), c.typ, c.places, ret, c.rtype)
		}
		got, err := c.f.(fn.Kernel).Eval(&fn.Context{Mem: mem}, args, ret)
		switch {
		case c.err != nil:
			if !errors.Is(err, c.err) {
				t.Errorf("%s(%s): got error %v, want %v", c.f.ID(), c.vals, err, c.err)
			}
		case err != nil:
			t.Errorf("%s(%s): %v", c.f.ID(), c.vals, err)
		default:
			if res := fkJSON(t, mem, got); fkNormJSON(t, res) != fkNormJSON(t, c.want) {
				t.Errorf("%s(%s, %v) = %s, want %s", c.f.ID(), c.vals, c.places, res, c.want)
			}
			got.Release()
		}
		x.Release()
		mem.AssertSize(t, 0)
	}
	// A decimal's places must be a literal.
	_, err := fn.Round.(fn.ConstTyper).ReturnTypeConst([]dtype.DType{dtype.Decimal(9, 2, false), dtype.Primitive(dtype.I32, false)}, []*scalar.Scalar{nil, nil})
	if err == nil {
		t.Error("round(decimal, column) typed; want an error")
	}
}

func p32(v int32) *int32 { return &v }

func TestFloatMath(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "sqrt", f: fn.Sqrt, args: []fkArg{col("f64", "[4, 7, null]")}, want: "[2, 2.6457513110645907, null]"},
		// Go's math.Cbrt is within an ulp, not always glibc's value (cbrt(7)
		// is 1.9129311827723892 here, 1.9129311827723894 in DuckDB).
		{name: "cbrt", f: fn.Cbrt, args: []fkArg{col("f64", "[-8, 27, 0.001]")}, want: "[-2, 3, 0.1]"},
		{name: "exp", f: fn.Exp, args: []fkArg{col("f64", "[0, 7]")}, want: "[1, 1096.6331584284585]"},
		{name: "ln", f: fn.Ln, args: []fkArg{col("f64", "[1, 7]")}, want: "[0, 1.9459101490553132]"},
		{name: "log10", f: fn.Log10, args: []fkArg{col("f64", "[1000, 7]")}, want: "[3, 0.8450980400142568]"},
		// log10 as the C library computes it: Go's math.Log10 gives
		// 3.830239334721229 and 1.9134297166639016 for the first and last.
		{name: "log10 as DuckDB", f: fn.Log10, args: []fkArg{col("f64", "[6764.556596678251, 0.0007978023493886131, 81.92750264193613, 5e-324, 0, -1]")},
			want: `[3.8302393347212296, -3.09810468910288, 1.9134297166639018, -323.3062153431158, "-Inf", "NaN"]`},
		{name: "log base as DuckDB", f: fn.Log, args: []fkArg{lit("f64", "2.5"), col("f64", "[6764.556596678251, 0.0007978023493886131]")},
			want: "[9.625167741999832, -7.785356138081064]"},
		{name: "log", f: fn.Log, args: []fkArg{col("f64", "[7]")}, want: "[0.8450980400142568]"},
		{name: "log2", f: fn.Log2, args: []fkArg{col("f64", "[8, 7]")}, want: "[3, 2.807354922057604]"},
		{name: "log base", f: fn.Log, args: []fkArg{lit("f64", "2"), col("f64", "[8, null]")}, want: "[3, null]"},
		{name: "power", f: fn.Power, args: []fkArg{col("f64", "[2, 2, null]"), col("f64", "[10, 0.5, 1]")}, want: "[1024, 1.4142135623730951, null]"},
		{name: "sign f64", f: fn.Sign, args: []fkArg{col("f64", "[-0.5, 0, 3, null]")}, want: "[-1, 0, 1, null]"},
		{name: "sign i64", f: fn.Sign, args: []fkArg{col("i64", "[-9223372036854775808, 0, 5]")}, want: "[-1, 0, 1]"},
		{name: "sign u8", f: fn.Sign, args: []fkArg{col("u8", "[0, 255]")}, want: "[0, 1]"},
		{name: "sign decimal", f: fn.Sign, args: []fkArg{col("decimal(9,2)", `["-5.00", "0.00", "0.01"]`)}, want: "[-1, 0, 1]"},
	})
}

func TestExtreme(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "greatest skips nulls", f: fn.Greatest, args: []fkArg{col("i32", "[1, null, null, 5]"), col("i32", "[null, 2, null, 3]"), lit("i32", "3")}, want: "[3, 3, 3, 5]"},
		{name: "least skips nulls", f: fn.Least, args: []fkArg{col("i32", "[1, null, null]"), col("i32", "[null, 2, null]")}, want: "[1, 2, null]"},
		{name: "greatest nan", f: fn.Greatest, args: []fkArg{col("f64", "[1, -0]"), col("f64", `["NaN", 0]`)}, want: `["NaN", -0]`},
		{name: "least nan", f: fn.Least, args: []fkArg{col("f64", `["NaN", 0]`), col("f64", "[1, -0]")}, want: "[1, 0]"},
		{name: "greatest bool", f: fn.Greatest, args: []fkArg{col("bool", "[false, null, null, true, false]"), col("bool", "[true, false, null, null, false]"), lit("bool", "false")}, want: "[true, false, false, true, false]"},
		{name: "least bool", f: fn.Least, args: []fkArg{col("bool", "[false, null, null, true, true]"), col("bool", "[true, false, null, null, true]")}, want: "[false, false, null, true, true]"},
		{name: "least bool scalars", f: fn.Least, args: []fkArg{lit("bool", "true"), lit("bool", "null"), col("bool", "[false, null]")}, want: "[false, true]"},
		{name: "greatest binary", f: fn.Greatest, args: []fkArg{col("binary", `["YQ==", "/w==", null]`), col("binary", `["YWI=", "AA==", null]`)}, want: `["YWI=", "/w==", null]`},
		{name: "greatest text", f: fn.Greatest, args: []fkArg{col("utf8", `["a", "b", null]`), col("utf8", `["ab", "a", null]`)}, want: `["ab", "b", null]`},
		{name: "least decimal", f: fn.Least, args: []fkArg{col("decimal(9,2)", `["1.50", "-2.00"]`), col("decimal(9,2)", `["1.49", null]`)}, want: `["1.49", "-2"]`},
		{name: "greatest one", f: fn.Greatest, args: []fkArg{col("u64", "[18446744073709551615, null]")}, want: "[18446744073709551615, null]"},
		{name: "greatest null scalars", f: fn.Greatest, args: []fkArg{lit("i8", "null"), lit("i8", "null")}, want: "[null, null]"},
	})
}

func TestBitwise(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "and", f: fn.BitAnd, args: []fkArg{col("i32", "[6, 5, null]"), col("i32", "[3, -1, 1]")}, want: "[2, 5, null]"},
		{name: "or scalar", f: fn.BitOr, args: []fkArg{lit("u8", "8"), col("u8", "[2, 255]")}, want: "[10, 255]"},
		{name: "xor", f: fn.BitXor, args: []fkArg{col("i8", "[-1, 5]"), lit("i8", "5")}, want: "[-6, 0]"},
		{name: "shl", f: fn.ShiftLeft, args: []fkArg{col("i8", "[1, 0, 0, 63]"), col("i8", "[6, 8, 100, 1]")}, want: "[64, 0, 0, 126]"},
		{name: "shl u64", f: fn.ShiftLeft, args: []fkArg{col("u64", "[1]"), lit("u64", "63")}, want: "[9223372036854775808]"},
		{name: "shl overflow", f: fn.ShiftLeft, args: []fkArg{col("i8", "[1, 1]"), col("i8", "[6, 7]")}, err: errs.ErrOverflow, row: 1},
		{name: "shl negative", f: fn.ShiftLeft, args: []fkArg{col("i32", "[1, -1]"), lit("i32", "0")}, err: errs.ErrInvalidArgument, row: 1},
		{name: "shl by negative", f: fn.ShiftLeft, args: []fkArg{col("i32", "[0]"), lit("i32", "-1")}, err: errs.ErrInvalidArgument, row: 0},
		{name: "shl out of range", f: fn.ShiftLeft, args: []fkArg{col("i32", "[1]"), lit("i32", "32")}, err: errs.ErrInvalidArgument, row: 0},
		{name: "shl fails only where valid", f: fn.ShiftLeft, args: []fkArg{col("i32", "[-1, 1]"), col("i32", "[null, 2]")}, want: "[null, 4]"},
		{name: "shr", f: fn.ShiftRight, args: []fkArg{col("i64", "[-8, -8, -8, 8, 8]"), col("i64", "[1, 63, 64, -1, 2]")}, want: "[-4, -1, 0, 0, 2]"},
		{name: "not", f: fn.BitNot, args: []fkArg{col("i32", "[5, -5, null]")}, want: "[-6, 4, null]"},
		{name: "not u8", f: fn.BitNot, args: []fkArg{col("u8", "[5]")}, want: "[250]"},
	})
}
