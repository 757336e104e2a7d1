package substrait

import (
	"github.com/substrait-io/substrait-go/v8/extensions"
	"github.com/substrait-io/substrait-go/v8/types"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// The standard extensions colexpr's functions map to.
const (
	urnArithmetic = extensions.SubstraitDefaultURNPrefix + "functions_arithmetic"
	urnDecimal    = extensions.SubstraitDefaultURNPrefix + "functions_arithmetic_decimal"
	urnComparison = extensions.SubstraitDefaultURNPrefix + "functions_comparison"
	urnBoolean    = extensions.SubstraitDefaultURNPrefix + "functions_boolean"
	urnString     = extensions.SubstraitDefaultURNPrefix + "functions_string"
	urnList       = extensions.SubstraitDefaultURNPrefix + "functions_list"
)

// target is the Substrait function a colexpr call exports to.
type target struct {
	urn, name string
	opts      []*types.FunctionOption
}

func option(name, value string) *types.FunctionOption {
	return &types.FunctionOption{Name: name, Preference: []string{value}}
}

// exportSpec maps a colexpr call, given the Substrait name its function
// declares (fn.Properties.Substrait) and its argument dtypes, to its
// Substrait function. Whether the extension has a signature for those types
// is for substrait-go to say.
type exportSpec func(name string, args []dtype.DType) target

// exports maps colexpr function ids to the extension and options of their
// Substrait functions. Calls with a form of their own (literal, get_item,
// cast, try_cast, case_when, in_list, pack, like, coalesce, fill_null) are
// handled by the exporter.
var exports = map[string]exportSpec{
	fn.IDAdd: arithmetic,
	fn.IDSub: arithmetic,
	fn.IDMul: arithmetic,
	fn.IDDiv: arithmetic,
	fn.IDMod: arithmetic,
	fn.IDNeg: arithmetic,
	fn.IDAbs: arithmetic,

	fn.IDEq:                plain(urnComparison),
	fn.IDNotEq:             plain(urnComparison),
	fn.IDLt:                plain(urnComparison),
	fn.IDLtEq:              plain(urnComparison),
	fn.IDGt:                plain(urnComparison),
	fn.IDGtEq:              plain(urnComparison),
	fn.IDIsDistinctFrom:    plain(urnComparison),
	fn.IDIsNotDistinctFrom: plain(urnComparison),
	fn.IDBetween:           plain(urnComparison),
	fn.IDIsNull:            plain(urnComparison),
	fn.IDIsNotNull:         plain(urnComparison),

	fn.IDAnd: plain(urnBoolean),
	fn.IDOr:  plain(urnBoolean),
	fn.IDNot: plain(urnBoolean),

	fn.IDLower:        plain(urnString, option("char_set", "UTF8")),
	fn.IDUpper:        plain(urnString, option("char_set", "UTF8")),
	fn.IDLength:       plain(urnString),
	fn.IDByteLength:   plain(urnString),
	fn.IDStartsWith:   plain(urnString, option("case_sensitivity", "CASE_SENSITIVE")),
	fn.IDEndsWith:     plain(urnString, option("case_sensitivity", "CASE_SENSITIVE")),
	fn.IDContains:     plain(urnString, option("case_sensitivity", "CASE_SENSITIVE")),
	fn.IDConcat:       overload(urnString, "str", option("null_handling", "IGNORE_NULLS")),
	fn.IDStringConcat: overload(urnString, "str", option("null_handling", "ACCEPT_NULLS")),
	fn.IDSubstring:    plain(urnString, option("negative_start", "WRAP_FROM_END")),

	fn.IDListLength:    plain(urnList),
	fn.IDListTransform: plain(urnList),
	fn.IDListFilter:    plain(urnList),
	fn.IDListAny:       plain(urnList),
	fn.IDListAll:       plain(urnList),
}

// refusals explain, for colexpr functions with no Substrait form, why.
var refusals = map[string]string{
	fn.IDListContains: "Substrait's standard extensions have no list membership test with SQL's null rule",
	fn.IDListElement:  "Substrait's standard extensions have no 1-based list element function (its ListElement reference is 0-based with unspecified out-of-range behaviour)",
	fn.IDSelect:       "Substrait has no struct projection function; reference the fields and pack them",
	fn.IDMerge:        "Substrait has no struct merge function",
}

// plain is the function of the extension urn with the given options.
func plain(urn string, opts ...*types.FunctionOption) exportSpec {
	return func(name string, _ []dtype.DType) target { return target{urn, name, opts} }
}

// named is the function name of the extension urn, for a colexpr
// function whose properties name no Substrait function.
func named(urn, name string, opts ...*types.FunctionOption) exportSpec {
	return func(string, []dtype.DType) target { return target{urn, name, opts} }
}

// overload is plain with the name qualified by a signature, as in
// concat:str, for a name the extension declares more than once.
func overload(urn, signature string, opts ...*types.FunctionOption) exportSpec {
	return func(name string, _ []dtype.DType) target { return target{urn, name + ":" + signature, opts} }
}

// arithmetic picks the decimal extension for decimals and the options that
// say colexpr's semantics: checked integer and decimal arithmetic
// (overflow ERROR, division by zero ERROR), truncating integer modulus,
// IEEE 754 floats rounded to nearest even.
func arithmetic(name string, args []dtype.DType) target {
	t := args[0]
	switch {
	case t.IsDecimal():
		if name == "negate" || name == "abs" {
			return target{urnDecimal, name, nil}
		}
		return target{urnDecimal, name, []*types.FunctionOption{option("overflow", "ERROR")}}
	case t.IsFloat():
		switch name {
		case "negate", "abs":
			return target{urnArithmetic, name, nil}
		case "divide":
			return target{urnArithmetic, name, []*types.FunctionOption{
				option("rounding", "TIE_TO_EVEN"), option("on_domain_error", "NAN"), option("on_division_by_zero", "IEEE")}}
		}
		return target{urnArithmetic, name, []*types.FunctionOption{option("rounding", "TIE_TO_EVEN")}}
	}
	switch name {
	case "divide":
		return target{urnArithmetic, name, []*types.FunctionOption{
			option("overflow", "ERROR"), option("on_domain_error", "ERROR"), option("on_division_by_zero", "ERROR")}}
	case "modulus":
		return target{urnArithmetic, name, []*types.FunctionOption{
			option("division_type", "TRUNCATE"), option("overflow", "ERROR"), option("on_domain_error", "ERROR")}}
	}
	return target{urnArithmetic, name, []*types.FunctionOption{option("overflow", "ERROR")}}
}

// importSpec reads a Substrait function back into colexpr.
type importSpec struct {
	// allowed lists, per option name, the values colexpr implements; an
	// option the call gives must name one of them among its preferences.
	allowed func(args []dtype.DType) map[string][]string
	// build makes the call from the bound arguments and the chosen option
	// values.
	build func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error)
	// hof marks the higher-order functions: argument 1 is a lambda.
	hof fn.Function
	// typed, when set, builds instead of build, given also the call's
	// declared output type (nil when it declares none): for the
	// functions whose Substrait result type depends on more than
	// colexpr's argument types (date + interval_year is a date).
	typed func(args []*expr.Bound, chosen map[string]string, out *dtype.DType) (*expr.Bound, error)
	// enums is the number of leading enum arguments (extract's
	// component): build gets their values in chosen as "enum0", … and
	// the value arguments only.
	enums int
}

