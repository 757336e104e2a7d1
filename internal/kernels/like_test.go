package kernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

func likeCall(negated, fold bool) func(memory.Allocator, []datum.Datum, dtype.DType) (datum.Datum, error) {
	return func(mem memory.Allocator, a []datum.Datum, ret dtype.DType) (datum.Datum, error) {
		return Like(mem, a[0], a[1], negated, fold, ret)
	}
}

func pat(p string) in { return lit(scalar.String(p)) }

func TestLike(t *testing.T) {
	words := col(strN, `["abcdef", "ab", "xabc", null, "", "abc", "abcabc"]`)
	cases := []kernelCase{
		{name: "prefix", args: []in{words, pat("abc%")}, ret: boolN, want: `[true, false, false, null, false, true, true]`},
		{name: "suffix", args: []in{words, pat("%abc")}, ret: boolN, want: `[false, false, true, null, false, true, true]`},
		{name: "contains", args: []in{words, pat("%bc%")}, ret: boolN, want: `[true, false, true, null, false, true, true]`},
		{name: "exact", args: []in{words, pat("abc")}, ret: boolN, want: `[false, false, false, null, false, true, false]`},
		{name: "everything", args: []in{words, pat("%")}, ret: boolN, want: `[true, true, true, null, true, true, true]`},
		{name: "double percent", args: []in{words, pat("%%")}, ret: boolN, want: `[true, true, true, null, true, true, true]`},
		{name: "empty pattern", args: []in{words, pat("")}, ret: boolN, want: `[false, false, false, null, true, false, false]`},
		{name: "prefix and suffix", args: []in{words, pat("a%c")}, ret: boolN, want: `[false, false, false, null, false, true, true]`},
		{name: "middle", args: []in{col(str, `["abc", "aXbYc", "acb", "abcc", "ab", "a日b本c"]`), pat("a%b%c")}, ret: boolNN,
			want: `[true, true, false, true, false, true]`},
		{name: "no overlap", args: []in{col(str, `["aba", "abba", "abXba"]`), pat("ab%ba")}, ret: boolNN, want: `[false, true, true]`},
		{name: "one char", args: []in{col(str, `["abc", "ac", "abbc", "aéc", "a日c"]`), pat("a_c")}, ret: boolNN,
			want: `[true, false, false, true, true]`},
		{name: "two chars", args: []in{col(str, `["ab", "a", "日本", "abc", ""]`), pat("__")}, ret: boolNN,
			want: `[true, false, true, false, false]`},
		{name: "at least one", args: []in{col(str, `["", "a", "日本"]`), pat("_%")}, ret: boolNN, want: `[false, true, true]`},
		{name: "wildcard suffix", args: []in{col(str, `["b", "ab", "日b", "bb"]`), pat("%_b")}, ret: boolNN, want: `[false, true, true, true]`},
		{name: "wildcard inside", args: []in{col(str, `["xaYcz", "ac", "abc", "zzaécz", "a_c"]`), pat("%a_c%")}, ret: boolNN,
			want: `[true, false, true, true, true]`},
		{name: "wildcard first", args: []in{col(str, `["xbc", "bc", "xxbc"]`), pat("%_bc")}, ret: boolNN, want: `[true, false, true]`},
		{name: "escaped percent", args: []in{col(str, `["a%b", "axb", "ab"]`), pat(`a\%b`)}, ret: boolNN, want: `[true, false, false]`},
		{name: "escaped underscore", args: []in{col(str, `["a_b", "axb"]`), pat(`a\_b`)}, ret: boolNN, want: `[true, false]`},
		{name: "escaped escape", args: []in{col(str, `["a\\b", "ab", "a\\\\b"]`), pat(`a\\b`)}, ret: boolNN, want: `[true, false, false]`},
		{name: "escaped letter", args: []in{col(str, `["ab", "a\\b"]`), pat(`\ab`)}, ret: boolNN, want: `[true, false]`},
		{name: "percent suffix", args: []in{col(str, `["100%", "100", "1000%"]`), pat(`%0\%`)}, ret: boolNN, want: `[true, false, true]`},
		{name: "unicode prefix", args: []in{col(str, `["日本語", "日本", "本日"]`), pat("日本%")}, ret: boolNN, want: `[true, true, false]`},
		{name: "case sensitive", args: []in{col(str, `["ABC", "abc"]`), pat("abc")}, ret: boolNN, want: `[false, true]`},
		{name: "scalars", args: []in{lit(scalar.String("hello")), pat("h%o")}, ret: boolNN, want: `[true, true]`},
		{name: "null value", args: []in{lit(scalar.Null(str)), pat("h%o")}, ret: boolN, want: `[null]`},
		{name: "null pattern", args: []in{words, lit(scalar.Null(str))}, ret: boolN, want: `[null, null, null, null, null, null, null]`},
		{name: "empty", args: []in{col(strN, `[]`), pat("a%")}, ret: boolN, want: `[]`},
		{name: "row patterns", args: []in{
			col(strN, `["abc", "abc", "xyz", null, "abc", "a%c", "日"]`),
			col(strN, `["a%", "a%", "a%", "a%", null, "a\\%c", "_"]`)}, ret: boolN,
			want: `[true, true, false, null, null, true, true]`},
		{name: "row patterns scalar value", args: []in{lit(scalar.String("abc")), col(strN, `["a%", "%c", "x%", null, "___", "__"]`)}, ret: boolN,
			want: `[true, true, false, null, true, false]`},
	}
	runCases(t, cases, likeCall(false, false))

	not := []kernelCase{
		{name: "prefix", args: []in{words, pat("abc%")}, ret: boolN, want: `[false, true, true, null, true, false, false]`},
		{name: "general", args: []in{words, pat("a_c%")}, ret: boolN, want: `[false, true, true, null, true, false, false]`},
		{name: "everything", args: []in{words, pat("%")}, ret: boolN, want: `[false, false, false, null, false, false, false]`},
		{name: "scalars", args: []in{lit(scalar.String("hello")), pat("h%o")}, ret: boolNN, want: `[false]`},
		{name: "row patterns", args: []in{col(strN, `["abc", null, "abc"]`), col(strN, `["a%", "a%", "b%"]`)}, ret: boolN,
			want: `[false, null, true]`},
	}
	t.Run("not", func(t *testing.T) { runCases(t, not, likeCall(true, false)) })
}

