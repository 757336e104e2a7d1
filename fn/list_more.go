package fn

import (
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// More list functions, as DuckDB defines them. They work on List and
// FixedSizeList (a list result is a List); list_slice and list_element
// also work on utf8 strings, by characters.
//
//	list_value(a, b, …)           a list of the arguments, which meet at their supertype; never null
//	list_slice(x, begin, end[, step])  1-based, inclusive; negative counts from the end (-1 is the
//	                              last), 0 as begin is the first; clamped to the list; null when an
//	                              argument is null. x[:e] is list_slice(x, 1, e) and x[b:] is
//	                              list_slice(x, b, -1). Alias array_slice. On a string: 'hello'[2:3] =
//	                              'el'. A step k > 1 takes every k-th element; a negative one walks
//	                              from begin down to end (list_slice(xs, -1, 1, -1) reverses); 0 is an
//	                              error; strings take no step (as in DuckDB)
//	list_element(s, i)            on a string: character i, or '' when i is outside it
//	list_sum(xs)                  integers as i64 (u64 for u64), checked; floats as f64; decimal(p, s) as
//	                              decimal(38, s); null when the list has no non-null element
//	list_avg(xs)                  f64; null when no non-null element
//	list_min(xs), list_max(xs)    the element type, in list_sort's order; null when no non-null element
//	list_count(xs)                i64, the non-null elements
//	list_aggregate(xs, 'name')    one of the above by name: 'sum', 'avg' (or 'mean'), 'min', 'max',
//	                              'count'; the name must be a literal (aliases list_aggr, aggregate,
//	                              array_aggregate, array_aggr)
//	list_sort(xs[, order[, nulls]])  order 'ASC' (default) or 'DESC', nulls 'NULLS LAST' (default) or
//	                              'NULLS FIRST'; NaN sorts above every number, strings by bytes, lists
//	                              lexicographically and structs field by field (nulls inside them last)
//	list_reverse_sort(xs[, nulls])   list_sort(xs, 'DESC', nulls)
//	list_reverse(xs)              the elements in reverse order
//	list_distinct(xs)             the distinct non-null elements, in the order they first appear
//	                              (DuckDB's order is unspecified); alias array_distinct
//	list_has_any(a, b)            whether a holds a non-null element of b; null when a or b is null
//	list_has_all(a, b)            whether a holds every non-null element of b; null when a or b is null
//	list_position(xs, v)          the 1-based position of the first element not distinct from v (a null
//	                              v finds a null), null when there is none; aliases list_indexof,
//	                              array_position
//	list_concat(a, b, …)          the elements of every list in order; a null list counts as empty and
//	                              the result is never null (aliases list_cat, array_concat, array_cat).
//	                              a || b on lists is null when either is null, as in DuckDB.
//	flatten(xss)                  the elements of the inner lists, null inner lists skipped
//	list_reduce(xs, lambda acc, x: e[, init])  folds the list from the left; acc starts as the first
//	                              element (or init); an empty list without init is an error, as in
//	                              DuckDB; the lambda may take the index of x as a third parameter.
//	                              The body returns acc's type or a wider one (acc + x on decimals),
//	                              which is the result's type; a step's value is then cast back to
//	                              acc's type for the next step (an error where it does not fit)
//
// list_transform and list_filter also take a lambda with a second
// parameter, the 1-based index of the element (lambda x, i: …).
var (
	ListValue       Function = listValue{simple{IDListValue}}
	ListSlice       Function = listSlice{simple{IDListSlice}}
	ListSum         Function = listAgg{simple{IDListSum}}
	ListAvg         Function = listAgg{simple{IDListAvg}}
	ListMin         Function = listAgg{simple{IDListMin}}
	ListMax         Function = listAgg{simple{IDListMax}}
	ListCount       Function = listAgg{simple{IDListCount}}
	ListSort        Function = listSort{simple{IDListSort}}
	ListReverseSort Function = listSort{simple{IDListReverseSort}}
	ListReverse     Function = listRearrange{simple{IDListReverse}}
	ListDistinct    Function = listRearrange{simple{IDListDistinct}}
	ListHasAny      Function = listHas{simple{IDListHasAny}}
	ListHasAll      Function = listHas{simple{IDListHasAll}}
	ListPosition    Function = listPosition{simple{IDListPosition}}
	ListConcat      Function = listConcat{simple{IDListConcat}}
	Flatten         Function = flatten{simple{IDFlatten}}
	ListReduce      Function = listReduce{simple{IDListReduce}}
	ListAggregate   Function = listAggregate{simple{IDListAggregate}}
)

// The ids of the functions above.
const (
	IDListValue       = "list_value"
	IDListSlice       = "list_slice"
	IDListSum         = "list_sum"
	IDListAvg         = "list_avg"
	IDListMin         = "list_min"
	IDListMax         = "list_max"
	IDListCount       = "list_count"
	IDListSort        = "list_sort"
	IDListReverseSort = "list_reverse_sort"
	IDListReverse     = "list_reverse"
	IDListDistinct    = "list_distinct"
	IDListHasAny      = "list_has_any"
	IDListHasAll      = "list_has_all"
	IDListPosition    = "list_position"
	IDListConcat      = "list_concat"
	IDFlatten         = "flatten"
	IDListReduce      = "list_reduce"
	IDListAggregate   = "list_aggregate"
)

// OptionalLambdaParams is a higher-order function whose lambda at argument
// i may declare fewer parameters than LambdaParams gives it (at least
// MinLambdaParams(i)): it then gets the first ones. list_transform's
// lambda x: … and lambda x, i: … (i the element's index) are both fine.
type OptionalLambdaParams interface {
	HigherOrder
	MinLambdaParams(i int) int
}

func init() {
	text, i64 := dtype.Utf8(true), dtype.Primitive(dtype.I64, true)
	call := func(c Coercion, substrait string, nullArgs ...dtype.DType) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: c, Substrait: substrait, NullArgs: nullArgs}
	}
	for id, p := range map[string]*Properties{
		IDListValue:       call(CoerceCombine, ""),
		IDListSlice:       call(CoerceNullLiterals, "", dtype.Null(), i64),
		IDListSum:         call(CoerceNone, ""),
		IDListAvg:         call(CoerceNone, ""),
		IDListMin:         call(CoerceNone, ""),
		IDListMax:         call(CoerceNone, ""),
		IDListCount:       call(CoerceNone, ""),
		IDListSort:        call(CoerceNullLiterals, "sort", dtype.Null(), text),
		IDListReverseSort: call(CoerceNullLiterals, "sort", dtype.Null(), text),
		IDListReverse:     call(CoerceNone, ""),
		IDListDistinct:    call(CoerceNone, ""),
		IDListHasAny:      call(CoerceCombine, ""),
		IDListHasAll:      call(CoerceCombine, ""),
		IDListPosition:    call(CoerceListElement, ""),
		IDListConcat:      call(CoerceCombine, ""),
		IDFlatten:         call(CoerceNone, ""),
		IDListReduce:      {Prec: PrecPostfix, Lazy: true},
		IDListAggregate:   call(CoerceNone, ""),
	} {
		builtinProperties[id] = p
	}
	for _, f := range []Function{ListValue, ListSlice, ListSum, ListAvg, ListMin, ListMax, ListCount,
		ListSort, ListReverseSort, ListReverse, ListDistinct, ListHasAny, ListHasAll, ListPosition,
		ListConcat, Flatten, ListReduce, ListAggregate} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{
		"array_slice": ListSlice, "array_sort": ListSort, "array_reverse_sort": ListReverseSort,
		"array_reverse": ListReverse, "array_distinct": ListDistinct, "list_indexof": ListPosition,
		"array_position": ListPosition, "array_indexof": ListPosition, "array_has_any": ListHasAny,
		"array_has_all": ListHasAll, "list_cat": ListConcat, "array_concat": ListConcat, "array_cat": ListConcat,
		"array_reduce": ListReduce, "array_value": ListValue, "list_aggr": ListAggregate, "aggregate": ListAggregate,
		"array_aggregate": ListAggregate, "array_aggr": ListAggregate,
	} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
}

