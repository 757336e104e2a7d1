package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
)

// TestStringCodec: the expected values and errors are DuckDB's
// (bench/cmd/duckquery).
func TestStringCodec(t *testing.T) {
	col, lit := fkCol, fkLit
	fkRun(t, []fkCase{
		{name: "levenshtein", f: fn.Levenshtein, args: []fkArg{col("utf8", `["kitten", "é", null]`), lit("utf8", `"sitting"`)}, want: "[3, 7, null]"},
		{name: "bit_length", f: fn.BitLength, args: []fkArg{col("utf8", `["abc", "日", ""]`)}, want: "[24, 24, 0]"},
		{name: "translate", f: fn.Translate, args: []fkArg{col("utf8", `["hello", null]`), lit("utf8", `"el"`), lit("utf8", `"ip"`)}, want: `["hippo", null]`},
		{name: "md5", f: fn.MD5, args: []fkArg{col("utf8", `["abc"]`)}, want: `["900150983cd24fb0d6963f7d28e17f72"]`},
		{name: "md5 binary", f: fn.MD5, args: []fkArg{col("binary", `["qg=="]`)}, want: `["9fe0f7244a7da1d3f5b3d21f9b1e1ea8"]`},
		{name: "to_base64", f: fn.ToBase64, args: []fkArg{col("binary", `["/wA=", null]`)}, want: `["/wA=", null]`},
		{name: "from_base64", f: fn.FromBase64, args: []fkArg{col("utf8", `["YWJj", "YW=j"]`)}, want: `["YWJj", "YQ=="]`},
		{name: "from_base64 length", f: fn.FromBase64, args: []fkArg{col("utf8", `["YQ==", "abc"]`)}, err: errs.ErrInvalidArgument, row: 1},
	})
}