func TestILike(t *testing.T) {
	cases := []kernelCase{
		{name: "prefix", args: []in{col(strN, `["ABCdef", "abc", "xabc", null, "AbC"]`), pat("aBc%")}, ret: boolN,
			want: `[true, true, false, null, true]`},
		{name: "kelvin", args: []in{col(str, `["Kelvin", "kelvin", "\u212Aelvin", "elvin"]`), pat("k%")}, ret: boolNN,
			want: `[true, true, true, false]`},
		{name: "long s", args: []in{col(str, `["ſ", "S", "s", "t"]`), pat("s")}, ret: boolNN, want: `[true, true, true, false]`},
		{name: "accents", args: []in{col(str, `["ÉTÉ", "été", "ete"]`), pat("%é")}, ret: boolNN, want: `[true, true, false]`},
		{name: "sigma", args: []in{col(str, `["ΣΑΣ", "σας", "σασ"]`), pat("σας")}, ret: boolNN, want: `[true, true, true]`},
		{name: "wildcards", args: []in{col(str, `["xÉy", "XéY", "xy"]`), pat("X_Y")}, ret: boolNN, want: `[true, true, false]`},
		{name: "contains", args: []in{col(str, `["HeLLo WoRLD", "world", "word"]`), pat("%WORLD%")}, ret: boolNN, want: `[true, true, false]`},
		{name: "scalars", args: []in{lit(scalar.String("HÉLLO")), pat("h_llo")}, ret: boolNN, want: `[true]`},
		{name: "row patterns", args: []in{col(str, `["ABC", "abc", "ÉA"]`), col(str, `["a%", "%C", "é_"]`)}, ret: boolNN,
			want: `[true, true, true]`},
		{name: "scalar value row patterns", args: []in{lit(scalar.String("ÉA")), col(str, `["é_", "e_"]`)}, ret: boolNN,
			want: `[true, false]`},
	}
	runCases(t, cases, likeCall(false, true))
	not := []kernelCase{
		{name: "prefix", args: []in{col(strN, `["ABCdef", null, "xabc"]`), pat("abc%")}, ret: boolN, want: `[false, null, true]`},
	}
	t.Run("not", func(t *testing.T) { runCases(t, not, likeCall(true, true)) })
}

