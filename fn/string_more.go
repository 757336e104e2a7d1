package fn

import "github.com/colexpr/colexpr/dtype"

// The DuckDB-dialect string functions, with DuckDB's semantics (checked
// against DuckDB 1.5). Positions and lengths count characters (code
// points), not bytes. A null argument gives a null row unless said
// otherwise.
//
//	trim(s[, chars]), ltrim, rtrim       chars (a set; a space without it) removed from both ends,
//	                                     the left, the right: trim('abcba', 'ab') is 'c'
//	replace(s, from, to)                 every occurrence of from, left to right; an empty from changes nothing
//	left(s, n), right(s, n)              the first (last) n characters; a negative n drops the last
//	                                     (first) -n instead; left's n above 2^32-1 is an error, as in DuckDB
//	reverse(s)                           the grapheme clusters in reverse: a letter keeps its accents
//	repeat(s, n)                         s n times; '' for n <= 0
//	lpad(s, n, pad), rpad(s, n, pad)     s filled to n characters on the left (right) with pad repeated,
//	                                     or cut to its first n; '' for n <= 0; an empty pad that must
//	                                     fill is an error
//	split_part(s, sep, k)                field k (1-based, negative from the end) of s split at sep;
//	                                     '' past the fields and for k = 0; an empty sep splits into characters
//	string_split(s, sep)                 list<utf8> of the fields (aliases str_split, string_to_array,
//	                                     split); a null sep gives [s]
//	strpos(s, needle)                    i64 position of the first occurrence, 0 if none, 1 for '' (alias
//	                                     instr; the text syntax's position(needle IN s) is strpos(s, needle))
//	concat_ws(sep, a, …)                 the non-null arguments joined with sep; null only when sep is;
//	                                     arguments are cast to utf8
//	ascii(s)                             i32 code point of the first character; 0 for ''
//	chr(n)                               the character of code point n; an error for a value that is not one
//	format(f, args…)                     {fmt}-style: {} the next argument, {n} argument n (from 0),
//	                                     {:spec} with fill, align, sign, #, 0, width, precision and type;
//	                                     {{ and }} are braces; floats print their shortest representation
//	printf(f, args…)                     C-style: %[flags][width][.prec] with d i u x X o c f F e E g G s and
//	                                     %%; a conversion of the wrong type (%s of an integer, %d of a
//	                                     string) is an error, as in DuckDB; other conversions are errors
//	regexp_matches(s, p[, opts])         whether p matches somewhere in s (the operator s ~ p; s !~ p
//	                                     is its NOT)
//	regexp_full_match(s, p[, opts])      whether p matches all of s (s SIMILAR TO p, with DuckDB's
//	                                     regular expressions, not SQL's SIMILAR TO patterns)
//	glob(s, p)                           s GLOB p: * any run of bytes, ? one byte, [a-z] and [!a-z] a
//	                                     byte in (not in) a set, \x the byte x; byte by byte and
//	                                     case-sensitive, as DuckDB; an unclosed [ or a trailing \
//	                                     matches nothing (DuckDB has no glob function, only the operator)
//	regexp_replace(s, p, r[, opts])      the first match replaced by r (every match with option 'g'); r
//	                                     refers to groups as \0…\9
//	regexp_extract(s, p[, g[, opts]])    group g (a constant 0…9) of the first match; '' when none
//	regexp_extract_all(s, p[, g[, opts]])  list<utf8?> of group g (a constant; 0 the whole match) of
//	                                     every match, as DuckDB finds them: an empty match right after
//	                                     a match counts ('a1b22c' at '[0-9]*' is ['', 1, '', 22, '', ''],
//	                                     where Go's FindAll skips two); a group that took no part is a
//	                                     null element, a negative g gives [] and a g beyond the
//	                                     pattern's groups is an error
//	regexp_count(s, p[, opts])           i64 number of non-overlapping matches, found as regexp_replace's
//	                                     'g' finds them (PostgreSQL's name; DuckDB has none)
//	regexp_split_to_array(s, p[, opts])  list<utf8> of the parts of s between the matches (aliases
//	                                     string_split_regex, str_split_regex), as Go's Regexp.Split:
//	                                     a pattern matching '' splits into characters, and '' is [''];
//	                                     unlike DuckDB, an empty match right after a match, or at the
//	                                     end, splits nothing off ('abc' at 'b*' is [a, c], DuckDB's
//	                                     [a, '', c]), as Substrait's regexp_string_split cases want
//
// DuckDB's JSON functions over utf8 documents (json_extract_string and its
// operator ->>, json_extract, json_valid, json_array_length, json_type)
// are in json.go.
//
// printf and format take integers, floats, decimals (formatted as doubles,
// as DuckDB does), utf8, bool and the temporal types (as their text). The
// regular expressions are RE2's syntax (Go's regexp); the options are a
// constant string of letters: c (case-sensitive), i (case-insensitive), s
// ('.' matches a newline), m, n, p ('.' does not: the default), l (p is a
// literal string) and g (regexp_replace only: every match). A pattern that
// does not compile, an unknown option, options or a group that are not
// constants are errors.
var (
	Trim            Function = textFn{simple{IDTrim}, "ss", 1, false, dtype.Utf8(false)}
	LTrim           Function = textFn{simple{IDLTrim}, "ss", 1, false, dtype.Utf8(false)}
	RTrim           Function = textFn{simple{IDRTrim}, "ss", 1, false, dtype.Utf8(false)}
	Replace         Function = textFn{simple{IDReplace}, "sss", 3, false, dtype.Utf8(false)}
	Left            Function = textFn{simple{IDLeft}, "si", 2, true, dtype.Utf8(false)}
	Right           Function = textFn{simple{IDRight}, "si", 2, false, dtype.Utf8(false)}
	Reverse         Function = textFn{simple{IDReverse}, "s", 1, false, dtype.Utf8(false)}
	Repeat          Function = textFn{simple{IDRepeat}, "si", 2, true, dtype.Utf8(false)}
	LPad            Function = textFn{simple{IDLPad}, "sis", 3, true, dtype.Utf8(false)}
	RPad            Function = textFn{simple{IDRPad}, "sis", 3, true, dtype.Utf8(false)}
	SplitPart       Function = textFn{simple{IDSplitPart}, "ssi", 3, false, dtype.Utf8(false)}
	StrPos          Function = textFn{simple{IDStrPos}, "ss", 2, false, dtype.Primitive(dtype.I64, false)}
	ASCII           Function = textFn{simple{IDASCII}, "s", 1, false, dtype.Primitive(dtype.I32, false)}
	Chr             Function = textFn{simple{IDChr}, "i", 1, true, dtype.Utf8(false)}
	RegexpMatches   Function = textFn{simple{IDRegexpMatches}, "sss", 2, true, dtype.Bool(false)}
	RegexpReplace   Function = textFn{simple{IDRegexpReplace}, "ssss", 3, true, dtype.Utf8(false)}
	RegexpExtract   Function = textFn{simple{IDRegexpExtract}, "ssis", 2, true, dtype.Utf8(false)}
	RegexpCount     Function = textFn{simple{IDRegexpCount}, "sss", 2, true, dtype.Primitive(dtype.I64, false)}
	RegexpSplit     Function = textFn{simple{IDRegexpSplit}, "sss", 2, true, dtype.List(dtype.Utf8(false), false)}
	RegexpFullMatch Function = textFn{simple{IDRegexpFullMatch}, "sss", 2, true, dtype.Bool(false)}
	Glob            Function = textFn{simple{IDGlob}, "ss", 2, false, dtype.Bool(false)}
	// RegexpExtractAll's elements are null where the group took no part.
	RegexpExtractAll Function = textFn{simple{IDRegexpExtractAll}, "ssis", 2, true, dtype.List(dtype.Utf8(true), false)}
	StringSplit      Function = stringSplit{simple{IDStringSplit}}
	ConcatWS         Function = concatWS{simple{IDConcatWS}}
	Format           Function = formatFn{simple{IDFormat}}
	Printf           Function = formatFn{simple{IDPrintf}}
	stringMoreFuns            = []Function{Trim, LTrim, RTrim, Replace, Left, Right, Reverse, Repeat, LPad, RPad,
		SplitPart, StringSplit, StrPos, ConcatWS, ASCII, Chr, Format, Printf, RegexpMatches, RegexpReplace, RegexpExtract,
		RegexpCount, RegexpSplit, RegexpExtractAll, RegexpFullMatch, Glob}
)

