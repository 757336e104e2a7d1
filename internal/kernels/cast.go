package kernels

// Casts over arrays. The semantics are package scalar's Cast, row by row:
// the vectorized conversions here (numbers, decimals, bools, dates, times,
// timestamps, utf8 ↔ binary, nested types) must agree with it, and the
// casts that format or parse text (to and from utf8, float → decimal)
// call it per row, so the two cannot drift. The tests check the agreement
// on every pair of types.
//
// Every conversion runs in "try" mode: a valid row that does not convert
// becomes null and is marked in a failure bitmap. A checked cast then
// reports the first failed row, with the message scalar.Cast gives for that
// row's value. Nested casts convert their children (only the rows their
// parent's slice covers) and fail a parent row when one of its elements or
// fields failed, or when a null lands in a non-nullable slot.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/zeroed"
	"github.com/colexpr/colexpr/scalar"
)

// Cast converts x to ret's type. With try, a value that does not convert
// gives null; without, it is an error wrapping errs.ErrInvalidCast at its
// row. ret's own nullability is the binder's; the conversion itself uses
// to (ret without its top-level nullability mattering).
func Cast(mem memory.Allocator, x datum.Datum, ret dtype.DType, try bool) (datum.Datum, error) {
	n := x.Len()
	if x.IsScalar() {
		s := x.Scalar()
		if try {
			return datum.FromScalar(scalar.TryCast(s, ret).WithDType(ret), n), nil
		}
		v, err := scalar.Cast(s, ret)
		if err != nil {
			if n == 0 {
				return NullResult(ret, n), nil
			}
			return datum.Datum{}, &RowError{Row: 0, Err: castMessage(err)}
		}
		return datum.FromScalar(v, n), nil
	}
	arr := x.Array()
	out, failed, err := castArray(mem, arr, x.DType(), ret)
	if err != nil {
		return datum.Datum{}, err
	}
	if failed != nil && !try {
		out.Release()
		row := firstSet(failed)
		return datum.Datum{}, &RowError{Row: row, Err: rowCastError(arr, row, x.DType(), ret)}
	}
	return datum.FromArray(out, ret), nil
}

// rowCastError is the error of casting row i of arr, as scalar.Cast words
// it.
func rowCastError(arr arrow.Array, i int, from, to dtype.DType) error {
	s, err := scalar.FromArray(arr, i, from)
	if err != nil {
		return fmt.Errorf("%w: row value unreadable: %v", errs.ErrInvalidCast, err)
	}
	if _, err := scalar.Cast(s, to); err != nil {
		return castMessage(err)
	}
	return fmt.Errorf("%w: %s does not convert to %s", errs.ErrInvalidCast, s, to)
}

// castMessage is scalar's cast error without its package prefix (the
// function and row come in front of it).
func castMessage(err error) error { return prefixless{err} }

type prefixless struct{ err error }

func (e prefixless) Error() string { return strings.TrimPrefix(e.err.Error(), "scalar: ") }
func (e prefixless) Unwrap() error { return e.err }

// firstSet is the index of the first set bit of words (-1 for none).
func firstSet(words []uint64) int {
	for k, w := range words {
		if w != 0 {
			return k<<6 + trailingZeros(w)
		}
	}
	return -1
}

// castArray converts arr (logical type from) to to. A valid row that does
// not convert is null in out and set in failed, which is nil when no row
// failed; failed is ordinary Go memory, being rare and small.
func castArray(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (out arrow.Array, failed []uint64, err error) {
	n := arr.Len()
	switch {
	case from.IsNull() || arr.NullN() == n && n > 0 && !to.IsNull():
		return zeroed.NullArray(mem, dtype.ToArrow(to), n), nil, nil
	case from.EqualIgnoreNullability(to) && !hasNonNullableSlot(to):
		if !arrow.TypeEqual(arr.DataType(), dtype.ToArrow(to)) {
			// Only the nullability flags of nested fields differ.
			return relabel(arr, to), nil, nil
		}
		arr.Retain()
		return arr, nil, nil
	case from.IsStruct():
		return castStruct(mem, arr, from, to)
	case from.IsList():
		return castList(mem, arr, from, to)
	case to.IsUtf8() && from.IsBinary():
		return binaryToUtf8(mem, arr)
	case to.IsBinary() && from.IsUtf8():
		return relabel(arr, to), nil, nil
	case to.IsUtf8() && from.IsPrimitive() && from.PType().IsInt():
		return intsToText(mem, arr, from)
	case to.IsUtf8() || from.IsUtf8():
		return castViaScalars(mem, arr, from, to)
	case from.IsTemporal() && to.IsTemporal():
		return castTemporal(mem, arr, from, to)
	case (from.IsBool() || from.IsNumeric()) && (to.IsBool() || to.IsNumeric()):
		return castNumeric(mem, arr, from, to)
	}
	return nil, nil, fmt.Errorf("%w: no cast from %s to %s", errs.ErrInvalidCast, from, to)
}

// hasNonNullableSlot reports whether a nested type has a non-nullable
// element or field somewhere (a cast into it must check for nulls).
func hasNonNullableSlot(t dtype.DType) bool {
	switch {
	case t.IsList():
		return !t.Elem().Nullable() || hasNonNullableSlot(t.Elem())
	case t.IsStruct():
		for _, f := range t.Fields() {
			if !f.Type.Nullable() || hasNonNullableSlot(f.Type) {
				return true
			}
		}
	}
	return false
}

// relabel is arr's data as an array of Arrow type to (same layout).
func relabel(arr arrow.Array, to dtype.DType) arrow.Array {
	d := arr.Data()
	nd := array.NewData(dtype.ToArrow(to), d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	out := array.MakeFromData(nd)
	nd.Release()
	return out
}

// castViaScalars converts row by row through scalar.Cast: the casts that
// parse or format text, and the rare numeric ones whose rounding goes
// through text (float → decimal, decimal → f16).
func castViaScalars(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	b := array.NewBuilder(mem, dtype.ToArrow(to))
	defer b.Release()
	b.Reserve(n)
	var failed []uint64
	target := to.AsNullable()
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		s, err := scalar.FromArray(arr, i, from)
		if err != nil {
			return nil, nil, err
		}
		v, err := scalar.Cast(s, target)
		if err != nil {
			failed = setFailed(failed, n, i)
			b.AppendNull()
			continue
		}
		if err := scalar.Append(b, v); err != nil {
			return nil, nil, err
		}
	}
	return b.NewArray(), failed, nil
}

// setFailed marks row i of an n-row failure bitmap, allocating it on the
// first failure.
func setFailed(failed []uint64, n, i int) []uint64 {
	if failed == nil {
		failed = make([]uint64, NumWords(n))
	}
	failed[i>>6] |= 1 << uint(i&63)
	return failed
}

// withFailures is the validity of a result whose input had validity valid
// (n rows) and whose rows in failed did not convert: valid &^ failed, as a
// new buffer, with its null count. It is (nil, 0) when nothing is null.
func withFailures(mem memory.Allocator, valid Bitmap, failed []uint64, n int) (*memory.Buffer, int) {
	if failed == nil {
		return AndBitmaps(mem, n, valid)
	}
	buf, words := NewBits(mem, n)
	for k := range words {
		words[k] = valid.Word(k) &^ failed[k]
	}
	maskTail(words, n)
	return buf, CountZeros(words, n)
}

// errNoCast is returned for a pair of types the kernels do not convert.
var errNoCast = errors.New("no cast")