// listType is a list of elem, nullable when null is.
func listType(elem dtype.DType, null bool) dtype.DType { return dtype.List(elem, null) }

type listValue struct{ simple }

func (l listValue) Arity() Arity               { return AtLeast(0) }
func (l listValue) NullHandling() NullHandling { return NullAware }
func (l listValue) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if len(args) == 0 {
		return listType(dtype.Null(), false), nil
	}
	// Null arguments (an untyped null) take the others' type.
	from := -1
	for i, a := range args {
		if !a.IsNull() {
			from = i
			break
		}
	}
	if from < 0 {
		return listType(dtype.Null(), false), nil
	}
	elem := args[from]
	for i, a := range args {
		if !a.IsNull() && !a.EqualIgnoreNullability(args[from]) {
			return dtype.DType{}, argErr(l, i, "has type %s, want %s like argument %d (cast one of them)", a, args[from].AsNonNullable(), from+1)
		}
		if a.IsNull() {
			return dtype.DType{}, argErr(l, i, "is an untyped null beside %s (cast it)", args[from])
		}
		elem = nullableUnion(elem, a)
	}
	return listType(elem, false), nil
}

// nullableUnion is a (equal to b but for nullability, at any depth)
// nullable wherever either is: a list of list<i32> and list<i32?> holds
// list<i32?> values.
func nullableUnion(a, b dtype.DType) dtype.DType {
	if s, ok := dtype.Supertype(a, b); ok && s.EqualIgnoreNullability(a) {
		return s
	}
	return a.WithNullable(a.Nullable() || b.Nullable())
}

