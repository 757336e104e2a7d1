package kernels

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below were checked against DuckDB 1.5.

func trimCall(side TrimSide) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Trim(mem, a, side, ret)
	}
}

func s(v string) in  { return lit(scalar.String(v)) }
func n64(v int64) in { return lit(scalar.Int64(v)) }

func TestTrim(t *testing.T) {
	words := col(strN, `["  a  ", "\ta\n ", "", null, "   ", "xxaxx", "日a日"]`)
	runCases(t, []kernelCase{
		{name: "spaces", args: []in{words}, ret: strN, want: `["a", "\ta\n", "", null, "", "xxaxx", "日a日"]`},
		{name: "chars", args: []in{words, s("x日 ")}, ret: strN, want: `["a", "\ta\n", "", null, "", "a", "a"]`},
		{name: "set", args: []in{s("abcba"), s("ab")}, ret: str, want: `["c"]`},
		{name: "empty set", args: []in{s("abc"), s("")}, ret: str, want: `["abc"]`},
		{name: "chars per row", args: []in{col(strN, `["abcba", "xyx", "aa", "q"]`), col(strN, `["a", "x", null, ""]`)}, ret: strN,
			want: `["bcb", "y", null, "q"]`},
		{name: "null chars", args: []in{s("a"), lit(scalar.Null(str))}, ret: strN, want: `[null]`},
	}, trimCall(TrimBoth))
	runCases(t, []kernelCase{
		{name: "left", args: []in{s("abcba"), s("ab")}, ret: str, want: `["cba"]`},
		{name: "left spaces", args: []in{col(str, `["  a  ", "b "]`)}, ret: str, want: `["a  ", "b "]`},
	}, trimCall(TrimLeft))
	runCases(t, []kernelCase{
		{name: "right", args: []in{s("abcba"), s("ab")}, ret: str, want: `["abc"]`},
		{name: "right multibyte", args: []in{col(str, `["é日日", "日"]`), s("日")}, ret: str, want: `["é", ""]`},
	}, trimCall(TrimRight))
}

func TestReplace(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "all", args: []in{col(strN, `["aaa", "abab", null, "", "日本日"]`), s("a"), s("b")}, ret: strN,
			want: `["bbb", "bbbb", null, "", "日本日"]`},
		{name: "empty from", args: []in{s("abc"), s(""), s("x")}, ret: str, want: `["abc"]`},
		{name: "delete", args: []in{s("abcb"), s("b"), s("")}, ret: str, want: `["ac"]`},
		{name: "no overlap", args: []in{s("aaaa"), s("aa"), s("b")}, ret: str, want: `["bb"]`},
		{name: "per row", args: []in{col(str, `["abc", "日本語"]`), col(str, `["b", "本"]`), col(str, `["XY", "-"]`)}, ret: str,
			want: `["aXYc", "日-語"]`},
	}, Replace)
}

func TestLeftRight(t *testing.T) {
	strs := col(strN, `["abc", "日本語", "", null]`)
	left := func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return LeftRight(mem, a, false, ret)
	}
	right := func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return LeftRight(mem, a, true, ret)
	}
	runCases(t, []kernelCase{
		{name: "two", args: []in{strs, n64(2)}, ret: strN, want: `["ab", "日本", "", null]`},
		{name: "negative", args: []in{strs, n64(-1)}, ret: strN, want: `["ab", "日本", "", null]`},
		{name: "zero", args: []in{strs, n64(0)}, ret: strN, want: `["", "", "", null]`},
		{name: "past", args: []in{strs, n64(5)}, ret: strN, want: `["abc", "日本語", "", null]`},
		{name: "past negative", args: []in{strs, n64(-5)}, ret: strN, want: `["", "", "", null]`},
		{name: "min int", args: []in{s("abc"), n64(-1 << 63)}, ret: str, want: `[""]`},
		{name: "limit", args: []in{s("abc"), n64(4294967295)}, ret: str, want: `["abc"]`},
		{name: "too large", args: []in{s("abc"), n64(4294967296)}, ret: str, errText: "above 4294967295"},
		{name: "counts per row", args: []in{col(str, `["abc", "abc", "abc"]`), col(i64N, `[1, null, -2]`)}, ret: strN,
			want: `["a", null, "a"]`},
	}, left)
	runCases(t, []kernelCase{
		{name: "two", args: []in{strs, n64(2)}, ret: strN, want: `["bc", "本語", "", null]`},
		{name: "negative", args: []in{strs, n64(-1)}, ret: strN, want: `["bc", "本語", "", null]`},
		{name: "past", args: []in{strs, n64(4294967296)}, ret: strN, want: `["abc", "日本語", "", null]`},
		{name: "past negative", args: []in{strs, n64(-5)}, ret: strN, want: `["", "", "", null]`},
	}, right)
}

