package substrait

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/expr"
)

// FuzzImport feeds arbitrary bytes, read as JSON or protobuf, to Import:
// it must return an expression or an error, never panic. What imports must
// export again (or be refused as unsupported) and read back equal.
func FuzzImport(f *testing.F) {
	scope := expr.ScopeOf(testSchema)
	for seed := 0; seed < 40; seed++ {
		b := newGen(uint64(seed)).expr(nil, 3)
		msg, err := Export(b, scope)
		if err != nil {
			continue
		}
		bin, err := Marshal(msg)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bin)
		js, err := MarshalJSON(msg)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(js)
	}
	g := readGolden(f, "import.txt")
	for _, c := range g.cases {
		f.Add([]byte(strings.Join(c.input[1:], "\n")))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ImportJSON(data, scope)
		if err != nil {
			return
		}
		for _, n := range got {
			msg, err := Export(n.Expr, scope)
			if err != nil {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("re-export of %s: %v", n.Expr, err)
				}
				continue
			}
			back, err := Import(msg, scope)
			if err != nil {
				t.Fatalf("re-import of %s: %v", n.Expr, err)
			}
			if !back[0].Expr.Equal(normalize(n.Expr)) {
				t.Fatalf("re-import of %s gave %s", n.Expr, back[0].Expr)
			}
		}
	})
}
