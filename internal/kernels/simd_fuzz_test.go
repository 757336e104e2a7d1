package kernels

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// FuzzSIMDCompare checks the SIMD comparison kernels against the portable
// loops on values read from the fuzzer's bytes: typ picks the element type
// (of the ten; 10 is decimals of at most 18 digits made from int64s), the
// first value is the scalar, the rest the column (and,
// interleaved, the second column), skip drops that many rows from the
// front so that every alignment is met.
//
//	go test -run '^$' -fuzz FuzzSIMDCompare ./internal/kernels
func FuzzSIMDCompare(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add(make([]byte, 8*130), uint8(3), uint8(1))
	seed := make([]byte, 8*200)
	for i := range 200 {
		binary.LittleEndian.PutUint64(seed[8*i:], uint64(i)*0x9e3779b97f4a7c15)
	}
	for typ := range uint8(11) {
		f.Add(seed, typ, typ*7%64)
	}
	nan := make([]byte, 8*70)
	for i := range 70 {
		binary.LittleEndian.PutUint64(nan[8*i:], math.Float64bits([]float64{math.NaN(), 1, math.Inf(-1), 0}[i%4]))
	}
	f.Add(nan, uint8(9), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, typ, skip uint8) {
		switch typ % 11 {
		case 10:
			fuzzDec(t, decodeFuzz[int64](data), int(skip))
		case 0:
			fuzzCmp(t, decodeFuzz[int8](data), int(skip))
		case 1:
			fuzzCmp(t, decodeFuzz[int16](data), int(skip))
		case 2:
			fuzzCmp(t, decodeFuzz[int32](data), int(skip))
		case 3:
			fuzzCmp(t, decodeFuzz[int64](data), int(skip))
		case 4:
			fuzzCmp(t, decodeFuzz[uint8](data), int(skip))
		case 5:
			fuzzCmp(t, decodeFuzz[uint16](data), int(skip))
		case 6:
			fuzzCmp(t, decodeFuzz[uint32](data), int(skip))
		case 7:
			fuzzCmp(t, decodeFuzz[uint64](data), int(skip))
		case 8:
			fuzzCmp(t, decodeFuzz[float32](data), int(skip))
		default:
			fuzzCmp(t, decodeFuzz[float64](data), int(skip))
		}
	})
}

// fuzzDec is fuzzCmp for decimals of at most 18 digits, each value
// reduced modulo 10^18.
func fuzzDec(t *testing.T, vals []int64, skip int) {
	if len(vals) == 0 {
		return
	}
	ds := make([]decimal128.Num, len(vals))
	for i, v := range vals {
		ds[i] = decimal128.FromI64(v % 1_000_000_000_000_000_000)
	}
	s, rest := ds[0], ds[1:]
	rest = rest[min(skip, len(rest)):]
	n := len(rest) / 2
	a, b := rest[:n], rest[n:2*n]
	sc := Fixed[decimal128.Num]{Scalar: s, IsScalar: true}
	for _, op := range loopOps {
		for _, args := range [][2]Fixed[decimal128.Num]{{{Vals: a}, sc}, {sc, {Vals: a}}, {{Vals: a}, {Vals: b}}} {
			if err := simdDecSame(op, n, args[0], args[1]); err != nil {
				t.Fatalf("op %d: %v", op, err)
			}
		}
	}
}

// decodeFuzz reads data as little-endian values of T (a float from its
// bits).
func decodeFuzz[T Number](data []byte) []T {
	size := bitWidth[T]() / 8
	out := make([]T, len(data)/size)
	for i := range out {
		var u uint64
		for j := size - 1; j >= 0; j-- {
			u = u<<8 | uint64(data[i*size+j])
		}
		var x T
		switch p := any(&x).(type) {
		case *float32:
			*p = math.Float32frombits(uint32(u))
		case *float64:
			*p = math.Float64frombits(u)
		default:
			x = T(u) // integers: truncation is the little-endian value
		}
		out[i] = x
	}
	return out
}

func fuzzCmp[T Number](t *testing.T, vals []T, skip int) {
	if len(vals) == 0 {
		return
	}
	s, rest := vals[0], vals[1:]
	skip = min(skip, len(rest))
	rest = rest[skip:]
	n := len(rest) / 2
	a, b := rest[:n], rest[n:2*n]
	sc := Fixed[T]{Scalar: s, IsScalar: true}
	for _, op := range loopOps {
		for _, args := range [][2]Fixed[T]{{{Vals: a}, sc}, {sc, {Vals: a}}, {{Vals: a}, {Vals: b}}} {
			if err := simdCmpSame(op, n, args[0], args[1]); err != nil {
				t.Fatalf("op %d: %v", op, err)
			}
		}
	}
}

