package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
)

// Sizes are the row counts of the generated data. FullSizes are the sizes the
// comparison runs at; tests use smaller ones.
type Sizes struct {
	Add       int // rows of the two u32 arrays of the checked add
	Gather    int // lists (and indices) of the gather
	Compare   int // rows of the i64 compare
	Kleene    int // rows of the nullable bool arrays
	Lineitem  int // rows of the demo table (Q6, LIKE)
	Transform int // lists of the list<i64> column
	OrChain   int // terms of the or-chain
}

// FullSizes are the sizes named in the workloads' descriptions.
var FullSizes = Sizes{
	Add:       16_384,
	Gather:    65_536,
	Compare:   1_000_000,
	Kleene:    1_000_000,
	Lineitem:  1_000_000,
	Transform: 262_144,
	OrChain:   200,
}

// gatherWidth is the length of every list the gather reads from.
const gatherWidth = 4

// Data is every input of the workloads, generated once from a seed so that all
// engines read identical values. Release frees its Arrow memory.
type Data struct {
	Sizes Sizes

	// A and B are the operands of the checked add: u32 values below 2^31, so
	// the sum never overflows, no nulls.
	A, B *array.Uint32

	// GatherLists is list<u32> with Sizes.Gather rows of gatherWidth values
	// each; GatherIdx holds, per row, a 1-based position in 1..gatherWidth
	// (i64); GatherFlat is the lists' values and GatherTake the 0-based
	// positions into it (row*gatherWidth + idx - 1), the same gather
	// expressed as a take.
	GatherLists *array.List
	GatherIdx   *array.Int64
	GatherFlat  *array.Uint32
	GatherTake  *array.Int64

	// X is the i64 column of the compare, uniform in [-2^40, 2^40), no
	// nulls; Threshold is the scalar it is compared with (about half the rows
	// are below it).
	X         *array.Int64
	Threshold int64

	// P and Q are nullable bools, about a tenth of each null, independently.
	P, Q *array.Boolean

	// Lineitem is the demo table in batches of demo.DefaultBatchSize rows.
	Lineitem []arrow.RecordBatch

	// Xs is list<i64>? with Sizes.Transform rows of 0–7 values in
	// [-2^31, 2^31); about one list in ten is null.
	Xs *array.List
}

// Seed is the seed of every generated value.
const Seed uint64 = 0xc01e_b3c4

// NewData generates the workloads' data with the given sizes.
func NewData(mem memory.Allocator, sz Sizes) (d *Data, err error) {
	d = &Data{Sizes: sz}
	defer func() {
		if err != nil {
			d.Release()
			d = nil
		}
	}()
	r := rand.New(rand.NewPCG(Seed, 1))

	ab := array.NewUint32Builder(mem)
	defer ab.Release()
	for range sz.Add {
		ab.Append(uint32(r.Int32()))
	}
	d.A = ab.NewUint32Array()
	for range sz.Add {
		ab.Append(uint32(r.Int32()))
	}
	d.B = ab.NewUint32Array()

	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Uint32)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Uint32Builder)
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	tb := array.NewInt64Builder(mem)
	defer tb.Release()
	for row := range sz.Gather {
		lb.Append(true)
		for range gatherWidth {
			vb.Append(r.Uint32())
		}
		i := 1 + r.Int64N(gatherWidth)
		ib.Append(i)
		tb.Append(int64(row*gatherWidth) + i - 1)
	}
	d.GatherLists = lb.NewListArray()
	d.GatherIdx = ib.NewInt64Array()
	d.GatherTake = tb.NewInt64Array()
	d.GatherFlat = d.GatherLists.ListValues().(*array.Uint32)
	d.GatherFlat.Retain()

	xb := array.NewInt64Builder(mem)
	defer xb.Release()
	for range sz.Compare {
		xb.Append(r.Int64N(1<<41) - 1<<40)
	}
	d.X = xb.NewInt64Array()
	d.Threshold = 12345

	bb := array.NewBooleanBuilder(mem)
	defer bb.Release()
	for _, dst := range []**array.Boolean{&d.P, &d.Q} {
		for range sz.Kleene {
			if r.IntN(10) == 0 {
				bb.AppendNull()
			} else {
				bb.Append(r.IntN(2) == 0)
			}
		}
		*dst = bb.NewBooleanArray()
	}

	if sz.Lineitem > 0 {
		t := demo.Table{Seed: demo.DefaultSeed, Rows: int64(sz.Lineitem)}
		if d.Lineitem, err = t.Batches(mem, demo.DefaultBatchSize); err != nil {
			return d, fmt.Errorf("bench: demo table: %w", err)
		}
	}

	xl := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer xl.Release()
	xv := xl.ValueBuilder().(*array.Int64Builder)
	for range sz.Transform {
		if r.IntN(10) == 0 {
			xl.AppendNull()
			continue
		}
		xl.Append(true)
		for range r.IntN(8) {
			xv.Append(r.Int64N(1<<32) - 1<<31)
		}
	}
	d.Xs = xl.NewListArray()
	return d, nil
}

// Release frees every array of d.
func (d *Data) Release() {
	if d == nil {
		return
	}
	for _, a := range []arrow.Array{d.A, d.B, d.GatherLists, d.GatherIdx, d.GatherFlat, d.GatherTake, d.X, d.P, d.Q, d.Xs} {
		if a != nil && !isNilArray(a) {
			a.Release()
		}
	}
	for _, b := range d.Lineitem {
		b.Release()
	}
	*d = Data{}
}

// isNilArray reports whether a is a typed nil pointer in an interface.
func isNilArray(a arrow.Array) bool {
	switch a := a.(type) {
	case *array.Uint32:
		return a == nil
	case *array.Int64:
		return a == nil
	case *array.Boolean:
		return a == nil
	case *array.List:
		return a == nil
	}
	return false
}

// LineitemRows is the number of rows of the demo table.
func (d *Data) LineitemRows() int {
	n := 0
	for _, b := range d.Lineitem {
		n += int(b.NumRows())
	}
	return n
}
