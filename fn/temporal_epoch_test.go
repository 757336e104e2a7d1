package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
)

// TestTemporalEpoch: the expected values and errors are DuckDB's
// (bench/cmd/duckquery).
func TestTemporalEpoch(t *testing.T) {
	col := fkCol
	fkRun(t, []fkCase{
		{name: "dayname", f: fn.DayName, args: []fkArg{col("date", `["2024-01-01", "0001-01-01", null, "1970-01-01"]`)}, want: `["Monday", "Monday", null, "Thursday"]`},
		{name: "dayname timestamp", f: fn.DayName, args: []fkArg{col("timestamp(us)", `["1969-12-31T23:59:59.999999"]`)}, want: `["Wednesday"]`},
		{name: "monthname", f: fn.MonthName, args: []fkArg{col("timestamp(ms, UTC)", `["2020-02-29T23:59:59Z", null]`)}, want: `["February", null]`},
		{name: "epoch_ms to timestamp", f: fn.EpochMs, args: []fkArg{col("i64", `[1700000000123, -1, null]`)}, want: `["2023-11-14T22:13:20.123", "1969-12-31T23:59:59.999", null]`},
		{name: "epoch_ms out of range", f: fn.EpochMs, args: []fkArg{col("i64", `[0, 9223372036854775807]`)}, err: errs.ErrOverflow, row: 1},
		{name: "epoch_ms of a date", f: fn.EpochMs, args: []fkArg{col("date", `["1969-12-31", "2020-01-01"]`)}, want: `[-86400000, 1577836800000]`},
		{name: "epoch_ms of a timestamp", f: fn.EpochMs, args: []fkArg{col("timestamp(us)", `["1969-12-31T23:59:59.9995", "2020-01-01T00:00:00.5"]`)}, want: `[-1, 1577836800500]`},
		{name: "epoch_ms of seconds", f: fn.EpochMs, args: []fkArg{col("timestamp(s)", `["1970-01-01T00:00:02"]`)}, want: `[2000]`},
		{name: "to_timestamp", f: fn.ToTimestamp, args: []fkArg{col("f64", `[1.5, -1.25, 0, null, 9223372036854]`)},
			// The last is 294247-01-10 04:00:53.999616, beyond what Arrow's JSON prints.
			want: `["1970-01-01T00:00:01.5Z", "1969-12-31T23:59:58.75Z", "1970-01-01T00:00:00Z", null, "9223372036853999616"]`},
		{name: "to_timestamp nan", f: fn.ToTimestamp, args: []fkArg{col("f64", `[1, "NaN"]`)}, err: errs.ErrInvalidArgument, row: 1},
		{name: "to_timestamp out of range", f: fn.ToTimestamp, args: []fkArg{col("f64", `[1e20]`)}, err: errs.ErrInvalidArgument, row: 0},
	})
}
