package kernels

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func bitOf(b []byte, i int) uint64 {
	if i>>3 >= len(b) {
		return 0
	}
	return uint64(b[i>>3]>>(i&7)) & 1
}

// TestWordAt reads words at every offset, past the end of unpadded
// buffers included.
func TestWordAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for size := 0; size < 20; size++ {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		for off := 0; off < size*8+70; off++ {
			var want uint64
			for j := 0; j < 64; j++ {
				want |= bitOf(b, off+j) << j
			}
			if got := WordAt(b, off); got != want {
				t.Fatalf("size %d offset %d: %#x, want %#x", size, off, got, want)
			}
		}
	}
}

func TestAndBitmaps(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 200; trial++ {
		n := rng.IntN(300)
		k := rng.IntN(4)
		var ms []Bitmap
		for j := 0; j < k; j++ {
			off := rng.IntN(100)
			b := make([]byte, (off+n+7)/8)
			for i := range b {
				b[i] = byte(rng.Uint32() | rng.Uint32())
			}
			ms = append(ms, Bitmap{Buf: b, Off: off})
		}
		if rng.IntN(3) == 0 {
			ms = append(ms, Bitmap{}) // all ones
		}
		buf, nulls := AndBitmaps(mem, n, ms...)
		if k == 0 || n == 0 {
			if buf != nil || nulls != 0 {
				t.Fatalf("no bitmaps gave a buffer")
			}
			continue
		}
		zeros := 0
		for i := 0; i < n; i++ {
			want := true
			for _, m := range ms {
				want = want && m.Get(i)
			}
			if want != (bitOf(buf.Bytes(), i) == 1) {
				t.Fatalf("trial %d row %d: got %v", trial, i, !want)
			}
			if !want {
				zeros++
			}
		}
		if zeros != nulls {
			t.Fatalf("trial %d: %d nulls, counted %d", trial, nulls, zeros)
		}
		for i := n; i < NumWords(n)*64; i++ {
			if bitOf(buf.Bytes(), i) != 0 {
				t.Fatalf("trial %d: bit %d past the end is set", trial, i)
			}
		}
		buf.Release()
	}
}

func TestShareValidity(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	for i := 0; i < 100; i++ {
		if i%3 == 0 {
			b.AppendNull()
		} else {
			b.Append(int32(i))
		}
	}
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	for _, off := range []int{0, 8, 3, 64, 99} {
		s := array.NewSlice(arr, int64(off), 100)
		buf, nulls := ShareValidity(mem, s)
		if nulls != s.NullN() {
			t.Errorf("offset %d: %d nulls, want %d", off, nulls, s.NullN())
		}
		for i := 0; i < s.Len(); i++ {
			if (bitOf(buf.Bytes(), i) == 1) != s.IsValid(i) {
				t.Fatalf("offset %d row %d differs", off, i)
			}
		}
		buf.Release()
		s.Release()
	}
}