// FuzzSIMDArith checks the SIMD checked addition and subtraction against
// the portable loops (values and overflow flag) on values read from the
// fuzzer's bytes, as FuzzSIMDCompare does: typ picks one of the eight
// integer types, the first value is the scalar.
//
//	go test -run '^$' -fuzz FuzzSIMDArith ./internal/kernels
func FuzzSIMDArith(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	seed := make([]byte, 8*300)
	for i := range 300 {
		binary.LittleEndian.PutUint64(seed[8*i:], uint64(i)*0x9e3779b97f4a7c15>>uint(i%64))
	}
	for typ := range uint8(8) {
		f.Add(seed, typ, typ*5%64)
	}
	f.Fuzz(func(t *testing.T, data []byte, typ, skip uint8) {
		switch typ % 8 {
		case 0:
			fuzzArith(t, decodeFuzz[int8](data), int(skip))
		case 1:
			fuzzArith(t, decodeFuzz[int16](data), int(skip))
		case 2:
			fuzzArith(t, decodeFuzz[int32](data), int(skip))
		case 3:
			fuzzArith(t, decodeFuzz[int64](data), int(skip))
		case 4:
			fuzzArith(t, decodeFuzz[uint8](data), int(skip))
		case 5:
			fuzzArith(t, decodeFuzz[uint16](data), int(skip))
		case 6:
			fuzzArith(t, decodeFuzz[uint32](data), int(skip))
		default:
			fuzzArith(t, decodeFuzz[uint64](data), int(skip))
		}
	})
}

func fuzzArith[T Integer](t *testing.T, vals []T, skip int) {
	if len(vals) == 0 {
		return
	}
	s, rest := vals[0], vals[1:]
	rest = rest[min(skip, len(rest)):]
	n := len(rest) / 2
	a, b := rest[:n], rest[n:2*n]
	sc := Fixed[T]{Scalar: s, IsScalar: true}
	for _, op := range []ArithOp{OpAdd, OpSub, OpMul} {
		for _, args := range [][2]Fixed[T]{{{Vals: a}, {Vals: b}}, {{Vals: a}, sc}, {sc, {Vals: b}}} {
			if err := simdArithSame(op, n, args[0], args[1]); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
		}
	}
}

// FuzzSIMDKleene checks the SIMD Kleene AND and OR against the portable
// formula, and the bitwise AND, OR and NOT against Go's operators, on
// words read from the fuzzer's bytes: four equal runs of
// words (x, y and their validity), skip words dropped from the front.
//
//	go test -run '^$' -fuzz FuzzSIMDKleene ./internal/kernels
func FuzzSIMDKleene(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	seed := make([]byte, 8*4*40)
	for i := range 4 * 40 {
		binary.LittleEndian.PutUint64(seed[8*i:], uint64(i)*0x9e3779b97f4a7c15)
	}
	f.Add(seed, uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, skip uint8) {
		words := decodeFuzz[uint64](data)
		words = words[min(int(skip), len(words)):]
		n := len(words) / 4
		x, y, vx, vy := words[:n], words[n:2*n], words[2*n:3*n], words[3*n:4*n]
		for _, or := range []bool{false, true} {
			if err := simdKleeneSame(or, x, y, vx, vy); err != nil {
				t.Fatal(err)
			}
		}
		for _, or := range []bool{false, true} {
			if err := simdKleeneHalfSame(or, x, y, vy); err != nil {
				t.Fatal(err)
			}
		}
		// The bitwise kernels, on x and y.
		for _, set := range simdCases() {
			for _, op := range [][2]bool{{false, false}, {true, false}, {false, true}} {
				dst := make([]uint64, n)
				done := simdWords(set, op[0], op[1], dst, x, y)
				for k := range done {
					want := x[k] & y[k]
					switch {
					case op[1]:
						want = ^x[k]
					case op[0]:
						want = x[k] | y[k]
					}
					if dst[k] != want {
						t.Fatalf("%s or %v not %v: word %d is %#x, want %#x", set.name, op[0], op[1], k, dst[k], want)
					}
				}
			}
		}
	})
}

// FuzzSIMDSelect checks SelectRows under each set against the bit-by-bit
// reference on a bitmap of the fuzzer's bytes, n of its rows.
//
//	go test -run '^$' -fuzz FuzzSIMDSelect ./internal/kernels
func FuzzSIMDSelect(f *testing.F) {
	f.Add([]byte{}, uint16(0))
	f.Add([]byte{0xff, 0x01, 0x80, 0, 0, 0, 0, 0x55, 0xaa, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, uint16(130))
	f.Fuzz(func(t *testing.T, bm []byte, n uint16) {
		rows := min(int(n), 8*len(bm))
		want := selectRowsRef(bm, rows)
		for _, set := range append([]*simdSet{nil}, simdCases()...) {
			var got []int32
			withActive(set, func() { got = SelectRows(bm, rows, len(want)) })
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %s", setName(set), firstDiff(got, want))
			}
		}
	})
}

