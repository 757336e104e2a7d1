package kernels

// Checked integer arithmetic.
//
// The loops compute a whole column without a branch per row and OR
// together an overflow flag per row; only when the combined flag is set is
// the column scanned again, row by row, for the first valid row that
// overflows (null rows hold arbitrary values and never raise). Narrow types
// (8 to 32 bits) are computed in 64 bits and flag a result that does not
// survive the round trip through T; 64-bit types use the sign-bit identities
// of two's complement (add, sub) or the 128-bit product of math/bits (mul).
//
// On amd64, addition, subtraction and multiplication first run the SIMD
// kernels (simd.go) over the whole blocks they take, which flag overflow
// lane by lane in T's own width (exactly, except 64-bit multiplication,
// which flags by a bound and leaves the exact test to the rescan); the
// loops below do the rest.
//
// Division and modulo test every divisor for zero (and signed ones for
// MIN / -1), so they branch per row; they flag instead of raising in the
// loop for the same reason.

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// ArithOp is a binary arithmetic operator.
type ArithOp uint8

// The arithmetic operators.
const (
	OpAdd ArithOp = iota
	OpSub
	OpMul
	OpDiv
	OpMod
)

var opSymbols = [...]string{"+", "-", "*", "/", "%"}

func (op ArithOp) String() string { return opSymbols[op] }

