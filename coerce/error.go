package coerce

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/dtype"
)

// ErrNoCommonType is the cause of every coercion failure: two arguments
// that must meet at one type have none (u64 with i64, utf8 with a number,
// bool with a number), an argument that must be bool is not, or an untyped
// literal does not fit the type its operands meet at. Test with errors.Is.
var ErrNoCommonType = errors.New("no common type")

// Error is a coercion failure at one call of the tree. It wraps
// ErrNoCommonType.
//
// Its text names what could not be done and the two dtypes, the call's text,
// its function, where the call sits in the tree, and an explicit cast that
// would make the expression type-check:
//
//	coerce: cannot compare u64 with i64 in `a = b` (eq) at args[0]: no common type; cast one side, e.g. CAST(b AS u64)
type Error struct {
	// Path is the path from the root of the tree to the call, as in
	// expr.BindError (such as `args[1].body.args[0]`); empty for the root.
	Path string
	// Node is the call's text (shortened when long).
	Node string
	// Fn is the id of the call's function.
	Fn string
	// What says what could not be done, dtypes included, such as
	// "compare u64 with i64" or "use i32 as bool".
	What string
	// Types are the dtypes involved: the two without a common type, or the
	// wanted type and the one found.
	Types [2]dtype.DType
	// Hint is an explicit cast that fixes the expression, such as
	// "CAST(b AS u64)"; empty when no cast between the types exists.
	Hint string
	// Reason is why, when it is more than the absence of a common type (a
	// literal that does not fit, say); empty otherwise.
	Reason string

	oneSided bool // the hint casts the only argument involved
}

func (e *Error) Error() string {
	where := e.Path
	if where == "" {
		where = "the root node"
	}
	reason := e.Reason
	if reason == "" {
		reason = "no common type"
	}
	msg := fmt.Sprintf("coerce: cannot %s in `%s` (%s) at %s: %s", e.What, e.Node, e.Fn, where, reason)
	switch {
	case e.Hint != "" && e.oneSided:
		return msg + "; cast it, e.g. " + e.Hint
	case e.Hint != "":
		return msg + "; cast one side, e.g. " + e.Hint
	case e.Reason == "":
		return msg + "; no cast between them exists"
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrNoCommonType) true.
func (e *Error) Unwrap() error { return ErrNoCommonType }