// FuzzSIMDCompress checks compressValues under each set and the portable
// loop against the bit-by-bit reference on a bitmap and values of the
// fuzzer's bytes: width picks the values' size (1, 2, 4, 8 or 16 bytes),
// skip drops that many values from the front (so that every alignment is
// met), and the rows are as many as both have. The values' bytes, read as
// a bitmap from bit skip, check compressBits too.
//
//	go test -run '^$' -fuzz FuzzSIMDCompress ./internal/kernels
func FuzzSIMDCompress(f *testing.F) {
	f.Add([]byte{}, []byte{}, uint8(0), uint8(0))
	vals := make([]byte, 16*300)
	for i := range 2 * 300 {
		binary.LittleEndian.PutUint64(vals[8*i:], uint64(i)*0x9e3779b97f4a7c15)
	}
	half := make([]byte, 40)
	for i := range half {
		half[i] = byte(i*37) ^ 0x5a
	}
	for width := range uint8(5) {
		f.Add(half, vals, width, width*13%64)
	}
	f.Fuzz(func(t *testing.T, bm, data []byte, width, skip uint8) {
		switch width % 5 {
		case 0:
			fuzzCompress(t, bm, decodeFuzz[uint8](data), int(skip))
		case 1:
			fuzzCompress(t, bm, decodeFuzz[uint16](data), int(skip))
		case 2:
			fuzzCompress(t, bm, decodeFuzz[uint32](data), int(skip))
		case 3:
			fuzzCompress(t, bm, decodeFuzz[uint64](data), int(skip))
		default:
			pairs := decodeFuzz[uint64](data)
			v := make([][2]uint64, len(pairs)/2)
			for i := range v {
				v[i] = [2]uint64{pairs[2*i], pairs[2*i+1]}
			}
			fuzzCompress(t, bm, v, int(skip))
		}
		n := min(8*len(bm), 8*len(data)-int(skip))
		if n < 0 {
			return
		}
		want := compressBitsRef(data, int(skip), bm, n)
		words := make([]uint64, NumWords(len(want)))
		compressBits(words, data, int(skip), bm, n, len(want))
		for i, b := range want {
			if words[i/64]>>(i%64)&1 != 0 != b {
				t.Fatalf("compressBits: bit %d is not %v", i, b)
			}
		}
	})
}

func fuzzCompress[T comparable](t *testing.T, bm []byte, vals []T, skip int) {
	vals = vals[min(skip, len(vals)):]
	vals = vals[:min(len(vals), 8*len(bm))]
	want := compressRef(vals, bm)
	for _, set := range append([]*simdSet{nil}, simdCases()...) {
		out := make([]T, len(want))
		var k int
		withActive(set, func() { k = compressValues(out, vals, bm) })
		if k != len(want) || !slices.Equal(out, want) {
			t.Fatalf("%s: %s", setName(set), firstDiffAny(out[:k], want))
		}
	}
}

// FuzzSIMDPrefix checks the prefix and exact LIKE kernels against the
// portable loop of prefixWords (see prefixSame) on a column of the
// fuzzer's bytes: mode's low 3 bits give the literal's length (1…8),
// taken from the front of vals, bit 3 the mode (exact when set); each
// byte of lens is a row, of its value mod 24 bytes, or 4 bytes back when
// it is 255 (a decreasing offset); vals, repeated, gives the bytes, with
// extra more after the last row; skip drops up to 63 rows from the front
// (a sliced array's offset).
//
//	go test -run '^$' -fuzz FuzzSIMDPrefix ./internal/kernels
func FuzzSIMDPrefix(f *testing.F) {
	f.Add(uint8(2), []byte{}, []byte("abcdefgh"), uint8(0), uint8(0))
	f.Add(uint8(10), bytes.Repeat([]byte{3, 2, 4, 3, 0, 1}, 30), []byte("abcabdab"), uint8(5), uint8(3))
	f.Add(uint8(7), bytes.Repeat([]byte{8, 9, 7, 255, 16}, 40), []byte("furnishe"), uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, mode uint8, lens, vals []byte, extra, skip uint8) {
		k := 1 + int(mode&7)
		exact := mode&8 != 0
		if len(vals) < k {
			return
		}
		lit := vals[:k]
		offs := make([]int32, 1, len(lens)+1)
		o := int32(0)
		for _, b := range lens {
			if b == 255 {
				o -= 4
			} else {
				o += int32(b % 24)
			}
			offs = append(offs, o)
		}
		size := int(max(slices.Max(offs), 0)) + int(extra%16)
		if size < 8 {
			return // prefixWords needs 8 bytes
		}
		data := make([]byte, size)
		for i := range data {
			data[i] = vals[i%len(vals)]
		}
		offs = offs[min(int(skip%64), len(offs)-1):]
		for _, set := range prefixSets(t) {
			if err := prefixSame(set, offs, data, lit, exact); err != nil {
				t.Fatalf("lit %q exact %v: %v", lit, exact, err)
			}
		}
	})
}
