package kernels

// IEEE 754 binary16 (f16) conversions with round to nearest, ties to even.
// (Arrow's float16 package truncates and flushes subnormals to zero, so it
// is not used for arithmetic.) Every f16 value is exact in float32 and
// float64.

import "math"

// half is an f16 value as its bit pattern; the distinct type lets FixedOf
// convert scalars (kept as float64) correctly.
type half uint16

// f16ToF32 is the exact float32 value of h.
func f16ToF32(h half) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0:
		v := float32(frac) * 0x1p-24
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// f16ToF64 is the exact float64 value of h.
func f16ToF64(h half) float64 { return float64(f16ToF32(h)) }

// f16FromF32 rounds x to f16.
func f16FromF32(x float32) half { return f16FromF64(float64(x)) }

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
