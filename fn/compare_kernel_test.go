package fn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

func TestCompareKernels(t *testing.T) {
	col, lit := fkCol, fkLit
	var cases []fkCase
	// Every integer width, both signs where they exist, against a column
	// and a literal on either side.
	for _, typ := range []string{"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"} {
		a, b := "[1, 2, 3, null, 0]", "[2, 2, 1, 1, null]"
		cases = append(cases,
			fkCase{name: typ + " eq", f: fn.Eq, args: []fkArg{col(typ, a), col(typ, b)}, want: "[false, true, false, null, null]"},
			fkCase{name: typ + " neq", f: fn.NotEq, args: []fkArg{col(typ, a), col(typ, b)}, want: "[true, false, true, null, null]"},
			fkCase{name: typ + " lt", f: fn.Lt, args: []fkArg{col(typ, a), col(typ, b)}, want: "[true, false, false, null, null]"},
			fkCase{name: typ + " lte", f: fn.LtEq, args: []fkArg{col(typ, a), col(typ, b)}, want: "[true, true, false, null, null]"},
			fkCase{name: typ + " gt", f: fn.Gt, args: []fkArg{col(typ, a), col(typ, b)}, want: "[false, false, true, null, null]"},
			fkCase{name: typ + " gte", f: fn.GtEq, args: []fkArg{col(typ, a), col(typ, b)}, want: "[false, true, true, null, null]"},
			fkCase{name: typ + " gt literal", f: fn.Gt, args: []fkArg{col(typ, a), lit(typ, "1")}, want: "[false, true, true, null, false]"},
			fkCase{name: typ + " literal gt", f: fn.Gt, args: []fkArg{lit(typ, "1"), col(typ, a)}, want: "[false, false, false, null, true]"},
			fkCase{name: typ + " literal lte", f: fn.LtEq, args: []fkArg{lit(typ, "2"), col(typ, a)}, want: "[false, true, true, null, false]"},
			fkCase{name: typ + " literal eq", f: fn.Eq, args: []fkArg{lit(typ, "2"), col(typ, a)}, want: "[false, true, false, null, false]"},
			fkCase{name: typ + " literal neq", f: fn.NotEq, args: []fkArg{col(typ, a), lit(typ, "2")}, want: "[true, false, true, null, true]"},
			fkCase{name: typ + " null literal", f: fn.Lt, args: []fkArg{col(typ, a), lit(typ, "null")}, want: "[null, null, null, null, null]"},
			fkCase{name: typ + " literals", f: fn.GtEq, args: []fkArg{lit(typ, "3"), lit(typ, "2")}, want: "[true, true]"},
		)
	}
	cases = append(cases, []fkCase{
		{name: "i64 extremes", f: fn.Lt, args: []fkArg{col("i64", "[-9223372036854775808, 9223372036854775807, -1]"), col("i64", "[9223372036854775807, -9223372036854775808, 0]")}, want: "[true, false, true]"},
		{name: "u64 extremes", f: fn.Gt, args: []fkArg{col("u64", "[18446744073709551615, 0]"), lit("u64", "9223372036854775808")}, want: "[true, false]"},
		{name: "empty", f: fn.Eq, args: []fkArg{col("i32", "[]"), col("i32", "[]")}, want: "[]"},
		{name: "f64 NaN", f: fn.Eq, args: []fkArg{col("f64", `["NaN", "NaN", 1, -0.0]`), col("f64", `["NaN", 1, "NaN", 0]`)}, want: "[false, false, false, true]"},
		{name: "f64 NaN neq", f: fn.NotEq, args: []fkArg{col("f64", `["NaN", "NaN", 1, -0.0]`), col("f64", `["NaN", 1, "NaN", 0]`)}, want: "[true, true, true, false]"},
		{name: "f64 NaN ordered", f: fn.Lt, args: []fkArg{col("f64", `["NaN", 1, "-Inf"]`), col("f64", `[1, "NaN", "Inf"]`)}, want: "[false, false, true]"},
		{name: "f64 NaN gte", f: fn.GtEq, args: []fkArg{col("f64", `["NaN", 1, "Inf"]`), lit("f64", `"NaN"`)}, want: "[false, false, false]"},
		{name: "f32 literal NaN neq", f: fn.NotEq, args: []fkArg{lit("f32", `"NaN"`), col("f32", `["NaN", 1]`)}, want: "[true, true]"},
		{name: "f32 inf", f: fn.LtEq, args: []fkArg{col("f32", `["Inf", "-Inf", 3.5]`), lit("f32", `"Inf"`)}, want: "[true, true, true]"},
		{name: "f16", f: fn.Lt, args: []fkArg{col("f16", `[1.5, null, 65504, "NaN"]`), col("f16", `[2, 1, "Inf", 0]`)}, want: "[true, null, true, false]"},
		{name: "f16 literal", f: fn.Eq, args: []fkArg{col("f16", `[0.1, -0.0, 2]`), lit("f16", `0.1`)}, want: "[true, false, false]"},
		{name: "bool", f: fn.Lt, args: []fkArg{col("bool", "[false, false, true, true, null]"), col("bool", "[false, true, false, true, true]")}, want: "[false, true, false, false, null]"},
		{name: "bool eq", f: fn.Eq, args: []fkArg{col("bool", "[false, false, true, true]"), col("bool", "[false, true, false, true]")}, want: "[true, false, false, true]"},
		{name: "bool gte literal", f: fn.GtEq, args: []fkArg{col("bool", "[false, true, null]"), lit("bool", "true")}, want: "[false, true, null]"},
		{name: "bool literal gt", f: fn.Gt, args: []fkArg{lit("bool", "true"), col("bool", "[false, true]")}, want: "[true, false]"},
		{name: "bool neq literals", f: fn.NotEq, args: []fkArg{lit("bool", "true"), lit("bool", "false")}, want: "[true, true]"},
		{name: "decimal", f: fn.Lt, args: []fkArg{col("decimal(38,2)", `["-99999999999999999999999999999999999.99", "1.00", null, "0.01"]`), col("decimal(38,2)", `["1", "1", "1", "-0.01"]`)}, want: "[true, false, null, false]"},
		{name: "decimal eq literal", f: fn.Eq, args: []fkArg{col("decimal(5,2)", `["1.5", "1.25", null]`), lit("decimal(5,2)", `"1.50"`)}, want: "[true, false, null]"},
		{name: "decimal literals", f: fn.GtEq, args: []fkArg{lit("decimal(5,2)", `"1.5"`), lit("decimal(5,2)", `"-1.25"`)}, want: "[true, true]"},
		{name: "utf8", f: fn.Lt, args: []fkArg{col("utf8", `["a", "ab", "b", null, "", "é"]`), col("utf8", `["ab", "a", "b", "x", "a", "z"]`)}, want: "[true, false, false, null, true, false]"},
		{name: "utf8 eq literal", f: fn.Eq, args: []fkArg{col("utf8", `["abc", "ab", null, ""]`), lit("utf8", `"abc"`)}, want: "[true, false, null, false]"},
		{name: "utf8 literal gte", f: fn.GtEq, args: []fkArg{lit("utf8", `"m"`), col("utf8", `["a", "m", "z"]`)}, want: "[true, true, false]"},
		{name: "utf8 literals", f: fn.NotEq, args: []fkArg{lit("utf8", `"m"`), lit("utf8", `"m"`)}, want: "[false, false]"},
		{name: "binary", f: fn.Gt, args: []fkArg{col("binary", `["AP8=", "AA==", ""]`), col("binary", `["AA==", "AP8=", ""]`)}, want: "[true, false, false]"},
		{name: "date", f: fn.Lt, args: []fkArg{col("date", `["2020-01-01", "1969-12-31", null]`), lit("date", `"2000-01-01"`)}, want: "[false, true, null]"},
		{name: "time", f: fn.GtEq, args: []fkArg{col("time(ms)", `[1000, 86399999]`), col("time(ms)", `[1000, 0]`)}, want: "[true, true]"},
		{name: "timestamp", f: fn.Eq, args: []fkArg{col("timestamp(us, 'UTC')", `[1, 2, null]`), lit("timestamp(us, 'UTC')", `2`)}, want: "[false, true, null]"},
		{name: "struct eq", f: fn.Eq, args: []fkArg{
			col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "x"}, {"a": null, "b": "x"}, {"a": null, "b": "x"}, null, {"a": 2, "b": "y"}]`),
			col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "x"}, {"a": null, "b": "x"}, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}, {"a": 2, "b": "z"}]`)},
			want: "[true, true, false, null, false]"},
		{name: "struct neq literal", f: fn.NotEq, args: []fkArg{
			col("struct<a: i32?, b: utf8?>", `[{"a": 1, "b": "x"}, {"a": 2, "b": null}, null]`),
			lit("struct<a: i32?, b: utf8?>", `{"a": 2, "b": null}`)},
			want: "[true, false, null]"},
		{name: "list eq", f: fn.Eq, args: []fkArg{
			col("list<i64?>", `[[1, 2], [1, null], [1, null], [], [1], null, [1, 2]]`),
			col("list<i64?>", `[[1, 2], [1, null], [1, 2], [], [1, 1], [1], [2, 1]]`)},
			want: "[true, true, false, true, false, null, false]"},
		{name: "list of f64 NaN", f: fn.Eq, args: []fkArg{
			col("list<f64?>", `[["NaN"], [0], [1]]`), lit("list<f64?>", `["NaN"]`)},
			want: "[true, false, false]"},
		{name: "list literal neq", f: fn.NotEq, args: []fkArg{
			lit("list<utf8?>", `["a", null]`), col("list<utf8?>", `[["a", null], ["a"], null]`)},
			want: "[false, true, null]"},
		{name: "nested list literals", f: fn.Eq, args: []fkArg{
			lit("list<list<i32?>?>", `[[1], null]`), lit("list<list<i32?>?>", `[[1], null]`)},
			want: "[true, true]"},
		{name: "fixed size list eq", f: fn.Eq, args: []fkArg{
			col("fixed_size_list<i16?, 2>", `[[1, 2], [3, null], null]`), col("fixed_size_list<i16?, 2>", `[[1, 2], [3, null], [1, 1]]`)},
			want: "[true, true, null]"},
		{name: "struct of list", f: fn.Eq, args: []fkArg{
			col("struct<l: list<i8?>?>", `[{"l": [1]}, {"l": null}, {"l": [2]}]`), col("struct<l: list<i8?>?>", `[{"l": [1]}, {"l": null}, {"l": null}]`)},
			want: "[true, true, false]"},
	}...)
	fkRun(t, cases)
}