// IntArith computes l op r over integers of type T, checked: a result that
// does not fit T is errs.ErrOverflow, a zero divisor errs.ErrDivideByZero,
// and MIN / -1 and MIN % -1 overflow (as in DuckDB). Both arguments and ret
// have T's dtype (nullability aside).
func IntArith[T Integer](mem memory.Allocator, op ArithOp, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	if isNullDatum(l) || isNullDatum(r) {
		return NullResult(ret, n), nil
	}
	a, b := FixedOf[T](l), FixedOf[T](r)
	if a.IsScalar && b.IsScalar {
		v, fail := intOne(op, a.Scalar, b.Scalar)
		if fail != nil && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: intArithError(op, fail, a.Scalar, b.Scalar, l.DType())}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := AndBitmaps(mem, n, a.Valid, b.Valid)
	values, dst := newValues[T](mem, n)
	var valid []uint64 // the result's validity words; nil when all valid
	if validity != nil {
		valid = bufWords(validity, NumWords(n))
	}
	if intLoop(op, dst, a, b, valid) {
		// Some row failed, maybe only under a null (Arrow builders leave
		// zeros there, so a null divisor is often a zero one): find the
		// first valid failing row, testing the value before the bitmap.
		valid := bufferBitmap(validity)
		xs, ys, x, y := a.Vals, b.Vals, a.Scalar, b.Scalar
		for i := 0; i < n; i++ {
			if xs != nil {
				x = xs[i]
			}
			if ys != nil {
				y = ys[i]
			}
			if fail := intFails(op, x, y); fail != nil && valid.Get(i) {
				releaseAll(validity, values)
				return datum.Datum{}, &RowError{Row: i, Err: intArithError(op, fail, x, y, l.DType())}
			}
		}
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

func intArithError[T Integer](op ArithOp, fail error, x, y T, t dtype.DType) error {
	if fail == errs.ErrDivideByZero {
		return fmt.Errorf("%w: %d %s 0", fail, x, op)
	}
	return fmt.Errorf("%w: %d %s %d does not fit %s", fail, x, op, y, t.AsNonNullable())
}

// intFails is the sentinel x op y raises, or nil; unlike intOne it never
// divides.
func intFails[T Integer](op ArithOp, x, y T) error {
	if op == OpDiv || op == OpMod {
		switch {
		case y == 0:
			return errs.ErrDivideByZero
		case isSigned[T]() && y == ^T(0) && x == minOf[T]():
			return errs.ErrOverflow
		}
		return nil
	}
	_, fail := intOne(op, x, y)
	return fail
}

// intOne is x op y for one row, with the sentinel it raises (nil when it
// fits).
func intOne[T Integer](op ArithOp, x, y T) (T, error) {
	signed := isSigned[T]()
	switch op {
	case OpAdd:
		s := x + y
		if signed && (x^s)&(y^s) < 0 || !signed && s < x {
			return s, errs.ErrOverflow
		}
		return s, nil
	case OpSub:
		s := x - y
		if signed && (x^y)&(x^s) < 0 || !signed && x < y {
			return s, errs.ErrOverflow
		}
		return s, nil
	case OpMul:
		if x == 0 || y == 0 {
			return 0, nil
		}
		p := x * y
		if signed && (x == ^T(0) && y == minOf[T]() || y == ^T(0) && x == minOf[T]()) || p/y != x {
			return p, errs.ErrOverflow
		}
		return p, nil
	default:
		if y == 0 {
			return 0, errs.ErrDivideByZero
		}
		if signed && y == ^T(0) && x == minOf[T]() {
			return 0, errs.ErrOverflow
		}
		if op == OpDiv {
			return x / y, nil
		}
		return x % y, nil
	}
}

// intLoop computes dst = a op b for every row and reports whether some row
// may have failed: for add, sub and mul any row, valid or not; division
// and modulo consult valid (nil when every row is), since null divisors
// are often zero.
func intLoop[T Integer](op ArithOp, dst []T, a, b Fixed[T], valid []uint64) bool {
	switch op {
	case OpAdd:
		switch {
		case a.IsScalar:
			return addVS(dst, b.Vals, a.Scalar)
		case b.IsScalar:
			return addVS(dst, a.Vals, b.Scalar)
		}
		return addVV(dst, a.Vals, b.Vals)
	case OpSub:
		switch {
		case a.IsScalar:
			return subSV(dst, a.Scalar, b.Vals)
		case b.IsScalar:
			return subVS(dst, a.Vals, b.Scalar)
		}
		return subVV(dst, a.Vals, b.Vals)
	case OpMul:
		switch {
		case a.IsScalar:
			return mulVS(dst, b.Vals, a.Scalar)
		case b.IsScalar:
			return mulVS(dst, a.Vals, b.Scalar)
		}
		return mulVV(dst, a.Vals, b.Vals)
	default:
		if b.IsScalar {
			return divModVS(op, dst, a.Vals, b.Scalar, valid)
		}
		return divModV(op, dst, a, b.Vals, valid)
	}
}

// shape is how a loop computes T: in 64 bits (narrow types) or natively.
type shape uint8

const (
	narrowSigned shape = iota
	narrowUnsigned
	wideSigned
	wideUnsigned
)

func shapeOf[T Integer]() shape {
	switch {
	case bitWidth[T]() < 64 && isSigned[T]():
		return narrowSigned
	case bitWidth[T]() < 64:
		return narrowUnsigned
	case isSigned[T]():
		return wideSigned
	}
	return wideUnsigned
}

// wide is the 64-bit type a narrow T is computed in.
type wide interface{ ~int64 | ~uint64 }

func addVV[T Integer](dst, a, b []T) bool {
	done, of := arithFast(OpAdd, formVV, dst, a, 0, b)
	dst, a, b = dst[done:], a[done:], b[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return addNarrowVV[T, int64](dst, a, b) || of
	case narrowUnsigned:
		return addNarrowVV[T, uint64](dst, a, b) || of
	case wideSigned:
		return addS64VV(dst, a, b) || of
	}
	return addU64VV(dst, a, b) || of
}

func addVS[T Integer](dst, a []T, y T) bool {
	done, of := arithFast(OpAdd, formVS, dst, a, y, nil)
	dst, a = dst[done:], a[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return addNarrowVS[T, int64](dst, a, y) || of
	case narrowUnsigned:
		return addNarrowVS[T, uint64](dst, a, y) || of
	case wideSigned:
		return addS64VS(dst, a, y) || of
	}
	return addU64VS(dst, a, y) || of
}

// addNarrowVV: the sum s, computed in W, fits T exactly when s - MIN(T)
// lies in [0, 2^bits(T)), that is when its bits above bits(T) are zero;
// the loop ORs those differences together and tests the high bits once.
func addNarrowVV[T Integer, W wide](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		s := W(a[i]) + W(b[i])
		dst[i] = T(s)
		of |= uint64(s - lo)
	}
	return of>>bitWidth[T]() != 0
}

func addNarrowVS[T Integer, W wide](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	wy := W(y)
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		s := W(a[i]) + wy
		dst[i] = T(s)
		of |= uint64(s - lo)
	}
	return of>>bitWidth[T]() != 0
}

// addS64VV: a signed sum overflows when both operands have the sign the
// result lacks.
func addS64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of T
	for i := range a {
		x, y := a[i], b[i]
		s := x + y
		dst[i] = s
		of |= (x ^ s) & (y ^ s)
	}
	return of < 0
}

func addS64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of T
	for i := range a {
		x := a[i]
		s := x + y
		dst[i] = s
		of |= (x ^ s) & (y ^ s)
	}
	return of < 0
}

func addU64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of uint64
	for i := range a {
		s, c := bits.Add64(uint64(a[i]), uint64(b[i]), 0)
		dst[i] = T(s)
		of |= c
	}
	return of != 0
}

