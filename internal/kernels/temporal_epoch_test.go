package kernels

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// The expected values below are DuckDB's (bench/cmd/duckquery), errors
// included.

func TestDayMonthName(t *testing.T) {
	date, ts := dtype.Date(true), dtype.Timestamp(dtype.Micro, "", true)
	name := func(month bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return DayMonthName(mem, month, TemporalOf(a[0].DType()), a[0], ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "days", args: []in{col(date, `["2024-01-01", "1970-01-01", "1969-12-31", null, "0001-01-01"]`)}, ret: strN,
			want: `["Monday", "Thursday", "Wednesday", null, "Monday"]`},
		{name: "timestamp before 1970", args: []in{col(ts, `["1969-12-31T23:59:59.999999", "2024-03-05T10:00:00"]`)}, ret: strN,
			want: `["Wednesday", "Tuesday"]`},
	}, name(false))
	runCases(t, []kernelCase{
		{name: "months", args: []in{col(date, `["2024-01-31", "2020-02-29", null, "1999-12-31"]`)}, ret: strN, want: `["January", "February", null, "December"]`},
		{name: "timestamp", args: []in{col(ts, `["1969-12-31T23:59:59.999999"]`)}, ret: strN, want: `["December"]`},
	}, name(true))
}

func TestEpochMs(t *testing.T) {
	ts := dtype.Timestamp(dtype.Micro, "", true)
	runCases(t, []kernelCase{
		{name: "to timestamp", args: []in{col(i64N, `[0, 1700000000123, -1, null]`)}, ret: ts,
			want: `["1970-01-01T00:00:00", "2023-11-14T22:13:20.123", "1969-12-31T23:59:59.999", null]`},
		{name: "out of range", args: []in{col(i64N, `[0, 9223372036854776]`)}, ret: ts, errText: "row 1: overflow"},
		{name: "below the range", args: []in{n64(math.MinInt64)}, ret: ts, errText: "overflow"},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return EpochMsToTimestamp(mem, a[0], ret)
	})
	of := func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return EpochMs(mem, TemporalOf(a[0].DType()), a[0], ret)
	}
	runCases(t, []kernelCase{
		{name: "dates", args: []in{col(dtype.Date(true), `["1969-12-31", "2020-01-01", null]`)}, ret: i64N, want: `[-86400000, 1577836800000, null]`},
		// DuckDB's answers: to the nearest, half away from zero.
		{name: "microseconds round half away from zero", args: []in{col(ts, `["1969-12-31T23:59:59.9995", "2020-01-01T00:00:00.5", "1970-01-01T00:00:00.0004", "1970-01-01T00:00:00.0006", "1970-01-01T00:00:00.0005", "1969-12-31T23:59:59.9994", "1969-12-31T23:59:59.9985", "1970-01-01T00:00:00.0025"]`)}, ret: i64N,
			want: `[-1, 1577836800500, 0, 1, 1, -1, -2, 3]`},
		{name: "nanoseconds round to microseconds first", args: []in{col(dtype.Timestamp(dtype.Nano, "", true), `["1969-12-31T23:59:59.999999999", "1970-01-01T00:00:00.0004995", "1970-01-01T00:00:00.000499499", "1969-12-31T23:59:59.9995005", "1969-12-31T23:59:59.999500499"]`)}, ret: i64N,
			want: `[0, 1, 0, -1, -1]`},
		{name: "seconds", args: []in{col(dtype.Timestamp(dtype.Second, "", true), `["1970-01-01T00:00:02"]`)}, ret: i64N, want: `[2000]`},
	}, of)
}

// TestEpochTicks: epoch_us and epoch_ns, DuckDB's answers.
func TestEpochTicks(t *testing.T) {
	i64N, ns, ts := dtype.Primitive(dtype.I64, true), dtype.Timestamp(dtype.Nano, "", true), dtype.Timestamp(dtype.Micro, "", true)
	ticks := func(per int64) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return EpochTicks(mem, TemporalOf(a[0].DType()), a[0], per, ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "nanoseconds round to microseconds", args: []in{col(ns, `["1970-01-01T00:00:00.0000005", "1969-12-31T23:59:59.9999995", null]`)}, ret: i64N, want: `[1, -1, null]`},
		{name: "seconds", args: []in{col(dtype.Timestamp(dtype.Second, "", true), `["1970-01-01T00:00:01"]`)}, ret: i64N, want: `[1000000]`},
		{name: "dates", args: []in{col(dtype.Date(true), `["1970-01-02"]`)}, ret: i64N, want: `[86400000000]`},
	}, ticks(1e6))
	runCases(t, []kernelCase{
		{name: "microseconds", args: []in{col(ts, `["1970-01-01T00:00:01.5"]`)}, ret: i64N, want: `[1500000000]`},
		{name: "dates", args: []in{col(dtype.Date(true), `["1970-01-02"]`)}, ret: i64N, want: `[86400000000000]`},
		{name: "beyond 2262", args: []in{col(ts, `["2262-04-11T23:47:16.854775", "2262-04-11T23:47:17"]`)}, ret: i64N, errText: "row 1: overflow"},
		{name: "a date beyond 2262", args: []in{col(dtype.Date(true), `["2263-01-01"]`)}, ret: i64N, errText: "overflow"},
	}, ticks(1e9))
}

func TestToTimestamp(t *testing.T) {
	f64N, tz := dtype.Primitive(dtype.F64, true), dtype.Timestamp(dtype.Micro, "UTC", true)
	runCases(t, []kernelCase{
		{name: "seconds", args: []in{col(f64N, `[1.5, -1.25, 0, null, 9223372036854]`)}, ret: tz,
			want: `["1970-01-01T00:00:01.5Z", "1969-12-31T23:59:58.75Z", "1970-01-01T00:00:00Z", null, "9223372036853999616"]`},
		{name: "nan", args: []in{col(f64N, `[0, "NaN"]`)}, ret: tz, errText: "row 1: invalid argument: to_timestamp(NaN)"},
		{name: "infinity", args: []in{col(f64N, `["+Inf"]`)}, ret: tz, errText: "out of the range"},
		{name: "beyond", args: []in{col(f64N, `[9223372036855]`)}, ret: tz, errText: "out of the range"},
		{name: "error on a null row only", args: []in{col(f64N, `[null, 2]`)}, ret: tz, want: `[null, "1970-01-01T00:00:02Z"]`},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return ToTimestamp(mem, a[0], ret)
	})
}
