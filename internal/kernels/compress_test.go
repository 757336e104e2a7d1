package kernels

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// compressRef is the values src[i] whose bit i is set in bm, bit by bit.
func compressRef[T any](src []T, bm []byte) []T {
	out := []T{}
	for i, v := range src {
		if bm[i/8]>>(i%8)&1 != 0 {
			out = append(out, v)
		}
	}
	return out
}

// compressBitsRef is bits off+i of src of the rows i < n set in bm, one a
// bool.
func compressBitsRef(src []byte, off int, bm []byte, n int) []bool {
	out := []bool{}
	for i := range n {
		if bm[i/8]>>(i%8)&1 != 0 {
			p := off + i
			out = append(out, src[p/8]>>(p%8)&1 != 0)
		}
	}
	return out
}

// compressDensities are the bitmaps of the tests: none set, a few, half,
// most and all, by the probability of a bit (randBitmap adds runs of
// zero and full bytes to the middle three).
var compressDensities = []float64{0, 0.03, 0.5, 0.97, 1}

// compressBitmap is a bitmap of nb bytes of density p.
func compressBitmap(rng *rand.Rand, nb int, p float64) []byte {
	switch p {
	case 0:
		return make([]byte, nb)
	case 1:
		return bytes.Repeat([]byte{0xff}, nb)
	}
	return randBitmap(rng, nb, p)
}

// TestCompressValues checks compressValues under each set and the
// portable loop against the bit-by-bit reference for values of every
// width, every length 0…300, every offset 0…63 of the values and of the
// bitmap's bytes (so that its words are read unaligned), at each density,
// and that nothing is written past the values kept.
func TestCompressValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	t.Run("u8", func(t *testing.T) { compressCheck(t, rng, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }) })
	t.Run("u16", func(t *testing.T) { compressCheck(t, rng, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }) })
	t.Run("u32", func(t *testing.T) { compressCheck(t, rng, (*rand.Rand).Uint32) })
	t.Run("u64", func(t *testing.T) { compressCheck(t, rng, (*rand.Rand).Uint64) })
	t.Run("u128", func(t *testing.T) {
		compressCheck(t, rng, func(r *rand.Rand) [2]uint64 { return [2]uint64{r.Uint64(), r.Uint64()} })
	})
	t.Run("u256", func(t *testing.T) {
		compressCheck(t, rng, func(r *rand.Rand) [4]uint64 { return [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()} })
	})
}

func compressCheck[T comparable](t *testing.T, rng *rand.Rand, gen func(*rand.Rand) T) {
	vals := make([]T, simdMaxLen+simdMaxOff)
	for i := range vals {
		vals[i] = gen(rng)
	}
	var guard T = gen(rng)
	sets := append([]*simdSet{nil}, simdCases()...)
	kernelRows := make([]int, len(sets)) // the rows each set's kernel did
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			p := compressDensities[(n+off)%len(compressDensities)]
			buf := compressBitmap(rng, off+(n+7)/8, p)
			bm := buf[off:]
			src := vals[off : off+n]
			want := compressRef(src, bm)
			for si, set := range sets {
				out := make([]T, len(want)+8)
				for i := range out {
					out[i] = guard
				}
				var k int
				withActive(set, func() { k = compressValues(out[:len(want)], src, bm) })
				if k != len(want) || !slices.Equal(out[:k], want) {
					t.Fatalf("%s n %d off %d density %v: %s", setName(set), n, off, p, firstDiffAny(out[:k], want))
				}
				for i := len(want); i < len(out); i++ {
					if out[i] != guard {
						t.Fatalf("%s n %d off %d density %v: wrote past the %d values kept", setName(set), n, off, p, len(want))
					}
				}
				if set != nil {
					done, _ := simdCompress(set, out[:len(want)], src, bm, n/64)
					kernelRows[si] += 64 * done
				}
			}
		}
	}
	// The kernels ran (where the set has one for T), so the comparisons
	// above compared them.
	for si, set := range sets {
		if set != nil && hasCompress[T](set) && kernelRows[si] == 0 {
			t.Errorf("%s: the kernel did no row", set.name)
		}
	}
}

