package recycle

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRecycle checks that a freed buffer is handed out again (cleared when
// asked), that at most max are kept, and that Close gives every byte back.
func TestRecycle(t *testing.T) {
	for _, zero := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		p := New(mem, 2, zero)
		a := p.Allocate(100)
		for i := range a {
			a[i] = 0xff
		}
		p.Free(a)
		b := p.Allocate(90) // fits in a (at most twice the size): reused
		if &b[0] != &a[0] {
			t.Fatalf("zero %v: a freed buffer of the right size was not reused", zero)
		}
		if zero && b[0] != 0 {
			t.Errorf("a reused buffer was not cleared")
		}
		if c := p.Allocate(1000); len(c) < 1000 {
			t.Errorf("Allocate(1000) gave %d bytes", len(c))
		} else {
			p.Free(c)
		}
		if small := p.Allocate(10); len(small) < 10 || len(small) > 64 {
			t.Errorf("Allocate(10) gave %d bytes; a 1000-byte buffer is too big to reuse for it", len(small))
		} else {
			p.Free(small)
		}
		p.Free(b)
		extra := p.Allocate(5000)
		p.Free(extra) // a third free buffer: beyond max, given back at once
		if len(p.free) > 2 {
			t.Errorf("%d free buffers kept, at most 2 wanted", len(p.free))
		}
		buf := p.Buffer(300)
		if buf.Len() != 300 {
			t.Errorf("Buffer(300) has length %d", buf.Len())
		}
		p.Close()
		buf.Release() // after Close: straight back to mem
		mem.AssertSize(t, 0)
	}
}
