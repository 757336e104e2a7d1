package kernels

// More list kernels (fn/list_more.go): list_value, list_slice (lists and
// strings), list_element on strings, list_reverse, list_sort, list_distinct,
// list_concat, flatten, list_has_any, list_has_all and list_position.
//
// The kernels that reorder or pick elements compute, for each result row,
// the child positions of its elements (new offsets plus positions into the
// input's child array) in a typed pass, and then gather the child once
// (Gather), whatever its type. A scalar list argument is read as a one-row
// array that every row reads (listArg).

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// column is an argument read row by row: an array, or a scalar as a
// one-row array that every row reads.
type column struct {
	arr   arrow.Array
	valid Bitmap
	one   bool
	owned bool
}

// columnOf views d as a column; release it with release.
func columnOf(mem memory.Allocator, d datum.Datum) (column, error) {
	if !d.IsScalar() {
		return column{arr: d.Array(), valid: validityOrNone(d.Array())}, nil
	}
	arr, err := scalar.MakeArray(mem, d.Scalar(), 1)
	if err != nil {
		return column{}, err
	}
	return column{arr: arr, valid: validityOrNone(arr), one: true, owned: true}, nil
}

// validityOrNone is arr's validity; an array of the null type is all null.
func validityOrNone(arr arrow.Array) Bitmap {
	if arr.DataType().ID() == arrow.NULL {
		return Bitmap{Buf: make([]byte, (arr.Len()+7)/8+8)}
	}
	return ValidityOf(arr)
}

func (c column) row(i int) int {
	if c.one {
		return 0
	}
	return i
}

func (c column) isValid(i int) bool { return c.valid.Get(c.row(i)) }

func (c column) release() {
	if c.owned {
		c.arr.Release()
	}
}

// buildList makes a List array of type dt and len(offs)-1 rows whose row i
// holds the child rows pick[offs[i]:offs[i+1]]; rows where valid is false
// are null (valid nil: none).
func buildList(mem memory.Allocator, dt arrow.DataType, child arrow.Array, offs, pick []int32, valid func(i int) bool) (arrow.Array, error) {
	n := len(offs) - 1
	values, err := Gather(mem, child, pick)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	offBuf := AllocBuffer(mem, 4*len(offs))
	copy(Reinterpret[int32](offBuf.Bytes()), offs)
	var validity *memory.Buffer
	nulls := 0
	if valid != nil {
		buf, words := NewBits(mem, n)
		FillBits(words, n, valid)
		maskTail(words, n)
		if nulls = CountZeros(words, n); nulls == 0 {
			buf.Release()
		} else {
			validity = buf
		}
	}
	return makeArray(dt, n, []*memory.Buffer{validity, offBuf}, []arrow.ArrayData{values.Data()}, nulls, 0), nil
}

// offsetsFit checks that a list result of size elements has 32-bit offsets.
func offsetsFit(size int) error {
	if size > math.MaxInt32 {
		return fmt.Errorf("list result of %d elements exceeds 32-bit offsets: %w", size, errs.ErrOverflow)
	}
	return nil
}