func TestDistinctKernels(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "i32", f: fn.IsDistinctFrom, args: []fkArg{col("i32", "[1, 1, null, null, 2]"), col("i32", "[1, 2, null, 1, null]")}, want: "[false, true, false, true, true]"},
		{name: "i32 not", f: fn.IsNotDistinctFrom, args: []fkArg{col("i32", "[1, 1, null, null, 2]"), col("i32", "[1, 2, null, 1, null]")}, want: "[true, false, true, false, false]"},
		{name: "null literal", f: fn.IsDistinctFrom, args: []fkArg{col("i64", "[1, null]"), lit("i64", "null")}, want: "[true, false]"},
		{name: "literal", f: fn.IsNotDistinctFrom, args: []fkArg{lit("i64", "1"), col("i64", "[1, null, 2]")}, want: "[true, false, false]"},
		{name: "null literals", f: fn.IsNotDistinctFrom, args: []fkArg{lit("u8", "null"), lit("u8", "null")}, want: "[true, true]"},
		{name: "literals", f: fn.IsDistinctFrom, args: []fkArg{lit("u8", "null"), lit("u8", "3")}, want: "[true, true]"},
		{name: "f64 NaN is not distinct from NaN", f: fn.IsNotDistinctFrom, args: []fkArg{col("f64", `["NaN", "NaN", -0.0, 1, null]`), col("f64", `["NaN", 1, 0, 1, "NaN"]`)}, want: "[true, false, true, true, false]"},
		{name: "f64 NaN literal", f: fn.IsDistinctFrom, args: []fkArg{col("f64", `["NaN", 1, null]`), lit("f64", `"NaN"`)}, want: "[false, true, true]"},
		{name: "f16 NaN", f: fn.IsNotDistinctFrom, args: []fkArg{col("f16", `["NaN", 1]`), col("f16", `["NaN", "NaN"]`)}, want: "[true, false]"},
		{name: "bool", f: fn.IsDistinctFrom, args: []fkArg{col("bool", "[true, null, false]"), col("bool", "[true, true, null]")}, want: "[false, true, true]"},
		{name: "utf8", f: fn.IsNotDistinctFrom, args: []fkArg{col("utf8", `["a", null, "b"]`), lit("utf8", `"a"`)}, want: "[true, false, false]"},
		{name: "decimal", f: fn.IsDistinctFrom, args: []fkArg{col("decimal(4,2)", `["1.5", null]`), col("decimal(4,2)", `["1.50", null]`)}, want: "[false, false]"},
		{name: "list", f: fn.IsNotDistinctFrom, args: []fkArg{col("list<i32?>", `[[1, null], null, [1]]`), col("list<i32?>", `[[1, null], null, null]`)}, want: "[true, true, false]"},
		{name: "empty", f: fn.IsDistinctFrom, args: []fkArg{col("i8", "[]"), col("i8", "[]")}, want: "[]"},
	})
}

func TestBetweenKernel(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "i32", f: fn.Between, args: []fkArg{col("i32", "[0, 1, 5, 10, 11, null]"), lit("i32", "1"), lit("i32", "10")}, want: "[false, true, true, true, false, null]"},
		{name: "columns", f: fn.Between, args: []fkArg{col("i64", "[5, 5, 5, 5]"), col("i64", "[1, 6, null, null]"), col("i64", "[9, 9, 4, 9]")}, want: "[true, false, false, null]"},
		{name: "null low bound", f: fn.Between, args: []fkArg{col("i32", "[5, 2]"), lit("i32", "null"), lit("i32", "3")}, want: "[false, null]"},
		{name: "null high bound", f: fn.Between, args: []fkArg{col("i32", "[0, 2]"), lit("i32", "1"), lit("i32", "null")}, want: "[false, null]"},
		{name: "null bounds", f: fn.Between, args: []fkArg{col("i32", "[0, 2]"), lit("i32", "null"), lit("i32", "null")}, want: "[null, null]"},
		{name: "literal x", f: fn.Between, args: []fkArg{lit("f64", "2.5"), col("f64", `[1, 3, "NaN", null]`), lit("f64", "3")}, want: "[true, false, false, null]"},
		{name: "f64 NaN", f: fn.Between, args: []fkArg{col("f64", `["NaN", 2]`), lit("f64", `"-Inf"`), lit("f64", `"Inf"`)}, want: "[false, true]"},
		{name: "utf8", f: fn.Between, args: []fkArg{col("utf8", `["apple", "kiwi", "zebra"]`), lit("utf8", `"b"`), lit("utf8", `"l"`)}, want: "[false, true, false]"},
		{name: "date", f: fn.Between, args: []fkArg{col("date", `["1995-01-01", "1996-06-30"]`), lit("date", `"1995-01-01"`), lit("date", `"1995-12-31"`)}, want: "[true, false]"},
		{name: "decimal", f: fn.Between, args: []fkArg{col("decimal(5,2)", `["0.05", "0.07", null]`), lit("decimal(5,2)", `"0.05"`), lit("decimal(5,2)", `"0.06"`)}, want: "[true, false, null]"},
		{name: "bool", f: fn.Between, args: []fkArg{col("bool", "[false, true]"), lit("bool", "true"), lit("bool", "true")}, want: "[false, true]"},
		{name: "literals", f: fn.Between, args: []fkArg{lit("u16", "5"), lit("u16", "null"), lit("u16", "4")}, want: "[false, false]"},
		{name: "empty", f: fn.Between, args: []fkArg{col("u16", "[]"), lit("u16", "1"), lit("u16", "4")}, want: "[]"},
		// Two literals next to a column: their comparison holds on every row.
		{name: "literal x and low, utf8", f: fn.Between, args: []fkArg{lit("utf8", `"k"`), lit("utf8", `"a"`), col("utf8", `["a", "z", null]`)}, want: "[false, true, null]"},
		{name: "literal x and low, decimal", f: fn.Between, args: []fkArg{lit("decimal(5,2)", `"1.5"`), lit("decimal(5,2)", `"1"`), col("decimal(5,2)", `["1", "2", null]`)}, want: "[false, true, null]"},
	})
}

