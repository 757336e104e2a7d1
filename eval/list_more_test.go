package eval_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/eval"
)

// listSchema is the table of TestListMore: xs with a null list, an empty
// list and null elements; ys beside it; s strings; k indices.
var listSchema = arrow.NewSchema([]arrow.Field{
	{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "ys", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "fs", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
	{Name: "xss", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), Nullable: true},
}, nil)

const listRows = `[
	{"xs": [3, 1, null, 2], "ys": [2, 9],    "s": "héllo", "k": 2,    "fs": [1.5, -0.0, 0.0, 2], "xss": [[1, 2], null, [3]]},
	{"xs": null,            "ys": [1],       "s": null,    "k": -1,   "fs": null,               "xss": null},
	{"xs": [],              "ys": [],        "s": "",      "k": null, "fs": [],                 "xss": []},
	{"xs": [5, 5, 4],       "ys": null,      "s": "abc",   "k": 0,    "fs": [null],             "xss": [null, []]},
	{"xs": [null],          "ys": [null, 7], "s": "xyz",   "k": -3,   "fs": [3, 1],             "xss": [[null]]}
]`

// TestListMore evaluates the list functions of fn/list_more.go over a
// table, with their DuckDB results (checked with bench's duckquery).
func TestListMore(t *testing.T) {
	cases := []struct{ src, want string }{
		{"list_value(k, k + 1)", `[[2,3],[-1,0],[null,null],[0,1],[-3,-2]]`},
		{"list_value(s)", `[["héllo"],[null],[""],["abc"],["xyz"]]`},
		{"list_value(xs, ys)", `[[[3,1,null,2],[2,9]],[null,[1]],[[],[]],[[5,5,4],null],[[null],[null,7]]]`},
		{"list_slice(xs, 2, 3)", `[[1,null],null,[],[5,4],[]]`},
		{"list_slice(xs, k, -1)", `[[1,null,2],null,null,[5,5,4],[null]]`},
		{"list_slice(xs, -2, 10)", `[[null,2],null,[],[5,4],[null]]`},
		{"list_slice(xs, -1, 1, -2)", `[[2,1],null,[],[4,5],[null]]`},
		{"list_slice(xs, 1, -1, 2)", `[[3,null],null,[],[5,4],[null]]`},
		{"list_slice(s, 2, 3)", `["él",null,"","bc","yz"]`},
		{"list_slice(s, k, -1)", `["éllo",null,null,"abc","xyz"]`},
		{"list_element(s, k)", `["é",null,null,"","x"]`},
		{"list_element(s, 9)", `["",null,"","",""]`},
		{"list_sum(xs)", `[6,null,null,14,null]`},
		{"list_avg(xs)", `[2,null,null,4.666666666666667,null]`},
		{"list_min(xs)", `[1,null,null,4,null]`},
		{"list_max(fs)", `[2,null,null,null,3]`},
		{"list_count(xs)", `[3,null,0,3,0]`},
		{"list_aggregate(xs, 'max')", `[3,null,null,5,null]`},
		{"list_sort(xs)", `[[1,2,3,null],null,[],[4,5,5],[null]]`},
		{"list_sort(xs, 'DESC', 'NULLS FIRST')", `[[null,3,2,1],null,[],[5,5,4],[null]]`},
		{"list_reverse_sort(xs)", `[[3,2,1,null],null,[],[5,5,4],[null]]`},
		{"list_reverse(xs)", `[[2,null,1,3],null,[],[4,5,5],[null]]`},
		{"list_distinct(xs)", `[[3,1,2],null,[],[5,4],[]]`},
		{"list_distinct(fs)", `[[1.5,-0,2],null,[],[],[3,1]]`},
		{"list_has_any(xs, ys)", `[true,null,false,null,false]`},
		{"list_has_all(xs, ys)", `[false,null,true,null,false]`},
		{"list_position(xs, 2)", `[4,null,null,null,null]`},
		{"list_position(xs, CAST(NULL AS i32))", `[3,null,null,null,1]`},
		{"list_concat(xs, ys)", `[[3,1,null,2,2,9],[1],[],[5,5,4],[null,null,7]]`},
		{"xs || ys", `[[3,1,null,2,2,9],null,[],null,[null,null,7]]`},
		{"xs || ys || xs", `[[3,1,null,2,2,9,3,1,null,2],null,[],null,[null,null,7,null]]`},
		{"flatten(xss)", `[[1,2,3],null,[],[],[null]]`},
		{"list_transform(xs, lambda x, i: x + CAST(i AS i32))", `[[4,3,null,6],null,[],[6,7,7],[null]]`},
		{"list_filter(xs, lambda x, i: i % 2 = 1)", `[[3,null],null,[],[5,4],[null]]`},
		{"CASE WHEN len(ys) > 0 THEN list_reduce(ys, lambda acc, x: acc + x) END", `[11,1,null,null,null]`},
		{"list_reduce(xs, lambda acc, x: coalesce(acc, 0) + coalesce(x, 100), k)", `[108,null,null,14,97]`},
		{"list_reduce(ys, lambda acc, x, i: acc * 10 + i, CAST(0 AS i64))", `[12,1,0,null,12]`},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := record(mem, listSchema, listRows)
			defer rec.Release()
			out, err := eval.EvalRecord(mem, compile(c.src, listSchema), rec)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			got, _ := json.Marshal(out)
			if !jsonEqual(string(got), c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// TestListMoreErrors: the errors DuckDB raises too.
func TestListMoreErrors(t *testing.T) {
	cases := []struct {
		src      string
		sentinel error
		msg      string
	}{
		{"list_reduce(xs, lambda acc, x: acc + x)", errs.ErrInvalidArgument, "empty list"},
		{"list_element(s, 4294967296)", errs.ErrInvalidArgument, "outside the supported range"},
		{"list_sum(list_value(CAST(9223372036854775807 AS i64), CAST(k AS i64)))", errs.ErrOverflow, "exceeds i64"},
		{"list_sort(xs, 'UP')", errs.ErrInvalidArgument, "want 'ASC' or 'DESC'"},
		{"list_slice(xs, 1, 2, k - k)", errs.ErrInvalidArgument, "step is 0"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := record(mem, listSchema, listRows)
			defer rec.Release()
			out, err := eval.EvalRecord(mem, compile(c.src, listSchema), rec)
			if err == nil {
				out.Release()
				t.Fatal("no error")
			}
			if !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v, want %v with %q", err, c.sentinel, c.msg)
			}
		})
	}
}
