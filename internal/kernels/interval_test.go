package kernels

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values were checked against DuckDB 1.5 (duckquery).

// castText is the text v cast to t (a test value).
func castText(t *testing.T, v string, to dtype.DType) scalar.Scalar {
	t.Helper()
	s, err := scalar.Cast(scalar.String(v), to)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ivColumn is an array of the values (a null for ""), with a null row last.
func ivColumn(t *testing.T, mem memory.Allocator, to dtype.DType, vals ...string) datum.Datum {
	t.Helper()
	b := array.NewBuilder(mem, dtype.ToArrow(to))
	defer b.Release()
	for _, v := range vals {
		if err := scalar.Append(b, castText(t, v, to)); err != nil {
			t.Fatal(err)
		}
	}
	b.AppendNull()
	return datum.FromArray(b.NewArray(), to.AsNullable())
}

// texts is each row of d as text ("null" for a null).
func texts(t *testing.T, d datum.Datum) []string {
	t.Helper()
	var out []string
	for i := 0; i < d.Len(); i++ {
		s, err := scalar.FromArray(d.Array(), i, d.DType())
		if err != nil {
			t.Fatal(err)
		}
		if s.IsNull() {
			out = append(out, "null")
			continue
		}
		txt, _ := scalar.Cast(s, dtype.Utf8(false))
		out = append(out, txt.Value().(string))
	}
	return out
}

func TestIntervalKernels(t *testing.T) {
	ivT, tsT, dateT := dtype.Interval(true), dtype.Timestamp(dtype.Micro, "", true), dtype.Date(true)
	i64T := dtype.Primitive(dtype.I64, true)
	tests := []struct {
		name string
		run  func(mem memory.Allocator) (datum.Datum, error)
		want []string
	}{
		{"date + interval clamps to the month's end", func(mem memory.Allocator) (datum.Datum, error) {
			d := ivColumn(t, mem, dateT, "2024-01-31", "2024-03-31", "2023-01-31", "1996-11-03")
			defer d.Release()
			iv := ivColumn(t, mem, ivT, "1 month", "-1 month -1 day", "1 month", "1 month 02:00")
			defer iv.Release()
			return AddInterval(mem, TemporalOf(dateT), d, iv, false, tsT)
		}, []string{"2024-02-29 00:00:00", "2024-02-28 00:00:00", "2023-02-28 00:00:00", "1996-12-03 02:00:00", "null"}},
		{"timestamp - interval", func(mem memory.Allocator) (datum.Datum, error) {
			x := ivColumn(t, mem, tsT, "2024-02-29 12:00:00", "2024-01-01 00:00:00", "1970-01-01 00:00:00.5")
			defer x.Release()
			iv := datum.FromScalar(castText(t, "-1 year 1 hour", dtype.Interval(false)), 4)
			return AddInterval(mem, TemporalOf(tsT), x, iv, true, tsT)
		}, []string{"2025-02-28 11:00:00", "2024-12-31 23:00:00", "1970-12-31 23:00:00.5", "null"}},
		{"timestamp - timestamp keeps the sign in days and time", func(mem memory.Allocator) (datum.Datum, error) {
			a := ivColumn(t, mem, tsT, "2024-01-01 00:00:00", "1700-01-01 00:00:00", "2024-01-01 00:00:00")
			defer a.Release()
			b := ivColumn(t, mem, tsT, "1700-01-01 00:00:01", "2024-01-01 10:00:00", "2023-12-31 23:00:00")
			defer b.Release()
			return TimestampDiff(mem, 1e6, a, b, ivT)
		}, []string{"118337 days 23:59:59", "-118338 days -10:00:00", "01:00:00", "null"}},
		{"interval + interval, field by field", func(mem memory.Allocator) (datum.Datum, error) {
			a := ivColumn(t, mem, ivT, "1 day", "1 year", "-00:00:01")
			defer a.Release()
			b := ivColumn(t, mem, ivT, "1 month", "-13 months", "1 day")
			defer b.Release()
			return IntervalArith(mem, false, a, b, ivT)
		}, []string{"1 month 1 day", "-1 month", "1 day -00:00:01", "null"}},
		{"interval * i64 and neg", func(mem memory.Allocator) (datum.Datum, error) {
			a := ivColumn(t, mem, ivT, "1 month 2 days 00:00:03", "1 day", "00:00:00")
			defer a.Release()
			k := datum.FromScalar(scalar.Int64(-3), 4)
			m, err := IntervalMul(mem, a, k, ivT)
			if err != nil {
				return m, err
			}
			defer m.Release()
			return IntervalNeg(mem, m, ivT)
		}, []string{"3 months 6 days 00:00:09", "3 days", "00:00:00", "null"}},
		{"to_weeks", func(mem memory.Allocator) (datum.Datum, error) {
			n := ivColumn(t, mem, dtype.Primitive(dtype.I64, false), "2", "-1", "0")
			defer n.Release()
			return ToInterval(mem, 0, 7, 0, n, ivT)
		}, []string{"14 days", "-7 days", "00:00:00", "null"}},
		{"millisecond of intervals", func(mem memory.Allocator) (datum.Datum, error) {
			x := ivColumn(t, mem, ivT, "-14 months", "00:01:02.5", "-25:59:59.5")
			defer x.Release()
			return IntervalPart(mem, PartMillisecond, x, i64T)
		}, []string{"0", "2500", "-59500", "null"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			got, err := tc.run(mem)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if g := texts(t, got); !equalStrings(g, tc.want) {
				t.Errorf("got %q, want %q", g, tc.want)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestIntervalParts: DuckDB's fields of an interval, each with the
// interval's sign.
func TestIntervalParts(t *testing.T) {
	tests := []struct {
		iv   string
		part Part
		want int64
	}{
		{"-14 months", PartYear, -1}, {"-14 months", PartMonth, -2}, {"14 months", PartQuarter, 1}, {"-14 months", PartQuarter, 1},
		{"40 days", PartDay, 40}, {"1 month", PartDay, 0}, {"-125 months", PartDecade, -1}, {"1250 months", PartCentury, 1},
		{"12500 months", PartMillennium, 1}, {"-25:59:59.5", PartHour, -25}, {"-25:59:59.5", PartMinute, -59},
		{"-25:59:59.5", PartSecond, -59}, {"-25:59:59.5", PartMillisecond, -59500}, {"25:59:59.5", PartMicrosecond, 59500000},
	}
	for _, tc := range tests {
		v := castText(t, tc.iv, dtype.Interval(false)).Value().(Interval)
		if got := intervalPart(tc.part, v); got != tc.want {
			t.Errorf("date_part(%d, '%s') = %d, want %d", tc.part, tc.iv, got, tc.want)
		}
	}
	for _, tc := range []struct {
		iv   string
		want float64
	}{{"1 month 1 day 00:00:01.5", 2678401.5}, {"-1 year 1 day 00:00:01.5", -31471198.5}, {"1 day", 86400}} {
		v := castText(t, tc.iv, dtype.Interval(false)).Value().(Interval)
		if got := intervalEpoch(v); got != tc.want {
			t.Errorf("epoch('%s') = %v, want %v", tc.iv, got, tc.want)
		}
	}
}

// TestIntervalOverflow: a field that leaves its range is ErrOverflow at
// its row, and nothing leaks.
func TestIntervalOverflow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ivT := dtype.Interval(true)
	a := ivColumn(t, mem, ivT, "1 day", "2147483647 days")
	defer a.Release()
	_, err := IntervalMul(mem, a, datum.FromScalar(scalar.Int64(2), 3), ivT)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 1 || !errors.Is(err, errs.ErrOverflow) {
		t.Errorf("IntervalMul: %v, want an overflow at row 1", err)
	}
	ts := ivColumn(t, mem, dtype.Timestamp(dtype.Micro, "", true), "294000-01-01 00:00:00")
	defer ts.Release()
	_, err = AddInterval(mem, TemporalOf(dtype.Timestamp(dtype.Micro, "", false)), ts, datum.FromScalar(castText(t, "1000 years", dtype.Interval(false)), 2), false, dtype.Timestamp(dtype.Micro, "", true))
	if !errors.As(err, &re) || re.Row != 0 || !errors.Is(err, errs.ErrOverflow) {
		t.Errorf("AddInterval: %v, want an overflow at row 0", err)
	}
}

// TestIntervalScale: an interval times or divided by an f64, each answer
// as DuckDB 2.0 gives it (duckquery 'SELECT (INTERVAL … / 7)::VARCHAR').
func TestIntervalScale(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ivT := dtype.Interval(true)
	for _, c := range []struct {
		iv     string
		f      float64
		divide bool
		want   string // or the error's sentinel
		err    error
	}{
		{iv: "1 day", f: 1.5, want: "1 day 12:00:00"},
		{iv: "1 month", f: 1.5, want: "1 month 15 days"},
		{iv: "1 month", f: 0.1, want: "3 days"},
		{iv: "3 days", f: 2, want: "6 days"},
		{iv: "1 day", f: -0.5, want: "-12:00:00"},
		{iv: "2 microseconds", f: 3, divide: true, want: "00:00:00.000001"},
		{iv: "1 microsecond", f: 2, divide: true, want: "00:00:00"}, // half to even
		{iv: "3 microseconds", f: 2, divide: true, want: "00:00:00.000002"},
		{iv: "5 microseconds", f: 2, divide: true, want: "00:00:00.000002"},
		{iv: "1 day", f: 3, divide: true, want: "08:00:00"},
		{iv: "1 month 1 day", f: 7, divide: true, want: "4 days 10:17:08.546743"},
		{iv: "1 year", f: 7, divide: true, want: "1 month 21 days 10:17:08.5344"},
		{iv: "1 day", f: -2, divide: true, want: "-12:00:00"},
		{iv: "1 month", f: 0, divide: true, err: errs.ErrDivideByZero},
		{iv: "10 days", f: 1e-300, divide: true, err: errs.ErrOverflow},
		{iv: "1 day", f: math.NaN(), err: errs.ErrOverflow},
		{iv: "1 day", f: math.Inf(1), err: errs.ErrOverflow},
	} {
		name := fmt.Sprintf("%s * %v", c.iv, c.f)
		if c.divide {
			name = fmt.Sprintf("%s / %v", c.iv, c.f)
		}
		a := ivColumn(t, mem, ivT, c.iv)
		res, err := IntervalScale(mem, a, datum.FromScalar(scalar.Float64(c.f), 2), c.divide, ivT)
		a.Release()
		if c.err != nil {
			var re *RowError
			if !errors.As(err, &re) || re.Row != 0 || !errors.Is(err, c.err) {
				t.Errorf("%s: %v, want %v at row 0", name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := texts(t, res); got[0] != c.want || got[1] != "null" {
			t.Errorf("%s = %q, want [%q null]", name, got, c.want)
		}
		res.Release()
	}
}
