package substrait

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/expr"
)

// Sentinel causes of export and import errors; test with errors.Is.
var (
	// ErrUnsupported: a construct with no faithful counterpart on the other
	// side — a colexpr function or type Substrait has no form for, or a
	// Substrait function, option or type colexpr does not implement.
	ErrUnsupported = errors.New("unsupported")
	// ErrInvalid: a malformed ExtendedExpression (a missing field, a dangling
	// anchor, an out-of-range field index, a declared type that does not
	// match what colexpr computes).
	ErrInvalid = errors.New("invalid")
)

// Error says where an export or an import failed: Op is "export" or
// "import"; Path locates the offending node (on export, the path in the
// colexpr tree, such as `args[1].body`; on import, the path in the Substrait
// message, such as `referred_expr[0].scalar_function.arguments[1]`); Node
// describes it; Err says why and wraps ErrUnsupported or ErrInvalid.
type Error struct {
	Op   string
	Path string
	Node string
	Err  error
}

func (e *Error) Error() string {
	where := expr.Shorten(e.Path) // long only in a very deep tree
	if where == "" {
		where = "the root"
	}
	if e.Node == "" {
		return fmt.Sprintf("substrait: %s: at %s: %v", e.Op, where, e.Err)
	}
	return fmt.Sprintf("substrait: %s: at %s `%s`: %v", e.Op, where, e.Node, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// unsupported and invalid build the causes an *Error wraps.
func unsupported(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, a...)...)
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, a...)...)
}
