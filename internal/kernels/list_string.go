package kernels

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// ListToString is array_to_string(xs, sep) and, with no sep,
// list_string_agg(xs), as DuckDB computes them: the non-null elements of
// each list as text (Cast to utf8, so 2.0 for a double), joined with sep
// (',' when sep is null or absent). A list whose elements are all null is
// null, and so is a null list; an empty list is the empty string for array_to_string
// and null for list_string_agg (emptyNull). elem is xs's element type.
func ListToString(mem memory.Allocator, xs datum.Datum, sep *datum.Datum, elem dtype.DType, emptyNull bool, ret dtype.DType) (datum.Datum, error) {
	n := xs.Len()
	if isNullDatum(xs) {
		return nullResult(ret, n), nil
	}
	lv, owned, err := listArg(mem, xs, false)
	if err != nil {
		return datum.Datum{}, err
	}
	if owned != nil {
		defer owned.Release()
	}
	// The elements as text, or none when they are all of the null type.
	var text strArg
	var textValid Bitmap
	if !elem.IsNull() {
		c, err := Cast(mem, datum.FromArray(lv.child, elem), dtype.Utf8(true), false)
		if err != nil {
			return datum.Datum{}, err
		}
		defer c.Release()
		if text, err = newStrArg(c); err != nil {
			return datum.Datum{}, err
		}
		textValid = validityOrNone(c.Array())
	}
	comma := strArg{lit: []byte(",")}
	seps, sepNull := comma, func(int) bool { return true }
	if sep != nil && !isNullDatum(*sep) {
		if seps, err = newStrArg(*sep); err != nil {
			return datum.Datum{}, err
		}
		sepNull = func(i int) bool { return seps.arr != nil && !validAt(seps.arr, i) }
	}
	var xv Bitmap
	var xsArr arrow.Array
	if !xs.IsScalar() {
		xsArr = xs.Array()
		xv = ValidityOf(xsArr)
	}
	rows := n
	if xs.IsScalar() && (sep == nil || (*sep).IsScalar()) {
		rows = 1
	}
	validity, valid := NewBits(mem, rows)
	clear(valid)
	nulls := 0
	hint := 0
	if text.arr != nil && text.arr.Len() > 0 {
		hint = len(text.v.span())
	}
	b := newStrBuilder(mem, rows, hint)
	for i := range rows {
		s, e := lv.bounds(i)
		if !xv.Get(i) {
			b.endEmpty()
			nulls++
			continue
		}
		sp := comma.lit
		if !sepNull(i) {
			sp = seps.at(i)
		}
		wrote := false
		for p := s; p < e; p++ {
			if elem.IsNull() || !textValid.Get(p) {
				continue
			}
			if wrote {
				b.write(sp)
			}
			wrote = true
			b.write(text.at(p))
		}
		if err := b.end(); err != nil {
			b.release()
			validity.Release()
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		if !wrote && (e > s || emptyNull) {
			nulls++
			continue
		}
		valid[i>>6] |= 1 << (i & 63)
	}
	if nulls == 0 {
		validity.Release()
		validity = nil
	}
	arr := b.finish(dtype.ToArrow(ret), validity, nulls)
	if rows == 1 && n != 1 {
		defer arr.Release()
		sc, err := scalar.FromArray(arr, 0, ret)
		if err != nil {
			return datum.Datum{}, err
		}
		return datum.FromScalar(sc, n), nil
	}
	return datum.FromArray(arr, ret), nil
}
