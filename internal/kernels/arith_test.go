package kernels

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// interesting are values at the edges of every integer type and of exact
// float division, for the loops' oracle test.
var interesting = []int64{0, 1, -1, 2, -2, 3, 7, -7, 10, 127, -128, 128, 255, 256, 32767, -32768, 65535,
	1 << 31, -1 << 31, 1<<31 - 1, 1<<32 - 1, 1 << 32, 1 << 53, -1 << 53, 1<<53 - 1, -1<<53 + 1, 1<<53 + 1,
	1<<62 + 12345, -1 << 63, 1<<63 - 1, 3037000499, -3037000500, 4611686018427387904,
	1<<55 + 3, 1<<58 + 7, -1<<56 - 5, 123456789012345678, -98765432109876543}

// randomInts draws n values, a third from interesting, a third small, a
// third of random bits; with limit > 0 every value is below 2^limit in
// magnitude (so that a whole column may take a fast path).
func randomInts[T Integer](rng *rand.Rand, n int, limit int) []T {
	out := make([]T, n)
	for i := range out {
		var v int64
		switch rng.IntN(3) {
		case 0:
			v = interesting[rng.IntN(len(interesting))]
		case 1:
			v = int64(rng.Uint64())
		default:
			v = int64(rng.IntN(2001) - 1000)
		}
		if limit > 0 && (v >= 1<<limit || v <= -1<<limit) {
			v %= 1 << limit
		}
		out[i] = T(v)
	}
	return out
}

func intColumn[T Integer](mem memory.Allocator, t dtype.DType, vals []T, valid []bool) datum.Datum {
	b := array.NewBuilder(mem, dtype.ToArrow(t))
	defer b.Release()
	for i, v := range vals {
		if !valid[i] {
			b.AppendNull()
			continue
		}
		s, _ := scalar.New(t, scalarValue(v))
		if err := scalar.Append(b, s); err != nil {
			panic(err)
		}
	}
	return datum.FromArray(b.NewArray(), t)
}

// TestIntLoopsOracle checks the vectorized checked loops (column-column,
// column-scalar, scalar-column) against intOne, the row-at-a-time
// definition, for every integer type and operator.
func TestIntLoopsOracle(t *testing.T) {
	testIntOracle[int8](t, dtype.I8)
	testIntOracle[int16](t, dtype.I16)
	testIntOracle[int32](t, dtype.I32)
	testIntOracle[int64](t, dtype.I64)
	testIntOracle[uint8](t, dtype.U8)
	testIntOracle[uint16](t, dtype.U16)
	testIntOracle[uint32](t, dtype.U32)
	testIntOracle[uint64](t, dtype.U64)
}

func testIntOracle[T Integer](t *testing.T, p dtype.PType) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(uint64(p), 99))
	typ := dtype.Primitive(p, true)
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(150)
		limit := []int{0, 60, 54, 20}[trial%4]
		xs, ys := randomInts[T](rng, n, limit), randomInts[T](rng, n, limit)
		vx, vy := make([]bool, n), make([]bool, n)
		for i := range vx {
			vx[i], vy[i] = rng.IntN(8) != 0, rng.IntN(8) != 0
		}
		x, y := intColumn(mem, typ, xs, vx), intColumn(mem, typ, ys, vy)
		sx, sy := xs[0], ys[0]
		for op := OpAdd; op <= OpMod; op++ {
			for shape := 0; shape < 3; shape++ {
				l, r := x, y
				at := func(i int) (T, T, bool) { return xs[i], ys[i], vx[i] && vy[i] }
				switch shape {
				case 1:
					s, _ := scalar.New(typ.AsNonNullable(), scalarValue(sy))
					r = datum.FromScalar(s, n)
					at = func(i int) (T, T, bool) { return xs[i], sy, vx[i] }
				case 2:
					s, _ := scalar.New(typ.AsNonNullable(), scalarValue(sx))
					l = datum.FromScalar(s, n)
					at = func(i int) (T, T, bool) { return sx, ys[i], vy[i] }
				}
				name := fmt.Sprintf("%s %s shape %d trial %d", p, op, shape, trial)
				got, err := IntArith[T](mem, op, l, r, typ)
				wantRow := -1
				for i := 0; i < n; i++ {
					a, b, ok := at(i)
					if _, fail := intOne(op, a, b); ok && fail != nil {
						wantRow = i
						break
					}
				}
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
				for i := 0; i < n; i++ {
					a, b, ok := at(i)
					if got.Array().IsValid(i) != ok {
						t.Fatalf("%s: row %d validity %v", name, i, !ok)
					}
					if want, _ := intOne(op, a, b); ok && vals[i] != want {
						t.Fatalf("%s: row %d: %d %s %d = %d, want %d", name, i, a, op, b, vals[i], want)
					}
				}
				got.Release()
			}
		}
		x.Release()
		y.Release()
	}
}

