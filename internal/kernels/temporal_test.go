package kernels

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values of the table cases were checked against DuckDB 1.5;
// the random tests check the calendar against Go's time package.

var (
	dateN = dtype.Date(true)
	tsN   = dtype.Timestamp(dtype.Micro, "", true)
	f64N  = dtype.Primitive(dtype.F64, true)
)

// goPart is part p of t by Go's time package (and DuckDB's definitions of
// the year-based parts).
func goPart(p Part, t time.Time) int64 {
	y := int64(t.Year())
	isoY, isoW := t.ISOWeek()
	switch p {
	case PartYear:
		return y
	case PartQuarter:
		return int64(t.Month()-1)/3 + 1
	case PartMonth:
		return int64(t.Month())
	case PartDay:
		return int64(t.Day())
	case PartDayOfWeek:
		return int64(t.Weekday())
	case PartISODayOfWeek:
		return (int64(t.Weekday())+6)%7 + 1
	case PartDayOfYear:
		return int64(t.YearDay())
	case PartWeek:
		return int64(isoW)
	case PartISOYear:
		return int64(isoY)
	case PartYearWeek:
		if isoY < 0 {
			return int64(isoY)*100 - int64(isoW)
		}
		return int64(isoY)*100 + int64(isoW)
	case PartDecade:
		return y / 10
	case PartCentury:
		return century(y)
	case PartMillennium:
		return millennium(y)
	case PartEra:
		if y > 0 {
			return 1
		}
		return 0
	case PartHour:
		return int64(t.Hour())
	case PartMinute:
		return int64(t.Minute())
	case PartSecond:
		return int64(t.Second())
	case PartMillisecond:
		return int64(t.Second())*1000 + int64(t.Nanosecond())/1e6
	case PartMicrosecond:
		return int64(t.Second())*1e6 + int64(t.Nanosecond())/1e3
	}
	panic("no such part")
}

// randomTemporal is a sliced array of n random dates (±2500 years around
// 1970) or timestamps of unit u (±250 years), a tenth of them null, with
// the Go times of its rows.
func randomTemporal(t *testing.T, mem memory.Allocator, rng *rand.Rand, dt dtype.DType, n int) (datum.Datum, []time.Time, []bool) {
	t.Helper()
	const pad = 3
	times := make([]time.Time, n)
	valid := make([]bool, n)
	var arr arrow.Array
	if dt.ExtID() == dtype.ExtDate {
		b := array.NewDate32Builder(mem)
		defer b.Release()
		for range pad {
			b.AppendNull()
		}
		for i := range n {
			day := rng.Int64N(2*913000) - 913000
			valid[i] = rng.IntN(10) != 0
			times[i] = time.Unix(day*secondsPerDay, 0).UTC()
			if valid[i] {
				b.Append(arrow.Date32(day))
			} else {
				b.AppendNull()
			}
		}
		b.AppendNull()
		arr = b.NewArray()
	} else {
		per := dt.Unit().PerSecond()
		b := array.NewTimestampBuilder(mem, dtype.ToArrow(dt).(*arrow.TimestampType))
		defer b.Release()
		for range pad {
			b.AppendNull()
		}
		for i := range n {
			years := int64(250)
			if per == 1e9 {
				years = 150 // nanoseconds reach 1677…2262
			}
			secs := rng.Int64N(2*years*365*secondsPerDay) - years*365*secondsPerDay
			frac := rng.Int64N(per)
			valid[i] = rng.IntN(10) != 0
			times[i] = time.Unix(secs, frac*(1e9/per)).UTC()
			if valid[i] {
				b.Append(arrow.Timestamp(secs*per + frac))
			} else {
				b.AppendNull()
			}
		}
		arr = b.NewArray()
	}
	defer arr.Release()
	sliced := array.NewSlice(arr, pad, int64(pad+n))
	return datum.FromArray(sliced, dt), times, valid
}

func TestDatePartRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []dtype.DType{dateN, tsN, dtype.Timestamp(dtype.Nano, "", true), dtype.Timestamp(dtype.Second, "UTC", true), dtype.Timestamp(dtype.Milli, "", true)} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := checkedMem(t)
			x, times, valid := randomTemporal(t, mem, rng, dt, 500)
			defer x.Release()
			for p := PartYear; p < PartEpoch; p++ {
				got, err := DatePart(mem, p, TemporalOf(dt), x, i64N)
				if err != nil {
					t.Fatal(err)
				}
				arr := got.Array().(*array.Int64)
				for i, tm := range times {
					if arr.IsValid(i) != valid[i] {
						t.Fatalf("part %d row %d: validity %v, want %v", p, i, arr.IsValid(i), valid[i])
					}
					if valid[i] && arr.Value(i) != goPart(p, tm) {
						t.Fatalf("part %d of %s (row %d) = %d, want %d", p, tm, i, arr.Value(i), goPart(p, tm))
					}
				}
				got.Release()
			}
			ep := Epoch(mem, TemporalOf(dt), x, f64N)
			defer ep.Release()
			arr := ep.Array().(*array.Float64)
			for i, tm := range times {
				if want := float64(tm.UnixNano()) / 1e9; valid[i] && dt.Unit() != dtype.Nano && arr.Value(i) != float64(tm.Unix())+float64(tm.Nanosecond())/1e9 && !closeTo(arr.Value(i), want) {
					t.Fatalf("epoch of %s = %v, want %v", tm, arr.Value(i), want)
				}
			}
		})
	}
}

func closeTo(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-6*max(1, b, -b)
}

// goTrunc is the start of p's period of tm (UTC), as DuckDB truncates.
func goTrunc(p TruncPart, tm time.Time) time.Time {
	y, m, d := tm.Date()
	switch p {
	case TruncMillennium:
		return time.Date(y/1000*1000, 1, 1, 0, 0, 0, 0, time.UTC)
	case TruncCentury:
		return time.Date(y/100*100, 1, 1, 0, 0, 0, 0, time.UTC)
	case TruncDecade:
		return time.Date(y/10*10, 1, 1, 0, 0, 0, 0, time.UTC)
	case TruncYear:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	case TruncQuarter:
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case TruncMonth:
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case TruncWeek:
		back := (int(tm.Weekday()) + 6) % 7
		return time.Date(y, m, d-back, 0, 0, 0, 0, time.UTC)
	case TruncISOYear:
		iy, _ := tm.ISOWeek()
		jan4 := time.Date(iy, 1, 4, 0, 0, 0, 0, time.UTC)
		return jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	case TruncDay:
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case TruncHour:
		return tm.Truncate(time.Hour)
	case TruncMinute:
		return tm.Truncate(time.Minute)
	case TruncSecond:
		return tm.Truncate(time.Second)
	case TruncMillisecond:
		return tm.Truncate(time.Millisecond)
	}
	return tm.Truncate(time.Microsecond)
}

func TestDateTruncRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []dtype.DType{dateN, tsN, dtype.Timestamp(dtype.Nano, "", true)} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := checkedMem(t)
			x, times, valid := randomTemporal(t, mem, rng, dt, 300)
			defer x.Release()
			ret := dt
			if dt.ExtID() == dtype.ExtDate {
				ret = tsN
			}
			per := ret.Unit().PerSecond()
			first := TruncMillennium
			if dt.Unit() == dtype.Nano && dt.ExtID() != dtype.ExtDate {
				first = TruncDecade // the start of 1000 and 1800 are out of range
			}
			for p := first; p <= TruncMicrosecond; p++ {
				got, err := DateTrunc(mem, p, TemporalOf(dt), x, ret)
				if err != nil {
					t.Fatal(err)
				}
				arr := got.Array().(*array.Timestamp)
				for i, tm := range times {
					if !valid[i] {
						if arr.IsValid(i) {
							t.Fatalf("row %d is valid, want null", i)
						}
						continue
					}
					w := goTrunc(p, tm)
					want := w.Unix()*per + int64(w.Nanosecond())/(1e9/per)
					if int64(arr.Value(i)) != want {
						t.Fatalf("date_trunc(%d, %s) = %d, want %s (%d)", p, tm, arr.Value(i), w, want)
					}
				}
				got.Release()
			}
		})
	}
}

func TestDateDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mem := checkedMem(t)
	a, ta, va := randomTemporal(t, mem, rng, dateN, 300)
	defer a.Release()
	b, tb, vb := randomTemporal(t, mem, rng, dateN, 300)
	defer b.Release()
	for _, c := range []struct {
		p    DiffPart
		want func(x, y time.Time) int64
	}{
		{DiffYear, func(x, y time.Time) int64 { return int64(y.Year() - x.Year()) }},
		{DiffMonth, func(x, y time.Time) int64 { return int64(y.Year()*12 + int(y.Month()) - x.Year()*12 - int(x.Month())) }},
		{DiffDay, func(x, y time.Time) int64 { return (y.Unix() - x.Unix()) / secondsPerDay }},
		{DiffWeek, func(x, y time.Time) int64 { return (y.Unix() - x.Unix()) / secondsPerDay / 7 }},
		{DiffHour, func(x, y time.Time) int64 { return (y.Unix() - x.Unix()) / 3600 }},
		{DiffMicrosecond, func(x, y time.Time) int64 { return (y.Unix() - x.Unix()) * 1e6 }},
	} {
		got, err := DateDiff(mem, c.p, TemporalOf(dateN), a, b, i64N)
		if err != nil {
			t.Fatal(err)
		}
		arr := got.Array().(*array.Int64)
		for i := range ta {
			if arr.IsValid(i) != (va[i] && vb[i]) {
				t.Fatalf("row %d: validity %v", i, arr.IsValid(i))
			}
			if arr.IsValid(i) && arr.Value(i) != c.want(ta[i], tb[i]) {
				t.Fatalf("date_diff(%d, %s, %s) = %d, want %d", c.p, ta[i], tb[i], arr.Value(i), c.want(ta[i], tb[i]))
			}
		}
		got.Release()
	}
}

func partCall(p Part, dt dtype.DType) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return DatePart(mem, p, TemporalOf(dt), a[0], ret)
	}
}

func TestDatePartCases(t *testing.T) {
	dates := col(dateN, `["1995-03-15", -735525, null, "1995-01-01", "2000-12-31", "1969-12-31"]`)
	ts := col(tsN, `["1995-03-15 10:11:12.345678", "1969-12-31 23:59:58.250000", null]`)
	runCases(t, []kernelCase{
		{name: "year", args: []in{dates}, ret: i64N, want: `[1995, -44, null, 1995, 2000, 1969]`},
	}, partCall(PartYear, dateN))
	runCases(t, []kernelCase{
		{name: "isoyear", args: []in{dates}, ret: i64N, want: `[1995, -44, null, 1994, 2000, 1970]`},
	}, partCall(PartISOYear, dateN))
	runCases(t, []kernelCase{
		{name: "yearweek", args: []in{dates}, ret: i64N, want: `[199511, -4411, null, 199452, 200052, 197001]`},
	}, partCall(PartYearWeek, dateN))
	runCases(t, []kernelCase{
		{name: "decade", args: []in{dates}, ret: i64N, want: `[199, -4, null, 199, 200, 196]`},
	}, partCall(PartDecade, dateN))
	runCases(t, []kernelCase{
		{name: "century", args: []in{dates}, ret: i64N, want: `[20, -1, null, 20, 20, 20]`},
	}, partCall(PartCentury, dateN))
	runCases(t, []kernelCase{
		{name: "millennium", args: []in{dates}, ret: i64N, want: `[2, -1, null, 2, 2, 2]`},
	}, partCall(PartMillennium, dateN))
	runCases(t, []kernelCase{
		{name: "era", args: []in{dates}, ret: i64N, want: `[1, 0, null, 1, 1, 1]`},
	}, partCall(PartEra, dateN))
	runCases(t, []kernelCase{
		{name: "hour of a date", args: []in{dates}, ret: i64N, want: `[0, 0, null, 0, 0, 0]`},
	}, partCall(PartHour, dateN))
	runCases(t, []kernelCase{
		{name: "millisecond", args: []in{ts}, ret: i64N, want: `[12345, 58250, null]`},
	}, partCall(PartMillisecond, tsN))
	runCases(t, []kernelCase{
		{name: "microsecond", args: []in{ts}, ret: i64N, want: `[12345678, 58250000, null]`},
		{name: "scalar", args: []in{lit(scalar.Timestamp(dtype.Micro, "", 794916672345678))}, ret: i64N, want: `[12345678]`},
	}, partCall(PartMicrosecond, tsN))
	runCases(t, []kernelCase{
		{name: "second", args: []in{ts}, ret: i64N, want: `[12, 58, null]`},
	}, partCall(PartSecond, tsN))
	runCases(t, []kernelCase{
		{name: "epoch", args: []in{ts}, ret: f64N, want: `[795262272.345678, -1.75, null]`},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Epoch(mem, TemporalOf(tsN), a[0], ret), nil
	})
}

