package scalar

import (
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/internal/interval"
)

// Identical reports whether s and o have the same dtype (nullability
// included, at every level) and the same value. Floats compare by their
// bits: NaN is identical to a NaN with the same bits, and -0.0 is not
// identical to 0.0.
func (s Scalar) Identical(o Scalar) bool {
	return s.dt.Equal(o.dt) && identicalValue(s.val, o.val)
}

func identicalValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []Scalar:
		y, ok := b.([]Scalar)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !identicalValue(x[i].val, y[i].val) {
				return false
			}
		}
		return true
	case bool, int64, uint64, string, decimal128.Num, interval.Value:
		return a == b
	}
	return false
}

// Hash is a hash of s consistent with Identical: identical scalars have
// equal hashes.
func (s Scalar) Hash() uint64 {
	h := hasher(s.dt.Hash())
	h.value(s.val)
	return uint64(h)
}

// hasher is FNV-1a over 64-bit words and bytes.
type hasher uint64

const fnvPrime = 1099511628211

func (h *hasher) word(v uint64) { *h = (*h ^ hasher(v)) * fnvPrime }

func (h *hasher) value(v any) {
	switch x := v.(type) {
	case nil:
		h.word(0)
	case bool:
		h.word(1)
		if x {
			h.word(1)
		}
	case int64:
		h.word(2)
		h.word(uint64(x))
	case uint64:
		h.word(3)
		h.word(x)
	case float64:
		h.word(4)
		h.word(math.Float64bits(x))
	case string:
		h.word(5)
		for i := 0; i < len(x); i++ {
			h.word(uint64(x[i]))
		}
		h.word(uint64(len(x)))
	case decimal128.Num:
		h.word(6)
		h.word(uint64(x.HighBits()))
		h.word(x.LowBits())
	case interval.Value:
		h.word(8)
		h.word(uint64(uint32(x.Months))<<32 | uint64(uint32(x.Days)))
		h.word(uint64(x.Nanoseconds))
	case []Scalar:
		h.word(7)
		h.word(uint64(len(x)))
		for _, e := range x {
			h.value(e.val)
		}
	}
}

// Compare orders two non-null values of one type, nullability ignored: it
// returns -1, 0 or +1 as a is less than, equal to or greater than b.
//
// Numbers and decimals compare by value, bools false before true, utf8 and
// binary bytewise, dates, times and timestamps by their storage value,
// intervals by the span they cover as DuckDB orders them (a month is 30
// days, a day 24 hours: INTERVAL 1 MONTH equals INTERVAL 30 DAY).
// Floats follow a total order: -0.0 equals 0.0, NaN equals NaN and sorts
// after every other value. Structs compare field by field and lists element
// by element, a proper prefix first; a null nested value sorts after every
// non-null one and equals another null.
//
// It is an error to compare values of different types, a null, or values of
// the null type.
func Compare(a, b Scalar) (int, error) {
	if !a.dt.EqualIgnoreNullability(b.dt) {
		return 0, errorf("cannot compare %s with %s: the types differ", a.dt, b.dt)
	}
	if a.IsNull() || b.IsNull() {
		return 0, errorf("cannot compare null values (%s with %s)", a.SQL(), b.SQL())
	}
	return compareValues(a.val, b.val), nil
}

// compareValues orders two values of one dtype; nil (a nested null) sorts
// last.
func compareValues(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case y:
			return -1
		}
		return 1
	case int64:
		return cmp3(x, b.(int64))
	case uint64:
		return cmp3(x, b.(uint64))
	case float64:
		return compareFloats(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case decimal128.Num:
		return x.Cmp(b.(decimal128.Num))
	case interval.Value:
		return interval.Compare(x, b.(interval.Value))
	case []Scalar:
		y := b.([]Scalar)
		for i := 0; i < min(len(x), len(y)); i++ {
			if c := compareValues(x[i].val, y[i].val); c != 0 {
				return c
			}
		}
		return cmp3(len(x), len(y))
	}
	return 0
}

// compareFloats is the total order of Compare: NaN last and equal to
// itself, -0.0 equal to 0.0.
func compareFloats(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	return cmp3(x, y)
}
