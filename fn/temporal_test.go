package fn_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values are DuckDB's (bench/cmd/duckquery).

func TestDateArithmetic(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "date + days", f: fn.Add, args: []fkArg{col("date", `["1995-01-01", null, "1969-12-31", "2000-02-28"]`), lit("i32", "1")},
			want: `["1995-01-02", null, "1970-01-01", "2000-02-29"]`},
		{name: "days + date", f: fn.Add, args: []fkArg{col("i32", "[-1, 366, null]"), col("date", `["1995-01-01", "1995-01-01", "1995-01-01"]`)},
			want: `["1994-12-31", "1996-01-02", null]`},
		{name: "date - days", f: fn.Sub, args: []fkArg{col("date", `["1995-03-01", "1996-03-01"]`), lit("i32", "1")},
			want: `["1995-02-28", "1996-02-29"]`},
		{name: "date - date", f: fn.Sub, args: []fkArg{lit("date", `"1995-01-01"`), col("date", `["1994-01-01", null, "1995-01-02"]`)},
			want: `[365, null, -1]`},
		{name: "date + days overflow", f: fn.Add, args: []fkArg{col("date", `["1995-01-01", "1995-01-01"]`), col("i32", "[0, 2147483647]")},
			err: errs.ErrOverflow, row: 1},
	})
}

func TestDateArithmeticTyping(t *testing.T) {
	date, i32, i64 := dtype.Date(false), dtype.Primitive(dtype.I32, false), dtype.Primitive(dtype.I64, false)
	for _, c := range []struct {
		f    fn.Function
		args []dtype.DType
		want string // the type or an error's text
	}{
		{fn.Add, []dtype.DType{date, i32}, "date"},
		{fn.Add, []dtype.DType{i32, date.AsNullable()}, "date?"},
		{fn.Sub, []dtype.DType{date, date}, "i64"},
		{fn.Sub, []dtype.DType{i32, date}, "want i32 (a number of days) beside a date"},
		{fn.Add, []dtype.DType{date, date}, "want i32 (a number of days) beside a date"},
		{fn.Add, []dtype.DType{date, i64}, "has type i64, want i32"},
		{fn.Mul, []dtype.DType{date, i32}, "which mul does not take"},
	} {
		got, err := c.f.ReturnType(c.args)
		text := got.String()
		if err != nil {
			text = err.Error()
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%s%v: %s, want %s", c.f.ID(), c.args, text, c.want)
		}
	}
}

func TestDateFunctions(t *testing.T) {
	col, lit := fkCol, fkLit
	year, month, dow := fn.Shorthands[fn.PartYear], fn.Shorthands[fn.PartMonth], fn.Shorthands[fn.PartDayOfWeek]
	fkRun(t, []fkCase{
		{name: "year", f: year, args: []fkArg{col("date", `["1995-03-01", null, "1969-12-31"]`)}, want: "[1995, null, 1969]"},
		{name: "month of a timestamp", f: month, args: []fkArg{col("timestamp(ms)", `["1995-03-01 10:00:00", "1969-12-31 23:59:59.999"]`)}, want: "[3, 12]"},
		{name: "dayofweek", f: dow, args: []fkArg{lit("date", `"1995-03-05"`)}, want: "[0, 0]"},
		{name: "epoch", f: fn.Shorthands[fn.PartEpoch], args: []fkArg{col("timestamp(us)", `["1995-03-01 01:02:03.5"]`)}, want: "[794019723.5]"},
		{name: "last_day", f: fn.LastDay, args: []fkArg{col("date", `["1996-02-10", "1995-02-10", null]`)}, want: `["1996-02-29", "1995-02-28", null]`},
		{name: "make_date", f: fn.MakeDate, args: []fkArg{col("i64", "[1995, 2000, null]"), lit("i64", "2"), lit("i64", "29")},
			err: errs.ErrInvalidArgument, row: 0},
		{name: "make_date valid", f: fn.MakeDate, args: []fkArg{col("i64", "[1996, 2000, null]"), lit("i64", "2"), lit("i64", "29")},
			want: `["1996-02-29", "2000-02-29", null]`},
		{name: "make_timestamp", f: fn.MakeTimestamp, args: []fkArg{lit("i64", "1995"), lit("i64", "3"), lit("i64", "1"), lit("i64", "1"), lit("i64", "2"), col("f64", "[3.5, null]")},
			want: `["1995-03-01T01:02:03.5", null]`},
	})
}

