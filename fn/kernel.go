package fn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// Context is what a kernel needs from its caller.
type Context struct {
	// Mem allocates every buffer the kernel makes.
	Mem memory.Allocator
}

// Kernel is a function that evaluates eagerly: every argument is computed
// first (as arrays or scalars of one length), then Eval combines them.
// Literals, and functions that choose which rows of an argument to compute
// (case_when, coalesce, fill_null and the higher-order list functions), are
// evaluated by the eval package itself and do not implement it.
type Kernel interface {
	Function
	// Eval computes the function. args have equal Len; ret is the bound
	// dtype of the call. Eval does not release args. A result that is an
	// array is owned by the caller.
	Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error)
}

// EvalError is a runtime error of one function at one row. Err wraps one of
// the sentinels of package errs.
type EvalError struct {
	Fn  string
	Row int
	Err error
}

func (e *EvalError) Error() string {
	return fmt.Sprintf("%s: row %d: %v", e.Fn, e.Row, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }
