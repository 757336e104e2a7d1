package kernels

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// ConcatStrict is a || b: the arguments of each row joined, null where any
// argument is (DuckDB's || operator; concat instead skips nulls). It joins
// with Concat and then takes the AND of the arguments' validity, so null
// rows hold the join of their valid parts, which nothing reads.
func ConcatStrict(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := 0
	if len(args) > 0 {
		n = args[0].Len()
	}
	for _, a := range args {
		if a.IsScalar() && a.Scalar().IsNull() {
			return datum.FromScalar(scalar.Null(ret), n), nil
		}
	}
	joined, err := Concat(mem, args, ret)
	if err != nil || joined.IsScalar() {
		return joined, err
	}
	var some [4]arrow.Array
	arrs := some[:0]
	for _, a := range args {
		if !a.IsScalar() {
			arrs = append(arrs, a.Array())
		}
	}
	validity, nulls := andValidity(mem, n, arrs...)
	if validity == nil {
		return joined, nil
	}
	d := joined.Array().Data()
	bufs := d.Buffers()
	for _, b := range bufs[1:] {
		b.Retain() // makeArray takes over one reference of each buffer
	}
	out := makeArray(d.DataType(), n, append([]*memory.Buffer{validity}, bufs[1:]...), nil, nulls, d.Offset())
	joined.Release()
	return datum.FromArray(out, ret), nil
}
