package colexpr

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/recycle"
)

// A Pool is a memory.Allocator for evaluating a stream of batches: the
// buffers of a result, once released, are handed out again for a later
// batch's, so that a program evaluated batch after batch takes no new
// memory from the allocator under it after the first batches, and its
// output is written into memory still in the CPU's caches.
//
// A Pool does not clear the memory it hands out: colexpr's evaluation
// writes every byte of the buffers it returns (its tests run over such
// memory), and so do arrow-go's builders. Give a Pool only to code that
// does not read memory before writing it; arrow-go's array.MakeArrayOfNull
// does, for one.
//
// It keeps up to 64 free buffers, preferring for each request the smallest
// that fits (up to twice the size asked for). Close returns the free
// buffers to the allocator under it; buffers released after Close go
// straight to it. A Pool is safe for concurrent use.
type Pool struct {
	r *recycle.Allocator
}

var _ memory.Allocator = (*Pool)(nil)

// poolBuffers is how many free buffers a Pool keeps: enough for the
// intermediate and final results of a deep expression over one batch.
const poolBuffers = 64

// NewPool is a Pool over mem (memory.DefaultAllocator when nil).
func NewPool(mem memory.Allocator) *Pool {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &Pool{r: recycle.New(mem, poolBuffers, false)}
}

// Allocate returns a buffer of at least size bytes, not cleared.
func (p *Pool) Allocate(size int) []byte { return p.r.Allocate(size) }

// Reallocate returns a buffer of size bytes holding b's bytes, and takes b
// back.
func (p *Pool) Reallocate(size int, b []byte) []byte { return p.r.Reallocate(size, b) }

// Free takes a buffer back for reuse.
func (p *Pool) Free(b []byte) { p.r.Free(b) }

// Close returns the free buffers to the allocator under the pool.
func (p *Pool) Close() { p.r.Close() }
