package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/fn"
)

// TestTypeOfAndListUnique: typeof prints colexpr's type names, the same on
// every row, null rows included; list_unique counts and array_to_string
// and list_string_agg join as DuckDB does.
func TestTypeOfAndListUnique(t *testing.T) {
	col := fkCol
	fkRun(t, []fkCase{
		{name: "typeof i32", f: fn.TypeOf, args: []fkArg{col("i32", "[1, null]")}, want: `["i32", "i32"]`},
		{name: "typeof list", f: fn.TypeOf, args: []fkArg{col("list<decimal(9,2)>", `[null]`)}, want: `["list<decimal(9,2)>"]`},
		{name: "typeof timestamp", f: fn.TypeOf, args: []fkArg{col("timestamp(ms, UTC)", `[null]`)}, want: `["timestamp(ms, 'UTC')"]`},
		{name: "array_to_string", f: fn.ArrayToString, args: []fkArg{col("list<i32>", `[[1, 2, null], [], [null], null]`), fkLit("utf8", `"-"`)}, want: `["1-2", "", null, null]`},
		{name: "list_string_agg", f: fn.ListStringAgg, args: []fkArg{col("list<f64>", `[[1.5, 2], []]`)}, want: `["1.5,2.0", null]`},
		{name: "list_unique", f: fn.ListUnique, args: []fkArg{col("list<utf8>", `[["a", "b", "a", null], [], null]`)}, want: "[2, 0, null]"},
	})
}
