package substrait

import (
	"strings"
	"testing"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

func parseLiteral(t *testing.T, text string) scalar.Scalar {
	t.Helper()
	e, err := parse.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	b, err := expr.Bind(e, expr.ScopeOf(dtype.Struct(nil, false)))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	s, ok := b.Literal()
	if !ok {
		t.Fatalf("%s is not a literal but %s", text, b.Tree())
	}
	return s
}

// TestLiterals records the Substrait literal of a value of every type and
// checks that it reads back identical (dtype included, with the type hint
// the exporter would write where the Substrait type cannot say it all).
func TestLiterals(t *testing.T) {
	g := readGolden(t, "literals.txt")
	for i := range g.cases {
		c := &g.cases[i]
		s := parseLiteral(t, c.title)
		l, err := literalOf(s)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		p := l.ToProtoLiteral()
		c.got = compactJSON(t, p)
		d, err := literalType(p)
		if err != nil {
			t.Errorf("%s: literalType: %v", c.title, err)
			continue
		}
		if r, _ := defaultReading(s.DType()); !r.Equal(s.DType()) {
			c.got += "\nhint: " + s.DType().String()
			d = s.DType()
		}
		back, err := scalarOf(p, d)
		if err != nil {
			t.Errorf("%s: scalarOf: %v", c.title, err)
			continue
		}
		if !back.Identical(s) {
			t.Errorf("%s: reads back as %s", c.title, back.SQL())
		}
	}
	g.check(t)
}

// TestLiteralsImport records how Substrait literals other than the ones
// colexpr writes read, or why they do not.
func TestLiteralsImport(t *testing.T) {
	g := readGolden(t, "literals_import.txt")
	for i := range g.cases {
		c := &g.cases[i]
		var p pb.Expression_Literal
		if err := protojson.Unmarshal([]byte(strings.Join(c.input, "\n")), &p); err != nil {
			t.Fatalf("%s: %v", c.title, err)
		}
		d, err := literalType(&p)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		s, err := scalarOf(&p, d)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		c.got = s.SQL()
	}
	g.check(t)
}
