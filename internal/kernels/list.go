package kernels

// List kernels: list_length, list_contains and list_element over List and
// FixedSizeList arrays, with elements of every type.

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// listView is the logical content of a List or FixedSizeList array: row i
// holds child[start:end) with (start, end) = bounds(i).
type listView struct {
	arr   arrow.Array
	child arrow.Array
	offs  []int32 // List: Len()+1 offsets, the array offset applied
	size  int     // FixedSizeList: elements per row
	base  int     // FixedSizeList: the array offset
	fixed bool
	one   bool // a one-row array standing for a scalar: every row reads row 0
}

func viewList(arr arrow.Array) (listView, error) {
	v, err := viewListUnordered(arr)
	if err == nil && !ascending(v.offs) {
		return listView{}, errOffsetsDecrease
	}
	return v, err
}

// errOffsetsDecrease is the error of a List array whose offsets decrease.
var errOffsetsDecrease = fmt.Errorf("list array offsets decrease")

// viewListUnordered is viewList without the check that a List's offsets
// never decrease (the first and last are checked): a kernel that reads the
// offsets in a pass of its own checks them there (elementRun), and must
// then bound every child position it reads by the child's length.
func viewListUnordered(arr arrow.Array) (listView, error) {
	switch a := arr.(type) {
	case *array.List:
		v := listView{arr: arr, child: a.ListValues()}
		n := arr.Len()
		if n == 0 {
			v.offs = []int32{0}
			return v, nil
		}
		offs := a.Offsets()
		off := arr.Data().Offset()
		if len(offs) < off+n+1 {
			return listView{}, fmt.Errorf("list array of %d rows at offset %d has only %d offsets", n, off, len(offs))
		}
		v.offs = offs[off : off+n+1]
		if v.offs[0] < 0 || v.offs[0] > v.offs[n] || int(v.offs[n]) > v.child.Len() {
			return listView{}, fmt.Errorf("list array offsets [%d, %d] outside its %d elements", v.offs[0], v.offs[n], v.child.Len())
		}
		return v, nil
	case *array.FixedSizeList:
		size := int(a.DataType().(*arrow.FixedSizeListType).Len())
		v := listView{arr: arr, child: a.ListValues(), size: size, base: arr.Data().Offset(), fixed: true}
		if need := (v.base + arr.Len()) * size; v.child.Len() < need {
			return listView{}, fmt.Errorf("fixed-size list array needs %d elements, has %d", need, v.child.Len())
		}
		return v, nil
	}
	return listView{}, fmt.Errorf("want a list array, got Arrow %s", arr.DataType())
}

// bounds is the child range of row i.
func (v *listView) bounds(i int) (int, int) {
	if v.one {
		i = 0
	}
	if v.fixed {
		s := (v.base + i) * v.size
		return s, s + v.size
	}
	return int(v.offs[i]), int(v.offs[i+1])
}

// listArg views a list argument; a scalar becomes a one-row array that every
// row reads. The caller releases the returned array when it is not nil.
// With ordered false, the offsets of a List array are not checked to never
// decrease (see viewListUnordered); a scalar's always are.
func listArg(mem memory.Allocator, d datum.Datum, ordered bool) (listView, arrow.Array, error) {
	if !d.IsScalar() {
		if !ordered {
			v, err := viewListUnordered(d.Array())
			return v, nil, err
		}
		v, err := viewList(d.Array())
		return v, nil, err
	}
	arr, err := scalar.MakeArray(mem, d.Scalar(), 1)
	if err != nil {
		return listView{}, nil, err
	}
	v, err := viewList(arr)
	if err != nil {
		arr.Release()
		return listView{}, nil, err
	}
	v.one = true
	return v, arr, nil
}

// ListLength is list_length(xs): the number of elements of each list, i64.
func ListLength(mem memory.Allocator, xs datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if xs.IsScalar() {
		if xs.Scalar().IsNull() {
			return nullResult(ret, n), nil
		}
		elems, _ := xs.Scalar().Value().([]scalar.Scalar)
		return datum.FromScalar(scalar.Int64(int64(len(elems))).WithDType(ret), n), nil
	}
	v, err := viewList(xs.Array())
	if err != nil {
		return datum.Datum{}, err
	}
	buf, out := newInt64Values(mem, n)
	if v.fixed {
		for i := range out {
			out[i] = int64(v.size)
		}
	} else {
		for i := range out {
			out[i] = int64(v.offs[i+1] - v.offs[i])
		}
	}
	validity, nulls := andValidity(mem, n, xs.Array())
	return datum.FromArray(makeArray(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{validity, buf}, nil, nulls, 0), ret), nil
}