func TestInListKernel(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "i32", f: fn.InList, args: []fkArg{col("i32", "[1, 2, 3, null]"), lit("i32", "1"), lit("i32", "3")}, want: "[true, false, true, null]"},
		{name: "null in list", f: fn.InList, args: []fkArg{col("i32", "[1, 2, null]"), lit("i32", "1"), lit("i32", "null")}, want: "[true, null, null]"},
		{name: "column values", f: fn.InList, args: []fkArg{col("i64", "[1, 2, 3, 4]"), col("i64", "[1, null, 0, 0]"), col("i64", "[0, 0, 3, null]")}, want: "[true, null, true, null]"},
		{name: "literal x", f: fn.InList, args: []fkArg{lit("i64", "2"), col("i64", "[2, 1, null]")}, want: "[true, false, null]"},
		{name: "literals", f: fn.InList, args: []fkArg{lit("i64", "2"), lit("i64", "3"), lit("i64", "null")}, want: "[null, null]"},
		{name: "literals found", f: fn.InList, args: []fkArg{lit("i64", "2"), lit("i64", "2"), lit("i64", "null")}, want: "[true, true]"},
		{name: "f64 NaN is not in", f: fn.InList, args: []fkArg{col("f64", `["NaN", 1]`), lit("f64", `"NaN"`), lit("f64", "1")}, want: "[false, true]"},
		{name: "utf8", f: fn.InList, args: []fkArg{col("utf8", `["MAIL", "SHIP", "AIR", null]`), lit("utf8", `"MAIL"`), lit("utf8", `"SHIP"`)}, want: "[true, true, false, null]"},
		{name: "struct", f: fn.InList, args: []fkArg{col("struct<a: i32?>", `[{"a": 1}, {"a": null}, {"a": 3}]`), lit("struct<a: i32?>", `{"a": null}`), lit("struct<a: i32?>", `{"a": 1}`)}, want: "[true, true, false]"},
		{name: "bool", f: fn.InList, args: []fkArg{col("bool", "[true, false]"), lit("bool", "false")}, want: "[false, true]"},
		{name: "empty", f: fn.InList, args: []fkArg{col("bool", "[]"), lit("bool", "false")}, want: "[]"},
		// A literal x against a literal and a column.
		{name: "literal x, decimal", f: fn.InList, args: []fkArg{lit("decimal(9,2)", `"-9999999.99"`), lit("decimal(9,2)", `"-9999999.99"`), col("decimal(9,2)", `["1", null]`)}, want: "[true, true]"},
		{name: "literal x, utf8", f: fn.InList, args: []fkArg{lit("utf8", `"b"`), lit("utf8", `"a"`), col("utf8", `["b", "c", null]`)}, want: "[true, false, null]"},
		{name: "literal x, list", f: fn.InList, args: []fkArg{lit("list<i32?>", `[1]`), lit("list<i32?>", `[1]`), col("list<i32?>", `[[2], null]`)}, want: "[true, true]"},
		{name: "literal x, f16", f: fn.InList, args: []fkArg{lit("f16", `1.5`), lit("f16", `1.5`), col("f16", `[2, null]`)}, want: "[true, true]"},
	})
}

