package substrait

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/scalar"
)

// TestShiftCompositions checks the imported shifts against Go's operators
// on the bits, for random values and every amount in [0, width).
func TestShiftCompositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		p     dtype.PType
		width int64
		val   func() int64
		ref   map[string]func(x, n int64) int64
	}{
		{dtype.I32, 32, func() int64 { return int64(int32(r.Uint32())) }, map[string]func(x, n int64) int64{
			"shift_left":           func(x, n int64) int64 { return int64(int32(x) << n) },
			"shift_right":          func(x, n int64) int64 { return int64(int32(x) >> n) },
			"shift_right_unsigned": func(x, n int64) int64 { return int64(int32(uint32(x) >> n)) },
		}},
		{dtype.I64, 64, func() int64 { return int64(r.Uint64()) }, map[string]func(x, n int64) int64{
			"shift_left":           func(x, n int64) int64 { return x << n },
			"shift_right":          func(x, n int64) int64 { return x >> n },
			"shift_right_unsigned": func(x, n int64) int64 { return int64(uint64(x) >> n) },
		}},
	} {
		for name, ref := range c.ref {
			spec := imports[extensions.ID{URN: urnArithmetic, Name: name}]
			for k := 0; k < 200; k++ {
				x, n := c.val(), int64(k)%c.width
				if k < 4 {
					x = []int64{0, -1, 1, -1 << (c.width - 1)}[k]
				}
				b, err := spec.build([]*expr.Bound{expr.NewLiteral(scalar.Int(c.p, x)), expr.NewLiteral(scalar.Int32(int32(n)))}, nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := eval.EvalConstant(mem, b)
				if err != nil {
					t.Fatalf("%s(%d, %d): %v", name, x, n, err)
				}
				if want := ref(x, n); got.Value() != want {
					t.Errorf("%s(%d::%s, %d) = %v, want %d", name, x, c.p, n, got.Value(), want)
				}
			}
		}
	}
}
