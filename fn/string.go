package fn

import "github.com/colexpr/colexpr/dtype"

// The string functions, over utf8 (byte_length also over binary).
//
//	lower(s), upper(s)                 Unicode case mapping
//	length(s)                          characters (code points), i64; of a list, its length (as in DuckDB)
//	byte_length(s)                     bytes, i64
//	starts_with, ends_with, contains   bool
//	concat(s1, s2, …)                  nulls are skipped, as in DuckDB; never null
//	string_concat(a, b)                the || operator: null when either side is, as in DuckDB
//	substring(s, start[, len])         characters, as in DuckDB: start 1 is the first character,
//	                                   a negative start counts from the end (-1 is the last),
//	                                   0 stands just before the first; len characters from start
//	                                   (a negative len: the -len before start), and of that window
//	                                   the part inside s: substring('abc', -5, 3) is 'a',
//	                                   substring('ab', 4, -2) is 'b'; without len, the rest of s
var (
	Lower      Function = strFn{simple{IDLower}, 1, 1, dtype.Utf8(false)}
	Upper      Function = strFn{simple{IDUpper}, 1, 1, dtype.Utf8(false)}
	Length     Function = strFn{simple{IDLength}, 1, 1, dtype.Primitive(dtype.I64, false)}
	ByteLength Function = byteLength{simple{IDByteLength}}
	StartsWith Function = strFn{simple{IDStartsWith}, 2, 2, dtype.Bool(false)}
	EndsWith   Function = strFn{simple{IDEndsWith}, 2, 2, dtype.Bool(false)}
	Contains   Function = strFn{simple{IDContains}, 2, 2, dtype.Bool(false)}
	Concat     Function = concat{simple{IDConcat}}
	// StringConcat is a || b, on strings and on lists (list_concat, but
	// null when either side is).
	StringConcat Function = stringConcat{simple{IDStringConcat}}
	Substring    Function = substring{simple{IDSubstring}}
)

type strFn struct {
	simple
	min, max int
	ret      dtype.DType
}

func (s strFn) Arity() Arity { return Arity{s.min, s.max} }

func (s strFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if s.id == IDLength && len(args) == 1 && args[0].IsList() {
		return dtype.Primitive(dtype.I64, args[0].Nullable()), nil // length([1, 2]) is 2
	}
	for i, a := range args {
		if !a.IsUtf8() {
			return dtype.DType{}, argErr(s, i, "has type %s, want utf8", a)
		}
	}
	return s.ret.WithNullable(anyNullable(args)), nil
}

type byteLength struct{ simple }

func (b byteLength) Arity() Arity { return Exactly(1) }

func (b byteLength) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() && !args[0].IsBinary() {
		return dtype.DType{}, argErr(b, 0, "has type %s, want utf8 or binary", args[0])
	}
	return dtype.Primitive(dtype.I64, args[0].Nullable()), nil
}

type concat struct{ simple }

func (c concat) Arity() Arity               { return AtLeast(1) }
func (c concat) NullHandling() NullHandling { return NullAware }

func (c concat) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsUtf8() && !a.IsNull() {
			return dtype.DType{}, argErr(c, i, "has type %s, want utf8", a)
		}
	}
	return dtype.Utf8(false), nil
}

type substring struct{ simple }

func (s substring) Arity() Arity { return Arity{2, 3} }

func (s substring) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if !args[0].IsUtf8() {
		return dtype.DType{}, argErr(s, 0, "has type %s, want utf8", args[0])
	}
	for i := 1; i < len(args); i++ {
		if !args[i].IsInt() {
			return dtype.DType{}, argErr(s, i, "has type %s, want an integer", args[i])
		}
	}
	return dtype.Utf8(anyNullable(args)), nil
}

type stringConcat struct{ simple }

func (c stringConcat) Arity() Arity { return Exactly(2) }

func (c stringConcat) ReturnType(args []dtype.DType) (dtype.DType, error) {
	if args[0].IsList() || args[1].IsList() {
		// [1, 2] || [3]: list concatenation, null when either is null.
		return concatListType(c, args, true)
	}
	for i, a := range args {
		if !a.IsUtf8() && !a.IsNull() { // 'a' || NULL is NULL
			return dtype.DType{}, argErr(c, i, "has type %s, want utf8", a)
		}
	}
	return dtype.Utf8(anyNullable(args)), nil
}
