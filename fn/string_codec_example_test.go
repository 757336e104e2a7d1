package fn_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// translate maps characters one to one (and deletes those past the end of
// its third argument); levenshtein counts bytes, as DuckDB's does; base64
// goes both ways.
func Example_stringCodec() {
	ctx := &fn.Context{Mem: memory.NewGoAllocator()}
	eval := func(f fn.Function, ret dtype.DType, args ...string) scalar.Scalar {
		ds := make([]datum.Datum, len(args))
		for i, a := range args {
			ds[i] = datum.FromScalar(scalar.String(a), 1)
		}
		out, err := f.(fn.Kernel).Eval(ctx, ds, ret)
		if err != nil {
			fmt.Println(err)
			return scalar.Null(ret)
		}
		return out.Scalar()
	}
	fmt.Println(eval(fn.Translate, dtype.Utf8(false), "hello", "elo", "ip").Value())
	fmt.Println(eval(fn.Levenshtein, dtype.Primitive(dtype.I64, false), "café", "cafe").Value())
	encoded := eval(fn.ToBase64, dtype.Utf8(false), "colexpr").Value().(string)
	fmt.Println(encoded, eval(fn.FromBase64, dtype.Binary(false), encoded).Value())
	eval(fn.FromBase64, dtype.Binary(false), "abc")
	// Output:
	// hipp
	// 2
	// Y29sZXhwcg== colexpr
	// from_base64: row 0: invalid argument: could not decode "abc" as base64: its length must be a multiple of 4
}