// countingAlloc counts the allocations a kernel asks for.
type countingAlloc struct {
	memory.Allocator
	n int
}

func (c *countingAlloc) Allocate(size int) []byte {
	c.n++
	return c.Allocator.Allocate(size)
}

// TestOneAllocation: checked arithmetic allocates its output buffer once,
// plus the validity bitmap when an input has nulls, and nothing for a
// scalar result.
func TestOneAllocation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := dtype.Primitive(dtype.U32, true)
	vals := make([]uint32, 1000)
	all, some := make([]bool, 1000), make([]bool, 1000)
	for i := range all {
		all[i], some[i] = true, i%10 != 0
	}
	x, y := intColumn(mem, typ, vals, all), intColumn(mem, typ, vals, some)
	defer x.Release()
	defer y.Release()
	one := datum.FromScalar(scalar.Uint(dtype.U32, 1), 1000)
	for _, c := range []struct {
		name string
		l, r datum.Datum
		want int
	}{
		{"no nulls", x, x, 1},
		{"nulls", x, y, 2},
		{"scalar", x, one, 1},
		{"scalars", one, one, 0},
	} {
		ca := &countingAlloc{Allocator: mem}
		res, err := IntArith[uint32](ca, OpAdd, c.l, c.r, typ)
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
		if ca.n != c.want {
			t.Errorf("%s: %d allocations, want %d", c.name, ca.n, c.want)
		}
	}
}

// randomDecimal is a value of at most p digits, often at the edge.
func randomDecimal(rng *rand.Rand, p int) *big.Int {
	lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
	var v *big.Int
	switch rng.IntN(4) {
	case 0:
		v = new(big.Int).Sub(lim, big.NewInt(int64(1+rng.IntN(3))))
	case 1:
		v = big.NewInt(int64(rng.IntN(201) - 100))
	default:
		// Random digits, of a random length.
		v = new(big.Int)
		for d := rng.IntN(p) + 1; d > 0; d-- {
			v.Mul(v, big.NewInt(10))
			v.Add(v, big.NewInt(int64(rng.IntN(10))))
		}
	}
	if rng.IntN(2) == 0 {
		v.Neg(v)
	}
	return v
}

