package kernels

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below are DuckDB 2.0's answers (bench/cmd/duckquery,
// json_extract(…)::VARCHAR for its JSON text).

// jsonList is the JSON array of vals, nil for null: a column of documents
// without hand-escaping them.
func jsonList(vals ...any) string {
	b, err := json.Marshal(vals)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func jsonExtractCall(text bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return JSONExtract(mem, a, text, ret)
	}
}

// TestJSONNumbers: how DuckDB prints each number it reads.
func TestJSONNumbers(t *testing.T) {
	cases := [][2]string{
		{"0", "0"}, {"-0", "0"}, {"1", "1"}, {"-1", "-1"}, {"3.0", "3.0"}, {"3.5", "3.5"},
		{"1e2", "100.0"}, {"1E2", "100.0"}, {"1.5e3", "1500.0"}, {"1e+5", "100000.0"}, {"1E-2", "0.01"},
		{"100000000000000000000", "100000000000000000000"}, {"1e20", "100000000000000000000.0"},
		{"1e21", "1e21"}, {"1e22", "1e22"}, {"1e23", "1e23"}, {"1e15", "1000000000000000.0"},
		{"1e16", "10000000000000000.0"}, {"1e-5", "0.00001"}, {"1e-6", "0.000001"}, {"1e-7", "1e-7"},
		{"0.0000001", "1e-7"}, {"2.5e-300", "2.5e-300"}, {"1e308", "1e308"}, {"-0.0", "-0.0"}, {"0.1", "0.1"},
		{"123456789012345678901234", "123456789012345678901234"}, {"9223372036854775807", "9223372036854775807"},
		{"9223372036854775808", "9223372036854775808"}, {"18446744073709551615", "18446744073709551615"},
		{"18446744073709551616", "18446744073709551616"}, {"-9223372036854775808", "-9223372036854775808"},
		{"-9223372036854775809", "-9223372036854775809"}, {"1.7976931348623157e308", "1.7976931348623157e308"},
		{"1e400", "1e400"}, {"-1e400", "-1e400"}, {"1E400", "1E400"}, {"5e-324", "5e-324"}, {"1e-400", "0.0"},
		{"-1e-400", "-0.0"}, {"0e400", "0.0"}, {"-0e0", "-0.0"}, {"0.30000000000000004", "0.30000000000000004"},
		{"123.456e5", "12345600.0"}, {"12345678901234567890.5", "12345678901234567000.0"}, {"1.0e0", "1.0"},
		{"-1e-7", "-1e-7"}, {"123456789012.125", "123456789012.125"}, {"9007199254740993", "9007199254740993"},
		{"9007199254740993.0", "9007199254740992.0"}, {"1e-4", "0.0001"}, {"12345678901234567", "12345678901234567"},
		{"1234567890123456789012.0", "1.2345678901234568e21"}, {"9.999999999999999e20", "999999999999999900000.0"},
		{"1.5e-7", "1.5e-7"}, {"123e-9", "1.23e-7"}, {"1.25e-6", "0.00000125"}, {"2e0", "2.0"}, {"1e100", "1e100"},
		{"123456789012345678901234.5", "1.2345678901234569e23"}, {"NaN", "NaN"}, {"-nan", "-nan"}, {"INF", "INF"},
		{"-Infinity", "-Infinity"}, {"infinity", "infinity"},
	}
	var docs, want []any
	for _, c := range cases {
		docs = append(docs, "["+c[0]+"]")
		want = append(want, c[1])
	}
	runCases(t, []kernelCase{
		{name: "numbers", args: []in{col(str, jsonList(docs...)), s("$[0]")}, ret: strN, want: jsonList(want...)},
	}, jsonExtractCall(false))
}

