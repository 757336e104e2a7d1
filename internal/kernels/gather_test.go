package kernels

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
)

// TestGather checks Gather on every layout it handles, over sliced input
// (the slice drops the first row), with repeated rows and -1 for a null
// row, and with no memory left allocated.
func TestGather(t *testing.T) {
	idx := []int32{2, -1, 0, 2}
	for _, c := range []struct {
		typ, data, want string
	}{
		{"i32?", `[7, 1, null, 3]`, `[3, null, 1, 3]`},
		{"i8", `[7, 1, 2, 3]`, `[3, null, 1, 3]`},
		{"f64?", `[7, 1.5, null, -2]`, `[-2, null, 1.5, -2]`},
		{"decimal(20, 2)", `["7", "1.25", "2", "-3.50"]`, `["-3.50", null, "1.25", "-3.50"]`},
		{"bool?", `[true, false, null, true]`, `[true, null, false, true]`},
		{"utf8?", `["x", "ab", null, "héllo"]`, `["héllo", null, "ab", "héllo"]`},
		{"binary", `["eA==", "YQ==", "", "YmM="]`, `["YmM=", null, "YQ==", "YmM="]`},
		{"list<i32?>?", `[[9], [1, null], null, [3, 4, 5]]`, `[[3, 4, 5], null, [1, null], [3, 4, 5]]`},
		{"fixed_size_list<utf8, 2>?", `[["z", "z"], ["a", "b"], null, ["c", "d"]]`, `[["c", "d"], null, ["a", "b"], ["c", "d"]]`},
		{"struct<a: i64, b: utf8?>?", `[{"a": 9, "b": "z"}, {"a": 1, "b": null}, null, {"a": 3, "b": "c"}]`,
			`[{"a": 3, "b": "c"}, null, {"a": 1, "b": null}, {"a": 3, "b": "c"}]`},
	} {
		t.Run(c.typ, func(t *testing.T) {
			mem := checkedMem(t)
			dt := ty(c.typ)
			full := fromJSON(t, mem, dt, c.data)
			defer full.Release()
			sliced := array.NewSlice(full, 1, int64(full.Len()))
			defer sliced.Release()
			got, err := Gather(mem, sliced, idx)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			expectDatum(t, mem, datum.FromArray(got, dt.WithNullable(true)), dt.WithNullable(true), c.want)
		})
	}
}

// TestGatherBits checks the word-at-a-time bit gather of bools and
// validity against bit-by-bit picking, for every length 0…300 and offset
// 0…63 into the source, with negative (null) indices and repeats.
func TestGatherBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off += 7 {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32(rng.IntN(len(src)*8 - off))
				if rng.IntN(10) == 0 {
					idx[i] = -1
				}
			}
			for _, s := range [][]byte{src, nil} {
				words := make([]uint64, NumWords(n))
				for i := range words {
					words[i] = ^uint64(0) // every word is written
				}
				ones := gatherBits(words, s, off, idx)
				want := 0
				for i, j := range idx {
					bit := j >= 0 && (s == nil || s[(off+int(j))/8]>>((off+int(j))%8)&1 != 0)
					if got := words[i/64]>>(i%64)&1 != 0; got != bit {
						t.Fatalf("n %d off %d src %v: bit %d is %v, want %v", n, off, s != nil, i, got, bit)
					}
					if bit {
						want++
					}
				}
				if n%64 != 0 && words[len(words)-1]>>(n%64) != 0 {
					t.Fatalf("n %d: bits past the last row are set", n)
				}
				if ones != want {
					t.Fatalf("n %d off %d: %d ones, want %d", n, off, ones, want)
				}
			}
		}
	}
}

// BenchmarkGatherNullable gathers half the rows (in order, as a filter
// does) of a nullable bool column of 65 536 rows: validity and values are
// both bit gathers.
func BenchmarkGatherNullable(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewPCG(1, 2))
	bld := array.NewBooleanBuilder(memory.DefaultAllocator)
	for range n {
		if rng.IntN(10) == 0 {
			bld.AppendNull()
		} else {
			bld.Append(rng.IntN(2) == 0)
		}
	}
	arr := bld.NewArray()
	bld.Release()
	defer arr.Release()
	var idx []int32
	for i := range int32(n) {
		if rng.IntN(2) == 0 {
			idx = append(idx, i)
		}
	}
	mem := memory.NewGoAllocator()
	for b.Loop() {
		out, err := Gather(mem, arr, idx)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

// TestGatherDictionary: a dictionary column's indices are gathered and
// its dictionary kept (the indices are fixed-width, which once made the
// gather drop the dictionary).
func TestGatherDictionary(t *testing.T) {
	mem := checkedMem(t)
	b := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	defer b.Release()
	for _, v := range []string{"x", "AIR", "MAIL", "AIR"} {
		if err := b.AppendString(v); err != nil {
			t.Fatal(err)
		}
	}
	b.AppendNull()
	full := b.NewArray()
	defer full.Release()
	sliced := array.NewSlice(full, 1, int64(full.Len()))
	defer sliced.Release()
	got, err := Gather(mem, sliced, []int32{2, -1, 0, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if s := got.String(); s != `{ dictionary: ["x" "AIR" "MAIL"]
  indices: [1 (null) 1 (null) 2] }` {
		t.Errorf("got %s", s)
	}
}