// TestDecimalOracle checks decimal add, sub, mul and mod (all loops and
// fast paths) against math/big.
func TestDecimalOracle(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(17, 18))
	types := [][2][2]int{
		{{5, 2}, {4, 1}}, {{15, 2}, {15, 2}}, {{18, 0}, {18, 0}}, {{18, 4}, {18, 2}},
		{{38, 0}, {38, 0}}, {{20, 5}, {20, 5}}, {{38, 10}, {10, 2}}, {{19, 0}, {3, 0}},
	}
	for _, tp := range types {
		lt := dtype.Decimal(tp[0][0], tp[0][1], true)
		rt := dtype.Decimal(tp[1][0], tp[1][1], true)
		for op := OpAdd; op <= OpMod; op++ {
			if op == OpDiv {
				continue
			}
			var ret dtype.DType
			s1, s2 := lt.Scale(), rt.Scale()
			i1, i2 := lt.Precision()-s1, rt.Precision()-s2
			switch op {
			case OpAdd, OpSub:
				ret = dtype.Decimal(min(max(i1, i2)+max(s1, s2)+1, 38), max(s1, s2), true)
			case OpMul:
				if s1+s2 > 38 {
					continue
				}
				ret = dtype.Decimal(min(lt.Precision()+rt.Precision(), 38), s1+s2, true)
			case OpMod:
				ret = dtype.Decimal(min(max(i1, i2)+max(s1, s2), 38), max(s1, s2), true)
			}
			for trial := 0; trial < 30; trial++ {
				n := 1 + rng.IntN(40)
				xs, ys := make([]*big.Int, n), make([]*big.Int, n)
				xb := array.NewDecimal128Builder(mem, dtype.ToArrow(lt).(*arrow.Decimal128Type))
				yb := array.NewDecimal128Builder(mem, dtype.ToArrow(rt).(*arrow.Decimal128Type))
				shape := trial % 3 // column-column, column-scalar, scalar-column
				for i := range xs {
					xs[i], ys[i] = randomDecimal(rng, lt.Precision()), randomDecimal(rng, rt.Precision())
					if shape == 1 {
						ys[i] = ys[0]
					}
					if shape == 2 {
						xs[i] = xs[0]
					}
					xb.Append(num(xs[i]))
					yb.Append(num(ys[i]))
				}
				x, y := datum.FromArray(xb.NewArray(), lt), datum.FromArray(yb.NewArray(), rt)
				xb.Release()
				yb.Release()
				if shape == 1 {
					y.Release()
					y = datum.FromScalar(scalar.Decimal(num(ys[0]), rt.Precision(), rt.Scale()).WithDType(rt), n)
				}
				if shape == 2 {
					x.Release()
					x = datum.FromScalar(scalar.Decimal(num(xs[0]), lt.Precision(), lt.Scale()).WithDType(lt), n)
				}
				name := fmt.Sprintf("%s %s %s -> %s", lt, op, rt, ret)
				// The reference, row by row.
				wantRow, want := -1, make([]*big.Int, n)
				lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ret.Precision())), nil)
				for i := range xs {
					a, b := new(big.Int).Set(xs[i]), new(big.Int).Set(ys[i])
					if op != OpMul {
						a.Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ret.Scale()-s1)), nil))
						b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ret.Scale()-s2)), nil))
					}
					var r *big.Int
					switch op {
					case OpAdd:
						r = a.Add(a, b)
					case OpSub:
						r = a.Sub(a, b)
					case OpMul:
						r = a.Mul(a, b)
					case OpMod:
						if b.Sign() == 0 {
							wantRow = i
						} else {
							r = a.Rem(a, b)
						}
					}
					if r == nil || new(big.Int).Abs(r).Cmp(lim) >= 0 {
						if wantRow < 0 {
							wantRow = i
						}
						break
					}
					want[i] = r
				}
				got, err := DecimalArith(mem, op, x, y, ret)
				switch {
				case wantRow >= 0:
					var re *RowError
					if !errors.As(err, &re) || re.Row != wantRow {
						t.Fatalf("%s: got %v, want an error at row %d", name, err, wantRow)
					}
				case err != nil:
					t.Fatalf("%s: %v", name, err)
				default:
					vals := valuesOf[decimal128.Num](got.Array())
					for i := range vals {
						if vals[i].BigInt().Cmp(want[i]) != 0 {
							t.Fatalf("%s: row %d: %v %s %v = %v, want %v", name, i, xs[i], op, ys[i], vals[i].BigInt(), want[i])
						}
					}
					got.Release()
				}
				x.Release()
				y.Release()
			}
		}
	}
}
