package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// TestListElementGather is a table of list_element over fixed-width
// elements, each case run over plain and sliced arrays (runCases): empty
// lists, null lists, null indices, indices that miss (0, past the end,
// MinInt64) or count from the end, every element width the fast path
// instantiates, fixed-size lists, null elements (which leave the fast
// path), and columns of 70 and 130 rows so that a case spans several
// 64-row blocks.
func TestListElementGather(t *testing.T) {
	i64s := func(v int64) in { return lit(scalar.Int64(v)) }
	u32s := ty("list<u32>?")
	u32N := ty("u32?")
	// 130 rows: row r is [r, r+1, r+2] but every 7th empty and every 11th null.
	var rows, idx, want []string
	for r := range 130 {
		k := int64(r%5) - 2 // -2 … 2
		switch {
		case r%11 == 0:
			rows = append(rows, "null")
			want = append(want, "null")
		case r%7 == 0:
			rows = append(rows, "[]")
			want = append(want, "null")
		default:
			rows = append(rows, fmt.Sprintf("[%d, %d, %d]", r, r+1, r+2))
			switch {
			case k > 0:
				want = append(want, fmt.Sprint(r+int(k)-1))
			case k < 0:
				want = append(want, fmt.Sprint(r+3+int(k)))
			default:
				want = append(want, "null")
			}
		}
		if r%13 == 5 {
			idx = append(idx, "null")
			want[len(want)-1] = "null"
		} else {
			idx = append(idx, fmt.Sprint(k))
		}
	}
	long := "[" + strings.Join(rows, ", ") + "]"
	longIdx := "[" + strings.Join(idx, ", ") + "]"
	longWant := "[" + strings.Join(want, ", ") + "]"
	// 70 rows, all found: the fast path alone.
	var rows70, want70 []string
	for r := range 70 {
		rows70 = append(rows70, fmt.Sprintf("[%d, %d]", 2*r, 2*r+1))
		want70 = append(want70, fmt.Sprint(2*r+1))
	}
	all70 := "[" + strings.Join(rows70, ", ") + "]"
	cases := []kernelCase{
		{name: "empty and null lists", args: []in{col(u32s, `[[], null, [7], [], [8, 9]]`), i64s(1)}, ret: u32N, want: `[null, null, 7, null, 8]`},
		{name: "all empty", args: []in{col(u32s, `[[], [], []]`), i64s(1)}, ret: u32N, want: `[null, null, null]`},
		{name: "all null", args: []in{col(u32s, `[null, null]`), i64s(1)}, ret: u32N, want: `[null, null]`},
		{name: "index column with nulls", args: []in{col(u32s, `[[1, 2], [3, 4], [5, 6], [7]]`), col(ty("i64?"), `[2, null, -1, 1]`)}, ret: u32N,
			want: `[2, null, 6, 7]`},
		{name: "misses", args: []in{col(u32s, `[[1, 2], [3, 4], [5, 6], [7], [8]]`), col(ty("i64"), fmt.Sprintf(`[0, 3, -3, %d, %d]`, int64(math.MinInt64), int64(math.MaxInt64)))},
			ret: u32N, want: `[null, null, null, null, null]`},
		{name: "from the end", args: []in{col(u32s, `[[1, 2, 3], [4], []]`), i64s(-1)}, ret: u32N, want: `[3, 4, null]`},
		{name: "u8", args: []in{col(ty("list<u8>"), `[[1, 200], [3]]`), col(ty("i64"), `[2, 1]`)}, ret: ty("u8?"), want: `[200, 3]`},
		{name: "i16", args: []in{col(ty("list<i16>"), `[[1, -200], [3]]`), i64s(2)}, ret: ty("i16?"), want: `[-200, null]`},
		{name: "f64", args: []in{col(ty("list<f64>"), `[[1.5], [], [2.5, -0.5]]`), col(ty("i64"), `[1, 1, -1]`)}, ret: ty("f64?"), want: `[1.5, null, -0.5]`},
		{name: "decimal128", args: []in{col(ty("list<decimal(30,2)>"), `[["1.25", "-3"], ["7"]]`), col(ty("i64"), `[-1, 1]`)}, ret: ty("decimal(30,2)?"),
			want: `["-3.00", "7.00"]`},
		{name: "null elements", args: []in{col(ty("list<u32?>"), `[[1, null], [null], [5]]`), col(ty("i64"), `[2, 1, 1]`)}, ret: u32N, want: `[null, null, 5]`},
		{name: "fixed size", args: []in{col(ty("fixed_size_list<u32, 2>?"), `[[1, 2], null, [5, 6]]`), col(ty("i64?"), `[2, 1, null]`)}, ret: u32N,
			want: `[2, null, null]`},
		{name: "fixed size scalar", args: []in{col(ty("fixed_size_list<u32, 2>"), `[[1, 2], [3, 4], [5, 6]]`), i64s(-2)}, ret: u32N, want: `[1, 3, 5]`},
		{name: "fixed size misses", args: []in{col(ty("fixed_size_list<u32, 2>"), `[[1, 2], [3, 4]]`), col(ty("i64"), `[3, 0]`)}, ret: u32N, want: `[null, null]`},
		{name: "130 rows", args: []in{col(u32s, long), col(ty("i64?"), longIdx)}, ret: u32N, want: longWant},
		{name: "70 rows", args: []in{col(u32s, all70), i64s(2)}, ret: u32N, want: "[" + strings.Join(want70, ", ") + "]"},
	}
	runCases(t, cases, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ListElement(mem, a[0], a[1], ret)
	})
}

