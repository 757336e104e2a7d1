package optimize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/optimize"
)

func BenchmarkTmpOrNoIn(b *testing.B) {
	terms := make([]string, 200)
	for i := range terms {
		terms[i] = fmt.Sprintf("$.x = %d", i)
	}
	t := dtype.Struct([]dtype.Field{{Name: "x", Type: dtype.Primitive(dtype.I32, false)}}, false)
	bound := bindAgainst(b, strings.Join(terms, " OR "), t)
	for _, dis := range [][]string{{"binary/or_eq_to_in"}, {"binary/*", "fold/*", "null/*", "cast/*"}} {
		b.Run(strings.Join(dis, ","), func(b *testing.B) {
			o := optimize.New()
			o.Disable(dis...)
			loop(b, 999, func() { o.Optimize(bound) })
		})
	}
}