// ListValue is list_value(a, b, …): a list per row holding the arguments'
// values there (nulls included), never null itself. The arguments have
// the result's element type.
func ListValue(mem memory.Allocator, args []datum.Datum, ret dtype.DType, n int) (datum.Datum, error) {
	k := len(args)
	dt := dtype.ToArrow(ret)
	elemType := dt.(*arrow.ListType).Elem()
	if err := offsetsFit(n * k); err != nil {
		return datum.Datum{}, err
	}
	arrs := make([]arrow.Array, k)
	bases := make([]int32, k)
	ones := make([]bool, k)
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	total := 0
	for j, d := range args {
		var a arrow.Array
		if d.IsScalar() {
			var err error
			if a, err = scalar.MakeArray(mem, d.Scalar(), 1); err != nil {
				return datum.Datum{}, err
			}
			ones[j] = true
		} else {
			a = d.Array()
			a.Retain()
		}
		arrs[j] = a
		if !arrow.TypeEqual(a.DataType(), elemType) {
			if a.DataType().ID() != elemType.ID() {
				return datum.Datum{}, fmt.Errorf("list_value argument %d is an Arrow %s array, want %s", j+1, a.DataType(), elemType)
			}
			// The same layout, nested fields of another nullability.
			arrs[j] = relabel(a, ret.Elem())
			a.Release()
			a = arrs[j]
		}
		bases[j] = int32(total)
		total += a.Len()
	}
	var child arrow.Array
	if k == 0 {
		child = zeroed.NullArray(mem, elemType, 0)
	} else {
		var err error
		if child, err = array.Concatenate(arrs, zeroed.Allocator{Allocator: mem}); err != nil {
			return datum.Datum{}, err
		}
	}
	defer child.Release()
	offs := make([]int32, n+1)
	pick := make([]int32, 0, n*k)
	for i := range n {
		for j := range k {
			p := bases[j]
			if !ones[j] {
				p += int32(i)
			}
			pick = append(pick, p)
		}
		offs[i+1] = int32(len(pick))
	}
	out, err := buildList(mem, dt, child, offs, pick, nil)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}

// SliceRange is the 0-based half-open range [b, e) of list_slice(x, begin,
// end) over a value of size elements or characters, as DuckDB computes it:
// begin and end are 1-based and inclusive, a negative one counts from the
// end (-1 is the last), 0 as begin is the first, and both are clamped to
// the value.
func SliceRange(size, begin, end int64) (b, e int64) {
	b = begin
	if b != 0 && b != math.MinInt64 {
		b--
	}
	clamp := func(x int64) int64 {
		if x < 0 {
			if x < -size-1 {
				return 0 // also keeps size + x + 1 from overflowing
			}
			x = size + x + 1
			if x < 0 {
				return 0
			}
		}
		return min(x, size)
	}
	b, e = clamp(b), clamp(end)
	return b, max(b, e)
}

// ListSlice is list_slice(x, begin, end[, step]) over lists (the result
// a List even for a FixedSizeList) or utf8 strings (by characters, without
// a step): see SliceRange. A step k takes every k-th element of the range
// from its start; a negative step walks from begin down to end (begin
// should be the later bound): list_slice(xs, -1, 1, -1) reverses xs. A
// zero step is an error, a null argument gives null.
func ListSlice(mem memory.Allocator, x, begin, end datum.Datum, step *datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	args := []datum.Datum{x, begin, end}
	if step != nil {
		args = append(args, *step)
	}
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	st := intArg{sc: 1}
	var sv Bitmap
	if step != nil {
		var err error
		if st, err = newIntArg(*step); err != nil {
			return datum.Datum{}, fmt.Errorf("list_slice step: %w", err)
		}
		if st.arr != nil {
			sv = ValidityOf(st.arr)
		}
	}
	bs, err := newIntArg(begin)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("list_slice begin: %w", err)
	}
	es, err := newIntArg(end)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("list_slice end: %w", err)
	}
	var bv, ev Bitmap
	if bs.arr != nil {
		bv = ValidityOf(bs.arr)
	}
	if es.arr != nil {
		ev = ValidityOf(es.arr)
	}
	xc, err := columnOf(mem, x)
	if err != nil {
		return datum.Datum{}, err
	}
	defer xc.release()
	valid := func(i int) bool { return xc.isValid(i) && bv.Get(i) && ev.Get(i) && sv.Get(i) }
	if ret.IsUtf8() {
		return sliceStrings(mem, xc, bs, es, valid, n, ret)
	}
	lv, err := viewList(xc.arr)
	if err != nil {
		return datum.Datum{}, err
	}
	lv.one = xc.one
	offs := make([]int32, n+1)
	var pick []int32
	for i := range n {
		if valid(i) {
			s, e := lv.bounds(i)
			switch k := st.get(i); {
			case k == 1:
				b, f := SliceRange(int64(e-s), bs.get(i), es.get(i))
				for p := int64(s) + b; p < int64(s)+f; p++ {
					pick = append(pick, int32(p))
				}
			case k > 1:
				b, f := SliceRange(int64(e-s), bs.get(i), es.get(i))
				for p := b; p < f; p += k {
					pick = append(pick, int32(int64(s)+p))
					if k >= f-p {
						break // also before p + k could overflow
					}
				}
			case k < 0:
				// From begin down to end: the range of end..begin, walked
				// from its last element.
				b, f := SliceRange(int64(e-s), es.get(i), bs.get(i))
				for p := f - 1; p >= b; p += k {
					pick = append(pick, int32(int64(s)+p))
					if k < b-p {
						break
					}
				}
			default:
				return datum.Datum{}, &RowError{Row: i, Err: fmt.Errorf("list_slice step is 0: %w", errs.ErrInvalidArgument)}
			}
		}
		offs[i+1] = int32(len(pick))
	}
	out, err := buildList(mem, dtype.ToArrow(ret), lv.child, offs, pick, valid)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}

