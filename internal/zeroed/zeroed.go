// Package zeroed gives arrow-go code that assumes fresh memory is zero an
// allocator that makes it so. memory.Allocator does not promise cleared
// memory, and colexpr.Pool, which recycles buffers, hands out dirty
// memory; colexpr's kernels write every byte they return, but some of
// arrow-go does not (array.MakeArrayOfNull shares one buffer, assumed
// zero, as validity, offsets and values).
package zeroed

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Allocator is an allocator whose buffers are cleared when handed out.
type Allocator struct{ memory.Allocator }

func (c Allocator) Allocate(n int) []byte {
	b := c.Allocator.Allocate(n)
	clear(b)
	return b
}

func (c Allocator) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := c.Allocator.Reallocate(n, b)
	if old < len(nb) {
		clear(nb[old:])
	}
	return nb
}

// NullArray is an array of n nulls of Arrow type at, from mem.
func NullArray(mem memory.Allocator, at arrow.DataType, n int) arrow.Array {
	return array.MakeArrayOfNull(Allocator{mem}, at, n)
}
