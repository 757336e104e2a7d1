package substrait

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// TestDeepExpression round-trips a chain of 5 000 additions: some 15 000
// protobuf levels, more than protobuf's default decoding limit of 10 000,
// which Unmarshal raises.
func TestDeepExpression(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	b, err := expr.NewCall(fn.GetItem("b"), expr.NewRoot(goldenSchema))
	if err != nil {
		t.Fatal(err)
	}
	one := expr.NewLiteral(scalar.Int(dtype.I64, 1))
	for i := 0; i < 5000; i++ {
		if b, err = expr.NewCall(fn.Add, b, one); err != nil {
			t.Fatal(err)
		}
	}
	msg, err := Export(b, scope)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []func() ([]byte, error){func() ([]byte, error) { return Marshal(msg) }, func() ([]byte, error) { return MarshalJSON(msg) }} {
		data, err := enc()
		if err != nil {
			t.Fatal(err)
		}
		got, err := ImportJSON(data, scope)
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].Expr.Equal(b) {
			t.Fatal("the deep chain does not read back equal")
		}
	}
}
