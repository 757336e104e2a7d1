// Package recycle is a memory.Allocator that keeps the buffers given back
// to it and hands them out again, so that a scan of any length allocates
// only about as much memory as its batches in flight hold, instead of the
// whole input's worth for the garbage collector to clean up. Reused memory
// is cache-warm, and it costs neither fresh pages (page faults) nor
// collections.
package recycle

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Allocator recycles the buffers freed to it. A buffer comes back through
// Free and is handed out again; unused buffers go back to the underlying
// allocator on Close, and buffers freed after that go straight to it.
// A buffer may be longer than asked for (up to twice), as arrow's
// resizable buffers allow.
type Allocator struct {
	mem  memory.Allocator
	zero bool // clear a reused buffer, as memory.Allocator promises

	mu     sync.Mutex
	free   [][]byte // each as the underlying allocator returned it
	max    int      // most buffers kept in free
	closed bool
}

// New recycles buffers of mem, keeping up to max free ones. With zero set,
// a reused buffer is cleared, as the memory.Allocator contract asks; a
// caller that writes every byte it uses may leave it unset.
func New(mem memory.Allocator, max int, zero bool) *Allocator {
	return &Allocator{mem: mem, max: max, zero: zero}
}

var _ memory.Allocator = (*Allocator)(nil)

// Allocate returns a buffer of at least size bytes: a free one of up to
// twice the size (the smallest), or a new one.
func (p *Allocator) Allocate(size int) []byte {
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
		if p.zero {
			clear(b)
		}
		return b
	}
	p.mu.Unlock()
	return p.mem.Allocate((size + 63) &^ 63)
}

// Reallocate is only there for callers resizing a buffer of a batch; the
// reader itself never grows a buffer in place.
func (p *Allocator) Reallocate(size int, b []byte) []byte {
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

func (p *Allocator) Free(b []byte) {
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

// Buffer returns a buffer of exactly n bytes that goes back to p when
// released.
func (p *Allocator) Buffer(n int) *memory.Buffer {
	buf := memory.NewBufferWithAllocator(p.Allocate(n), p)
	buf.ResizeNoShrink(n) // only sets the length: the capacity is there
	return buf
}

// Close returns the free buffers to the underlying allocator.
func (p *Allocator) Close() {
	p.mu.Lock()
	free := p.free
	p.free = nil
	p.closed = true
	p.mu.Unlock()
	for _, b := range free {
		p.mem.Free(b)
	}
}
