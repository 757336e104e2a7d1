package kernels

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below were checked against DuckDB 1.5.

func TestRegexpMatches(t *testing.T) {
	strs := col(strN, `["abc", "ABC", "a\nb", "", null, "日本語"]`)
	runCases(t, []kernelCase{
		{name: "search", args: []in{strs, s("b")}, ret: boolN, want: `[true, false, true, false, null, false]`},
		{name: "anchored", args: []in{strs, s("^b")}, ret: boolN, want: `[false, false, false, false, null, false]`},
		{name: "fold", args: []in{strs, s("b"), s("i")}, ret: boolN, want: `[true, true, true, false, null, false]`},
		{name: "later option wins", args: []in{strs, s("b"), s("ic")}, ret: boolN, want: `[true, false, true, false, null, false]`},
		{name: "dot and newline", args: []in{strs, s("a.b")}, ret: boolN, want: `[false, false, false, false, null, false]`},
		{name: "dot matches newline", args: []in{strs, s("a.b"), s("s")}, ret: boolN, want: `[false, false, true, false, null, false]`},
		{name: "literal", args: []in{col(str, `["a.c", "abc"]`), s("a.c"), s("l")}, ret: boolNN, want: `[true, false]`},
		{name: "unicode class", args: []in{strs, s(`^\p{Han}+$`)}, ret: boolN, want: `[false, false, false, false, null, true]`},
		{name: "patterns per row", args: []in{col(str, `["abc", "abc", "xyz", "xyz"]`), col(strN, `["b", "b", "^x", null]`)}, ret: boolN,
			want: `[true, true, true, null]`},
		{name: "bad pattern", args: []in{col(strN, `[null, "a"]`), s("(")}, ret: boolN, errText: "invalid regular expression \"(\""},
		{name: "bad pattern no rows need", args: []in{col(strN, `[null, null]`), s("(")}, ret: boolN, errText: "missing closing )"},
		{name: "bad pattern of a row", args: []in{col(strN, `[null, "a", "b"]`), col(strN, `["(", "(", "b"]`)}, ret: boolN, errText: "row 1: invalid regular expression"},
		{name: "bad option", args: []in{s("a"), s("a"), s("z")}, ret: boolNN, errText: "unrecognized option 'z'"},
		{name: "global not allowed", args: []in{s("a"), s("a"), s("g")}, ret: boolNN, errText: "only valid for regexp_replace"},
		{name: "null options", args: []in{s("a"), s("a"), lit(scalar.Null(str))}, ret: boolNN, errText: "must not be null"},
		{name: "options per row", args: []in{col(str, `["a"]`), s("a"), col(str, `["i"]`)}, ret: boolNN, errText: "must be a constant"},
	}, matchesCall(false))
}

func matchesCall(whole bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return RegexpMatches(mem, a, whole, ret)
	}
}

// TestRegexpFullMatch: DuckDB's answers for regexp_full_match and SIMILAR
// TO; an alternation whose first branch matches a prefix still matches the
// whole string by the other.
func TestRegexpFullMatch(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "whole", args: []in{col(strN, `["abc", "xabc", "abcx", null, "a\nc"]`), s("a.c")}, ret: boolN, want: `[true, false, false, null, false]`},
		{name: "alternation", args: []in{s("ab"), s("a|ab")}, ret: boolNN, want: `[true]`},
		{name: "fold", args: []in{col(str, `["ABC", "abc"]`), s("a.c"), s("i")}, ret: boolNN, want: `[true, true]`},
		{name: "fold is not a substring", args: []in{s("abc"), s("B"), s("i")}, ret: boolNN, want: `[false]`},
		{name: "literal", args: []in{col(str, `["a.c", "abc"]`), s("a.c"), s("l")}, ret: boolNN, want: `[true, false]`},
		{name: "empty", args: []in{col(str, `["", "a"]`), s("")}, ret: boolNN, want: `[true, false]`},
	}, matchesCall(true))
}