func TestTimeParts(t *testing.T) {
	for _, c := range []struct {
		dt          dtype.DType
		rows, epoch string
	}{
		{dtype.Time(dtype.Second, true), `[36672, null, 0, 86399]`, `[36672, null, 0, 86399]`},
		{dtype.Time(dtype.Milli, true), `[36672500, null, 0, 86399999]`, `[36672.5, null, 0, 86399.999]`},
		{dtype.Time(dtype.Micro, true), `[36672500000, null, 0, 86399999999]`, `[36672.5, null, 0, 86399.999999]`},
		{dtype.Time(dtype.Nano, true), `[36672500000000, null, 0, 86399999999999]`, `[36672.5, null, 0, 86399.999999999]`},
	} {
		frac := func(ms, us string) string {
			if c.dt.Unit() == dtype.Second {
				return ms
			}
			return us
		}
		x := col(c.dt, c.rows)
		runCases(t, []kernelCase{{name: c.dt.String() + " hour", args: []in{x}, ret: i64N, want: `[10, null, 0, 23]`}}, partCall(PartHour, c.dt))
		runCases(t, []kernelCase{{name: c.dt.String() + " minute", args: []in{x}, ret: i64N, want: `[11, null, 0, 59]`}}, partCall(PartMinute, c.dt))
		runCases(t, []kernelCase{{name: c.dt.String() + " second", args: []in{x}, ret: i64N, want: `[12, null, 0, 59]`}}, partCall(PartSecond, c.dt))
		runCases(t, []kernelCase{{name: c.dt.String() + " millisecond", args: []in{x}, ret: i64N,
			want: frac(`[12000, null, 0, 59000]`, `[12500, null, 0, 59999]`)}}, partCall(PartMillisecond, c.dt))
		runCases(t, []kernelCase{{name: c.dt.String() + " epoch", args: []in{x}, ret: f64N, want: c.epoch}},
			func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
				return Epoch(mem, TemporalOf(c.dt), a[0], ret), nil
			})
	}
}

func TestDateTruncCases(t *testing.T) {
	dates := col(dateN, `["1995-03-15", -735525, null, "1995-01-01"]`)
	trunc := func(p TruncPart, dt dtype.DType) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return DateTrunc(mem, p, TemporalOf(dt), a[0], ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "century", args: []in{dates}, ret: tsN, want: `["1900-01-01 00:00:00", -62167219200000000, null, "1900-01-01 00:00:00"]`},
	}, trunc(TruncCentury, dateN))
	runCases(t, []kernelCase{
		{name: "decade", args: []in{dates}, ret: tsN, want: `["1990-01-01 00:00:00", -63429523200000000, null, "1990-01-01 00:00:00"]`},
	}, trunc(TruncDecade, dateN))
	runCases(t, []kernelCase{
		{name: "week", args: []in{dates}, ret: tsN, want: `["1995-03-13 00:00:00", -63549619200000000, null, "1994-12-26 00:00:00"]`},
	}, trunc(TruncWeek, dateN))
	runCases(t, []kernelCase{
		{name: "quarter", args: []in{col(tsN, `["1995-03-15 10:11:12.345678", null]`)}, ret: tsN, want: `["1995-01-01 00:00:00", null]`},
	}, trunc(TruncQuarter, tsN))
	nano := dtype.Timestamp(dtype.Nano, "", true)
	runCases(t, []kernelCase{
		{name: "out of range", args: []in{col(nano, `["1677-09-22 00:00:00"]`)}, ret: nano, errText: "out of the range"},
	}, trunc(TruncYear, nano))
	runCases(t, []kernelCase{
		{name: "date too far", args: []in{lit(scalar.Date(2_000_000_000))}, ret: tsN, errText: "overflow"},
	}, trunc(TruncDay, dateN))
}