func TestDatePartTyping(t *testing.T) {
	date, ts, text := dtype.Date(false), dtype.Timestamp(dtype.Micro, "", true), dtype.Utf8(false)
	lit := func(s string) *scalar.Scalar { v := scalar.String(s); return &v }
	for _, c := range []struct {
		f      fn.Function
		args   []dtype.DType
		consts []*scalar.Scalar
		want   string
	}{
		{fn.DatePartFn, []dtype.DType{text, date}, []*scalar.Scalar{lit("YEAR"), nil}, "i64"},
		{fn.DatePartFn, []dtype.DType{text, ts}, []*scalar.Scalar{lit("epoch"), nil}, "f64?"},
		{fn.DatePartFn, []dtype.DType{text, date}, []*scalar.Scalar{nil, nil}, "must be a string literal"},
		{fn.DatePartFn, []dtype.DType{text, date}, []*scalar.Scalar{lit("fortnight"), nil}, `part "fortnight" is not recognized`},
		{fn.DateTrunc, []dtype.DType{text, date}, []*scalar.Scalar{lit("month"), nil}, "timestamp(us)"},
		{fn.DateTrunc, []dtype.DType{text, dtype.Timestamp(dtype.Nano, "UTC", false)}, []*scalar.Scalar{lit("hour"), nil}, "timestamp(ns, 'UTC')"},
		{fn.DateTrunc, []dtype.DType{text, date}, []*scalar.Scalar{lit("era"), nil}, `cannot truncate to "era"`},
		{fn.DateTrunc, []dtype.DType{text, date}, []*scalar.Scalar{lit("epoch"), nil}, "timestamp(us)"},
		{fn.DateDiff, []dtype.DType{text, date, date}, []*scalar.Scalar{lit("dow"), nil, nil}, "i64"},
		{fn.DateDiff, []dtype.DType{text, date, date}, []*scalar.Scalar{lit("epoch"), nil, nil}, `cannot count "epoch"`},
		{fn.Strftime, []dtype.DType{date, text}, []*scalar.Scalar{nil, lit("%Y %q")}, "format specifier %q is not supported"},
		{fn.Strptime, []dtype.DType{text, text}, []*scalar.Scalar{nil, lit("%Y %V")}, "%V is not supported by strptime"},
	} {
		got, err := c.f.(fn.ConstTyper).ReturnTypeConst(c.args, c.consts)
		res := got.String()
		if err != nil {
			res = err.Error()
		}
		if !strings.Contains(res, c.want) {
			t.Errorf("%s%v: %s, want %s", c.f.ID(), c.args, res, c.want)
		}
	}
	if p := fn.PropertiesOf(fn.DateTrunc); p.Order != fn.OrderIncreasing || p.OrderArg != 1 {
		t.Errorf("date_trunc: order %v on argument %d, want increasing on 2", p.Order, p.OrderArg)
	}
	for _, f := range []fn.Function{fn.Shorthands[fn.PartYear], fn.Shorthands[fn.PartEpoch]} {
		if p := fn.PropertiesOf(f); p.Order != fn.OrderIncreasing || p.OrderArg != 0 {
			t.Errorf("%s: order %v, want increasing", f.ID(), p.Order)
		}
	}
	for _, part := range []fn.DatePart{fn.PartMonth, fn.PartDay, fn.PartHour, fn.PartWeek, fn.PartYearWeek} {
		if p := fn.PropertiesOf(fn.Shorthands[part]); p.Order != fn.OrderUnknown {
			t.Errorf("%s: order %v, want none (it wraps, or runs backwards in negative years)", part, p.Order)
		}
	}
}
