package kernels

// Logarithms as DuckDB's C library gives them. Its log and log2 are
// correctly rounded in nearly every case; Go's math.Log and math.Log2 are
// within an ulp, and gave another double for 2.5% (ln) and 5% (log2) of
// 3000 random doubles, log10 for 28%. Ln and Log2 here carry the last
// steps of the computation in double-double arithmetic and round once, and
// Log10 is fdlibm's formula over Ln, as the C library's log10 is: on the
// same doubles each then differed from DuckDB for 0.1%.
//
// The reduction and the polynomial are those of fdlibm's e_log.c (as in
// Go's math.Log): x = 2^k · (1+f) with 1+f in [√2/2, √2), s = f/(2+f),
// ln(1+f) = f - f²/2 + s·(f²/2 + R(s²)). The error of R and of s·(…) is a
// small fraction of an ulp of the result; f - f²/2 is the part that needs
// more than a double, and is computed exactly (f² by FMA, the difference
// by TwoSum). Products are converted explicitly so that Go never fuses
// them with a sum (which would change results between architectures).
//
// The coefficients and the log10 formula are Sun Microsystems' (fdlibm,
// 1993: "Permission to use, copy, modify, and distribute this software is
// freely granted, provided that this notice is preserved").

import "math"

// twoSum is a + b as the rounded sum and its exact error.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// reduceLog splits a finite x > 0 into 2^k · m with m in [√2/2, √2).
func reduceLog(x float64) (m float64, k int) {
	m, k = math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		k--
	}
	return m, k
}

// lnReduced is ln(m) for m in [√2/2, √2) as hi + lo, hi the rounded value.
func lnReduced(m float64) (hi, lo float64) {
	const (
		l1 = 6.666666666666735130e-01
		l2 = 3.999999999940941908e-01
		l3 = 2.857142874366239149e-01
		l4 = 2.222219843214978396e-01
		l5 = 1.818357216161805012e-01
		l6 = 1.531383769920937332e-01
		l7 = 1.479819860511658591e-01
	)
	f := m - 1
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	r := float64(s2*(l1+float64(s4*(l3+float64(s4*(l5+float64(s4*l7))))))) +
		float64(s4*(l2+float64(s4*(l4+float64(s4*l6)))))
	h := float64(f * f)
	hl := math.FMA(f, f, -h) // f² = h + hl exactly
	hf, hfl := 0.5*h, 0.5*hl
	a, ae := twoSum(f, -hf)
	rest := ae - hfl + float64(s*(hf+r))
	return twoSum(a, rest)
}

// Ln is the natural logarithm of x: NaN for x < 0 or NaN, -Inf for 0,
// +Inf for +Inf.
func Ln(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 32 trailing zero bits: k·ln2Hi is exact
		ln2Lo = 1.90821492927058770002e-10
	)
	if !(x > 0) || math.IsInf(x, 1) {
		return math.Log(x)
	}
	m, k := reduceLog(x)
	hi, lo := lnReduced(m)
	kf := float64(k)
	b, be := twoSum(float64(kf*ln2Hi), hi)
	return b + (be + (lo + float64(kf*ln2Lo)))
}

// Log2 is the base-2 logarithm of x: k + ln(m)/ln 2 in double-double,
// rounded once; special values as Ln.
func Log2(x float64) float64 {
	const (
		ivln2Hi = 1.4426950408889634     // 1/ln 2, rounded
		ivln2Lo = 2.0355273740931033e-17 // 1/ln 2 - ivln2Hi
	)
	if !(x > 0) || math.IsInf(x, 1) {
		return math.Log2(x)
	}
	m, k := reduceLog(x)
	if m == 1 {
		return float64(k) // exact powers of two
	}
	hi, lo := lnReduced(m)
	p := float64(hi * ivln2Hi)
	pl := math.FMA(hi, ivln2Hi, -p) + float64(hi*ivln2Lo) + float64(lo*ivln2Hi)
	s, se := twoSum(float64(k), p)
	return s + (se + pl)
}

// Log10 is the base-10 logarithm of x as fdlibm's e_log10.c (and so the C
// library DuckDB uses) computes it: x = 2^k · m with m in [1, 2) (in
// [0.5, 1) for k < 0, k one more), then k·log10(2)_lo + ln(m)/ln 10 +
// k·log10(2)_hi, each product rounded on its own; special values as Ln.
func Log10(x float64) float64 {
	const (
		ivln10   = 4.34294481903251816668e-01
		log102hi = 3.01029995663611771306e-01
		log102lo = 3.69423907715893078616e-13
	)
	if !(x > 0) || math.IsInf(x, 1) {
		return math.Log10(x)
	}
	k := 0
	if x < 0x1p-1022 { // subnormal: scale into the normal range
		k -= 54
		x *= 0x1p54
	}
	b := math.Float64bits(x)
	hx := int(b >> 32)
	k += hx>>20 - 1023
	i := 0
	if k < 0 {
		i = 1
	}
	hx = hx&0x000fffff | (0x3ff-i)<<20
	y := float64(k + i)
	m := math.Float64frombits(uint64(hx)<<32 | b&0xffffffff)
	z := float64(y*log102lo) + float64(ivln10*Ln(m))
	return z + float64(y*log102hi)
}
