package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// TestListTransformLayouts evaluates list_transform(xs, x -> x * 2) over
// random list arrays in every layout flatten tells apart — null rows with
// and without elements, every slice (so the rows' first element is the
// child's first or not, and validity starts mid-byte) — and checks each
// row against the input's own elements. A list whose null rows are empty
// shares its offsets and validity with the result; the others are copied.
func TestListTransformLayouts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mustBind(t, lambda(fn.ListTransform, expr.RootExpr(), "x", expr.Mul(x, expr.Lit(int32(2)))), mustType(t, "list<i32?>?"))
	r := rand.New(rand.NewPCG(17, 3))
	for trial := range 60 {
		n := 1 + r.IntN(40)
		nullsHoldElements := trial%3 == 0
		offs := []int32{0}
		valid := make([]bool, n)
		var vals []string
		for i := range n {
			valid[i] = r.IntN(5) != 0
			k := r.IntN(4)
			if !valid[i] && !nullsHoldElements {
				k = 0
			}
			for range k {
				vals = append(vals, fmt.Sprint(r.IntN(100)-50))
			}
			offs = append(offs, offs[i]+int32(k))
		}
		full := listArray(t, mem, "i32?", "["+strings.Join(vals, ",")+"]", offs, valid)
		for i := 0; i <= n; i += 1 + r.IntN(3) {
			for j := i; j <= n; j += 1 + r.IntN(3) {
				xs := array.NewSlice(full, int64(i), int64(j))
				got, err := Eval(mem, b, xs)
				if err != nil {
					t.Fatalf("trial %d [%d:%d]: %v", trial, i, j, err)
				}
				if want, s := doubled(xs.(*array.List)), jsonOf(t, got); s != want {
					t.Errorf("trial %d [%d:%d] of offsets %v valid %v: got %s, want %s", trial, i, j, offs, valid, s, want)
				}
				got.Release()
				xs.Release()
			}
		}
		full.Release()
	}
}

// doubled is the JSON of xs with every element doubled, read row by row
// through arrow-go.
func doubled(xs *array.List) string {
	vals := xs.ListValues().(*array.Int32)
	var b strings.Builder
	b.WriteByte('[')
	for i := range xs.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		if xs.IsNull(i) {
			b.WriteString("null")
			continue
		}
		s, e := xs.ValueOffsets(i)
		b.WriteByte('[')
		for j := s; j < e; j++ {
			if j > s {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, 2*vals.Value(int(j)))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

// TestListTransformBadOffsets: offsets that go down are refused with the
// row named, before any element is read, wherever the row falls.
func TestListTransformBadOffsets(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := mustBind(t, lambda(fn.ListTransform, expr.RootExpr(), "x", expr.Mul(x, expr.Lit(int32(2)))), mustType(t, "list<i32?>?"))
	for _, c := range []struct {
		name  string
		offs  []int32
		valid []bool
		want  string
	}{
		{"valid row goes down", []int32{0, 3, 1, 4}, []bool{true, true, true}, "row 1 has offsets 3 to 1"},
		{"null row goes down", []int32{0, 3, 1, 4}, []bool{true, false, true}, "row 1 has offsets 3 to 1"},
		{"wraps past int32", []int32{0, 2, -2147483646, 4}, []bool{true, true, true}, "row 1 has offsets 2 to -2147483646"},
	} {
		t.Run(c.name, func(t *testing.T) {
			xs := listArray(t, mem, "i32?", `[1, 2, 3, 4]`, c.offs, c.valid)
			defer xs.Release()
			got, err := Eval(mem, b, xs)
			if err == nil {
				got.Release()
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}
