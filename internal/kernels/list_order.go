package kernels

// The equality and order of list elements: list_has_any, list_has_all and
// list_position, the keys they and list_distinct compare elements by
// (keyer), and the order of list_sort, list_min and list_max (orderOf),
// nested lists and structs included.

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/zeroed"
)

// ListHas is list_has_any(a, b) (all false) or list_has_all(a, b) (all
// true), as DuckDB defines them: null when a or b is null; otherwise
// whether some (every) non-null element of b is an element of a (NaN
// equal to NaN, -0 to 0, as in DuckDB). Null elements are ignored on both
// sides, so list_has_all(a, []) is true and
// list_has_any(a, []) false.
func ListHas(mem memory.Allocator, a, b datum.Datum, all bool, ret dtype.DType) (datum.Datum, error) {
	n := a.Len()
	if anyNullScalar([]datum.Datum{a, b}) {
		return nullResult(ret, n), nil
	}
	av, ao, err := listArg(mem, a, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if ao != nil {
		defer ao.Release()
	}
	bv, bo, err := listArg(mem, b, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if bo != nil {
		defer bo.Release()
	}
	// The two children as one, so that one keyer reads both.
	child, err := array.Concatenate([]arrow.Array{av.child, bv.child}, zeroed.Allocator{Allocator: mem})
	if err != nil {
		return datum.Datum{}, err
	}
	defer child.Release()
	base := av.child.Len()
	cv := validityOrNone(child)
	keys := keyerOf(child)
	set := map[string]struct{}{}
	valBuf, words := NewBits(mem, n)
	FillBits(words, n, func(i int) bool {
		as, ae := av.bounds(i)
		bs, be := bv.bounds(i)
		has := func(q int) bool {
			if keys.key != nil {
				_, ok := set[keys.key(q)]
				return ok
			}
			for p := as; p < ae; p++ {
				if cv.Get(p) && equalAt(child, p, child, q) {
					return true
				}
			}
			return false
		}
		if keys.key != nil {
			clear(set)
			for p := as; p < ae; p++ {
				if cv.Get(p) {
					set[keys.key(p)] = struct{}{}
				}
			}
		}
		for q := base + bs; q < base+be; q++ {
			if !cv.Get(q) {
				continue
			}
			if has(q) != all {
				return !all
			}
		}
		return all
	})
	var aArr, bArr arrow.Array
	if !a.IsScalar() {
		aArr = a.Array()
	}
	if !b.IsScalar() {
		bArr = b.Array()
	}
	validity, nulls := andValidity(mem, n, aArr, bArr)
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}

// ListPosition is list_position(xs, v), as DuckDB defines it: the 1-based
// position of the first element of xs not distinct from v (a null v finds
// the first null element), null when there is none or xs is null. Floats
// compare as DuckDB's list_position compares them: -0 equals 0, NaN finds
// NaN.
func ListPosition(mem memory.Allocator, xs, v datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if xs.IsScalar() && xs.Scalar().IsNull() {
		return nullResult(ret, n), nil
	}
	lv, lo, err := listArg(mem, xs, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if lo != nil {
		defer lo.Release()
	}
	vc, err := columnOf(mem, v)
	if err != nil {
		return datum.Datum{}, err
	}
	defer vc.release()
	child, err := array.Concatenate([]arrow.Array{lv.child, vc.arr}, zeroed.Allocator{Allocator: mem})
	if err != nil {
		return datum.Datum{}, err
	}
	defer child.Release()
	base := lv.child.Len()
	cv := validityOrNone(child)
	keys := keyerOf(child)
	var xv Bitmap
	if !xs.IsScalar() {
		xv = ValidityOf(xs.Array())
	}
	buf, out := newInt64Values(mem, n)
	vbuf, words := NewBits(mem, n)
	for i := range n {
		out[i] = 0
		if !xv.Get(i) {
			continue
		}
		q := base + vc.row(i)
		s, e := lv.bounds(i)
		qValid := cv.Get(q)
		var qk string
		if qValid && keys.key != nil {
			qk = keys.key(q)
		}
		for p := s; p < e; p++ {
			pv := cv.Get(p)
			var eq bool
			switch {
			case !pv || !qValid:
				eq = pv == qValid
			case keys.key != nil:
				eq = keys.key(p) == qk
			default:
				eq = equalAt(child, p, child, q)
			}
			if eq {
				out[i] = int64(p-s) + 1
				words[i>>6] |= 1 << uint(i&63)
				break
			}
		}
	}
	maskTail(words, n)
	nulls := CountZeros(words, n)
	if nulls == 0 {
		vbuf.Release()
		vbuf = nil
	}
	return datum.FromArray(makeArray(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{vbuf, buf}, nil, nulls, 0), ret), nil
}

// keyer gives each non-null element of an array a string key, equal for
// elements that are equal under `=` (floats: -0 and 0 alike; NaN equal to
// NaN, as in DuckDB's list_distinct); key is nil for nested elements,
// which are compared with equalAt instead. Keys view the array's buffers:
// they live as long as it does.
type keyer struct {
	key func(j int) string
}

// The keys of float zero and NaN: every zero and every NaN has one.
var (
	zeroKey = string(make([]byte, 8))
	nanKey  = "\xff\xff\xff\xff\xff\xff\xff\x7f"
)

func keyerOf(arr arrow.Array) keyer {
	if arr.Len() == 0 {
		return keyer{func(int) string { return "" }} // never called
	}
	switch arr.DataType().ID() {
	case arrow.FLOAT16:
		vals := valuesOf[float16.Num](arr)
		return keyer{func(j int) string {
			f := vals[j].Float32()
			switch {
			case f == 0:
				return zeroKey
			case f != f:
				return nanKey
			}
			return bytesString(unsafe.Slice((*byte)(unsafe.Pointer(&vals[j])), 2))
		}}
	case arrow.FLOAT32:
		vals := valuesOf[float32](arr)
		return keyer{func(j int) string {
			f := vals[j]
			switch {
			case f == 0:
				return zeroKey
			case f != f:
				return nanKey
			}
			return bytesString(unsafe.Slice((*byte)(unsafe.Pointer(&vals[j])), 4))
		}}
	case arrow.FLOAT64:
		vals := valuesOf[float64](arr)
		return keyer{func(j int) string {
			f := vals[j]
			switch {
			case f == 0:
				return zeroKey
			case f != f:
				return nanKey
			}
			return bytesString(unsafe.Slice((*byte)(unsafe.Pointer(&vals[j])), 8))
		}}
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		return keyer{func(j int) string {
			if b.Value(j) {
				return "t"
			}
			return "f"
		}}
	case arrow.STRING, arrow.BINARY:
		bv, err := viewBytes(arr)
		if err != nil {
			return keyer{}
		}
		return keyer{func(j int) string { return bytesString(bv.at(j)) }}
	case arrow.NULL:
		return keyer{func(int) string { return "" }}
	}
	if w := plainWidth(arr); w > 0 {
		d := arr.Data()
		b := d.Buffers()[1].Bytes()[d.Offset()*w:]
		return keyer{func(j int) string { return bytesString(b[j*w : (j+1)*w]) }}
	}
	return keyer{}
}

// orderOf is the order of list_sort over the non-null rows of arr.
func orderOf(arr arrow.Array) (func(a, b int) int, error) {
	switch arr.DataType().ID() {
	case arrow.INT8:
		return orderedCmp(valuesOf[int8](arr)), nil
	case arrow.INT16:
		return orderedCmp(valuesOf[int16](arr)), nil
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return orderedCmp(valuesOf[int32](arr)), nil
	case arrow.INT64, arrow.TIME64, arrow.TIMESTAMP, arrow.DATE64:
		return orderedCmp(valuesOf[int64](arr)), nil
	case arrow.UINT8:
		return orderedCmp(valuesOf[uint8](arr)), nil
	case arrow.UINT16:
		return orderedCmp(valuesOf[uint16](arr)), nil
	case arrow.UINT32:
		return orderedCmp(valuesOf[uint32](arr)), nil
	case arrow.UINT64:
		return orderedCmp(valuesOf[uint64](arr)), nil
	case arrow.FLOAT32:
		vals := valuesOf[float32](arr)
		return func(a, b int) int { return floatCmp(float64(vals[a]), float64(vals[b])) }, nil
	case arrow.FLOAT64:
		vals := valuesOf[float64](arr)
		return func(a, b int) int { return floatCmp(vals[a], vals[b]) }, nil
	case arrow.FLOAT16:
		vals := valuesOf[float16.Num](arr)
		return func(a, b int) int { return floatCmp(float64(vals[a].Float32()), float64(vals[b].Float32())) }, nil
	case arrow.DECIMAL128:
		vals := valuesOf[decimal128.Num](arr)
		return func(a, b int) int { return decCmp(vals[a], vals[b]) }, nil
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		return func(x, y int) int { return int(b2u(b.Value(x))) - int(b2u(b.Value(y))) }, nil
	case arrow.STRING, arrow.BINARY:
		bv, err := viewBytes(arr)
		if err != nil {
			return nil, err
		}
		return func(a, b int) int { return compareBytes(bv.at(a), bv.at(b)) }, nil
	case arrow.NULL:
		return func(int, int) int { return 0 }, nil
	}
	return nestedOrder(arr)
}

// nestedOrder orders lists and structs as DuckDB does: lists
// lexicographically (a prefix first), structs field by field, a null
// inside them above every value.
func nestedOrder(arr arrow.Array) (func(a, b int) int, error) {
	switch x := arr.(type) {
	case *array.List:
		cc, err := orderWithNulls(x.ListValues())
		if err != nil {
			return nil, err
		}
		return func(a, b int) int {
			sa, ea := x.ValueOffsets(a)
			sb, eb := x.ValueOffsets(b)
			return rangeCmp(cc, int(sa), int(ea-sa), int(sb), int(eb-sb))
		}, nil
	case *array.FixedSizeList:
		cc, err := orderWithNulls(x.ListValues())
		if err != nil {
			return nil, err
		}
		k := int(x.DataType().(*arrow.FixedSizeListType).Len())
		return func(a, b int) int { return rangeCmp(cc, (x.Offset()+a)*k, k, (x.Offset()+b)*k, k) }, nil
	case *array.Struct:
		fields := make([]func(a, b int) int, x.NumField())
		for f := range fields {
			var err error
			if fields[f], err = orderWithNulls(x.Field(f)); err != nil {
				return nil, err
			}
		}
		return func(a, b int) int {
			for _, c := range fields {
				if r := c(a, b); r != 0 {
					return r
				}
			}
			return 0
		}, nil
	}
	return nil, fmt.Errorf("cannot order elements of Arrow type %s: %w", arr.DataType(), errs.ErrInvalidArgument)
}

// orderWithNulls is orderOf over every row of arr, nulls above values.
func orderWithNulls(arr arrow.Array) (func(a, b int) int, error) {
	c, err := orderOf(arr)
	if err != nil {
		return nil, err
	}
	v := validityOrNone(arr)
	if v.AllSet() {
		return c, nil
	}
	return func(a, b int) int {
		va, vb := v.Get(a), v.Get(b)
		if !va || !vb {
			return int(b2u(!va)) - int(b2u(!vb))
		}
		return c(a, b)
	}, nil
}

// rangeCmp compares n rows from a with m rows from b lexicographically.
func rangeCmp(c func(a, b int) int, a, n, b, m int) int {
	for k := range min(n, m) {
		if r := c(a+k, b+k); r != 0 {
			return r
		}
	}
	return n - m
}

func orderedCmp[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](vals []T) func(a, b int) int {
	return func(a, b int) int {
		x, y := vals[a], vals[b]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
}

// floatCmp orders floats as DuckDB does: NaN above every number and equal
// to itself, -0 equal to 0.
func floatCmp(x, y float64) int {
	xn, yn := x != x, y != y
	switch {
	case xn || yn:
		return int(b2u(xn)) - int(b2u(yn))
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func compareBytes(a, b []byte) int {
	return bytesCompare(bytesString(a), bytesString(b))
}

func bytesCompare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