// The ids of the DuckDB-dialect string functions.
const (
	IDTrim             = "trim"
	IDLTrim            = "ltrim"
	IDRTrim            = "rtrim"
	IDReplace          = "replace"
	IDLeft             = "left"
	IDRight            = "right"
	IDReverse          = "reverse"
	IDRepeat           = "repeat"
	IDLPad             = "lpad"
	IDRPad             = "rpad"
	IDSplitPart        = "split_part"
	IDStringSplit      = "string_split"
	IDStrPos           = "strpos"
	IDConcatWS         = "concat_ws"
	IDASCII            = "ascii"
	IDChr              = "chr"
	IDFormat           = "format"
	IDPrintf           = "printf"
	IDRegexpMatches    = "regexp_matches"
	IDRegexpReplace    = "regexp_replace"
	IDRegexpExtract    = "regexp_extract"
	IDRegexpCount      = "regexp_count"
	IDRegexpSplit      = "regexp_split_to_array"
	IDRegexpExtractAll = "regexp_extract_all"
	IDRegexpFullMatch  = "regexp_full_match"
	IDGlob             = "glob"
)

func init() {
	text, i64 := dtype.Utf8(true), dtype.Primitive(dtype.I64, true)
	call := func(substrait string, nullArgs ...dtype.DType) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: CoerceNullLiterals, Substrait: substrait, NullArgs: nullArgs}
	}
	for id, p := range map[string]*Properties{
		IDTrim:             call("trim", text),
		IDLTrim:            call("ltrim", text),
		IDRTrim:            call("rtrim", text),
		IDReplace:          call("replace", text),
		IDLeft:             call("left", text, i64),
		IDRight:            call("right", text, i64),
		IDReverse:          call("reverse", text),
		IDRepeat:           call("repeat", text, i64),
		IDLPad:             call("lpad", text, i64, text),
		IDRPad:             call("", text, i64, text), // Substrait's rpad cuts a long string on the left; DuckDB's on the right
		IDSplitPart:        call("", text, text, i64),
		IDStringSplit:      call("string_split", text),
		IDStrPos:           call("strpos", text),
		IDConcatWS:         {Prec: PrecPostfix, Coercion: CoerceText},
		IDASCII:            call("", text),
		IDChr:              call("", dtype.Primitive(dtype.I32, true)),
		IDFormat:           call("", text, dtype.Null()),
		IDPrintf:           call("", text, dtype.Null()),
		IDRegexpMatches:    call("", text),
		IDRegexpReplace:    call("", text),
		IDRegexpExtract:    call("", text, text, i64, text),
		IDRegexpCount:      call("", text),
		IDRegexpSplit:      call("", text),
		IDRegexpExtractAll: call("", text, text, i64, text),
		IDRegexpFullMatch:  call("", text),
		IDGlob:             call("", text),
	} {
		builtinProperties[id] = p
	}
	for _, f := range stringMoreFuns {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{
		"instr": StrPos, "str_split": StringSplit, "string_to_array": StringSplit, "split": StringSplit,
		"string_split_regex": RegexpSplit, "str_split_regex": RegexpSplit,
	} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
}