// TestCompareOracle checks every comparison against a row-at-a-time
// reference on random columns that cross word boundaries, with nulls,
// slices and literals.
func TestCompareOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	types := []string{"i8", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "utf8", "decimal(10,3)", "bool", "date", "timestamp(ns)"}
	fns := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom}
	for _, typ := range types {
		for trial := 0; trial < 3; trial++ {
			n := 1 + rng.IntN(300)
			a, b := fkRandomColumn(rng, typ, n), fkRandomColumn(rng, typ, n)
			for _, f := range fns {
				want := fkOracleCompare(t, f, typ, a, b)
				fkRun(t, []fkCase{{name: fmt.Sprintf("%s %s %d", typ, f.ID(), trial), f: f, args: []fkArg{fkCol(typ, a), fkCol(typ, b)}, want: want}})
				// Against the first valid value of b as a literal.
				es := fkElems(t, b)
				for _, e := range es {
					if string(e) == "null" {
						continue
					}
					bs := strings.TrimSuffix(strings.Repeat(string(e)+",", n), ",")
					want := fkOracleCompare(t, f, typ, a, "["+bs+"]")
					fkRun(t, []fkCase{{name: fmt.Sprintf("%s %s literal %d", typ, f.ID(), trial), f: f, args: []fkArg{fkCol(typ, a), fkLit(typ, string(e))}, want: want}})
					break
				}
			}
		}
	}
}

