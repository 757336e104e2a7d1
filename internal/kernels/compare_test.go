package kernels

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// decimalEdges are values of a decimal of precision p: both ends of the
// range, values around zero, and, for p > 18, values past int64 whose low
// words alone would order them wrongly.
func decimalEdges(p int) []decimal128.Num {
	max := decimal128.GetMaxValue(int32(p))
	vals := []decimal128.Num{
		max, max.Negate(), max.Sub(decimal128.FromI64(1)), max.Negate().Add(decimal128.FromI64(1)),
		decimal128.FromI64(0), decimal128.FromI64(1), decimal128.FromI64(-1),
		decimal128.FromI64(5), decimal128.FromI64(7), decimal128.FromI64(-7),
	}
	if p > 18 {
		// 2^63 has low word 1<<63, which reads as the least int64.
		vals = append(vals, decimal128.FromBigInt(new(big.Int).Lsh(big.NewInt(1), 63)),
			decimal128.FromBigInt(new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 64))))
	}
	return vals
}

// decimalColumn builds n rows cycling through vals with every fifth row
// null (the rows shifted by shift), then slices off the first 3 rows so the
// array starts at an offset.
func decimalColumn(mem memory.Allocator, p, n, shift int, vals []decimal128.Num) arrow.Array {
	b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: int32(p), Scale: 2})
	defer b.Release()
	for i := range n + 3 {
		if (i+shift)%5 == 4 {
			b.AppendNull()
			continue
		}
		b.Append(vals[(i*7+shift)%len(vals)])
	}
	full := b.NewArray()
	defer full.Release()
	return array.NewSlice(full, 3, int64(n+3))
}

// wantCmp is op over two decimals.
func wantCmp(op CmpOp, x, y decimal128.Num) bool {
	return cmpBit(op, x.Cmp(y)) == 1
}

// checkBools compares a bool result with want (nil for null) row by row.
func checkBools(t *testing.T, what string, got datum.Datum, want []*bool) {
	t.Helper()
	if got.IsScalar() {
		t.Fatalf("%s: got a scalar, want %d rows", what, len(want))
	}
	arr := got.Array().(*array.Boolean)
	if arr.Len() != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, arr.Len(), len(want))
	}
	for i, w := range want {
		switch {
		case w == nil && arr.IsValid(i):
			t.Errorf("%s row %d: got %v, want null", what, i, arr.Value(i))
		case w != nil && arr.IsNull(i):
			t.Errorf("%s row %d: got null, want %v", what, i, *w)
		case w != nil && arr.Value(i) != *w:
			t.Errorf("%s row %d: got %v, want %v", what, i, arr.Value(i), *w)
		}
	}
}

func TestCompareDecimals(t *testing.T) {
	ops := []struct {
		name string
		op   CmpOp
	}{{"=", CmpEq}, {"!=", CmpNe}, {"<", CmpLt}, {"<=", CmpLe}, {">", CmpGt}, {">=", CmpGe}}
	for _, p := range []int{15, 18, 19, 38} {
		for _, n := range []int{0, 1, 63, 64, 200} {
			t.Run(fmt.Sprintf("p%d/n%d", p, n), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				dt := dtype.Decimal(p, 2, true)
				vals := decimalEdges(p)
				xa := decimalColumn(mem, p, n, 0, vals)
				ya := decimalColumn(mem, p, n, 2, vals)
				defer xa.Release()
				defer ya.Release()
				x, y := datum.FromArray(xa, dt), datum.FromArray(ya, dt)
				xs, ys := xa.(*array.Decimal128), ya.(*array.Decimal128)
				for _, o := range ops {
					// column op column
					want := make([]*bool, n)
					for i := range n {
						if xs.IsValid(i) && ys.IsValid(i) {
							w := wantCmp(o.op, xs.Value(i), ys.Value(i))
							want[i] = &w
						}
					}
					got, err := Compare(mem, o.op, x, y, dtype.Bool(true))
					if err != nil {
						t.Fatal(err)
					}
					checkBools(t, "x "+o.name+" y", got, want)
					got.Release()
					// column op scalar and scalar op column
					for _, s := range vals {
						sd := datum.FromScalar(scalar.Decimal(s, p, 2), n)
						for _, flip := range []bool{false, true} {
							want := make([]*bool, n)
							for i := range n {
								if xs.IsValid(i) {
									var w bool
									if flip {
										w = wantCmp(o.op, s, xs.Value(i))
									} else {
										w = wantCmp(o.op, xs.Value(i), s)
									}
									want[i] = &w
								}
							}
							l, r := x, sd
							if flip {
								l, r = sd, x
							}
							got, err := Compare(mem, o.op, l, r, dtype.Bool(true))
							if err != nil {
								t.Fatal(err)
							}
							checkBools(t, fmt.Sprintf("flip=%v %s %s", flip, o.name, s.BigInt()), got, want)
							got.Release()
						}
					}
				}
				// BETWEEN with scalar bounds, and IS DISTINCT FROM.
				for _, lo := range vals {
					for _, hi := range vals[:4] {
						want := make([]*bool, n)
						for i := range n {
							if xs.IsValid(i) {
								v := xs.Value(i)
								w := v.GreaterEqual(lo) && v.LessEqual(hi)
								want[i] = &w
							}
						}
						got, err := Between(mem, x, datum.FromScalar(scalar.Decimal(lo, p, 2), n),
							datum.FromScalar(scalar.Decimal(hi, p, 2), n), dtype.Bool(true))
						if err != nil {
							t.Fatal(err)
						}
						checkBools(t, fmt.Sprintf("between %s and %s", lo.BigInt(), hi.BigInt()), got, want)
						got.Release()
					}
				}
				want := make([]*bool, n)
				for i := range n {
					var w bool
					switch xv, yv := xs.IsValid(i), ys.IsValid(i); {
					case xv && yv:
						w = xs.Value(i) != ys.Value(i)
					default:
						w = xv != yv
					}
					want[i] = &w
				}
				got, err := Distinct(mem, false, x, y, dtype.Bool(false))
				if err != nil {
					t.Fatal(err)
				}
				checkBools(t, "x is distinct from y", got, want)
				got.Release()
			})
		}
	}
}
