package fn

import "github.com/colexpr/colexpr/dtype"

// The list functions work on List and FixedSizeList.
//
//	list_length(xs)            i64 (aliases len, array_length); of a utf8 string, its characters,
//	                           as DuckDB's len('abc') is 3
//	list_contains(xs, v)       bool; null when xs or v is null; null elements never match, so
//	                           a miss is false even when xs holds a null (DuckDB's rule, not IN's)
//	list_element(xs, i)        1-based, negative counts from the end, out of range gives null;
//	                           on a utf8 string, character i ('' out of range, as in DuckDB)
//	list_transform(xs, x -> e) list of e; lambda x, i: e also gets the element's 1-based index
//	list_filter(xs, x -> p)    the elements where p is true; lambda x, i: p also gets the index
//	list_any(xs, x -> p)       Kleene OR of p over the elements; false for an empty list
//	list_all(xs, x -> p)       Kleene AND of p over the elements; true for an empty list
//
// The lambda's parameter has the element type of xs. Bodies are evaluated
// once over all elements of all rows, not row by row.
var (
	ListLength    Function = listLength{simple{IDListLength}}
	ListContains  Function = listContains{simple{IDListContains}}
	ListElement   Function = listElement{simple{IDListElement}}
	ListTransform Function = listLambda{simple{IDListTransform}}
	ListFilter    Function = listLambda{simple{IDListFilter}}
	ListAny       Function = listLambda{simple{IDListAny}}
	ListAll       Function = listLambda{simple{IDListAll}}
)

func wantList(f Function, args []dtype.DType) error {
	if !args[0].IsList() {
		return argErr(f, 0, "has type %s, want a list", args[0])
	}
	return nil
}

type listLength struct{ simple }

func (l listLength) Arity() Arity { return Exactly(1) }
func (l listLength) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if args[0].IsUtf8() {
		return dtype.Primitive(dtype.I64, args[0].Nullable()), nil // len('abc') is 3, as in DuckDB
	}
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	return dtype.Primitive(dtype.I64, args[0].Nullable()), nil
}

type listContains struct{ simple }

func (l listContains) Arity() Arity               { return Exactly(2) }
func (l listContains) NullHandling() NullHandling { return NullAware }
func (l listContains) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	elem := args[0].Elem()
	if !args[1].EqualIgnoreNullability(elem) {
		return dtype.DType{}, argErr(l, 1, "has type %s, want the element type %s", args[1], elem.AsNonNullable())
	}
	return dtype.Bool(anyNullable(args)), nil
}

type listElement struct{ simple }

func (l listElement) Arity() Arity               { return Exactly(2) }
func (l listElement) NullHandling() NullHandling { return NullAware }
func (l listElement) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[1].IsInt() {
		return dtype.DType{}, argErr(l, 1, "has type %s, want an integer index", args[1])
	}
	if args[0].IsUtf8() {
		// 'abc'[2] is 'b'; outside the string, '' (DuckDB's rule).
		return dtype.Utf8(anyNullable(args)), nil
	}
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	return args[0].Elem().AsNullable(), nil
}

type listLambda struct{ simple }

func (l listLambda) Arity() Arity               { return Exactly(2) }
func (l listLambda) NullHandling() NullHandling { return NullAware }
func (l listLambda) IsLambdaArg(i int) bool     { return i == 1 }

// LambdaParams are the element and, for list_transform and list_filter,
// its 1-based index as i64 (lambda x, i: …), which the lambda may leave
// out (MinLambdaParams).
func (l listLambda) LambdaParams(i int, args []dtype.DType) ([]dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return nil, err
	}
	if l.id == IDListTransform || l.id == IDListFilter {
		return []dtype.DType{args[0].Elem(), dtype.Primitive(dtype.I64, false)}, nil
	}
	return []dtype.DType{args[0].Elem()}, nil
}

// MinLambdaParams: the index parameter is optional.
func (l listLambda) MinLambdaParams(int) int { return 1 }

func (l listLambda) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	body := args[1]
	switch l.id {
	case IDListTransform:
		if args[0].Kind() == dtype.KindFixedSizeList {
			return dtype.FixedSizeList(body, args[0].Size(), args[0].Nullable()), nil
		}
		return dtype.List(body, args[0].Nullable()), nil
	case IDListFilter:
		if !body.IsBool() {
			return dtype.DType{}, argErr(l, 1, "lambda returns %s, want bool", body)
		}
		return dtype.List(args[0].Elem(), args[0].Nullable()), nil
	default: // list_any, list_all
		if !body.IsBool() {
			return dtype.DType{}, argErr(l, 1, "lambda returns %s, want bool", body)
		}
		return dtype.Bool(args[0].Nullable() || body.Nullable()), nil
	}
}
