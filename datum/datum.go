// Package datum is the value kernels exchange: an Arrow array or a scalar
// that stands for a column of identical values. It lives below fn so that
// the kernels in fn and the evaluator in eval, which calls them, can both
// name it without a cycle.
package datum

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// Datum is either an array (Array() != nil) or a scalar broadcast to Len()
// rows. A Datum owning an array holds one reference to it; Release drops it.
type Datum struct {
	arr arrow.Array
	sc  scalar.Scalar
	n   int
	dt  dtype.DType
}

// FromArray wraps arr, whose logical type is t. The Datum takes over the
// caller's reference.
func FromArray(arr arrow.Array, t dtype.DType) Datum {
	return Datum{arr: arr, n: arr.Len(), dt: t}
}

// FromScalar is s broadcast to n rows.
func FromScalar(s scalar.Scalar, n int) Datum {
	return Datum{sc: s, n: n, dt: s.DType()}
}

// IsScalar reports whether d is a broadcast scalar.
func (d Datum) IsScalar() bool { return d.arr == nil }

// Array is the array of d, or nil for a scalar.
func (d Datum) Array() arrow.Array { return d.arr }

// Scalar is the scalar of d; meaningful only when IsScalar.
func (d Datum) Scalar() scalar.Scalar { return d.sc }

// Len is the number of rows d stands for.
func (d Datum) Len() int { return d.n }

// DType is the logical type of d.
func (d Datum) DType() dtype.DType { return d.dt }

// Retain adds a reference to d's array, if any, and returns d.
func (d Datum) Retain() Datum {
	if d.arr != nil {
		d.arr.Retain()
	}
	return d
}

// Release drops d's reference to its array, if any.
func (d Datum) Release() {
	if d.arr != nil {
		d.arr.Release()
	}
}
