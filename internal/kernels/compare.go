package kernels

// Comparisons: =, !=, <, <=, >, >= (null in, null out), IS [NOT] DISTINCT
// FROM (never null), BETWEEN (Kleene AND of two comparisons) and IN (SQL's
// null rule). Every result is a bool array built 64 rows per word, or a
// scalar when every argument is one.
//
// cmpFill is the one place that maps a dtype to its comparison loop:
// numbers, dates, times and timestamps by their storage (generic loops),
// f16 through float32, bool word-wise, decimals by 128-bit value, utf8 and
// binary bytewise, and structs and lists (=, != and DISTINCT only) row by
// row, as in DuckDB: a null inside a nested value equals a null in the same
// place ([1, null] = [1, null] is true) and differs from any value, and
// floats inside nested values compare as by IS NOT DISTINCT FROM (NaN
// equals NaN, -0 equals 0).

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparison operators.
const (
	CmpEq CmpOp = iota
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
	// cmpSame is equality under IS NOT DISTINCT FROM on non-null values:
	// NaN matches NaN.
	cmpSame
)

// Flip is the operator with its operands swapped: a < b ⇔ b > a.
func (op CmpOp) Flip() CmpOp {
	switch op {
	case CmpLt:
		return CmpGt
	case CmpLe:
		return CmpGe
	case CmpGt:
		return CmpLt
	case CmpGe:
		return CmpLe
	}
	return op
}

// outcome is, for each operator, the result for a three-way comparison of
// -1, 0 and +1 in bits 0, 1 and 2.
var outcome = [...]uint64{
	CmpEq:   0b010,
	CmpNe:   0b101,
	CmpLt:   0b001,
	CmpLe:   0b011,
	CmpGt:   0b100,
	CmpGe:   0b110,
	cmpSame: 0b010,
}

// cmpBit is op's result for the three-way comparison c, as 0 or 1.
func cmpBit(op CmpOp, c int) uint64 { return outcome[op] >> uint(c+1) & 1 }

// nullBits is the bitmap of all-null rows.
var nullBits = Bitmap{Buf: zeroBits[:]}

// validityOfDatum is the validity of d's rows: all ones for a valid scalar,
// all zeros for a null one or a datum of the null dtype.
func validityOfDatum(d datum.Datum) Bitmap {
	switch {
	case isNullDatum(d):
		return nullBits
	case d.IsScalar():
		return Bitmap{}
	}
	return ValidityOf(d.Array())
}

// Compare computes l op r, null where either side is null.
func Compare(mem memory.Allocator, op CmpOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	if l.IsScalar() && r.IsScalar() {
		return viaOneRow(mem, ret, []datum.Datum{l, r}, func(args []datum.Datum) (datum.Datum, error) {
			return compareRows(mem, op, args[0], args[1], ret)
		})
	}
	return compareRows(mem, op, l, r, ret)
}

// compareRows is Compare without the scalar shortcut: it always gives an
// array.
func compareRows(mem memory.Allocator, op CmpOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	validity, nulls := AndBitmaps(mem, n, validityOfDatum(l), validityOfDatum(r))
	values, words := NewBits(mem, n)
	if err := cmpFill(mem, op, words, l, r); err != nil {
		releaseAll(validity, values)
		return datum.Datum{}, err
	}
	maskTail(words, n)
	return boolResult(ret, n, validity, nulls, values), nil
}

// Distinct computes l IS DISTINCT FROM r (or, with not, IS NOT DISTINCT
// FROM): two nulls are not distinct, a null and a value are, two values
// are when they differ, except that NaN is not distinct from NaN (as in
// DuckDB). The result is never null.
func Distinct(mem memory.Allocator, not bool, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if l.IsScalar() && r.IsScalar() {
		return viaOneRow(mem, ret, []datum.Datum{l, r}, func(args []datum.Datum) (datum.Datum, error) {
			return distinctRows(mem, not, args[0], args[1], ret)
		})
	}
	return distinctRows(mem, not, l, r, ret)
}

