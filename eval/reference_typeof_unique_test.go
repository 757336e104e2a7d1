package eval

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of typeof (the argument's dtype, printed) and
// list_unique (the non-null elements no earlier one is the same as,
// counted).

func init() {
	refFuncs[fn.IDTypeOf] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, v[0].DType().AsNonNullable().String()), nil
	}
	refFuncs[fn.IDListUnique] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		if v[0].IsNull() {
			return scalar.Null(t), nil
		}
		var kept []scalar.Scalar
		for _, e := range refElems(v[0]) {
			dup := e.IsNull()
			for _, o := range kept {
				dup = dup || refSame(o, e)
			}
			if !dup {
				kept = append(kept, e)
			}
		}
		return mk(t, uint64(len(kept))), nil
	}
}
