package kernels

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// sliceDatum is rows [off, off+n) of an array datum (a new reference).
func sliceDatum(d datum.Datum, off, n int) datum.Datum {
	return datum.FromArray(array.NewSlice(d.Array(), int64(off), int64(off+n)), d.DType())
}

// randomValid is a validity mask with about one null in six.
func randomValid(rng *rand.Rand, n int) []bool {
	v := make([]bool, n)
	for i := range v {
		v[i] = rng.IntN(6) != 0
	}
	return v
}

// bigRound is x rounded to a multiple of 10^k (k ≥ 0), exactly: half away
// from zero, or toward zero.
func bigRound(x *big.Int, k int, trunc bool) *big.Int {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
	q, r := new(big.Int).QuoRem(x, p, new(big.Int))
	if !trunc && new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(p) >= 0 {
		q.Add(q, big.NewInt(int64(x.Sign())))
	}
	return q.Mul(q, p)
}

func bigOfInt[T Integer](v T) *big.Int {
	if isSigned[T]() {
		return big.NewInt(int64(v))
	}
	return new(big.Int).SetUint64(uint64(v))
}

func bigFits[T Integer](v *big.Int) bool {
	return v.Cmp(bigOfInt(minOf[T]())) >= 0 && v.Cmp(bigOfInt(maxOf[T]())) <= 0
}

// TestIntRoundDigitsOracle checks IntRoundDigits against exact big.Int
// rounding, for every integer type, places per row and as a scalar, plain
// and sliced columns with nulls.
func TestIntRoundDigitsOracle(t *testing.T) {
	testIntRoundOracle[int8](t, dtype.I8)
	testIntRoundOracle[int16](t, dtype.I16)
	testIntRoundOracle[int32](t, dtype.I32)
	testIntRoundOracle[int64](t, dtype.I64)
	testIntRoundOracle[uint8](t, dtype.U8)
	testIntRoundOracle[uint16](t, dtype.U16)
	testIntRoundOracle[uint32](t, dtype.U32)
	testIntRoundOracle[uint64](t, dtype.U64)
}