func distinctRows(mem memory.Allocator, not bool, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	values, words := NewBits(mem, n)
	if isNullDatum(l) || isNullDatum(r) {
		clear(words)
	} else if err := cmpFill(mem, cmpSame, words, l, r); err != nil {
		values.Release()
		return datum.Datum{}, err
	}
	va, vb := validityOfDatum(l), validityOfDatum(r)
	flip := -b2u(!not) // all ones for IS DISTINCT FROM
	for k := range words {
		a, b := va.Word(k), vb.Word(k)
		words[k] = (a&b&words[k] | ^a&^b) ^ flip
	}
	maskTail(words, n)
	return boolResult(ret, n, nil, 0, values), nil
}

// Between computes lo <= x AND x <= hi with Kleene AND: a null x gives
// null, a null bound gives null unless the other comparison is false.
func Between(mem memory.Allocator, x, lo, hi datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) || isNullDatum(lo) && isNullDatum(hi) {
		return NullResult(ret, n), nil
	}
	if x.IsScalar() && lo.IsScalar() && hi.IsScalar() {
		return viaOneRow(mem, ret, []datum.Datum{x, lo, hi}, func(args []datum.Datum) (datum.Datum, error) {
			return betweenRows(mem, args[0], args[1], args[2], ret)
		})
	}
	return betweenRows(mem, x, lo, hi, ret)
}

func betweenRows(mem memory.Allocator, x, lo, hi datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	values, ge := NewBits(mem, n)
	leBuf, le := NewBits(mem, n)
	defer leBuf.Release()
	fail := func(err error) (datum.Datum, error) {
		values.Release()
		return datum.Datum{}, err
	}
	if isNullDatum(lo) {
		clear(ge)
	} else if err := cmpFill(mem, CmpGe, ge, x, lo); err != nil {
		return fail(err)
	}
	if isNullDatum(hi) {
		clear(le)
	} else if err := cmpFill(mem, CmpLe, le, x, hi); err != nil {
		return fail(err)
	}
	vx, vlo, vhi := validityOfDatum(x), validityOfDatum(lo), validityOfDatum(hi)
	var validity *memory.Buffer
	var valid []uint64
	if !vx.AllSet() || !vlo.AllSet() || !vhi.AllSet() {
		validity, valid = NewBits(mem, n)
	}
	for k := range ge {
		c1, c2 := ge[k], le[k]
		if valid != nil {
			v := vx.Word(k)
			v1, v2 := v&vlo.Word(k), v&vhi.Word(k)
			valid[k] = v1&v2 | v1&^c1 | v2&^c2
		}
		ge[k] = c1 & c2
	}
	maskTail(ge, n)
	nulls := 0
	if valid != nil {
		maskTail(valid, n)
		if nulls = CountZeros(valid, n); nulls == 0 {
			validity.Release()
			validity = nil
		}
	}
	return boolResult(ret, n, validity, nulls, values), nil
}

// InList computes x IN (vs...): true when x equals some v; otherwise null
// when x is null or some v is null; otherwise false.
func InList(mem memory.Allocator, x datum.Datum, vs []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	all := append([]datum.Datum{x}, vs...)
	if allScalars(all) {
		return viaOneRow(mem, ret, all, func(args []datum.Datum) (datum.Datum, error) {
			return inListRows(mem, args[0], args[1:], ret)
		})
	}
	return inListRows(mem, x, vs, ret)
}

func inListRows(mem memory.Allocator, x datum.Datum, vs []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	values, found := NewBits(mem, n)
	clear(found)
	tmpBuf, tmp := NewBits(mem, n)
	defer tmpBuf.Release()
	var listNull []uint64 // rows where some v is null; nil while none is
	for _, v := range vs {
		vv := validityOfDatum(v)
		if !vv.AllSet() {
			if listNull == nil {
				b, w := NewBits(mem, n)
				defer b.Release()
				clear(w)
				listNull = w
			}
			for k := range listNull {
				listNull[k] |= ^vv.Word(k)
			}
		}
		if isNullDatum(v) {
			continue
		}
		if err := cmpFill(mem, CmpEq, tmp, x, v); err != nil {
			values.Release()
			return datum.Datum{}, err
		}
		for k := range found {
			found[k] |= tmp[k] & vv.Word(k)
		}
	}
	vx := validityOfDatum(x)
	var validity *memory.Buffer
	nulls := 0
	if !vx.AllSet() || listNull != nil {
		var valid []uint64
		validity, valid = NewBits(mem, n)
		for k := range valid {
			v := vx.Word(k)
			if listNull != nil {
				v &= found[k] | ^listNull[k]
			}
			valid[k] = v
		}
		maskTail(valid, n)
		if nulls = CountZeros(valid, n); nulls == 0 {
			validity.Release()
			validity = nil
		}
	}
	maskTail(found, n)
	return boolResult(ret, n, validity, nulls, values), nil
}

