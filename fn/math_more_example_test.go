package fn_test

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// isnan, isinf and isfinite sort a column of doubles by class; degrees
// turns radians into degrees.
func Example_floatTests() {
	mem := memory.NewGoAllocator()
	ctx := &fn.Context{Mem: mem}
	b := array.NewFloat64Builder(mem)
	b.AppendValues([]float64{math.Pi, math.NaN(), math.Inf(-1)}, nil)
	b.AppendNull()
	xs := datum.FromArray(b.NewArray(), dtype.Primitive(dtype.F64, true))
	defer xs.Release()
	for _, f := range []fn.Function{fn.IsNaN, fn.IsInf, fn.IsFinite, fn.Degrees} {
		ret, err := f.ReturnType([]dtype.DType{xs.DType()})
		if err != nil {
			fmt.Println(err)
			return
		}
		out, err := f.(fn.Kernel).Eval(ctx, []datum.Datum{xs}, ret)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-8s %s\n", f.ID(), out.Array())
		out.Release()
	}
	// Output:
	// isnan    [false true false (null)]
	// isinf    [false false true (null)]
	// isfinite [true false false (null)]
	// degrees  [180 NaN -Inf (null)]
}

// gcd and lcm are never negative; factorial raises where its result does
// not fit an i64 (above 20!).
func Example_gcdFactorial() {
	ctx := &fn.Context{Mem: memory.NewGoAllocator()}
	i64 := dtype.Primitive(dtype.I64, false)
	call := func(f fn.Function, ret dtype.DType, args ...scalar.Scalar) {
		ds := make([]datum.Datum, len(args))
		for i, a := range args {
			ds[i] = datum.FromScalar(a, 1)
		}
		out, err := f.(fn.Kernel).Eval(ctx, ds, ret)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %v\n", f.ID(), out.Scalar().Value())
	}
	call(fn.GCD, i64, scalar.Int64(-12), scalar.Int64(18))
	call(fn.LCM, i64, scalar.Int64(-4), scalar.Int64(6))
	call(fn.Factorial, i64, scalar.Int(dtype.I32, 20))
	call(fn.Factorial, i64, scalar.Int(dtype.I32, 21))
	// Output:
	// gcd: 6
	// lcm: 12
	// factorial: 2432902008176640000
	// factorial: row 0: overflow: factorial(21) does not fit i64 (20! is the largest that does)
}