// hasCompress reports whether set has a compress kernel for values of
// T's size: whether it does a zero word.
func hasCompress[T any](set *simdSet) bool {
	done, _ := simdCompress(set, nil, make([]T, 64), make([]byte, 8), 1)
	return done == 1
}

func firstDiffAny[T comparable](got, want []T) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("value %d of the result is %v, want %v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d values, want %d", len(got), len(want))
}

// TestCompressBits checks compressBits against the bit-by-bit reference
// for every length 0…300, every bit offset 0…63 of the source and every
// density, with the words past the result primed with garbage (they are
// not cleared: NewBits).
func TestCompressBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for n := 0; n <= simdMaxLen; n++ {
		for off := 0; off <= simdMaxOff; off++ {
			p := compressDensities[(n*3+off)%len(compressDensities)]
			bm := compressBitmap(rng, (n+7)/8, p)
			src := randBitmap(rng, (off+n+7)/8, 0.5)
			want := compressBitsRef(src, off, bm, n)
			words := make([]uint64, NumWords(len(want)))
			for i := range words {
				words[i] = guardWord
			}
			ones := compressBits(words, src, off, bm, n, len(want))
			wantOnes := 0
			for i, b := range want {
				got := words[i/64]>>(i%64)&1 != 0
				if got != b {
					t.Fatalf("n %d off %d density %v: bit %d is %v, want %v", n, off, p, i, got, b)
				}
				if b {
					wantOnes++
				}
			}
			if ones != wantOnes {
				t.Fatalf("n %d off %d density %v: %d ones, want %d", n, off, p, ones, wantOnes)
			}
			if len(want)%64 != 0 && words[len(words)-1]>>(len(want)%64) != 0 {
				t.Fatalf("n %d off %d density %v: bits set past the %d written", n, off, p, len(want))
			}
		}
	}
}

// TestPext checks pext against the bit-at-a-time definition on random
// words and masks, and the masks of none, all and single bits.
func TestPext(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	ref := func(x, m uint64) uint64 {
		var r uint64
		k := 0
		for b := range 64 {
			if m>>b&1 != 0 {
				r |= (x >> b & 1) << k
				k++
			}
		}
		return r
	}
	masks := []uint64{0, ^uint64(0), 1, 1 << 63, 0x5555555555555555, 0xf0f0f0f0f0f0f0f0}
	for range 20000 {
		masks = append(masks, rng.Uint64()&rng.Uint64()|rng.Uint64()&rng.Uint64())
	}
	for _, m := range masks {
		x := rng.Uint64()
		if got, want := pext(x, m), ref(x, m); got != want {
			t.Fatalf("pext(%#x, %#x) = %#x, want %#x", x, m, got, want)
		}
	}
}

// compressTypes is the Arrow types CompressData handles, one of each
// width and layout.
var compressTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8,
	arrow.PrimitiveTypes.Uint16,
	arrow.FixedWidthTypes.Float16,
	arrow.PrimitiveTypes.Uint32,
	arrow.FixedWidthTypes.Date32,
	arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Timestamp_us,
	&arrow.Decimal128Type{Precision: 38, Scale: 2},
	arrow.FixedWidthTypes.MonthDayNanoInterval,
	&arrow.FixedSizeBinaryType{ByteWidth: 16},
	&arrow.Decimal256Type{Precision: 76, Scale: 0},
	arrow.FixedWidthTypes.Boolean,
	arrow.Null,
}

// randData is an array of type t of total rows of random bytes, with
// nulls (about one in four) or without a validity bitmap.
func randData(rng *rand.Rand, mem memory.Allocator, t arrow.DataType, total int, nulls bool) arrow.ArrayData {
	if t.ID() == arrow.NULL {
		return array.NewData(t, total, []*memory.Buffer{nil}, nil, total, 0)
	}
	width := t.(arrow.FixedWidthDataType).BitWidth()
	vals := memory.NewResizableBuffer(mem)
	vals.Resize((total*width + 7) / 8)
	for i := range vals.Bytes() {
		vals.Bytes()[i] = byte(rng.Uint32())
	}
	defer vals.Release()
	if !nulls {
		return array.NewData(t, total, []*memory.Buffer{nil, vals}, nil, 0, 0)
	}
	valid := memory.NewResizableBuffer(mem)
	valid.Resize((total + 7) / 8)
	copy(valid.Bytes(), randBitmap(rng, valid.Len(), 0.75))
	defer valid.Release()
	return array.NewData(t, total, []*memory.Buffer{valid, vals}, nil, array.UnknownNullCount, 0)
}