// sliceStrings is list_slice over utf8 strings, by characters.
func sliceStrings(mem memory.Allocator, xc column, bs, es intArg, valid func(int) bool, n int, ret dtype.DType) (datum.Datum, error) {
	sv, err := viewBytes(xc.arr)
	if err != nil {
		return datum.Datum{}, err
	}
	sb := newStrBuilder(mem, n, len(sv.data))
	vbuf, words := NewBits(mem, n)
	for i := range n {
		if !valid(i) {
			sb.endEmpty()
			continue
		}
		words[i>>6] |= 1 << uint(i&63)
		s := sv.at(xc.row(i))
		var size int64
		if isASCII(s) {
			size = int64(len(s))
			b, e := SliceRange(size, bs.get(i), es.get(i))
			sb.write(s[b:e])
		} else {
			size = int64(utf8.RuneCount(s))
			b, e := SliceRange(size, bs.get(i), es.get(i))
			sb.write(runeRange(s, b, e))
		}
		if err := sb.end(); err != nil {
			vbuf.Release()
			sb.release()
			return datum.Datum{}, err
		}
	}
	maskTail(words, n)
	nulls := CountZeros(words, n)
	if nulls == 0 {
		vbuf.Release()
		vbuf = nil
	}
	return datum.FromArray(sb.finish(dtype.ToArrow(ret), vbuf, nulls), ret), nil
}

// runeRange is characters [b, e) of s.
func runeRange(s []byte, b, e int64) []byte {
	var k int64
	start, stop := len(s), len(s)
	for p := range string(s) {
		if k == b {
			start = p
		}
		if k == e {
			stop = p
			break
		}
		k++
	}
	if b >= e {
		return nil
	}
	return s[start:stop]
}

// stringIndexLimit is the largest string index DuckDB accepts: beyond it
// (either sign) x[i] on a string is an error there.
const stringIndexLimit = 1<<32 - 1