func allScalars(args []datum.Datum) bool {
	for _, a := range args {
		if !a.IsScalar() {
			return false
		}
	}
	return true
}

// viaOneRow evaluates a kernel whose arguments are all scalars: it runs f
// (which must not take this shortcut again) over one row and returns that
// row as a scalar broadcast to the original length, so scalars stay
// scalars.
func viaOneRow(mem memory.Allocator, ret dtype.DType, args []datum.Datum, f func([]datum.Datum) (datum.Datum, error)) (datum.Datum, error) {
	n := 0
	one := make([]datum.Datum, len(args))
	for i, a := range args {
		n = a.Len()
		one[i] = datum.FromScalar(a.Scalar(), 1)
	}
	res, err := f(one)
	if err != nil {
		return datum.Datum{}, err
	}
	if res.IsScalar() {
		return datum.FromScalar(res.Scalar(), n), nil
	}
	defer res.Release()
	s, err := scalar.FromArray(res.Array(), 0, ret)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(s, n), nil
}

// maskTail clears the bits past row n in the last word.
func maskTail(words []uint64, n int) {
	if len(words) > 0 {
		words[len(words)-1] &= TailMask(n)
	}
}

// boolResult wraps value and validity bitmaps (offset 0) as a bool datum.
func boolResult(ret dtype.DType, n int, validity *memory.Buffer, nulls int, values *memory.Buffer) datum.Datum {
	return datum.FromArray(newArrayFrom(arrow.FixedWidthTypes.Boolean, n, nulls, validity, values), ret)
}

// cmpFill fills words with l op r over the rows of l and r, which share one
// dtype (and are not null datums). Rows where either side is null hold
// arbitrary bits; bits past the last row too.
func cmpFill(mem memory.Allocator, op CmpOp, words []uint64, l, r datum.Datum) error {
	if l.IsScalar() && r.IsScalar() && len(words) > 0 {
		// Two scalars inside a kernel over columns (IN, BETWEEN): one
		// comparison, repeated over every row.
		var one [1]uint64
		if err := cmpFillRows(mem, op, one[:], l, r); err != nil {
			return err
		}
		fillWords(words, one[0]&1 != 0)
		return nil
	}
	return cmpFillRows(mem, op, words, l, r)
}