func TestLikeErrors(t *testing.T) {
	cases := []struct {
		name    string
		args    []in
		errRow  int // -1: no error
		want    string
		wantRet dtype.DType
	}{
		{name: "scalar pattern", args: []in{col(strN, `[null, "x"]`), pat(`abc\`)}, errRow: 1},
		{name: "scalar pattern, all null", args: []in{col(strN, `[null, null]`), pat(`abc\`)}, errRow: -1, want: `[null, null]`},
		{name: "scalar pattern, no rows", args: []in{col(strN, `[]`), pat(`abc\`)}, errRow: -1, want: `[]`},
		{name: "scalar pattern, scalar value", args: []in{lit(scalar.String("x")), pat(`\`)}, errRow: 0},
		{name: "row pattern", args: []in{col(strN, `["a", "b", "c"]`), col(strN, `["a%", "b%", "c\\"]`)}, errRow: 2},
		{name: "row pattern, null value", args: []in{col(strN, `["a", null]`), col(strN, `["a%", "c\\"]`)}, errRow: -1, want: `[true, null]`},
	}
	for _, c := range cases {
		for _, sliced := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sliced=%v", c.name, sliced), func(t *testing.T) {
				mem := checkedMem(t)
				n := 1
				if !c.args[0].isSc {
					n = rowsOf(t, c.args[0].t, c.args[0].json)
				}
				args := datums(t, mem, c.args, n, sliced)
				defer releaseDatums(args)
				got, err := Like(mem, args[0], args[1], false, false, boolN)
				if c.errRow < 0 {
					if err != nil {
						t.Fatalf("unexpected error %v", err)
					}
					defer got.Release()
					expectDatum(t, mem, got, boolN, c.want)
					return
				}
				if err == nil {
					got.Release()
					t.Fatal("no error")
				}
				var re *RowError
				if !errors.As(err, &re) || re.Row != c.errRow {
					t.Errorf("error %v, want a RowError at row %d", err, c.errRow)
				}
				if !errors.Is(err, errs.ErrInvalidArgument) || !strings.Contains(err.Error(), "escape") {
					t.Errorf("error %q, want ErrInvalidArgument about the escape", err)
				}
			})
		}
	}
}

// TestLikeInvalidUTF8 checks that bytes that are not UTF-8 count as one
// character each and never panic.
func TestLikeInvalidUTF8(t *testing.T) {
	mem := checkedMem(t)
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"a\xffb", "\xff", "a\xc3", "\xe6\x97"}, nil)
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	for _, tc := range []struct {
		pattern string
		fold    bool
		want    string
	}{
		{"a_b", false, `[true, false, false, false]`},
		{"_", false, `[false, true, false, false]`},
		{"%\xff%", false, `[true, true, false, false]`},
		{"a%", true, `[true, false, true, false]`},
		{"__", true, `[false, false, true, true]`},
		{"%_b", true, `[true, false, false, false]`},
	} {
		got, err := Like(mem, datum.FromArray(arr, str), datum.FromScalar(scalar.String(tc.pattern), 4), false, tc.fold, boolNN)
		if err != nil {
			t.Fatal(err)
		}
		expectDatum(t, mem, got, boolNN, tc.want)
		got.Release()
	}
}

// refLike is a backtracking LIKE over runes: the oracle for the compiled
// matchers.
func refLike(s, p []rune, fold bool) bool {
	eq := func(a, b rune) bool {
		if a == b {
			return true
		}
		if !fold {
			return false
		}
		for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
			if f == b {
				return true
			}
		}
		return false
	}
	if len(p) == 0 {
		return len(s) == 0
	}
	switch p[0] {
	case '%':
		for i := 0; i <= len(s); i++ {
			if refLike(s[i:], p[1:], fold) {
				return true
			}
		}
		return false
	case '_':
		return len(s) > 0 && refLike(s[1:], p[1:], fold)
	case '\\':
		return len(s) > 0 && len(p) > 1 && eq(p[1], s[0]) && refLike(s[1:], p[2:], fold)
	}
	return len(s) > 0 && eq(p[0], s[0]) && refLike(s[1:], p[1:], fold)
}

// TestLikeOracle checks the compiled matchers against refLike on random
// strings and patterns over a small alphabet, so that hits are frequent.
func TestLikeOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abAB日kKK\u212Aſs")
	special := []rune(`%_\`)
	word := func(n int, pattern bool) string {
		var b strings.Builder
		for range n {
			if pattern && rng.IntN(3) == 0 {
				b.WriteRune(special[rng.IntN(len(special))])
			} else {
				b.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
		}
		return b.String()
	}
	mem := checkedMem(t)
	const rows = 64
	values := make([]string, rows)
	for i := range values {
		values[i] = word(rng.IntN(7), false)
	}
	vb := array.NewStringBuilder(mem)
	vb.AppendValues(values, nil)
	arr := vb.NewArray()
	vb.Release()
	defer arr.Release()
	for range 600 {
		p := word(rng.IntN(6), true)
		if strings.HasSuffix(p, `\`) && !strings.HasSuffix(p, `\\`) {
			p += "a"
		}
		for _, fold := range []bool{false, true} {
			m, err := compileLike([]byte(p), fold)
			if err != nil {
				// A trailing escape can remain after an escaped escape.
				continue
			}
			got, err := Like(mem, datum.FromArray(arr, str), datum.FromScalar(scalar.String(p), rows), false, fold, boolNN)
			if err != nil {
				t.Fatalf("pattern %q: %v", p, err)
			}
			res := got.Array().(*array.Boolean)
			for i, v := range values {
				want := refLike([]rune(v), []rune(p), fold)
				if res.Value(i) != want {
					t.Errorf("%q LIKE %q (fold %v, kind %d) = %v, want %v", v, p, fold, m.kind, res.Value(i), want)
				}
			}
			got.Release()
		}
	}
}

func TestCompileLikeKinds(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		kind    matchKind
		lit     string
	}{
		{"abc", matchExact, "abc"},
		{"", matchExact, ""},
		{"abc%", matchPrefix, "abc"},
		{"abc%%", matchPrefix, "abc"},
		{"%abc", matchSuffix, "abc"},
		{"%abc%", matchContains, "abc"},
		{"%%abc%%", matchContains, "abc"},
		{"%", matchAll, ""},
		{`a\%%`, matchPrefix, "a%"},
		{`%\_`, matchSuffix, "_"},
		{"a_c", matchGeneral, ""},
		{"a%b", matchGeneral, ""},
		{"%a%b%", matchGeneral, ""},
	} {
		m, err := compileLike([]byte(tc.pattern), false)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if m.kind != tc.kind || (tc.kind != matchGeneral && m.lit != tc.lit) {
			t.Errorf("%q compiles to kind %d lit %q, want kind %d lit %q", tc.pattern, m.kind, m.lit, tc.kind, tc.lit)
		}
	}
}

func TestFoldRune(t *testing.T) {
	for _, group := range [][]rune{
		{'k', 'K', '\u212A'},
		{'s', 'S', 'ſ'},
		{'σ', 'ς', 'Σ'},
		{'é', 'É'},
		{'ǆ', 'ǅ', 'Ǆ'},
	} {
		for _, r := range group {
			if foldRune(r) != foldRune(group[0]) {
				t.Errorf("foldRune(%q) = %q, foldRune(%q) = %q", r, foldRune(r), group[0], foldRune(group[0]))
			}
		}
	}
	if foldRune('a') == foldRune('b') {
		t.Error("a and b fold together")
	}
}

// BenchmarkLikePrefix is `s LIKE 'abc%'` over 1M strings of 5 to 20 bytes,
// one in ten starting with abc. ns/value is the time per row.
func BenchmarkLikePrefix(b *testing.B) {
	benchLike(b, "abc%")
}

// BenchmarkLikeContains is `s LIKE '%abc%'` over the same strings.
func BenchmarkLikeContains(b *testing.B) {
	benchLike(b, "%abc%")
}

// BenchmarkLikeGeneral is `s LIKE 'a_c%x%'` over the same strings.
func BenchmarkLikeGeneral(b *testing.B) {
	benchLike(b, "a_c%x%")
}

// BenchmarkILikePrefix is `s ILIKE 'ABC%'` over the same strings.
func BenchmarkILikePrefix(b *testing.B) {
	benchLikeFold(b, "ABC%", true)
}

func benchLike(b *testing.B, pattern string) { benchLikeFold(b, pattern, false) }

func benchLikeFold(b *testing.B, pattern string, fold bool) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(7, 7))
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.Reserve(n)
	buf := make([]byte, 0, 32)
	for i := range n {
		buf = buf[:0]
		if i%10 == 0 {
			buf = append(buf, "abc"...)
		}
		for len(buf) < 5+rng.IntN(16) {
			buf = append(buf, byte('a'+rng.IntN(26)))
		}
		sb.BinaryBuilder.Append(buf)
	}
	arr := sb.NewArray()
	sb.Release()
	defer arr.Release()
	mem := memory.NewGoAllocator()
	value := datum.FromArray(arr, dtype.Utf8(false))
	p := datum.FromScalar(scalar.String(pattern), n)
	b.SetBytes(int64(len(arr.(*array.String).ValueBytes())))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := Like(mem, value, p, false, fold, dtype.Bool(false))
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
}

// TestLikeLiteralLoops checks the word-at-a-time loops of the literal
// shapes (prefix, suffix, exact, contains) against strings.HasPrefix and
// friends (and ILIKE against refLike), over arrays long enough to span
// several bitmap words and slices starting anywhere, literals shorter and
// longer than a load, values mostly but not all ASCII.
func TestLikeLiteralLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	mem := checkedMem(t)
	values := make([]string, 300)
	for i := range values {
		b := make([]byte, rng.IntN(12))
		for j := range b {
			b[j] = "abAB"[rng.IntN(4)]
		}
		values[i] = string(b)
		if rng.IntN(8) == 0 {
			values[i] = strings.Replace(values[i], "b", "\u212A", 1) // folds to K, not to B
		}
		if rng.IntN(8) == 0 {
			values[i] = strings.Replace(values[i], "a", "ſ", 1)
		}
	}
	sb := array.NewStringBuilder(mem)
	sb.AppendValues(values, nil)
	full := sb.NewArray()
	sb.Release()
	defer full.Release()
	for _, lo := range []int{0, 1, 63, 64, 130} {
		for _, hi := range []int{lo, lo + 1, lo + 65, 300} {
			if hi > 300 {
				continue
			}
			arr := array.NewSlice(full, int64(lo), int64(hi))
			for _, lit := range []string{"", "a", "ab", "aBba", "aaaaaaa", "abABabab", "ababababa", "bbbbbbbbbbb", "k", "S"} {
				for _, c := range []struct {
					pattern string
					ref     func(s, lit string) bool
				}{
					{lit + "%", strings.HasPrefix},
					{"%" + lit, strings.HasSuffix},
					{lit, func(s, lit string) bool { return s == lit }},
					{"%" + lit + "%", strings.Contains},
				} {
					got, err := Like(mem, datum.FromArray(arr, str), datum.FromScalar(scalar.String(c.pattern), arr.Len()), false, false, boolNN)
					if err != nil {
						t.Fatal(err)
					}
					res := got.Array().(*array.Boolean)
					for i := range arr.Len() {
						if want := c.ref(values[lo+i], lit); res.Value(i) != want {
							t.Errorf("rows [%d, %d): %q LIKE %q = %v, want %v", lo, hi, values[lo+i], c.pattern, res.Value(i), want)
						}
					}
					got.Release()
					got, err = Like(mem, datum.FromArray(arr, str), datum.FromScalar(scalar.String(c.pattern), arr.Len()), false, true, boolNN)
					if err != nil {
						t.Fatal(err)
					}
					res = got.Array().(*array.Boolean)
					for i := range arr.Len() {
						if want := refLike([]rune(values[lo+i]), []rune(c.pattern), true); res.Value(i) != want {
							t.Errorf("rows [%d, %d): %q ILIKE %q = %v, want %v", lo, hi, values[lo+i], c.pattern, res.Value(i), want)
						}
					}
					got.Release()
				}
			}
			arr.Release()
		}
	}
}
