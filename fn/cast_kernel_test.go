package fn_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func fkCast(to string) fn.Function    { return fn.Cast(fkMustParse(to)) }
func fkTryCast(to string) fn.Function { return fn.TryCast(fkMustParse(to)) }

func fkMustParse(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCastKernel(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "i32 to i8", f: fkCast("i8"), args: []fkArg{col("i32", "[1, -128, 127, null]")}, want: "[1, -128, 127, null]"},
		{name: "i32 to i8 out of range", f: fkCast("i8"), args: []fkArg{col("i32", "[1, null, 128]")}, err: errs.ErrInvalidCast, row: 2},
		{name: "i32 to i8 out of range under null", f: fkCast("i8"), args: []fkArg{col("i32", "[1, null]")}, want: "[1, null]"},
		{name: "try i32 to u8", f: fkTryCast("u8"), args: []fkArg{col("i32", "[1, -1, 255, 256, null]")}, want: "[1, null, 255, null, null]"},
		{name: "i64 to u64", f: fkCast("u64"), args: []fkArg{col("i64", "[9223372036854775807, 0]")}, want: "[9223372036854775807, 0]"},
		{name: "u64 to i64 out of range", f: fkCast("i64"), args: []fkArg{col("u64", "[9223372036854775808]")}, err: errs.ErrInvalidCast, row: 0},
		{name: "i32 to f64", f: fkCast("f64"), args: []fkArg{col("i32", "[1, -2147483648, null]")}, want: "[1, -2147483648, null]"},
		{name: "i64 to f32 rounds once", f: fkCast("f32"), args: []fkArg{col("i64", "[16777217, 9223372036854775807]")}, want: "[16777216, 9223372000000000000]"},
		{name: "i32 to f16 out of range", f: fkCast("f16"), args: []fkArg{col("i32", "[65504, 65520]")}, err: errs.ErrInvalidCast, row: 1},
		{name: "f64 to i32 rounds half to even", f: fkCast("i32"), args: []fkArg{col("f64", "[2.5, 3.5, -2.5, -0.5, 0.5000001, 1.4999999]")}, want: "[2, 4, -2, 0, 1, 1]"},
		{name: "f64 to i64 NaN", f: fkCast("i64"), args: []fkArg{col("f64", `[1, "NaN"]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "f64 to i64 inf", f: fkCast("i64"), args: []fkArg{col("f64", `["-Inf"]`)}, err: errs.ErrInvalidCast, row: 0},
		{name: "f64 to i64 range", f: fkTryCast("i64"), args: []fkArg{col("f64", `[9223372036854775807, -9223372036854775808, 9.2e18]`)}, want: "[null, -9223372036854775808, 9200000000000000000]"},
		{name: "try f32 to u8", f: fkTryCast("u8"), args: []fkArg{col("f32", `[255.4, 255.5, -0.4, -0.6, "NaN"]`)}, want: "[255, null, 0, null, null]"},
		{name: "f64 to f32 overflow", f: fkCast("f32"), args: []fkArg{col("f64", `[1e300]`)}, err: errs.ErrInvalidCast, row: 0},
		{name: "f64 to f32 keeps inf and NaN", f: fkCast("f32"), args: []fkArg{col("f64", `["Inf", "NaN", 0.1]`)}, want: `["+Inf", "NaN", 0.1]`},
		{name: "f64 to f16", f: fkCast("f16"), args: []fkArg{col("f64", `[65504, 0.1, 1e-8, "-Inf"]`)}, want: `[65504, 0.099975586, 0, "-Inf"]`},
		{name: "f16 to i32", f: fkCast("i32"), args: []fkArg{col("f16", `[2.5, -1.5, 65504]`)}, want: "[2, -2, 65504]"},
		{name: "decimal to int rounds half away from zero", f: fkCast("i32"), args: []fkArg{col("decimal(5,1)", `["2.5", "-2.5", "2.4", "-0.4", null]`)}, want: "[3, -3, 2, 0, null]"},
		{name: "decimal to i8 out of range", f: fkCast("i8"), args: []fkArg{col("decimal(5,1)", `["127.4", "127.5"]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "decimal rescale down", f: fkCast("decimal(4,1)"), args: []fkArg{col("decimal(5,2)", `["1.25", "-1.25", "1.24", "999.94"]`)}, want: `["1.3", "-1.3", "1.2", "999.9"]`},
		{name: "decimal rescale overflow", f: fkCast("decimal(4,1)"), args: []fkArg{col("decimal(5,2)", `["1", "999.95"]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "decimal rescale up", f: fkCast("decimal(38,10)"), args: []fkArg{col("decimal(5,2)", `["-999.99"]`)}, want: `["-999.99"]`},
		{name: "decimal to f64", f: fkCast("f64"), args: []fkArg{col("decimal(38,2)", `["0.10", "-12345678901234567890123456789012345.67"]`)}, want: `[0.1, -1.234567890123457e+34]`},
		{name: "int to decimal", f: fkCast("decimal(4,2)"), args: []fkArg{col("i32", "[12, -99, 100]")}, err: errs.ErrInvalidCast, row: 2},
		{name: "f64 to decimal rounds its text", f: fkCast("decimal(3,2)"), args: []fkArg{col("f64", "[2.675, -2.675, 0.005]")}, want: `["2.68", "-2.68", "0.01"]`},
		{name: "bool to numbers", f: fkCast("f64"), args: []fkArg{col("bool", "[true, false, null]")}, want: "[1, 0, null]"},
		{name: "bool to decimal", f: fkCast("decimal(3,2)"), args: []fkArg{col("bool", "[true, false]")}, want: `["1", "0"]`},
		{name: "bool to decimal too narrow", f: fkCast("decimal(2,2)"), args: []fkArg{col("bool", "[false, true]")}, err: errs.ErrInvalidCast, row: 1},
		{name: "numbers to bool", f: fkCast("bool"), args: []fkArg{col("f64", `[0, -0.0, "NaN", 2, null]`)}, want: "[false, false, true, true, null]"},
		{name: "decimal to bool", f: fkCast("bool"), args: []fkArg{col("decimal(3,1)", `["0", "0.1"]`)}, want: "[false, true]"},
		{name: "i32 to utf8", f: fkCast("utf8"), args: []fkArg{col("i32", "[-2147483648, 0, null, 42]")}, want: `["-2147483648", "0", null, "42"]`},
		{name: "u64 to utf8", f: fkCast("utf8"), args: []fkArg{col("u64", "[18446744073709551615]")}, want: `["18446744073709551615"]`},
		{name: "f64 to utf8", f: fkCast("utf8"), args: []fkArg{col("f64", `[1, 0.1, 1e20, "NaN", "-Inf", -0.0]`)}, want: `["1.0", "0.1", "1e+20", "NaN", "-Infinity", "-0.0"]`},
		{name: "decimal to utf8", f: fkCast("utf8"), args: []fkArg{col("decimal(4,2)", `["1.5", "-0.01"]`)}, want: `["1.50", "-0.01"]`},
		{name: "date to utf8", f: fkCast("utf8"), args: []fkArg{col("date", `["1995-01-01", null]`)}, want: `["1995-01-01", null]`},
		{name: "bool to utf8", f: fkCast("utf8"), args: []fkArg{col("bool", "[true, false]")}, want: `["true", "false"]`},
		{name: "utf8 to i32", f: fkCast("i32"), args: []fkArg{col("utf8", `[" 42 ", "-7", null, "1.5", "1e3"]`)}, want: "[42, -7, null, 2, 1000]"},
		{name: "utf8 to i32 bad text", f: fkCast("i32"), args: []fkArg{col("utf8", `["1", "x1"]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "try utf8 to i32", f: fkTryCast("i32"), args: []fkArg{col("utf8", `["1", "x1", "99999999999"]`)}, want: "[1, null, null]"},
		{name: "utf8 to f64", f: fkCast("f64"), args: []fkArg{col("utf8", `["1.5", "NaN", "-inf", "1e400", "1e-400"]`)}, want: `[1.5, "NaN", "-Inf", "+Inf", 0]`},
		{name: "utf8 to f64 bad text", f: fkCast("f64"), args: []fkArg{col("utf8", `["1.5", "1e"]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "utf8 to bool", f: fkCast("bool"), args: []fkArg{col("utf8", `["true", "F", "yes", "0"]`)}, want: "[true, false, true, false]"},
		{name: "utf8 to date", f: fkCast("date"), args: []fkArg{col("utf8", `["1995-01-01", null]`)}, want: `["1995-01-01", null]`},
		{name: "utf8 to decimal", f: fkCast("decimal(5,2)"), args: []fkArg{col("utf8", `["1.005", "-3"]`)}, want: `["1.01", "-3"]`},
		{name: "utf8 to binary", f: fkCast("binary"), args: []fkArg{col("utf8", `["hi", null, ""]`)}, want: `["aGk=", null, ""]`},
		{name: "binary to utf8", f: fkCast("utf8"), args: []fkArg{col("binary", `["aGk=", null]`)}, want: `["hi", null]`},
		{name: "binary to utf8 invalid", f: fkCast("utf8"), args: []fkArg{col("binary", `["aGk=", "/w=="]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "try binary to utf8 invalid", f: fkTryCast("utf8"), args: []fkArg{col("binary", `["/w==", "aGk="]`)}, want: `[null, "hi"]`},
		{name: "date to timestamp", f: fkCast("timestamp(s)"), args: []fkArg{col("date", `["1970-01-02", "1969-12-31", null]`)}, want: `["1970-01-02T00:00:00", "1969-12-31T00:00:00", null]`},
		{name: "timestamp to date floors", f: fkCast("date"), args: []fkArg{col("timestamp(s)", `[86399, -1, 86400]`)}, want: `["1970-01-01", "1969-12-31", "1970-01-02"]`},
		{name: "timestamp unit finer", f: fkCast("timestamp(ns)"), args: []fkArg{col("timestamp(s)", `[1, -1]`)}, want: `["1970-01-01T00:00:01", "1969-12-31T23:59:59"]`},
		{name: "timestamp unit finer overflow", f: fkCast("timestamp(ns)"), args: []fkArg{col("timestamp(s)", `[1, 10000000000]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "timestamp unit coarser floors", f: fkCast("timestamp(s)"), args: []fkArg{col("timestamp(ms)", `[1999, -1]`)}, want: `["1970-01-01T00:00:01", "1969-12-31T23:59:59"]`},
		{name: "timestamp zone", f: fkCast("timestamp(ms, 'UTC')"), args: []fkArg{col("timestamp(ms)", `[1999, null]`)}, want: `["1970-01-01T00:00:01.999Z", null]`},
		{name: "time unit", f: fkCast("time(us)"), args: []fkArg{col("time(ms)", `[1500, null]`)}, want: `["00:00:01.5", null]`},
		{name: "null to i32", f: fkCast("i32"), args: []fkArg{col("null", "[null, null]")}, want: "[null, null]"},
		{name: "all null utf8 to i32", f: fkCast("i32"), args: []fkArg{col("utf8", "[null, null]")}, want: "[null, null]"},
		{name: "literal", f: fkCast("i16"), args: []fkArg{lit("i64", "300")}, want: "[300, 300]"},
		{name: "literal out of range", f: fkCast("i8"), args: []fkArg{lit("i64", "300")}, err: errs.ErrInvalidCast, row: 0},
		{name: "try literal out of range", f: fkTryCast("i8"), args: []fkArg{lit("i64", "300")}, want: "[null, null]"},
		{name: "null literal", f: fkCast("utf8"), args: []fkArg{lit("i64", "null")}, want: "[null, null]"},
		{name: "same type", f: fkCast("i32"), args: []fkArg{col("i32", "[1, null]")}, want: "[1, null]"},
		{name: "empty", f: fkCast("i8"), args: []fkArg{col("i64", "[]")}, want: "[]"},
		{name: "list elements", f: fkCast("list<i8?>"), args: []fkArg{col("list<i32?>", `[[1, null], [], null, [127]]`)}, want: `[[1, null], [], null, [127]]`},
		{name: "list element out of range", f: fkCast("list<i8?>"), args: []fkArg{col("list<i32?>", `[[1], null, [1, 128]]`)}, err: errs.ErrInvalidCast, row: 2},
		{name: "try list element out of range nulls the row", f: fkTryCast("list<i8?>"), args: []fkArg{col("list<i32?>", `[[1, 128], [2]]`)}, want: `[null, [2]]`},
		{name: "list null into non-nullable element", f: fkCast("list<i64>"), args: []fkArg{col("list<i32?>", `[[1], [null]]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "list to utf8 elements", f: fkCast("list<utf8?>"), args: []fkArg{col("list<f64?>", `[[1.5, null]]`)}, want: `[["1.5", null]]`},
		{name: "list to nullable elements", f: fkCast("list<i8?>"), args: []fkArg{col("list<i8>", `[[1, 2], null]`)}, want: `[[1, 2], null]`},
		{name: "struct to nullable fields", f: fkCast("struct<a: i8?>"), args: []fkArg{col("struct<a: i8>", `[{"a": 1}, null]`)}, want: `[{"a": 1}, null]`},
		{name: "fixed size list to list", f: fkCast("list<i64?>"), args: []fkArg{col("fixed_size_list<i16?, 2>", `[[1, 2], null, [3, null]]`)}, want: `[[1, 2], null, [3, null]]`},
		{name: "fixed size list to fixed size list", f: fkCast("fixed_size_list<f64?, 2>"), args: []fkArg{col("fixed_size_list<i16?, 2>", `[[1, 2], [3, null]]`)}, want: `[[1, 2], [3, null]]`},
		{name: "struct fields", f: fkCast("struct<a: i64?, b: i32?>"), args: []fkArg{col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "2"}, null, {"a": null, "b": null}]`)}, want: `[{"a": 1, "b": 2}, null, {"a": null, "b": null}]`},
		{name: "struct field fails", f: fkCast("struct<a: i64?, b: i32?>"), args: []fkArg{col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "2"}, {"a": 1, "b": "x"}]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "try struct field fails", f: fkTryCast("struct<a: i64?, b: i32?>"), args: []fkArg{col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "x"}, {"a": 1, "b": "2"}]`)}, want: `[null, {"a": 1, "b": 2}]`},
		{name: "struct null into non-nullable field", f: fkCast("struct<a: i32, b: utf8?>"), args: []fkArg{col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": null}, {"a": null, "b": "y"}]`)}, err: errs.ErrInvalidCast, row: 1},
		{name: "struct bad field under null row", f: fkCast("struct<a: i8?>"), args: []fkArg{col("struct<a: i32?>", `[{"a": 1}, null]`)}, want: `[{"a": 1}, null]`},
	})
}

// TestCastUnderNullRows: a value under a null row never fails a cast, even
// inside nested values.
func TestCastUnderNullRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// A struct whose second row is null but whose child holds 1000 there.
	st := fkArray(t, mem, "struct<a: i32?>", `[{"a": 1}, {"a": 1000}]`)
	defer st.Release()
	d := st.Array().Data()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b01
	nd := array.NewData(d.DataType(), 2, []*memory.Buffer{valid, nil}, d.Children(), 1, 0)
	valid.Release()
	arr := array.MakeFromData(nd)
	nd.Release()
	x := datum.FromArray(arr, st.DType())
	defer x.Release()
	got, err := fkEval(t, mem, fkCast("struct<a: i8?>"), []datum.Datum{x})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if js := fkNormJSON(t, fkJSON(t, mem, got)); js != `[{"a":1},null]` {
		t.Errorf("got %s", js)
	}
}

// TestCastErrorText: a failed cast names the row and scalar.Cast's reason.
func TestCastErrorText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x := fkArray(t, mem, "i32", "[1, 300]")
	defer x.Release()
	_, err := fkEval(t, mem, fkCast("u8"), []datum.Datum{x})
	if err == nil || !strings.HasPrefix(err.Error(), "cast: row 1: cannot cast 300") || !errors.Is(err, errs.ErrInvalidCast) {
		t.Errorf("got %v", err)
	}
}

// fkCastTypes and fkCastValues are the columns of the differential test:
// for every source type, values at and beyond the edges of the targets.
var fkCastTypes = []string{
	"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64",
	"decimal(5,2)", "decimal(38,0)", "decimal(20,10)", "utf8", "binary", "date", "time(ms)", "time(ns)",
	"timestamp(s)", "timestamp(ms, 'UTC')", "timestamp(ns)", "null",
	"list<i32?>", "list<i8>", "fixed_size_list<i16?, 2>", "list<utf8?>", "struct<a: i32?, b: utf8?>", "struct<a: i8, b: f64?>",
}

func fkCastValues(typ string) string {
	switch typ {
	case "bool":
		return "[true, false, null]"
	case "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64":
		all := []string{"0", "1", "-1", "127", "-128", "128", "255", "256", "-32768", "32767", "65535", "65536",
			"2147483647", "-2147483648", "4294967295", "9223372036854775807", "-9223372036854775808", "18446744073709551615", "null"}
		dt := fkMustParse(typ)
		var in []string
		for _, v := range all {
			if v == "null" || fkIntFits(v, dt.PType()) {
				in = append(in, v)
			}
		}
		return "[" + strings.Join(in, ",") + "]"
	case "f16":
		return `[0, -0.0, 0.5, 1.5, 2.5, -2.5, 127.5, 255, 65504, "NaN", "Inf", "-Inf", 0.1, null]`
	case "f32", "f64":
		return `[0, -0.0, 0.5, 1.5, 2.5, -2.5, 127.5, 128, 255.5, 1e10, 1e20, 3.4e38, 65520, 2.675, 0.1, 1e-10, 9.3e18, -9.2e18, 1.8e19, "NaN", "Inf", "-Inf", null]`
	case "decimal(5,2)":
		return `["0", "1.5", "2.5", "-2.5", "-0.01", "999.99", "127.49", "-128.50", "255.5", null]`
	case "decimal(38,0)":
		return `["0", "99999999999999999999999999999999999999", "-9223372036854775808", "18446744073709551615", "-1", "70000", null]`
	case "decimal(20,10)":
		return `["0", "1.0000000001", "-0.5", "9999999999.9999999999", "0.00000000005", null]`
	case "utf8":
		return `["1", " 42 ", "1.5", "abc", "true", "1e3", "-0", "2020-01-01", "12:00:00", "2020-01-01 12:00:00", "NaN", "", "99999999999999999999999", "t", "0.1", null]`
	case "binary":
		return `["aGk=", "/w==", "", "MTI=", null]`
	case "date":
		return `["2020-01-01", "1969-12-31", "1970-01-01", null]`
	case "time(ms)", "time(ns)":
		return `[0, 1500, 86399999, null]`
	case "timestamp(s)", "timestamp(ms, 'UTC')", "timestamp(ns)":
		return `[0, -1, 1999, 86400, -86401, 10000000000, 9223372036854775807, null]`
	case "null":
		return "[null, null]"
	case "list<i32?>":
		return `[[1, null], [], null, [300], [-1]]`
	case "list<i8>":
		return `[[1, 2], [], null, [-128]]`
	case "fixed_size_list<i16?, 2>":
		return `[[1, 2], null, [3, null], [1000, 1]]`
	case "list<utf8?>":
		return `[["1", null], ["x"], [], null]`
	case "struct<a: i32?, b: utf8?>":
		return `[{"a": 1, "b": "2"}, null, {"a": null, "b": null}, {"a": 300, "b": "x"}]`
	case "struct<a: i8, b: f64?>":
		return `[{"a": 1, "b": 2.5}, null, {"a": -1, "b": null}]`
	}
	panic("no values for " + typ)
}

func fkIntFits(v string, p dtype.PType) bool {
	s, err := scalar.ParseNumber(v)
	if err != nil {
		return false
	}
	_, err = scalar.Cast(s, dtype.Primitive(p, false))
	return err == nil
}

// TestCastAgreesWithScalar is the differential test: for every pair of the
// types above that fn.CanCast allows, try_cast and cast of a column agree
// row by row with scalar.TryCast and scalar.Cast, on the column as is and
// sliced.
func TestCastAgreesWithScalar(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pairs := 0
	for _, from := range fkCastTypes {
		for _, to := range fkCastTypes {
			ft, tt := fkType(t, from), fkMustParse(to)
			if !fn.CanCast(ft, tt) {
				continue
			}
			pairs++
			for _, sliced := range []bool{false, true} {
				var x datum.Datum
				if sliced {
					x = fkSliced(t, mem, from, fkCastValues(from))
				} else {
					x = fkArray(t, mem, from, fkCastValues(from))
				}
				fkCheckCastAgrees(t, mem, x, tt, fmt.Sprintf("%s -> %s (sliced %v)", from, to, sliced))
				x.Release()
			}
		}
	}
	t.Logf("%d pairs of types", pairs)
	if pairs < 300 {
		t.Errorf("only %d pairs of types cast", pairs)
	}
}

func fkCheckCastAgrees(t *testing.T, mem memory.Allocator, x datum.Datum, to dtype.DType, name string) {
	t.Helper()
	// try_cast: row by row.
	got, err := fkEval(t, mem, fn.TryCast(to), []datum.Datum{x})
	if err != nil {
		t.Errorf("%s: try_cast: %v", name, err)
		return
	}
	firstFail := -1
	for i := 0; i < x.Len(); i++ {
		s, err := scalar.FromArray(x.Array(), i, x.DType())
		if err != nil {
			t.Fatalf("%s: row %d: %v", name, i, err)
		}
		want, castErr := scalar.Cast(s, to.AsNullable())
		if castErr != nil {
			want = scalar.Null(to)
			if firstFail < 0 && !s.IsNull() {
				firstFail = i
			}
		}
		g, err := scalar.FromArray(got.Array(), i, got.DType())
		if err != nil {
			t.Errorf("%s: result row %d: %v", name, i, err)
			continue
		}
		if !fkSameValue(g.Value(), want.Value()) {
			t.Errorf("%s: row %d (%s): try_cast gave %s, scalar %s", name, i, s, g, want)
		}
	}
	got.Release()
	// cast: the first failing row, or the same values.
	res, err := fkEval(t, mem, fn.Cast(to), []datum.Datum{x})
	var ee *fn.EvalError
	switch {
	case firstFail < 0 && err != nil:
		t.Errorf("%s: cast failed: %v", name, err)
	case firstFail >= 0 && err == nil:
		res.Release()
		t.Errorf("%s: cast did not fail at row %d", name, firstFail)
	case err != nil && (!errors.As(err, &ee) || ee.Row != firstFail || !errors.Is(err, errs.ErrInvalidCast)):
		t.Errorf("%s: cast failed with %v, want row %d", name, err, firstFail)
	case err == nil:
		res.Release()
	}
}

// fkSameValue compares scalar values; NaNs of any payload match.
func fkSameValue(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y))
	case []scalar.Scalar:
		y, ok := b.([]scalar.Scalar)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !fkSameValue(x[i].Value(), y[i].Value()) {
				return false
			}
		}
		return true
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return a == b || string(ja) == string(jb) && a != nil && b != nil
}

// Example_tryCast parses text into integers: cast fails at the first row
// that does not parse, try_cast gives null there.
func Example_tryCast() {
	mem := memory.NewGoAllocator()
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"12", " 7 ", "x", "1e3"}, nil)
	col := datum.FromArray(b.NewArray(), dtype.Utf8(false))
	defer col.Release()
	ctx := &fn.Context{Mem: mem}
	i32 := dtype.Primitive(dtype.I32, false)

	_, err := fn.Cast(i32).Eval(ctx, []datum.Datum{col}, i32)
	fmt.Println(err)
	res, err := fn.TryCast(i32).Eval(ctx, []datum.Datum{col}, i32.AsNullable())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Release()
	fmt.Println(res.Array())
	// Output:
	// cast: row 2: cannot cast 'x' to i32: not a number
	// [12 7 (null) 1000]
}