// ListContains is list_contains(xs, v), as DuckDB defines it: null when xs
// or v is null; otherwise true when a non-null element equals v, false when
// none does. Null elements are skipped, so a list holding a null gives
// false, not null, when v is absent (unlike SQL IN).
//
// Equality is that of `=`: floats compare as IEEE 754 numbers (NaN equals
// nothing, -0 equals 0). Nested elements (lists, structs) are equal when
// their parts are, with nulls inside them equal to each other.
func ListContains(mem memory.Allocator, xs, v datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if anyNullScalar([]datum.Datum{xs, v}) {
		return nullResult(ret, n), nil
	}
	if xs.IsScalar() && v.IsScalar() {
		elems, _ := xs.Scalar().Value().([]scalar.Scalar)
		found := false
		for _, e := range elems {
			if !e.IsNull() && scalarEqual(e, v.Scalar()) {
				found = true
				break
			}
		}
		return datum.FromScalar(scalar.Bool(found).WithDType(ret), n), nil
	}
	lv, owned, err := listArg(mem, xs, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	valBuf, words := NewBits(mem, n)
	if err := containsWords(mem, words, n, &lv, v); err != nil {
		valBuf.Release()
		return datum.Datum{}, err
	}
	var xsArr, vArr arrow.Array
	if !xs.IsScalar() {
		xsArr = xs.Array()
	}
	if !v.IsScalar() {
		vArr = v.Array()
	}
	validity, nulls := andValidity(mem, n, xsArr, vArr)
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}

// containsWords sets bit i when list row i holds the value of v at row i.
// Bits of rows where the list or v is null are left meaningless.
func containsWords(mem memory.Allocator, words []uint64, n int, lv *listView, v datum.Datum) error {
	child := lv.child
	if v.IsScalar() {
		sv := v.Scalar().Value()
		switch child.DataType().ID() {
		case arrow.INT8, arrow.UINT8:
			containsFixed(words, n, lv, valuesOf[uint8](child), nil, uint8(intBits(sv)))
		case arrow.INT16, arrow.UINT16:
			containsFixed(words, n, lv, valuesOf[uint16](child), nil, uint16(intBits(sv)))
		case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
			containsFixed(words, n, lv, valuesOf[uint32](child), nil, uint32(intBits(sv)))
		case arrow.INT64, arrow.UINT64, arrow.TIME64, arrow.TIMESTAMP:
			containsFixed(words, n, lv, valuesOf[uint64](child), nil, intBits(sv))
		case arrow.FLOAT32:
			f, _ := sv.(float64)
			containsFixed(words, n, lv, valuesOf[float32](child), nil, float32(f))
		case arrow.FLOAT64:
			f, _ := sv.(float64)
			containsFixed(words, n, lv, valuesOf[float64](child), nil, f)
		case arrow.DECIMAL128:
			d, _ := sv.(decimal128.Num)
			containsFixed(words, n, lv, valuesOf[[2]uint64](child), nil, [2]uint64{d.LowBits(), uint64(d.HighBits())})
		case arrow.FLOAT16:
			f, _ := sv.(float64)
			want := float32(f)
			vals := valuesOf[float16.Num](child)
			containsFunc(words, n, lv, func(j, _ int) bool { return vals[j].Float32() == want })
		case arrow.BOOL:
			want, _ := sv.(bool)
			b := child.(*array.Boolean)
			containsFunc(words, n, lv, func(j, _ int) bool { return b.Value(j) == want })
		case arrow.STRING, arrow.BINARY:
			cv, err := viewBytes(child)
			if err != nil {
				return err
			}
			want, _ := sv.(string)
			containsFunc(words, n, lv, func(j, _ int) bool { return bytesString(cv.at(j)) == want })
		case arrow.NULL:
			clear(words) // every element is null
		default:
			// Nested elements: compare against v as a one-row array.
			one, err := scalar.MakeArray(mem, v.Scalar(), 1)
			if err != nil {
				return err
			}
			defer one.Release()
			containsFunc(words, n, lv, func(j, _ int) bool { return equalAt(child, j, one, 0) })
		}
		return nil
	}
	va := v.Array()
	switch child.DataType().ID() {
	case arrow.INT8, arrow.UINT8:
		containsFixed(words, n, lv, valuesOf[uint8](child), valuesOf[uint8](va), 0)
	case arrow.INT16, arrow.UINT16:
		containsFixed(words, n, lv, valuesOf[uint16](child), valuesOf[uint16](va), 0)
	case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
		containsFixed(words, n, lv, valuesOf[uint32](child), valuesOf[uint32](va), 0)
	case arrow.INT64, arrow.UINT64, arrow.TIME64, arrow.TIMESTAMP:
		containsFixed(words, n, lv, valuesOf[uint64](child), valuesOf[uint64](va), 0)
	case arrow.FLOAT32:
		containsFixed(words, n, lv, valuesOf[float32](child), valuesOf[float32](va), 0)
	case arrow.FLOAT64:
		containsFixed(words, n, lv, valuesOf[float64](child), valuesOf[float64](va), 0)
	case arrow.DECIMAL128:
		containsFixed(words, n, lv, valuesOf[[2]uint64](child), valuesOf[[2]uint64](va), [2]uint64{})
	case arrow.STRING, arrow.BINARY:
		cv, err := viewBytes(child)
		if err != nil {
			return err
		}
		vv, err := viewBytes(va)
		if err != nil {
			return err
		}
		containsFunc(words, n, lv, func(j, i int) bool { return bytesString(cv.at(j)) == bytesString(vv.at(i)) })
	case arrow.NULL:
		clear(words)
	default:
		containsFunc(words, n, lv, func(j, i int) bool { return equalAt(child, j, va, i) })
	}
	return nil
}

// intBits is the two's-complement bits of an integer or temporal scalar
// value; truncating them gives the bits a narrower column stores.
func intBits(v any) uint64 {
	switch x := v.(type) {
	case int64:
		return uint64(x)
	case uint64:
		return x
	}
	return 0
}

// containsFixed is list_contains over fixed-width elements compared with
// ==: against want, or against vals[i] when vals is not nil.
func containsFixed[T comparable](words []uint64, n int, lv *listView, elems, vals []T, want T) {
	child := lv.child
	checkNulls := child.NullN() > 0
	for w := range words {
		base := w * 64
		var acc uint64
		for j := range min(64, n-base) {
			i := base + j
			t := want
			if vals != nil {
				t = vals[i]
			}
			s, e := lv.bounds(i)
			for k := s; k < e; k++ {
				if elems[k] == t && (!checkNulls || child.IsValid(k)) {
					acc |= 1 << uint(j)
					break
				}
			}
		}
		words[w] = acc
	}
}

// containsFunc is list_contains with an equality eq(element, row).
func containsFunc(words []uint64, n int, lv *listView, eq func(j, i int) bool) {
	child := lv.child
	checkNulls := child.NullN() > 0
	FillBits(words, n, func(i int) bool {
		s, e := lv.bounds(i)
		for k := s; k < e; k++ {
			if (!checkNulls || child.IsValid(k)) && eq(k, i) {
				return true
			}
		}
		return false
	})
}

// ListElement is list_element(xs, i): element i of each list, 1-based,
// negative counting from the end (-1 is the last); 0 or out of range gives
// null, as in DuckDB.
func ListElement(mem memory.Allocator, xs, idx datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if anyNullScalar([]datum.Datum{xs, idx}) {
		return nullResult(ret, n), nil
	}
	ix, err := newIntArg(idx)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("list_element index: %w", err)
	}
	if xs.IsScalar() && idx.IsScalar() {
		elems, _ := xs.Scalar().Value().([]scalar.Scalar)
		k, ok := elementIndex(0, len(elems), ix.sc)
		if !ok {
			return nullResult(ret, n), nil
		}
		return datum.FromScalar(elems[k].WithDType(ret), n), nil
	}
	// The offsets' order is checked by elementFixed (in its pass, on its
	// fast path) or below.
	lv, owned, err := listArg(mem, xs, false)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	// The validity of the lists and of the indices, read once: a scalar
	// (known not null here) is all ones.
	var xv, iv Bitmap
	if !xs.IsScalar() {
		xv = ValidityOf(xs.Array())
	}
	if ix.arr != nil {
		iv = ValidityOf(ix.arr)
	}
	var arr arrow.Array
	switch plainWidth(lv.child) {
	case 1:
		arr, err = elementFixed[uint8](mem, &lv, ix, xv, iv, n)
	case 2:
		arr, err = elementFixed[uint16](mem, &lv, ix, xv, iv, n)
	case 4:
		arr, err = elementFixed[uint32](mem, &lv, ix, xv, iv, n)
	case 8:
		arr, err = elementFixed[uint64](mem, &lv, ix, xv, iv, n)
	case 16:
		arr, err = elementFixed[[2]uint64](mem, &lv, ix, xv, iv, n)
	default:
		if !ascending(lv.offs) {
			return datum.Datum{}, errOffsetsDecrease
		}
	}
	if err != nil {
		return datum.Datum{}, err
	}
	if arr != nil {
		return datum.FromArray(arr, ret), nil
	}
	// Other elements (bool, bytes, nested): the positions, then a gather.
	pick := make([]int32, n)
	for i := range pick {
		pick[i] = -1
		if !xv.Get(i) || !iv.Get(i) {
			continue
		}
		s, e := lv.bounds(i)
		if k, ok := elementIndex(s, e, ix.get(i)); ok {
			pick[i] = int32(k) // a position in the child, whose offsets are int32
		}
	}
	out, err := Gather(mem, lv.child, pick)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}