// textFn is a string function whose arguments are utf8 ('s') or integers
// ('i'), by position, the first min required.
type textFn struct {
	simple
	args     string
	min      int
	fallible bool
	ret      dtype.DType
}

func (f textFn) Arity() Arity   { return Arity{f.min, len(f.args)} }
func (f textFn) Fallible() bool { return f.fallible }

func (f textFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		switch f.args[i] {
		case 's':
			if !a.IsUtf8() {
				return dtype.DType{}, argErr(f, i, "has type %s, want utf8", a)
			}
		case 'i':
			if !a.IsInt() {
				return dtype.DType{}, argErr(f, i, "has type %s, want an integer", a)
			}
		}
	}
	return f.ret.WithNullable(anyNullable(args)), nil
}

// stringSplit is string_split(s, sep): null only where s is (a null sep
// leaves s whole).
type stringSplit struct{ simple }

func (f stringSplit) Arity() Arity               { return Exactly(2) }
func (f stringSplit) NullHandling() NullHandling { return NullAware }

func (f stringSplit) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() {
		return dtype.DType{}, argErr(f, 0, "has type %s, want utf8", args[0])
	}
	if !args[1].IsUtf8() && !args[1].IsNull() {
		return dtype.DType{}, argErr(f, 1, "has type %s, want utf8", args[1])
	}
	return dtype.List(dtype.Utf8(false), args[0].Nullable()), nil
}

// concatWS is concat_ws(sep, a, …): null only where sep is; null arguments
// are skipped.
type concatWS struct{ simple }

func (f concatWS) Arity() Arity               { return AtLeast(2) }
func (f concatWS) NullHandling() NullHandling { return NullAware }

func (f concatWS) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsUtf8() && !a.IsNull() {
			return dtype.DType{}, argErr(f, i, "has type %s, want utf8 (cast it)", a)
		}
	}
	return dtype.Utf8(args[0].Nullable() || args[0].IsNull()), nil
}

// formatFn is format or printf: a utf8 format and values of the kinds
// formatValueType accepts.
type formatFn struct{ simple }

func (f formatFn) Arity() Arity   { return AtLeast(1) }
func (f formatFn) Fallible() bool { return true }

func (f formatFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() {
		return dtype.DType{}, argErr(f, 0, "has type %s, want utf8 (the format)", args[0])
	}
	for i, a := range args[1:] {
		if !formattable(a) {
			return dtype.DType{}, argErr(f, i+1, "has type %s, which %s cannot format (cast it to utf8)", a, f.id)
		}
	}
	return dtype.Utf8(anyNullable(args) || anyNull(args)), nil
}

// formattable reports whether format and printf take a value of type t.
func formattable(t dtype.DType) bool {
	return t.IsNull() || t.IsInt() || t.IsFloat() || t.IsDecimal() || t.IsUtf8() || t.IsBool() || t.IsTemporal()
}

// anyNull reports whether any of ts is the null type.
func anyNull(ts []dtype.DType) bool {
	for _, t := range ts {
		if t.IsNull() {
			return true
		}
	}
	return false
}
