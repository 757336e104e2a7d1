package substrait

import (
	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
)

// The DuckDB-dialect string functions (fn/string_more.go) that
// functions_string has: the name comes from the function's properties.
// left, right and lpad take an i32 count in Substrait, repeat an i64: a
// call with another integer type has no signature there and is refused
// (cast the count).
func init() {
	caseSensitive := option("case_sensitivity", "CASE_SENSITIVE")
	for _, id := range []string{fn.IDTrim, fn.IDLTrim, fn.IDRTrim, fn.IDLeft, fn.IDRight, fn.IDReverse, fn.IDRepeat, fn.IDLPad, fn.IDStringSplit} {
		exports[id] = plain(urnString)
	}
	// length of a list and len of a string (DuckDB's) are cardinality and
	// char_length.
	exports[fn.IDLength] = func(name string, args []dtype.DType) target {
		if len(args) == 1 && args[0].IsList() {
			return target{urnList, "cardinality", nil}
		}
		return target{urnString, name, nil}
	}
	exports[fn.IDListLength] = func(name string, args []dtype.DType) target {
		if len(args) == 1 && args[0].IsUtf8() {
			return target{urnString, "char_length", nil}
		}
		return target{urnList, name, nil}
	}
	exports[fn.IDReplace] = plain(urnString, caseSensitive)
	exports[fn.IDStrPos] = plain(urnString, caseSensitive)

	for why, ids := range map[string][]string{
		"Substrait's rpad cuts a string longer than the length on the left; colexpr's (DuckDB's) keeps its first characters": {fn.IDRPad},
		"Substrait's standard extensions have no such function":                                                              {fn.IDSplitPart, fn.IDASCII, fn.IDChr, fn.IDFormat, fn.IDPrintf},
		"Substrait's concat_ws does not say how it treats nulls; colexpr's (DuckDB's) skips them":                            {fn.IDConcatWS},
		"Substrait's regular expressions are ICU's, with position and occurrence arguments; colexpr's are RE2's with DuckDB's options": {
			fn.IDRegexpMatches, fn.IDRegexpReplace, fn.IDRegexpExtract},
	} {
		for _, id := range ids {
			refusals[id] = why
		}
	}

	caseSensitiveOnly := allow(map[string][]string{"case_sensitivity": {"CASE_SENSITIVE"}})
	for name, f := range map[string]fn.Function{
		"trim": fn.Trim, "ltrim": fn.LTrim, "rtrim": fn.RTrim, "left": fn.Left, "right": fn.Right,
		"reverse": fn.Reverse, "repeat": fn.Repeat, "lpad": fn.LPad, "string_split": fn.StringSplit,
	} {
		imports[extensions.ID{URN: urnString, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
	imports[extensions.ID{URN: urnString, Name: "replace"}] = importSpec{allowed: caseSensitiveOnly, build: call(fn.Replace)}
	imports[extensions.ID{URN: urnString, Name: "strpos"}] = importSpec{allowed: caseSensitiveOnly, build: call(fn.StrPos)}
}