// cmpFillRows is cmpFill by the operands' type; two scalars fill only row
// 0.
func cmpFillRows(mem memory.Allocator, op CmpOp, words []uint64, l, r datum.Datum) error {
	t := l.DType()
	switch t.Kind() {
	case dtype.KindBool:
		cmpBools(op, words, l, r)
	case dtype.KindPrimitive, dtype.KindExtension:
		switch t.PType() {
		case dtype.I8:
			cmpNumbers(op, words, FixedOf[int8](l), FixedOf[int8](r))
		case dtype.I16:
			cmpNumbers(op, words, FixedOf[int16](l), FixedOf[int16](r))
		case dtype.I32:
			cmpNumbers(op, words, FixedOf[int32](l), FixedOf[int32](r))
		case dtype.I64:
			cmpNumbers(op, words, FixedOf[int64](l), FixedOf[int64](r))
		case dtype.U8:
			cmpNumbers(op, words, FixedOf[uint8](l), FixedOf[uint8](r))
		case dtype.U16:
			cmpNumbers(op, words, FixedOf[uint16](l), FixedOf[uint16](r))
		case dtype.U32:
			cmpNumbers(op, words, FixedOf[uint32](l), FixedOf[uint32](r))
		case dtype.U64:
			cmpNumbers(op, words, FixedOf[uint64](l), FixedOf[uint64](r))
		case dtype.F16:
			a, ab := widenHalves(mem, FixedOf[half](l))
			b, bb := widenHalves(mem, FixedOf[half](r))
			cmpNumbers(op, words, a, b)
			releaseAll(ab, bb)
		case dtype.F32:
			cmpNumbers(op, words, FixedOf[float32](l), FixedOf[float32](r))
		case dtype.F64:
			cmpNumbers(op, words, FixedOf[float64](l), FixedOf[float64](r))
		default:
			return fmt.Errorf("no comparison for %s", t)
		}
	case dtype.KindDecimal:
		a, b := FixedOf[decimal128.Num](l), FixedOf[decimal128.Num](r)
		if t.Precision() <= 18 {
			cmpSmallDecimals(op, words, a, b)
		} else {
			cmpDecimals(op, words, a, b)
		}
	case dtype.KindUtf8, dtype.KindBinary:
		return cmpBytes(op, words, l, r)
	case dtype.KindInterval:
		cmpIntervals(op, words, FixedOf[Interval](l), FixedOf[Interval](r))
	case dtype.KindStruct, dtype.KindList, dtype.KindFixedSizeList:
		if op != CmpEq && op != CmpNe && op != cmpSame {
			return fmt.Errorf("no ordering for %s", t)
		}
		return cmpNested(mem, op, words, l, r)
	case dtype.KindNull:
		clear(words)
	default:
		return fmt.Errorf("no comparison for %s", t)
	}
	return nil
}

// cmpBools compares bool values word-wise (false < true).
func cmpBools(op CmpOp, words []uint64, l, r datum.Datum) {
	word := func(d datum.Datum) func(k int) uint64 {
		if d.IsScalar() {
			v, _ := d.Scalar().Value().(bool)
			w := -b2u(v)
			return func(int) uint64 { return w }
		}
		m := ValuesOf(d.Array())
		return m.Word
	}
	a, b := word(l), word(r)
	for k := range words {
		x, y := a(k), b(k)
		var w uint64
		switch op {
		case CmpEq, cmpSame:
			w = ^(x ^ y)
		case CmpNe:
			w = x ^ y
		case CmpLt:
			w = ^x & y
		case CmpLe:
			w = ^x | y
		case CmpGt:
			w = x &^ y
		case CmpGe:
			w = x | ^y
		}
		words[k] = w
	}
}

// cmpSmallDecimals compares decimals of at most 18 digits. Their values
// fit an int64, so the high word of each 128-bit value is the sign
// extension of the low one and the low words, read in place from the
// Arrow buffer as int64, compare as the values do: no copy is made.
func cmpSmallDecimals(op CmpOp, words []uint64, a, b Fixed[decimal128.Num]) {
	if a.IsScalar && b.IsScalar {
		fillWords(words, cmpOne(op, decLow(a.Scalar), decLow(b.Scalar)))
		return
	}
	if a.IsScalar {
		a, b, op = b, a, op.Flip()
	}
	if b.IsScalar {
		s := decLow(b.Scalar)
		switch op {
		case CmpEq, cmpSame:
			eqDecVS(words, a.Vals, s)
		case CmpNe:
			eqDecVS(words, a.Vals, s)
			invertWords(words)
		case CmpLt:
			ltDecVS(words, a.Vals, s)
		case CmpLe:
			leDecVS(words, a.Vals, s)
		case CmpGt:
			gtDecVS(words, a.Vals, s)
		case CmpGe:
			geDecVS(words, a.Vals, s)
		}
		return
	}
	switch op {
	case CmpEq, cmpSame:
		eqDecVV(words, a.Vals, b.Vals)
	case CmpNe:
		eqDecVV(words, a.Vals, b.Vals)
		invertWords(words)
	case CmpLt:
		ltDecVV(words, a.Vals, b.Vals)
	case CmpLe:
		leDecVV(words, a.Vals, b.Vals)
	case CmpGt:
		ltDecVV(words, b.Vals, a.Vals)
	case CmpGe:
		leDecVV(words, b.Vals, a.Vals)
	}
}