// TestCompressData checks CompressData end to end, under each set and the
// portable loops, against GatherData of the rows SelectRows lists: every
// type it handles, sliced arrays (offsets 0…63 for lengths 0…300, taken in
// turn, and every offset for a few lengths), with and without nulls, each
// density; the values buffers are compared byte for byte (the values
// under nulls too) and the validity bit for bit, and no memory is left
// allocated.
func TestCompressData(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	mem := checkedMem(t)
	sets := append([]*simdSet{nil}, simdCases()...)
	for _, typ := range compressTypes {
		for _, nulls := range []bool{false, true} {
			full := randData(rng, mem, typ, simdMaxLen+simdMaxOff, nulls)
			check := func(n, off int, p float64) {
				d := array.NewSliceData(full, int64(off), int64(off+n))
				defer d.Release()
				bm := compressBitmap(rng, (n+7)/8, p)
				idx := selectRowsRef(bm, n)
				want, err := GatherData(mem, d, idx)
				if err != nil {
					t.Fatal(err)
				}
				defer want.Release()
				for _, set := range sets {
					var got arrow.ArrayData
					var ok bool
					withActive(set, func() { got, ok = CompressData(mem, d, bm, len(idx)) })
					if !ok {
						t.Fatalf("%s: CompressData does not handle it", typ)
					}
					if err := sameData(got, want); err != nil {
						t.Fatalf("%s nulls %v n %d off %d density %v %s: %v", typ, nulls, n, off, p, setName(set), err)
					}
					got.Release()
				}
			}
			for n := 0; n <= simdMaxLen; n++ {
				check(n, n*7%(simdMaxOff+1), compressDensities[n%len(compressDensities)])
			}
			for _, n := range []int{1, 64, 200, simdMaxLen} {
				for off := 0; off <= simdMaxOff; off++ {
					check(n, off, compressDensities[off%len(compressDensities)])
				}
			}
			full.Release()
		}
	}
}

// sameData reports how got differs from want, two arrays of the same
// fixed-width (or bool, or null) type at offset 0: length, null count,
// validity bits and the bytes (bits) of the values of every row.
func sameData(got, want arrow.ArrayData) error {
	if !arrow.TypeEqual(got.DataType(), want.DataType()) || got.Len() != want.Len() || got.Offset() != 0 {
		return fmt.Errorf("got %s × %d at offset %d, want %s × %d", got.DataType(), got.Len(), got.Offset(), want.DataType(), want.Len())
	}
	if got.NullN() != want.NullN() {
		return fmt.Errorf("%d nulls, want %d", got.NullN(), want.NullN())
	}
	n := got.Len()
	if got.DataType().ID() == arrow.NULL {
		return nil
	}
	if got.NullN() > 0 {
		for i := range n {
			g, w := BufferBytes(got, 0)[i/8]>>(i%8)&1, BufferBytes(want, 0)[i/8]>>(i%8)&1
			if g != w {
				return fmt.Errorf("row %d: validity %d, want %d", i, g, w)
			}
		}
	}
	width := got.DataType().(arrow.FixedWidthDataType).BitWidth()
	gv, wv := BufferBytes(got, 1), BufferBytes(want, 1)
	if width == 1 {
		for i := range n {
			if gv[i/8]>>(i%8)&1 != wv[i/8]>>(i%8)&1 {
				return fmt.Errorf("row %d: bool value differs", i)
			}
		}
		return nil
	}
	size := width / 8
	for i := range n {
		if !bytes.Equal(gv[i*size:(i+1)*size], wv[i*size:(i+1)*size]) {
			return fmt.Errorf("row %d: value % x, want % x", i, gv[i*size:(i+1)*size], wv[i*size:(i+1)*size])
		}
	}
	return nil
}

