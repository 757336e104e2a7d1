package colexpr_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// streamBatch is a batch of n rows: u32 columns a and b, nullable bools x
// and y, and an i64 column i in [0, 1000).
func streamBatch(mem memory.Allocator, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "b", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "x", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "y", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	r := rand.New(rand.NewPCG(1, 2))
	maybe := func(b *array.BooleanBuilder) {
		if r.IntN(10) == 0 {
			b.AppendNull()
		} else {
			b.Append(r.IntN(2) == 0)
		}
	}
	for range n {
		bld.Field(0).(*array.Uint32Builder).Append(r.Uint32N(1 << 20))
		bld.Field(1).(*array.Uint32Builder).Append(r.Uint32N(1 << 20))
		maybe(bld.Field(2).(*array.BooleanBuilder))
		maybe(bld.Field(3).(*array.BooleanBuilder))
		bld.Field(4).(*array.Int64Builder).Append(r.Int64N(1000))
	}
	return bld.NewRecordBatch()
}

// streamCases are the programs a stream of batches is evaluated with:
// the kernels of the bench's comparisons, and a filter.
var streamCases = []struct {
	name, src string
	filter    bool
}{
	{"add", "a + b", false},
	{"kleene", "x AND y", false},
	{"lt", "i < 500", false},
	{"filter", "i < 500 AND x", true},
}

// run evaluates the case's program over rec once and releases the result.
func runStream(prog *colexpr.Program, filter bool, mem memory.Allocator, rec arrow.RecordBatch) error {
	if filter {
		out, err := prog.Filter(mem, rec)
		if err != nil {
			return err
		}
		out.Release()
		return nil
	}
	out, err := prog.Eval(mem, rec)
	if err != nil {
		return err
	}
	out.Release()
	return nil
}

// TestPoolSteadyState checks issue 17's "no allocation in steady state": a
// program evaluated batch after batch into a Pool takes, after the first
// batches, no Arrow memory from the allocator under the pool, and little
// Go memory (the arrays' headers) — far less than one output. Every byte
// goes back to the allocator on Close.
func TestPoolSteadyState(t *testing.T) {
	const rows = 16384 // an output of 64 KiB for a + b
	under := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := streamBatch(under, rows)
	defer rec.Release()
	for _, c := range streamCases {
		prog, err := colexpr.Compile(c.src, rec.Schema())
		if err != nil {
			t.Fatal(err)
		}
		pool := colexpr.NewPool(under)
		for range 3 { // warm up: the pool fills
			if err := runStream(prog, c.filter, pool, rec); err != nil {
				t.Fatal(err)
			}
		}
		held := under.CurrentAlloc()
		var before, after runtime.MemStats
		const batches = 50
		runtime.ReadMemStats(&before)
		for range batches {
			if err := runStream(prog, c.filter, pool, rec); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		if got := under.CurrentAlloc(); got != held {
			t.Errorf("%s: the pool took %d bytes more from its allocator in steady state", c.name, got-held)
		}
		// The headers of a handful of arrays and buffers: about 1 KiB.
		if perBatch := (after.TotalAlloc - before.TotalAlloc) / batches; perBatch > 8<<10 {
			t.Errorf("%s: %d bytes of Go memory allocated per batch in steady state, want at most 8 KiB", c.name, perBatch)
		}
		pool.Close()
		if got := under.CurrentAlloc(); got != recBytes(rec) {
			t.Errorf("%s: %d bytes outstanding after Close, want only the batch's %d", c.name, got, recBytes(rec))
		}
	}
}

// recBytes is the bytes the buffers of rec's columns hold.
func recBytes(rec arrow.RecordBatch) int {
	n := 0
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += b.Cap()
			}
		}
	}
	return n
}

// BenchmarkStream evaluates a program over the same 16 384-row batch again
// and again, with the default allocator and with a Pool: -benchmem shows
// what a stream of batches allocates per batch in steady state.
func BenchmarkStream(b *testing.B) {
	rec := streamBatch(memory.DefaultAllocator, 16384)
	defer rec.Release()
	for _, c := range streamCases {
		prog, err := colexpr.Compile(c.src, rec.Schema())
		if err != nil {
			b.Fatal(err)
		}
		for _, pooled := range []bool{false, true} {
			name := c.name + "/default"
			if pooled {
				name = c.name + "/pool"
			}
			b.Run(name, func(b *testing.B) {
				var mem memory.Allocator = memory.DefaultAllocator
				if pooled {
					pool := colexpr.NewPool(nil)
					defer pool.Close()
					mem = pool
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := runStream(prog, c.filter, mem, rec); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// A program evaluated batch after batch into a Pool reuses the memory of
// each released result for the next.
func ExamplePool() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := lineitems(mem)
	defer rec.Release()
	p, err := colexpr.Compile("price * (1 - discount)", rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	pool := colexpr.NewPool(mem)
	for batch := range 3 {
		out, err := p.Eval(pool, rec) // a reader's next batch, in a real stream
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(batch, out)
		out.Release() // its buffers go back to the pool
	}
	pool.Close()
	fmt.Println("bytes held besides the batch:", mem.CurrentAlloc()-recBytes(rec))
	// Output:
	// 0 [108 90 150]
	// 1 [108 90 150]
	// 2 [108 90 150]
	// bytes held besides the batch: 0
}