func testIntRoundOracle[T Integer](t *testing.T, p dtype.PType) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(uint64(p), 7))
	typ, i32 := dtype.Primitive(p, true), dtype.Primitive(dtype.I32, true)
	for trial := range 60 {
		n := 1 + rng.IntN(100)
		xs := randomInts[T](rng, n+6, 0)
		ks := make([]int32, n+6)
		for i := range ks {
			ks[i] = int32(rng.IntN(25) - 22)
			if rng.IntN(20) == 0 {
				ks[i] = []int32{math.MinInt32, math.MaxInt32, -19, -20}[rng.IntN(4)]
			}
		}
		vx, vk := randomValid(rng, n+6), randomValid(rng, n+6)
		if trial%3 == 0 {
			for i := range vx {
				vx[i] = true
			}
		}
		fullX, fullK := intColumn(mem, typ, xs, vx), intColumn(mem, i32, ks, vk)
		off := trial % 6
		x, k := sliceDatum(fullX, off, n), sliceDatum(fullK, off, n)
		for _, mode := range []RoundMode{RoundHalfAway, RoundTrunc} {
			for _, scalarK := range []bool{false, true} {
				name := fmt.Sprintf("%s mode %d trial %d scalar %v", p, mode, trial, scalarK)
				places, kAt, kValid := k, func(i int) int32 { return ks[off+i] }, func(i int) bool { return vk[off+i] }
				if scalarK {
					s, _ := scalar.New(dtype.Primitive(dtype.I32, false), int64(ks[off]))
					places = datum.FromScalar(s, n)
					kAt, kValid = func(int) int32 { return ks[off] }, func(int) bool { return true }
				}
				want := make([]*big.Int, n)
				wantRow := -1
				for i := range n {
					if !vx[off+i] || !kValid(i) {
						continue
					}
					v, kk := bigOfInt(xs[off+i]), kAt(i)
					if kk < 0 && kk > -40 {
						v = bigRound(v, int(-kk), mode == RoundTrunc)
					} else if kk <= -40 {
						v = big.NewInt(0)
					}
					if !bigFits[T](v) {
						wantRow = i
						break
					}
					want[i] = v
				}
				got, err := IntRoundDigits[T](mem, mode, x, places, typ)
				if wantRow >= 0 {
					var re *RowError
					if !errors.As(err, &re) || re.Row != wantRow || !errors.Is(err, errs.ErrOverflow) {
						t.Fatalf("%s: got %v, want an overflow at row %d", name, err, wantRow)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				vals := valuesOf[T](got.Array())
				for i := range n {
					if got.Array().IsValid(i) != (want[i] != nil) {
						t.Fatalf("%s: row %d validity %v", name, i, got.Array().IsValid(i))
					}
					if want[i] != nil && bigOfInt(vals[i]).Cmp(want[i]) != 0 {
						t.Fatalf("%s: row %d: round(%d, %d) = %d, want %s", name, i, xs[off+i], kAt(i), vals[i], want[i])
					}
				}
				got.Release()
			}
		}
		for _, d := range []datum.Datum{fullX, fullK, x, k} {
			d.Release()
		}
	}
}

// TestDecimalRoundOracle checks DecimalRound against big.Int rounding for
// every mode and places from beyond the left to beyond the scale.
func TestDecimalRoundOracle(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 40 {
		prec := []int{9, 18, 38}[trial%3]
		scale := rng.IntN(prec + 1)
		typ := dtype.Decimal(prec, scale, true)
		n := 1 + rng.IntN(60)
		b := array.NewBuilder(mem, dtype.ToArrow(typ)).(*array.Decimal128Builder)
		var vals []*big.Int
		for range n + 3 {
			v := randomDecimal(rng, prec)
			vals = append(vals, v)
			if rng.IntN(7) == 0 {
				b.AppendNull()
				vals[len(vals)-1] = nil
				continue
			}
			b.Append(decimal128.FromBigInt(v))
		}
		full := datum.FromArray(b.NewArray(), typ)
		b.Release()
		x := sliceDatum(full, 3, n)
		for _, mode := range []RoundMode{RoundHalfAway, RoundTrunc, RoundFloor, RoundCeil} {
			places := rng.IntN(prec+45) - 42
			if mode == RoundFloor || mode == RoundCeil {
				places = 0
			}
			rs := min(max(places, 0), scale)
			ret := dtype.Decimal(prec, rs, true)
			name := fmt.Sprintf("decimal(%d,%d) mode %d places %d", prec, scale, mode, places)
			wantRow := -1
			want := make([]*big.Int, n)
			for i := range n {
				v := vals[3+i]
				if v == nil {
					continue
				}
				r := new(big.Int).Set(v)
				if k := scale - places; places < scale {
					p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
					q, rem := new(big.Int).QuoRem(v, p, new(big.Int))
					switch mode {
					case RoundHalfAway:
						if new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2)).Cmp(p) >= 0 {
							q.Add(q, big.NewInt(int64(v.Sign())))
						}
					case RoundFloor:
						if rem.Sign() < 0 {
							q.Sub(q, big.NewInt(1))
						}
					case RoundCeil:
						if rem.Sign() > 0 {
							q.Add(q, big.NewInt(1))
						}
					}
					if places < 0 {
						q.Mul(q, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-places)), nil))
					}
					r = q
				}
				if new(big.Int).Abs(r).Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil)) >= 0 {
					wantRow = i
					break
				}
				want[i] = r
			}
			got, err := DecimalRound(mem, mode, x, places, ret)
			if wantRow >= 0 {
				var re *RowError
				if !errors.As(err, &re) || re.Row != wantRow {
					t.Fatalf("%s: got %v, want an overflow at row %d", name, err, wantRow)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res := valuesOf[decimal128.Num](got.Array())
			for i := range n {
				if got.Array().IsValid(i) != (want[i] != nil) {
					t.Fatalf("%s: row %d validity", name, i)
				}
				if want[i] != nil && res[i].BigInt().Cmp(want[i]) != 0 {
					t.Fatalf("%s: row %d: %s gives %s, want %s", name, i, vals[3+i], res[i].BigInt(), want[i])
				}
			}
			got.Release()
		}
		x.Release()
		full.Release()
	}
}

// TestBitwiseOracle checks IntBitwise (every shape) against big.Int
// arithmetic with DuckDB's shift rules, for every integer type.
func TestBitwiseOracle(t *testing.T) {
	testBitwiseOracle[int8](t, dtype.I8)
	testBitwiseOracle[int16](t, dtype.I16)
	testBitwiseOracle[int32](t, dtype.I32)
	testBitwiseOracle[int64](t, dtype.I64)
	testBitwiseOracle[uint8](t, dtype.U8)
	testBitwiseOracle[uint32](t, dtype.U32)
	testBitwiseOracle[uint64](t, dtype.U64)
}

