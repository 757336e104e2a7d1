package scalar

import (
	"math"
	"strconv"
)

// IEEE 754 binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction
// bits. Arrow's float16 package truncates and flushes subnormals, so the
// conversions here are written out with round-to-nearest-even.

const (
	f16SignBit = 0x8000
	f16ExpMask = 0x7c00
	f16Frac    = 0x03ff
	f16Max     = 65504 // the largest finite binary16
)

// f16FromFloat64 rounds x to the nearest binary16, ties to even. Values at
// or beyond 65520 in magnitude round to infinity. A NaN keeps its sign and
// the top 10 bits of its payload (it stays quiet if the payload is lost).
func f16FromFloat64(x float64) uint16 {
	bits := math.Float64bits(x)
	sign := uint16(bits>>48) & f16SignBit
	switch {
	case math.IsNaN(x):
		frac := uint16(bits>>42) & f16Frac
		if frac == 0 {
			frac = 0x200
		}
		return sign | f16ExpMask | frac
	case math.IsInf(x, 0):
		return sign | f16ExpMask
	}
	a := math.Abs(x)
	if a >= 65520 {
		return sign | f16ExpMask
	}
	if a < 0x1p-14 {
		// Subnormal (or zero): a multiple of 2^-24. The product is exact.
		m := math.RoundToEven(a * 0x1p24)
		return sign | uint16(m) // m == 1024 is the smallest normal, encoded the same way
	}
	frac, exp := math.Frexp(a) // a = frac × 2^exp, frac in [0.5, 1)
	e := exp - 1               // a = (2·frac) × 2^e with 2·frac in [1, 2)
	m := math.RoundToEven(frac * 2048)
	if m == 2048 {
		m = 1024
		e++
	}
	return sign | uint16(e+15)<<10 | (uint16(m) - 1024)
}

// f16ToFloat64 is the exact value of a binary16.
func f16ToFloat64(h uint16) float64 {
	neg := h&f16SignBit != 0
	exp := int(h&f16ExpMask) >> 10
	frac := uint64(h & f16Frac)
	var v float64
	switch exp {
	case 0:
		v = math.Ldexp(float64(frac), -24)
	case 0x1f:
		if frac == 0 {
			v = math.Inf(1)
		} else {
			// Quiet NaN with the payload in the top fraction bits.
			b := uint64(0x7ff0000000000000) | frac<<42
			if neg {
				b |= 1 << 63
			}
			return math.Float64frombits(b)
		}
	default:
		v = math.Ldexp(float64(1024+frac), exp-25)
	}
	if neg {
		return -v
	}
	return v
}

// f16Shortest is the shortest decimal, in strconv's 'e' form ("6.55e+04"),
// that reads back as the binary16 value x. x must be finite and a binary16
// value.
func f16Shortest(x float64) string {
	want := f16FromFloat64(x)
	for prec := 0; prec < 8; prec++ {
		s := strconv.FormatFloat(x, 'e', prec, 64)
		if h, ok := f16FromText(s); ok && h == want {
			return s
		}
	}
	return strconv.FormatFloat(x, 'e', -1, 64)
}

// f16FromText is the binary16 nearest to the decimal number in text (a
// valid strconv.ParseFloat input), ties to even, rounded once: when the
// float64 nearest to text is itself halfway between two binary16 values, the
// exact decimal decides the direction. ok is false when text does not parse.
func f16FromText(text string) (h uint16, ok bool) {
	y, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(y, 0) {
		return 0, false
	}
	h = f16FromFloat64(y)
	if math.IsNaN(y) || math.IsInf(y, 0) || !f16IsTie(y) {
		return h, true
	}
	// y is a tie. If text is exactly y, ties-to-even is right; otherwise
	// round toward text.
	d, okd := parseDec(text)
	if !okd {
		return h, true
	}
	exact, _ := parseDec(strconv.FormatFloat(y, 'e', 60, 64))
	c := decCmpAbs(d, exact)
	if c == 0 {
		return h, true
	}
	down := f16FromFloat64(math.Nextafter(y, 0))
	up := f16FromFloat64(math.Nextafter(y, math.Copysign(math.Inf(1), y)))
	if c < 0 {
		return down, true
	}
	return up, true
}

// f16IsTie reports whether the float64 y lies exactly halfway between two
// adjacent binary16 values.
func f16IsTie(y float64) bool {
	a := math.Abs(y)
	if a >= 65520 || a == 0 {
		return a == 65520
	}
	var scaled float64
	if a < 0x1p-14 {
		scaled = a * 0x1p24
	} else {
		frac, _ := math.Frexp(a)
		scaled = frac * 2048
	}
	return scaled-math.Floor(scaled) == 0.5
}