// elementFixed is list_element over fixed-width elements of Go type T (of
// their size), 64 rows (one validity word) at a time. Each block first
// takes the fast path where there is one (elementRun, elementRunFixed): a
// List or FixedSizeList with an i64 index column or a scalar index and no
// null elements, read in one pass that is branch-free but for the rows
// whose index is not a positive one within the list; those rows are marked
// and then go through elementIndex one by one (a negative index may still
// find an element). Other blocks are read row by row. The validity is the
// rows found, ANDed with the list and index validities xv and iv. Rows that
// are null hold zero or the element a null list would have had.
//
// lv's offsets have not been checked to never decrease: the fast path
// checks them as it reads them (and bounds every read by the child's
// length until then), the other path checks them first.
func elementFixed[T any](mem memory.Allocator, lv *listView, ix intArg, xv, iv Bitmap, n int) (arrow.Array, error) {
	child := lv.child
	vals := valuesOf[T](child)
	cv := ValidityOf(child)
	checkChild := !cv.AllSet()
	// An i64 index column (the usual one) is read directly; others go
	// through ix.at.
	var idx64 []int64
	if ix.arr != nil && ix.arr.DataType().ID() == arrow.INT64 {
		idx64 = valuesOf[int64](ix.arr)
	}
	fast := !lv.one && !checkChild && (ix.arr == nil || idx64 != nil)
	if !fast && !ascending(lv.offs) {
		return nil, errOffsetsDecrease
	}
	buf, out := newValues[T](mem, n)
	validity, valid := NewBits(mem, n)
	// at is the child position of row i's element (the general path).
	at := func(i int) (int, bool) {
		k := ix.sc
		if idx64 != nil {
			k = idx64[i]
		} else if ix.arr != nil {
			k = ix.at(i)
		}
		s, e := lv.bounds(i)
		return elementIndex(s, e, k)
	}
	var zero T
	var down int64 // the OR of every list's end - start: negative when an offset decreases
	for w := range valid {
		base := w << 6
		m := min(64, n-base)
		if fast {
			var ks []int64
			if idx64 != nil {
				ks = idx64[base : base+m]
			}
			var miss uint64
			if lv.fixed {
				miss = elementRunFixed(out[base:base+m], vals, (lv.base+base)*lv.size, lv.size, ks, ix.sc)
			} else {
				var d int64
				miss, d = elementRun(out[base:base+m], vals, lv.offs[base:base+m+1], ks, ix.sc)
				down |= d
			}
			found := ^miss
			for r := miss; r != 0; r &= r - 1 {
				j := bits.TrailingZeros64(r)
				if p, ok := at(base + j); ok && p < len(vals) {
					out[base+j] = vals[p]
					found |= 1 << uint(j)
				}
			}
			valid[w] = found & xv.Word(w) & iv.Word(w)
			continue
		}
		var found uint64
		for j := range m {
			i := base + j
			p, ok := at(i)
			if ok {
				out[i] = vals[p]
				if checkChild {
					ok = cv.Get(p)
				}
			} else {
				out[i] = zero
			}
			found |= b2u(ok) << uint(j)
		}
		valid[w] = found & xv.Word(w) & iv.Word(w)
	}
	if down < 0 {
		validity.Release()
		buf.Release()
		return nil, errOffsetsDecrease
	}
	maskTail(valid, n)
	nulls := CountZeros(valid, n)
	if nulls == 0 {
		validity.Release()
		validity = nil
	}
	return makeArray(child.DataType(), n, []*memory.Buffer{validity, buf}, nil, nulls, 0), nil
}

