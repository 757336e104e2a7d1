package fn

import (
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// typeof(x) is the type of its argument as utf8, the same on every row
// and never null. It prints colexpr's type names, not DuckDB's (i32 where
// DuckDB says INTEGER, utf8 for VARCHAR, list<i32> for INTEGER[],
// decimal(9,2) for DECIMAL(9,2), null for "NULL"): the text reads back as
// a type in colexpr (CAST(y AS <typeof(x)>)), and several of colexpr's
// types have no DuckDB name (f16, timestamps of seconds or milliseconds,
// fixed-size lists). Nullability is not part
// of it: typeof of an i32? is i32.
var TypeOf Function = typeOf{simple{IDTypeOf}}

// IDTypeOf is the id of typeof.
const IDTypeOf = "typeof"

func init() {
	builtinProperties[IDTypeOf] = &Properties{Prec: PrecPostfix}
	mustRegister(TypeOf)
}

var _ Kernel = typeOf{}

type typeOf struct{ simple }

func (t typeOf) Arity() Arity { return Exactly(1) }

// NullHandling: a null argument still has a type.
func (t typeOf) NullHandling() NullHandling { return NullAware }

func (t typeOf) ReturnType([]dtype.DType) (dtype.DType, error) { return dtype.Utf8(false), nil }

// Eval is the argument's type name, a scalar.
func (t typeOf) Eval(_ *Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if err := checkArgs(t, args); err != nil {
		return datum.Datum{}, err
	}
	x := args[0]
	return datum.FromScalar(scalar.String(x.DType().AsNonNullable().String()).WithDType(ret), x.Len()), nil
}