func addU64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of uint64
	for i := range a {
		s, c := bits.Add64(uint64(a[i]), uint64(y), 0)
		dst[i] = T(s)
		of |= c
	}
	return of != 0
}

func subVV[T Integer](dst, a, b []T) bool {
	done, of := arithFast(OpSub, formVV, dst, a, 0, b)
	dst, a, b = dst[done:], a[done:], b[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return subNarrowVV[T, int64](dst, a, b) || of
	case narrowUnsigned:
		return subNarrowVV[T, uint64](dst, a, b) || of
	case wideSigned:
		return subS64VV(dst, a, b) || of
	}
	return subU64VV(dst, a, b) || of
}

func subVS[T Integer](dst, a []T, y T) bool {
	done, of := arithFast(OpSub, formVS, dst, a, y, nil)
	dst, a = dst[done:], a[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return subNarrowVS[T, int64](dst, a, y) || of
	case narrowUnsigned:
		return subNarrowVS[T, uint64](dst, a, y) || of
	case wideSigned:
		return subS64VS(dst, a, y) || of
	}
	return subU64VS(dst, a, y) || of
}

func subSV[T Integer](dst []T, x T, b []T) bool {
	done, of := arithFast(OpSub, formSV, dst, nil, x, b)
	dst, b = dst[done:], b[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return subNarrowSV[T, int64](dst, x, b) || of
	case narrowUnsigned:
		return subNarrowSV[T, uint64](dst, x, b) || of
	case wideSigned:
		return subS64SV(dst, x, b) || of
	}
	return subU64SV(dst, x, b) || of
}

func subNarrowVV[T Integer, W wide](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		s := W(a[i]) - W(b[i])
		dst[i] = T(s)
		of |= uint64(s - lo)
	}
	return of>>bitWidth[T]() != 0
}

func subNarrowVS[T Integer, W wide](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	wy := W(y)
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		s := W(a[i]) - wy
		dst[i] = T(s)
		of |= uint64(s - lo)
	}
	return of>>bitWidth[T]() != 0
}

func subNarrowSV[T Integer, W wide](dst []T, x T, b []T) bool {
	dst = dst[:len(b)]
	wx := W(x)
	lo := W(minOf[T]())
	var of uint64
	for i := range b {
		s := wx - W(b[i])
		dst[i] = T(s)
		of |= uint64(s - lo)
	}
	return of>>bitWidth[T]() != 0
}

// subS64VV: a signed difference overflows when the operands differ in sign
// and the result has the subtrahend's.
func subS64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of T
	for i := range a {
		x, y := a[i], b[i]
		s := x - y
		dst[i] = s
		of |= (x ^ y) & (x ^ s)
	}
	return of < 0
}

func subS64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of T
	for i := range a {
		x := a[i]
		s := x - y
		dst[i] = s
		of |= (x ^ y) & (x ^ s)
	}
	return of < 0
}

func subS64SV[T Integer](dst []T, x T, b []T) bool {
	dst = dst[:len(b)]
	var of T
	for i := range b {
		y := b[i]
		s := x - y
		dst[i] = s
		of |= (x ^ y) & (x ^ s)
	}
	return of < 0
}

func subU64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of uint64
	for i := range a {
		s, c := bits.Sub64(uint64(a[i]), uint64(b[i]), 0)
		dst[i] = T(s)
		of |= c
	}
	return of != 0
}

func subU64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of uint64
	for i := range a {
		s, c := bits.Sub64(uint64(a[i]), uint64(y), 0)
		dst[i] = T(s)
		of |= c
	}
	return of != 0
}

func subU64SV[T Integer](dst []T, x T, b []T) bool {
	dst = dst[:len(b)]
	var of uint64
	for i := range b {
		s, c := bits.Sub64(uint64(x), uint64(b[i]), 0)
		dst[i] = T(s)
		of |= c
	}
	return of != 0
}

func mulVV[T Integer](dst, a, b []T) bool {
	done, of := arithFast(OpMul, formVV, dst, a, 0, b)
	dst, a, b = dst[done:], a[done:], b[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return mulNarrowVV[T, int64](dst, a, b) || of
	case narrowUnsigned:
		return mulNarrowVV[T, uint64](dst, a, b) || of
	case wideSigned:
		return mulS64VV(dst, a, b) || of
	}
	return mulU64VV(dst, a, b) || of
}

func mulVS[T Integer](dst, a []T, y T) bool {
	done, of := arithFast(OpMul, formVS, dst, a, y, nil)
	dst, a = dst[done:], a[done:]
	switch shapeOf[T]() {
	case narrowSigned:
		return mulNarrowVS[T, int64](dst, a, y) || of
	case narrowUnsigned:
		return mulNarrowVS[T, uint64](dst, a, y) || of
	case wideSigned:
		return mulS64VS(dst, a, y) || of
	}
	return mulU64VS(dst, a, y) || of
}

