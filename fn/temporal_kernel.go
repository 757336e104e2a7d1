package fn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Kernels of the date and time functions. The loops live in
// internal/kernels (temporal.go, temporal_format.go); the part a call names
// is its literal first argument, read once per batch.

var (
	_ Kernel = partFn{}
	_ Kernel = datePart{}
	_ Kernel = dateTrunc{}
	_ Kernel = dateDiff{}
	_ Kernel = lastDay{}
	_ Kernel = makeDate{}
	_ Kernel = makeTimestamp{}

	_ ArgTyper   = partFn{}
	_ ArgTyper   = datePart{}
	_ ArgTyper   = dateTrunc{}
	_ ArgTyper   = dateDiff{}
	_ ArgTyper   = lastDay{}
	_ ArgTyper   = makeDate{}
	_ ArgTyper   = makeTimestamp{}
	_ ConstTyper = datePart{}
	_ ConstTyper = dateTrunc{}
	_ ConstTyper = dateDiff{}
)

// temporalOf is the storage of a date or timestamp argument.
func temporalOf(f Function, d datum.Datum) (kernels.Temporal, error) {
	t := d.DType()
	if !t.IsTemporal() || t.ExtID() == dtype.ExtTime {
		return kernels.Temporal{}, fmt.Errorf("%s has no kernel for %s", f.ID(), t)
	}
	return kernels.TemporalOf(t), nil
}

// evalPart extracts part p of x (a date, a timestamp, or a time for the
// parts of a time of day).
func evalPart(f Function, ctx *Context, p DatePart, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if x.DType().IsNull() {
		return kernels.NullResult(ret, x.Len()), nil
	}
	if x.DType().IsInterval() {
		if p == PartEpoch {
			return kernels.IntervalEpoch(ctx.Mem, x, ret), nil
		}
		res, err := kernels.IntervalPart(ctx.Mem, kernels.Part(p), x, ret)
		return res, kernelError(f.ID(), err)
	}
	var in kernels.Temporal
	var err error
	if t := x.DType(); t.IsTemporal() && t.ExtID() == dtype.ExtTime && isTimePart(p) {
		in = kernels.TemporalOf(t)
	} else if in, err = temporalOf(f, x); err != nil {
		return datum.Datum{}, err
	}
	if p == PartEpoch {
		return kernels.Epoch(ctx.Mem, in, x, ret), nil
	}
	res, err := kernels.DatePart(ctx.Mem, kernels.Part(p), in, x, ret)
	return res, kernelError(f.ID(), err)
}

// Eval extracts the function's part.
func (p partFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(p, args); err != nil {
		return datum.Datum{}, err
	}
	return evalPart(p, ctx, p.part, args[0], ret)
}

// partArg reads the literal part of a call: ok false for a null part.
func partArg(f Function, d datum.Datum) (text string, ok bool, err error) {
	if d.DType().IsNull() {
		return "", false, nil
	}
	if !d.IsScalar() || !d.DType().IsUtf8() {
		return "", false, fmt.Errorf("%s: the part must be a string literal", f.ID())
	}
	if d.Scalar().IsNull() {
		return "", false, nil
	}
	return d.Scalar().Value().(string), true, nil
}

// Eval extracts the part its first argument names.
func (d datePart) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(d, args); err != nil {
		return datum.Datum{}, err
	}
	text, ok, err := partArg(d, args[0])
	if err != nil || !ok {
		return kernels.NullResult(ret, args[1].Len()), err
	}
	p, ok := ParseDatePart(text)
	if !ok {
		return datum.Datum{}, fmt.Errorf("%s: part %q is not recognized", d.id, text)
	}
	return evalPart(d, ctx, p, args[1], ret)
}

// Eval truncates to the part its first argument names.
func (d dateTrunc) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(d, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[1]
	text, ok, err := partArg(d, args[0])
	if err != nil || !ok || x.DType().IsNull() {
		return kernels.NullResult(ret, x.Len()), err
	}
	p, ok := ParseTruncPart(text)
	if !ok {
		return datum.Datum{}, fmt.Errorf("%s: cannot truncate to %q", d.id, text)
	}
	in, err := temporalOf(d, x)
	if err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.DateTrunc(ctx.Mem, kernels.TruncPart(p), in, x, ret)
	return res, kernelError(d.id, err)
}

