package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// array_to_string(xs, sep) and list_string_agg(xs), as DuckDB computes
// them: the non-null elements of a list as text (cast to utf8: 2.0 for a
// double, as DuckDB prints it), joined with sep (',' for list_string_agg,
// and for a null sep, as in DuckDB). A null list, or one whose elements are
// all null, gives null; an empty list gives the empty string from array_to_string and
// null from list_string_agg (DuckDB's aggregate of no rows). Elements
// that do not cast to utf8 (lists, structs) are refused.
var (
	ArrayToString Function = listString{simple{IDArrayToString}, 2}
	ListStringAgg Function = listString{simple{IDListStringAgg}, 1}
)

// The ids of array_to_string and list_string_agg.
const (
	IDArrayToString = "array_to_string"
	IDListStringAgg = "list_string_agg"
)

func init() {
	for _, f := range []Function{ArrayToString, ListStringAgg} {
		builtinProperties[f.ID()] = &Properties{Prec: PrecPostfix, Coercion: CoerceNullLiterals, NullArgs: []dtype.DType{dtype.Null(), dtype.Utf8(true)}}
		mustRegister(f)
	}
}

var _ Kernel = listString{}

type listString struct {
	simple
	arity int
}

func (l listString) Arity() Arity { return Exactly(l.arity) }

// NullHandling: a null separator is ','.
func (l listString) NullHandling() NullHandling { return NullAware }

// Fallible: a result beyond 2 GiB.
func (l listString) Fallible() bool { return true }

func (l listString) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsNull() { // a null list gives null
		if err := wantList(l, args[:1]); err != nil {
			return dtype.DType{}, err
		}
		if e := args[0].Elem(); !e.IsNull() && !CanCast(e, dtype.Utf8(true)) {
			return dtype.DType{}, argErr(l, 0, "has elements of type %s, which %s cannot write as text", e, l.id)
		}
	}
	if len(args) == 2 && !args[1].IsUtf8() && !args[1].IsNull() {
		return dtype.DType{}, argErr(l, 1, "has type %s, want utf8 (the separator)", args[1])
	}
	return dtype.Utf8(true), nil
}

// Eval joins the elements of each list.
func (l listString) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	var sep *datum.Datum
	if len(args) == 2 {
		sep = &args[1]
	}
	elem := dtype.Null()
	if t := args[0].DType(); !t.IsNull() {
		elem = t.Elem()
	}
	out, err := kernels.ListToString(ctxMem(ctx), args[0], sep, elem, l.id == IDListStringAgg, ret)
	return out, kernelError(l.id, err)
}
