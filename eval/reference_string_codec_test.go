package eval

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference operations of the functions of fn/string_codec.go, row at
// a time: levenshtein as the textbook recursion over bytes (memoized),
// translate through a map of runes, md5 and base64 through Go's packages
// (from_base64 with DuckDB's rules checked first).

func init() {
	str := func(v scalar.Scalar) string { return v.Value().(string) }
	refFuncs[fn.IDLevenshtein] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, int64(refLevenshtein(str(v[0]), str(v[1])))), nil
	}
	refFuncs[fn.IDBitLength] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, int64(8*len(str(v[0])))), nil
	}
	refFuncs[fn.IDTranslate] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		from, to := []rune(str(v[1])), []rune(str(v[2]))
		m := map[rune]int{} // the position of a character in from, first wins
		for k, r := range from {
			if _, ok := m[r]; !ok {
				m[r] = k
			}
		}
		var b strings.Builder
		for _, r := range str(v[0]) {
			k, ok := m[r]
			switch {
			case !ok:
				b.WriteRune(r)
			case k < len(to):
				b.WriteRune(to[k])
			}
		}
		return mk(t, b.String()), nil
	}
	refFuncs[fn.IDMD5] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		sum := md5.Sum([]byte(str(v[0])))
		return mk(t, hex.EncodeToString(sum[:])), nil
	}
	refFuncs[fn.IDToBase64] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		return mk(t, base64.StdEncoding.EncodeToString([]byte(str(v[0])))), nil
	}
	refFuncs[fn.IDFromBase64] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		s := str(v[0])
		if len(s)%4 != 0 {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "from_base64(%q): length", s)
		}
		for k, c := range []byte(s) {
			padding := c == '=' && k >= len(s)-2
			if !padding && !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", rune(c)) {
				return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "from_base64(%q): character %d", s, k)
			}
		}
		// DuckDB ends the output at a '=' third character whatever the
		// fourth is: decode the last group as Go reads its padding.
		if n := len(s); n > 0 && s[n-2] == '=' {
			s = s[:n-2] + "=="
		}
		out, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "from_base64(%q): %v", s, err)
		}
		return mk(t, string(out)), nil
	}
}

// refLevenshtein is the edit distance of a and b in bytes: the recursion
// over the last bytes, memoized.
func refLevenshtein(a, b string) int {
	memo := map[[2]int]int{}
	var d func(i, j int) int
	d = func(i, j int) int {
		if i == 0 || j == 0 {
			return i + j
		}
		if v, ok := memo[[2]int{i, j}]; ok {
			return v
		}
		cost := 1
		if a[i-1] == b[j-1] {
			cost = 0
		}
		v := min(d(i-1, j)+1, d(i, j-1)+1, d(i-1, j-1)+cost)
		memo[[2]int{i, j}] = v
		return v
	}
	return d(len(a), len(b))
}

// stringCodecCall is a call of a function of fn/string_codec.go of type t,
// or nil when none gives t: levenshtein and bit_length (i64), translate,
// md5 and to_base64 (utf8), and from_base64 of to_base64 or of a string
// (mostly not base64: an error).
func (g *gen) stringCodecCall(t dtype.DType, depth int) *expr.Bound {
	s := dtype.Utf8(true)
	switch {
	case t.IsInt() && t.PType() == dtype.I64:
		if g.chance(0.5) {
			return g.call(fn.BitLength, g.expr(s, depth))
		}
		return g.call(fn.Levenshtein, g.expr(s, depth), g.expr(s, depth))
	case t.IsUtf8():
		switch g.intn(4) {
		case 0:
			return g.call(fn.Translate, g.expr(s, depth), g.expr(s, depth), g.expr(s, depth))
		case 1:
			return g.call(fn.MD5, g.expr(s, depth))
		case 2:
			return g.call(fn.ToBase64, g.expr(s, depth))
		}
		x := g.expr(s, depth)
		if g.chance(0.7) {
			x = g.call(fn.ToBase64, x)
		}
		return g.call(fn.Cast(dtype.Utf8(false)), g.call(fn.FromBase64, x))
	}
	return nil
}

// stringCodecCases are expressions over diffSchema (gen_test.go) with rows
// that the vectorized evaluator and the reference must agree on.
var stringCodecCases = []struct{ expr, data string }{
	{"{l: levenshtein(s, s2), b: bit_length(s)}",
		`[{"s": "kitten", "s2": "sitting", "n64": 0}, {"s": "é", "s2": "e", "n64": 0}, {"s": "日本", "s2": null, "n64": 0}, {"s": "", "s2": "", "n64": 0}]`},
	{"translate(s, s2, 'xy日') || '|' || translate(s, 'ab', s2)",
		`[{"s": "abcabc", "s2": "aba", "n64": 0}, {"s": "日本語", "s2": "本", "n64": 0}, {"s": "q", "s2": "", "n64": 0}, {"s": null, "s2": "a", "n64": 0}]`},
	{"md5(s) || to_base64(s2)", `[{"s": "abc", "s2": "abc", "n64": 0}, {"s": "", "s2": "", "n64": 0}, {"s": "日", "s2": null, "n64": 0}]`},
	{"CAST(from_base64(s) AS utf8)",
		`[{"s": "YWJj", "n64": 0}, {"s": "YW=j", "n64": 0}, {"s": "YR==", "n64": 0}, {"s": "", "n64": 0}, {"s": null, "n64": 0}]`},
	{"from_base64(s)", `[{"s": "YWJj", "n64": 0}, {"s": "Y===", "n64": 0}]`},
	{"from_base64(s)", `[{"s": "abc", "n64": 0}]`},
}

// TestStringCodecReference evaluates the functions of fn/string_codec.go
// vectorized and row by row over the same rows (values, nulls and errors
// must agree), in every input mode of the differential test.
func TestStringCodecReference(t *testing.T) {
	root := mustType(t, diffSchema)
	for _, c := range stringCodecCases {
		for _, mode := range []diffMode{{}, {scalarRoot: true}, {vars: []string{"s", "s2"}}} {
			t.Run(c.expr+"/"+mode.String(), func(t *testing.T) {
				checkReferenceCase(t, root, c.expr, c.data, mode)
			})
		}
	}
}
