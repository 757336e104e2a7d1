package substrait

import (
	"testing"

	"github.com/colexpr/colexpr/expr"
)

const benchSource = `CASE WHEN a > 0 AND s LIKE 'x%' THEN CAST(a AS i64) * 2 + b ELSE coalesce(b, 0) END > 10
	AND list_any(ls, e -> e.k = a) AND st.x IN (1, 2, 3)`

// BenchmarkExport measures Export of a mid-sized expression (about 40
// nodes) followed by protobuf encoding.
func BenchmarkExport(b *testing.B) {
	scope := expr.ScopeOf(goldenSchema)
	t := &testing.T{}
	bound := bindText(t, benchSource, scope)
	b.ReportAllocs()
	for b.Loop() {
		msg, err := Export(bound, scope)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Marshal(msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport measures decoding and importing the same expression.
func BenchmarkImport(b *testing.B) {
	scope := expr.ScopeOf(goldenSchema)
	bound := bindText(&testing.T{}, benchSource, scope)
	msg, err := Export(bound, scope)
	if err != nil {
		b.Fatal(err)
	}
	data, err := Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ImportJSON(data, scope); err != nil {
			b.Fatal(err)
		}
	}
}
