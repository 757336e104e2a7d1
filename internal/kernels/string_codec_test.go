package kernels

import (
	"encoding/base64"
	"math/rand/v2"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// The expected values below are DuckDB's (bench/cmd/duckquery), errors
// included.

func TestLevenshtein(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "pairs", args: []in{col(strN, `["kitten", "é", "日本", "", null, "abc"]`), col(strN, `["sitting", "e", "日", "abc", "a", null]`)},
			ret: i64N, want: `[3, 2, 3, 3, null, null]`},
		{name: "scalar", args: []in{col(strN, `["flaw", "lawn", "aaaa"]`), s("lawn")}, ret: i64N, want: `[2, 0, 3]`},
		{name: "scalars", args: []in{s("abcdef"), s("abcxef")}, ret: i64, want: `[1]`},
	}, Levenshtein)
}

func TestBitLength(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "column", args: []in{col(strN, `["abc", "日", "", null]`)}, ret: i64N, want: `[24, 24, 0, null]`},
		{name: "scalar", args: []in{s("ab")}, ret: i64, want: `[16]`},
	}, BitLength)
}

func TestTranslate(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "constant maps", args: []in{col(strN, `["hello", "日本", null, ""]`), s("el日"), s("ipa")}, ret: strN, want: `["hippo", "a本", null, ""]`},
		{name: "deleted", args: []in{s("abc"), s("ab"), s("x")}, ret: str, want: `["xc"]`},
		{name: "first wins", args: []in{s("abcabc"), s("aba"), s("xyz")}, ret: str, want: `["xycxyc"]`},
		{name: "repeated", args: []in{s("aaa"), s("aa"), s("xy")}, ret: str, want: `["xxx"]`},
		{name: "empty from", args: []in{s("abc"), s(""), s("x")}, ret: str, want: `["abc"]`},
		{name: "empty to", args: []in{s("日本語"), s("本語"), s("")}, ret: str, want: `["日"]`},
		{name: "maps per row", args: []in{col(strN, `["abc", "abc", "abc"]`), col(strN, `["a", "b", null]`), col(strN, `["日", "", "x"]`)},
			ret: strN, want: `["日bc", "ac", null]`},
		{name: "null to", args: []in{s("abc"), s("a"), lit(scalar.Null(strN))}, ret: strN, want: `[null]`},
	}, Translate)
}

func TestMD5(t *testing.T) {
	runCases(t, []kernelCase{
		{name: "text", args: []in{col(strN, `["abc", "", null]`)}, ret: strN,
			want: `["900150983cd24fb0d6963f7d28e17f72", "d41d8cd98f00b204e9800998ecf8427e", null]`},
		{name: "binary", args: []in{col(dtype.Binary(true), `["qg=="]`)}, ret: strN, want: `["9fe0f7244a7da1d3f5b3d21f9b1e1ea8"]`},
	}, MD5)
}

func TestBase64(t *testing.T) {
	binN := dtype.Binary(true)
	runCases(t, []kernelCase{
		// Binary test columns are written in base64 JSON (Arrow's form).
		{name: "binary", args: []in{col(binN, `["YWJj", "/wA=", "", null]`)}, ret: strN, want: `["YWJj", "/wA=", "", null]`},
		{name: "text", args: []in{s("abc")}, ret: str, want: `["YWJj"]`},
	}, ToBase64)
	runCases(t, []kernelCase{
		{name: "decode", args: []in{col(strN, `["YWJj", "YWI=", "YW==", "", null]`)}, ret: binN, want: `["YWJj", "YWI=", "YQ==", "", null]`},
		{name: "padding in the third place", args: []in{s("YW=j")}, ret: dtype.Binary(false), want: `["YQ=="]`},
		{name: "unused bits", args: []in{s("YR==")}, ret: dtype.Binary(false), want: `["YQ=="]`},
		{name: "length", args: []in{col(strN, `["YWJj", "abc"]`)}, ret: binN, errText: `row 1: invalid argument: could not decode "abc" as base64: its length must be a multiple of 4`},
		{name: "padding inside", args: []in{s("YQ==YWJj")}, ret: binN, errText: `invalid character "=" at position 2`},
		{name: "padding second", args: []in{s("Y===")}, ret: binN, errText: `at position 1`},
		{name: "space", args: []in{s("YW j")}, ret: binN, errText: `invalid character " " at position 2`},
		{name: "url alphabet", args: []in{s("YWJ-")}, ret: binN, errText: `invalid character "-" at position 3`},
		{name: "error on a null row only", args: []in{col(strN, `[null, "YQ=="]`)}, ret: binN, want: `[null, "YQ=="]`},
	}, FromBase64)
}

// TestBase64RoundTrip decodes what Go's encoder writes for random bytes.
func TestBase64RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		got, err := decodeBase64(nil, []byte(base64.StdEncoding.EncodeToString(b)))
		if err != nil || string(got) != string(b) {
			t.Fatalf("decode(encode(%x)) = %x, %v", b, got, err)
		}
	}
}
