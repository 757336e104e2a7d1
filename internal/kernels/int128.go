package kernels

// 128-bit integer arithmetic for decimals, with overflow detection.
// decimal128.Num (two's complement, 38 digits of precision at most) is the
// signed value; u128 is a magnitude.

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

func (a u128) sub(b u128) u128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	return u128{a.hi - b.hi - c, lo}
}

func (a u128) add(b u128) (u128, bool) {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c2 := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}, c2 != 0
}

// mul is a*b and whether it overflowed 128 bits.
func (a u128) mul(b u128) (u128, bool) {
	if a.hi != 0 && b.hi != 0 {
		return u128{}, true
	}
	h1, lo := bits.Mul64(a.lo, b.lo)
	h2, m2 := bits.Mul64(a.hi, b.lo)
	h3, m3 := bits.Mul64(a.lo, b.hi)
	hi, c1 := bits.Add64(h1, m2, 0)
	hi, c2 := bits.Add64(hi, m3, 0)
	return u128{hi, lo}, h2|h3|c1|c2 != 0
}

// divmod is a / b and a % b (b nonzero).
func (a u128) divmod(b u128) (q, r u128) {
	if b.hi == 0 {
		// Two steps of 128/64 division.
		qh := a.hi / b.lo
		rh := a.hi % b.lo
		ql, rl := bits.Div64(rh, a.lo, b.lo)
		return u128{qh, ql}, u128{0, rl}
	}
	if a.less(b) {
		return u128{}, a
	}
	// The quotient fits 64 bits. Estimate it from the top 64 bits of b
	// normalized (Hacker's Delight, divlu), then correct by at most one.
	n := uint(bits.LeadingZeros64(b.hi))
	bn := b.shl(n).hi
	an := a.shr(1)
	est, _ := bits.Div64(an.hi, an.lo, bn)
	est >>= 63 - n
	if est != 0 {
		est--
	}
	p, _ := b.mul(u128{0, est})
	r = a.sub(p)
	if !r.less(b) {
		est++
		r = r.sub(b)
	}
	return u128{0, est}, r
}

func (a u128) shl(n uint) u128 {
	if n == 0 {
		return a
	}
	if n >= 64 {
		return u128{a.lo << (n - 64), 0}
	}
	return u128{a.hi<<n | a.lo>>(64-n), a.lo << n}
}

func (a u128) shr(n uint) u128 {
	if n == 0 {
		return a
	}
	if n >= 64 {
		return u128{0, a.hi >> (n - 64)}
	}
	return u128{a.hi >> n, a.lo>>n | a.hi<<(64-n)}
}

// magnitude splits v into its sign and absolute value.
func magnitude(v decimal128.Num) (neg bool, m u128) {
	hi, lo := v.HighBits(), v.LowBits()
	if hi < 0 {
		lo, b := bits.Sub64(0, lo, 0)
		return true, u128{uint64(-hi) - b, lo}
	}
	return false, u128{uint64(hi), lo}
}

// signed is the Num with sign neg and magnitude m; ok is false when it does
// not fit 128-bit two's complement.
func signed(neg bool, m u128) (decimal128.Num, bool) {
	if m.hi>>63 != 0 {
		if neg && m.hi == 1<<63 && m.lo == 0 {
			return decimal128.New(-1<<63, 0), true
		}
		return decimal128.Num{}, false
	}
	if neg {
		lo, b := bits.Sub64(0, m.lo, 0)
		return decimal128.New(int64(-m.hi-b), lo), true
	}
	return decimal128.New(int64(m.hi), m.lo), true
}

// pow10 holds 10^0 … 10^38.
var pow10 = func() (t [39]u128) {
	t[0] = u128{0, 1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mul(u128{0, 10})
	}
	return t
}()

// decBounds holds ±(10^p - 1), the largest magnitudes of p digits.
var decBounds = func() (t [39][2]decimal128.Num) {
	for p := 1; p < len(t); p++ {
		m := pow10[p].sub(u128{0, 1})
		t[p][1], _ = signed(false, m)
		t[p][0], _ = signed(true, m)
	}
	return t
}()

// fitsPrecision reports whether |v| < 10^p (1 <= p <= 38).
func fitsPrecision(v decimal128.Num, p int) bool {
	b := &decBounds[p]
	return decCmp(v, b[0]) >= 0 && decCmp(v, b[1]) <= 0
}

// decAdd is a + b; ok is false on 128-bit overflow.
func decAdd(a, b decimal128.Num) (decimal128.Num, bool) {
	lo, c := bits.Add64(a.LowBits(), b.LowBits(), 0)
	x, y := a.HighBits(), b.HighBits()
	hi := x + y + int64(c)
	// Signed overflow: both operands share a sign the result lacks (the
	// sign of a 128-bit value is the sign of its high word).
	return decimal128.New(hi, lo), (x^hi)&(y^hi) >= 0
}

// decNeg is -a; ok is false only for the smallest 128-bit value.
func decNeg(a decimal128.Num) (decimal128.Num, bool) {
	neg, m := magnitude(a)
	return signed(!neg, m)
}

// decSub is a - b; ok is false on 128-bit overflow.
func decSub(a, b decimal128.Num) (decimal128.Num, bool) {
	lo, c := bits.Sub64(a.LowBits(), b.LowBits(), 0)
	x, y := a.HighBits(), b.HighBits()
	hi := x - y - int64(c)
	// Signed overflow: the operands differ in sign and the result has the
	// subtrahend's.
	return decimal128.New(hi, lo), (x^y)&(x^hi) >= 0
}

// decMul is a * b; ok is false on 128-bit overflow.
func decMul(a, b decimal128.Num) (decimal128.Num, bool) {
	na, ma := magnitude(a)
	nb, mb := magnitude(b)
	m, of := ma.mul(mb)
	if of {
		return decimal128.Num{}, false
	}
	return signed(na != nb, m)
}

// decScaleUp is a * 10^k; ok is false on 128-bit overflow.
func decScaleUp(a decimal128.Num, k int) (decimal128.Num, bool) {
	if k == 0 {
		return a, true
	}
	neg, m := magnitude(a)
	m, of := m.mul(pow10[k])
	if of {
		return decimal128.Num{}, false
	}
	return signed(neg, m)
}

// decScaleDown is a / 10^k rounded half away from zero.
func decScaleDown(a decimal128.Num, k int) decimal128.Num {
	if k == 0 {
		return a
	}
	neg, m := magnitude(a)
	q, r := m.divmod(pow10[k])
	// Round up when 2r >= 10^k.
	if r2, _ := r.add(r); !r2.less(pow10[k]) {
		q, _ = q.add(u128{0, 1})
	}
	v, _ := signed(neg, q)
	return v
}

// decRem is a % b with the sign of a (b nonzero).
func decRem(a, b decimal128.Num) decimal128.Num {
	na, ma := magnitude(a)
	_, mb := magnitude(b)
	_, r := ma.divmod(mb)
	v, _ := signed(na, r)
	return v
}

// decCmp compares two 128-bit values: -1, 0 or +1.
func decCmp(a, b decimal128.Num) int {
	ah, bh := a.HighBits(), b.HighBits()
	switch {
	case ah < bh:
		return -1
	case ah > bh:
		return 1
	}
	al, bl := a.LowBits(), b.LowBits()
	switch {
	case al < bl:
		return -1
	case al > bl:
		return 1
	}
	return 0
}