// TestGlob: DuckDB's answers (bench/cmd/duckquery).
func TestGlob(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "star and question mark", args: []in{col(strN, `["abc", "ABC", "", null, "a.c", "ábc"]`), col(str, `["a*", "A*", "*", "x", "a?c", "?bc"]`)}, ret: boolN,
			want: `[true, true, true, null, true, false]`},
		{name: "case matters", args: []in{s("abc"), s("A*")}, ret: boolNN, want: `[false]`},
		{name: "empty pattern", args: []in{col(str, `["abc", ""]`), s("")}, ret: boolNN, want: `[false, true]`},
		{name: "sets", args: []in{col(str, `["abc", "abc", "abc", "a]", "a*c", "a-", "b"]`), col(str, `["[a-b]bc", "a[!b]c", "a[^b]c", "a[]]", "a[*]c", "a[x-]", "[!]]"]`)}, ret: boolNN,
			want: `[true, false, true, true, true, true, true]`},
		{name: "ranges", args: []in{col(str, `["ax", "a]", "a-", "b", "b", "-", "a", "]", "x", "^", "a-"]`), col(str, `["a[x-]", "a[x-]", "a[-x]", "[c-a]", "[a-c]", "[a-]", "[a-]", "[a-]]", "[]-a]", "[]-a]", "a[x-"]`)}, ret: boolNN,
			want: `[true, false, true, false, true, true, true, false, false, true, false]`},
		{name: "escape", args: []in{col(str, `["a\\c", "ac", "a*", "ab"]`), col(str, `["a\\c", "a\\c", "a\\*", "a\\*"]`)}, ret: boolNN,
			want: `[false, true, true, false]`},
		{name: "never matches", args: []in{col(str, `["a[", "a", "a\\", "[]"]`), col(str, `["a[", "a[", "a\\", "[]"]`)}, ret: boolNN,
			want: `[false, false, false, false]`},
		{name: "stars backtrack", args: []in{col(str, `["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "abcbcd", "mississippi"]`), col(str, `["*a*a*a*a*a*a*b", "*a*a*a*a*a*a*b", "a*bcd", "m*iss*ppi"]`)}, ret: boolNN,
			want: `[true, false, true, true]`},
	}, Glob)
}

func TestRegexpReplace(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "first", args: []in{col(strN, `["abab", "", null, "xyz"]`), s("b"), s("x")}, ret: strN, want: `["axab", "", null, "xyz"]`},
		{name: "global", args: []in{s("abab"), s("b"), s("x"), s("g")}, ret: str, want: `["axax"]`},
		{name: "groups", args: []in{s("abab"), s("(a)(b)"), s(`\2\1`), s("g")}, ret: str, want: `["baba"]`},
		{name: "whole match", args: []in{s("abab"), s("a"), s(`\0\0`)}, ret: str, want: `["aabab"]`},
		{name: "backslash", args: []in{s("abab"), s("a"), s(`\\`)}, ret: str, want: `["\\bab"]`},
		{name: "dollar is literal", args: []in{s("abab"), s("a"), s("$1")}, ret: str, want: `["$1bab"]`},
		{name: "global fold", args: []in{s("ABab"), s("a"), s("x"), s("gi")}, ret: str, want: `["xBxb"]`},
		{name: "empty matches", args: []in{s("abc"), s(""), s("x"), s("g")}, ret: str, want: `["xaxbxcx"]`},
		{name: "empty after match", args: []in{s("abc"), s("b*"), s("x"), s("g")}, ret: str, want: `["xaxcx"]`},
		{name: "multibyte", args: []in{s("日本語"), s("本"), s("-")}, ret: str, want: `["日-語"]`},
		{name: "missing group", args: []in{s("abab"), s("a"), s(`\3`)}, ret: str, errText: "refers to group 3"},
		{name: "replacements per row", args: []in{col(str, `["ab", "ab"]`), s("(b)"), col(strN, `["<\\1>", null]`)}, ret: strN,
			want: `["a<b>", null]`},
	}, RegexpReplace)
}

