package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Names of days and months, and epoch numbers, as DuckDB types them
// (checked with bench/cmd/duckquery):
//
//	dayname(x), monthname(x)  utf8: the English name of the day of the week
//	                          ('Monday') or of the month ('January') of a date
//	                          or timestamp
//	epoch_ms(ms)              timestamp(us) (DuckDB's TIMESTAMP) of i64
//	                          milliseconds since 1970-01-01 (integers are cast
//	                          to i64); an error where the microseconds do not
//	                          fit an i64
//	epoch_ms(x)               i64: the milliseconds since 1970-01-01 of a date
//	                          or timestamp, rounded to the nearest, half away
//	                          from zero (nanoseconds to microseconds first)
//	epoch_us(x), epoch_ns(x)  i64: the microseconds (nanoseconds) since
//	                          1970-01-01 of a date or timestamp, rounded as
//	                          epoch_ms's milliseconds; nanoseconds beyond an
//	                          i64 (after 2262) are an error, as in DuckDB
//	to_timestamp(s)           timestamp(us, UTC) (DuckDB's TIMESTAMP WITH TIME
//	                          ZONE) of f64 seconds since 1970-01-01 (numbers
//	                          are cast to f64), rounded to the microsecond; NaN,
//	                          ±Inf and seconds beyond the range are an error, as
//	                          in DuckDB
//
// epoch_ms and to_timestamp never decrease as their argument grows
// (OrderIncreasing), so pruning carries a column's bounds through them.
var (
	DayName     Function = nameFn{simple{IDDayName}, false}   // dayname(x)
	MonthName   Function = nameFn{simple{IDMonthName}, true}  // monthname(x)
	EpochMs     Function = epochMs{simple{IDEpochMs}}         // epoch_ms(ms), epoch_ms(x)
	ToTimestamp Function = toTimestamp{simple{IDToTimestamp}} // to_timestamp(s)
	EpochUs     Function = epochTicks{simple{IDEpochUs}, 1e6} // epoch_us(x)
	EpochNs     Function = epochTicks{simple{IDEpochNs}, 1e9} // epoch_ns(x)
)

// The ids of the functions of temporal_epoch.go.
const (
	IDDayName     = "dayname"
	IDMonthName   = "monthname"
	IDEpochMs     = "epoch_ms"
	IDToTimestamp = "to_timestamp"
	IDEpochUs     = "epoch_us"
	IDEpochNs     = "epoch_ns"
)

func init() {
	for _, f := range []Function{DayName, MonthName, EpochMs, ToTimestamp, EpochUs, EpochNs} {
		mustRegister(f)
	}
	for id, p := range map[string]*Properties{
		IDDayName:     {Prec: PrecPostfix},
		IDMonthName:   {Prec: PrecPostfix},
		IDEpochMs:     {Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing},
		IDToTimestamp: {Prec: PrecPostfix, Coercion: CoerceDeclared, Order: OrderIncreasing},
		IDEpochUs:     {Prec: PrecPostfix, Order: OrderIncreasing},
		IDEpochNs:     {Prec: PrecPostfix, Order: OrderIncreasing},
	} {
		builtinProperties[id] = p
	}
}

var (
	_ Kernel   = nameFn{}
	_ Kernel   = epochMs{}
	_ Kernel   = toTimestamp{}
	_ ArgTyper = epochMs{}
	_ ArgTyper = toTimestamp{}
)

// dateOrTimestamp reports whether t is a date or a timestamp.
func dateOrTimestamp(t dtype.DType) bool {
	return t.IsTemporal() && (t.ExtID() == dtype.ExtDate || t.ExtID() == dtype.ExtTimestamp)
}

// nameFn is dayname or monthname.
type nameFn struct {
	simple
	month bool
}

func (f nameFn) Arity() Arity { return Exactly(1) }

func (f nameFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return ofDateOrTimestamp(f, args, dtype.Utf8(false))
}

// Eval names the day or month of each date or timestamp.
func (f nameFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return evalDateOrTimestamp(f, args, ret, func(in kernels.Temporal, x datum.Datum) (datum.Datum, error) {
		return kernels.DayMonthName(ctx.Mem, f.month, in, x, ret)
	})
}

// ofDateOrTimestamp types a function of one date or timestamp that
// returns ret (nullable where the argument is).
func ofDateOrTimestamp(f Function, args []dtype.DType, ret dtype.DType) (dtype.DType, error) {
	if !dateOrTimestamp(args[0]) {
		return dtype.DType{}, argErr(f, 0, "has type %s, want a date or a timestamp", args[0])
	}
	return ret.WithNullable(args[0].Nullable()), nil
}

