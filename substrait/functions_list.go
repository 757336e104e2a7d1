package substrait

import (
	"fmt"

	"github.com/substrait-io/substrait-go/v8/extensions"
	"github.com/substrait-io/substrait-go/v8/types"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The list functions of fn/list_more.go that Substrait's functions_list
// has: sort, which list_sort(xs) (ASC_NULLS_LAST) and list_reverse_sort(xs)
// (DESC_NULLS_LAST) export to; list_sort with order arguments has no form
// (Substrait's direction is an option, colexpr's an argument). An imported
// sort of any direction becomes list_sort with the order arguments it
// needs. The other list functions are refused, with the reason.
func init() {
	exports[fn.IDListSort] = func(string, []dtype.DType) target {
		return target{urnList, "sort", []*types.FunctionOption{option("direction", "ASC_NULLS_LAST")}}
	}
	exports[fn.IDListReverseSort] = func(string, []dtype.DType) target {
		return target{urnList, "sort", []*types.FunctionOption{option("direction", "DESC_NULLS_LAST")}}
	}
	for why, ids := range map[string][]string{
		"Substrait's standard extensions have no such list function": {fn.IDListValue, fn.IDListSlice, fn.IDListSum,
			fn.IDListAvg, fn.IDListMin, fn.IDListMax, fn.IDListCount, fn.IDListAggregate, fn.IDListReverse, fn.IDListDistinct,
			fn.IDListHasAny, fn.IDListHasAll, fn.IDListPosition, fn.IDListConcat, fn.IDFlatten, fn.IDListReduce},
	} {
		for _, id := range ids {
			refusals[id] = why
		}
	}
	imports[extensions.ID{URN: urnList, Name: "sort"}] = importSpec{
		allowed: allow(map[string][]string{"direction": {"ASC_NULLS_LAST", "DESC_NULLS_LAST", "ASC_NULLS_FIRST", "DESC_NULLS_FIRST"}}),
		build: func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("sort takes 1 argument, got %d", len(args))
			}
			text := func(s string) *expr.Bound { return expr.NewLiteral(scalar.String(s)) }
			switch chosen["direction"] {
			case "DESC_NULLS_LAST":
				return expr.NewCall(fn.ListReverseSort, args[0])
			case "ASC_NULLS_FIRST":
				return expr.NewCall(fn.ListSort, args[0], text("ASC"), text("NULLS FIRST"))
			case "DESC_NULLS_FIRST":
				return expr.NewCall(fn.ListSort, args[0], text("DESC"), text("NULLS FIRST"))
			}
			return expr.NewCall(fn.ListSort, args[0])
		},
	}
}
