package kernels

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below are DuckDB's (bench/cmd/duckquery), errors
// included.

func TestFloatTests(t *testing.T) {
	f64N, f32N := dtype.Primitive(dtype.F64, true), dtype.Primitive(dtype.F32, true)
	xs := `[0, -1.5, "NaN", "+Inf", "-Inf", null, 1e308]`
	for _, c := range []struct {
		name string
		op   FloatTest
		want string
	}{
		{"isnan", TestNaN, `[false, false, true, false, false, null, false]`},
		{"isinf", TestInf, `[false, false, false, true, true, null, false]`},
		{"isfinite", TestFinite, `[true, true, false, false, false, null, true]`},
	} {
		runCases(t, []kernelCase{
			{name: c.name + "/f64", args: []in{col(f64N, xs)}, ret: boolN, want: c.want},
			{name: c.name + "/f32", args: []in{col(f32N, `[0, -1.5, "NaN", "+Inf", "-Inf", null, 1e38]`)}, ret: boolN, want: c.want},
			{name: c.name + "/null scalar", args: []in{lit(scalar.Null(f64N))}, ret: boolN, want: `[null]`},
		}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			if a[0].DType().PType() == dtype.F32 {
				return FloatTestOf[float32](mem, c.op, a[0], ret), nil
			}
			return FloatTestOf[float64](mem, c.op, a[0], ret), nil
		})
	}
}

// TestFloatTestsLong checks the bit packing of the float tests over more
// than one word, against the one-row definition, on a sliced column.
func TestFloatTestsLong(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(3, 4))
	edges := []float64{0, 1, math.NaN(), math.Inf(1), math.Inf(-1), -2}
	n := 200
	xs := make([]float64, n+5)
	for i := range xs {
		xs[i] = edges[rng.IntN(len(edges))]
	}
	full := intColumnFloat(mem, dtype.Primitive(dtype.F64, true), xs, randomValid(rng, n+5))
	defer full.Release()
	x := sliceDatum(full, 5, n)
	defer x.Release()
	for op := TestNaN; op <= TestFinite; op++ {
		got := FloatTestOf[float64](mem, op, x, boolN)
		for i := range n {
			if got.Array().IsValid(i) != x.Array().IsValid(i) {
				t.Fatalf("test %d: row %d validity", op, i)
			}
			if x.Array().IsValid(i) && got.Array().ValueStr(i) != map[bool]string{true: "true", false: "false"}[floatTestOne(op, xs[5+i])] {
				t.Fatalf("test %d: row %d (%v): %s", op, i, xs[5+i], got.Array().ValueStr(i))
			}
		}
		got.Release()
	}
}

func TestEven(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{2.5, 4}, {-2.5, -4}, {3, 4}, {4, 4}, {-0.5, -2}, {0, 0}, {0.1, 2}, {-1, -2}, {1e300, 1e300},
		{math.Inf(1), math.Inf(1)}, {math.Inf(-1), math.Inf(-1)},
	} {
		if got := Even(c.x); got != c.want {
			t.Errorf("even(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(Even(math.NaN())) {
		t.Errorf("even(NaN) is not NaN")
	}
}

func TestGCD(t *testing.T) {
	u64N := dtype.Primitive(dtype.U64, true)
	call := func(lcm bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			if ret.PType() == dtype.U64 {
				return IntGCD[uint64](mem, lcm, a[0], a[1], ret)
			}
			return IntGCD[int64](mem, lcm, a[0], a[1], ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "pairs", args: []in{col(i64N, `[4, -4, -4, 0, 0, null, -9223372036854775808, -9223372036854775807]`), col(i64N, `[6, 6, -6, 0, -5, 1, 2, 0]`)},
			ret: i64N, want: `[2, 2, 2, 0, 5, null, 2, 9223372036854775807]`},
		{name: "scalar", args: []in{col(i64N, `[12, 18, null]`), n64(8)}, ret: i64N, want: `[4, 2, null]`},
		{name: "min and zero", args: []in{n64(-9223372036854775808), n64(0)}, ret: i64, errText: "gcd(-9223372036854775808, 0) does not fit i64"},
		{name: "min and min", args: []in{col(i64N, `[1, -9223372036854775808]`), n64(-9223372036854775808)}, ret: i64N, errText: "row 1"},
		{name: "overflow on a null row", args: []in{col(i64N, `[null, 4]`), col(i64N, `[0, 6]`)}, ret: i64N, want: `[null, 2]`},
		{name: "u64", args: []in{col(u64N, `[18446744073709551615, 12]`), col(u64N, `[5, 18]`)}, ret: u64N, want: `[5, 6]`},
	}, call(false))
	runCases(t, []kernelCase{
		{name: "pairs", args: []in{col(i64N, `[4, -4, -4, 0, 5, null]`), col(i64N, `[6, 6, -6, 0, 0, 1]`)},
			ret: i64N, want: `[12, 12, 12, 0, 0, null]`},
		{name: "out of range", args: []in{n64(3037000500), n64(3037000501)}, ret: i64, errText: "does not fit i64"},
		{name: "max", args: []in{n64(9223372036854775807), n64(2)}, ret: i64, errText: "overflow"},
		{name: "abs of min", args: []in{n64(-9223372036854775808), n64(1)}, ret: i64, errText: "overflow"},
		{name: "u64", args: []in{col(u64N, `[18446744073709551615, 4]`), col(u64N, `[1, 6]`)}, ret: u64N, want: `[18446744073709551615, 12]`},
	}, call(true))
}

