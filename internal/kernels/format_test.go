package kernels

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below were checked against DuckDB 1.5.

func formatCall(printf bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Format(mem, a, printf, ret)
	}
}

func f64(v float64) in { return lit(scalar.Float64(v)) }

func TestFormat(t *testing.T) {
	f64N := dtype.Primitive(dtype.F64, true)
	runCases(t, []kernelCase{
		{name: "fields", args: []in{s("{} {}"), s("a"), n64(1)}, ret: str, want: `["a 1"]`},
		{name: "numbered", args: []in{s("{1} {0}"), s("a"), s("b")}, ret: str, want: `["b a"]`},
		{name: "braces", args: []in{s("{{}}"), n64(1)}, ret: str, want: `["{}"]`},
		{name: "no fields", args: []in{s("abc")}, ret: str, want: `["abc"]`},
		{name: "shortest floats", args: []in{s("{}"), col(f64N, `[1.5, 0.1, 1e20, 1.0, 1e15, 1e16, 0.0001, 0.00001, 12345.678, 1.2345678901234568e+20, -0.0, null]`)}, ret: strN,
			want: `["1.5", "0.1", "1e+20", "1.0", "1000000000000000.0", "1e+16", "0.0001", "1e-05", "12345.678", "1.2345678901234568e+20", "-0.0", null]`},
		{name: "nan and inf", args: []in{s("{} {}"), f64(math.NaN()), f64(math.Inf(-1))}, ret: str, want: `["nan -inf"]`},
		{name: "align", args: []in{s("{:>5}|{:<5}|{:^5}|{:*^7}"), n64(1), n64(2), s("ab"), s("c")}, ret: str, want: `["    1|2    | ab  |***c***"]`},
		{name: "numbers", args: []in{s("{:+d} {:05d} {:#x} {:e}"), n64(5), n64(-42), n64(255), f64(1.5)}, ret: str, want: `["+5 -0042 0xff 1.500000e+00"]`},
		{name: "precision", args: []in{s("{:.2f} {:.3} {:.3} {:10.3f}|"), f64(1.234), f64(3.14159), s("abcdef"), f64(3.14159)}, ret: str,
			want: `["1.23 3.14 abc      3.142|"]`},
		{name: "bool", args: []in{s("{}"), lit(scalar.Bool(true))}, ret: str, want: `["true"]`},
		{name: "u64", args: []in{s("{}"), lit(scalar.Uint(dtype.U64, math.MaxUint64))}, ret: str, want: `["18446744073709551615"]`},
		{name: "per row", args: []in{col(strN, `["<{}>", "{:x}", null]`), col(i64N, `[10, 255, 1]`)}, ret: strN, want: `["<10>", "ff", null]`},
		{name: "missing argument", args: []in{s("{} {}"), n64(1)}, ret: str, errText: "argument index 1 is out of range"},
		{name: "unclosed", args: []in{s("{"), n64(1)}, ret: str, errText: "invalid or unclosed field"},
		{name: "s of int", args: []in{s("{:s}"), n64(1)}, ret: str, errText: `"s" cannot format an integer value`},
		{name: "d of string", args: []in{s("{:d}"), s("a")}, ret: str, errText: `"d" cannot format a string value`},
		{name: "c", args: []in{s("{:c}"), n64(65)}, ret: str, errText: `"c" cannot format`},
	}, formatCall(false))
}

func TestPrintf(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "d", args: []in{s("%d|%5d|%-5d|%05d|%+d"), n64(5), n64(42), n64(42), n64(-42), n64(5)}, ret: str, want: `["5|   42|42   |-0042|+5"]`},
		{name: "s", args: []in{s("%s|%-5s|%.3s|%3s|"), s("é"), s("ab"), s("abcdef"), s("é")}, ret: str, want: `["é|ab   |abc|  é|"]`},
		{name: "floats", args: []in{s("%.2f|%f|%e|%g|%5.1f|%-8.3e|%G|%05.1f"), f64(1.234), f64(1.5), f64(1.5), f64(1.5), f64(3.14159), f64(12345.678), f64(0.00001234), f64(3.14159)}, ret: str,
			want: `["1.23|1.500000|1.500000e+00|1.5|  3.1|1.235e+04|1.234E-05|003.1"]`},
		{name: "hex", args: []in{s("%x %X %o %#x"), n64(255), n64(255), n64(8), n64(255)}, ret: str, want: `["ff FF 10 0xff"]`},
		{name: "negative hex", args: []in{s("%x"), n64(-1)}, ret: str, want: `["ffffffffffffffff"]`},
		{name: "char and percent", args: []in{s("%c%%"), n64(65)}, ret: str, want: `["A%"]`},
		{name: "char of the low byte", args: []in{s("%c%c"), n64(321), n64(-191)}, ret: str, want: `["AA"]`},
		{name: "char not ASCII", args: []in{s("%c"), n64(200)}, ret: str, errText: "not UTF-8 on its own"},
		{name: "bool", args: []in{s("%d %s"), lit(scalar.Bool(true)), lit(scalar.Bool(false))}, ret: str, want: `["1 false"]`},
		{name: "rows", args: []in{s("%d!"), col(i64N, `[1, null, -3]`)}, ret: strN, want: `["1!", null, "-3!"]`},
		{name: "s of int", args: []in{s("%s"), n64(1)}, ret: str, errText: `"s" cannot format an integer value`},
		{name: "d of float", args: []in{s("%d"), f64(1.5)}, ret: str, errText: `"d" cannot format a float value`},
		{name: "missing argument", args: []in{s("%d")}, ret: str, errText: "argument index 0 is out of range"},
		{name: "unsupported", args: []in{s("%q"), n64(1)}, ret: str, errText: "unsupported conversion 'q'"},
		{name: "dangling", args: []in{s("abc %"), n64(1)}, ret: str, errText: "ends inside the conversion"},
	}, formatCall(true))
}