func TestRegexpExtract(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "match", args: []in{col(strN, `["abc123", "abc", null]`), s("[0-9]+")}, ret: strN, want: `["123", "", null]`},
		{name: "group", args: []in{s("abc123"), s("([a-z]+)([0-9]+)"), n64(2)}, ret: str, want: `["123"]`},
		{name: "missing group", args: []in{s("abc123"), s("([a-z]+)"), n64(2)}, ret: str, want: `[""]`},
		{name: "unused group", args: []in{s("b"), s("(a)|b"), n64(1)}, ret: str, want: `[""]`},
		{name: "fold", args: []in{s("ABC"), s("b"), n64(0), s("i")}, ret: str, want: `["B"]`},
		{name: "null group", args: []in{col(strN, `["abc", null]`), s("b"), lit(scalar.Null(i64))}, ret: strN, want: `["", null]`},
		{name: "group out of range", args: []in{s("abc"), s("b"), n64(-1)}, ret: str, errText: "not between 0 and 9"},
		{name: "group per row", args: []in{col(str, `["abc"]`), s("b"), col(i64, `[0]`)}, ret: str, errText: "must be a constant"},
	}, RegexpExtract)
}

// TestRegexpExtractAll: DuckDB's answers (bench/cmd/duckquery), empty
// matches right after a match and anchors after the first match included.
func TestRegexpExtractAll(t *testing.T) {
	list := dtype.List(dtype.Utf8(true), false)
	listN := dtype.List(dtype.Utf8(true), true)
	runCases(t, []kernelCase{
		{name: "words", args: []in{col(strN, `["hello world", null, ""]`), s(`\w+`)}, ret: listN, want: `[["hello", "world"], null, []]`},
		{name: "empty matches", args: []in{col(str, `["abc", "a1b22c", "héllo", "xay", "aa", "", "ab"]`), col(str, `["x*", "[0-9]*", "l*", "a|", "a*", "x*", ""]`)}, ret: list,
			want: `[["", "", "", ""], ["", "1", "", "22", "", ""], ["", "", "ll", "", ""], ["", "a", "", ""], ["aa", ""], [""], ["", "", ""]]`},
		{name: "anchors see the text before", args: []in{col(str, `["aab", "ab cd", "a\nb", "abc"]`), col(str, `["^a*", "\\b\\w*", "(?m)^\\w*", "\\B"]`)}, ret: list,
			want: `[["aa"], ["ab", "", "cd", ""], ["a", "b"], ["", ""]]`},
		{name: "group", args: []in{s("a1b22"), s("([a-z])([0-9]+)"), n64(2)}, ret: list, want: `[["1", "22"]]`},
		{name: "group not taking part", args: []in{s("abab"), s("(?:a|(b))"), n64(1)}, ret: list, want: `[[null, "b", null, "b"]]`},
		{name: "negative group", args: []in{s("abc"), s("."), n64(-1)}, ret: list, want: `[[]]`},
		{name: "null group", args: []in{col(strN, `["abc", null]`), s("b"), lit(scalar.Null(i64))}, ret: listN, want: `[null, null]`},
		{name: "fold", args: []in{s("ABCb"), s("b"), n64(0), s("i")}, ret: list, want: `[["B", "b"]]`},
		{name: "group beyond the pattern's", args: []in{s("abc"), s("(b)"), n64(2)}, ret: list, errText: "the pattern has 1 groups: there is no group 2"},
		{name: "group beyond a row's pattern", args: []in{col(str, `["abc", "abc"]`), col(str, `["(b)", "b"]`), n64(1)}, ret: list, errText: "there is no group 1"},
		{name: "group per row", args: []in{col(str, `["abc"]`), s("b"), col(i64, `[0]`)}, ret: list, errText: "must be a constant"},
	}, RegexpExtractAll)
}

