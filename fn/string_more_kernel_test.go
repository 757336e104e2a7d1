package fn_test

import (
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/fn"
)

// TestStringMoreKernels evaluates each DuckDB-dialect string function
// through fn.Kernel (values checked against DuckDB 1.5).
func TestStringMoreKernels(t *testing.T) {
	s := vkCol("utf8?", `["  Hello ", null, "日本語", ""]`)
	i := vkCol("i32", `[2, 1, -1, 3]`)
	vkRun(t, []vkCase{
		{name: "trim", f: fn.Trim, args: []vkArg{s}, want: `["Hello", null, "日本語", ""]`},
		{name: "trim chars", f: fn.Trim, args: []vkArg{s, vkLit("utf8", `" Ho日"`)}, want: `["ell", null, "本語", ""]`},
		{name: "ltrim", f: fn.LTrim, args: []vkArg{s}, want: `["Hello ", null, "日本語", ""]`},
		{name: "rtrim", f: fn.RTrim, args: []vkArg{s}, want: `["  Hello", null, "日本語", ""]`},
		{name: "replace", f: fn.Replace, args: []vkArg{s, vkLit("utf8", `"l"`), vkLit("utf8", `"L"`)}, want: `["  HeLLo ", null, "日本語", ""]`},
		{name: "left", f: fn.Left, args: []vkArg{s, i}, want: `["  ", null, "日本", ""]`},
		{name: "right", f: fn.Right, args: []vkArg{s, i}, want: `["o ", null, "本語", ""]`},
		{name: "reverse", f: fn.Reverse, args: []vkArg{s}, want: `[" olleH  ", null, "語本日", ""]`},
		{name: "repeat", f: fn.Repeat, args: []vkArg{vkCol("utf8", `["ab", "c"]`), vkCol("u8", `[2, 0]`)}, want: `["abab", ""]`},
		{name: "lpad", f: fn.LPad, args: []vkArg{vkCol("utf8", `["ab", "abcd"]`), vkLit("i64", `3`), vkLit("utf8", `"*"`)}, want: `["*ab", "abc"]`},
		{name: "rpad", f: fn.RPad, args: []vkArg{vkCol("utf8", `["ab", "abcd"]`), vkLit("i64", `3`), vkLit("utf8", `"*"`)}, want: `["ab*", "abc"]`},
		{name: "split_part", f: fn.SplitPart, args: []vkArg{vkLit("utf8", `"a,b,c"`), vkLit("utf8", `","`), i}, want: `["b", "a", "c", "c"]`},
		{name: "string_split", f: fn.StringSplit, args: []vkArg{vkCol("utf8?", `["a,b", null, ""]`), vkLit("utf8", `","`)}, want: `[["a", "b"], null, [""]]`},
		{name: "len of a string", f: fn.ListLength, args: []vkArg{s}, want: `[8, null, 3, 0]`},
		{name: "length of a list", f: fn.Length, args: []vkArg{vkCol("list<i32?>?", `[[1, null], null, []]`)}, want: `[2, null, 0]`},
		{name: "element of string_split", f: fn.ListElement, args: []vkArg{vkCol("list<utf8>?", `[["a", "b"], null, ["c"]]`), vkLit("i64", `2`)}, want: `["b", null, null]`},
		{name: "string_split null sep", f: fn.StringSplit, args: []vkArg{vkCol("utf8", `["a,b"]`), vkLit("null", `null`)}, want: `[["a,b"]]`},
		{name: "strpos", f: fn.StrPos, args: []vkArg{s, vkLit("utf8", `"l"`)}, want: `[5, null, 0, 0]`},
		{name: "concat_ws", f: fn.ConcatWS, args: []vkArg{vkLit("utf8", `"-"`), s, vkLit("null", `null`), vkLit("utf8", `"x"`)}, want: `["  Hello -x", "x", "日本語-x", "-x"]`},
		{name: "concat_ws null sep", f: fn.ConcatWS, args: []vkArg{vkLit("utf8?", `null`), s}, want: `[null, null, null, null]`},
		{name: "ascii", f: fn.ASCII, args: []vkArg{s}, want: `[32, null, 26085, 0]`},
		{name: "chr", f: fn.Chr, args: []vkArg{vkCol("i32", `[65, 26085]`)}, want: `["A", "日"]`},
		{name: "chr invalid", f: fn.Chr, args: []vkArg{vkCol("i32", `[65, -1]`)}, wantErr: errs.ErrInvalidArgument, errRow: 1},
		// A null count is a null result (found by Substrait's conformance
		// cases: the count's null scalar failed to read).
		{name: "left null count", f: fn.Left, args: []vkArg{s, vkLit("i32?", `null`)}, want: `[null, null, null, null]`},
		{name: "right null count", f: fn.Right, args: []vkArg{s, vkLit("i32?", `null`)}, want: `[null, null, null, null]`},
		{name: "repeat null count", f: fn.Repeat, args: []vkArg{s, vkLit("i64?", `null`)}, want: `[null, null, null, null]`},
		{name: "lpad null count", f: fn.LPad, args: []vkArg{s, vkLit("i64?", `null`), vkLit("utf8", `"*"`)}, want: `[null, null, null, null]`},
		{name: "split_part null index", f: fn.SplitPart, args: []vkArg{s, vkLit("utf8", `","`), vkLit("i64?", `null`)}, want: `[null, null, null, null]`},
		{name: "left too far", f: fn.Left, args: []vkArg{vkCol("utf8", `["a"]`), vkLit("i64", `5000000000`)}, wantErr: errs.ErrOverflow},
		{name: "lpad empty pad", f: fn.LPad, args: []vkArg{vkCol("utf8", `["a"]`), vkLit("i64", `3`), vkLit("utf8", `""`)}, wantErr: errs.ErrInvalidArgument},
		{name: "format", f: fn.Format, args: []vkArg{vkLit("utf8", `"{}={:.1f}"`), s, vkCol("f64", `[1.25, 2, 3, 4]`)}, want: `["  Hello =1.2", null, "日本語=3.0", "=4.0"]`},
		{name: "format decimal and date", f: fn.Format, args: []vkArg{vkLit("utf8", `"{} {}"`), vkCol("decimal(9,2)", `["1.10"]`), vkCol("date", `[9131]`)}, want: `["1.1 1995-01-01"]`},
		{name: "format untyped null", f: fn.Format, args: []vkArg{vkLit("utf8", `"{}"`), vkLit("null", `null`)}, want: `[null]`},
		{name: "printf", f: fn.Printf, args: []vkArg{vkLit("utf8", `"%03d|%s"`), i, vkCol("utf8", `["a", "b", "c", "d"]`)}, want: `["002|a", "001|b", "-01|c", "003|d"]`},
		{name: "printf type error", f: fn.Printf, args: []vkArg{vkLit("utf8", `"%s"`), vkCol("i32", `[1]`)}, wantErr: errs.ErrInvalidArgument},
		{name: "regexp_matches", f: fn.RegexpMatches, args: []vkArg{s, vkLit("utf8", `"^\\s+h"`), vkLit("utf8", `"i"`)}, want: `[true, null, false, false]`},
		{name: "regexp_replace", f: fn.RegexpReplace, args: []vkArg{s, vkLit("utf8", `"([lo])"`), vkLit("utf8", `"<\\1>"`), vkLit("utf8", `"g"`)}, want: `["  He<l><l><o> ", null, "日本語", ""]`},
		{name: "regexp_extract", f: fn.RegexpExtract, args: []vkArg{s, vkLit("utf8", `"(\\w)(\\w)"`), vkLit("i64", `2`)}, want: `["e", null, "", ""]`},
		{name: "regexp bad pattern", f: fn.RegexpMatches, args: []vkArg{vkCol("utf8", `["a", "b"]`), vkCol("utf8", `["a", "("]`)}, wantErr: errs.ErrInvalidArgument, errRow: 1},
		{name: "like escape", f: mustLikeEscape(t, "!"), args: []vkArg{vkCol("utf8", `["a%", "ab", "a\\b"]`), vkLit("utf8", `"a!%"`)}, want: `[true, false, false]`},
		{name: "like no escape", f: mustLikeEscape(t, ""), args: []vkArg{vkCol("utf8", `["a%", "ab", "a\\b"]`), vkLit("utf8", `"a\\%"`)}, want: `[false, false, true]`},
	})
}