func TestReverse(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "chars", args: []in{col(strN, `["abc", "日本語", "", null, "e\u0301a", "👍🏽x", "🇫🇷🇩🇪", "a\r\nb", "x👨‍👩‍👧y"]`)}, ret: strN,
			want: `["cba", "語本日", "", null, "ae\u0301", "x👍🏽", "🇩🇪🇫🇷", "b\n\ra", "y👨‍👩‍👧x"]`},
		{name: "prepend", args: []in{s("a\u0600bc")}, ret: str, want: `["c\u0600ba"]`},
		{name: "thai", args: []in{s("ก\u0e31x")}, ret: str, want: `["xก\u0e31"]`},
		{name: "hangul jamo", args: []in{s("\u1100\u1161\u11a8z")}, ret: str, want: `["z\u1100\u1161\u11a8"]`},
		{name: "scalar", args: []in{s("ab")}, ret: str, want: `["ba", "ba"]`},
	}, Reverse)
}

func TestRepeat(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "three", args: []in{col(strN, `["ab", "", null, "日"]`), n64(3)}, ret: strN, want: `["ababab", "", null, "日日日"]`},
		{name: "negative", args: []in{s("ab"), n64(-1)}, ret: str, want: `[""]`},
		{name: "zero", args: []in{s("ab"), n64(0)}, ret: str, want: `[""]`},
		{name: "too large", args: []in{s("ab"), n64(4294967296)}, ret: str, errText: "too large"},
	}, Repeat)
}

func TestPad(t *testing.T) {
	lpad := func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Pad(mem, a, false, ret)
	}
	rpad := func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Pad(mem, a, true, ret)
	}
	runCases(t, []kernelCase{
		{name: "fill", args: []in{col(strN, `["ab", "abc", "", null, "日本"]`), n64(5), s("xy")}, ret: strN,
			want: `["xyxab", "xyabc", "xyxyx", null, "xyx日本"]`},
		{name: "cut", args: []in{s("abc"), n64(2), s("x")}, ret: str, want: `["ab"]`},
		{name: "exact with empty pad", args: []in{s("ab"), n64(2), s("")}, ret: str, want: `["ab"]`},
		{name: "cut with empty pad", args: []in{s("ab"), n64(1), s("")}, ret: str, want: `["a"]`},
		{name: "empty pad", args: []in{s("ab"), n64(5), s("")}, ret: str, errText: "the padding is empty"},
		{name: "negative", args: []in{s("ab"), n64(-1), s("x")}, ret: str, want: `[""]`},
		{name: "too large", args: []in{s("a"), n64(9223372036854775807), s("xy")}, ret: str, errText: "too large"},
		{name: "too large for offsets", args: []in{s("a"), n64(1 << 31), s("日")}, ret: str, errText: "too large"},
		{name: "multibyte pad", args: []in{s("日本"), n64(5), s("é")}, ret: str, want: `["ééé日本"]`},
		{name: "many copies and a part", args: []in{s("z"), n64(12), s("日b")}, ret: str, want: `["日b日b日b日b日b日z"]`},
		{name: "long fill", args: []in{s("z"), n64(1001), s("ab")}, ret: str, want: `["` + strings.Repeat("ab", 500) + `z"]`},
	}, lpad)
	runCases(t, []kernelCase{
		{name: "fill", args: []in{col(strN, `["ab", "abc", null]`), n64(5), s("xy")}, ret: strN, want: `["abxyx", "abcxy", null]`},
		{name: "cut", args: []in{s("abc"), n64(2), s("x")}, ret: str, want: `["ab"]`},
		{name: "many copies and a part", args: []in{col(strN, `["a", "日本"]`), n64(8), s("xyz")}, ret: strN, want: `["axyzxyzx", "日本xyzxyz"]`},
	}, rpad)
}