type listSlice struct{ simple }

func (l listSlice) Arity() Arity { return Arity{3, 4} }
func (l listSlice) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i := 1; i < len(args); i++ {
		if !args[i].IsInt() {
			return dtype.DType{}, argErr(l, i, "has type %s, want an integer", args[i])
		}
	}
	switch x := args[0]; {
	case x.IsUtf8() && len(args) > 3:
		return dtype.DType{}, argErr(l, 3, "a step slices lists only, not strings (as in DuckDB)")
	case x.IsUtf8():
		return dtype.Utf8(anyNullable(args)), nil
	case x.IsList():
		return listType(x.Elem(), anyNullable(args)), nil
	}
	return dtype.DType{}, argErr(l, 0, "has type %s, want a list or utf8", args[0])
}

type listAgg struct{ simple }

func (l listAgg) Arity() Arity { return Exactly(1) }
func (l listAgg) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	elem := args[0].Elem()
	switch l.id {
	case IDListCount:
		return dtype.Primitive(dtype.I64, args[0].Nullable()), nil
	case IDListMin, IDListMax:
		if !orderable(elem) {
			return dtype.DType{}, argErr(l, 0, "has elements of type %s, which have no order", elem)
		}
		return elem.AsNullable(), nil
	case IDListSum:
		switch {
		case elem.IsInt() && elem.PType() == dtype.U64:
			return dtype.Primitive(dtype.U64, true), nil
		case elem.IsInt():
			return dtype.Primitive(dtype.I64, true), nil
		case elem.IsFloat():
			return dtype.Primitive(dtype.F64, true), nil
		case elem.IsDecimal():
			return dtype.Decimal(38, elem.Scale(), true), nil
		}
	case IDListAvg:
		if elem.IsNumeric() {
			return dtype.Primitive(dtype.F64, true), nil
		}
	}
	return dtype.DType{}, argErr(l, 0, "has elements of type %s, want numbers", elem)
}

// orderable reports whether list_sort and list_min order values of t:
// every type; lists lexicographically and structs field by field, a null
// inside them above every value (as DuckDB).
func orderable(t dtype.DType) bool {
	if t.IsList() {
		return orderable(t.Elem())
	}
	for _, f := range t.Fields() {
		if !orderable(f.Type) {
			return false
		}
	}
	return true
}

type listSort struct{ simple }

func (l listSort) Arity() Arity {
	if l.id == IDListReverseSort {
		return Arity{1, 2}
	}
	return Arity{1, 3}
}

func (l listSort) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	if !orderable(args[0].Elem()) {
		return dtype.DType{}, argErr(l, 0, "has elements of type %s, which have no order", args[0].Elem())
	}
	for i := 1; i < len(args); i++ {
		if !args[i].IsUtf8() {
			return dtype.DType{}, argErr(l, i, "has type %s, want a constant such as 'DESC' or 'NULLS FIRST'", args[i])
		}
	}
	return listType(args[0].Elem(), anyNullable(args)), nil
}

type listRearrange struct{ simple }

func (l listRearrange) Arity() Arity { return Exactly(1) }
func (l listRearrange) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	return listType(args[0].Elem(), args[0].Nullable()), nil
}

type listHas struct{ simple }

func (l listHas) Arity() Arity { return Exactly(2) }
func (l listHas) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsList() {
			return dtype.DType{}, argErr(l, i, "has type %s, want a list", a)
		}
	}
	if !args[1].Elem().EqualIgnoreNullability(args[0].Elem()) {
		return dtype.DType{}, argErr(l, 1, "has elements of type %s, want %s like argument 1", args[1].Elem(), args[0].Elem().AsNonNullable())
	}
	return dtype.Bool(anyNullable(args)), nil
}

type listPosition struct{ simple }

func (l listPosition) Arity() Arity               { return Exactly(2) }
func (l listPosition) NullHandling() NullHandling { return NullAware }
func (l listPosition) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	if elem := args[0].Elem(); !args[1].IsNull() && !args[1].EqualIgnoreNullability(elem) {
		return dtype.DType{}, argErr(l, 1, "has type %s, want the element type %s", args[1], elem.AsNonNullable())
	}
	return dtype.Primitive(dtype.I64, true), nil
}

type listConcat struct{ simple }

func (l listConcat) Arity() Arity               { return AtLeast(1) }
func (l listConcat) NullHandling() NullHandling { return NullAware }
func (l listConcat) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return concatListType(l, args, false)
}

