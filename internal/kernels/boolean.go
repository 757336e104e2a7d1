package kernels

// Kleene logic (AND, OR, NOT) and the null tests (IS NULL, IS NOT NULL),
// word by word on the value and validity bitmaps.
//
// With a, b the value words and va, vb the validity words of the two
// sides, a row of a AND b is
//
//	value = a & b,  valid = va&vb | va&^a | vb&^b
//
// (known when both sides are, or when either is a known false), and of
// a OR b
//
//	value = a | b,  valid = va&vb | va&a | vb&b.
//
// Value bits under nulls are arbitrary in Arrow; the formulas never let
// them reach a valid row. A scalar side is never broadcast: false AND x is
// the scalar false, true AND x is x itself (shared, not copied), and
// null AND x is false where x is false and null elsewhere.

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// Logic computes l AND r (or, with or, l OR r) under Kleene logic.
func Logic(mem memory.Allocator, or bool, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := l.Len()
	// absorb is the value that decides the result alone: false for AND,
	// true for OR.
	absorb := or
	// A column of the null type is a null scalar.
	if isNullDatum(l) {
		l = NullResult(ret, n)
	}
	if isNullDatum(r) {
		r = NullResult(ret, n)
	}
	if l.IsScalar() && r.IsScalar() {
		x, xok := boolScalar(l)
		y, yok := boolScalar(r)
		switch {
		case xok && x == absorb || yok && y == absorb:
			return boolScalarResult(ret, absorb, n)
		case xok && yok:
			return boolScalarResult(ret, !absorb, n)
		}
		return NullResult(ret, n), nil
	}
	if l.IsScalar() {
		l, r = r, l
	}
	// Now l is an array.
	if r.IsScalar() {
		y, yok := boolScalar(r)
		switch {
		case yok && y == absorb:
			return boolScalarResult(ret, absorb, n)
		case yok:
			l.Array().Retain()
			return datum.FromArray(l.Array(), ret), nil
		}
		return logicWithNull(mem, or, l, ret)
	}
	a, b := ValuesOf(l.Array()), ValuesOf(r.Array())
	va, vb := ValidityOf(l.Array()), ValidityOf(r.Array())
	values, words := NewBits(mem, n)
	if va.AllSet() && vb.AllSet() {
		k0 := 0 // the words the SIMD kernels (simd.go) did, when aligned
		if wa, wb := a.Words(len(words)), b.Words(len(words)); wa != nil && wb != nil {
			k0 = wordsFast(or, false, words, wa, wb)
		}
		for k := k0; k < len(words); k++ {
			if or {
				words[k] = a.Word(k) | b.Word(k)
			} else {
				words[k] = a.Word(k) & b.Word(k)
			}
		}
		maskTail(words, n)
		return boolResult(ret, n, nil, 0, values), nil
	}
	validity, valid := NewBits(mem, n)
	flip := -b2u(!or) // AND looks for known falses: complement the values
	nw := len(words)
	if wa, wb, wva, wvb := a.Words(nw), b.Words(nw), va.Words(nw), vb.Words(nw); wa != nil && wb != nil && wva != nil && wvb != nil {
		// Word-aligned inputs with nulls on both sides: the common case,
		// without per-word offset arithmetic. The SIMD kernels (simd.go)
		// take the whole blocks they can of the words before the last.
		wb, wva, wvb, valid = wb[:nw], wva[:nw], wvb[:nw], valid[:nw]
		done, ones := kleeneFast(or, words, valid, wa[:nw-1], wb, wva, wvb)
		for k := done; k < nw-1; k++ {
			x, y, vx, vy := wa[k], wb[k], wva[k], wvb[k]
			v := vx&vy | vx&(x^flip) | vy&(y^flip)
			valid[k] = v
			ones += bits.OnesCount64(v)
			if or {
				words[k] = x | y
			} else {
				words[k] = x & y
			}
		}
		k := nw - 1
		x, y, vx, vy := wa[k], wb[k], wva[k], wvb[k]
		valid[k] = (vx&vy | vx&(x^flip) | vy&(y^flip)) & TailMask(n)
		ones += bits.OnesCount64(valid[k])
		if or {
			words[k] = (x | y) & TailMask(n)
		} else {
			words[k] = x & y & TailMask(n)
		}
		nulls := n - ones
		if nulls == 0 {
			validity.Release()
			validity = nil
		}
		return boolResult(ret, n, validity, nulls, values), nil
	} else {
		k0 := 0 // the words the SIMD kernels (simd.go) did
		if va.AllSet() != vb.AllSet() {
			// Nulls on one side only: word-aligned, the kernels take it as
			// y (AND and OR commute).
			x, y, vy := a, b, vb
			if vb.AllSet() {
				x, y, vy = b, a, va
			}
			if wx, wy, wvy := x.Words(nw), y.Words(nw), vy.Words(nw); wx != nil && wy != nil && wvy != nil {
				k0 = kleeneHalfFast(or, words, valid, wx, wy, wvy)
			}
		}
		for k := k0; k < len(words); k++ {
			x, y := a.Word(k), b.Word(k)
			vx, vy := va.Word(k), vb.Word(k)
			valid[k] = vx&vy | vx&(x^flip) | vy&(y^flip)
			if or {
				words[k] = x | y
			} else {
				words[k] = x & y
			}
		}
	}
	maskTail(words, n)
	maskTail(valid, n)
	nulls := CountZeros(valid, n)
	if nulls == 0 {
		validity.Release()
		validity = nil
	}
	return boolResult(ret, n, validity, nulls, values), nil
}