// mulNarrowVV: the product of two 32-bit values always fits 64 bits.
func mulNarrowVV[T Integer, W wide](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		p := W(a[i]) * W(b[i])
		dst[i] = T(p)
		of |= uint64(p - lo)
	}
	return of>>bitWidth[T]() != 0
}

func mulNarrowVS[T Integer, W wide](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	wy := W(y)
	lo := W(minOf[T]())
	var of uint64
	for i := range a {
		p := W(a[i]) * wy
		dst[i] = T(p)
		of |= uint64(p - lo)
	}
	return of>>bitWidth[T]() != 0
}

// mulS64: the unsigned 128-bit product of the two's complement bit
// patterns, corrected to the signed high word, fits 64 bits exactly when
// the high word is the sign extension of the low one.
func mulS64(x, y uint64) (lo, flag uint64) {
	hi, lo := bits.Mul64(x, y)
	hi -= uint64(int64(x)>>63) & y
	hi -= uint64(int64(y)>>63) & x
	return lo, hi ^ uint64(int64(lo)>>63)
}

func mulS64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of uint64
	for i := range a {
		lo, f := mulS64(uint64(a[i]), uint64(b[i]))
		dst[i] = T(lo)
		of |= f
	}
	return of != 0
}

func mulS64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of uint64
	for i := range a {
		lo, f := mulS64(uint64(a[i]), uint64(y))
		dst[i] = T(lo)
		of |= f
	}
	return of != 0
}

func mulU64VV[T Integer](dst, a, b []T) bool {
	b, dst = b[:len(a)], dst[:len(a)]
	var of uint64
	for i := range a {
		hi, lo := bits.Mul64(uint64(a[i]), uint64(b[i]))
		dst[i] = T(lo)
		of |= hi
	}
	return of != 0
}

func mulU64VS[T Integer](dst, a []T, y T) bool {
	dst = dst[:len(a)]
	var of uint64
	for i := range a {
		hi, lo := bits.Mul64(uint64(a[i]), uint64(y))
		dst[i] = T(lo)
		of |= hi
	}
	return of != 0
}

// IntNeg computes -x (neg) or |x| (abs), checked: -MIN and |MIN| overflow.
// Negating a nonzero unsigned value overflows too (the binder rejects
// unsigned neg; the kernel stays total).
func IntNeg[T Integer](mem memory.Allocator, abs bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	a := FixedOf[T](x)
	name := "-"
	if abs {
		name = "abs"
	}
	if a.IsScalar {
		v, ok := negOne(abs, a.Scalar)
		if !ok && n > 0 {
			return datum.Datum{}, &RowError{Row: 0, Err: negError(name, a.Scalar, x.DType())}
		}
		return scalarResult(ret, v, n)
	}
	validity, nulls := ShareValidity(mem, x.Array())
	values, dst := newValues[T](mem, n)
	if negLoop(abs, dst, a.Vals) {
		for i, v := range a.Vals {
			if _, ok := negOne(abs, v); !ok && a.Valid.Get(i) {
				releaseAll(validity, values)
				return datum.Datum{}, &RowError{Row: i, Err: negError(name, v, x.DType())}
			}
		}
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

func negError[T Integer](name string, v T, t dtype.DType) error {
	if name == "-" {
		return fmt.Errorf("%w: -(%d) does not fit %s", errs.ErrOverflow, v, t.AsNonNullable())
	}
	return fmt.Errorf("%w: abs(%d) does not fit %s", errs.ErrOverflow, v, t.AsNonNullable())
}

func negOne[T Integer](abs bool, x T) (T, bool) {
	if !isSigned[T]() {
		if abs {
			return x, true
		}
		return -x, x == 0
	}
	if abs && x >= 0 {
		return x, true
	}
	return -x, x != minOf[T]()
}

// negLoop reports whether some row may have overflowed: -x and |x| are
// negative only for MIN.
func negLoop[T Integer](abs bool, dst, a []T) bool {
	dst = dst[:len(a)]
	if !isSigned[T]() {
		if abs {
			copy(dst, a)
			return false
		}
		var nz T
		for i, x := range a {
			dst[i] = -x
			nz |= x
		}
		return nz != 0
	}
	sh := bitWidth[T]() - 1
	var of T
	if abs {
		for i, x := range a {
			m := x >> sh
			s := (x ^ m) - m
			dst[i] = s
			of |= s
		}
	} else {
		for i, x := range a {
			s := -x
			dst[i] = s
			of |= x & s
		}
	}
	return of < 0
}