// StringElement is list_element(s, i) on a utf8 string, as DuckDB's
// 'abc'[i]: character i, 1-based, negative counting from the end; an index
// outside the string gives the empty string, and one beyond ±(2³²-1) (as
// DuckDB, -2³² included) is an error.
func StringElement(mem memory.Allocator, s, idx datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := s.Len()
	if anyNullScalar([]datum.Datum{s, idx}) {
		return nullResult(ret, n), nil
	}
	ix, err := newIntArg(idx)
	if err != nil {
		return datum.Datum{}, fmt.Errorf("list_element index: %w", err)
	}
	var iv Bitmap
	if ix.arr != nil {
		iv = ValidityOf(ix.arr)
	}
	sc, err := columnOf(mem, s)
	if err != nil {
		return datum.Datum{}, err
	}
	defer sc.release()
	sv, err := viewBytes(sc.arr)
	if err != nil {
		return datum.Datum{}, err
	}
	sb := newStrBuilder(mem, n, n)
	vbuf, words := NewBits(mem, n)
	for i := range n {
		if !sc.isValid(i) || !iv.Get(i) {
			sb.endEmpty()
			continue
		}
		words[i>>6] |= 1 << uint(i&63)
		k := ix.get(i)
		if k > stringIndexLimit || k < -stringIndexLimit-1 {
			vbuf.Release()
			sb.release()
			return datum.Datum{}, &RowError{Row: i, Err: fmt.Errorf("string index %d outside the supported range ±%d: %w", k, int64(stringIndexLimit), errs.ErrInvalidArgument)}
		}
		str := sv.at(sc.row(i))
		if k != 0 {
			var size int64
			if isASCII(str) {
				size = int64(len(str))
			} else {
				size = int64(utf8.RuneCount(str))
			}
			if k < 0 {
				k = size + k + 1
			}
			if k >= 1 && k <= size {
				if int64(len(str)) == size {
					sb.write(str[k-1 : k])
				} else {
					sb.write(runeRange(str, k-1, k))
				}
			}
		}
		if err := sb.end(); err != nil {
			vbuf.Release()
			sb.release()
			return datum.Datum{}, err
		}
	}
	maskTail(words, n)
	nulls := CountZeros(words, n)
	if nulls == 0 {
		vbuf.Release()
		vbuf = nil
	}
	return datum.FromArray(sb.finish(dtype.ToArrow(ret), vbuf, nulls), ret), nil
}

// ListReorder is the op of ListReorder.
type ListReorder uint8

const (
	// ReorderReverse reverses each list.
	ReorderReverse ListReorder = iota
	// ReorderSort sorts each list (see ListSort's flags).
	ReorderSort
	// ReorderDistinct keeps the first of equal non-null elements, in order.
	ReorderDistinct
)

// ListRearrange is list_reverse, list_sort and list_distinct over xs: the
// result is a List of xs's element type, null where xs is. For sorting,
// desc orders from greatest to least and nullsFirst puts null elements
// first (else last); the order is that of `<`, with NaN above every
// number, strings and binaries by bytes, and false before true. Nested
// elements are compared in list_distinct by equality and cannot be sorted.
func ListRearrange(mem memory.Allocator, op ListReorder, xs datum.Datum, desc, nullsFirst bool, ret dtype.DType) (datum.Datum, error) {
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
	child := lv.child
	cv := validityOrNone(child)
	offs := make([]int32, n+1)
	pick := make([]int32, 0, child.Len())
	var cmp func(a, b int) int
	var keys keyer
	switch op {
	case ReorderSort:
		if cmp, err = orderOf(child); err != nil {
			return datum.Datum{}, err
		}
	case ReorderDistinct:
		keys = keyerOf(child)
	}
	seen := map[string]struct{}{}
	for i := range n {
		if xv.Get(i) {
			s, e := lv.bounds(i)
			start := len(pick)
			switch op {
			case ReorderReverse:
				for p := e - 1; p >= s; p-- {
					pick = append(pick, int32(p))
				}
			case ReorderSort:
				if nullsFirst {
					for p := s; p < e; p++ {
						if !cv.Get(p) {
							pick = append(pick, int32(p))
						}
					}
				}
				from := len(pick)
				for p := s; p < e; p++ {
					if cv.Get(p) {
						pick = append(pick, int32(p))
					}
				}
				vals := pick[from:]
				if desc {
					slices.SortStableFunc(vals, func(a, b int32) int { return cmp(int(b), int(a)) })
				} else {
					slices.SortStableFunc(vals, func(a, b int32) int { return cmp(int(a), int(b)) })
				}
				if !nullsFirst {
					for p := s; p < e; p++ {
						if !cv.Get(p) {
							pick = append(pick, int32(p))
						}
					}
				}
			case ReorderDistinct:
				if keys.key != nil {
					clear(seen)
					for p := s; p < e; p++ {
						if !cv.Get(p) {
							continue
						}
						k := keys.key(p)
						if _, dup := seen[k]; !dup {
							seen[k] = struct{}{}
							pick = append(pick, int32(p))
						}
					}
					break
				}
				for p := s; p < e; p++ {
					if !cv.Get(p) || slices.ContainsFunc(pick[start:], func(q int32) bool { return equalAt(child, int(q), child, p) }) {
						continue
					}
					pick = append(pick, int32(p))
				}
			}
		}
		offs[i+1] = int32(len(pick))
	}
	out, err := buildList(mem, dtype.ToArrow(ret), child, offs, pick, xv.Get)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}

