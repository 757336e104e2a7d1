// Package errs holds the sentinel errors of evaluation, below every package
// that raises them. The root package colexpr re-exports them, so callers
// write errors.Is(err, colexpr.ErrOverflow).
package errs

import "errors"

var (
	// ErrOverflow: an integer or decimal result does not fit its type.
	ErrOverflow = errors.New("overflow")
	// ErrDivideByZero: an integer or decimal division or modulo by zero.
	ErrDivideByZero = errors.New("division by zero")
	// ErrInvalidCast: a value that does not fit the target type, or a string
	// that does not parse as it.
	ErrInvalidCast = errors.New("invalid cast")
	// ErrInvalidArgument: any other value a function rejects (a malformed
	// LIKE pattern, say).
	ErrInvalidArgument = errors.New("invalid argument")
)
