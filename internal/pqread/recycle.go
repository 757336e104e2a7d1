package pqread

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is the allocator of the output buffers. A buffer the caller
// releases comes back to it through Free and is handed out again for a
// later batch, so a scan of any length allocates (and zeroes) only about as
// much memory as the batches in flight hold, instead of the whole file's
// worth for the garbage collector to clean up. Unused buffers go back to
// the underlying allocator on close; buffers released after that go
// straight to it.
type recycler struct {
	mem memory.Allocator

	mu     sync.Mutex
	free   [][]byte // each as the underlying allocator returned it
	max    int      // most buffers kept in free
	closed bool
}

func newRecycler(mem memory.Allocator, max int) *recycler {
	return &recycler{mem: mem, max: max}
}

// Allocate returns a buffer of at least size bytes: a free one of up to
// twice the size (the smallest), or a new one.
func (p *recycler) Allocate(size int) []byte {
	p.mu.Lock()
	// The smallest that fits; of those the last freed, likely still in
	// the CPU's cache.
	best := -1
	for i := len(p.free) - 1; i >= 0; i-- {
		if n := len(p.free[i]); n >= size && n <= 2*size+64 && (best < 0 || n < len(p.free[best])) {
			best = i
		}
	}
	if best >= 0 {
		b := p.free[best]
		copy(p.free[best:], p.free[best+1:]) // keep the order of freeing
		p.free[len(p.free)-1] = nil
		p.free = p.free[:len(p.free)-1]
		p.mu.Unlock()
		return b
	}
	p.mu.Unlock()
	return p.mem.Allocate((size + 63) &^ 63)
}

// Reallocate is only there for callers resizing a buffer of a batch; the
// reader itself never grows a buffer in place.
func (p *recycler) Reallocate(size int, b []byte) []byte {
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

func (p *recycler) Free(b []byte) {
	if len(b) == 0 {
		p.mem.Free(b)
		return
	}
	p.mu.Lock()
	if p.closed || len(p.free) >= p.max {
		p.mu.Unlock()
		p.mem.Free(b)
		return
	}
	p.free = append(p.free, b)
	p.mu.Unlock()
}

// buffer returns a buffer of exactly n bytes, not zeroed, that goes back
// to p when released.
func (p *recycler) buffer(n int) *memory.Buffer {
	buf := memory.NewBufferWithAllocator(p.Allocate(n), p)
	buf.ResizeNoShrink(n) // only sets the length: the capacity is there
	return buf
}

// close returns the free buffers to the underlying allocator.
func (p *recycler) close() {
	p.mu.Lock()
	free := p.free
	p.free = nil
	p.closed = true
	p.mu.Unlock()
	for _, b := range free {
		p.mem.Free(b)
	}
}
