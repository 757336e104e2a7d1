package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference semantics of DuckDB's JSON functions (fn/json.go): a
// recursive reader into a tree of values (the kernel reads iteratively
// into a tape), strings decoded by encoding/json, paths split by regular
// expressions, and numbers printed from strconv's 'f' and 'e' forms.

// refJSON is a JSON value: kind is one of null, bool, number, string,
// array, object.
type refJSON struct {
	kind  string
	text  string // a bool's or number's text; a string's characters
	elems []refJSON
	keys  []string // an object's keys, by member
}

// refJSONReader reads one document.
type refJSONReader struct {
	s string
	i int
}

func refJSONErr(format string, a ...any) error {
	return refFail(errs.ErrInvalidArgument, "malformed JSON: "+format, a...)
}

func (r *refJSONReader) ws() {
	for r.i < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.i]) >= 0 {
		r.i++
	}
}

var (
	refNumberRe  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`)
	refSpecialRe = regexp.MustCompile(`^-?(?i:infinity|inf|nan)`)
)

func (r *refJSONReader) value() (refJSON, error) {
	r.ws()
	if r.i >= len(r.s) {
		return refJSON{}, refJSONErr("end of data")
	}
	rest := r.s[r.i:]
	for _, w := range []string{"true", "false", "null"} {
		if strings.HasPrefix(rest, w) {
			r.i += len(w)
			if w == "null" {
				return refJSON{kind: "null"}, nil
			}
			return refJSON{kind: "bool", text: w}, nil
		}
	}
	switch rest[0] {
	case '"':
		s, err := r.str()
		return refJSON{kind: "string", text: s}, err
	case '[', '{':
		obj := rest[0] == '{'
		r.i++
		v := refJSON{kind: "array"}
		if obj {
			v.kind = "object"
		}
		closer := map[bool]byte{false: ']', true: '}'}[obj]
		for {
			r.ws()
			if r.i < len(r.s) && r.s[r.i] == closer {
				r.i++
				return v, nil
			}
			if obj {
				r.ws()
				if r.i >= len(r.s) || r.s[r.i] != '"' {
					return v, refJSONErr("want a key at %d", r.i)
				}
				k, err := r.str()
				if err != nil {
					return v, err
				}
				r.ws()
				if r.i >= len(r.s) || r.s[r.i] != ':' {
					return v, refJSONErr("want : at %d", r.i)
				}
				r.i++
				v.keys = append(v.keys, k)
			}
			e, err := r.value()
			if err != nil {
				return v, err
			}
			v.elems = append(v.elems, e)
			r.ws()
			switch {
			case r.i < len(r.s) && r.s[r.i] == ',':
				r.i++ // a trailing comma is fine; two are not (the next value fails)
			case r.i < len(r.s) && r.s[r.i] == closer:
			default:
				return v, refJSONErr("want , at %d", r.i)
			}
		}
	}
	if m := refSpecialRe.FindString(rest); m != "" {
		r.i += len(m)
		return refJSON{kind: "number", text: m}, nil
	}
	m := refNumberRe.FindString(rest)
	if m == "" || len(rest) > len(m) && rest[len(m)] >= '0' && rest[len(m)] <= '9' {
		return refJSON{}, refJSONErr("bad value at %d", r.i)
	}
	r.i += len(m)
	return refJSON{kind: "number", text: m}, nil
}

// str reads a string token, checks it as the JSON grammar does, and
// decodes it with encoding/json.
func (r *refJSONReader) str() (string, error) {
	j := r.i + 1
	for {
		if j >= len(r.s) {
			return "", refJSONErr("unterminated string")
		}
		c := r.s[j]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return "", refJSONErr("control character")
		}
		if c == '\\' {
			if j+1 >= len(r.s) {
				return "", refJSONErr("unterminated escape")
			}
			if r.s[j+1] == 'u' {
				u, err := strconv.ParseUint(r.s[j+2:min(j+6, len(r.s))], 16, 32)
				if err != nil || j+6 > len(r.s) {
					return "", refJSONErr("bad \\u escape")
				}
				if u >= 0xDC00 && u <= 0xDFFF {
					return "", refJSONErr("lone low surrogate")
				}
				if u >= 0xD800 && u <= 0xDBFF {
					lo, err := strconv.ParseUint(r.s[min(j+8, len(r.s)):min(j+12, len(r.s))], 16, 32)
					if err != nil || j+12 > len(r.s) || r.s[j+6:j+8] != `\u` || lo < 0xDC00 || lo > 0xDFFF {
						return "", refJSONErr("lone high surrogate")
					}
					j += 6
				}
				j += 6
				continue
			}
			if !strings.ContainsRune(`"\/bfnrt`, rune(r.s[j+1])) {
				return "", refJSONErr("bad escape")
			}
			j += 2
			continue
		}
		j++
	}
	raw := r.s[r.i : j+1]
	if !utf8.ValidString(raw) {
		return "", refJSONErr("invalid UTF-8")
	}
	r.i = j + 1
	var out string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return "", refJSONErr("%v", err)
	}
	return out, nil
}

