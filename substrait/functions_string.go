package substrait

import (
	"fmt"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
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
	// rpad keeps the first characters of a longer string, and concat_ws
	// skips nulls (null only for a null separator), in Substrait's test
	// cases as in colexpr (DuckDB).
	exports[fn.IDRPad] = named(urnString, "rpad")
	exports[fn.IDConcatWS] = named(urnString, "concat_ws:str_str")
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
		"Substrait's standard extensions have no such function": {fn.IDSplitPart, fn.IDASCII, fn.IDChr, fn.IDFormat, fn.IDPrintf},
		"Substrait's regular expressions are ICU's, with position and occurrence arguments; colexpr's are RE2's with DuckDB's options": {
			fn.IDRegexpMatches, fn.IDRegexpReplace, fn.IDRegexpExtract, fn.IDRegexpCount, fn.IDRegexpSplit},
	} {
		for _, id := range ids {
			refusals[id] = why
		}
	}

	caseSensitiveOnly := allow(map[string][]string{"case_sensitivity": {"CASE_SENSITIVE"}})
	for name, f := range map[string]fn.Function{
		"left": fn.Left, "right": fn.Right, "reverse": fn.Reverse, "repeat": fn.Repeat, "lpad": fn.LPad, "rpad": fn.RPad,
		"string_split": fn.StringSplit, "concat_ws": fn.ConcatWS,
	} {
		imports[extensions.ID{URN: urnString, Name: name}] = importSpec{allowed: noOptions, build: call(f)}
	}
	// trim, ltrim and rtrim: colexpr's trim(s) removes spaces, trim(s, cs)
	// the characters of cs, which is spaces_only TRUE and FALSE.
	for name, f := range map[string]fn.Function{"trim": fn.Trim, "ltrim": fn.LTrim, "rtrim": fn.RTrim} {
		imports[extensions.ID{URN: urnString, Name: name}] = importSpec{
			allowed: allow(map[string][]string{"spaces_only": {"TRUE", "FALSE"}}),
			build: func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
				if chosen["spaces_only"] == "TRUE" && len(args) > 1 {
					return nil, fmt.Errorf("%w: spaces_only TRUE with characters to trim: colexpr trims either spaces or the characters given", ErrUnsupported)
				}
				return expr.NewCall(f, args...)
			},
		}
	}
	// bit_length(s) is octet_length(s) * 8.
	imports[extensions.ID{URN: urnString, Name: "bit_length"}] = importSpec{allowed: noOptions, build: unary(func(x *expr.Bound) (*expr.Bound, error) {
		n, err := expr.NewCall(fn.ByteLength, x)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.Mul, n, expr.NewLiteral(scalar.Int64(8)))
	})}
	// lower and upper are colexpr's full Unicode case mappings.
	unicode := allow(map[string][]string{"char_set": {"UTF8"}, "full_unicode": {"TRUE"}})
	imports[extensions.ID{URN: urnString, Name: "lower"}] = importSpec{allowed: unicode, build: call(fn.Lower)}
	imports[extensions.ID{URN: urnString, Name: "upper"}] = importSpec{allowed: unicode, build: call(fn.Upper)}
	// contains, starts_with and ends_with with CASE_INSENSITIVE compare
	// the lower-cased strings: f(lower(a), lower(b)).
	for name, f := range map[string]fn.Function{"starts_with": fn.StartsWith, "ends_with": fn.EndsWith, "contains": fn.Contains} {
		imports[extensions.ID{URN: urnString, Name: name}] = importSpec{
			allowed: allow(map[string][]string{"case_sensitivity": {"CASE_SENSITIVE", "CASE_INSENSITIVE"}}),
			build: func(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
				if chosen["case_sensitivity"] != "CASE_INSENSITIVE" || len(args) != 2 {
					return expr.NewCall(f, args...)
				}
				a, err := expr.NewCall(fn.Lower, args[0])
				if err != nil {
					return nil, err
				}
				b, err := expr.NewCall(fn.Lower, args[1])
				if err != nil {
					return nil, err
				}
				return expr.NewCall(f, a, b)
			},
		}
	}
	imports[extensions.ID{URN: urnString, Name: "replace"}] = importSpec{allowed: caseSensitiveOnly, build: call(fn.Replace)}
	imports[extensions.ID{URN: urnString, Name: "strpos"}] = importSpec{allowed: caseSensitiveOnly, build: call(fn.StrPos)}
	imports[extensions.ID{URN: urnString, Name: "substring"}] = importSpec{
		allowed: allow(map[string][]string{"negative_start": {"WRAP_FROM_END", "LEFT_OF_BEGINNING"}}),
		build:   importSubstring,
	}
}

// importSubstring reads Substrait's substring. colexpr's (DuckDB's) counts
// a negative start from the end, which is WRAP_FROM_END, what export
// writes and a call without the option means. LEFT_OF_BEGINNING places
// start 0 just before the first character and -1 two before it, so a
// window that starts there keeps the part inside the string:
//
//	substring(s, start, len)   CASE WHEN start < 1
//	                             THEN substring(s, 1, CASE WHEN n < 0 THEN 0 ELSE n END)
//	                             ELSE substring(s, start, len) END
//	                           with n = CAST(len AS i64) + CAST(start AS i64) - 1
//	substring(s, start)        CASE WHEN start < 1 THEN s ELSE substring(s, start) END
//
// (n in i64, where len + start - 1 cannot overflow.) ERROR, Substrait's
// third value, is refused: colexpr has no failing substring.
func importSubstring(args []*expr.Bound, chosen map[string]string) (*expr.Bound, error) {
	plain, err := expr.NewCall(fn.Substring, args...)
	if err != nil || chosen["negative_start"] != "LEFT_OF_BEGINNING" {
		return plain, err
	}
	s, start := args[0], args[1]
	i64 := func(b *expr.Bound) (*expr.Bound, error) {
		return expr.NewCall(fn.Cast(dtype.Primitive(dtype.I64, b.DType().Nullable())), b)
	}
	int64Lit := func(v int64) *expr.Bound { return expr.NewLiteral(scalar.Int(start.DType().PType(), v)) }
	before, err := expr.NewCall(fn.Lt, start, int64Lit(1))
	if err != nil {
		return nil, err
	}
	var head *expr.Bound
	if len(args) == 2 {
		head = s
		if s.DType().Nullable() != plain.DType().Nullable() {
			head, err = expr.NewCall(fn.Cast(plain.DType()), s)
		}
	} else {
		var l, st, n, neg, clamped *expr.Bound
		one := expr.NewLiteral(scalar.Int64(1))
		if l, err = i64(args[2]); err == nil {
			st, err = i64(start)
		}
		if err == nil {
			n, err = expr.NewCall(fn.Add, l, st)
		}
		if err == nil {
			n, err = expr.NewCall(fn.Sub, n, one)
		}
		if err == nil {
			neg, err = expr.NewCall(fn.Lt, n, expr.NewLiteral(scalar.Int64(0)))
		}
		if err == nil {
			clamped, err = expr.NewCall(fn.CaseWhen(true), neg, expr.NewLiteral(scalar.Int64(0)), n)
		}
		if err == nil {
			head, err = expr.NewCall(fn.Substring, s, one, clamped)
		}
	}
	if err != nil {
		return nil, err
	}
	return expr.NewCall(fn.CaseWhen(true), before, head, plain)
}
