package fn

import "github.com/colexpr/colexpr/dtype"

// More of DuckDB's string functions, with DuckDB's semantics (checked with
// bench/cmd/duckquery). A null argument gives a null row.
//
//	levenshtein(a, b)       i64 edit distance (insertions, deletions, substitutions) counted in
//	                        bytes, as DuckDB counts it: levenshtein('é', 'e') is 2 (alias editdist3)
//	bit_length(s)           i64: 8 times the bytes of s
//	translate(s, from, to)  each character of s found in from replaced by the character of to at
//	                        the same position, or deleted when to is shorter: translate('abc',
//	                        'ab', 'x') is 'xc'; of a character repeated in from, the first counts
//	md5(s)                  utf8: the MD5 digest of the bytes of s (utf8 or binary), in lowercase
//	                        hex
//	to_base64(b)            utf8: the standard base64 encoding (with '=' padding) of binary b
//	                        (alias base64); a utf8 argument is encoded as its bytes, where DuckDB
//	                        takes only a string literal so
//	from_base64(s)          binary: the bytes s encodes; a length that is not a multiple of 4, a
//	                        character outside the alphabet, or '=' anywhere but the last two
//	                        places is an error, as in DuckDB
//
// levenshtein shares its dynamic program with the "did you mean"
// suggestions (package internal/levenshtein), which count characters.
var (
	Levenshtein Function = bytesFn{simple{IDLevenshtein}, "ss", false, dtype.Primitive(dtype.I64, false)}
	BitLength   Function = bytesFn{simple{IDBitLength}, "s", false, dtype.Primitive(dtype.I64, false)}
	Translate   Function = bytesFn{simple{IDTranslate}, "sss", false, dtype.Utf8(false)}
	MD5         Function = bytesFn{simple{IDMD5}, "b", false, dtype.Utf8(false)}
	ToBase64    Function = bytesFn{simple{IDToBase64}, "b", false, dtype.Utf8(false)}
	FromBase64  Function = bytesFn{simple{IDFromBase64}, "s", true, dtype.Binary(false)}
)

// The ids of the functions of string_codec.go.
const (
	IDLevenshtein = "levenshtein"
	IDBitLength   = "bit_length"
	IDTranslate   = "translate"
	IDMD5         = "md5"
	IDToBase64    = "to_base64"
	IDFromBase64  = "from_base64"
)

func init() {
	text, bin := dtype.Utf8(true), dtype.Binary(true)
	call := func(substrait string, nullArgs ...dtype.DType) *Properties {
		return &Properties{Prec: PrecPostfix, Coercion: CoerceNullLiterals, Substrait: substrait, NullArgs: nullArgs}
	}
	for id, p := range map[string]*Properties{
		IDLevenshtein: call("", text),
		IDBitLength:   call("bit_length", text),
		IDTranslate:   call("", text),
		IDMD5:         call("", text),
		IDToBase64:    call("", bin),
		IDFromBase64:  call("", text),
	} {
		builtinProperties[id] = p
	}
	for _, f := range []Function{Levenshtein, BitLength, Translate, MD5, ToBase64, FromBase64} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{"editdist3": Levenshtein, "base64": ToBase64} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
}

// bytesFn is a function of strings ('s': utf8) or bytes ('b': utf8 or
// binary), by position.
type bytesFn struct {
	simple
	args     string
	fallible bool
	ret      dtype.DType
}

func (f bytesFn) Arity() Arity   { return Exactly(len(f.args)) }
func (f bytesFn) Fallible() bool { return f.fallible }

func (f bytesFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		switch {
		case a.IsUtf8():
		case f.args[i] == 'b' && a.IsBinary():
		case f.args[i] == 'b':
			return dtype.DType{}, argErr(f, i, "has type %s, want binary or utf8", a)
		default:
			return dtype.DType{}, argErr(f, i, "has type %s, want utf8", a)
		}
	}
	return f.ret.WithNullable(anyNullable(args)), nil
}