// Eval counts the part its first argument names from its second argument
// to its third.
func (d dateDiff) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(d, args); err != nil {
		return datum.Datum{}, err
	}
	a, b := args[1], args[2]
	text, ok, err := partArg(d, args[0])
	if err != nil || !ok || a.DType().IsNull() || b.DType().IsNull() {
		return kernels.NullResult(ret, a.Len()), err
	}
	p, ok := ParseDiffPart(text)
	if !ok {
		return datum.Datum{}, fmt.Errorf("%s: cannot count %q", d.id, text)
	}
	if !a.DType().EqualIgnoreNullability(b.DType()) {
		return datum.Datum{}, fmt.Errorf("%s has no kernel for %s and %s", d.id, a.DType(), b.DType())
	}
	in, err := temporalOf(d, a)
	if err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.DateDiff(ctx.Mem, kernels.DiffPart(p), in, a, b, ret)
	return res, kernelError(d.id, err)
}

// Eval is the last day of the month.
func (l lastDay) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	if x.DType().IsNull() {
		return kernels.NullResult(ret, x.Len()), nil
	}
	in, err := temporalOf(l, x)
	if err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.LastDay(ctx.Mem, in, x, ret)
	return res, kernelError(l.id, err)
}

// Eval builds dates from i64 parts.
func (m makeDate) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(m, args); err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.MakeDate(ctx.Mem, args, ret)
	return res, kernelError(m.id, err)
}

// Eval builds timestamps from i64 parts and f64 seconds, or from
// microseconds.
func (m makeTimestamp) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(m, args); err != nil {
		return datum.Datum{}, err
	}
	if len(args) != 1 && len(args) != 6 {
		return datum.Datum{}, fmt.Errorf("%s takes 1 or 6 arguments, got %d", m.id, len(args))
	}
	res, err := kernels.MakeTimestamp(ctx.Mem, args, ret)
	return res, kernelError(m.id, err)
}

var (
	_ Kernel     = strftimeFn{}
	_ Kernel     = strptimeFn{}
	_ ArgTyper   = strftimeFn{}
	_ ArgTyper   = strptimeFn{}
	_ ConstTyper = strftimeFn{}
	_ ConstTyper = strptimeFn{}
)

// compiledFormat compiles the literal format d; ok false for a null one.
func compiledFormat(f Function, d datum.Datum, parse bool) (*kernels.TimeFormat, bool, error) {
	if d.DType().IsNull() || d.IsScalar() && d.Scalar().IsNull() {
		return nil, false, nil
	}
	if !d.IsScalar() || !d.DType().IsUtf8() {
		return nil, false, fmt.Errorf("%s: the format must be a string literal", f.ID())
	}
	tf, err := kernels.CompileTimeFormat(d.Scalar().Value().(string), parse)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", f.ID(), err)
	}
	return tf, true, nil
}

// Eval formats dates or timestamps.
func (s strftimeFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	tf, ok, err := compiledFormat(s, args[1], false)
	if err != nil || !ok || x.DType().IsNull() {
		return kernels.NullResult(ret, x.Len()), err
	}
	in, err := temporalOf(s, x)
	if err != nil {
		return datum.Datum{}, err
	}
	res, err := kernels.Strftime(ctx.Mem, tf, in, x.DType().TZ() != "", x, args[1], ret)
	return res, kernelError(s.id, err)
}

// Eval parses strings into timestamps.
func (s strptimeFn) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(s, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	tf, ok, err := compiledFormat(s, args[1], true)
	if err != nil || !ok || x.DType().IsNull() {
		return kernels.NullResult(ret, x.Len()), err
	}
	res, err := kernels.Strptime(ctx.Mem, tf, x, args[1], ret)
	return res, kernelError(s.id, err)
}

// dateArithEval computes date ± i32 days (checked: a date past
// ±kernels.MaxDateDays, DuckDB's range, is an overflow) and date - date
// (i64 days).
func dateArithEval(mem memory.Allocator, op byte, l, r datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if isDate(l.DType()) && isDate(r.DType()) {
		// a - b is date_diff('day', b, a).
		return kernels.DateDiff(mem, kernels.DiffDay, kernels.Temporal{Date: true, PerSecond: 1}, r, l, ret)
	}
	res, err := kernels.IntArith[int32](mem, arithOps[op], l, r, ret)
	if err == nil {
		if err = kernels.DateInRange(res); err != nil {
			res.Release()
			return datum.Datum{}, err
		}
	}
	return res, err
}
