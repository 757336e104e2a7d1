package kernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
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
