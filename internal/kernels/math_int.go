package kernels

// The integer functions gcd, lcm, factorial and bit_count, even, and the
// float tests isnan, isinf and isfinite, with DuckDB's results (package fn's
// doc, math_more.go, lists the types).
//
// gcd and lcm are computed on the magnitudes, exactly: gcd(a, b) is never
// negative, gcd(0, 0) is 0, lcm(a, 0) is 0, and a result that does not fit
// the type (gcd(MIN, 0) is 2^63; lcm of large coprimes) is errs.ErrOverflow,
// where DuckDB raises too. factorial(n) of an i32 is i64: a negative n is
// errs.ErrInvalidArgument and n > 20 errs.ErrOverflow (DuckDB's result is a
// HUGEINT, which holds up to 33!).

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// FloatTest is a test of a float's class (the order of fn.FloatTest).
type FloatTest uint8

// The float tests.
const (
	TestNaN    FloatTest = iota // isnan(x)
	TestInf                     // isinf(x): +Inf or -Inf
	TestFinite                  // isfinite(x): neither NaN nor infinite
)

// floatTestOne is the test of one value.
func floatTestOne[T Float](op FloatTest, v T) bool {
	switch op {
	case TestNaN:
		return v != v
	case TestInf:
		return math.IsInf(float64(v), 0)
	}
	return v-v == 0 // NaN for NaN and ±Inf
}

// FloatTestOf is isnan, isinf or isfinite over f32 or f64 values: a bool
// with the argument's validity.
func FloatTestOf[T Float](mem memory.Allocator, op FloatTest, x datum.Datum, ret dtype.DType) datum.Datum {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n)
	}
	a := FixedOf[T](x)
	if a.IsScalar {
		d, err := scalarResult(ret, floatTestOne(op, a.Scalar), n)
		if err != nil {
			panic(err) // a bool always makes a scalar of a bool type
		}
		return d
	}
	values, words := NewBits(mem, n)
	src := a.Vals
	for w := range words {
		chunk := src[w*64 : min(len(src), w*64+64)]
		var word uint64
		switch op {
		case TestNaN:
			for j, v := range chunk {
				if v != v {
					word |= 1 << j
				}
			}
		case TestInf:
			for j, v := range chunk {
				if math.IsInf(float64(v), 0) {
					word |= 1 << j
				}
			}
		default:
			for j, v := range chunk {
				if v-v == 0 {
					word |= 1 << j
				}
			}
		}
		words[w] = word
	}
	validity, nulls := ShareValidity(mem, x.Array())
	return boolResult(ret, n, validity, nulls, values)
}

// Even is DuckDB's even(x): x rounded away from zero to the next even
// integer (even(2.5) is 4, even(-0.5) is -2, even(0) is 0); NaN and ±Inf are
// themselves.
func Even(x float64) float64 {
	var v float64
	if x >= 0 {
		v = math.Ceil(x)
	} else {
		v = -math.Ceil(-x)
	}
	if math.Floor(v/2)*2 != v {
		if x >= 0 {
			return v + 1
		}
		return v - 1
	}
	return v
}

// magnitudeOf is |v| as a uint64 (|MIN| included).
func magnitudeOf[T int64 | uint64](v T) uint64 {
	if isSigned[T]() {
		return absU(int64(v))
	}
	return uint64(v)
}

// gcdMag is the greatest common divisor of two magnitudes (0 for 0 and 0).
func gcdMag(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// gcdOne is gcd(a, b), or lcm(a, b) when lcm is set, with the overflow
// DuckDB raises.
func gcdOne[T int64 | uint64](lcm bool, a, b T) (T, error) {
	x, y := magnitudeOf(a), magnitudeOf(b)
	limit := uint64(maxOf[T]())
	typ := "i64"
	if !isSigned[T]() {
		typ = "u64"
	}
	name := "gcd"
	var r uint64
	if lcm {
		name = "lcm"
		if x != 0 && y != 0 {
			hi, lo := bits.Mul64(x/gcdMag(x, y), y)
			if hi != 0 {
				return 0, fmt.Errorf("%w: lcm(%d, %d) does not fit %s", errs.ErrOverflow, a, b, typ)
			}
			r = lo
		}
	} else {
		r = gcdMag(x, y)
	}
	if r > limit {
		return 0, fmt.Errorf("%w: %s(%d, %d) does not fit %s", errs.ErrOverflow, name, a, b, typ)
	}
	return T(r), nil
}

// IntGCD is gcd(a, b), or lcm(a, b) when lcm is set, over i64 or u64.
func IntGCD[T int64 | uint64](mem memory.Allocator, lcm bool, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	a, b := FixedOf[T](l), FixedOf[T](r)
	if a.IsScalar && b.IsScalar {
		v, err := gcdOne(lcm, a.Scalar, b.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[T](mem, n)
	valid := bufferBitmap(validity)
	for i := range dst {
		v, err := gcdOne(lcm, a.At(i), b.At(i))
		if err != nil && valid.Get(i) {
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = v
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// factorials are 0! … 20!, the factorials that fit an i64.
var factorials = func() [21]int64 {
	var t [21]int64
	t[0] = 1
	for k := 1; k < len(t); k++ {
		t[k] = t[k-1] * int64(k)
	}
	return t
}()

// factorialOne is n!, or the error DuckDB raises for a negative n, or an
// overflow above 20!.
func factorialOne(k int32) (int64, error) {
	switch {
	case k < 0:
		return 0, fmt.Errorf("%w: factorial of the negative number %d is undefined", errs.ErrInvalidArgument, k)
	case int(k) >= len(factorials):
		return 0, fmt.Errorf("%w: factorial(%d) does not fit i64 (20! is the largest that does)", errs.ErrOverflow, k)
	}
	return factorials[k], nil
}

// Factorial is factorial(n) of i32 values, as i64.
func Factorial(mem memory.Allocator, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[int32](x)
	if a.IsScalar {
		v, err := factorialOne(a.Scalar)
		if err != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[int64](mem, n)
	for i, k := range a.Vals {
		if uint32(k) < uint32(len(factorials)) {
			dst[i] = factorials[k]
			continue
		}
		if a.Valid.Get(i) {
			_, err := factorialOne(k)
			releaseAll(validity, values)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = 0
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// BitCount is bit_count(x) over integers: the number of set bits of x's
// two's complement at its width (bit_count(-1::i8) is 8), as i8.
func BitCount[T Integer](mem memory.Allocator, x datum.Datum, ret dtype.DType) datum.Datum {
	mask := ^uint64(0) >> (64 - bitWidth[T]())
	one := func(v T) int8 { return int8(bits.OnesCount64(uint64(v) & mask)) }
	return mapUnary(mem, x, ret, one, func(dst []int8, src []T) {
		for i, v := range src {
			dst[i] = int8(bits.OnesCount64(uint64(v) & mask))
		}
	})
}