// TestListElementRandom checks list_element against a direct reading of
// the lists over random List and FixedSizeList arrays of 0 to 200 rows at
// offsets 0 to 70 into a longer array, with null lists, empty lists, null
// elements in some, and index columns (i64 and i32) or scalars that hit,
// miss and count from the end.
func TestListElementRandom(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(17, 4))
	for iter := range 300 {
		n, off := rng.IntN(201), rng.IntN(71)
		fixed := iter%3 == 0
		childNulls := iter%4 == 1
		const size = 3
		var lb array.ListLikeBuilder
		if fixed {
			lb = array.NewFixedSizeListBuilder(mem, size, arrow.PrimitiveTypes.Uint32)
		} else {
			lb = array.NewListBuilder(mem, arrow.PrimitiveTypes.Uint32)
		}
		vb := lb.ValueBuilder().(*array.Uint32Builder)
		ib := array.NewInt64Builder(mem)
		jb := array.NewInt32Builder(mem)
		for r := range off + n {
			switch {
			case rng.IntN(8) == 0:
				lb.AppendNull()
			default:
				lb.Append(true)
				m := size
				if !fixed {
					m = rng.IntN(5)
				}
				for range m {
					if childNulls && rng.IntN(5) == 0 {
						vb.AppendNull()
					} else {
						vb.Append(uint32(r*10 + rng.IntN(10)))
					}
				}
			}
			k := int64(rng.IntN(13) - 6)
			if rng.IntN(40) == 0 {
				k = math.MinInt64
			}
			if rng.IntN(9) == 0 {
				ib.AppendNull()
				jb.AppendNull()
			} else {
				ib.Append(k)
				jb.Append(int32(max(k, math.MinInt32)))
			}
		}
		full, fullIdx, fullIdx32 := lb.NewArray(), ib.NewArray(), jb.NewArray()
		lb.Release()
		ib.Release()
		jb.Release()
		xs := array.NewSlice(full, int64(off), int64(off+n))
		i64Idx := array.NewSlice(fullIdx, int64(off), int64(off+n))
		i32Idx := array.NewSlice(fullIdx32, int64(off), int64(off+n))
		full.Release()
		fullIdx.Release()
		fullIdx32.Release()
		xt := ty("list<u32?>?")
		if fixed {
			xt = ty("fixed_size_list<u32?, 3>?")
		}
		sc := int64(rng.IntN(9) - 4)
		for _, ix := range []struct {
			name string
			d    datum.Datum
			at   func(i int) (int64, bool)
		}{
			{"i64", datum.FromArray(i64Idx, ty("i64?")), func(i int) (int64, bool) {
				return i64Idx.(*array.Int64).Value(i), i64Idx.IsValid(i)
			}},
			{"i32", datum.FromArray(i32Idx, ty("i32?")), func(i int) (int64, bool) {
				return int64(i32Idx.(*array.Int32).Value(i)), i32Idx.IsValid(i)
			}},
			{"scalar", datum.FromScalar(scalar.Int64(sc), n), func(int) (int64, bool) { return sc, true }},
		} {
			got, err := ListElement(mem, datum.FromArray(xs, xt), ix.d, ty("u32?"))
			if err != nil {
				t.Fatalf("case %d (%d rows at %d, %s index): %v", iter, n, off, ix.name, err)
			}
			arr := got.Array().(*array.Uint32)
			for i := range n {
				w, ok := uint32(0), false
				if k, valid := ix.at(i); valid {
					w, ok = refElement(xs, i, k)
				}
				if arr.IsValid(i) != ok || ok && arr.Value(i) != w {
					t.Fatalf("case %d (%d rows at %d, fixed %v, %s index): row %d is %v (valid %v), want %d (valid %v)",
						iter, n, off, fixed, ix.name, i, arr.Value(i), arr.IsValid(i), w, ok)
				}
			}
			if nulls := arr.NullN(); nulls != n-countValid(arr) {
				t.Fatalf("case %d: null count %d, counted %d", iter, nulls, n-countValid(arr))
			}
			got.Release()
		}
		xs.Release()
		i64Idx.Release()
		i32Idx.Release()
	}
}