// bigBit is x op s as DuckDB computes it; ok is false where it raises.
func bigBit[T Integer](op BitOp, x, s T) (*big.Int, bool) {
	a, b := bigOfInt(x), bigOfInt(s)
	w := int64(bitWidth[T]())
	switch op {
	case BitAnd:
		return a.And(a, b), true
	case BitOr:
		return a.Or(a, b), true
	case BitXor:
		r := a.Xor(a, b)
		if !isSigned[T]() {
			r.And(r, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1)))
		}
		return r, true
	case BitShiftRight:
		if b.Sign() < 0 || b.Cmp(big.NewInt(w)) >= 0 {
			return big.NewInt(0), true
		}
		return a.Rsh(a, uint(b.Int64())), true
	}
	switch {
	case a.Sign() < 0 || b.Sign() < 0:
		return nil, false
	case a.Sign() == 0:
		return a, true
	case b.Cmp(big.NewInt(w)) >= 0:
		return nil, false
	}
	r := a.Lsh(a, uint(b.Int64()))
	return r, bigFits[T](r)
}

func testBitwiseOracle[T Integer](t *testing.T, p dtype.PType) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(uint64(p), 11))
	typ := dtype.Primitive(p, true)
	w := bitWidth[T]()
	for trial := range 40 {
		n := 1 + rng.IntN(100)
		xs := randomInts[T](rng, n, 0)
		ys := randomInts[T](rng, n, 0)
		if trial%2 == 1 {
			for i := range ys { // shift amounts mostly in range
				ys[i] = T(rng.IntN(w + 3))
			}
			for i := range xs {
				if rng.IntN(2) == 0 {
					xs[i] = T(rng.IntN(8))
				}
			}
		}
		vx, vy := randomValid(rng, n), randomValid(rng, n)
		x, y := intColumn(mem, typ, xs, vx), intColumn(mem, typ, ys, vy)
		for op := BitAnd; op <= BitShiftRight; op++ {
			for shape := range 3 {
				l, r := x, y
				at := func(i int) (T, T, bool) { return xs[i], ys[i], vx[i] && vy[i] }
				switch shape {
				case 1:
					s, _ := scalar.New(typ.AsNonNullable(), scalarValue(ys[0]))
					r = datum.FromScalar(s, n)
					at = func(i int) (T, T, bool) { return xs[i], ys[0], vx[i] }
				case 2:
					s, _ := scalar.New(typ.AsNonNullable(), scalarValue(xs[0]))
					l = datum.FromScalar(s, n)
					at = func(i int) (T, T, bool) { return xs[0], ys[i], vy[i] }
				}
				name := fmt.Sprintf("%s op %d shape %d trial %d", p, op, shape, trial)
				wantRow := -1
				for i := range n {
					a, b, ok := at(i)
					if _, fine := bigBit(op, a, b); ok && !fine {
						wantRow = i
						break
					}
				}
				got, err := IntBitwise[T](mem, op, l, r, typ)
				if wantRow >= 0 {
					var re *RowError
					if !errors.As(err, &re) || re.Row != wantRow {
						t.Fatalf("%s: got %v, want an error at row %d", name, err, wantRow)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				vals := valuesOf[T](got.Array())
				for i := range n {
					a, b, ok := at(i)
					if got.Array().IsValid(i) != ok {
						t.Fatalf("%s: row %d validity", name, i)
					}
					if want, _ := bigBit(op, a, b); ok && bigOfInt(vals[i]).Cmp(want) != 0 {
						t.Fatalf("%s: row %d: %d op %d = %d, want %s", name, i, a, b, vals[i], want)
					}
				}
				got.Release()
			}
		}
		x.Release()
		y.Release()
	}
}

// TestFloatLoopsMatchOneRow checks the loops of the f64 functions, float
// rounding and sign against their one-row definitions, on plain and sliced
// columns with nulls, and that a scalar stays a scalar.
func TestFloatLoopsMatchOneRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	edges := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 2.5, -2.5, 1e308, -1e308, 5e-324, math.Inf(1), math.Inf(-1), math.NaN(), 0.285, 1.005, 2.675}
	n := 300
	xs := make([]float64, n+5)
	for i := range xs {
		switch rng.IntN(3) {
		case 0:
			xs[i] = edges[rng.IntN(len(edges))]
		case 1:
			xs[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
		default:
			xs[i] = math.Float64frombits(rng.Uint64())
		}
	}
	f64 := dtype.Primitive(dtype.F64, true)
	full := intColumnFloat(mem, f64, xs, randomValid(rng, n+5))
	defer full.Release()
	x := sliceDatum(full, 5, n)
	defer x.Release()
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	check := func(name string, got datum.Datum, one func(v float64) float64) {
		t.Helper()
		vals := valuesOf[float64](got.Array())
		for i := range n {
			if got.Array().IsValid(i) != x.Array().IsValid(i) {
				t.Fatalf("%s: row %d validity", name, i)
			}
			if x.Array().IsValid(i) && !same(vals[i], one(xs[5+i])) {
				t.Fatalf("%s: row %d: %v gives %v, want %v", name, i, xs[5+i], vals[i], one(xs[5+i]))
			}
		}
		got.Release()
	}
	for _, ops := range [][2]MathOp{{MathSqrt, MathLog}, {MathRadians, MathEven}} {
		for op := ops[0]; op <= ops[1]; op++ {
			check(fmt.Sprintf("math op %d", op), FloatMath(mem, op, x, f64), func(v float64) float64 { return mathOne(op, v) })
		}
	}
	for mode := RoundHalfAway; mode <= RoundCeil; mode++ {
		check(fmt.Sprintf("round mode %d", mode), FloatRound[float64](mem, mode, x, f64), func(v float64) float64 { return roundFloat(mode, v) })
	}
	for _, k := range []int32{-400, -309, -20, -2, -1, 0, 1, 2, 15, 300, 400} {
		s, _ := scalar.New(dtype.Primitive(dtype.I32, false), int64(k))
		for _, mode := range []RoundMode{RoundHalfAway, RoundTrunc} {
			check(fmt.Sprintf("round places %d mode %d", k, mode), FloatRoundDigits[float64](mem, mode, x, datum.FromScalar(s, n), f64),
				func(v float64) float64 { return roundFloatDigits(mode, v, k) })
		}
	}
	got := Sign[float64](mem, x, dtype.Primitive(dtype.I8, true))
	for i, s := range valuesOf[int8](got.Array()) {
		if v := xs[5+i]; x.Array().IsValid(i) && s != int8(b2u(v > 0))-int8(b2u(v < 0)) {
			t.Fatalf("sign(%v) = %d", v, s)
		}
	}
	got.Release()
	// All scalars: a scalar result.
	s, _ := scalar.New(dtype.Primitive(dtype.F64, false), 2.0)
	if r := FloatMath(mem, MathSqrt, datum.FromScalar(s, 3), f64); !r.IsScalar() || r.Scalar().Value().(float64) != math.Sqrt2 {
		t.Errorf("sqrt of a scalar: %v", r)
	}
}