func TestDateDiffCases(t *testing.T) {
	diff := func(p DiffPart, dt dtype.DType) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			return DateDiff(mem, p, TemporalOf(dt), a[0], a[1], ret)
		}
	}
	ts := func(s ...string) in { return col(tsN, `["`+strings.Join(s, `", "`)+`"]`) }
	runCases(t, []kernelCase{
		{name: "hour", args: []in{ts("1995-01-01 23:59:00", "1969-12-31 23:59:00", "1969-12-31 22:59:00"),
			ts("1995-01-02 00:01:00", "1970-01-01 00:01:00", "1969-12-31 23:01:00")}, ret: i64N, want: `[1, 1, 1]`},
	}, diff(DiffHour, tsN))
	runCases(t, []kernelCase{
		{name: "second", args: []in{ts("1969-12-31 23:59:58.9"), ts("1969-12-31 23:59:59.1")}, ret: i64N, want: `[1]`},
	}, diff(DiffSecond, tsN))
	runCases(t, []kernelCase{
		{name: "millisecond", args: []in{ts("1969-12-31 23:59:59.9995"), ts("1970-01-01 00:00:00.0005")}, ret: i64N, want: `[1]`},
	}, diff(DiffMillisecond, tsN))
	runCases(t, []kernelCase{
		{name: "day of timestamps", args: []in{ts("1995-01-01 23:00:00"), ts("1995-01-02 01:00:00")}, ret: i64N, want: `[1]`},
	}, diff(DiffDay, tsN))
	dates := func(s ...string) in { return col(dateN, `["`+strings.Join(s, `", "`)+`"]`) }
	runCases(t, []kernelCase{
		{name: "quarter toward zero", args: []in{col(dateN, `[-719804, "1995-03-31"]`), col(dateN, `[-719803, "1995-04-01"]`)}, ret: i64N, want: `[0, 1]`},
	}, diff(DiffQuarter, dateN))
	runCases(t, []kernelCase{
		{name: "decade toward zero", args: []in{col(dateN, `[-723181, "1999-12-31"]`), col(dateN, `[-723180, "2000-01-01"]`)}, ret: i64N, want: `[0, 1]`},
	}, diff(DiffDecade, dateN))
	runCases(t, []kernelCase{
		{name: "week", args: []in{dates("1969-12-26", "1995-01-07", "1995-01-01"), dates("1970-01-06", "1995-01-01", "1995-01-02")}, ret: i64N, want: `[1, 0, 0]`},
	}, diff(DiffWeek, dateN))
	runCases(t, []kernelCase{
		{name: "isoyear", args: []in{dates("1995-01-01"), dates("1995-01-03")}, ret: i64N, want: `[1]`},
	}, diff(DiffISOYear, dateN))
	runCases(t, []kernelCase{
		{name: "overflow", args: []in{lit(scalar.Date(-2_000_000_000)), lit(scalar.Date(2_000_000_000))}, ret: i64N, errText: "does not fit"},
		{name: "nulls", args: []in{dates("1995-01-01", "1995-01-01"), col(dateN, `[null, "1995-01-02"]`)}, ret: i64N, want: `[null, 86400000000]`},
	}, diff(DiffMicrosecond, dateN))
}