// ListConcat is list_concat(a, b, …) (strict false: a null list counts as
// empty, and the result is never null, as DuckDB's) or a || b on lists
// (strict: null where either is). The lists have one element type.
func ListConcat(mem memory.Allocator, args []datum.Datum, strict bool, ret dtype.DType) (datum.Datum, error) {
	n := 0
	if len(args) > 0 {
		n = args[0].Len()
	}
	if strict && anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	views := make([]listView, len(args))
	valids := make([]Bitmap, len(args))
	children := make([]arrow.Array, len(args))
	bases := make([]int, len(args))
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	total := 0
	for j, d := range args {
		var lv listView
		if d.IsScalar() && d.Scalar().IsNull() {
			// A null list: no elements, every row null.
			empty, err := scalar.MakeArray(mem, scalar.Null(d.DType()), 1)
			if err != nil {
				return datum.Datum{}, err
			}
			owned = append(owned, empty)
			lv, err = viewList(empty)
			if err != nil {
				return datum.Datum{}, err
			}
			lv.one = true
			valids[j] = Bitmap{Buf: make([]byte, 8)}
		} else {
			var o arrow.Array
			var err error
			lv, o, err = listArg(mem, d, true)
			if err != nil {
				return datum.Datum{}, err
			}
			if o != nil {
				owned = append(owned, o)
			}
			if !d.IsScalar() {
				valids[j] = ValidityOf(d.Array())
			}
		}
		views[j], children[j], bases[j] = lv, lv.child, total
		total += lv.child.Len()
	}
	child, err := array.Concatenate(children, zeroed.Allocator{Allocator: mem})
	if err != nil {
		return datum.Datum{}, err
	}
	defer child.Release()
	offs := make([]int32, n+1)
	var pick []int32
	valid := func(i int) bool {
		if !strict {
			return true
		}
		for j := range valids {
			if !valids[j].Get(i) {
				return false
			}
		}
		return true
	}
	for i := range n {
		if valid(i) {
			for j := range views {
				if !valids[j].Get(i) {
					continue
				}
				s, e := views[j].bounds(i)
				for p := s; p < e; p++ {
					pick = append(pick, int32(bases[j]+p))
				}
			}
		}
		if err := offsetsFit(len(pick)); err != nil {
			return datum.Datum{}, err
		}
		offs[i+1] = int32(len(pick))
	}
	var vf func(int) bool
	if strict {
		vf = valid
	}
	out, err := buildList(mem, dtype.ToArrow(ret), child, offs, pick, vf)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}

// Flatten is flatten(xss): the elements of the inner lists of each row in
// order, null inner lists skipped; null where xss is.
func Flatten(mem memory.Allocator, xss datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := xss.Len()
	if anyNullScalar([]datum.Datum{xss}) {
		return nullResult(ret, n), nil
	}
	outer, owned, err := listArg(mem, xss, true)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	inner, err := viewList(outer.child)
	if err != nil {
		return datum.Datum{}, err
	}
	var xv Bitmap
	if !xss.IsScalar() {
		xv = ValidityOf(xss.Array())
	}
	iv := ValidityOf(outer.child)
	offs := make([]int32, n+1)
	var pick []int32
	for i := range n {
		if xv.Get(i) {
			s, e := outer.bounds(i)
			for r := s; r < e; r++ {
				if !iv.Get(r) {
					continue
				}
				a, b := inner.bounds(r)
				for p := a; p < b; p++ {
					pick = append(pick, int32(p))
				}
			}
		}
		offs[i+1] = int32(len(pick))
	}
	out, err := buildList(mem, dtype.ToArrow(ret), inner.child, offs, pick, xv.Get)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromArray(out, ret), nil
}
