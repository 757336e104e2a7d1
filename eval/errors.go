package eval

import (
	"errors"
	"fmt"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// ErrNoKernel is the cause of evaluating a call whose function has no
// kernel and no evaluation rule in this package.
var ErrNoKernel = errors.New("no kernel")

// Error is a runtime error of one call: the call's text, the row of the
// caller's input it failed at (-1 when it is not about one row) and the
// cause. When a kernel reported a *fn.EvalError, Err is a *fn.EvalError
// whose Row is that same input row, however deep in a CASE branch, a later
// coalesce argument or a lambda body the call was: a row of a subset is
// mapped back to the input row it came from, and a list element to the row
// of its list. errors.Is sees through Error to the sentinels of package
// errs.
type Error struct {
	Expr string
	Row  int
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("eval: %v (in `%s`)", e.Err, e.Expr) }

func (e *Error) Unwrap() error { return e.Err }

// callError wraps a kernel's error for call b evaluated in env e over rows
// rows (the number of rows the kernel was given).
func callError(e *env, b *expr.Bound, rows int, err error) error {
	var ee *fn.EvalError
	if errors.As(err, &ee) {
		row := -1
		if ee.Row >= 0 && ee.Row < rows {
			row = e.origRow(ee.Row)
		}
		return &Error{Expr: expr.Shorten(b.String()), Row: row, Err: &fn.EvalError{Fn: ee.Fn, Row: row, Err: ee.Err}}
	}
	return &Error{Expr: expr.Shorten(b.String()), Row: -1, Err: err}
}

func noKernel(f fn.Function) error { return fmt.Errorf("eval: %w for %s", ErrNoKernel, f.ID()) }
