package fn

import (
	"fmt"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/scalar"
)

// Raise is error(msg), DuckDB's error function: evaluating it on a row
// where msg is not null fails with msg (wrapping errs.ErrInvalidArgument);
// on a null msg it is null. Its type is null's, so a cast gives it any
// type, and under CASE it fails only on the rows that take its branch:
//
//	CASE WHEN x < 0 THEN CAST(error('negative') AS f64) ELSE sqrt(x) END
//
// Substrait import builds such guards for the options that ask for an
// error where colexpr's function gives a value (on_domain_error ERROR).
var Raise Function = raise{simple{IDError}}

// IDError is the id of error(msg).
const IDError = "error"

func init() {
	mustRegister(Raise)
	builtinProperties[IDError] = &Properties{Prec: PrecPostfix}
}

type raise struct{ simple }

var _ Kernel = raise{}

func (raise) Arity() Arity   { return Exactly(1) }
func (raise) Fallible() bool { return true }

func (r raise) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() && !args[0].IsNull() {
		return dtype.DType{}, argErr(r, 0, "has type %s, want utf8 (the message)", args[0])
	}
	return dtype.Null(), nil
}

// Eval fails on the first row whose message is not null.
func (r raise) Eval(_ *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(r, args); err != nil {
		return datum.Datum{}, err
	}
	msg := args[0]
	fail := func(row int, text string) (datum.Datum, error) {
		return datum.Datum{}, kernelError(r.id, &kernels.RowError{Row: row, Err: fmt.Errorf("%s: %w", text, errs.ErrInvalidArgument)})
	}
	if msg.IsScalar() {
		if s := msg.Scalar(); !s.IsNull() {
			return fail(0, s.ValueText())
		}
		return datum.FromScalar(scalar.Null(ret), msg.Len()), nil
	}
	arr := msg.Array()
	for i := 0; i < arr.Len(); i++ {
		if arr.IsValid(i) {
			return fail(i, arr.ValueStr(i))
		}
	}
	return datum.FromScalar(scalar.Null(ret), msg.Len()), nil
}