func TestLastDayMakeDate(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "dates", args: []in{col(dateN, `["1996-02-10", "1900-02-01", null, "1995-12-31", -735508]`)}, ret: dateN,
			want: `["1996-02-29", "1900-02-28", null, "1995-12-31", -735479]`},
		{name: "past the last date", args: []in{lit(scalar.Date(2147483647))}, ret: dateN, errText: "overflow"},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return LastDay(mem, TemporalOf(dateN), a[0], ret)
	})
	runCases(t, []kernelCase{
		{name: "timestamps", args: []in{col(tsN, `["1996-02-10 10:00:00", null]`)}, ret: dateN, want: `["1996-02-29", null]`},
	}, func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return LastDay(mem, TemporalOf(tsN), a[0], ret)
	})
	runCases(t, []kernelCase{
		{name: "valid", args: []in{col(i64N, `[2000, null, -44]`), col(i64N, `[2, 1, 3]`), n64(29)}, ret: dateN,
			want: `["2000-02-29", null, -735511]`},
		{name: "null scalar", args: []in{col(i64N, `[2000, 1995]`), lit(scalar.Null(i64N)), n64(29)}, ret: dateN, want: `[null, null]`},
		{name: "no such day", args: []in{col(i64N, `[2000, 1995]`), n64(2), n64(29)}, ret: dateN, errText: "date out of range: 1995-2-29"},
		{name: "month 13", args: []in{n64(1995), n64(13), n64(1)}, ret: dateN, errText: "date out of range: 1995-13-1"},
		{name: "null row skips the check", args: []in{col(i64N, `[null, 2000]`), n64(2), n64(30)}, ret: dateN, errText: "2000-2-30"},
	}, MakeDate)
	f := func(v float64) in { return lit(scalar.Float64(v)) }
	runCases(t, []kernelCase{
		{name: "parts", args: []in{n64(1995), n64(3), n64(1), n64(1), n64(2), f(3.4999995)}, ret: tsN, want: `["1995-03-01 01:02:03.499999"]`},
		{name: "carry", args: []in{n64(1995), n64(3), n64(1), n64(1), n64(2), f(59.9999999)}, ret: tsN, want: `["1995-03-01 01:03:00"]`},
		{name: "hour 24", args: []in{n64(1995), n64(3), n64(1), n64(24), n64(0), f(0)}, ret: tsN, want: `["1995-03-02 00:00:00"]`},
		{name: "negative seconds", args: []in{n64(1995), n64(3), n64(1), n64(1), n64(2), f(-0.5)}, ret: tsN, errText: "time out of range"},
		{name: "column", args: []in{col(i64N, `[1995, null]`), n64(3), n64(1), n64(1), n64(2), col(f64N, `[3.5, 1]`)}, ret: tsN,
			want: `["1995-03-01 01:02:03.5", null]`},
	}, MakeTimestamp)
	runCases(t, []kernelCase{
		{name: "micros", args: []in{col(i64N, `[794019723500000, null]`)}, ret: tsN, want: `["1995-03-01 01:02:03.5", null]`},
	}, MakeTimestamp)
}

func TestStrftimeStrptime(t *testing.T) {
	format := func(f string, dt dtype.DType) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			tf, err := CompileTimeFormat(f, false)
			if err != nil {
				return datum.Datum{}, err
			}
			return Strftime(mem, tf, TemporalOf(dt), dt.TZ() != "", a[0], datum.FromScalar(scalar.String(f), a[0].Len()), ret)
		}
	}
	all := "%Y|%m|%d|%H|%M|%S|%f|%j|%a|%A|%b|%B|%p|%I|%y|%w|%g|%-d|%-m|%-H|%-I|%-M|%-S|%-j|%-y|%U|%W|%V|%G|%u|%%|%z|%Z|%c|%x|%X"
	runCases(t, []kernelCase{
		{name: "every specifier", args: []in{col(tsN, `["1995-03-05 13:04:05.123456", null]`)}, ret: strN,
			want: `["1995|03|05|13|04|05|123456|064|Sun|Sunday|Mar|March|PM|01|95|0|123|5|3|13|1|4|5|64|95|10|09|09|1995|7|%|+00||1995-03-05 13:04:05|1995-03-05|13:04:05", null]`},
	}, format(all, tsN))
	runCases(t, []kernelCase{
		{name: "years", args: []in{col(dateN, `[-735525, "0044-03-15", "1995-01-01"]`)}, ret: strN, want: `["-44 44 -44", "0044 44 0044", "1995 95 1994"]`},
	}, format("%Y %y %G", dateN))
	runCases(t, []kernelCase{
		{name: "midnight", args: []in{col(tsN, `["1995-03-05 00:04:05"]`)}, ret: strN, want: `["12 AM"]`},
	}, format("%I %p", tsN))
	if _, err := CompileTimeFormat("%Q", false); err == nil || !strings.Contains(err.Error(), "%Q") {
		t.Errorf("%%Q: error %v, want one naming it", err)
	}
	if _, err := CompileTimeFormat("%V", true); err == nil {
		t.Errorf("strptime %%V: no error")
	}
	parse := func(f string) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
		return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			tf, err := CompileTimeFormat(f, true)
			if err != nil {
				return datum.Datum{}, err
			}
			return Strptime(mem, tf, a[0], datum.FromScalar(scalar.String(f), a[0].Len()), ret)
		}
	}
	runCases(t, []kernelCase{
		{name: "full", args: []in{col(strN, `["1995-03-05 13:04:05", null, "  1995-3-5 1:2:3  "]`)}, ret: tsN,
			want: `["1995-03-05 13:04:05", null, "1995-03-05 01:02:03"]`},
		{name: "no match", args: []in{col(strN, `["1995-03-05"]`)}, ret: tsN, errText: `could not parse "1995-03-05"`},
		{name: "no such day", args: []in{col(strN, `["1995-02-30 00:00:00"]`)}, ret: tsN, errText: "date out of range: 1995-2-30"},
		// DuckDB's %Y: one to four digits, no sign.
		{name: "short year", args: []in{col(strN, `["1-01-01 00:00:00"]`)}, ret: tsN, want: `["0001-01-01 00:00:00"]`},
		{name: "five-digit year", args: []in{col(strN, `["10000-12-30 00:00:00"]`)}, ret: tsN, errText: `could not parse "10000-12-30 00:00:00"`},
		{name: "signed year", args: []in{col(strN, `["-5-01-01 00:00:00"]`)}, ret: tsN, errText: `could not parse "-5-01-01 00:00:00"`},
	}, parse("%Y-%m-%d %H:%M:%S"))
	runCases(t, []kernelCase{
		{name: "two-digit years", args: []in{col(strN, `["5/3/95", "5/3/69", "5/3/68"]`)}, ret: tsN,
			want: `["1995-03-05 00:00:00", "1969-03-05 00:00:00", "2068-03-05 00:00:00"]`},
	}, parse("%d/%m/%y"))
	runCases(t, []kernelCase{
		{name: "fraction", args: []in{col(strN, `["1995-03-05 13:04:05.123", "1995-03-05 13:04:05.000001"]`)}, ret: tsN,
			want: `["1995-03-05 13:04:05.123", "1995-03-05 13:04:05.000001"]`},
	}, parse("%Y-%m-%d %H:%M:%S.%f"))
	runCases(t, []kernelCase{
		{name: "names", args: []in{col(strN, `["Mar 5 1995 1PM", "march 5 1995 12am"]`)}, ret: tsN,
			want: `["1995-03-05 13:00:00", "1995-03-05 00:00:00"]`},
	}, parse("%b %d %Y %I%p"))
	runCases(t, []kernelCase{
		{name: "day of year", args: []in{col(strN, `["1995-064 Sunday"]`)}, ret: tsN, want: `["1995-03-05 00:00:00"]`},
	}, parse("%Y-%j %A"))
	runCases(t, []kernelCase{
		{name: "packed numbers", args: []in{col(strN, `["19950305", "1995035"]`)}, ret: tsN, want: `["1995-03-05 00:00:00", "1995-03-05 00:00:00"]`},
	}, parse("%Y%m%d"))
	runCases(t, []kernelCase{
		{name: "leap day of year", args: []in{col(strN, `["366/2000", "060/1900"]`)}, ret: tsN, want: `["2000-12-31 00:00:00", "1900-03-01 00:00:00"]`},
		{name: "not a leap year", args: []in{col(strN, `["366/1900"]`)}, ret: tsN, errText: "day of year 366 out of range"},
	}, parse("%j/%Y"))
	runCases(t, []kernelCase{
		{name: "the year defaults to 1900", args: []in{col(strN, `["March 10:11"]`)}, ret: tsN, want: `["1900-03-01 10:11:00"]`},
	}, parse("%B %H:%M"))
	runCases(t, []kernelCase{
		{name: "12-hour clock without AM or PM", args: []in{col(strN, `["1995-03-05 12", "1995-03-05 1"]`)}, ret: tsN,
			want: `["1995-03-05 12:00:00", "1995-03-05 01:00:00"]`},
		{name: "hour 0 of a 12-hour clock", args: []in{col(strN, `["1995-03-05 0"]`)}, ret: tsN, errText: "out of range for a 12-hour clock"},
	}, parse("%Y-%m-%d %I"))
}

