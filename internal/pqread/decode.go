package pqread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/colexpr/colexpr/internal/recycle"
)

// readChunk is the most rows one ReadBatch call asks for: the scratch
// buffers of that many values stay in the CPU's cache between the read and
// the conversion into the output.
const readChunk = 4096

// scratch holds one worker's buffers, reused for every slice it decodes.
type scratch struct {
	defs  []int16
	idx   []uint32 // dictionary indices (pageChunk)
	pairs []uint64 // decimal128 values (pageChunk)
	i32   []int32
	i64   []int64
	bools []bool
	ba    []parquet.ByteArray
	flba  []parquet.FixedLenByteArray
	i96   []parquet.Int96
}

func newScratch() *scratch {
	return &scratch{defs: make([]int16, readChunk), idx: make([]uint32, readChunk), pairs: make([]uint64, 2*readChunk)}
}

// readFn is a typed column chunk reader's ReadBatch or ReadBatchInPage.
type readFn[T any] func(batchSize int64, values []T, defLvls, repLvls []int16) (int64, int, error)

// sliceOut is the output of one column of one batch while it is decoded.
// Its buffers are released if decoding fails or panics.
type sliceOut struct {
	pool   *recycle.Allocator
	n      int   // rows in the slice
	first  int64 // the slice's first row in the row group, for messages
	maxDef int16

	valid  *memory.Buffer // nil until a null turns up
	bits   []byte
	nulls  int
	values *memory.Buffer
	data   []byte // binary data, a buffer of pool
	used   int    // bytes of data used
}

func (o *sliceOut) release() {
	if o.valid != nil {
		o.valid.Release()
		o.valid = nil
	}
	if o.values != nil {
		o.values.Release()
		o.values = nil
	}
	if o.data != nil {
		o.pool.Free(o.data)
		o.data = nil
	}
}

// alloc allocates the values buffer of nbytes.
func (o *sliceOut) alloc(nbytes int) []byte {
	o.values = o.pool.Buffer(nbytes)
	return o.values.Bytes()
}

// levels records the validity of rows [off, off+len(defs)) from their
// definition levels, of which vr are non-null. A bitmap is made only once
// a null turns up: a slice without nulls has none.
func (o *sliceOut) levels(off int, defs []int16, vr int) error {
	lv := len(defs)
	if vr == lv {
		if o.bits != nil {
			bitutil.SetBitsTo(o.bits, int64(off), int64(lv), true)
		}
		return nil
	}
	if o.bits == nil {
		o.valid = o.pool.Buffer(int(bitutil.BytesForBits(int64(o.n))))
		o.bits = o.valid.Bytes()
		clear(o.bits)
		bitutil.SetBitsTo(o.bits, 0, int64(off), true)
	}
	bits, maxDef, valid := o.bits, o.maxDef, 0
	for i, d := range defs {
		if d == maxDef {
			p := off + i
			bits[p>>3] |= 1 << (p & 7)
			valid++
		}
	}
	if valid != vr {
		return fmt.Errorf("decoded %d values for %d non-null definition levels", vr, valid)
	}
	o.nulls += lv - vr
	return nil
}

// ended is the error for a column chunk that stops before its row group.
func (o *sliceOut) ended(cr file.ColumnChunkReader, got int) error {
	if err := cr.Err(); err != nil {
		return err
	}
	return fmt.Errorf("the column chunk ends at row %d of the row group, before its end (the file may be truncated or corrupt)", o.first+int64(got))
}

// readDirect reads the slice's values straight into out, spreading them
// to their rows when there are nulls.
func readDirect[T any](read readFn[T], cr file.ColumnChunkReader, out []T, o *sliceOut, sc *scratch) error {
	for off := 0; off < o.n; {
		want := min(o.n-off, readChunk)
		var defs []int16
		if o.maxDef > 0 {
			defs = sc.defs[:want]
		}
		lv64, vr, err := read(int64(want), out[off:off+want], defs, nil)
		if err != nil {
			return err
		}
		lv := int(lv64)
		if lv == 0 {
			return o.ended(cr, off)
		}
		if o.maxDef > 0 && lv != vr {
			if err := o.levels(off, defs[:lv], vr); err != nil {
				return err
			}
			spread(out[off:off+lv], vr, defs[:lv], o.maxDef)
		} else if o.bits != nil {
			bitutil.SetBitsTo(o.bits, int64(off), int64(lv), true)
		}
		off += lv
	}
	return nil
}