// evalDateOrTimestamp evaluates a function of one date or timestamp with
// the kernel k: a null argument gives null rows.
func evalDateOrTimestamp(f Function, args []datum.Datum, ret dtype.DType, k func(kernels.Temporal, datum.Datum) (datum.Datum, error)) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	if t := x.DType(); t.IsNull() {
		return kernels.NullResult(ret, x.Len()), nil
	} else if !dateOrTimestamp(t) {
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.ID(), t)
	}
	out, err := k(kernels.TemporalOf(x.DType()), x)
	return out, kernelError(f.ID(), err)
}

// epochMs is epoch_ms: of milliseconds a timestamp, of a date or timestamp
// its milliseconds.
type epochMs struct{ simple }

func (f epochMs) Arity() Arity { return Exactly(1) }

// Fallible: milliseconds whose microseconds do not fit an i64.
func (f epochMs) Fallible() bool { return true }

// ArgTypes: integers and a null are taken as i64 milliseconds.
func (f epochMs) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if x := args[0]; x.IsNull() || x.IsInt() && !(x.PType() == dtype.U64) {
		out[0] = i64T
	}
	return out
}

func (f epochMs) ReturnType(args []dtype.DType) (dtype.DType, error) {
	switch x := args[0]; {
	case x.IsInt() && x.PType() == dtype.I64:
		return dtype.Timestamp(dtype.Micro, "", x.Nullable()), nil
	case dateOrTimestamp(x):
		return dtype.Primitive(dtype.I64, x.Nullable()), nil
	default:
		return dtype.DType{}, argErr(f, 0, "has type %s, want i64 milliseconds, a date or a timestamp", x)
	}
}

// Eval converts milliseconds to timestamps, or dates and timestamps to
// milliseconds.
func (f epochMs) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	var (
		out datum.Datum
		err error
	)
	switch t := x.DType(); {
	case t.IsNull():
		return kernels.NullResult(ret, x.Len()), nil
	case t.IsInt() && t.PType() == dtype.I64:
		out, err = kernels.EpochMsToTimestamp(ctx.Mem, x, ret)
	case dateOrTimestamp(t):
		out, err = kernels.EpochMs(ctx.Mem, kernels.TemporalOf(t), x, ret)
	default:
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.id, t)
	}
	return out, kernelError(f.id, err)
}

// epochTicks is epoch_us or epoch_ns: a date's or timestamp's ticks of
// 1/per second.
type epochTicks struct {
	simple
	per int64
}

var _ Kernel = epochTicks{}

func (f epochTicks) Arity() Arity { return Exactly(1) }

// Fallible: nanoseconds beyond an i64.
func (f epochTicks) Fallible() bool { return f.per > 1e6 }

func (f epochTicks) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return ofDateOrTimestamp(f, args, i64T)
}

// Eval counts the ticks of each date or timestamp.
func (f epochTicks) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return evalDateOrTimestamp(f, args, ret, func(in kernels.Temporal, x datum.Datum) (datum.Datum, error) {
		return kernels.EpochTicks(ctx.Mem, in, x, f.per, ret)
	})
}

// toTimestamp is to_timestamp(seconds).
type toTimestamp struct{ simple }

func (f toTimestamp) Arity() Arity { return Exactly(1) }

// Fallible: NaN, ±Inf and seconds beyond the range.
func (f toTimestamp) Fallible() bool { return true }

// ArgTypes: numbers and a null are taken as f64.
func (f toTimestamp) ArgTypes(args []dtype.DType) []dtype.DType {
	out := make([]dtype.DType, 1)
	if x := args[0]; x.IsNull() || x.IsNumeric() {
		out[0] = f64T
	}
	return out
}

func (f toTimestamp) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if x := args[0]; !x.IsFloat() || x.PType() != dtype.F64 {
		return dtype.DType{}, argErr(f, 0, "has type %s, want f64 seconds (cast it)", x)
	}
	return dtype.Timestamp(dtype.Micro, "UTC", args[0].Nullable()), nil
}

// Eval converts seconds to timestamps.
func (f toTimestamp) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(f, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	if t := x.DType(); t.IsNull() {
		return kernels.NullResult(ret, x.Len()), nil
	} else if !t.IsFloat() || t.PType() != dtype.F64 {
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s", f.id, t)
	}
	out, err := kernels.ToTimestamp(ctx.Mem, x, ret)
	return out, kernelError(f.id, err)
}
