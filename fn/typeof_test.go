package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/fn"
)

// TestTypeOfAndListUnique: typeof prints colexpr's type names, the same on
// every row, null rows included; list_unique counts as DuckDB does.
func TestTypeOfAndListUnique(t *testing.T) {
	col := fkCol
	fkRun(t, []fkCase{
		{name: "typeof i32", f: fn.TypeOf, args: []fkArg{col("i32", "[1, null]")}, want: `["i32", "i32"]`},
		{name: "typeof list", f: fn.TypeOf, args: []fkArg{col("list<decimal(9,2)>", `[null]`)}, want: `["list<decimal(9,2)>"]`},
		{name: "typeof timestamp", f: fn.TypeOf, args: []fkArg{col("timestamp(ms, UTC)", `[null]`)}, want: `["timestamp(ms, 'UTC')"]`},
		{name: "list_unique", f: fn.ListUnique, args: []fkArg{col("list<utf8>", `[["a", "b", "a", null], [], null]`)}, want: "[2, 0, null]"},
	})
}