// spread moves the first nv values of vals, read densely, to the slots of
// the non-null levels in defs, zeroing the null slots. It works backwards
// so that no value is overwritten before it is moved.
func spread[T any](vals []T, nv int, defs []int16, maxDef int16) {
	var zero T
	j := nv - 1
	for i := len(defs) - 1; i >= 0; i-- {
		if defs[i] == maxDef {
			vals[i] = vals[j]
			j--
		} else {
			vals[i] = zero
		}
	}
}

// readConvert reads the slice in chunks into buf and hands each chunk to
// emit: the dense values, the row they start at and, when the chunk has
// nulls, its definition levels (nil when every row has a value).
func readConvert[T any](read readFn[T], cr file.ColumnChunkReader, buf []T, o *sliceOut, sc *scratch, emit func(off int, vals []T, defs []int16) error) error {
	for off := 0; off < o.n; {
		want := min(o.n-off, len(buf))
		var defs []int16
		if o.maxDef > 0 {
			defs = sc.defs[:want]
		}
		lv64, vr, err := read(int64(want), buf[:want], defs, nil)
		if err != nil {
			return err
		}
		lv := int(lv64)
		if lv == 0 {
			return o.ended(cr, off)
		}
		var nullDefs []int16
		if o.maxDef > 0 {
			if err := o.levels(off, defs[:lv], vr); err != nil {
				return err
			}
			if lv != vr {
				nullDefs = defs[:lv]
			}
		}
		if err := emit(off, buf[:vr], nullDefs); err != nil {
			return err
		}
		off += lv
	}
	return nil
}

