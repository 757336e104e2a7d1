package kernels

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

func likeEscapedCall(esc int, negated, fold bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return LikeEscaped(mem, a[0], a[1], negated, fold, esc, ret)
	}
}

// TestLikeEscaped checks LIKE … ESCAPE with another escape character and
// with none (DuckDB's ESCAPE ”), against DuckDB 1.5's answers.
func TestLikeEscaped(t *testing.T) {
	words := col(strN, `["a%b", "axb", "a\\b", "a!b", null, "ab"]`)
	runCases(t, []kernelCase{
		{name: "bang", args: []in{words, pat("a!%b")}, ret: boolN, want: `[true, false, false, false, null, false]`},
		{name: "bang escapes itself", args: []in{words, pat("a!!b")}, ret: boolN, want: `[false, false, false, true, null, false]`},
		{name: "backslash is plain", args: []in{words, pat(`a\b`)}, ret: boolN, want: `[false, false, true, false, null, false]`},
		{name: "escaped letter", args: []in{words, pat("a!b")}, ret: boolN, want: `[false, false, false, false, null, true]`},
		{name: "per row", args: []in{col(str, `["a%b", "a_b"]`), col(str, `["a!%b", "a!%b"]`)}, ret: boolNN, want: `[true, false]`},
		{name: "lone escape", args: []in{words, pat("a!")}, ret: boolN, errText: "ends with the escape character '!'"},
	}, likeEscapedCall('!', false, false))
	runCases(t, []kernelCase{
		{name: "no escape", args: []in{words, pat(`a\b`)}, ret: boolN, want: `[false, false, true, false, null, false]`},
		{name: "percent stays a wildcard", args: []in{words, pat(`a\%`)}, ret: boolN, want: `[false, false, true, false, null, false]`},
	}, likeEscapedCall(NoLikeEscape, false, false))
	runCases(t, []kernelCase{
		{name: "ilike", args: []in{col(str, `["aB", "a%B"]`), pat("a!%b")}, ret: boolNN, want: `[false, true]`},
	}, likeEscapedCall('!', false, true))
	runCases(t, []kernelCase{
		{name: "not like", args: []in{col(str, `["a%b", "ab"]`), pat("a!%b")}, ret: boolNN, want: `[false, true]`},
	}, likeEscapedCall('!', true, false))
}