func TestFactorial(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "values", args: []in{col(i32N, `[0, 1, 5, 20, null]`)}, ret: i64N, want: `[1, 1, 120, 2432902008176640000, null]`},
		{name: "null row", args: []in{col(i32N, `[null, 3]`)}, ret: i64N, want: `[null, 6]`},
		{name: "negative", args: []in{col(i32N, `[1, -3]`)}, ret: i64N, errText: "row 1: invalid argument: factorial of the negative number -3"},
		{name: "21", args: []in{lit(scalar.Int(dtype.I32, 21))}, ret: i64, errText: "factorial(21) does not fit i64"},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Factorial(mem, a[0], ret)
	})
}

func TestBitCount(t *testing.T) {
	i8N := dtype.Primitive(dtype.I8, true)
	runCases(t, []kernelCase{
		{name: "i64", args: []in{col(i64N, `[7, -1, 0, null, -9223372036854775808]`)}, ret: i8N, want: `[3, 64, 0, null, 1]`},
		{name: "i32", args: []in{col(i32N, `[-1, 255]`)}, ret: i8N, want: `[32, 8]`},
		{name: "i8", args: []in{col(dtype.Primitive(dtype.I8, true), `[-1, -128, 127]`)}, ret: i8N, want: `[8, 1, 7]`},
		{name: "u8", args: []in{col(dtype.Primitive(dtype.U8, true), `[255, 16]`)}, ret: i8N, want: `[8, 1]`},
		{name: "u64", args: []in{col(dtype.Primitive(dtype.U64, true), `[18446744073709551615]`)}, ret: i8N, want: `[64]`},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		switch a[0].DType().PType() {
		case dtype.I8:
			return BitCount[int8](mem, a[0], ret), nil
		case dtype.I32:
			return BitCount[int32](mem, a[0], ret), nil
		case dtype.U8:
			return BitCount[uint8](mem, a[0], ret), nil
		case dtype.U64:
			return BitCount[uint64](mem, a[0], ret), nil
		}
		return BitCount[int64](mem, a[0], ret), nil
	})
}

// TestGCDOracle checks gcd and lcm against a plain Euclid over random
// pairs of i64 values (with the extremes), errors included.
func TestGCDOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return []int64{0, 1, -1, math.MinInt64, math.MaxInt64, 1 << 62, -(1 << 62)}[rng.IntN(7)]
		case 1:
			return rng.Int64N(1000) - 500
		}
		return int64(rng.Uint64())
	}
	for range 5000 {
		a, b := pick(), pick()
		x, y := absU(a), absU(b)
		for x != 0 && y != 0 {
			if x > y {
				x %= y
			} else {
				y %= x
			}
		}
		g := x | y
		got, err := gcdOne(false, a, b)
		if (g > math.MaxInt64) != (err != nil) || err == nil && uint64(got) != g {
			t.Fatalf("gcd(%d, %d) = %d, %v; want %d", a, b, got, err, g)
		}
		var l uint64
		over := false
		if a != 0 && b != 0 {
			hi, lo := bits.Mul64(absU(a)/g, absU(b))
			l, over = lo, hi != 0 || lo > math.MaxInt64
		}
		got, err = gcdOne(true, a, b)
		if over != (err != nil) || err == nil && uint64(got) != l {
			t.Fatalf("lcm(%d, %d) = %d, %v; want %d (overflow %v)", a, b, got, err, l, over)
		}
	}
}