func TestJSONExtract(t *testing.T) {
	doc := `{"a":{"b":[10,20,{"c d":"e"}]},"a b":1,"x.y":2,"":3,"a\"b":4,"$":5,"/":6,"n":null,"s":"x\ny","d":1,"d":2}`
	runCases(t, []kernelCase{
		{name: "paths", args: []in{s(doc), col(str, jsonList("$.a", "$.a.b[1]", `$."a b"`, "$.a b", "$.x.y", `$."x.y"`, "$[0]",
			"$.a.b[#]", "$.a.b[#-0]", "$.a.b[-0]", "$.a.b[-1]", "$.a.b[-3]", "$.a.b[-4]", "$.a.b[#-1]", "$.a.b[01]", "a", "x.y",
			"$.$", "/a/b/1", "/", "/a", `$."a\"b"`, `$.a\"b`, "a b", "$.a.b.0", " $.a", "$.a ", "$.a.b[9223372036854775807]",
			"$.a.b[2].\"c d\"", "$.n", "$.s", "$.d", "/a/b/-1", "/a/b/01", "/x~1y", "/a/b/2/c d", ""))}, ret: strN,
			want: jsonList(`{"b":[10,20,{"c d":"e"}]}`, "20", "1", "1", nil, "2", nil,
				nil, "10", "10", `{"c d":"e"}`, "10", nil, `{"c d":"e"}`, "20", `{"b":[10,20,{"c d":"e"}]}`, "2",
				"5", "20", "3", `{"b":[10,20,{"c d":"e"}]}`, "4", nil, "1", nil, nil, nil, nil,
				`"e"`, "null", `"x\ny"`, "1", nil, nil, nil, `"e"`,
				`{"a":{"b":[10,20,{"c d":"e"}]},"a b":1,"x.y":2,"":3,"a\"b":4,"$":5,"/":6,"n":null,"s":"x\ny","d":1,"d":2}`)},
		{name: "whole documents", args: []in{col(strN, jsonList("[1,]", `{"a":1,}`, "NaN", " 1 ", "[ ]", "{ }", "[{},]", "[1 ,2 ]", "[1,\n]",
			`{"a":1 , }`, "[true,]", nil, `  {"a" : [1, 2.50, {"b": true}], "c": "\/\u00e9\u2028\u0001\u001f\b\f\n\r\t\"\\"}`)), s("$")}, ret: strN,
			want: jsonList("[1]", `{"a":1}`, "NaN", "1", "[]", "{}", "[{}]", "[1,2]", "[1]", `{"a":1}`, "[true]", nil,
				`{"a":[1,2.5,{"b":true}],"c":"/é`+"\u2028"+`\u0001\u001F\b\f\n\r\t\"\\"}`)},
		{name: "key spellings", args: []in{s(`{"a\"b":1,"a\\b":2,"ab":3,"a*":4,"x":{"y z":5},"c\u0064":6}`),
			col(str, jsonList(`$.a"b`, `$."a\\b"`, `$.a\b`, `$.a\u0062`, `$.a*`, `$."a*"`, `$.x.y z`, `$."a\"b"`, "$.cd"))}, ret: strN,
			want: jsonList("1", "2", "2", nil, "4", "4", "5", "1", "6")},
		// DuckDB 2.0: keys a\"b=7, a"b=2, a\b=4, a\\b=8, x\=9; a plain key with a
		// quote is a pointer token, any other is read as $."key".
		{name: "plain keys", args: []in{s(`{"a\\\"b":7,"a\"b":2,"a\\b":4,"a\\\\b":8,"x\\":9,"\"a\"":5}`),
			col(str, jsonList(`a\"b`, `a\\"b`, `a\b`, `a\\b`, `a\\\b`, `a\\\\b`, `$."a\"b"`, `$."a\\\"b"`, `$."a\b"`, `$."a\\b"`,
				`$."a\\\\b"`, `x\\`, `$."x\\"`, `a"b`, `"`, `a"`, `"a"`))}, ret: strN,
			want: jsonList("7", nil, "4", "4", "8", "8", "2", "7", "4", "4", "8", "9", "9", "2", nil, nil, "5")},
		{name: "plain key ending in a backslash", args: []in{s(`{"a":1}`), s(`ack\`)}, ret: strN, errText: "cannot end in a backslash"},
		{name: "quoted key ending in a backslash", args: []in{s(`{"a":1}`), s(`$."a\\"b"`)}, ret: strN, errText: "malformed JSON path"},
		{name: "integer paths", args: []in{col(str, jsonList("[1,2,3]", "[1,2,3]", "[1,2,3]", "[1,2,3]", `{"1":7}`, "[1,2,3]")),
			col(i64N, `[1, -1, 5, -3, 1, null]`)}, ret: strN, want: jsonList("2", "3", nil, "1", nil, nil)},
		{name: "scalar", args: []in{s(`{"a":[1,{"b":null}]}`), s("$.a[1]")}, ret: strN, want: `["{\"b\":null}"]`},
		{name: "scalar missing", args: []in{s(`{"a":1}`), s("b")}, ret: strN, want: `[null]`},
		{name: "null path", args: []in{col(str, `["1", "2"]`), lit(scalar.Null(str))}, ret: strN, want: `[null, null]`},
		{name: "paths per row", args: []in{col(str, jsonList(`{"a":1}`, "[5]", "[5]", "[5]")), col(strN, jsonList("a", "$[0]", nil, "$[1]"))},
			ret: strN, want: jsonList("1", "5", nil, nil)},
		{name: "deep", args: []in{s(strings.Repeat("[", 100000) + "7" + strings.Repeat("]", 100000)), s("$" + strings.Repeat("[0]", 100000))}, ret: strN, want: `["7"]`},
		{name: "deep printed", args: []in{s(strings.Repeat(`{"a":[`, 50000) + strings.Repeat("]}", 50000)), s("$" + strings.Repeat(".a[0]", 49999))}, ret: strN, want: `["{\"a\":[]}"]`},
		{name: "malformed", args: []in{col(str, jsonList(`{"a":1}`, `{"a"}`)), s("a")}, ret: strN, errText: "row 1: malformed JSON at byte 4 of input: unexpected character"},
		{name: "malformed in a null row", args: []in{col(strN, jsonList(`{"a":1}`, "x")), col(strN, jsonList("a", nil))}, ret: strN, want: jsonList("1", nil)},
		{name: "bad path", args: []in{col(strN, jsonList(nil)), s("$.")}, ret: strN, errText: `malformed JSON path "$."`},
		{name: "bad path of a row", args: []in{col(str, jsonList("1", "2")), col(str, jsonList("$", "$a"))}, ret: strN, errText: `row 1: malformed JSON path "$a": error near "a"`},
		{name: "wildcard", args: []in{s("[1]"), s("$[*]")}, ret: strN, errText: "wildcard"},
		{name: "recursive", args: []in{s("[1]"), s("$..a")}, ret: strN, errText: "wildcard"},
		{name: "a star key is a wildcard", args: []in{s(`{"*":1}`), s("*")}, ret: strN, errText: "wildcard"},
		{name: "a quoted star is a wildcard", args: []in{s(`{"*":1}`), s(`$."*"`)}, ret: strN, errText: "wildcard"},
		{name: "a pointer star is a key", args: []in{s(`{"*":1}`), s("/*")}, ret: strN, want: `["1"]`},
	}, jsonExtractCall(false))
}

// TestJSONMalformed: DuckDB's byte and reason for each malformed document.
func TestJSONMalformed(t *testing.T) {
	for _, c := range [][2]string{
		{"", "byte 0 of input: input length is 0"}, {" ", "byte 0 of input: input data is empty"},
		{"/*c*/1", "byte 0 of input: unexpected character"}, {"1 //x", "byte 2 of input: unexpected content after document"},
		{"1 2", "byte 2 of input: unexpected content after document"}, {`{"a":1} x`, "byte 8 of input: unexpected content after document"},
		{`{"a":1}}`, "byte 7 of input: unexpected content after document"}, {"tru", "byte 3 of input: unexpected end of data"},
		{`"x`, "byte 2 of input: unexpected end of data"}, {"[1", "byte 2 of input: unexpected end of data"},
		{`{"a"}`, "byte 4 of input: unexpected character"}, {`{"a":}`, "byte 5 of input: unexpected character"},
		{"{a:1}", "byte 1 of input: unexpected character"}, {"[1,,2]", "byte 3 of input: unexpected character"},
		{`"\q"`, "byte 2 of input: invalid escaped character in string"}, {`"\u00zz"`, "byte 1 of input: invalid escaped sequence in string"},
		{`"\u12"`, "byte 1 of input: invalid escaped sequence in string"}, {`["\ud800"]`, "byte 8 of input: no low surrogate in string"},
		{`["\udc00x"]`, "byte 2 of input: invalid high surrogate in string"}, {"[\"\x01\"]", "byte 2 of input: unexpected control character in string"},
		{"[00]", "byte 1 of input: number with leading zero is not allowed"}, {"[1.]", "byte 3 of input: no digit after decimal point"},
		{"[.5]", "byte 1 of input: unexpected character"}, {"[-]", "byte 2 of input: no digit after minus sign"},
		{"[1e]", "byte 3 of input: no digit after exponent sign"}, {"[+1]", "byte 1 of input: unexpected character"},
		{"[+nan]", "byte 1 of input: unexpected character"}, {"[infinit]", "byte 4 of input: unexpected character"},
		{"[nana]", "byte 4 of input: unexpected character"}, {"[,]", "byte 1 of input: unexpected character"},
		{"\"\xff\"", "byte 1 of input: invalid utf-8 encoding in string"},
		{"[trux]", "byte 1 of input: invalid literal"}, {"tx", "byte 0 of input: invalid literal"}, {"nax", "byte 0 of input: invalid literal"},
		{"na", "byte 2 of input: unexpected end of data"}, {"nul", "byte 3 of input: unexpected end of data"},
		{"nulx", "byte 0 of input: invalid literal"}, {"-i", "byte 2 of input: unexpected end of data"},
		{"[Tru]", "byte 1 of input: unexpected character"}, {"True", "byte 0 of input: unexpected character"},
		{"infx", "byte 3 of input: unexpected content after document"},
	} {
		d := &jsonDoc{}
		err := d.parse([]byte(c[0]))
		if err == nil || !strings.Contains(err.Error(), "malformed JSON at "+c[1]) {
			t.Errorf("%q: error %v, want malformed JSON at %s", c[0], err, c[1])
		}
	}
}

func TestJSONExtractString(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "values", args: []in{col(strN, jsonList(`{"a":"x\\ny"}`, `{"a":null}`, `{"a":1}`, `{"a":[1,2.50,{"b":true}]}`, nil,
			`{"a":"\u00e9\ud83d\ude00"}`, `{"a":1.5e400}`, `{"a":1e2}`, `{"a":true}`, `{"a":"\u0000"}`)), s("$.a")}, ret: strN,
			want: jsonList(`x\ny`, nil, "1", `[1,2.5,{"b":true}]`, nil, "é😀", "1.5e400", "100.0", "true", "\x00")},
		{name: "missing", args: []in{s(`{"a":1}`), s("$.b")}, ret: strN, want: `[null]`},
		{name: "index", args: []in{s(`[5,6,7]`), lit(scalar.Int(dtype.I32, -1))}, ret: strN, want: `["7"]`},
	}, jsonExtractCall(true))
}