func call(f fn.Function) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) { return expr.NewCall(f, args...) }
}

func allow(opts map[string][]string) func([]dtype.DType) map[string][]string {
	return func([]dtype.DType) map[string][]string { return opts }
}

var noOptions = allow(nil)

// arithmeticOptions are the option values colexpr's checked integer and
// decimal arithmetic and IEEE floats honour.
func arithmeticOptions(name string) func([]dtype.DType) map[string][]string {
	return func(args []dtype.DType) map[string][]string {
		float := len(args) > 0 && args[0].IsFloat()
		m := map[string][]string{"overflow": {"ERROR", "SILENT", "SATURATE"}, "rounding": {"TIE_TO_EVEN"}}
		switch name {
		case "divide":
			if float {
				m["on_domain_error"] = []string{"NAN"}
				m["on_division_by_zero"] = []string{"IEEE"}
			} else {
				m["on_domain_error"] = []string{"ERROR"}
				m["on_division_by_zero"] = []string{"ERROR"}
			}
		case "modulus":
			m["division_type"] = []string{"TRUNCATE"}
			m["on_domain_error"] = []string{"ERROR"}
		}
		return m
	}
}

// imports maps Substrait functions (extension URN and simple name) to
// colexpr.
var imports = map[extensions.ID]importSpec{}

