package scalar_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

const propertyRounds = 3000

// TestPropertySQLRoundTrip: the reference reader of the documented grammar
// reads SQL() back to an identical scalar, for random scalars of random
// dtypes; Identical is reflexive and Hash agrees with it.
func TestPropertySQLRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range propertyRounds {
		s := randScalar(r, randDType(r, 0))
		text := s.SQL()
		back, err := readSQL(text)
		if err != nil {
			t.Errorf("%s (%s): reading back: %v", text, s.DType(), err)
			continue
		}
		if !back.Identical(s) {
			t.Errorf("%s (%s) read back as %s (%s)", text, s.DType(), back.SQL(), back.DType())
		}
		if back.Hash() != s.Hash() {
			t.Errorf("%s: identical scalars with different hashes", text)
		}
		if !s.Identical(s) {
			t.Errorf("%s: not identical to itself", text)
		}
		if s.String() != text {
			t.Errorf("String() = %q, SQL() = %q", s.String(), text)
		}
		if !s.IsNull() && !strings.HasPrefix(text, s.ValueText()) && !s.DType().IsFloat() && !s.DType().IsDecimal() {
			t.Errorf("SQL %q does not start with ValueText %q", text, s.ValueText())
		}
	}
}

// TestPropertyTextCastRoundTrip: Cast(Cast(x, utf8), type of x) is x for
// every non-nested value with a text form.
func TestPropertyTextCastRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	utf8 := dtype.Utf8(false)
	for range propertyRounds {
		typ := randDType(r, 3)
		if typ.IsStruct() || typ.IsList() || typ.IsNull() {
			continue
		}
		s := randScalar(r, typ)
		text, err := scalar.Cast(s, utf8)
		if err != nil {
			if typ.IsBinary() { // bytes that are not UTF-8
				continue
			}
			t.Errorf("Cast(%s, utf8): %v", s, err)
			continue
		}
		back, err := scalar.Cast(text, typ)
		if err != nil {
			t.Errorf("Cast(%s, %s): %v (from %s)", text, typ, err, s)
			continue
		}
		if !back.Identical(s) {
			t.Errorf("%s → %s → %s", s, text, back)
		}
	}
}

// TestPropertyParseNumberRoundTrip: ParseNumber(ValueText(x)) is x for
// every x that ParseNumber produces.
func TestPropertyParseNumberRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	for range 20 * propertyRounds {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		intDigits := r.IntN(42)
		b.WriteString(digits(intDigits))
		if r.IntN(2) == 0 || intDigits == 0 {
			b.WriteByte('.')
			n := r.IntN(42)
			if intDigits == 0 && n == 0 {
				n = 1
			}
			b.WriteString(digits(n))
		}
		if r.IntN(4) == 0 {
			b.WriteString([]string{"e", "E", "e+", "e-"}[r.IntN(4)])
			b.WriteString(digits(1 + r.IntN(3)))
		}
		text := b.String()
		s, err := scalar.ParseNumber(text)
		if err != nil {
			continue // more than 38 integer digits, or f64 overflow
		}
		back, err := scalar.ParseNumber(s.ValueText())
		if err != nil {
			t.Errorf("%s → %s (%s): %v", text, s.ValueText(), s.DType(), err)
			continue
		}
		if !back.Identical(s) {
			t.Errorf("%s → %s (%s) → %s (%s)", text, s.ValueText(), s.DType(), back.ValueText(), back.DType())
		}
	}
}

// TestPropertyArrowRoundTrip: MakeArray then FromArray gives the scalar
// back in every row, also through a slice, a builder and Arrow scalars; no
// memory is left allocated.
func TestPropertyArrowRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(7, 8))
	for range propertyRounds / 3 {
		typ := randDType(r, 0)
		s := randScalar(r, typ)
		n := r.IntN(70)
		arr, err := scalar.MakeArray(mem, s, n)
		if err != nil {
			t.Fatalf("MakeArray(%s, %d): %v", s, n, err)
		}
		if arr.Len() != n {
			t.Errorf("MakeArray(%s, %d) has %d rows", s, n, arr.Len())
		}
		for i := 0; i < n; i++ {
			got, err := scalar.FromArray(arr, i, typ)
			if err != nil {
				t.Fatalf("FromArray(%s, %d): %v", s, i, err)
			}
			if !got.Identical(s) {
				t.Fatalf("row %d of MakeArray(%s) is %s", i, s, got)
			}
		}
		if n > 2 {
			sl := array.NewSlice(arr, 1, int64(n-1))
			got, err := scalar.FromArray(sl, n-3, typ)
			if err != nil || !got.Identical(s) {
				t.Errorf("slice row of MakeArray(%s): %s, %v", s, got, err)
			}
			sl.Release()
		}
		arr.Release()

		b := array.NewBuilder(mem, dtype.ToArrow(typ))
		other := randScalar(r, typ)
		for _, v := range []scalar.Scalar{other, s} {
			if err := scalar.Append(b, v); err != nil {
				t.Fatalf("Append(%s): %v", v, err)
			}
		}
		built := b.NewArray()
		b.Release()
		for i, want := range []scalar.Scalar{other, s} {
			got, err := scalar.FromArray(built, i, typ)
			if err != nil || !got.Identical(want) {
				t.Errorf("built row %d: %s, %v, want %s", i, got, err, want)
			}
		}
		built.Release()

		as, err := scalar.ToArrowScalar(s)
		if err != nil {
			t.Fatalf("ToArrowScalar(%s): %v", s, err)
		}
		back, err := scalar.FromArrowScalar(as, typ)
		if err != nil || !back.Identical(s) {
			t.Errorf("Arrow scalar round trip of %s: %s, %v", s, back, err)
		}
	}
}

// TestPropertyCompare: Compare is reflexive on identical values, antisymmetric,
// and agrees with Identical on non-float values.
func TestPropertyCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range propertyRounds {
		typ := randDType(r, 1).AsNonNullable()
		if typ.IsNull() {
			continue
		}
		a, b := randScalar(r, typ), randScalar(r, typ)
		c, err := scalar.Compare(a, a)
		if err != nil || c != 0 {
			t.Errorf("Compare(%s, itself) = %d, %v", a, c, err)
		}
		ab, err1 := scalar.Compare(a, b)
		ba, err2 := scalar.Compare(b, a)
		if err1 != nil || err2 != nil || ab != -ba {
			t.Errorf("Compare(%s, %s) = %d, %v; reversed %d, %v", a, b, ab, err1, ba, err2)
		}
		if !strings.Contains(typ.String(), "f") && (ab == 0) != a.Identical(b) {
			t.Errorf("Compare(%s, %s) = %d but Identical = %v", a, b, ab, a.Identical(b))
		}
	}
}