// intColumnFloat is a float64 column with nulls.
func intColumnFloat(mem memory.Allocator, t dtype.DType, vals []float64, valid []bool) datum.Datum {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return datum.FromArray(b.NewArray(), t)
}

// TestExtremeOracle checks NumberExtreme against a row loop over three
// columns with nulls and NaN, one of them a scalar.
func TestExtremeOracle(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(8, 9))
	f64 := dtype.Primitive(dtype.F64, true)
	n := 200
	cols := make([][]float64, 2)
	valids := make([][]bool, 2)
	args := make([]datum.Datum, 3)
	for c := range cols {
		cols[c] = make([]float64, n)
		for i := range cols[c] {
			cols[c][i] = []float64{math.NaN(), 0, math.Copysign(0, -1), 1, -1, 2}[rng.IntN(6)]
		}
		valids[c] = randomValid(rng, n)
		args[c] = intColumnFloat(mem, f64, cols[c], valids[c])
	}
	s, _ := scalar.New(dtype.Primitive(dtype.F64, false), 0.5)
	args[2] = datum.FromScalar(s, n)
	for _, greatest := range []bool{true, false} {
		got, err := NumberExtreme[float64](mem, greatest, args, f64)
		if err != nil {
			t.Fatal(err)
		}
		vals := valuesOf[float64](got.Array())
		for i := range n {
			var best float64
			have := false
			for c, v := range []float64{cols[0][i], cols[1][i], 0.5} {
				if c < 2 && !valids[c][i] {
					continue
				}
				better := v > best || math.IsNaN(v) && !math.IsNaN(best)
				if !greatest {
					better = v < best && !math.IsNaN(v) || math.IsNaN(best) && !math.IsNaN(v)
				}
				if !have || better {
					best, have = v, true
				}
			}
			if math.Float64bits(vals[i]) != math.Float64bits(best) && !(math.IsNaN(best) && math.IsNaN(vals[i])) {
				t.Fatalf("greatest %v row %d: %v, want %v", greatest, i, vals[i], best)
			}
		}
		got.Release()
	}
	for _, a := range args {
		a.Release()
	}
}
