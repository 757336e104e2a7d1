package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/kernels"
)

// list_unique(xs) (alias array_unique) is the number of distinct non-null
// elements of a list, as u64 (DuckDB's UBIGINT): list_unique([1, 1, 2,
// NULL]) is 2, of an empty list 0, of a null list null. Elements are equal
// as list_distinct finds them.
var ListUnique Function = listUnique{simple{IDListUnique}}

// IDListUnique is the id of list_unique.
const IDListUnique = "list_unique"

func init() {
	builtinProperties[IDListUnique] = &Properties{Prec: PrecPostfix}
	mustRegister(ListUnique)
	if err := Default.Alias("array_unique", ListUnique); err != nil {
		panic(err)
	}
}

var _ Kernel = listUnique{}

type listUnique struct{ simple }

func (l listUnique) Arity() Arity { return Exactly(1) }

func (l listUnique) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Primitive(dtype.U64, args[0].Nullable()), nil
}

// Eval counts the distinct non-null elements of each list.
func (l listUnique) Eval(ctx *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(l, args); err != nil {
		return datum.Datum{}, err
	}
	out, err := kernels.ListUnique(ctxMem(ctx), args[0], ret)
	return out, kernelError(l.ID(), err)
}
