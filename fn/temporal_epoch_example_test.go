package fn_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// to_timestamp reads seconds since 1970 as a zoned timestamp, epoch_ms
// milliseconds as a plain one; dayname and monthname name its day and
// month.
func Example_epoch() {
	ctx := &fn.Context{Mem: memory.NewGoAllocator()}
	call := func(f fn.Function, x scalar.Scalar) scalar.Scalar {
		ret, err := f.ReturnType([]dtype.DType{x.DType()})
		if err == nil {
			var out datum.Datum
			if out, err = f.(fn.Kernel).Eval(ctx, []datum.Datum{datum.FromScalar(x, 1)}, ret); err == nil {
				return out.Scalar()
			}
		}
		fmt.Println(err)
		return scalar.Null(dtype.Null())
	}
	ts := call(fn.ToTimestamp, scalar.Float64(1700000000.5))
	ms := call(fn.EpochMs, scalar.Int64(-1))
	fmt.Println(ts.SQL(), call(fn.DayName, ts).Value(), call(fn.MonthName, ts).Value())
	fmt.Println(ms.SQL(), call(fn.EpochMs, ms).Value())
	// Output:
	// '2023-11-14 22:13:20.5+00'::timestamp(us, 'UTC') Tuesday November
	// TIMESTAMP '1969-12-31 23:59:59.999' -1
}
