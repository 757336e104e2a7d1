package scalar

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// Every binary16 value decodes and encodes back to itself, and its
// shortest text reads back to it.
func TestF16Exhaustive(t *testing.T) {
	for h := 0; h <= 0xffff; h++ {
		x := f16ToFloat64(uint16(h))
		if got := f16FromFloat64(x); got != uint16(h) {
			t.Fatalf("f16 %#04x → %v → %#04x", h, x, got)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		s := f16Shortest(x)
		if got, ok := f16FromText(s); !ok || got != uint16(h) {
			t.Fatalf("f16 %#04x (%v): shortest %q reads as %#04x", h, x, s, got)
		}
	}
}

// f16FromFloat64 rounds to the nearest binary16, ties to even.
func TestF16Rounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	check := func(x float64) {
		h := f16FromFloat64(x)
		a := math.Abs(x)
		if a >= 65520 {
			if h&0x7fff != 0x7c00 {
				t.Fatalf("%v → %#04x, want infinity", x, h)
			}
			return
		}
		m := h & 0x7fff // the magnitude's code; neighbors are m-1 and m+1
		v := f16ToFloat64(m)
		for _, n := range []int{int(m) - 1, int(m) + 1} {
			if n < 0 || n > 0x7bff {
				continue
			}
			w := f16ToFloat64(uint16(n))
			d, dn := math.Abs(a-v), math.Abs(a-w)
			if dn < d || (dn == d && m&1 == 1) {
				t.Fatalf("%v → %#04x (%v), but %#04x (%v) is nearer or even", x, h, v, n, w)
			}
		}
	}
	for range 200000 {
		switch r.IntN(3) {
		case 0:
			check(r.Float64() * 70000)
		case 1:
			check(math.Ldexp(r.Float64(), -r.IntN(30)))
		default:
			// Exact ties: midpoints between adjacent values.
			m := uint16(r.IntN(0x7bff))
			check((f16ToFloat64(m) + f16ToFloat64(m+1)) / 2)
		}
	}
	for _, x := range []float64{0x1p-25, 0x1p-26, 3 * 0x1p-26, 65504, 65519.99, 2049, 2051} {
		check(x)
		check(-x)
	}
}

func TestF16FromTextTies(t *testing.T) {
	tests := []struct {
		text string
		want float64
	}{
		{"2049", 2048},
		{"2049.000000000000000000000000001", 2050},
		{"2048.999999999999999999999999999", 2048},
		{"2051", 2052},
		{"65519.99999999999999999999", 65504},
		{"0.1", 0.0999755859375},
		{"-0", math.Copysign(0, -1)},
	}
	for _, tc := range tests {
		h, ok := f16FromText(tc.text)
		if got := f16ToFloat64(h); !ok || got != tc.want || math.Signbit(got) != math.Signbit(tc.want) {
			t.Errorf("f16FromText(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if h, ok := f16FromText("65520.00000000000000000001"); !ok || h != 0x7c00 {
		t.Errorf("beyond the last tie: %#04x", h)
	}
}

// The calendar arithmetic agrees with the time package, and inverts.
func TestCivilDays(t *testing.T) {
	for z := int64(-800000); z <= 800000; z += 7 {
		y, m, d := civilFromDays(z)
		if back := daysFromCivil(y, m, d); back != z {
			t.Fatalf("day %d → %d-%d-%d → %d", z, y, m, d, back)
		}
		tm := time.Unix(z*86400, 0).UTC()
		if int64(tm.Year()) != y || int64(tm.Month()) != m || int64(tm.Day()) != d {
			t.Fatalf("day %d → %d-%d-%d, time says %s", z, y, m, d, tm.Format("2006-01-02"))
		}
	}
	for _, z := range []int64{math.MinInt32, math.MaxInt32, -1 << 50, 1 << 50} {
		y, m, d := civilFromDays(z)
		if back := daysFromCivil(y, m, d); back != z {
			t.Errorf("day %d → %d-%d-%d → %d", z, y, m, d, back)
		}
	}
}

func TestCheckedArithmetic(t *testing.T) {
	tests := []struct {
		a, b int64
		ok   bool
	}{
		{math.MaxInt64, 1, true},
		{math.MaxInt64, 2, false},
		{math.MinInt64, -1, false},
		{-1, math.MinInt64, false},
		{math.MinInt64, 1, true},
		{1 << 32, 1 << 31, false},
		{-(1 << 32), 1 << 31, true},
	}
	for _, tc := range tests {
		if _, ok := mulChecked(tc.a, tc.b); ok != tc.ok {
			t.Errorf("mulChecked(%d, %d) ok = %v", tc.a, tc.b, ok)
		}
	}
	if _, ok := addChecked(math.MaxInt64, 1); ok {
		t.Error("addChecked overflowed silently")
	}
	if v, ok := addChecked(math.MinInt64, 0); !ok || v != math.MinInt64 {
		t.Error("addChecked(min, 0)")
	}
}
