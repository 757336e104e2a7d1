package bench

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colexpr/colexpr"
)

// Floor names the memory floor of a kernel workload in the report: the
// time to read the workload's input bytes once and write its output bytes
// once, with no computation. A kernel that reads each input byte and
// writes each output byte once cannot beat it by much; its time ÷ floor
// says how far above the memory's speed an engine is.
const Floor = "floor"

// floorImpl is the floor of a workload that reads ins and writes out bytes:
// a sum over the inputs as 8-byte words (four independent sums, so that
// the loop waits on memory, not on additions), then a clear of an output
// buffer of out bytes (Go's memclr, its fastest way to write memory). The
// inputs are the buffers the engines read (the same memory, not copies);
// the output buffer is allocated once, untimed, which the engines' outputs
// are not.
func floorImpl(ins [][]byte, out int) Impl {
	in := 0
	for _, b := range ins {
		in += len(b)
	}
	buf := make([]byte, out)
	var sink uint64
	return Impl{
		Engine: Floor,
		How: fmt.Sprintf("read %s of input (the %d buffers the engines read, summed as 8-byte words), then write %s (clear of a preallocated buffer)",
			formatBytes(float64(in)), len(ins), formatBytes(float64(out))),
		Run: func(*Digest) error {
			var s uint64
			for _, b := range ins {
				s += sumWords(b)
			}
			clear(buf)
			sink += s
			return nil
		},
	}
}

// sumWords is the sum of b read as little-endian 8-byte words (and its
// last bytes one by one).
func sumWords(b []byte) uint64 {
	var a0, a1, a2, a3 uint64
	for len(b) >= 32 {
		a0 += binary.LittleEndian.Uint64(b)
		a1 += binary.LittleEndian.Uint64(b[8:])
		a2 += binary.LittleEndian.Uint64(b[16:])
		a3 += binary.LittleEndian.Uint64(b[24:])
		b = b[32:]
	}
	for _, c := range b {
		a0 += uint64(c)
	}
	return a0 + a1 + a2 + a3
}

// arrayBytes is the memory an engine must read to read every row of arr:
// its validity bitmap when it has nulls, and its values (fixed-width and
// bool), offsets and data (strings, binaries), or offsets and the child
// rows they cover (lists), all restricted to the array's slice.
func arrayBytes(arr arrow.Array) [][]byte {
	d := arr.Data()
	off, n := d.Offset(), d.Len()
	var out [][]byte
	bufs := d.Buffers()
	if arr.NullN() > 0 && len(bufs) > 0 && bufs[0] != nil {
		out = append(out, bitmapBytes(bufs[0].Bytes(), off, n))
	}
	switch a := arr.(type) {
	case *array.Boolean:
		out = append(out, bitmapBytes(bufs[1].Bytes(), off, n))
	case *array.List:
		offs := a.Offsets()[off : off+n+1]
		out = append(out, arrow.Int32Traits.CastToBytes(offs))
		child := array.NewSlice(a.ListValues(), int64(offs[0]), int64(offs[n]))
		out = append(out, arrayBytes(child)...)
		child.Release()
	case *array.String:
		offs := a.ValueOffsets() // already the slice's n+1
		out = append(out, arrow.Int32Traits.CastToBytes(offs), bufs[2].Bytes()[offs[0]:offs[n]])
	default:
		if fw, ok := arr.DataType().(arrow.FixedWidthDataType); ok && fw.BitWidth()%8 == 0 {
			w := fw.BitWidth() / 8
			out = append(out, bufs[1].Bytes()[off*w:(off+n)*w])
		}
	}
	return out
}

// bitmapBytes is the bytes of a bitmap holding bits off … off+n-1.
func bitmapBytes(b []byte, off, n int) []byte {
	return b[off/8 : bitutil.BytesForBits(int64(off+n))]
}

// sumBytes is the total length of bs.
func sumBytes(bs [][]byte) int {
	n := 0
	for _, b := range bs {
		n += len(b)
	}
	return n
}

// withFloor gives w (a workload whose colexpr evaluates src over batches)
// its floor: the bytes of every column of the batches, and the bytes of
// colexpr's output, computed once here.
func (s *Suite) withFloor(w *Workload, src string, batches []arrow.RecordBatch) (*Workload, error) {
	p, err := colexpr.Compile(src, batches[0].Schema())
	if err != nil {
		return nil, fmt.Errorf("bench: %s: floor: %w", w.Name, err)
	}
	out := 0
	for _, b := range batches {
		res, err := p.Eval(s.Mem, b)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: floor: %w", w.Name, err)
		}
		out += sumBytes(arrayBytes(res))
		res.Release()
	}
	return withFloorOf(w, batches, out), nil
}

// withFloorOf gives w the floor of reading every column of batches and
// writing out bytes.
func withFloorOf(w *Workload, batches []arrow.RecordBatch, out int) *Workload {
	var ins [][]byte
	for _, b := range batches {
		for _, c := range b.Columns() {
			ins = append(ins, arrayBytes(c)...)
		}
	}
	f := floorImpl(ins, out)
	w.Floor = &f
	return w
}