// concatListType is the type of list_concat (strict false: never null) and
// of || on lists (strict: nullable when an argument is): lists of one
// element type, an untyped null (or null-typed list) taking that type.
func concatListType(f Function, args []dtype.DType, strict bool) (dtype.DType, error) {
	var elem dtype.DType
	have := false
	for i, a := range args {
		switch {
		case a.IsNull():
			continue
		case !a.IsList():
			return dtype.DType{}, argErr(f, i, "has type %s, want a list", a)
		case !have || elem.IsNull():
			elem, have = a.Elem(), true
		case a.Elem().IsNull():
		case !a.Elem().EqualIgnoreNullability(elem):
			return dtype.DType{}, argErr(f, i, "has elements of type %s, want %s like the lists before it (cast one of them)", a.Elem(), elem.AsNonNullable())
		default:
			elem = nullableUnion(elem, a.Elem())
		}
	}
	if !have {
		return dtype.DType{}, argErr(f, -1, "needs a list argument")
	}
	return listType(elem, strict && anyNullable(args)), nil
}

type flatten struct{ simple }

func (l flatten) Arity() Arity { return Exactly(1) }
func (l flatten) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	inner := args[0].Elem()
	if !inner.IsList() {
		return dtype.DType{}, argErr(l, 0, "has type %s, want a list of lists", args[0])
	}
	return listType(inner.Elem(), args[0].Nullable()), nil
}

// listReduce is list_reduce(xs, lambda acc, x[, i]: e[, init]).
type listReduce struct{ simple }

func (l listReduce) Arity() Arity               { return Arity{2, 3} }
func (l listReduce) NullHandling() NullHandling { return NullAware }
func (l listReduce) IsLambdaArg(i int) bool     { return i == 1 }
func (l listReduce) MinLambdaParams(int) int    { return 2 }

// accType is the accumulator's type: init's, or the element type.
func (l listReduce) accType(args []dtype.DType) dtype.DType {
	if len(args) > 2 {
		return args[2]
	}
	return args[0].Elem()
}

func (l listReduce) LambdaParams(i int, args []dtype.DType) ([]dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return nil, err
	}
	if len(args) > 2 && args[2].IsNull() {
		return nil, argErr(l, 2, "is an untyped null (cast it to the accumulator's type)")
	}
	return []dtype.DType{l.accType(args).AsNullable(), args[0].Elem(), dtype.Primitive(dtype.I64, false)}, nil
}

func (l listReduce) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if err := wantList(l, args); err != nil {
		return dtype.DType{}, err
	}
	acc := l.accType(args)
	if args[1].EqualIgnoreNullability(acc) {
		return acc.AsNullable(), nil
	}
	// A wider body (acc + x on decimals adds a digit): the result has
	// the body's type, as DuckDB's (the supertype); each step's value is
	// cast back to the accumulator's type for the next step.
	if s, ok := dtype.Supertype(acc, args[1]); ok && s.EqualIgnoreNullability(args[1]) && CanCast(args[1], acc) {
		return s.AsNullable(), nil
	}
	return dtype.DType{}, argErr(l, 1, "lambda returns %s, want the accumulator's type %s or a wider one (cast the body)", args[1], acc.AsNonNullable())
}

// listAggregates are the aggregates list_aggregate knows, by name.
var listAggregates = map[string]Function{
	"sum": ListSum, "avg": ListAvg, "mean": ListAvg, "min": ListMin, "max": ListMax, "count": ListCount,
}

// listAggregate is list_aggregate(xs, 'name'): the list aggregate of that
// name (a literal, so that the call has a type).
type listAggregate struct{ simple }

func (l listAggregate) Arity() Arity { return Exactly(2) }

// aggregate is the function name stands for.
func (l listAggregate) aggregate(name string) (Function, error) {
	f, ok := listAggregates[strings.ToLower(name)]
	if !ok {
		return nil, argErr(l, 1, "names no aggregate: %q (want 'sum', 'avg', 'mean', 'min', 'max' or 'count')", name)
	}
	return f, nil
}

func (l listAggregate) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return l.ReturnTypeConst(args, nil)
}

// ReturnTypeConst types the call by the aggregate its literal name names.
func (l listAggregate) ReturnTypeConst(args []dtype.DType, consts []*scalar.Scalar) (dtype.DType, error) {
	if !args[1].IsUtf8() {
		return dtype.DType{}, argErr(l, 1, "has type %s, want the name of an aggregate such as 'sum'", args[1])
	}
	if len(consts) < 2 || consts[1] == nil || consts[1].IsNull() {
		return dtype.DType{}, argErr(l, 1, "must be a literal name such as 'sum'")
	}
	f, err := l.aggregate(consts[1].Value().(string))
	if err != nil {
		return dtype.DType{}, err
	}
	return f.ReturnType(args[:1])
}