func TestSplitPart(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "fields", args: []in{s("a,b,c"), s(","), col(i64N, `[1, 2, 3, 4, 0, -1, -3, -4, null]`)}, ret: strN,
			want: `["a", "b", "c", "", "", "c", "a", "", null]`},
		{name: "empty fields", args: []in{col(str, `["a,,b", "", ",", "aXbXXc"]`), col(str, `[",", ",", ",", "XX"]`), n64(2)}, ret: str,
			want: `["", "", "", "c"]`},
		{name: "characters", args: []in{col(str, `["abc", "日本語", "", "a,b,c"]`), s(""), n64(2)}, ret: str,
			want: `["b", "本", "", ","]`},
		{name: "last character", args: []in{s("abc"), s(""), n64(-1)}, ret: str, want: `["c"]`},
		{name: "huge", args: []in{s("a,b"), s(","), n64(4294967296)}, ret: str, want: `[""]`},
	}, SplitPart)
}

func TestStringSplit(t *testing.T) {
	list := dtype.List(str, true)
	runCases(t, []kernelCase{
		{name: "fields", args: []in{col(strN, `["a,b", "a,,b,", "", null, "abc"]`), s(",")}, ret: list,
			want: `[["a", "b"], ["a", "", "b", ""], [""], null, ["abc"]]`},
		{name: "characters", args: []in{col(strN, `["abc", "", "日本"]`), s("")}, ret: list,
			want: `[["a", "b", "c"], [""], ["日", "本"]]`},
		{name: "null sep", args: []in{col(strN, `["a,b", null]`), lit(scalar.Null(str))}, ret: list, want: `[["a,b"], null]`},
		{name: "seps per row", args: []in{col(strN, `["a,b", "a;b", "a b"]`), col(strN, `[",", null, ";"]`)}, ret: list,
			want: `[["a", "b"], ["a;b"], ["a b"]]`},
		{name: "scalar", args: []in{s("x-y"), s("-")}, ret: list, want: `[["x", "y"], ["x", "y"]]`},
		{name: "null scalar", args: []in{lit(scalar.Null(str)), s("-")}, ret: list, want: `[null]`},
	}, StringSplit)
}

func TestStrPos(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "positions", args: []in{col(strN, `["abc", "abc", "", "日本語", "abc", null]`), col(strN, `["c", "", "", "語", "d", "a"]`)}, ret: i64N,
			want: `[3, 1, 1, 3, 0, null]`},
		{name: "scalar needle", args: []in{col(str, `["xxab", "ab", "b"]`), s("ab")}, ret: i64, want: `[3, 1, 0]`},
	}, StrPos)
}

func TestConcatWS(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "skips nulls", args: []in{s(","), col(strN, `["a", null, "", null]`), lit(scalar.Null(str)), col(strN, `["b", "c", "d", null]`)}, ret: str,
			want: `["a,b", "c", ",d", ""]`},
		{name: "null sep", args: []in{lit(scalar.Null(str)), s("a")}, ret: strN, want: `[null]`},
		{name: "seps per row", args: []in{col(strN, `["-", null, "日"]`), s("a"), s("b")}, ret: strN, want: `["a-b", null, "a日b"]`},
		{name: "scalars", args: []in{s(", "), s("a"), s("b")}, ret: str, want: `["a, b"]`},
	}, ConcatWS)
}

func TestASCIIChr(t *testing.T) {
	i32 := dtype.Primitive(dtype.I32, false)
	runCases(t, []kernelCase{
		{name: "codes", args: []in{col(strN, `["A", "", "é", "日本", null]`)}, ret: i32N, want: `[65, 0, 233, 26085, null]`},
		{name: "scalar", args: []in{s("a")}, ret: i32, want: `[97]`},
	}, ASCII)
	runCases(t, []kernelCase{
		{name: "chars", args: []in{col(i32N, `[65, 233, 1114111, null]`)}, ret: strN, want: `["A", "é", "\udbff\udfff", null]`},
		{name: "nul", args: []in{col(i32N, `[0]`)}, ret: strN, want: `["\u0000"]`},
		{name: "negative", args: []in{col(i32N, `[65, -1]`)}, ret: strN, errText: "row 1: chr(-1)"},
		{name: "surrogate", args: []in{lit(scalar.Int32(55296))}, ret: str, errText: "not a Unicode code point"},
		{name: "too large", args: []in{lit(scalar.Int32(1114112))}, ret: str, errText: "not a Unicode code point"},
	}, Chr)
}

