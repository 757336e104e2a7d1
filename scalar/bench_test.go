package scalar_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

func benchMakeArray(b *testing.B, s scalar.Scalar) {
	mem := memory.NewGoAllocator()
	const n = 1 << 16
	b.SetBytes(n)
	for b.Loop() {
		arr, err := scalar.MakeArray(mem, s, n)
		if err != nil {
			b.Fatal(err)
		}
		arr.Release()
	}
}

func BenchmarkMakeArrayI64(b *testing.B)  { benchMakeArray(b, scalar.Int64(42)) }
func BenchmarkMakeArrayUtf8(b *testing.B) { benchMakeArray(b, scalar.String("abcdefgh")) }
func BenchmarkMakeArrayList(b *testing.B) {
	l, _ := scalar.New(dtype.List(dtype.Primitive(dtype.I32, false), false), []scalar.Scalar{scalar.Int32(1), scalar.Int32(2)})
	benchMakeArray(b, l)
}

func BenchmarkFromArrayI64(b *testing.B) {
	arr, _ := scalar.MakeArray(memory.NewGoAllocator(), scalar.Int64(42), 1024)
	defer arr.Release()
	t := dtype.Primitive(dtype.I64, false)
	for b.Loop() {
		for i := range 1024 {
			if _, err := scalar.FromArray(arr, i, t); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkCastUtf8ToI64(b *testing.B) {
	s, t := scalar.String("123456789"), dtype.Primitive(dtype.I64, false)
	for b.Loop() {
		if _, err := scalar.Cast(s, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastUtf8ToTimestamp(b *testing.B) {
	s, t := scalar.String("1995-01-01 12:00:00.123456"), dtype.Timestamp(dtype.Micro, "", false)
	for b.Loop() {
		if _, err := scalar.Cast(s, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastF64ToUtf8(b *testing.B) {
	s, t := scalar.Float64(0.1), dtype.Utf8(false)
	for b.Loop() {
		if _, err := scalar.Cast(s, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCastDecimalRescale(b *testing.B) {
	s, _ := scalar.ParseNumber("12345.6789")
	t := dtype.Decimal(12, 2, false)
	for b.Loop() {
		if _, err := scalar.Cast(s, t); err != nil {
			b.Fatal(err)
		}
	}
}
