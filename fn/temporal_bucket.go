package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// time_bucket(width, x[, offset]), DuckDB's: the start of the bucket of
// the interval width that the date or timestamp x falls in, of x's type (a
// date gives a date; a timestamp in another unit than microseconds is cast
// to microseconds first, as DuckDB casts its TIMESTAMP_S and _NS). Buckets
// of months count from 2000-01-01, the others from Monday 2000-01-03, so a
// width of 7 days gives weeks from Monday; offset, an interval, moves them
// (time_bucket(w, x - offset) + offset). A width of months with days or a
// time part, or one not positive, is an error, as in DuckDB; DuckDB's
// origin and time-zone forms of the third argument are not supported.
// time_bucket never decreases as x grows (OrderIncreasing in x), for
// pruning.
var TimeBucket Function = timeBucket{simple{IDTimeBucket}} // time_bucket(width, x[, offset])

// IDTimeBucket is time_bucket's id.
const IDTimeBucket = "time_bucket"

func init() {
	mustRegister(TimeBucket)
	builtinProperties[IDTimeBucket] = &Properties{Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing, OrderArg: 1}
}

type timeBucket struct{ simple }

var (
	_ Kernel   = timeBucket{}
	_ ArgTyper = timeBucket{}
)

func (timeBucket) Arity() Arity { return Arity{2, 3} }

// Fallible: a width that is no bucket's, and buckets beyond the range.
func (timeBucket) Fallible() bool { return true }

// ArgTypes: a timestamp in another unit is read in microseconds; null
// widths and offsets are intervals, a null x a date.
func (timeBucket) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, len(args))
	for i, a := range args {
		switch {
		case a.IsNull() && i == 1:
			out[i] = dtype.Date(true)
		case a.IsNull():
			out[i] = dtype.Interval(true)
		case i == 1 && a.ExtID() == dtype.ExtTimestamp && a.Unit() != dtype.Micro:
			out[i] = dtype.Timestamp(dtype.Micro, a.TZ(), a.Nullable())
		}
	}
	return out
}

func (f timeBucket) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsInterval() {
		return dtype.DType{}, argErr(f, 0, "has type %s, want an interval (the width)", args[0])
	}
	x := args[1]
	if !dateOrTimestamp(x) || x.ExtID() == dtype.ExtTimestamp && x.Unit() != dtype.Micro {
		return dtype.DType{}, argErr(f, 1, "has type %s, want a date or a timestamp(us)", x)
	}
	if len(args) > 2 && !args[2].IsInterval() {
		return dtype.DType{}, argErr(f, 2, "has type %s, want an interval (the offset; an origin is not supported)", args[2])
	}
	return x.WithNullable(anyNullable(args)), nil
}

// Eval buckets each row.
func (f timeBucket) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[1]
	if t := x.DType(); !t.IsNull() && !dateOrTimestamp(t) {
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.id, t)
	}
	var offset *datum.Datum
	if len(args) > 2 {
		offset = &args[2]
	}
	out, err := kernels.TimeBucket(ctx.Mem, kernels.TemporalOf(x.DType()), args[0], x, offset, ret)
	return out, kernelError(f.id, err)
}