func refParseJSON(s string) (refJSON, error) {
	if strings.Trim(s, " \t\r\n") == "" {
		return refJSON{}, refJSONErr("empty")
	}
	r := &refJSONReader{s: s}
	v, err := r.value()
	if err != nil {
		return v, err
	}
	r.ws()
	if r.i != len(s) {
		return v, refJSONErr("content after the document")
	}
	return v, nil
}

// refJSONNumber prints a number as DuckDB does: integers of 64 bits as
// they are, doubles in the shortest form (positional from 1e-6 to below
// 1e21), the rest as written.
func refJSONNumber(text string) string {
	if !strings.ContainsAny(text, ".eEnNiI") {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return strconv.FormatInt(v, 10)
		}
		if v, err := strconv.ParseUint(text, 10, 64); err == nil {
			return strconv.FormatUint(v, 10)
		}
		return text
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && math.IsInf(f, 0) || math.IsNaN(f) || math.IsInf(f, 0) {
		return text
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		e, _ := strconv.Atoi(exp)
		return mant + "e" + strconv.Itoa(e)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// refJSONText is the minified text of v.
func refJSONText(v refJSON) string {
	switch v.kind {
	case "null":
		return "null"
	case "bool":
		return v.text
	case "number":
		return refJSONNumber(v.text)
	case "string":
		var b strings.Builder
		b.WriteByte('"')
		short := map[rune]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
		for _, c := range v.text {
			if e, ok := short[c]; ok {
				b.WriteString(e)
			} else if c < 0x20 {
				fmt.Fprintf(&b, `\u%04X`, c)
			} else {
				b.WriteRune(c)
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	parts := make([]string, len(v.elems))
	for i, e := range v.elems {
		parts[i] = refJSONText(e)
		if v.kind == "object" {
			parts[i] = refJSONText(refJSON{kind: "string", text: v.keys[i]}) + ":" + parts[i]
		}
	}
	if v.kind == "object" {
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// refJSONStep is one path step: a key, an index (from the end when back;
// past the end when hash alone), or a pointer token.
type refJSONStep struct {
	key     string
	index   int64
	isIndex bool
	back    bool
	pointer bool
}

var (
	refQuotedKeyRe = regexp.MustCompile(`^\."((?:[^"\\]|\\.)+)"`)
	refPlainKeyRe  = regexp.MustCompile(`^\.([^.\[*][^.\[]*)`)
	refIndexRe     = regexp.MustCompile(`^\[(#?)(-?)([0-9]+)\]`)
	refEscapeRe    = regexp.MustCompile(`\\(["\\])`) // a backslash before another character stays
)

// refJSONPath splits a path into steps.
func refJSONPath(p string) ([]refJSONStep, error) {
	switch {
	case p == "":
		return nil, nil
	case strings.HasPrefix(p, "/"):
		var steps []refJSONStep
		for _, tok := range strings.Split(p[1:], "/") {
			steps = append(steps, refJSONStep{key: strings.NewReplacer("~1", "/", "~0", "~").Replace(tok), pointer: true})
		}
		return steps, nil
	case !strings.HasPrefix(p, "$") && strings.Contains(p, `"`):
		// DuckDB: a key with a quote is the pointer /key
		return refJSONPath("/" + p)
	case !strings.HasPrefix(p, "$"):
		// and any other is $."key"
		return refJSONPath(`$."` + p + `"`)
	}
	var steps []refJSONStep
	for rest := p[1:]; rest != ""; {
		if strings.HasPrefix(rest, ".*") || strings.HasPrefix(rest, "..") || strings.HasPrefix(rest, "[*") {
			return nil, refFail(errs.ErrInvalidArgument, "JSON path %q: wildcard", p)
		}
		if m := refQuotedKeyRe.FindStringSubmatch(rest); m != nil {
			rest = rest[len(m[0]):]
			if rest != "" && rest[0] != '.' && rest[0] != '[' {
				return nil, refFail(errs.ErrInvalidArgument, "JSON path %q", p)
			}
			key := refEscapeRe.ReplaceAllString(m[1], "$1")
			if key == "*" {
				return nil, refFail(errs.ErrInvalidArgument, "JSON path %q: wildcard", p)
			}
			steps = append(steps, refJSONStep{key: key})
			continue
		}
		if strings.HasPrefix(rest, `."`) {
			return nil, refFail(errs.ErrInvalidArgument, "JSON path %q: unclosed or empty quoted key", p)
		}
		if m := refPlainKeyRe.FindStringSubmatch(rest); m != nil {
			rest = rest[len(m[0]):]
			steps = append(steps, refJSONStep{key: m[1]})
			continue
		}
		if strings.HasPrefix(rest, "[#]") {
			rest = rest[3:]
			steps = append(steps, refJSONStep{isIndex: true, back: true})
			continue
		}
		m := refIndexRe.FindStringSubmatch(rest)
		if m == nil || m[1] == "#" && m[2] == "" {
			return nil, refFail(errs.ErrInvalidArgument, "JSON path %q", p)
		}
		n, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			return nil, refFail(errs.ErrInvalidArgument, "JSON path %q: index out of range", p)
		}
		rest = rest[len(m[0]):]
		steps = append(steps, refJSONStep{isIndex: true, index: n, back: m[2] == "-" && n > 0})
	}
	return steps, nil
}

// refJSONFind follows steps from v; false when they lead nowhere.
func refJSONFind(v refJSON, steps []refJSONStep) (refJSON, bool) {
	for _, s := range steps {
		switch {
		case v.kind == "object" && !s.isIndex:
			found := false
			for i, k := range v.keys {
				if k == s.key {
					v, found = v.elems[i], true
					break
				}
			}
			if !found {
				return v, false
			}
		case v.kind == "array" && (s.isIndex || s.pointer):
			i := s.index
			if s.pointer {
				n, err := strconv.ParseInt(s.key, 10, 64)
				if err != nil || s.key != strconv.FormatInt(n, 10) || n < 0 {
					return v, false
				}
				i = n
			}
			if s.back {
				i = int64(len(v.elems)) - i
			}
			if i < 0 || i >= int64(len(v.elems)) {
				return v, false
			}
			v = v.elems[i]
		default:
			return v, false
		}
	}
	return v, true
}

// refJSONAt parses the document and finds the path of a call's values.
func refJSONAt(v []scalar.Scalar) (refJSON, bool, error) {
	doc, err := refParseJSON(v[0].Value().(string))
	if err != nil || len(v) < 2 {
		return doc, err == nil, err
	}
	var steps []refJSONStep
	if p, ok := v[1].Value().(string); ok {
		if steps, err = refJSONPath(p); err != nil {
			return doc, false, err
		}
	} else {
		i := intValue(v[1])
		steps = []refJSONStep{{isIndex: true, index: max(i, -i), back: i < 0}}
	}
	found, ok := refJSONFind(doc, steps)
	return found, ok, nil
}

func init() {
	refFuncs[fn.IDJSONExtract] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		j, ok, err := refJSONAt(v)
		if err != nil || !ok {
			return scalar.Null(t), err
		}
		return mk(t, refJSONText(j)), nil
	}
	refFuncs[fn.IDJSONExtractString] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		j, ok, err := refJSONAt(v)
		switch {
		case err != nil || !ok || j.kind == "null":
			return scalar.Null(t), err
		case j.kind == "string":
			return mk(t, j.text), nil
		}
		return mk(t, refJSONText(j)), nil
	}
	refFuncs[fn.IDJSONValid] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		_, err := refParseJSON(v[0].Value().(string))
		return mk(t, err == nil), nil
	}
	refFuncs[fn.IDJSONArrayLength] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		j, ok, err := refJSONAt(v)
		if err != nil || !ok {
			return scalar.Null(t), err
		}
		if j.kind != "array" {
			return mk(t, uint64(0)), nil
		}
		return mk(t, uint64(len(j.elems))), nil
	}
	refFuncs[fn.IDJSONType] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		j, ok, err := refJSONAt(v)
		if err != nil || !ok {
			return scalar.Null(t), err
		}
		name := map[string]string{"null": "NULL", "bool": "BOOLEAN", "string": "VARCHAR", "array": "ARRAY", "object": "OBJECT"}[j.kind]
		if j.kind == "number" {
			name = "DOUBLE"
			if _, err := strconv.ParseUint(j.text, 10, 64); err == nil {
				name = "UBIGINT"
			} else if _, err := strconv.ParseInt(j.text, 10, 64); err == nil {
				name = "BIGINT"
			}
		}
		return mk(t, name), nil
	}
}

// jsonCases are expressions over diffSchema (gen_test.go) with rows that
// the vectorized evaluator and the reference must agree on.
var jsonCases = []struct{ expr, data string }{
	{"json_extract(s, s2) || '|' || coalesce(s ->> s2, '∅')",
		`[{"s": "{\"a\":{\"b\":[1,2.50,1e21]},\"c\":\"x\\ny\"}", "s2": "$.a", "n64": 0},
		  {"s": "{\"a\":{\"b\":[1,2.50,1e21]},\"c\":\"x\\ny\"}", "s2": "$.a.b[-1]", "n64": 0},
		  {"s": "{\"a\":{\"b\":[1,2.50,1e21]},\"c\":\"x\\ny\"}", "s2": "c", "n64": 0},
		  {"s": "[1e-7, 0.000001, -0.0, -0, 1e400, NaN, 123456789012345678901234, 18446744073709551615, -9223372036854775808]", "s2": "$", "n64": 0},
		  {"s": "{\"d\":1,\"d\":2,\"\":3}", "s2": "d", "n64": 0},
		  {"s": "{\"d\":1,\"d\":2,\"\":3}", "s2": "/", "n64": 0},
		  {"s": "[[1,2],[3,[4]]]", "s2": "/1/1/0", "n64": 0},
		  {"s": "[[1,2],[3,[4]]]", "s2": "$[#-1][#]", "n64": 0},
		  {"s": "{\"a b\":\"\\u00e9\\u2028\\u0001\\/\"}", "s2": "$.\"a b\"", "n64": 0},
		  {"s": "[1,2,]", "s2": "", "n64": 0},
		  {"s": null, "s2": "$", "n64": 0},
		  {"s": "{\"a\":null}", "s2": null, "n64": 0},
		  {"s": "{\"a\":null}", "s2": "a", "n64": 0},
		  {"s": "{\"a\":null}", "s2": "$.b", "n64": 0}]`},
	{"s ->> i32", `[{"s": "[5,6,7]", "i32": -1, "n64": 0}, {"s": "[5,6,7]", "i32": 0, "n64": 0}, {"s": "[5,6,7]", "i32": 3, "n64": 0}, {"s": "{\"0\":1}", "i32": 0, "n64": 0}, {"s": "[5]", "i32": null, "n64": 0}]`},
	{"{v: json_valid(s), t: json_type(s), l: json_array_length(s)}",
		`[{"s": "[1,[2],3]", "n64": 0}, {"s": "x", "n64": 0}, {"s": "", "n64": 0}, {"s": null, "n64": 0}, {"s": "{\"a\":1,}", "n64": 0},
		  {"s": "-12", "n64": 0}, {"s": "12", "n64": 0}, {"s": "1.5", "n64": 0}, {"s": "\"x\"", "n64": 0}, {"s": "null", "n64": 0}, {"s": "true", "n64": 0}]`},
	{"json_valid(s)", `[{"s": "[1,,2]", "n64": 0}, {"s": "[00]", "n64": 0}, {"s": "\"\\ud800\"", "n64": 0}, {"s": "\"\\q\"", "n64": 0}, {"s": "1 2", "n64": 0}, {"s": "-inf", "n64": 0}]`},
	{"{t: json_type(s, s2), l: json_array_length(s, s2)}",
		`[{"s": "{\"a\":[1,-1,1.0,1e400,[],{},null,\"s\",false]}", "s2": "$.a", "n64": 0},
		  {"s": "{\"a\":[1,-1,1.0,1e400,[],{},null,\"s\",false]}", "s2": "$.a[1]", "n64": 0},
		  {"s": "{\"a\":[1,-1,1.0,1e400,[],{},null,\"s\",false]}", "s2": "$.a[3]", "n64": 0},
		  {"s": "{\"a\":[1,-1,1.0,1e400,[],{},null,\"s\",false]}", "s2": "$.a[6]", "n64": 0},
		  {"s": "{\"a\":[1,-1,1.0,1e400,[],{},null,\"s\",false]}", "s2": "$.b", "n64": 0}]`},
	{"json_extract(s, 'a')", `[{"s": "{\"a\":1}", "n64": 0}, {"s": "{\"a\"}", "n64": 0}]`},
	{"s ->> s2", `[{"s": "{\"a\\\\\\\"b\":7,\"a\\\"b\":2,\"a\\\\b\":4,\"x\\\\\":9,\"*\":1}", "n64": 0, "s2": "a\\\"b"},
		{"s": "{\"a\\\\b\":4}", "n64": 0, "s2": "a\\b"}, {"s": "{\"a\\\\b\":4}", "n64": 0, "s2": "a\\\\b"},
		{"s": "{\"a\\\"b\":2}", "n64": 0, "s2": "a\"b"}, {"s": "{\"a\\\"b\":2}", "n64": 0, "s2": "$.\"a\\\"b\""}]`},
	{"s ->> s2", `[{"s": "{\"a\":1}", "n64": 0, "s2": "ack\\"}]`},
	{"s ->> s2", `[{"s": "{\"*\":1}", "n64": 0, "s2": "*"}]`},
	{"s ->> s2", `[{"s": "{\"*\":1}", "n64": 0, "s2": "/*"}]`},
	{"s ->> s2", `[{"s": "{\"a\":1}", "n64": 0, "s2": "$.\"a"}]`},
	{"json_type(s, s2)", `[{"s": "[1]", "n64": 0, "s2": "$[0]"}, {"s": "[1]", "n64": 0, "s2": "$[x]"}]`},
	{"json_extract_string(s, s2)", `[{"s": "[1]", "n64": 0, "s2": "$[*]"}]`},
}

// TestJSONReference evaluates the JSON functions vectorized and row by row
// over the same rows (values, nulls and errors must agree), in every
// input mode of the differential test.
func TestJSONReference(t *testing.T) {
	root := mustType(t, diffSchema)
	for _, c := range jsonCases {
		for _, mode := range []diffMode{{}, {scalarRoot: true}, {vars: []string{"s", "i32"}}} {
			t.Run(c.expr+"/"+mode.String(), func(t *testing.T) {
				checkReferenceCase(t, root, c.expr, c.data, mode)
			})
		}
	}
}

// TestJSONReferenceNumbers: the reference's number printing gives DuckDB's
// answers (the kernel tests hold more).
func TestJSONReferenceNumbers(t *testing.T) {
	for in, want := range map[string]string{"1e20": "100000000000000000000.0", "1e21": "1e21", "1e-7": "1e-7", "0.000001": "0.000001",
		"-0.0": "-0.0", "-0": "0", "2.5e-300": "2.5e-300", "1e400": "1e400", "123456789012345678901234": "123456789012345678901234",
		"12345678901234567890.5": "12345678901234567000.0", "1.25e-6": "0.00000125", "1e-400": "0.0", "NaN": "NaN"} {
		if got := refJSONNumber(in); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}