// elementRun is the fast path of list_element over up to 64 rows of a List
// with offsets offs (len(out)+1 of them): out[j] is element ks[j] (or k
// when ks is nil) of row j when that index is in 1..length; the other rows
// get zero and their bit set in miss. down is the OR of every row's
// end - start, negative when an offset decreases; until the caller has
// seen it, every read is bounded by len(vals) too.
func elementRun[T any](out, vals []T, offs []int32, ks []int64, k int64) (miss uint64, down int64) {
	ends := offs[1 : len(out)+1]
	out = out[:len(ends)]
	s := int64(offs[0])
	var zero T
	if ks == nil {
		for j, e := range ends {
			// k-1 wraps to a huge unsigned value for k <= 0.
			size := int64(e) - s
			down |= size
			if p := s + k - 1; uint64(k-1) < uint64(size) && uint64(p) < uint64(len(vals)) {
				out[j] = vals[p]
			} else {
				out[j] = zero
				miss |= 1 << uint(j)
			}
			s = int64(e)
		}
		return miss, down
	}
	ks = ks[:len(ends)]
	from := 0
	if size := unsafe.Sizeof(zero); size == 4 || size == 8 {
		// 32- and 64-bit values: the SIMD gather takes the whole steps
		// of 16 or 8 rows.
		var d int64
		from, miss, d = elementGatherFast(out, vals, offs, ks)
		down |= d
		s = int64(offs[from])
	}
	for j := from; j < len(ends); j++ {
		e, k := ends[j], ks[j]
		size := int64(e) - s
		down |= size
		if p := s + k - 1; uint64(k-1) < uint64(size) && uint64(p) < uint64(len(vals)) {
			out[j] = vals[p]
		} else {
			out[j] = zero
			miss |= 1 << uint(j)
		}
		s = int64(e)
	}
	return miss, down
}

