package parse_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/parse"
)

// A TPC-H Q6-like filter with a few extra constructs.
const benchSrc = `dt >= DATE '1994-01-01' AND dt < DATE '1995-01-01' AND d BETWEEN 0.05 AND 0.07 ` +
	`AND a < 24 AND s NOT LIKE '%special%requests%' AND list_any(xs, x -> x > a) ` +
	`AND CASE WHEN b IS NULL THEN 0 ELSE b END IN (1, 2, 3)`

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchSrc)))
	for b.Loop() {
		if _, err := parse.Parse(benchSrc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseChain reads a + a + … + a with 10 000 terms.
func BenchmarkParseChain(b *testing.B) {
	src := "a" + strings.Repeat(" + a", 9999)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parse.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