// refElement is element k (1-based, negative from the end) of row i of a
// list array of u32, read row by row.
func refElement(xs arrow.Array, i int, k int64) (uint32, bool) {
	if xs.IsNull(i) {
		return 0, false
	}
	var child *array.Uint32
	var s, e int64
	switch l := xs.(type) {
	case *array.List:
		child = l.ListValues().(*array.Uint32)
		s, e = l.ValueOffsets(i)
	case *array.FixedSizeList:
		child = l.ListValues().(*array.Uint32)
		size := int64(l.DataType().(*arrow.FixedSizeListType).Len())
		s = int64(l.Offset()+i) * size
		e = s + size
	}
	var p int64
	switch {
	case k >= 1 && k <= e-s:
		p = s + k - 1
	case k <= -1 && k >= -(e-s):
		p = e + k
	default:
		return 0, false
	}
	if child.IsNull(int(p)) {
		return 0, false
	}
	return child.Value(int(p)), true
}

func countValid(a arrow.Array) int {
	c := 0
	for i := range a.Len() {
		if a.IsValid(i) {
			c++
		}
	}
	return c
}

// TestListElementBadOffsets gives list_element List arrays whose offsets
// Arrow accepts but are malformed: a decrease, and a middle offset beyond
// the child (which only a decrease can bring back into range). Each must
// be an error, not a panic, on the fast path (i64 index), the row-by-row
// path (i16 index) and the gather path (utf8 elements).
func TestListElementBadOffsets(t *testing.T) {
	mem := checkedMem(t)
	u32Vals := fromJSON(t, mem, ty("u32"), `[1, 2, 3, 4]`)
	defer u32Vals.Release()
	strVals := fromJSON(t, mem, ty("utf8"), `["a", "b", "c", "d"]`)
	defer strVals.Release()
	for _, offs := range [][]int32{
		{0, 3, 1, 4},
		{0, 1000, 2, 4},
		{0, 4, 0, 4},
	} {
		for _, c := range []struct {
			name  string
			child arrow.Array
			idx   datum.Datum
			xt    dtype.DType
			ret   dtype.DType
		}{
			{"i64 index", u32Vals, datum.FromScalar(scalar.Int64(2), 3), ty("list<u32?>"), ty("u32?")},
			{"i64 index from the end", u32Vals, datum.FromScalar(scalar.Int64(-1), 3), ty("list<u32?>"), ty("u32?")},
			{"i16 index", u32Vals, datum.FromArray(fromJSON(t, mem, ty("i16"), `[2, 2, 2]`), ty("i16")), ty("list<u32?>"), ty("u32?")},
			{"utf8", strVals, datum.FromScalar(scalar.Int64(2), 3), ty("list<utf8?>"), ty("utf8?")},
		} {
			buf := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))
			lt := dtype.ToArrow(c.xt)
			ld := array.NewData(lt, 3, []*memory.Buffer{nil, buf}, []arrow.ArrayData{c.child.Data()}, 0, 0)
			xs := array.MakeFromData(ld)
			ld.Release()
			got, err := ListElement(mem, datum.FromArray(xs, c.xt), c.idx, c.ret)
			if err == nil {
				got.Release()
				t.Errorf("offsets %v, %s: no error", offs, c.name)
			} else if !strings.Contains(err.Error(), "decrease") {
				t.Errorf("offsets %v, %s: error %q", offs, c.name, err)
			}
			xs.Release()
			c.idx.Release()
		}
	}
}
