// Package memtest holds allocators for tests.
package memtest

import "github.com/apache/arrow-go/v18/arrow/memory"

// Dirty is an allocator whose buffers are full of 0xA5 bytes, as those of
// a recycling allocator that does not clear reused memory (colexpr.Pool,
// internal/recycle with zero unset) are: code that reads a byte of a fresh
// buffer before writing it gives a different result over Dirty memory
// than over cleared memory. Free goes to the allocator it wraps, so a
// memory.CheckedAllocator under it still counts every byte.
type Dirty struct{ memory.Allocator }

// Fill is the byte Dirty writes into what it hands out.
const Fill = 0xA5

func (d Dirty) Allocate(n int) []byte {
	b := d.Allocator.Allocate(n)
	for i := range b {
		b[i] = Fill
	}
	return b
}

func (d Dirty) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := d.Allocator.Reallocate(n, b)
	for i := old; i < len(nb); i++ {
		nb[i] = Fill
	}
	return nb
}