func castSlice[T any](b []byte) []T {
	if len(b) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// decodeSlice decodes the next n rows of col from cr, or from pc when
// not nil, into an array.
func decodeSlice(col *column, cr file.ColumnChunkReader, pc *pageChunk, o *sliceOut, sc *scratch, hint *float64) (arrow.Array, error) {
	var bufs []*memory.Buffer
	switch {
	case pc != nil:
		if err := pc.read(castSlice[uint64](o.alloc(o.n*16)), o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindNull:
		return array.NewNull(o.n), nil
	case col.kind == kindDirect:
		if err := decodeDirect(col, cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindInt:
		if err := decodeInt(col, cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindBool:
		if err := decodeBool(cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindDecimal:
		if err := decodeDecimal(col, cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindFixed:
		if err := decodeFixed(col, cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindInt96:
		if err := decodeInt96(cr, o, sc); err != nil {
			return nil, err
		}
		bufs = []*memory.Buffer{o.valid, o.values}
	case col.kind == kindBinary, col.kind == kindLarge:
		if err := decodeBinary(col, cr, o, sc, hint); err != nil {
			return nil, err
		}
		data := memory.NewBufferWithAllocator(o.data, o.pool)
		data.ResizeNoShrink(o.used)
		o.data = nil
		defer data.Release()
		bufs = []*memory.Buffer{o.valid, o.values, data}
	default:
		return nil, fmt.Errorf("unknown column kind %d", col.kind)
	}
	d := array.NewData(col.field.Type, o.n, bufs, nil, o.nulls, 0)
	defer d.Release()
	o.release() // d holds its own references
	return array.MakeFromData(d), nil
}

func wrongReader(cr file.ColumnChunkReader) error {
	return fmt.Errorf("unexpected column reader %T", cr)
}

func decodeDirect(col *column, cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	out := o.alloc(o.n * col.width)
	switch cr := cr.(type) {
	case *file.Int32ColumnChunkReader:
		return readDirect(cr.ReadBatch, cr, castSlice[int32](out), o, sc)
	case *file.Int64ColumnChunkReader:
		return readDirect(cr.ReadBatch, cr, castSlice[int64](out), o, sc)
	case *file.Float32ColumnChunkReader:
		return readDirect(cr.ReadBatch, cr, castSlice[float32](out), o, sc)
	case *file.Float64ColumnChunkReader:
		return readDirect(cr.ReadBatch, cr, castSlice[float64](out), o, sc)
	}
	return wrongReader(cr)
}

type integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// convertInts converts src to dst with Go's conversion rules, as pqarrow
// does: truncating to narrower types, sign-extending to wider ones.
func convertInts[Out integer, In int32 | int64](dst []Out, src []In, defs []int16, maxDef int16) {
	if defs == nil {
		dst = dst[:len(src)]
		for i, v := range src {
			dst[i] = Out(v)
		}
		return
	}
	dst = dst[:len(defs)]
	j := 0
	for i, d := range defs {
		if d == maxDef {
			dst[i] = Out(src[j])
			j++
		} else {
			dst[i] = 0
		}
	}
}

// intEmitter returns the conversion of chunks of In values into out,
// whose elements are width bytes wide.
func intEmitter[In int32 | int64](out []byte, width int, signed bool, maxDef int16) func(off int, vals []In, defs []int16) error {
	switch {
	case width == 1 && signed:
		dst := castSlice[int8](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case width == 1:
		dst := castSlice[uint8](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case width == 2 && signed:
		dst := castSlice[int16](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case width == 2:
		dst := castSlice[uint16](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case width == 4 && signed:
		dst := castSlice[int32](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case width == 4:
		dst := castSlice[uint32](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	case signed:
		dst := castSlice[int64](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	default:
		dst := castSlice[uint64](out)
		return func(off int, vals []In, defs []int16) error { convertInts(dst[off:], vals, defs, maxDef); return nil }
	}
}

func decodeInt(col *column, cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	out := o.alloc(o.n * col.width)
	signed := arrow.IsSignedInteger(col.field.Type.ID()) || !arrow.IsUnsignedInteger(col.field.Type.ID())
	switch cr := cr.(type) {
	case *file.Int32ColumnChunkReader:
		sc.i32 = grow(sc.i32, readChunk)
		return readConvert(cr.ReadBatch, cr, sc.i32, o, sc, intEmitter[int32](out, col.width, signed, o.maxDef))
	case *file.Int64ColumnChunkReader:
		sc.i64 = grow(sc.i64, readChunk)
		return readConvert(cr.ReadBatch, cr, sc.i64, o, sc, intEmitter[int64](out, col.width, signed, o.maxDef))
	}
	return wrongReader(cr)
}

func decodeBool(cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	br, ok := cr.(*file.BooleanColumnChunkReader)
	if !ok {
		return wrongReader(cr)
	}
	out := o.alloc(int(bitutil.BytesForBits(int64(o.n))))
	clear(out)
	sc.bools = grow(sc.bools, readChunk)
	maxDef := o.maxDef
	return readConvert(br.ReadBatch, cr, sc.bools, o, sc, func(off int, vals []bool, defs []int16) error {
		if defs == nil {
			for i, v := range vals {
				if v {
					p := off + i
					out[p>>3] |= 1 << (p & 7)
				}
			}
			return nil
		}
		j := 0
		for i, d := range defs {
			if d == maxDef {
				if vals[j] {
					p := off + i
					out[p>>3] |= 1 << (p & 7)
				}
				j++
			}
		}
		return nil
	})
}

// widenDecimals writes src as decimal128 values, pairs of 64-bit words
// (low, then high) in dst.
func widenDecimals[In int32 | int64](dst []uint64, src []In, defs []int16, maxDef int16) {
	if defs == nil {
		dst = dst[:2*len(src)]
		for i, v := range src {
			x := int64(v)
			dst[2*i] = uint64(x)
			dst[2*i+1] = uint64(x >> 63)
		}
		return
	}
	dst = dst[:2*len(defs)]
	j := 0
	for i, d := range defs {
		var x int64
		if d == maxDef {
			x = int64(src[j])
			j++
		}
		dst[2*i] = uint64(x)
		dst[2*i+1] = uint64(x >> 63)
	}
}

// beInt is the big-endian two's complement integer b of 1 to 8 bytes.
// When the slice's capacity allows it loads 8 bytes at once (the bytes
// after b are in the same page) and shifts the extra ones out.
func beInt(b []byte) int64 {
	shift := uint(64-8*len(b)) & 63
	if cap(b) >= 8 {
		return int64(binary.BigEndian.Uint64(b[:8])) >> shift
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return int64(v<<shift) >> shift
}

// beDecimal is the big-endian two's complement integer b of 1 to 16 bytes
// as the low and high words of a decimal128.
func beDecimal(b []byte) (lo, hi uint64) {
	if len(b) <= 8 {
		x := beInt(b)
		return uint64(x), uint64(x >> 63)
	}
	n := len(b) - 8
	return binary.BigEndian.Uint64(b[n:]), uint64(beInt(b[:n]))
}

// bytesToDecimals converts big-endian values of 1 to 16 bytes, checking
// their length (byte arrays have any), into dst.
func bytesToDecimals[B ~[]byte](dst []uint64, src []B, defs []int16, maxDef int16) error {
	if defs == nil {
		dst = dst[:2*len(src)]
		for i, b := range src {
			if len(b) < 1 || len(b) > 16 {
				return badDecimal(len(b))
			}
			dst[2*i], dst[2*i+1] = beDecimal(b)
		}
		return nil
	}
	dst = dst[:2*len(defs)]
	j := 0
	for i, d := range defs {
		if d != maxDef {
			dst[2*i], dst[2*i+1] = 0, 0
			continue
		}
		b := src[j]
		j++
		if len(b) < 1 || len(b) > 16 {
			return badDecimal(len(b))
		}
		dst[2*i], dst[2*i+1] = beDecimal(b)
	}
	return nil
}

func badDecimal(n int) error {
	return fmt.Errorf("a decimal value of %d bytes: a decimal128 has 1 to 16", n)
}

// flbaToDecimals converts big-endian values of width bytes, at most 8,
// into dst: the fast path of FIXED_LEN_BYTE_ARRAY decimals.
func flbaToDecimals(dst []uint64, src []parquet.FixedLenByteArray, width int, defs []int16, maxDef int16) {
	shift := uint(64-8*width) & 63
	if defs == nil {
		dst = dst[:2*len(src)]
		for i, b := range src {
			var x int64
			if cap(b) >= 8 {
				x = int64(binary.BigEndian.Uint64(b[:8])) >> shift
			} else {
				x = beInt(b)
			}
			dst[2*i] = uint64(x)
			dst[2*i+1] = uint64(x >> 63)
		}
		return
	}
	dst = dst[:2*len(defs)]
	j := 0
	for i, d := range defs {
		var x int64
		if d == maxDef {
			x = beInt(src[j])
			j++
		}
		dst[2*i] = uint64(x)
		dst[2*i+1] = uint64(x >> 63)
	}
}

func decodeDecimal(col *column, cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	out := castSlice[uint64](o.alloc(o.n * 16))
	maxDef := o.maxDef
	switch cr := cr.(type) {
	case *file.Int32ColumnChunkReader:
		sc.i32 = grow(sc.i32, readChunk)
		return readConvert(cr.ReadBatch, cr, sc.i32, o, sc, func(off int, vals []int32, defs []int16) error {
			widenDecimals(out[2*off:], vals, defs, maxDef)
			return nil
		})
	case *file.Int64ColumnChunkReader:
		sc.i64 = grow(sc.i64, readChunk)
		return readConvert(cr.ReadBatch, cr, sc.i64, o, sc, func(off int, vals []int64, defs []int16) error {
			widenDecimals(out[2*off:], vals, defs, maxDef)
			return nil
		})
	case *file.FixedLenByteArrayColumnChunkReader:
		// ReadBatchInPage: the values point into the page, valid until
		// the next read, and are converted before it.
		sc.flba = grow(sc.flba, readChunk)
		width := col.width
		if width <= 8 {
			// The decoders slice every value to the column's width.
			return readConvert(cr.ReadBatchInPage, cr, sc.flba, o, sc, func(off int, vals []parquet.FixedLenByteArray, defs []int16) error {
				flbaToDecimals(out[2*off:], vals, width, defs, maxDef)
				return nil
			})
		}
		return readConvert(cr.ReadBatchInPage, cr, sc.flba, o, sc, func(off int, vals []parquet.FixedLenByteArray, defs []int16) error {
			return bytesToDecimals(out[2*off:], vals, defs, maxDef)
		})
	case *file.ByteArrayColumnChunkReader:
		sc.ba = grow(sc.ba, readChunk)
		return readConvert(cr.ReadBatchInPage, cr, sc.ba, o, sc, func(off int, vals []parquet.ByteArray, defs []int16) error {
			return bytesToDecimals(out[2*off:], vals, defs, maxDef)
		})
	}
	return wrongReader(cr)
}

func decodeFixed(col *column, cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	fr, ok := cr.(*file.FixedLenByteArrayColumnChunkReader)
	if !ok {
		return wrongReader(cr)
	}
	w := col.width
	out := o.alloc(o.n * w)
	sc.flba = grow(sc.flba, readChunk)
	maxDef := o.maxDef
	return readConvert(fr.ReadBatchInPage, cr, sc.flba, o, sc, func(off int, vals []parquet.FixedLenByteArray, defs []int16) error {
		dst := out[off*w:]
		j := 0
		for i := range max(len(defs), len(vals)) {
			slot := dst[i*w : (i+1)*w]
			if defs != nil && defs[i] != maxDef {
				clear(slot)
				continue
			}
			if copy(slot, vals[j]) != w || len(vals[j]) != w {
				return fmt.Errorf("a FIXED_LEN_BYTE_ARRAY value of %d bytes in a column of %d", len(vals[j]), w)
			}
			j++
		}
		return nil
	})
}

func decodeInt96(cr file.ColumnChunkReader, o *sliceOut, sc *scratch) error {
	ir, ok := cr.(*file.Int96ColumnChunkReader)
	if !ok {
		return wrongReader(cr)
	}
	out := castSlice[int64](o.alloc(o.n * 8))
	sc.i96 = grow(sc.i96, readChunk)
	maxDef := o.maxDef
	return readConvert(ir.ReadBatch, cr, sc.i96, o, sc, func(off int, vals []parquet.Int96, defs []int16) error {
		dst := out[off:]
		j := 0
		for i := range max(len(defs), len(vals)) {
			if defs != nil && defs[i] != maxDef {
				dst[i] = 0
				continue
			}
			ts, err := vals[j].ToTimestamp()
			if err != nil {
				return err
			}
			dst[i] = int64(ts)
			j++
		}
		return nil
	})
}

var errTooLarge = errors.New("more than 2 GiB of string data in one batch: use a smaller batch size")

func decodeBinary(col *column, cr file.ColumnChunkReader, o *sliceOut, sc *scratch, hint *float64) error {
	br, ok := cr.(*file.ByteArrayColumnChunkReader)
	if !ok {
		return wrongReader(cr)
	}
	large := col.kind == kindLarge
	var offs32 []int32
	var offs64 []int64
	if large {
		offs64 = castSlice[int64](o.alloc((o.n + 1) * 8))
		offs64[0] = 0
	} else {
		offs32 = castSlice[int32](o.alloc((o.n + 1) * 4))
		offs32[0] = 0
	}
	o.data = o.pool.Allocate(max(64, int(*hint*float64(o.n))))
	limit := math.MaxInt32
	if large {
		limit = math.MaxInt
	}
	sc.ba = grow(sc.ba, readChunk)
	maxDef := o.maxDef
	// ReadBatchInPage: the values point into the page, valid until the
	// next read, and are copied before it.
	err := readConvert(br.ReadBatchInPage, cr, sc.ba, o, sc, func(off int, vals []parquet.ByteArray, defs []int16) error {
		need := 0
		for _, v := range vals {
			need += len(v)
		}
		if need > limit-o.used {
			return errTooLarge
		}
		if o.used+need > len(o.data) {
			nd := o.pool.Allocate(max(2*len(o.data), o.used+need))
			copy(nd, o.data[:o.used])
			o.pool.Free(o.data)
			o.data = nd
		}
		data, used := o.data, o.used
		j := 0
		for i := range max(len(defs), len(vals)) {
			if defs == nil || defs[i] == maxDef {
				used += copy(data[used:], vals[j])
				j++
			}
			if large {
				offs64[off+i+1] = int64(used)
			} else {
				offs32[off+i+1] = int32(used)
			}
		}
		o.used = used
		return nil
	})
	if err == nil {
		*hint = float64(o.used) / float64(o.n)
	}
	return err
}
