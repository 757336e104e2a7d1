package kernels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// DuckDB's origins of time_bucket: 2000-01-03 00:00:00 (a Monday) for
// widths of days and time, so that weeks start on Mondays; 2000-01-01 for
// widths of months.
const (
	bucketOriginMicros = 10959 * secondsPerDay * 1_000_000
	bucketOriginMonths = 2000 * 12
)

var (
	errBucketMixed    = fmt.Errorf("%w: a time_bucket width of months cannot have days or a time part", errs.ErrInvalidArgument)
	errBucketPositive = fmt.Errorf("%w: a time_bucket width must be positive", errs.ErrInvalidArgument)
)

// TimeBucket is time_bucket(width, x[, offset]) of a date or timestamp(us)
// x stored as in: the start of the bucket x falls in, as DuckDB computes
// it. Buckets of a width of months count from 2000-01-01 and start on a
// month's first day; others count from 2000-01-03, a Monday (a width of
// 7 days gives weeks from Monday). An offset moves the buckets: the
// result is time_bucket(width, x - offset) + offset. A date gives the
// date the bucket starts on. A width of months with days or a time part,
// one not positive, or a bucket beyond the timestamps' range is an error
// of the row.
func TimeBucket(mem memory.Allocator, in Temporal, width, x datum.Datum, offset *datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := x.Len()
	args := []datum.Datum{width, x}
	if offset != nil {
		args = append(args, *offset)
	}
	for _, a := range args {
		if isNullDatum(a) {
			return NullResult(ret, n), nil
		}
	}
	w := FixedOf[Interval](width)
	off := Fixed[Interval]{IsScalar: true} // no offset: a zero one, never applied
	if offset != nil {
		off = FixedOf[Interval](*offset)
	}
	// row is the bucket of row i in x's stored unit (days or microseconds).
	var row func(i int) (int64, error)
	if in.Date {
		xs := FixedOf[int32](x)
		row = func(i int) (int64, error) {
			b, err := bucketMicros(int64(xs.At(i))*secondsPerDay*1_000_000, w.At(i), off.At(i), offset != nil)
			return floorDiv(b, secondsPerDay*1_000_000), err
		}
	} else {
		xs := FixedOf[int64](x)
		row = func(i int) (int64, error) { return bucketMicros(xs.At(i), w.At(i), off.At(i), offset != nil) }
	}
	if allScalar(args) {
		v, err := row(0)
		switch {
		case err != nil && n == 0:
			return NullResult(ret, 0), nil
		case err != nil:
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		case in.Date:
			return scalarResult(ret, int32(v), n)
		}
		return scalarResult(ret, v, n)
	}
	validity, bits, nulls := validBits(mem, n, argArrays(args))
	if in.Date {
		return bucketRows[int32](mem, ret, n, validity, bits, nulls, row)
	}
	return bucketRows[int64](mem, ret, n, validity, bits, nulls, row)
}

// bucketRows writes row(i) for the valid rows of n into a result of ret
// whose validity (bits) it takes over.
func bucketRows[T int32 | int64](mem memory.Allocator, ret dtype.DType, n int, validity *memory.Buffer, bits []byte, nulls int, row func(int) (int64, error)) (datum.Datum, error) {
	values, dst := newValues[T](mem, n)
	for i := range dst {
		if !bitSet(bits, i) {
			dst[i] = 0
			continue
		}
		v, err := row(i)
		if err != nil {
			releaseAll(values, validity)
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		dst[i] = T(v)
	}
	return fixedResult(ret, n, validity, nulls, values), nil
}

// bucketMicros is the start of the bucket of width w that the instant us
// (microseconds since 1970) falls in, moved by off when hasOff.
func bucketMicros(us int64, w, off Interval, hasOff bool) (int64, error) {
	if hasOff {
		var ok bool
		day, tod := splitTicks(us, 1_000_000)
		if us, ok = shiftTicks(day, tod, 1_000_000, 1_000_000, off, true); !ok {
			return 0, errTimestampRange
		}
	}
	var b int64
	if w.Months != 0 {
		if w.Days != 0 || w.Nanoseconds != 0 {
			return 0, errBucketMixed
		}
		if w.Months < 0 {
			return 0, errBucketPositive
		}
		y, m, _ := civilFromDays(floorDiv(us, secondsPerDay*1_000_000))
		k := int64(w.Months)
		months := bucketOriginMonths + floorDiv(y*12+m-1-bucketOriginMonths, k)*k
		var ok bool
		if b, ok = mulChecked(daysFromCivil(floorDiv(months, 12), floorMod(months, 12)+1, 1), secondsPerDay*1_000_000); !ok {
			return 0, errTimestampRange
		}
	} else {
		days, ok := mulChecked(int64(w.Days), secondsPerDay*1_000_000) // an i32 of days: fits
		width := days + w.Nanoseconds/1000
		if !ok || width <= 0 {
			return 0, errBucketPositive
		}
		diff, ok := subInt64(us, bucketOriginMicros)
		if !ok {
			return 0, errTimestampRange
		}
		if b, ok = mulChecked(floorDiv(diff, width), width); !ok {
			return 0, errTimestampRange
		}
		if b, ok = addInt64(b, bucketOriginMicros); !ok {
			return 0, errTimestampRange
		}
	}
	if hasOff {
		day, tod := splitTicks(b, 1_000_000)
		var ok bool
		if b, ok = shiftTicks(day, tod, 1_000_000, 1_000_000, off, false); !ok {
			return 0, errTimestampRange
		}
	}
	return b, nil
}