// logicWithNull is x AND null (false where x is false, else null) or
// x OR null (true where x is true, else null).
func logicWithNull(mem memory.Allocator, or bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	a, va := ValuesOf(x.Array()), ValidityOf(x.Array())
	values, words := NewBits(mem, n)
	validity, valid := NewBits(mem, n)
	for k := range words {
		v := a.Word(k)
		if or {
			valid[k] = va.Word(k) & v
			words[k] = ^uint64(0)
		} else {
			valid[k] = va.Word(k) &^ v
			words[k] = 0
		}
	}
	maskTail(words, n)
	maskTail(valid, n)
	return boolResult(ret, n, validity, CountZeros(valid, n), values), nil
}

// boolScalar is the value of a bool scalar datum; ok is false for null.
func boolScalar(d datum.Datum) (v, ok bool) {
	if isNullDatum(d) || !d.IsScalar() {
		return false, false
	}
	v, ok = d.Scalar().Value().(bool)
	return v, ok
}

func boolScalarResult(ret dtype.DType, v bool, n int) (datum.Datum, error) {
	s, err := scalar.New(ret, v)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(s, n), nil
}

// Not computes NOT x: the values flipped, the validity shared.
func Not(mem memory.Allocator, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	if isNullDatum(x) {
		return NullResult(ret, n), nil
	}
	if x.IsScalar() {
		v, _ := boolScalar(x)
		return boolScalarResult(ret, !v, n)
	}
	a := ValuesOf(x.Array())
	validity, nulls := ShareValidity(mem, x.Array())
	values, words := NewBits(mem, n)
	k0 := 0 // the words the SIMD kernels (simd.go) did, when aligned
	if wa := a.Words(len(words)); wa != nil {
		k0 = wordsFast(false, true, words, wa, nil)
	}
	for k := k0; k < len(words); k++ {
		words[k] = ^a.Word(k)
	}
	maskTail(words, n)
	return boolResult(ret, n, validity, nulls, values), nil
}

// IsNull computes x IS NULL (or, with not, x IS NOT NULL) from the
// validity alone; the result is never null. A datum whose rows are all
// valid (or all null) gives a scalar; IS NOT NULL of an array shares its
// validity bitmap as the result's values.
func IsNull(mem memory.Allocator, not bool, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	switch {
	case isNullDatum(x):
		return boolScalarResult(ret, !not, n)
	case x.IsScalar() || x.Array().NullN() == 0:
		return boolScalarResult(ret, not, n)
	case x.Array().NullN() == n:
		return boolScalarResult(ret, !not, n)
	}
	if not {
		values, _ := ShareValidity(mem, x.Array())
		return boolResult(ret, n, nil, 0, values), nil
	}
	va := ValidityOf(x.Array())
	values, words := NewBits(mem, n)
	k0 := 0 // the words the SIMD kernels (simd.go) did, when aligned
	if wv := va.Words(len(words)); wv != nil {
		k0 = wordsFast(false, true, words, wv, nil)
	}
	for k := k0; k < len(words); k++ {
		words[k] = ^va.Word(k)
	}
	maskTail(words, n)
	return boolResult(ret, n, nil, 0, values), nil
}
