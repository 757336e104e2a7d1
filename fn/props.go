package fn

import "github.com/colexpr/colexpr/dtype"

// The ids of the built-in functions. Code that asks which function a call
// is compares with these (or with the function values, such as Add), never
// with a string literal, so that a misspelt name does not compile.
const (
	IDAdd = "add"
	IDSub = "sub"
	IDMul = "mul"
	IDDiv = "div"
	IDMod = "mod"
	IDNeg = "neg"
	IDAbs = "abs"

	IDEq                = "eq"
	IDNotEq             = "neq"
	IDLt                = "lt"
	IDLtEq              = "lte"
	IDGt                = "gt"
	IDGtEq              = "gte"
	IDIsDistinctFrom    = "is_distinct_from"
	IDIsNotDistinctFrom = "is_not_distinct_from"
	IDBetween           = "between"
	IDInList            = "in_list"

	IDAnd = "and"
	IDOr  = "or"
	IDNot = "not"

	IDIsNull    = "is_null"
	IDIsNotNull = "is_not_null"
	IDCoalesce  = "coalesce"
	IDFillNull  = "fill_null"

	IDLower        = "lower"
	IDUpper        = "upper"
	IDLength       = "length"
	IDByteLength   = "byte_length"
	IDStartsWith   = "starts_with"
	IDEndsWith     = "ends_with"
	IDContains     = "contains"
	IDConcat       = "concat"
	IDStringConcat = "string_concat"
	IDSubstring    = "substring"

	IDListLength    = "list_length"
	IDListContains  = "list_contains"
	IDListElement   = "list_element"
	IDListTransform = "list_transform"
	IDListFilter    = "list_filter"
	IDListAny       = "list_any"
	IDListAll       = "list_all"

	IDMerge = "merge"

	// Functions with options, built by their constructors.
	IDLiteral  = "literal"
	IDCast     = "cast"
	IDTryCast  = "try_cast"
	IDGetItem  = "get_item"
	IDPack     = "pack"
	IDSelect   = "select"
	IDLike     = "like"
	IDILike    = "ilike"
	IDCaseWhen = "case_when"
)

// Properties are what the stages after typing need to know about a
// function, declared once with the function instead of rediscovered from
// its name in each package: the printer reads its syntax, coerce its
// coercion, eval whether it evaluates arguments lazily, prune its order,
// substrait its Substrait name.
//
// A function declares its properties by implementing Describer; one that
// does not has the zero Properties: call syntax, no coercion, evaluated by
// its kernel, no known order, no Substrait name.
type Properties struct {
	// Syntax is how the text syntax writes a call, with Token and Prec.
	Syntax Syntax
	// Token is the operator or keyword: " + ", " AND ", "NOT ", " IS NULL"
	// (with the spaces it prints with); empty in call syntax.
	Token string
	// Prec is the precedence of an operator (PrecPostfix in call syntax).
	Prec Precedence
	// Coercion is how package coerce makes the arguments meet.
	Coercion Coercion
	// NullArgs are, for Coercion == CoerceNullLiterals, the types an untyped
	// null argument takes, by position (the last one repeats; the null type
	// leaves that argument alone).
	NullArgs []dtype.DType
	// Lazy: the function evaluates some arguments only on the rows that
	// need them (coalesce, CASE, the lambdas of list functions), so package
	// eval evaluates it itself rather than through a Kernel.
	Lazy bool
	// PredicateLambda: the function's lambda must return bool (list_filter,
	// list_any, list_all); a null body is made a bool null.
	PredicateLambda bool
	// Order says how the result's order follows the arguments', so that
	// pruning can carry min/max bounds through the function: a comparison,
	// or monotonic in argument OrderArg when the others are constant.
	Order Order
	// OrderArg is the argument an increasing or decreasing Order is about
	// (0, the first, for floor(x) and x + c; 1 for date_trunc('month', d)).
	OrderArg int
	// Substrait is the name of the function in Substrait's standard
	// extensions, for package substrait, which picks the extension and the
	// options from the argument types; empty for a function with no such
	// function or with a form of its own (literals, casts, CASE, IN,
	// coalesce, struct packs and fields).
	Substrait string
}

// Describer is a function that declares its Properties.
type Describer interface {
	Function
	// Properties are the function's properties; the result must not be
	// modified.
	Properties() *Properties
}

var noProperties = &Properties{Prec: PrecPostfix}

// PropertiesOf returns the properties f declares, or the zero properties.
func PropertiesOf(f Function) *Properties {
	if d, ok := f.(Describer); ok {
		if p := d.Properties(); p != nil {
			return p
		}
	}
	return noProperties
}

