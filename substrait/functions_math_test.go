package substrait

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
)

// TestMathRoundTrip exports each numeric function that Substrait's
// standard extensions have, checks the message with substrait-go and reads
// it back to the same tree.
func TestMathRoundTrip(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	for _, src := range []string{
		"floor(f)", "ceil(g)", "sqrt(f)", "exp(f)", "ln(f)", "log10(f)", "log2(f)", "power(f, f)",
		"greatest(a, c, 3)", "least(s, 'x')", "a & c", "a | 1", "xor(b, b)", "~a",
	} {
		if err := roundTrip(t, bindText(t, src, scope), scope); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestMathRefusals checks the errors for the numeric functions Substrait
// has no function for, or one with other semantics.
func TestMathRefusals(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	for src, want := range map[string]string{
		"round(f, 1)": "rounds the exact value",
		"trunc(d)":    "rounds the exact value",
		"sign(a)":     "returns i8",
		"a << 1":      "leave overflow and out-of-range shifts unspecified",
		"cbrt(f)":     "cbrt has no Substrait form",
		"pi()":        "pi has no Substrait form",
		"floor(d)":    "has no signature",
		"greatest(a)": "has no signature",
		"log(2.0, f)": "log has no Substrait form",
	} {
		_, err := Export(bindText(t, src, scope), scope)
		if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrUnsupported saying %q", src, err, want)
		}
	}
}
