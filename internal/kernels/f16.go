package kernels

// IEEE 754 binary16 (f16) conversions with round to nearest, ties to even.
// (Arrow's float16 package truncates and flushes subnormals to zero, so it
// is not used for arithmetic.) Every f16 value is exact in float32 and
// float64.

import (
	"math"
	"sync"
)

// half is an f16 value as its bit pattern; the distinct type lets FixedOf
// convert scalars (kept as float64) correctly.
type half uint16

// f16ToF32 is the exact float32 value of h: the fields moved into place,
// with the exponent rebiased; a subnormal is renormalized by one exact
// float subtraction.
func f16ToF32(h half) float32 {
	const shiftedExp = 0x7c00 << 13
	o := uint32(h&0x7fff) << 13
	exp := o & shiftedExp
	o += (127 - 15) << 23
	switch exp {
	case shiftedExp: // Inf or NaN
		o += (128 - 16) << 23
	case 0: // zero or subnormal
		o += 1 << 23
		o = math.Float32bits(math.Float32frombits(o) - math.Float32frombits(113<<23))
	}
	return math.Float32frombits(o | uint32(h&0x8000)<<16)
}

// f16Table maps every f16 bit pattern to its float32 value: 256 KiB, built
// on first use, a few times faster than f16ToF32 in column loops.
var f16Table = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = f16ToF32(half(i))
	}
	return &t
})

// widenF16 converts a column of f16 values to float32.
func widenF16(dst []float32, src []half) {
	t := f16Table()
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = t[v]
	}
}

// f16ToF64 is the exact float64 value of h.
func f16ToF64(h half) float64 { return float64(f16ToF32(h)) }

// f16FromF32 rounds x to the nearest f16, ties to even, like f16FromF64
// but with float32 bit arithmetic: for a normal result, adding
// 0xfff plus the lowest kept bit rounds the 13 dropped bits to nearest
// even (a carry may step into the exponent, up to infinity); a subnormal
// result lets the float adder round, by adding a power of two whose
// exponent lines its units up with f16's.
func f16FromF32(x float32) half {
	const (
		f32Inf      = 255 << 23
		f16Overflow = (127 + 16) << 23 // 65536: everything from here is Inf
		denormMagic = ((127 - 15) + (23 - 10) + 1) << 23
	)
	f := math.Float32bits(x)
	sign := f & 0x80000000
	f ^= sign
	var o uint32
	switch {
	case f >= f16Overflow:
		o = 0x7c00
		if f > f32Inf {
			o = 0x7e00 | f>>13&0x3ff // NaN, quiet, top payload bits kept
		}
	case f < 113<<23: // the result is subnormal or zero
		o = math.Float32bits(math.Float32frombits(f)+math.Float32frombits(denormMagic)) - denormMagic
	default:
		odd := f >> 13 & 1
		f -= (127 - 15) << 23 // rebias the exponent
		f += 0xfff
		f += odd
		o = f >> 13
	}
	return half(o | sign>>16)
}

// f16FromF64 rounds x to the nearest f16, ties to even; magnitudes from
// 65520 up become infinities, NaN stays NaN (quiet, sign and top payload
// bits kept).
func f16FromF64(x float64) half {
	b := math.Float64bits(x)
	sign := half(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	if exp == 0x7ff {
		if mant == 0 {
			return sign | 0x7c00
		}
		return sign | 0x7e00 | half(mant>>42)&0x3ff
	}
	if exp == 0 {
		return sign // a float64 subnormal is far below f16's range
	}
	m := mant | 1<<52
	e := exp - 1023 + 15 // the f16 biased exponent
	if e >= 1 {
		r := roundShift(m, 42) // in [1024, 2048]
		if r == 2048 {
			r, e = 1024, e+1
		}
		if e >= 0x1f {
			return sign | 0x7c00
		}
		return sign | half(e)<<10 | half(r-1024)
	}
	// Subnormal in f16: units of 2^-24. A result of 1024 is the smallest
	// normal, whose encoding is the same number.
	return sign | half(roundShift(m, uint(42+1-e)))
}

// roundShift is m / 2^s rounded to nearest, ties to even.
func roundShift(m uint64, s uint) uint64 {
	if s == 0 {
		return m
	}
	if s > 63 {
		return 0 // m < 2^53 is below half of 2^s
	}
	q := m >> s
	rem := m & (1<<s - 1)
	half := uint64(1) << (s - 1)
	if rem > half || rem == half && q&1 == 1 {
		q++
	}
	return q
}