// fkRandomColumn is a JSON column of n random values of typ, a fifth of
// them null, drawn from a small domain so that equal values are common.
func fkRandomColumn(rng *rand.Rand, typ string, n int) string {
	vals := make([]string, n)
	for i := range vals {
		if rng.IntN(5) == 0 {
			vals[i] = "null"
			continue
		}
		k := rng.IntN(7)
		switch typ {
		case "f32", "f64":
			vals[i] = []string{`"NaN"`, "-0.0", "0", "1.5", `"Inf"`, `"-Inf"`, "-2"}[k]
		case "utf8":
			vals[i] = []string{`""`, `"a"`, `"ab"`, `"b"`, `"ß"`, `"a\u0000"`, `"B"`}[k]
		case "decimal(10,3)":
			vals[i] = fmt.Sprintf(`"%d.%03d"`, k-3, rng.IntN(2)*500)
		case "bool":
			vals[i] = fmt.Sprint(k%2 == 0)
		case "u16", "u32", "u64":
			vals[i] = fmt.Sprint(k * 1000)
		default:
			vals[i] = fmt.Sprint((k - 3) * 30)
		}
	}
	return "[" + strings.Join(vals, ",") + "]"
}

// fkOracleCompare computes f over two JSON columns row by row from their
// scalar values.
func fkOracleCompare(t *testing.T, f fn.Function, typ, a, b string) string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	x, y := fkArray(t, mem, typ, a), fkArray(t, mem, typ, b)
	defer x.Release()
	defer y.Release()
	out := make([]string, x.Len())
	for i := range out {
		sx, err1 := scalar.FromArray(x.Array(), i, x.DType())
		sy, err2 := scalar.FromArray(y.Array(), i, y.DType())
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		switch f.ID() {
		case "is_distinct_from", "is_not_distinct_from":
			same := sx.IsNull() && sy.IsNull()
			if !sx.IsNull() && !sy.IsNull() {
				c, unordered := fkCmp(sx.Value(), sy.Value())
				same = c == 0 && !unordered || fkIsNaN(sx.Value()) && fkIsNaN(sy.Value())
			}
			out[i] = fmt.Sprint(same == (f.ID() == "is_not_distinct_from"))
			continue
		}
		if sx.IsNull() || sy.IsNull() {
			out[i] = "null"
			continue
		}
		c, unordered := fkCmp(sx.Value(), sy.Value())
		var v bool
		switch f.ID() {
		case "eq":
			v = c == 0 && !unordered
		case "neq":
			v = c != 0 || unordered
		case "lt":
			v = c < 0 && !unordered
		case "lte":
			v = c <= 0 && !unordered
		case "gt":
			v = c > 0 && !unordered
		case "gte":
			v = c >= 0 && !unordered
		}
		out[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(out, ",") + "]"
}

func fkIsNaN(v any) bool { f, ok := v.(float64); return ok && math.IsNaN(f) }

// fkCmp compares two scalar Go values; unordered is true when a NaN is
// involved.
func fkCmp(x, y any) (c int, unordered bool) {
	switch a := x.(type) {
	case int64:
		return fkCmp3(a, y.(int64)), false
	case uint64:
		return fkCmp3(a, y.(uint64)), false
	case float64:
		b := y.(float64)
		if math.IsNaN(a) || math.IsNaN(b) {
			return 0, true
		}
		return fkCmp3(a, b), false
	case string:
		return strings.Compare(a, y.(string)), false
	case bool:
		b := y.(bool)
		switch {
		case a == b:
			return 0, false
		case !a:
			return -1, false
		}
		return 1, false
	}
	return x.(decimal128.Num).Cmp(y.(decimal128.Num)), false
}

func fkCmp3[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestCompareMisuse: comparing incompatible arrays gives an error.
func TestCompareMisuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	l := fkArray(t, mem, "list<i32?>", "[[1]]")
	defer l.Release()
	k := fn.Lt.(fn.Kernel)
	if _, err := k.Eval(&fn.Context{Mem: mem}, []datum.Datum{l, l}, dtype.Bool(true)); err == nil {
		t.Error("ordering lists: no error")
	}
}
