package kernels

// The list aggregates: list_sum, list_avg, list_min, list_max and
// list_count (fn/list_more.go), one typed pass over each row's elements.

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// ListAggOp is an aggregate over each list's non-null elements.
type ListAggOp uint8

const (
	// AggSum: the sum (integers checked as i64, or u64 for u64 elements;
	// floats as f64; decimals at precision 38); null when there is no
	// element.
	AggSum ListAggOp = iota
	// AggAvg: the mean as f64; null when there is no element.
	AggAvg
	// AggMin: the least element (list_sort's order); null when none.
	AggMin
	// AggMax: the greatest element; null when none.
	AggMax
	// AggCount: the number of non-null elements, i64; 0 for an empty list.
	AggCount
)

// ListAggregate computes op over each list of xs; a null list gives null.
func ListAggregate(mem memory.Allocator, op ListAggOp, xs datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if anyNullScalar([]datum.Datum{xs}) {
		return nullResult(ret, n), nil
	}
	lv, owned, err := listArg(mem, xs, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	var xv Bitmap
	if !xs.IsScalar() {
		xv = ValidityOf(xs.Array())
	}
	a := aggInput{lv: &lv, xv: xv, cv: validityOrNone(lv.child), n: n}
	var arr arrow.Array
	switch op {
	case AggCount:
		arr = a.count(mem)
	case AggMin, AggMax:
		arr, err = a.extreme(mem, op == AggMax)
	case AggSum:
		arr, err = a.sum(mem, ret)
	case AggAvg:
		arr, err = a.avg(mem)
	}
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(arr, ret), nil
}

// aggInput is a list argument being aggregated.
type aggInput struct {
	lv     *listView
	xv, cv Bitmap // the lists' and the elements' validity
	n      int
}

func (a aggInput) count(mem memory.Allocator) arrow.Array {
	buf, out := newInt64Values(mem, a.n)
	for i := range out {
		s, e := a.lv.bounds(i)
		c := e - s
		if !a.cv.AllSet() {
			c = 0
			for p := s; p < e; p++ {
				c += int(b2u(a.cv.Get(p)))
			}
		}
		out[i] = int64(c)
	}
	validity, nulls := a.listValidity(mem)
	return makeArray(arrow.PrimitiveTypes.Int64, a.n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
}

// listValidity is a copy of the lists' validity.
func (a aggInput) listValidity(mem memory.Allocator) (*memory.Buffer, int) {
	if a.xv.AllSet() || a.lv.one {
		return nil, 0
	}
	buf, words := NewBits(mem, a.n)
	for w := range words {
		words[w] = a.xv.Word(w)
	}
	maskTail(words, a.n)
	nulls := CountZeros(words, a.n)
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// extreme picks each row's least (or greatest) element, and gathers them.
func (a aggInput) extreme(mem memory.Allocator, greatest bool) (arrow.Array, error) {
	cmp, err := orderOf(a.lv.child)
	if err != nil {
		return nil, err
	}
	pick := make([]int32, a.n)
	for i := range pick {
		pick[i] = -1
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		for p := s; p < e; p++ {
			if !a.cv.Get(p) {
				continue
			}
			best := pick[i]
			if best < 0 {
				pick[i] = int32(p)
				continue
			}
			// Of equal elements the last wins, as in DuckDB (seen with -0
			// and 0: list_min([0, -0]) is -0, list_min([-0, 0]) is 0).
			if c := cmp(p, int(best)); (c >= 0) == greatest || c == 0 {
				pick[i] = int32(p)
			}
		}
	}
	return Gather(mem, a.lv.child, pick)
}

// fixedResult builds a fixed-width result from values and the rows found.
func aggArray(dt arrow.DataType, n int, buf *memory.Buffer, vbuf *memory.Buffer, words []uint64) arrow.Array {
	maskTail(words, n)
	nulls := CountZeros(words, n)
	if nulls == 0 {
		vbuf.Release()
		vbuf = nil
	}
	return makeArray(dt, n, []*memory.Buffer{vbuf, buf}, nil, nulls, 0)
}

func (a aggInput) sum(mem memory.Allocator, ret dtype.DType) (arrow.Array, error) {
	child := a.lv.child
	switch child.DataType().ID() {
	case arrow.INT8:
		return sumSigned(mem, a, valuesOf[int8](child))
	case arrow.INT16:
		return sumSigned(mem, a, valuesOf[int16](child))
	case arrow.INT32:
		return sumSigned(mem, a, valuesOf[int32](child))
	case arrow.INT64:
		return sumSigned(mem, a, valuesOf[int64](child))
	case arrow.UINT8:
		return sumSigned(mem, a, valuesOf[uint8](child))
	case arrow.UINT16:
		return sumSigned(mem, a, valuesOf[uint16](child))
	case arrow.UINT32:
		return sumSigned(mem, a, valuesOf[uint32](child))
	case arrow.UINT64:
		return sumU64(mem, a, valuesOf[uint64](child))
	case arrow.FLOAT16:
		return sumFloat(mem, a, valuesOf[float16.Num](child), func(v float16.Num) float64 { return float64(v.Float32()) }, false)
	case arrow.FLOAT32:
		return sumFloat(mem, a, valuesOf[float32](child), func(v float32) float64 { return float64(v) }, false)
	case arrow.FLOAT64:
		return sumFloat(mem, a, valuesOf[float64](child), func(v float64) float64 { return v }, false)
	case arrow.DECIMAL128:
		return sumDecimal(mem, a, valuesOf[decimal128.Num](child), dtype.ToArrow(ret))
	}
	return nil, fmt.Errorf("list_sum over Arrow %s elements: %w", child.DataType(), errs.ErrInvalidArgument)
}

func (a aggInput) avg(mem memory.Allocator) (arrow.Array, error) {
	child := a.lv.child
	switch child.DataType().ID() {
	case arrow.INT8:
		return avgInt(mem, a, valuesOf[int8](child))
	case arrow.INT16:
		return avgInt(mem, a, valuesOf[int16](child))
	case arrow.INT32:
		return avgInt(mem, a, valuesOf[int32](child))
	case arrow.INT64:
		return avgInt(mem, a, valuesOf[int64](child))
	case arrow.UINT8:
		return avgInt(mem, a, valuesOf[uint8](child))
	case arrow.UINT16:
		return avgInt(mem, a, valuesOf[uint16](child))
	case arrow.UINT32:
		return avgInt(mem, a, valuesOf[uint32](child))
	case arrow.UINT64:
		return avgInt(mem, a, valuesOf[uint64](child))
	case arrow.FLOAT16:
		return sumFloat(mem, a, valuesOf[float16.Num](child), func(v float16.Num) float64 { return float64(v.Float32()) }, true)
	case arrow.FLOAT32:
		return sumFloat(mem, a, valuesOf[float32](child), func(v float32) float64 { return float64(v) }, true)
	case arrow.FLOAT64:
		return sumFloat(mem, a, valuesOf[float64](child), func(v float64) float64 { return v }, true)
	case arrow.DECIMAL128:
		scale := child.DataType().(*arrow.Decimal128Type).Scale
		return avgDecimal(mem, a, valuesOf[decimal128.Num](child), scale)
	}
	return nil, fmt.Errorf("list_avg over Arrow %s elements: %w", child.DataType(), errs.ErrInvalidArgument)
}

// sumSigned sums integers that fit i64 into a checked i64.
func sumSigned[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](mem memory.Allocator, a aggInput, vals []T) (arrow.Array, error) {
	buf, out := newInt64Values(mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	allValid := a.cv.AllSet()
	for i := range a.n {
		out[i] = 0
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc int64
		found := false
		for p := s; p < e; p++ {
			if !allValid && !a.cv.Get(p) {
				continue
			}
			v := int64(vals[p])
			r := acc + v
			if (acc^r)&(v^r) < 0 {
				buf.Release()
				vbuf.Release()
				return nil, &RowError{Row: i, Err: fmt.Errorf("list_sum exceeds i64: %w", errs.ErrOverflow)}
			}
			acc, found = r, true
		}
		out[i] = acc
		words[i>>6] |= b2u(found) << uint(i&63)
	}
	return aggArray(arrow.PrimitiveTypes.Int64, a.n, buf, vbuf, words), nil
}

// sumU64 sums u64 elements into a checked u64.
func sumU64(mem memory.Allocator, a aggInput, vals []uint64) (arrow.Array, error) {
	buf, out := newValues[uint64](mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	for i := range a.n {
		out[i] = 0
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc, carry uint64
		found := false
		for p := s; p < e; p++ {
			if a.cv.Get(p) {
				acc, carry = bits.Add64(acc, vals[p], 0)
				if carry != 0 {
					buf.Release()
					vbuf.Release()
					return nil, &RowError{Row: i, Err: fmt.Errorf("list_sum exceeds u64: %w", errs.ErrOverflow)}
				}
				found = true
			}
		}
		out[i] = acc
		words[i>>6] |= b2u(found) << uint(i&63)
	}
	return aggArray(arrow.PrimitiveTypes.Uint64, a.n, buf, vbuf, words), nil
}

// sumFloat sums floats as f64, in order; with mean, divides by the count.
func sumFloat[T any](mem memory.Allocator, a aggInput, vals []T, f func(T) float64, mean bool) (arrow.Array, error) {
	buf, out := newValues[float64](mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	for i := range a.n {
		out[i] = 0
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc float64
		c := 0
		for p := s; p < e; p++ {
			if a.cv.Get(p) {
				acc += f(vals[p])
				c++
			}
		}
		if mean && c > 0 {
			acc /= float64(c)
		}
		out[i] = acc
		words[i>>6] |= b2u(c > 0) << uint(i&63)
	}
	return aggArray(arrow.PrimitiveTypes.Float64, a.n, buf, vbuf, words), nil
}

// avgInt is the mean of integers: an exact 128-bit sum divided by the
// count, rounded once (as DuckDB's avg).
func avgInt[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](mem memory.Allocator, a aggInput, vals []T) (arrow.Array, error) {
	buf, out := newValues[float64](mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	for i := range a.n {
		out[i] = 0
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc decimal128.Num
		c := 0
		for p := s; p < e; p++ {
			if a.cv.Get(p) {
				v := vals[p]
				var x decimal128.Num
				if v < 0 {
					x = decimal128.FromI64(int64(v))
				} else {
					x = decimal128.FromU64(uint64(v))
				}
				acc, _ = decAdd(acc, x) // 2^64 elements of at most 2^64 do not overflow 2^127
				c++
			}
		}
		if c > 0 {
			out[i] = quotient(acc, uint64(c))
		}
		words[i>>6] |= b2u(c > 0) << uint(i&63)
	}
	return aggArray(arrow.PrimitiveTypes.Float64, a.n, buf, vbuf, words), nil
}

// quotient is sum / div (div > 0) rounded to the nearest f64: DuckDB
// divides its exact sum in long double, which this matches but where
// rounding twice differs. Sums and divisors within 2^53 convert exactly,
// so one division rounds correctly; others go through big.Rat.
func quotient(sum decimal128.Num, div uint64) float64 {
	const exact = 1 << 53
	if h := sum.HighBits(); (h == 0 && sum.LowBits() <= exact) || (h == -1 && int64(sum.LowBits()) < 0 && int64(sum.LowBits()) >= -exact) {
		if div <= exact {
			return float64(int64(sum.LowBits())) / float64(div)
		}
	}
	q := new(big.Rat).SetFrac(sum.BigInt(), new(big.Int).SetUint64(div))
	f, _ := q.Float64()
	return f
}

// sumDecimal sums decimals at precision 38, checked.
func sumDecimal(mem memory.Allocator, a aggInput, vals []decimal128.Num, dt arrow.DataType) (arrow.Array, error) {
	buf, out := newValues[decimal128.Num](mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	for i := range a.n {
		out[i] = decimal128.Num{}
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc decimal128.Num
		found := false
		for p := s; p < e; p++ {
			if a.cv.Get(p) {
				var ok bool
				acc, ok = decAdd(acc, vals[p])
				if !ok || !fitsPrecision(acc, 38) {
					buf.Release()
					vbuf.Release()
					return nil, &RowError{Row: i, Err: fmt.Errorf("list_sum exceeds decimal precision 38: %w", errs.ErrOverflow)}
				}
				found = true
			}
		}
		out[i] = acc
		words[i>>6] |= b2u(found) << uint(i&63)
	}
	return aggArray(dt, a.n, buf, vbuf, words), nil
}

// decQuotient is sum / (count × 10^scale), rounded once.
func decQuotient(sum decimal128.Num, count uint64, scale int) float64 {
	if scale <= 15 {
		if hi, lo := bits.Mul64(count, uint64(math.Pow10(scale))); hi == 0 && lo <= 1<<53 {
			return quotient(sum, lo)
		}
	}
	div := new(big.Int).Mul(new(big.Int).SetUint64(count), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	f, _ := new(big.Rat).SetFrac(sum.BigInt(), div).Float64()
	return f
}

// avgDecimal is the mean of decimals as f64: the exact sum divided by
// count × 10^scale, rounded once (as DuckDB's avg).
func avgDecimal(mem memory.Allocator, a aggInput, vals []decimal128.Num, scale int32) (arrow.Array, error) {
	buf, out := newValues[float64](mem, a.n)
	vbuf, words := NewBits(mem, a.n)
	for i := range a.n {
		out[i] = 0
		if !a.xv.Get(i) {
			continue
		}
		s, e := a.lv.bounds(i)
		var acc decimal128.Num
		c := 0
		for p := s; p < e; p++ {
			if a.cv.Get(p) {
				var ok bool
				if acc, ok = decAdd(acc, vals[p]); !ok {
					buf.Release()
					vbuf.Release()
					return nil, &RowError{Row: i, Err: fmt.Errorf("list_avg sum exceeds 128 bits: %w", errs.ErrOverflow)}
				}
				c++
			}
		}
		if c > 0 {
			out[i] = decQuotient(acc, uint64(c), int(scale))
		}
		words[i>>6] |= b2u(c > 0) << uint(i&63)
	}
	return aggArray(arrow.PrimitiveTypes.Float64, a.n, buf, vbuf, words), nil
}
