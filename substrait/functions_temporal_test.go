package substrait

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
)

// TestTemporalRefusals checks the errors for the date and time functions,
// which Substrait has with other semantics or not at all.
func TestTemporalRefusals(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	for src, want := range map[string]string{
		"year(dt)":                         "takes the component as an enum argument",
		"date_part('month', ts)":           "takes the component as an enum argument",
		"date_trunc('month', dt)":          "round to multiples from an origin",
		"date_diff('day', dt, dt)":         "date_diff has no Substrait form",
		"last_day(tz)":                     "last_day has no Substrait form",
		"make_date(b, b, b)":               "make_date has no Substrait form",
		"strftime(dt, '%Y')":               "leave the format's specifiers to the consumer",
		"strptime(s, '%Y')":                "leave the format's specifiers to the consumer",
		"make_timestamp(b, b, b, b, b, f)": "make_timestamp has no Substrait form",
		"dt + 1":                           "has no signature",
	} {
		_, err := Export(bindText(t, src, scope), scope)
		if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrUnsupported saying %q", src, err, want)
		}
	}
}