func TestJSONValid(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "documents", args: []in{col(strN, jsonList("", " ", "[1,]", "nan", nil, "x", `{"a":nul}`, `{"a":1,"a":2}`, "1 2", "[-Infinity]"))},
			ret: boolN, want: `[false, false, true, true, null, false, false, true, false, true]`},
	}, JSONValid)
}

func TestJSONType(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "values", args: []in{col(strN, jsonList("[123456789012345678901234]", "[-123456789012345678901234]", "[null]", `["x"]`,
			"[{}]", "[[]]", "[1.5]", "[-1]", "[18446744073709551615]", "[true]", "[-0]", "[NaN]", "[]", nil)), s("$[0]")}, ret: strN,
			want: jsonList("DOUBLE", "DOUBLE", "NULL", "VARCHAR", "OBJECT", "ARRAY", "DOUBLE", "BIGINT", "UBIGINT", "BOOLEAN", "BIGINT", "DOUBLE", nil, nil)},
		{name: "root", args: []in{col(str, jsonList("null", "{}", "1"))}, ret: str, want: `["NULL", "OBJECT", "UBIGINT"]`},
		{name: "malformed", args: []in{s("[")}, ret: strN, errText: "unexpected end of data"},
	}, JSONType)
}

func TestJSONArrayLength(t *testing.T) {
	u64N, u64 := dtype.Primitive(dtype.U64, true), dtype.Primitive(dtype.U64, false)
	runCases(t, []kernelCase{
		{name: "root", args: []in{col(str, jsonList("[1,2,[3]]", `{"a":1}`, "1", "null", "[]", "[1,2,]"))}, ret: u64, want: `[3, 0, 0, 0, 0, 2]`},
		{name: "paths", args: []in{col(strN, jsonList("[1,[2,3]]", "[1]", nil, `{"a":[[]]}`)), col(str, jsonList("$[1]", "$.x", "$", "a"))}, ret: u64N,
			want: `[2, null, null, 1]`},
		{name: "scalar", args: []in{s("[1,2]")}, ret: u64, want: `[2]`},
	}, JSONArrayLength)
}
