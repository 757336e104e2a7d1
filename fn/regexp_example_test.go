package fn_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// regexp_count counts the matches regexp_replace's 'g' would replace;
// regexp_split_to_array gives the parts between them (an empty match right
// after a match splits nothing off).
func Example_regexpCountSplit() {
	ctx := &fn.Context{Mem: memory.NewGoAllocator()}
	for _, c := range [][2]string{{"abc123abc", "[bc]"}, {"abc", "b*"}, {"a1b22c", `\d+`}} {
		args := []datum.Datum{datum.FromScalar(scalar.String(c[0]), 1), datum.FromScalar(scalar.String(c[1]), 1)}
		n, err := fn.RegexpCount.(fn.Kernel).Eval(ctx, args, dtype.Primitive(dtype.I64, false))
		if err != nil {
			fmt.Println(err)
			return
		}
		parts, err := fn.RegexpSplit.(fn.Kernel).Eval(ctx, args, dtype.List(dtype.Utf8(false), false))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s at %s: %d matches, parts %s\n", c[0], c[1], n.Scalar().Value(), parts.Scalar().SQL())
	}
	// Output:
	// abc123abc at [bc]: 4 matches, parts ['a', '', '123a', '', '']
	// abc at b*: 3 matches, parts ['a', 'c']
	// a1b22c at \d+: 2 matches, parts ['a', 'b', 'c']
}