// FuzzTimeFormat compiles any format and, when it compiles, parses any text
// with it and formats any timestamp with it: nothing may panic, and a
// parsed timestamp formats back to a text that parses to it again with the
// formats that lose nothing.
func FuzzTimeFormat(f *testing.F) {
	for _, s := range [][2]string{{"%Y-%m-%d", "1995-03-05"}, {"%d/%m/%y %H:%M:%S.%f", "5/3/95 1:2:3.5"},
		{"%b %-d %Y %I%p", "Mar 5 1995 1PM"}, {"%j %A %%", "064 Sunday %"}, {"%c", "x"}, {"%-", ""}, {"%Y%m%d", "-123456789"}} {
		f.Add(s[0], s[1], int64(794019723500000))
	}
	f.Fuzz(func(t *testing.T, format, text string, micros int64) {
		for _, parse := range []bool{true, false} {
			tf, err := CompileTimeFormat(format, parse)
			if err != nil {
				continue
			}
			if parse {
				tf.parse(text)
				continue
			}
			day, tod := splitTicks(micros, 1_000_000)
			tf.format(nil, clockOf(day, tod, 1_000_000), false)
		}
		tf, err := CompileTimeFormat("%Y-%m-%d %H:%M:%S.%f", true)
		if err != nil {
			t.Fatal(err)
		}
		day, tod := splitTicks(micros, 1_000_000)
		if y, _, _ := civilFromDays(day); y < 0 {
			return // %Y of a negative year has a sign strptime reads, but the range check differs
		}
		out := string(tf.format(nil, clockOf(day, tod, 1_000_000), false))
		if v, msg := tf.parse(out); msg != "" || v != micros {
			t.Fatalf("%d formats as %q, which parses to %d (%s)", micros, out, v, msg)
		}
	})
}

// BenchmarkDatePart extracts the year and the hour of 64k dates and
// timestamps.
func BenchmarkDatePart(b *testing.B) {
	mem := memory.NewGoAllocator()
	const n = 1 << 16
	rng := rand.New(rand.NewPCG(7, 8))
	db := array.NewDate32Builder(mem)
	tb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
	for range n {
		db.Append(arrow.Date32(rng.Int32N(40000) - 10000))
		tb.Append(arrow.Timestamp(rng.Int64N(4e15) - 1e15))
	}
	dates := datum.FromArray(db.NewArray(), dateN)
	stamps := datum.FromArray(tb.NewArray(), tsN)
	db.Release()
	tb.Release()
	defer dates.Release()
	defer stamps.Release()
	for _, c := range []struct {
		name string
		p    Part
		x    datum.Datum
		t    dtype.DType
	}{{"year/date", PartYear, dates, dateN}, {"year/timestamp", PartYear, stamps, tsN}, {"hour/timestamp", PartHour, stamps, tsN}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n * 8)
			for b.Loop() {
				r, err := DatePart(mem, c.p, TemporalOf(c.t), c.x, i64N)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
	}
}

// TestMonotonic checks the parts fn declares non-decreasing (year, isoyear,
// decade, century, millennium, era) and every date_trunc on sorted random
// days around the year 0 and today, for pruning.
func TestMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	days := make([]int64, 4000)
	for i := range days {
		center := []int64{-719528, 0}[i%2] // 0000-01-01, 1970-01-01
		days[i] = center + rng.Int64N(200000) - 100000
	}
	slices.Sort(days)
	for _, p := range []Part{PartYear, PartISOYear, PartDecade, PartCentury, PartMillennium, PartEra} {
		f := partFunc(p, 1)
		for i := 1; i < len(days); i++ {
			if a, b := f(days[i-1], 0), f(days[i], 0); a > b {
				t.Fatalf("part %d decreases from day %d (%d) to day %d (%d)", p, days[i-1], a, days[i], b)
			}
		}
	}
	for p := TruncMillennium; p <= TruncMicrosecond; p++ {
		for i := 1; i < len(days); i++ {
			if a, b := truncDay(p, days[i-1]), truncDay(p, days[i]); a > b {
				t.Fatalf("date_trunc %d decreases from day %d (%d) to day %d (%d)", p, days[i-1], a, days[i], b)
			}
		}
	}
}
