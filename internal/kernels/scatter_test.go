package kernels

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/cputime"
)

// arrowJSON is an array of Arrow type t from JSON rows.
func arrowJSON(t *testing.T, mem memory.Allocator, typ arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, typ, strings.NewReader(js))
	if err != nil {
		t.Fatalf("bad test JSON %s for %s: %v", js, typ, err)
	}
	return arr
}

// TestScatter merges sources of every form (all rows, all rows from one
// row, a subset one row each, a subset of a full-length array, a subset
// from one row) for every width Scatter handles: later sources overwrite
// earlier ones, null source rows make null rows, rows no source is for are
// null, a sliced source is read at its offset, and no memory is left.
func TestScatter(t *testing.T) {
	for _, c := range []struct {
		typ   arrow.DataType
		quote bool // the JSON values are strings
	}{
		{arrow.PrimitiveTypes.Int8, false},
		{arrow.PrimitiveTypes.Uint16, false},
		{arrow.PrimitiveTypes.Int32, false},
		{arrow.PrimitiveTypes.Float64, false},
		{&arrow.Decimal128Type{Precision: 20, Scale: 0}, true},
		{&arrow.Decimal256Type{Precision: 40, Scale: 0}, true},
	} {
		t.Run(c.typ.String(), func(t *testing.T) {
			if !Scatterable(c.typ) {
				t.Fatalf("Scatterable(%s) is false", c.typ)
			}
			// js writes the rows as JSON, null for -1.
			js := func(vs ...int) string {
				parts := make([]string, len(vs))
				for i, v := range vs {
					switch {
					case v < 0:
						parts[i] = "null"
					case c.quote:
						parts[i] = fmt.Sprintf("%q", fmt.Sprint(v))
					default:
						parts[i] = fmt.Sprint(v)
					}
				}
				return "[" + strings.Join(parts, ", ") + "]"
			}
			mem := checkedMem(t)
			arr := func(vs ...int) arrow.Array { return arrowJSON(t, mem, c.typ, js(vs...)) }

			whole := arr(99, 1, -1, 3, 4, 5, 6)
			defer whole.Release()
			sliced := array.NewSlice(whole, 1, 7) // [1, null, 3, 4, 5, 6]
			defer sliced.Release()
			subset, full, one, lone := arr(10, -1), arr(0, 0, 20, 0, 0, -1), arr(30), arr(9)
			defer subset.Release()
			defer full.Release()
			defer one.Release()
			defer lone.Release()

			for _, sc := range []struct {
				name string
				n    int
				srcs []ScatterSrc
				want []int
			}{
				{"all forms", 6, []ScatterSrc{
					{Arr: sliced},
					{Arr: subset, Rows: []int32{1, 4}},
					{Arr: full, Rows: []int32{2, 5}, Full: true},
					{Arr: one, Rows: []int32{3}, One: true},
				}, []int{1, 10, 20, 30, -1, -1}},
				{"uncovered rows", 5, []ScatterSrc{
					{Arr: subset, Rows: []int32{0, 3}},
					{Arr: one, Rows: []int32{2}, One: true},
				}, []int{10, -1, 30, -1, -1}},
				{"one row for all", 3, []ScatterSrc{{Arr: lone, One: true}}, []int{9, 9, 9}},
				{"no nulls", 2, []ScatterSrc{{Arr: sliced, Rows: []int32{0, 1}, Full: true}, {Arr: one, Rows: []int32{1}, One: true}}, []int{1, 30}},
			} {
				got, err := Scatter(mem, sc.n, c.typ, sc.srcs)
				if err != nil {
					t.Fatalf("%s: %v", sc.name, err)
				}
				want := arr(sc.want...)
				if !array.Equal(got, want) {
					t.Errorf("%s: Scatter = %s, want %s", sc.name, got, want)
				}
				if slices.Contains(sc.want, -1) != (got.NullN() > 0) || got.NullN() > 0 && got.Data().Buffers()[0] == nil {
					t.Errorf("%s: %d nulls, validity buffer %v", sc.name, got.NullN(), got.Data().Buffers()[0])
				}
				got.Release()
				want.Release()
			}
		})
	}
}

// TestScatterEach checks that ScatterSrc.Each visits the rows Scatter
// writes, with the source row each reads.
func TestScatterEach(t *testing.T) {
	type visit struct{ r, i int }
	for _, c := range []struct {
		src  ScatterSrc
		n    int
		want []visit
	}{
		{ScatterSrc{}, 3, []visit{{0, 0}, {1, 1}, {2, 2}}},
		{ScatterSrc{One: true}, 2, []visit{{0, 0}, {1, 0}}},
		{ScatterSrc{Rows: []int32{1, 4}}, 5, []visit{{1, 0}, {4, 1}}},
		{ScatterSrc{Rows: []int32{1, 4}, Full: true}, 5, []visit{{1, 1}, {4, 4}}},
		{ScatterSrc{Rows: []int32{1, 4}, One: true}, 5, []visit{{1, 0}, {4, 0}}},
	} {
		var got []visit
		c.src.Each(c.n, func(r, i int) { got = append(got, visit{r, i}) })
		if !slices.Equal(got, c.want) {
			t.Errorf("Each(%+v) visits %v, want %v", c.src, got, c.want)
		}
	}
}

// TestScatterTypes: Scatter takes fixed-width types of whole bytes of 1 to
// 32 bytes and no others.
func TestScatterTypes(t *testing.T) {
	for _, c := range []struct {
		typ  arrow.DataType
		want bool
	}{
		{arrow.PrimitiveTypes.Int64, true},
		{arrow.FixedWidthTypes.Date32, true},
		{arrow.FixedWidthTypes.Timestamp_us, true},
		{arrow.FixedWidthTypes.Float16, true},
		{arrow.FixedWidthTypes.Boolean, false},
		{arrow.Null, false},
		{arrow.BinaryTypes.String, false},
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), false},
	} {
		if got := Scatterable(c.typ); got != c.want {
			t.Errorf("Scatterable(%s) = %v, want %v", c.typ, got, c.want)
		}
	}
	mem := checkedMem(t)
	odd := &arrow.FixedSizeBinaryType{ByteWidth: 3}
	if _, err := Scatter(mem, 1, odd, nil); err == nil || err.Error() != "cannot merge values of Arrow type fixed_size_binary[3]" {
		t.Errorf("Scatter of %s: error %v", odd, err)
	}
	if _, err := Scatter(mem, 1, arrow.BinaryTypes.String, nil); err == nil {
		t.Error("Scatter of utf8: no error")
	}
}

// BenchmarkScatter: the merge of a CASE or coalesce over 2^20 i64 rows:
// the first source for every row (one in 16 null), the second, one row,
// for every 16th row.
func BenchmarkScatter(b *testing.B) {
	const n = 1 << 20
	mem := memory.NewGoAllocator()
	bld := array.NewInt64Builder(mem)
	for i := range n {
		if i%16 == 15 {
			bld.AppendNull()
		} else {
			bld.Append(int64(i))
		}
	}
	all := bld.NewArray()
	defer all.Release()
	bld.Append(7)
	one := bld.NewArray()
	defer one.Release()
	bld.Release()
	rows := make([]int32, 0, n/16)
	for r := 15; r < n; r += 16 {
		rows = append(rows, int32(r))
	}
	srcs := []ScatterSrc{{Arr: all, Full: true}, {Arr: one, Rows: rows, One: true}}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		out, err := Scatter(mem, n, arrow.PrimitiveTypes.Int64, srcs)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	reportPerValue(b, n, cputime.Process()-start)
}
