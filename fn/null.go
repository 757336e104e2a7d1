package fn

import "github.com/colexpr/colexpr/dtype"

// The null functions. is_null and is_not_null never return null.
// coalesce(a, b, …) is the first non-null argument per row and evaluates a
// later argument only for rows still null; fill_null(a, b) is coalesce with
// exactly two arguments. The result is nullable only when every argument is.
var (
	IsNull    Function = isNull{simple{IDIsNull}}                 // a IS NULL
	IsNotNull Function = isNull{simple{IDIsNotNull}}              // a IS NOT NULL
	Coalesce  Function = coalesce{simple{IDCoalesce}, AtLeast(1)} // coalesce(a, b, …)
	FillNull  Function = coalesce{simple{IDFillNull}, Exactly(2)} // fill_null(a, b)
)

type isNull struct{ simple }

func (n isNull) Arity() Arity               { return Exactly(1) }
func (n isNull) NullHandling() NullHandling { return NullAware }

func (n isNull) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return dtype.Bool(false), nil
}

type coalesce struct {
	simple
	arity Arity
}

func (c coalesce) Arity() Arity               { return c.arity }
func (c coalesce) NullHandling() NullHandling { return NullAware }

func (c coalesce) ReturnType(args []dtype.DType) (dtype.DType, error) {
	t, err := sameType(c, args, 0)
	if err != nil {
		return dtype.DType{}, err
	}
	for _, a := range args[1:] {
		t = unionNullability(t, a)
	}
	for _, a := range args {
		if !a.Nullable() {
			return t.AsNonNullable(), nil
		}
	}
	return t.AsNullable(), nil
}

// unionNullability is a, which equals b but for nullability, with every
// nested field and element nullable where either type has it nullable: the
// type that holds the values of both (a CASE or coalesce result whose
// branches are struct<x: i32> and struct<x: i32?> may hold a null x).
func unionNullability(a, b dtype.DType) dtype.DType {
	if t, ok := dtype.Supertype(a, b); ok {
		return t
	}
	return a
}