// TestStringMoreRowErrors checks that the errors name the row and wrap
// the sentinels.
func TestStringMoreRowErrors(t *testing.T) {
	mem := checkedMem(t)
	arr := fromJSON(t, mem, strN, `[null, "ab", "abc"]`)
	defer arr.Release()
	_, err := Pad(mem, []datum.Datum{datum.FromArray(arr, strN), datum.FromScalar(scalar.Int64(3), 3), datum.FromScalar(scalar.String(""), 3)}, false, strN)
	var re *RowError
	if !errors.As(err, &re) || re.Row != 1 || !errors.Is(err, errs.ErrInvalidArgument) {
		t.Errorf("lpad with an empty pad: %v, want a row 1 error wrapping ErrInvalidArgument", err)
	}
	_, err = LeftRight(mem, []datum.Datum{datum.FromArray(arr, strN), datum.FromScalar(scalar.Int64(1<<40), 3)}, false, strN)
	if !errors.As(err, &re) || re.Row != 1 || !errors.Is(err, errs.ErrOverflow) {
		t.Errorf("left with a huge count: %v, want a row 1 error wrapping ErrOverflow", err)
	}
}

// Plain reference versions over []rune, for the random test.

func refTrim(v, chars string, side TrimSide) string {
	in := func(r rune) bool { return strings.ContainsRune(chars, r) }
	if side != TrimRight {
		v = strings.TrimLeftFunc(v, in)
	}
	if side != TrimLeft {
		v = strings.TrimRightFunc(v, in)
	}
	return v
}

func refLeftRight(v string, k int64, right bool) string {
	r := []rune(v)
	n := int64(len(r))
	switch {
	case !right && k >= 0:
		return string(r[:min(k, n)])
	case !right:
		return string(r[:max(n+k, 0)])
	case k >= 0:
		return string(r[max(n-k, 0):])
	default:
		return string(r[min(-k, n):])
	}
}

func refPad(v string, k int64, p string, right bool) string {
	r, pr := []rune(v), []rune(p)
	if k <= 0 {
		return ""
	}
	if int64(len(r)) >= k {
		return string(r[:k])
	}
	var fill []rune
	for j := 0; int64(len(fill)) < k-int64(len(r)); j++ {
		fill = append(fill, pr[j%len(pr)])
	}
	if right {
		return v + string(fill)
	}
	return string(fill) + v
}

func refSplitPart(v, sep string, k int64) string {
	var parts []string
	if sep == "" {
		for _, r := range v {
			parts = append(parts, string(r))
		}
		if len(parts) == 0 {
			parts = []string{""}
		}
	} else {
		parts = strings.Split(v, sep)
	}
	if k < 0 {
		k += int64(len(parts)) + 1
	}
	if k <= 0 || k > int64(len(parts)) {
		return ""
	}
	return parts[k-1]
}

func refStrPos(v, needle string) int64 {
	k := strings.Index(v, needle)
	if k < 0 {
		return 0
	}
	return int64(utf8.RuneCountInString(v[:k])) + 1
}

