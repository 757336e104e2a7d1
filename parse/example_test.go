package parse_test

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/parse"
)

// Parse reads text into a tree; its String is the canonical form.
func ExampleParse() {
	for _, src := range []string{
		"a+1 > b and not c is null",
		"CASE x WHEN 1 THEN 'one' ELSE 'many' END",
		"list_filter(xs, x -> x > a)",
		"-5::i8 * -(5)",
	} {
		e, err := parse.Parse(src)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(e)
	}
	// Output:
	// a + 1 > b AND NOT c IS NULL
	// CASE WHEN x = 1 THEN 'one' ELSE 'many' END
	// list_filter(xs, lambda x: x > a)
	// -5::i8 * -(5)
}

// A syntax error says where it is and what was expected there.
func ExampleError() {
	_, err := parse.Parse("lower(s) # upper(s)")
	fmt.Println(err)
	var pe *parse.Error
	if errors.As(err, &pe) {
		fmt.Println(pe.Line, pe.Column)
	}
	// Output:
	// parse error at 1:10: unexpected character '#'
	//   lower(s) # upper(s)
	//            ^
	// 1 10
}
