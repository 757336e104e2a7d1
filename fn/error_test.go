package fn_test

import (
	"testing"

	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
)

// TestRaise: error(msg) fails on the first row with a message, as DuckDB's
// error() does, and is null where the message is.
func TestRaise(t *testing.T) {
	vkRun(t, []vkCase{
		{name: "message", f: fn.Raise, args: []vkArg{vkLit("utf8", `"negative"`)}, wantErr: errs.ErrInvalidArgument},
		{name: "row with a message", f: fn.Raise, args: []vkArg{vkCol("utf8?", `[null, "bad", "worse"]`)}, wantErr: errs.ErrInvalidArgument, errRow: 1},
		{name: "null messages", f: fn.Raise, args: []vkArg{vkCol("utf8?", `[null, null]`)}, want: `[null, null]`},
	})
}
