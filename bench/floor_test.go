package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestArrayBytes checks the bytes a floor reads for each layout, over
// sliced arrays: values only without nulls, the bitmap's bytes covering
// the slice, a list's offsets and the child rows they cover.
func TestArrayBytes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fromJSON := func(dt arrow.DataType, js string) arrow.Array {
		a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, c := range []struct {
		name      string
		dt        arrow.DataType
		js        string
		off, n    int64
		wantBytes int
	}{
		{"u32 no nulls", arrow.PrimitiveTypes.Uint32, `[1, 2, 3, 4, 5]`, 1, 3, 12},
		{"i64 with nulls", arrow.PrimitiveTypes.Int64, `[1, null, 3, 4, 5, 6, 7, 8, 9, 10]`, 0, 10, 2 + 80},
		{"i64 nulls outside the slice", arrow.PrimitiveTypes.Int64, `[1, null, 3, 4]`, 2, 2, 16},
		// Bits 7…16 span bytes 0…2.
		{"bool", arrow.FixedWidthTypes.Boolean, `[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]`, 7, 10, 3},
		{"list", arrow.ListOf(arrow.PrimitiveTypes.Uint32), `[[1], [2, 3], [4, 5, 6], [7]]`, 1, 2, 3*4 + 5*4},
		{"utf8", arrow.BinaryTypes.String, `["a", "bc", "def"]`, 1, 2, 3*4 + 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			full := fromJSON(c.dt, c.js)
			defer full.Release()
			arr := array.NewSlice(full, c.off, c.off+c.n)
			defer arr.Release()
			if got := sumBytes(arrayBytes(arr)); got != c.wantBytes {
				t.Errorf("%d bytes, want %d", got, c.wantBytes)
			}
		})
	}
	if got := sumWords([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 5, 6}); got != 1+2+3+4+5+6 {
		t.Errorf("sumWords = %d, want 21", got)
	}
}

// TestTargetsReport checks the targets table on made-up results: a kernel
// workload within and one beyond 1.5× its floor, ratios to a peer met and
// missed, an absolute time, and targets against row-by-row engines, one
// standing and one giving way to the floor.
func TestTargetsReport(t *testing.T) {
	res := func(engine string, d time.Duration) *Result {
		return &Result{Engine: engine, Samples: []Sample{{PerOp: d}}}
	}
	add := &Workload{Name: NameAdd, Kind: FixedWidth, Impls: []Impl{{Engine: Colexpr}, {Engine: ArrowCompute}}, Floor: &Impl{Engine: Floor}}
	cmp := &Workload{Name: NameCompare, Kind: FixedWidth, Impls: []Impl{{Engine: Colexpr}, {Engine: ArrowCompute}}, Floor: &Impl{Engine: Floor}}
	opt := &Workload{Name: NameOrChain, Kind: Optimizer, Impls: []Impl{{Engine: Colexpr}, {Engine: CelGo}}}
	like := &Workload{Name: NameLike, Kind: Scan, Impls: []Impl{{Engine: Colexpr}, {Engine: CelGo}, {Engine: ExprLang}}, Floor: &Impl{Engine: Floor}}
	rs := []*WorkloadResult{
		{Workload: add, Results: []*Result{res(Colexpr, 14*time.Microsecond), res(ArrowCompute, 300*time.Microsecond)}, Floor: res(Floor, 10*time.Microsecond)},
		{Workload: cmp, Results: []*Result{res(Colexpr, 500*time.Microsecond), res(ArrowCompute, 450*time.Microsecond)}, Floor: res(Floor, 300*time.Microsecond)},
		{Workload: opt, Results: []*Result{res(Colexpr, 19*time.Microsecond), res(CelGo, 5*time.Millisecond)}},
		{Workload: like, Results: []*Result{res(Colexpr, 2500*time.Microsecond), res(CelGo, 150*time.Millisecond), res(ExprLang, 60*time.Millisecond)},
			Floor: res(Floor, 2*time.Millisecond)},
	}
	var b bytes.Buffer
	WriteTargets(&b, rs)
	got := b.String()
	for _, want := range []string{
		"| checked add u32 + u32 | colexpr ÷ floor ≤ 1.50× | 1.40× | yes |",
		"| checked add u32 + u32 | arrow-go compute ÷ colexpr ≥ 20.0× | 21.4× | yes |",
		"| i64 < scalar | colexpr ÷ floor ≤ 1.50× | 1.67× | **no** |",
		"| i64 < scalar | arrow-go compute ÷ colexpr ≥ 1.10× | 0.90× | **no** |",
		"| optimize or-chain of 200 | colexpr ≤ 20 µs | 19 µs | yes |",
		"| l_comment LIKE 'fur%' | colexpr ÷ floor ≤ 1.50× | 1.25× | yes |",
		"| l_comment LIKE 'fur%' | cel-go ÷ colexpr ≥ 50.0× | 60.0× | yes |",
		"| l_comment LIKE 'fur%' | expr-lang ÷ colexpr ≥ 50.0× | 24.0× | floor instead: expr-lang takes 30.0× its floor |",
		"5 of 7 targets met.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "exprs") {
		t.Errorf("a target for a peer the workload does not run:\n%s", got)
	}
}