// Syntax is how the text syntax writes a call of a function.
type Syntax uint8

const (
	// SyntaxCall: name(args…).
	SyntaxCall Syntax = iota
	// SyntaxInfix: a op b, left-associative (comparisons do not chain).
	SyntaxInfix
	// SyntaxPrefix: op a.
	SyntaxPrefix
	// SyntaxPostfix: a op.
	SyntaxPostfix
	// SyntaxSpecial: a form of its own (BETWEEN, IN, CASE, CAST, LIKE,
	// literals, struct packs and field access), printed by package expr.
	SyntaxSpecial
)

// Precedence orders operators, loosest first: an operand whose precedence
// is looser than its operator's needs parentheses.
type Precedence uint8

// The precedences of the text syntax.
const (
	PrecLambda  Precedence = iota
	PrecOr                 // OR
	PrecAnd                // AND
	PrecNot                // NOT
	PrecCompare            // = != < <= > >= IS, BETWEEN, IN, LIKE
	PrecAdd                // + - ||
	PrecMul                // * / %
	PrecUnary              // -x
	PrecPostfix            // x.f, calls, literals, names
)

// Coercion is how package coerce makes a call's arguments type-check.
type Coercion uint8

const (
	// CoerceNone: arguments are left as they are.
	CoerceNone Coercion = iota
	// CoerceArith: operands meet at their supertype, untyped literals take
	// the narrowest type that holds them beside the other operand.
	CoerceArith
	// CoerceCompare: all arguments meet at one type, to be compared.
	CoerceCompare
	// CoerceCombine: all arguments meet at one type, the result's.
	CoerceCombine
	// CoerceCase: CASE's conditions are bool and its values meet.
	CoerceCase
	// CoerceBool: every argument is bool (a null becomes a bool null).
	CoerceBool
	// CoerceText: every argument becomes text (concat).
	CoerceText
	// CoerceNullLiterals: an untyped null argument takes the type NullArgs
	// gives its position.
	CoerceNullLiterals
	// CoerceListElement: the value meets the list's element type
	// (list_contains).
	CoerceListElement
	// CoerceDeclared: each argument is cast to the type the function
	// names for it (ArgTyper), as DuckDB casts to a signature: sqrt(i32)
	// takes its argument as f64.
	CoerceDeclared
	// CoerceConcat: the || operator. Lists meet at one element type, as
	// with CoerceCombine; otherwise every argument becomes text, as DuckDB
	// casts the operands of || (1 || 2 is '12').
	CoerceConcat
)

// Order says how a function's result is ordered with respect to its
// arguments.
type Order uint8

const (
	// OrderUnknown: nothing is known.
	OrderUnknown Order = iota
	// OrderCompare: a comparison of its two arguments (=, <, …), which
	// pruning falsifies from the arguments' bounds.
	OrderCompare
	// OrderIncreasing: non-decreasing in argument OrderArg when the others
	// are constant (floor, year, date_trunc, x + c): the result's bounds
	// over a chunk are the function of the argument's bounds.
	OrderIncreasing
	// OrderDecreasing: non-increasing in argument OrderArg when the others
	// are constant (-x).
	OrderDecreasing
)