// cmpDecimals compares 128-bit decimal values of one scale, without a
// branch per row: the three-way outcome indexes the operator's table.
func cmpDecimals(op CmpOp, words []uint64, a, b Fixed[decimal128.Num]) {
	n := len(a.Vals)
	switch {
	case a.IsScalar && b.IsScalar:
		n = 1
	case a.IsScalar:
		n = len(b.Vals)
	}
	table := outcome[op]
	xs, ys, x, y := a.Vals, b.Vals, a.Scalar, b.Scalar
	for k := range words {
		var w uint64
		base := k << 6
		m := min(64, n-base)
		for j := 0; j < m; j++ {
			if xs != nil {
				x = xs[base+j]
			}
			if ys != nil {
				y = ys[base+j]
			}
			xh, yh := x.HighBits(), y.HighBits()
			xl, yl := x.LowBits(), y.LowBits()
			hiEq := b2u(xh == yh)
			lt := b2u(xh < yh) | hiEq&b2u(xl < yl)
			eq := hiEq & b2u(xl == yl)
			// index 0 for <, 1 for =, 2 for >
			idx := eq | (1^lt^eq)<<1
			w |= (table >> idx & 1) << uint(j)
		}
		words[k] = w
	}
}

// byteRows is the rows of a utf8 or binary datum: an array's offsets (its
// offset applied) and data, or one scalar value.
type byteRows struct {
	offs     []int32
	data     []byte
	scalar   []byte
	isScalar bool
}

func byteRowsOf(d datum.Datum) (byteRows, error) {
	if d.IsScalar() {
		s, _ := d.Scalar().Value().(string)
		return byteRows{scalar: []byte(s), isScalar: true}, nil
	}
	return byteRowsOfArray(d.Array())
}

func byteRowsOfArray(arr arrow.Array) (byteRows, error) {
	n := arr.Len()
	if n == 0 {
		return byteRows{offs: []int32{0}}, nil
	}
	ad := arr.Data()
	bufs := ad.Buffers()
	if len(bufs) < 3 || bufs[1] == nil {
		return byteRows{}, fmt.Errorf("%s array without offsets", arr.DataType())
	}
	all := valuesOfBuffer[int32](bufs[1])
	if len(all) < ad.Offset()+n+1 {
		return byteRows{}, fmt.Errorf("%s array of %d rows at offset %d has %d offsets", arr.DataType(), n, ad.Offset(), len(all))
	}
	offs := all[ad.Offset() : ad.Offset()+n+1]
	var data []byte
	if bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	if offs[0] < 0 || offs[n] < offs[0] || int(offs[n]) > len(data) {
		return byteRows{}, fmt.Errorf("%s array offsets [%d, %d] outside its %d bytes", arr.DataType(), offs[0], offs[n], len(data))
	}
	return byteRows{offs: offs, data: data}, nil
}

// at is row i. A row whose offsets are out of order (only possible under a
// null, which is never read for its value) reads as empty.
func (b byteRows) at(i int) []byte {
	if b.isScalar {
		return b.scalar
	}
	s, e := b.offs[i], b.offs[i+1]
	if e < s {
		return nil
	}
	return b.data[s:e]
}

func (b byteRows) len() int { return len(b.offs) - 1 }

// cmpBytes compares utf8 or binary rows bytewise (utf8 by UTF-8 bytes,
// which is code point order).
func cmpBytes(op CmpOp, words []uint64, l, r datum.Datum) error {
	a, err := byteRowsOf(l)
	if err != nil {
		return err
	}
	b, err := byteRowsOf(r)
	if err != nil {
		return err
	}
	n := 1
	switch {
	case !a.isScalar:
		n = a.len()
	case !b.isScalar:
		n = b.len()
	}
	eq := op == CmpEq || op == CmpNe || op == cmpSame
	neg := b2u(op == CmpNe)
	for k := range words {
		var w uint64
		base := k << 6
		for j := 0; j < 64 && base+j < n; j++ {
			x, y := a.at(base+j), b.at(base+j)
			var c uint64
			if eq {
				c = b2u(bytes.Equal(x, y)) ^ neg
			} else {
				c = cmpBit(op, bytes.Compare(x, y))
			}
			w |= c << uint(j)
		}
		words[k] = w
	}
	return nil
}