// TestCompressDataOthers: the types CompressData leaves to the gather say
// so, allocating nothing.
func TestCompressDataOthers(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range []struct{ typ, data string }{
		{"utf8?", `["a", null, "bc"]`},
		{"list<i32>", `[[1], [], [2, 3]]`},
		{"struct<a: i64>", `[{"a": 1}, {"a": 2}, {"a": 3}]`},
		{"fixed_size_list<i32, 1>", `[[1], [2], [3]]`},
	} {
		arr := fromJSON(t, mem, ty(c.typ), c.data)
		if got, ok := Compress(mem, arr, []byte{0b101}, 2); ok || got != nil {
			t.Errorf("%s: Compress handled it", c.typ)
		}
		arr.Release()
	}
	// Three bits' worth of a fixed-size binary: not a width it handles.
	fsb := array.NewData(&arrow.FixedSizeBinaryType{ByteWidth: 3}, 1, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 3))}, nil, 0, 0)
	defer fsb.Release()
	if _, ok := CompressData(mem, fsb, []byte{1}, 1); ok {
		t.Errorf("fixed_size_binary(3): CompressData handled it")
	}
}

// TestCompressExample shows Compress on a sliced i64 column with a null.
func TestCompressExample(t *testing.T) {
	mem := checkedMem(t)
	full := fromJSON(t, mem, ty("i64?"), `[0, 10, null, 30, 40, 50]`)
	defer full.Release()
	arr := array.NewSlice(full, 1, 6) // [10, null, 30, 40, 50]
	defer arr.Release()
	got, ok := Compress(mem, arr, []byte{0b10011}, 3) // rows 0, 1 and 4
	if !ok {
		t.Fatal("Compress does not handle i64")
	}
	defer got.Release()
	if s := got.String(); s != "[10 (null) 50]" {
		t.Errorf("got %s, want [10 (null) 50]", s)
	}
}

// BenchmarkCompress: filtering a column of 65 536 rows by a bitmap,
// straight from the bitmap (CompressData) or as eval did before, listing
// the rows (AppendSelected) and gathering them (GatherData), under each
// set. The allocator (newRecycler) hands the same buffers back each time,
// so that the work is measured rather than the Go allocator's zeroing and
// the GC:
//
//	go test -run '^$' -bench Compress -count 6 ./internal/kernels | benchstat -col /method -
func BenchmarkCompress(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewPCG(29, 30))
	mem := newRecycler()
	for _, typ := range []arrow.DataType{arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int64, &arrow.Decimal128Type{Precision: 38, Scale: 2}} {
		d := randData(rng, mem, typ, n, false)
		for _, p := range []float64{0.25, 0.5, 0.9} {
			bm := make([]byte, n/8)
			for i := range n {
				if rng.Float64() < p {
					bm[i/8] |= 1 << (i % 8)
				}
			}
			count := len(selectRowsRef(bm, n))
			for name, set := range simdBenchSets() {
				b.Run(fmt.Sprintf("type=%s/density=%v/method=compress/set=%s", typ, p, name), func(b *testing.B) {
					b.SetBytes(int64(n * typ.(arrow.FixedWidthDataType).BitWidth() / 8))
					withActive(set, func() {
						for b.Loop() {
							out, _ := CompressData(mem, d, bm, count)
							out.Release()
						}
					})
				})
				b.Run(fmt.Sprintf("type=%s/density=%v/method=gather/set=%s", typ, p, name), func(b *testing.B) {
					b.SetBytes(int64(n * typ.(arrow.FixedWidthDataType).BitWidth() / 8))
					idx := make([]int32, 0, count+64)
					withActive(set, func() {
						for b.Loop() {
							idx = AppendSelected(idx[:0], bm, n, count)
							out, err := GatherData(mem, d, idx)
							if err != nil {
								b.Fatal(err)
							}
							out.Release()
						}
					})
				})
			}
		}
		d.Release()
	}
}