// TestStringMoreRandom checks the kernels on random columns (nulls, multibyte
// characters, empty strings, sliced arrays) against the reference versions
// row by row.
func TestStringMoreRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", ",", " ", "é", "日", "ab"}
	word := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for iter := range 40 {
		mem := checkedMem(t)
		n := r.IntN(70)
		strs := func() (arrow []string, valid []bool) {
			for range n + 3 {
				arrow = append(arrow, word())
				valid = append(valid, r.IntN(6) > 0)
			}
			return
		}
		sv, sok := strs()
		pv, pok := strs()
		ints := make([]int64, n+3)
		for i := range ints {
			ints[i] = int64(r.IntN(11) - 5)
		}
		sb := array.NewStringBuilder(mem)
		sb.AppendValues(sv, sok)
		sFull := sb.NewArray()
		sb.AppendValues(pv, pok)
		pFull := sb.NewArray()
		sb.Release()
		ib := array.NewInt64Builder(mem)
		ib.AppendValues(ints, nil)
		iFull := ib.NewArray()
		ib.Release()
		off := int64(r.IntN(3))
		sArr, pArr, iArr := array.NewSlice(sFull, off, off+int64(n)), array.NewSlice(pFull, off, off+int64(n)), array.NewSlice(iFull, off, off+int64(n))
		sFull.Release()
		pFull.Release()
		iFull.Release()
		S, P, I := datum.FromArray(sArr, strN), datum.FromArray(pArr, strN), datum.FromArray(iArr, i64)
		nonEmptyPad := datum.FromScalar(scalar.String("xé"), n)
		check := func(name string, got datum.Datum, err error, want func(i int) string) {
			t.Helper()
			if err != nil {
				t.Fatalf("iteration %d %s: %v", iter, name, err)
			}
			defer got.Release()
			for i := range n {
				ok := sArr.IsValid(i)
				w := want(i)
				var g string
				switch a := got.Array().(type) {
				case *array.String:
					if a.IsValid(i) != (w != "\x00null") {
						t.Fatalf("iteration %d %s row %d: validity %v, want %q", iter, name, i, a.IsValid(i), w)
					}
					g = a.Value(i)
				case *array.Int64:
					if a.IsValid(i) != (w != "\x00null") {
						t.Fatalf("iteration %d %s row %d: validity %v, want %q", iter, name, i, a.IsValid(i), w)
					}
					g = string(rune('0' + a.Value(i)))
				}
				if a := got.Array(); a.IsValid(i) && g != w {
					t.Fatalf("iteration %d %s row %d (%q, valid %v): got %q, want %q", iter, name, i, sv[int(off)+i], ok, g, w)
				}
			}
		}
		null := "\x00null"
		str := func(i int) string { return sv[int(off)+i] }
		pat := func(i int) string { return pv[int(off)+i] }
		k := func(i int) int64 { return ints[int(off)+i] }
		both := func(i int) bool { return sArr.IsValid(i) && pArr.IsValid(i) }
		for _, side := range []TrimSide{TrimBoth, TrimLeft, TrimRight} {
			got, err := Trim(mem, []datum.Datum{S, P}, side, strN)
			check("trim", got, err, func(i int) string {
				if !both(i) {
					return null
				}
				return refTrim(str(i), pat(i), side)
			})
		}
		for _, right := range []bool{false, true} {
			got, err := LeftRight(mem, []datum.Datum{S, I}, right, strN)
			check("left/right", got, err, func(i int) string {
				if !sArr.IsValid(i) {
					return null
				}
				return refLeftRight(str(i), k(i), right)
			})
			got, err = Pad(mem, []datum.Datum{S, I, nonEmptyPad}, right, strN)
			check("pad", got, err, func(i int) string {
				if !sArr.IsValid(i) {
					return null
				}
				return refPad(str(i), k(i), "xé", right)
			})
		}
		got, err := Replace(mem, []datum.Datum{S, P, datum.FromScalar(scalar.String("<>"), n)}, strN)
		check("replace", got, err, func(i int) string {
			if !both(i) {
				return null
			}
			if pat(i) == "" {
				return str(i)
			}
			return strings.ReplaceAll(str(i), pat(i), "<>")
		})
		got, err = SplitPart(mem, []datum.Datum{S, datum.FromScalar(scalar.String([]string{",", "", "ab"}[iter%3]), n), I}, strN)
		check("split_part", got, err, func(i int) string {
			if !sArr.IsValid(i) {
				return null
			}
			return refSplitPart(str(i), []string{",", "", "ab"}[iter%3], k(i))
		})
		got, err = StrPos(mem, []datum.Datum{S, P}, i64N)
		check("strpos", got, err, func(i int) string {
			if !both(i) {
				return null
			}
			return string(rune('0' + refStrPos(str(i), pat(i))))
		})
		got, err = Repeat(mem, []datum.Datum{S, I}, strN)
		check("repeat", got, err, func(i int) string {
			if !sArr.IsValid(i) {
				return null
			}
			return strings.Repeat(str(i), int(max(k(i), 0)))
		})
		S.Release()
		P.Release()
		I.Release()
	}
}