func mustLikeEscape(t *testing.T, esc string) fn.Function {
	l, err := fn.LikeWithEscape(false, false, esc)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestStringMoreReturnTypes(t *testing.T) {
	utf8, utf8N, i64, i32 := dtype.Utf8(false), dtype.Utf8(true), dtype.Primitive(dtype.I64, false), dtype.Primitive(dtype.I32, false)
	for _, c := range []struct {
		f    fn.Function
		args []dtype.DType
		want string // the type, or a fragment of the error
	}{
		{fn.Trim, []dtype.DType{utf8N}, "utf8?"},
		{fn.Left, []dtype.DType{utf8, i32}, "utf8"},
		{fn.Left, []dtype.DType{utf8, utf8}, "want an integer"},
		{fn.StrPos, []dtype.DType{utf8, utf8N}, "i64?"},
		{fn.ASCII, []dtype.DType{utf8}, "i32"},
		{fn.Chr, []dtype.DType{i64}, "utf8"},
		{fn.StringSplit, []dtype.DType{utf8N, dtype.Null()}, "list<utf8>?"},
		{fn.ConcatWS, []dtype.DType{utf8, utf8N, dtype.Null()}, "utf8"},
		{fn.ConcatWS, []dtype.DType{utf8, i64}, "want utf8"},
		{fn.Format, []dtype.DType{utf8, i64, dtype.Decimal(9, 2, true), dtype.Date(false)}, "utf8?"},
		{fn.Printf, []dtype.DType{i64}, "want utf8"},
		{fn.Printf, []dtype.DType{utf8, dtype.List(i64, false)}, "cannot format"},
		{fn.RegexpExtract, []dtype.DType{utf8, utf8, i64, utf8}, "utf8"},
		{fn.RegexpMatches, []dtype.DType{utf8, utf8}, "bool"},
		{fn.RegexpCount, []dtype.DType{utf8N, utf8}, "i64?"},
		{fn.RegexpSplit, []dtype.DType{utf8, utf8, utf8}, "list<utf8>"},
		{fn.RegexpSplit, []dtype.DType{utf8, utf8N}, "list<utf8>?"},
		{fn.RegexpSplit, []dtype.DType{utf8, i64}, "want utf8"},
	} {
		got, err := c.f.ReturnType(c.args)
		text := got.String()
		if err != nil {
			text = err.Error()
		}
		if !strings.Contains(text, c.want) || (err == nil && text != c.want) {
			t.Errorf("%s%v: got %s, want %s", c.f.ID(), c.args, text, c.want)
		}
	}
	if _, err := fn.LikeWithEscape(false, false, "日"); err == nil {
		t.Error("ESCAPE '日' accepted; DuckDB takes one byte")
	}
	if l, _ := fn.LikeWithEscape(false, false, `\`); l != fn.Like(false, false) {
		t.Errorf("ESCAPE '\\' is %#v, want the default LIKE", l)
	}
}