// elementRunFixed is elementRun over a FixedSizeList of size elements per
// row whose first row starts at child position s.
func elementRunFixed[T any](out, vals []T, s, size int, ks []int64, k int64) (miss uint64) {
	var zero T
	if ks != nil {
		ks = ks[:len(out)]
	}
	for j := range out {
		if ks != nil {
			k = ks[j]
		}
		if p := int64(s) + k - 1; uint64(k-1) < uint64(size) && uint64(p) < uint64(len(vals)) {
			out[j] = vals[p]
		} else {
			out[j] = zero
			miss |= 1 << uint(j)
		}
		s += size
	}
	return miss
}

// elementIndex is the child position of 1-based index k in the range
// [s, e), negative k counting from e.
func elementIndex(s, e int, k int64) (int, bool) {
	size := int64(e - s)
	switch {
	case k > 0 && k <= size:
		return s + int(k-1), true
	case k < 0 && k != math.MinInt64 && -k <= size:
		return e + int(k), true
	}
	return 0, false
}

// scalarEqual is the equality of list_contains over scalar values: nulls
// equal each other (it is applied to non-null elements, so this only matters
// inside nested values), floats compare as IEEE 754 numbers.
func scalarEqual(a, b scalar.Scalar) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	switch x := a.Value().(type) {
	case []scalar.Scalar:
		y, ok := b.Value().([]scalar.Scalar)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !scalarEqual(x[k], y[k]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.Value().(float64)
		return ok && x == y
	}
	return a.Value() == b.Value()
}