// Properties of the built-in functions without options, by id.
var builtinProperties = func() map[string]*Properties {
	infix := func(token string, prec Precedence, c Coercion, substrait string) *Properties {
		return &Properties{Syntax: SyntaxInfix, Token: token, Prec: prec, Coercion: c, Substrait: substrait}
	}
	compare := func(token, substrait string) *Properties {
		p := infix(token, PrecCompare, CoerceCompare, substrait)
		p.Order = OrderCompare
		return p
	}
	call := func(c Coercion, substrait string, nullArgs ...dtype.DType) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: c, Substrait: substrait, NullArgs: nullArgs}
	}
	// x + c and x - c are non-decreasing in x (the first argument).
	increasing := func(p *Properties) *Properties {
		p.Order = OrderIncreasing
		return p
	}
	text, i64 := dtype.Utf8(true), dtype.Primitive(dtype.I64, true)
	return map[string]*Properties{
		IDAdd: increasing(infix(" + ", PrecAdd, CoerceArith, "add")),
		IDSub: increasing(infix(" - ", PrecAdd, CoerceArith, "subtract")),
		IDMul: infix(" * ", PrecMul, CoerceArith, "multiply"),
		IDDiv: infix(" / ", PrecMul, CoerceArith, "divide"),
		IDMod: infix(" % ", PrecMul, CoerceArith, "modulus"),
		IDNeg: {Syntax: SyntaxPrefix, Token: "-", Prec: PrecUnary, Substrait: "negate", Order: OrderDecreasing},
		IDAbs: call(CoerceNone, "abs"),

		IDEq:                compare(" = ", "equal"),
		IDNotEq:             compare(" != ", "not_equal"),
		IDLt:                compare(" < ", "lt"),
		IDLtEq:              compare(" <= ", "lte"),
		IDGt:                compare(" > ", "gt"),
		IDGtEq:              compare(" >= ", "gte"),
		IDIsDistinctFrom:    infix(" IS DISTINCT FROM ", PrecCompare, CoerceCompare, "is_distinct_from"),
		IDIsNotDistinctFrom: infix(" IS NOT DISTINCT FROM ", PrecCompare, CoerceCompare, "is_not_distinct_from"),
		IDBetween:           {Syntax: SyntaxSpecial, Token: " BETWEEN ", Prec: PrecCompare, Coercion: CoerceCompare, Substrait: "between"},
		IDInList:            {Syntax: SyntaxSpecial, Token: " IN ", Prec: PrecCompare, Coercion: CoerceCompare},

		IDAnd: infix(" AND ", PrecAnd, CoerceBool, "and"),
		IDOr:  infix(" OR ", PrecOr, CoerceBool, "or"),
		IDNot: {Syntax: SyntaxPrefix, Token: "NOT ", Prec: PrecNot, Coercion: CoerceBool, Substrait: "not"},

		IDIsNull:    {Syntax: SyntaxPostfix, Token: " IS NULL", Prec: PrecCompare, Substrait: "is_null"},
		IDIsNotNull: {Syntax: SyntaxPostfix, Token: " IS NOT NULL", Prec: PrecCompare, Substrait: "is_not_null"},
		IDCoalesce:  {Prec: PrecPostfix, Coercion: CoerceCombine, Lazy: true},
		IDFillNull:  {Prec: PrecPostfix, Coercion: CoerceCombine, Lazy: true},

		IDLower:        call(CoerceNullLiterals, "lower", text),
		IDUpper:        call(CoerceNullLiterals, "upper", text),
		IDLength:       call(CoerceNullLiterals, "char_length", text),
		IDByteLength:   call(CoerceNone, "octet_length"),
		IDStartsWith:   call(CoerceNullLiterals, "starts_with", text),
		IDEndsWith:     call(CoerceNullLiterals, "ends_with", text),
		IDContains:     call(CoerceNullLiterals, "contains", text),
		IDConcat:       call(CoerceText, "concat"),
		IDStringConcat: infix(" || ", PrecAdd, CoerceConcat, "concat"),
		IDSubstring:    call(CoerceNullLiterals, "substring", text, i64),

		IDListLength:    call(CoerceNone, "cardinality"),
		IDListContains:  call(CoerceListElement, ""),
		IDListElement:   call(CoerceNullLiterals, "", dtype.Null(), i64),
		IDListTransform: {Prec: PrecPostfix, Lazy: true, Substrait: "transform"},
		IDListFilter:    {Prec: PrecPostfix, Lazy: true, PredicateLambda: true, Substrait: "filter"},
		IDListAny:       {Prec: PrecPostfix, Lazy: true, PredicateLambda: true, Substrait: "any_match"},
		IDListAll:       {Prec: PrecPostfix, Lazy: true, PredicateLambda: true, Substrait: "all_match"},

		IDMerge: call(CoerceNone, ""),
	}
}()

// Properties of the built-in functions: looked up once per call of
// Properties by id.
func (s simple) Properties() *Properties {
	if p, ok := builtinProperties[s.id]; ok {
		return p
	}
	return noProperties
}

var (
	literalProperties  = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix}
	getItemProperties  = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix}
	packProperties     = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix}
	selectProperties   = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix}
	castProperties     = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix}
	likeProperties     = &Properties{Syntax: SyntaxSpecial, Token: " LIKE ", Prec: PrecCompare, Coercion: CoerceNullLiterals, NullArgs: []dtype.DType{dtype.Utf8(true)}}
	caseWhenProperties = &Properties{Syntax: SyntaxSpecial, Prec: PrecPostfix, Coercion: CoerceCase, Lazy: true}
)

func (LiteralFn) Properties() *Properties  { return literalProperties }
func (GetItemFn) Properties() *Properties  { return getItemProperties }
func (PackFn) Properties() *Properties     { return packProperties }
func (SelectFn) Properties() *Properties   { return selectProperties }
func (CastFn) Properties() *Properties     { return castProperties }
func (LikeFn) Properties() *Properties     { return likeProperties }
func (CaseWhenFn) Properties() *Properties { return caseWhenProperties }
