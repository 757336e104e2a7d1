package kernels

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// f16Reference is the value of h computed from its fields.
func f16Reference(h half) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10)&0x1f, float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// TestF16Exhaustive: every f16 widens exactly and rounds back to itself.
func TestF16Exhaustive(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half(b)
		want := f16Reference(h)
		got := f16ToF64(h)
		if math.IsNaN(want) {
			if !math.IsNaN(got) || f16FromF64(got)&0x7c00 != 0x7c00 || f16FromF64(got)&0x3ff == 0 {
				t.Fatalf("%#04x: NaN became %v / %#04x", b, got, f16FromF64(got))
			}
			continue
		}
		if got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("%#04x: widened to %v, want %v", b, got, want)
		}
		if back := f16FromF64(got); back != h {
			t.Fatalf("%#04x: rounded back to %#04x", b, back)
		}
		if tv := f16Table()[b]; math.Float32bits(tv) != math.Float32bits(float32(got)) && !math.IsNaN(got) {
			t.Fatalf("%#04x: table holds %v", b, tv)
		}
		if back := f16FromF32(float32(got)); back != h {
			t.Fatalf("%#04x: rounded back from float32 to %#04x", b, back)
		}
	}
}

// TestF16Rounding compares rounding with a search for the nearest f16
// (ties to the even one) on random and boundary values.
func TestF16Rounding(t *testing.T) {
	var finite []float64 // the nonnegative finite f16 values, ascending
	for b := 0; b <= 0x7bff; b++ {
		finite = append(finite, f16Reference(half(b)))
	}
	nearest := func(x float64) half {
		a := math.Abs(x)
		var h half
		switch {
		case a >= 65520:
			h = 0x7c00
		default:
			i := sort.SearchFloat64s(finite, a)
			switch {
			case i == len(finite):
				h = 0x7bff
			case finite[i] == a || i == 0:
				h = half(i)
			default:
				lo, hi := finite[i-1], finite[i]
				switch {
				case a-lo < hi-a:
					h = half(i - 1)
				case a-lo > hi-a:
					h = half(i)
				case (i-1)%2 == 0:
					h = half(i - 1)
				default:
					h = half(i)
				}
			}
		}
		if math.Signbit(x) {
			h |= 0x8000
		}
		return h
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var xs []float64
	for b := 0; b <= 0x7bff; b++ {
		v := finite[b]
		xs = append(xs, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)))
		if b < 0x7bff {
			mid := (v + finite[b+1]) / 2
			xs = append(xs, mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)))
		}
	}
	xs = append(xs, 65519.999, 65520, 1e300, 5e-324, 0x1p-25, 0x1p-26, 3*0x1p-26)
	for i := 0; i < 100000; i++ {
		xs = append(xs, math.Ldexp(rng.Float64(), rng.IntN(60)-35))
	}
	for _, x := range xs {
		for _, s := range []float64{1, -1} {
			if got, want := f16FromF64(s*x), nearest(s*x); got != want {
				t.Fatalf("f16(%v) = %#04x, want %#04x", s*x, got, want)
			}
		}
	}
	if h := f16FromF64(math.Inf(-1)); h != 0xfc00 {
		t.Errorf("-Inf gave %#04x", h)
	}
}

// TestF16FromF32 checks the float32 rounding against the float64 one on
// random bit patterns and on every f16 value and midpoint.
func TestF16FromF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	check := func(x float32) {
		got, want := f16FromF32(x), f16FromF64(float64(x))
		if got != want {
			t.Fatalf("f16FromF32(%v [%#08x]) = %#04x, f16FromF64 %#04x", x, math.Float32bits(x), got, want)
		}
	}
	for i := 0; i < 2000000; i++ {
		check(math.Float32frombits(rng.Uint32()))
	}
	for b := 0; b < 1<<16; b++ {
		v := f16ToF32(half(b))
		check(v)
		check(math.Nextafter32(v, 0))
		check(math.Nextafter32(v, float32(math.Inf(1))))
		if b&0x7fff < 0x7bff {
			next := f16ToF32(half(b + 1))
			mid := float32((float64(v) + float64(next)) / 2)
			check(mid)
			check(math.Nextafter32(mid, 0))
			check(math.Nextafter32(mid, float32(math.Inf(1))))
		}
	}
}
