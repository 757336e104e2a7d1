package eval

import (
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of typeof (the argument's dtype, printed),
// list_unique (the non-null elements no earlier one is the same as,
// counted), array_to_string and list_string_agg (the non-null elements
// cast to utf8 by scalar.Cast, joined).

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
	join := func(agg bool) func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			if v[0].IsNull() {
				return scalar.Null(t), nil
			}
			sep := ","
			if len(v) == 2 && !v[1].IsNull() {
				sep = v[1].Value().(string)
			}
			elems := refElems(v[0])
			var parts []string
			for _, e := range elems {
				if e.IsNull() {
					continue
				}
				s, err := scalar.Cast(e, dtype.Utf8(false))
				if err != nil {
					return scalar.Scalar{}, err
				}
				parts = append(parts, s.Value().(string))
			}
			if len(parts) == 0 && (len(elems) > 0 || agg) {
				return scalar.Null(t), nil
			}
			return mk(t, strings.Join(parts, sep)), nil
		}
	}
	refFuncs[fn.IDArrayToString] = join(false)
	refFuncs[fn.IDListStringAgg] = join(true)
}