func init() {
	for name, f := range map[string]fn.Function{"add": fn.Add, "subtract": fn.Sub, "multiply": fn.Mul, "divide": fn.Div, "modulus": fn.Mod, "negate": fn.Neg, "abs": fn.Abs} {
		imports[extensions.ID{URN: urnArithmetic, Name: name}] = importSpec{allowed: arithmeticOptions(name), build: arithmeticBuild(f)}
		imports[extensions.ID{URN: urnDecimal, Name: name}] = importSpec{allowed: arithmeticOptions(name), build: call(f)}
	}
	for name, f := range map[string]fn.Function{"equal": fn.Eq, "not_equal": fn.NotEq, "lt": fn.Lt, "lte": fn.LtEq, "gt": fn.Gt, "gte": fn.GtEq,
		fn.IDIsDistinctFrom: fn.IsDistinctFrom, fn.IDIsNotDistinctFrom: fn.IsNotDistinctFrom, fn.IDBetween: fn.Between,
		fn.IDIsNull: fn.IsNull, fn.IDIsNotNull: fn.IsNotNull, fn.IDCoalesce: fn.Coalesce} {
		imports[extensions.ID{URN: urnComparison, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
	imports[extensions.ID{URN: urnBoolean, Name: "and"}] = importSpec{allowed: noOptions, build: variadicLogic(fn.And, true)}
	imports[extensions.ID{URN: urnBoolean, Name: "or"}] = importSpec{allowed: noOptions, build: variadicLogic(fn.Or, false)}
	imports[extensions.ID{URN: urnBoolean, Name: "not"}] = importSpec{allowed: noOptions, build: importNot}

	imports[extensions.ID{URN: urnString, Name: "char_length"}] = importSpec{allowed: noOptions, build: call(fn.Length)}
	imports[extensions.ID{URN: urnString, Name: "octet_length"}] = importSpec{allowed: noOptions, build: call(fn.ByteLength)}
	imports[extensions.ID{URN: urnString, Name: "concat"}] = importSpec{
		allowed: allow(map[string][]string{"null_handling": {"IGNORE_NULLS", "ACCEPT_NULLS", "RETURN_NULL"}}),
		build:   importConcat,
	}
	imports[extensions.ID{URN: urnString, Name: "like"}] = importSpec{
		allowed: allow(map[string][]string{"case_sensitivity": {"CASE_SENSITIVE", "CASE_INSENSITIVE"}}),
		build: func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
			return expr.NewCall(fn.Like(false, chosen["case_sensitivity"] == "CASE_INSENSITIVE"), args...)
		},
	}

	imports[extensions.ID{URN: urnList, Name: "cardinality"}] = importSpec{allowed: noOptions, build: call(fn.ListLength)}
	for name, f := range map[string]fn.Function{"transform": fn.ListTransform, "filter": fn.ListFilter, "any_match": fn.ListAny, "all_match": fn.ListAll} {
		imports[extensions.ID{URN: urnList, Name: name}] = importSpec{allowed: noOptions, build: call(f), hof: f}
	}
}

// variadicLogic reads Substrait's variadic and/or: and() is true, and(x)
// is x, and(a, b, c) is (a AND b) AND c.
func variadicLogic(f fn.Function, empty bool) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		switch len(args) {
		case 0:
			return literalBool(empty), nil
		case 1:
			if !args[0].DType().IsBool() {
				return nil, &fn.ArgError{Fn: f.ID(), Arg: 0, Msg: "has type " + args[0].DType().String() + ", want bool"}
			}
			return args[0], nil
		}
		acc := args[0]
		for _, a := range args[1:] {
			next, err := expr.NewCall(f, acc, a)
			if err != nil {
				return nil, err
			}
			acc = next
		}
		return acc, nil
	}
}

// importNot reads not(like(…)) as the negated like, as colexpr's text NOT
// LIKE is; other arguments get a plain not.
func importNot(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
	if len(args) == 1 {
		if l, ok := args[0].Fn().(fn.LikeFn); ok && args[0].Kind() == expr.KindCall && !l.Negated {
			return expr.NewCall(fn.Like(true, l.CaseInsensitive), args[0].Args()...)
		}
	}
	return expr.NewCall(fn.Not, args...)
}

// importConcat reads concat: IGNORE_NULLS is colexpr's concat; ACCEPT_NULLS
// (and RETURN_NULL, which colexpr's exports wrote before they used the
// YAML's value)
// is the || operator, a chain of string_concat.
func importConcat(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	if nh := chosen["null_handling"]; nh != "ACCEPT_NULLS" && nh != "RETURN_NULL" {
		return expr.NewCall(fn.Concat, args...)
	}
	if len(args) == 1 {
		return args[0], nil
	}
	out, err := expr.NewCall(fn.StringConcat, args[0], args[1])
	for _, a := range args[2:] {
		if err != nil {
			break
		}
		out, err = expr.NewCall(fn.StringConcat, out, a)
	}
	return out, err
}
