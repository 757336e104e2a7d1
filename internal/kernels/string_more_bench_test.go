package kernels

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// benchWords is a column of 65 536 short strings, a few of them non-ASCII.
func benchWords(b *testing.B, mem memory.Allocator) datum.Datum {
	b.Helper()
	words := []string{"  alpha  ", "beta", "gamma delta", "", "épsilon", "zeta,eta,theta", "iota 42", "kappa"}
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	for i := range 1 << 16 {
		sb.Append(words[i%len(words)] + strings.Repeat("x", i%7))
	}
	return datum.FromArray(sb.NewArray(), dtype.Utf8(false))
}

func benchKernel(b *testing.B, call func(mem memory.Allocator, s datum.Datum) (datum.Datum, error)) {
	mem := memory.NewGoAllocator()
	s := benchWords(b, mem)
	defer s.Release()
	b.SetBytes(int64(len(s.Array().(*array.String).ValueBytes())))
	b.ResetTimer()
	for range b.N {
		out, err := call(mem, s)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

func BenchmarkTrim(b *testing.B) {
	benchKernel(b, func(mem memory.Allocator, s datum.Datum) (datum.Datum, error) {
		return Trim(mem, []datum.Datum{s}, TrimBoth, dtype.Utf8(false))
	})
}

func BenchmarkLPad(b *testing.B) {
	benchKernel(b, func(mem memory.Allocator, s datum.Datum) (datum.Datum, error) {
		n := s.Len()
		return Pad(mem, []datum.Datum{s, datum.FromScalar(scalar.Int64(12), n), datum.FromScalar(scalar.String("*"), n)}, false, dtype.Utf8(false))
	})
}

func BenchmarkSplitPart(b *testing.B) {
	benchKernel(b, func(mem memory.Allocator, s datum.Datum) (datum.Datum, error) {
		n := s.Len()
		return SplitPart(mem, []datum.Datum{s, datum.FromScalar(scalar.String(","), n), datum.FromScalar(scalar.Int64(-1), n)}, dtype.Utf8(false))
	})
}

func BenchmarkRegexpMatches(b *testing.B) {
	benchKernel(b, func(mem memory.Allocator, s datum.Datum) (datum.Datum, error) {
		return RegexpMatches(mem, []datum.Datum{s, datum.FromScalar(scalar.String("[0-9]+x"), s.Len())}, false, dtype.Bool(false))
	})
}

func BenchmarkPrintf(b *testing.B) {
	benchKernel(b, func(mem memory.Allocator, s datum.Datum) (datum.Datum, error) {
		return Format(mem, []datum.Datum{datum.FromScalar(scalar.String("<%-12s>"), s.Len()), s}, true, dtype.Utf8(false))
	})
}
