package scalar_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

var fuzzTargets = []string{
	"bool", "i8", "u64", "i64", "f16", "f32", "f64", "decimal(5,2)", "decimal(38,10)",
	"date", "time(s)", "time(ns)", "timestamp(s)", "timestamp(us)", "timestamp(ns, 'UTC')", "binary",
}

// FuzzCastFromText: casting any text to any parseable type never panics,
// and a value that parses prints to text that parses back to it.
func FuzzCastFromText(f *testing.F) {
	for i, s := range []string{"1", "-1.5e3", " NaN ", "1995-01-01 12:00:00.123+02:30", "12:00", "yes",
		"99999999999999999999999999999999999999999", "1e-999999999999999999", "2049.00000000000000000001", "-0001-02-29", "'"} {
		f.Add(s, uint8(i))
	}
	targets := make([]dtype.DType, len(fuzzTargets))
	for i, name := range fuzzTargets {
		targets[i] = mustType(f, name)
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		to := targets[int(which)%len(targets)]
		v, err := scalar.Cast(scalar.String(text), to)
		if err != nil || to.IsBinary() {
			return
		}
		printed, err := scalar.Cast(v, dtype.Utf8(false))
		if err != nil {
			t.Fatalf("Cast(%s, utf8): %v", v, err)
		}
		back, err := scalar.Cast(printed, to)
		if err != nil || !back.Identical(v) {
			t.Fatalf("%q → %s → %s → %s, %v", text, v, printed, back, err)
		}
	})
}

// FuzzParseNumber: ParseNumber never panics, and ValueText reads back.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-5", "0.05", ".5", "5.", "1e3", "18446744073709551616", "-0e0", "1e400", "00000000000000000000000000000000000000001.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := scalar.ParseNumber(text)
		if err != nil {
			return
		}
		back, err := scalar.ParseNumber(s.ValueText())
		if err != nil || !back.Identical(s) {
			t.Fatalf("%q → %s (%s) → %v, %v", text, s.ValueText(), s.DType(), back, err)
		}
		if got, err := readSQL(s.SQL()); err != nil || !got.Identical(s) {
			t.Fatalf("%q: SQL %s reads back as %v, %v", text, s.SQL(), got, err)
		}
	})
}