// regexp_count (PostgreSQL's name; DuckDB has none) and
// regexp_split_to_array: values as Go's regexp finds the matches, not
// checked against DuckDB here (bench's differential test compares
// regexp_split_to_array with it).
func TestRegexpCount(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "matches", args: []in{col(strN, `["foobarboopzoo", "abc", null, ""]`), s("o+")}, ret: i64N, want: `[3, 0, null, 0]`},
		{name: "empty matches", args: []in{col(str, `["abc", "abcdefc"]`), col(str, `["x*", "(.*)c?"]`)}, ret: i64, want: `[4, 1]`},
		{name: "fold", args: []in{s("aAa"), s("a"), s("i")}, ret: i64, want: `[3]`},
		{name: "bad pattern", args: []in{s("a"), s("(")}, ret: i64, errText: "invalid regular expression"},
		{name: "global not allowed", args: []in{s("a"), s("a"), s("g")}, ret: i64, errText: "only valid for regexp_replace"},
	}, RegexpCount)
}

func TestRegexpSplit(t *testing.T) {
	list := dtype.List(dtype.Utf8(false), false)
	listN := dtype.List(dtype.Utf8(false), true)
	runCases(t, []kernelCase{
		{name: "parts", args: []in{col(strN, `["abc123abc", "a bcdef", null, ""]`), s("[bc]")}, ret: listN,
			want: `[["a", "", "123a", "", ""], ["a ", "", "def"], null, [""]]`},
		{name: "empty pattern", args: []in{s("abc"), s("")}, ret: list, want: `[["a", "b", "c"]]`},
		{name: "anchors", args: []in{col(str, `["abcdefg", "abcdefg"]`), col(str, `["efg$", "\\Aabc"]`)}, ret: list, want: `[["abcd", ""], ["", "defg"]]`},
		{name: "null pattern row", args: []in{col(str, `["a,b", "a"]`), col(strN, `[",", null]`)}, ret: listN, want: `[["a", "b"], null]`},
		{name: "fold", args: []in{s("aXbxc"), s("x"), s("i")}, ret: list, want: `[["a", "b", "c"]]`},
	}, RegexpSplit)
}

// TestRegexpCompilesOnce checks that a scalar pattern is compiled once per
// call and an array's once per run of equal patterns.
func TestRegexpCompilesOnce(t *testing.T) {
	mem := checkedMem(t)
	arr := fromJSON(t, mem, str, `["a", "a", "b", "b", "a"]`)
	defer arr.Release()
	c, err := newRegexCache(datum.FromArray(arr, str), regexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var res []any
	for i := range 5 {
		re, _ := c.at(i)
		res = append(res, re)
	}
	if res[0] != res[1] || res[1] == res[2] || res[2] != res[3] || res[3] == res[4] {
		t.Errorf("compilations %v: want one per run of equal patterns", res)
	}
	sc, _ := newRegexCache(datum.FromScalar(scalar.String("x"), 3), regexOptions{})
	a, _ := sc.at(0)
	b, _ := sc.at(2)
	if a != b {
		t.Error("a scalar pattern was compiled twice")
	}
}

func TestRegexpErrorSentinel(t *testing.T) {
	mem := checkedMem(t)
	_, err := RegexpMatches(mem, []datum.Datum{datum.FromScalar(scalar.String("a"), 1), datum.FromScalar(scalar.String("a["), 1)}, false, boolNN)
	var re *RowError
	if errors.As(err, &re) || !errors.Is(err, errs.ErrInvalidArgument) {
		t.Errorf("constant pattern: got %v, want an error of the call (not a row's) wrapping ErrInvalidArgument", err)
	}
	arr := fromJSON(t, mem, str, `["a", "a["]`)
	defer arr.Release()
	_, err = RegexpMatches(mem, []datum.Datum{datum.FromScalar(scalar.String("a"), 2), datum.FromArray(arr, str)}, false, boolNN)
	if !errors.As(err, &re) || re.Row != 1 || !errors.Is(err, errs.ErrInvalidArgument) {
		t.Errorf("pattern per row: got %v, want a row 1 error wrapping ErrInvalidArgument", err)
	}
}
