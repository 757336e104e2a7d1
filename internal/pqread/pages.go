package pqread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/colexpr/colexpr/internal/recycle"
)

// Decimal column chunks are decoded from their pages by pqread itself when
// it can: arrow-go's column chunk readers hand FIXED_LEN_BYTE_ARRAY values
// out as one []byte per value, decoding the dictionary into such slices
// too, which costs more than the conversion and, being pointers, keeps the
// garbage collector busy. Here the dictionary is converted to decimal128
// once per chunk and each value is a 16-byte copy from it; plain values are
// converted straight from the page. Pages are still read, decompressed and
// checked by arrow-go's page reader.

// pageChunk decodes a decimal column chunk stored as INT32, INT64 or
// FIXED_LEN_BYTE_ARRAY, PLAIN or dictionary encoded, with RLE levels.
type pageChunk struct {
	pr     file.PageReader
	pool   *recycle.Allocator
	phys   parquet.Type
	width  int // bytes per plain value
	maxDef int16

	// The dictionary: as int64 for values of up to 8 bytes (half the
	// memory to gather from at random), else as decimal128 (low, high)
	// pairs, in dictBuf, of pool.
	dictBuf []byte
	dict64  []int64
	dict    []uint64
	ndict   int

	left  int        // levels left in the current data page
	defs  rleDecoder // its definition levels
	isIdx bool       // its values are dictionary indices, else plain
	idx   rleDecoder
	plain []byte // its plain values not yet read
}

// pageDecodable reports whether a column chunk of phys with metadata cm
// can be decoded by pageChunk: its pages use no encoding it does not know.
func pageDecodable(col *column, cm *metadata.ColumnChunkMetaData) bool {
	if col.kind != kindDecimal {
		return false
	}
	switch col.phys {
	case parquet.Types.Int32, parquet.Types.Int64, parquet.Types.FixedLenByteArray:
	default:
		return false
	}
	for _, e := range cm.Encodings() {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict, parquet.Encodings.RLE:
		default:
			return false
		}
	}
	return true
}

func newPageChunk(pr file.PageReader, col *column, pool *recycle.Allocator) *pageChunk {
	c := &pageChunk{pr: pr, pool: pool, phys: col.phys, width: col.width, maxDef: col.maxDef}
	switch col.phys {
	case parquet.Types.Int32:
		c.width = 4
	case parquet.Types.Int64:
		c.width = 8
	}
	return c
}

func (c *pageChunk) close() {
	c.pr.Close()
	if c.dictBuf != nil {
		c.pool.Free(c.dictBuf)
		c.dictBuf, c.dict, c.dict64 = nil, nil, nil
	}
}

var errEnded = errors.New("the column chunk ends before its row group (the file may be truncated or corrupt)")

// nextPage moves to the next data page, reading the dictionary page on
// the way.
func (c *pageChunk) nextPage() error {
	for c.pr.Next() {
		_, data, err := c.load(c.pr.Page())
		if err != nil {
			return err
		}
		if data {
			return nil
		}
	}
	if err := c.pr.Err(); err != nil {
		return err
	}
	return errEnded
}

// load makes p the current page when it is a data page, and reports its
// first row in the row group; a dictionary page is read, other pages
// (indexes) are passed over.
func (c *pageChunk) load(p file.Page) (first int64, data bool, err error) {
	var buf []byte
	var enc parquet.Encoding
	switch p := p.(type) {
	case *file.DictionaryPage:
		return 0, false, c.readDict(p)
	case *file.DataPageV1:
		buf, enc, first = p.Data(), parquet.Encoding(p.Encoding()), p.FirstRowIndex()
		c.left = int(p.NumValues())
		if c.maxDef > 0 {
			if p.DefinitionLevelEncoding() != parquet.Encodings.RLE {
				return 0, false, fmt.Errorf("definition levels of encoding %s are not handled", p.DefinitionLevelEncoding())
			}
			if len(buf) < 4 {
				return 0, false, errors.New("a data page too short for its definition levels")
			}
			n := int(binary.LittleEndian.Uint32(buf))
			if n < 0 || n > len(buf)-4 {
				return 0, false, fmt.Errorf("definition levels of %d bytes in a page of %d", n, len(buf))
			}
			c.defs.init(buf[4:4+n], 1)
			buf = buf[4+n:]
		}
	case *file.DataPageV2:
		buf, enc, first = p.Data(), parquet.Encoding(p.Encoding()), p.FirstRowIndex()
		c.left = int(p.NumValues())
		rl, dl := int(p.RepetitionLevelByteLen()), int(p.DefinitionLevelByteLen())
		if rl < 0 || dl < 0 || rl+dl > len(buf) {
			return 0, false, fmt.Errorf("levels of %d and %d bytes in a page of %d", rl, dl, len(buf))
		}
		c.defs.init(buf[rl:rl+dl], 1)
		buf = buf[rl+dl:]
	default:
		return 0, false, nil // index pages and the like
	}
	if c.left < 0 {
		return 0, false, fmt.Errorf("a data page of %d values", c.left)
	}
	switch enc {
	case parquet.Encodings.Plain:
		c.isIdx, c.plain = false, buf
	case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		if c.dictBuf == nil {
			return 0, false, errors.New("a dictionary-encoded data page without a dictionary page before it")
		}
		if len(buf) < 1 {
			return 0, false, errors.New("a dictionary-encoded data page without values")
		}
		if buf[0] > 32 {
			return 0, false, fmt.Errorf("dictionary indices of %d bits", buf[0])
		}
		c.isIdx = true
		c.idx.init(buf[1:], int(buf[0]))
	default:
		return 0, false, fmt.Errorf("values of encoding %s are not handled", enc)
	}
	return first, true, nil
}

func (c *pageChunk) readDict(p *file.DictionaryPage) error {
	if c.dictBuf != nil {
		return errors.New("a column chunk with two dictionary pages")
	}
	if enc := parquet.Encoding(p.Encoding()); enc != parquet.Encodings.Plain && enc != parquet.Encodings.PlainDict {
		return fmt.Errorf("a dictionary page of encoding %s", enc)
	}
	n, data := int(p.NumValues()), p.Data()
	if n < 0 || n > len(data)/c.width {
		return fmt.Errorf("a dictionary page of %d bytes for %d values", len(data), n)
	}
	c.ndict = n
	if c.width > 8 {
		c.dictBuf = c.pool.Allocate(max(16*n, 16))
		c.dict = castSlice[uint64](c.dictBuf)[:2*n]
		c.convert(c.dict, data[:n*c.width], n)
		return nil
	}
	c.dictBuf = c.pool.Allocate(max(8*n, 8))
	c.dict64 = castSlice[int64](c.dictBuf)[:n]
	c.convert64(c.dict64, data[:n*c.width], n)
	return nil
}

// convert64 converts n plain values of up to 8 bytes in src to int64.
func (c *pageChunk) convert64(dst []int64, src []byte, n int) {
	dst = dst[:n]
	switch c.phys {
	case parquet.Types.Int32:
		src = src[:4*n]
		for i := range dst {
			dst[i] = int64(int32(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case parquet.Types.Int64:
		src = src[:8*n]
		for i := range dst {
			dst[i] = int64(binary.LittleEndian.Uint64(src[8*i:]))
		}
	default:
		w := c.width
		src = src[:w*n]
		shift, fast := beFast(len(src), w)
		for i := range fast {
			dst[i] = int64(binary.BigEndian.Uint64(src[w*i:])) >> shift
		}
		for i := fast; i < n; i++ {
			dst[i] = beInt(src[w*i : w*i+w : w*i+w])
		}
	}
}

// beFast returns how to convert the big-endian values of w bytes, at
// most 8, in a buffer of n bytes: load 8 bytes at each value and shift
// right by shift, for all values but the last ones, from the fast-th on,
// which have fewer than 8 bytes after them.
func beFast(n, w int) (shift uint, fast int) {
	if n >= 8 {
		fast = (n-8)/w + 1
	}
	return uint(64-8*w) & 63, fast
}

// convert converts n plain values in src to decimal128 pairs in dst.
func (c *pageChunk) convert(dst []uint64, src []byte, n int) {
	dst = dst[:2*n]
	switch c.phys {
	case parquet.Types.Int32:
		src = src[:4*n]
		for i := range n {
			x := int64(int32(binary.LittleEndian.Uint32(src[4*i:])))
			dst[2*i], dst[2*i+1] = uint64(x), uint64(x>>63)
		}
	case parquet.Types.Int64:
		src = src[:8*n]
		for i := range n {
			x := int64(binary.LittleEndian.Uint64(src[8*i:]))
			dst[2*i], dst[2*i+1] = uint64(x), uint64(x>>63)
		}
	default:
		w := c.width
		src = src[:w*n]
		if w > 8 {
			for i := range n {
				dst[2*i], dst[2*i+1] = beDecimal(src[w*i : w*i+w])
			}
			return
		}
		shift, fast := beFast(len(src), w)
		for i := range fast {
			x := int64(binary.BigEndian.Uint64(src[w*i:])) >> shift
			dst[2*i], dst[2*i+1] = uint64(x), uint64(x>>63)
		}
		for i := fast; i < n; i++ {
			x := beInt(src[w*i : w*i+w : w*i+w])
			dst[2*i], dst[2*i+1] = uint64(x), uint64(x>>63)
		}
	}
}

// values decodes the next n values, dense, into dst.
func (c *pageChunk) values(dst []uint64, n int, sc *scratch) error {
	if !c.isIdx {
		if n > len(c.plain)/c.width {
			return fmt.Errorf("a data page with %d bytes for %d values", len(c.plain), n)
		}
		c.convert(dst, c.plain, n)
		c.plain = c.plain[n*c.width:]
		return nil
	}
	idx := sc.idx[:n]
	if err := decodeRLE(&c.idx, idx); err != nil {
		return fmt.Errorf("dictionary indices: %w", err)
	}
	dst = dst[:2*n]
	if dict := c.dict64; dict != nil {
		for i, k := range idx {
			if int(k) >= len(dict) {
				return badIndex(k, len(dict))
			}
			x := dict[k]
			dst[2*i], dst[2*i+1] = uint64(x), uint64(x>>63)
		}
		return nil
	}
	dict := c.dict
	for i, k := range idx {
		if 2*int(k)+1 >= len(dict) {
			return badIndex(k, len(dict)/2)
		}
		dst[2*i], dst[2*i+1] = dict[2*k], dict[2*k+1]
	}
	return nil
}

func badIndex(k uint32, n int) error {
	return fmt.Errorf("dictionary index %d of a dictionary of %d values", k, n)
}

// read decodes the next o.n rows into out, pairs of 64-bit words.
func (c *pageChunk) read(out []uint64, o *sliceOut, sc *scratch) error {
	for off := 0; off < o.n; {
		if c.left == 0 {
			if err := c.nextPage(); err != nil {
				if err == errEnded {
					return fmt.Errorf("the column chunk ends at row %d of the row group, before its end (the file may be truncated or corrupt)", o.first+int64(off))
				}
				return err
			}
			continue
		}
		m := min(o.n-off, c.left, readChunk)
		nv := m
		var defs []int16
		if c.maxDef > 0 {
			defs = sc.defs[:m]
			if err := decodeRLE(&c.defs, defs); err != nil {
				return fmt.Errorf("definition levels: %w", err)
			}
			nv = 0
			for _, d := range defs {
				if d == c.maxDef {
					nv++
				}
			}
			if err := o.levels(off, defs, nv); err != nil {
				return err
			}
		}
		if nv == m {
			if err := c.values(out[2*off:], m, sc); err != nil {
				return err
			}
		} else {
			// Dense into scratch, then to the rows' slots.
			vals := sc.pairs[:2*nv]
			if err := c.values(vals, nv, sc); err != nil {
				return err
			}
			dst := out[2*off : 2*(off+m)]
			j := 0
			for i, d := range defs {
				if d == c.maxDef {
					dst[2*i], dst[2*i+1] = vals[2*j], vals[2*j+1]
					j++
				} else {
					dst[2*i], dst[2*i+1] = 0, 0
				}
			}
		}
		c.left -= m
		off += m
	}
	return nil
}

// rleDecoder decodes Parquet's RLE / bit-packed hybrid encoding of levels
// and dictionary indices.
type rleDecoder struct {
	data   []byte // the runs not yet started
	bw     uint   // bits a value
	rle    int    // values left in the current RLE run
	val    uint32 // its value
	packed int    // values left in the current bit-packed run
	run    []byte // its bytes
	bit    uint   // the bit of its next value
}

func (d *rleDecoder) init(data []byte, bitWidth int) {
	*d = rleDecoder{data: data, bw: uint(bitWidth)}
}

var errRLE = errors.New("corrupt RLE data")

// nextRun starts the next run.
func (d *rleDecoder) nextRun() error {
	h, k := binary.Uvarint(d.data)
	if k <= 0 || h>>1 > 1<<31 {
		return errRLE
	}
	d.data = d.data[k:]
	if h&1 == 1 {
		groups := int(h >> 1)
		nbytes := groups * int(d.bw)
		if nbytes > len(d.data) {
			return errRLE
		}
		d.run, d.data = d.data[:nbytes], d.data[nbytes:]
		d.packed, d.bit = 8*groups, 0
		return nil
	}
	nb := int(d.bw+7) / 8
	if nb > len(d.data) {
		return errRLE
	}
	var v uint32
	for i := range nb {
		v |= uint32(d.data[i]) << (8 * i)
	}
	d.data = d.data[nb:]
	d.rle, d.val = int(h>>1), v
	return nil
}

// decodeRLE fills out with the next len(out) values of d.
func decodeRLE[T int16 | uint32](d *rleDecoder, out []T) error {
	for i := 0; i < len(out); {
		switch {
		case d.rle > 0:
			n := min(d.rle, len(out)-i)
			v := T(d.val)
			for j := range out[i : i+n] {
				out[i+j] = v
			}
			d.rle -= n
			i += n
		case d.packed > 0:
			n := min(d.packed, len(out)-i)
			unpack(d, out[i:i+n])
			d.packed -= n
			i += n
		default:
			if len(d.data) == 0 {
				return errRLE
			}
			if err := d.nextRun(); err != nil {
				return err
			}
		}
	}
	return nil
}

// unpack reads len(out) values of the current bit-packed run, which has
// them: a run holds whole groups of 8.
func unpack[T int16 | uint32](d *rleDecoder, out []T) {
	run, bw, bit := d.run, d.bw, d.bit
	mask := uint64(1)<<bw - 1
	// A value is read with one 8-byte load from its first byte, but for
	// the last values of the run, from the fast-th on, which have fewer
	// than 8 bytes from theirs.
	fast := 0
	if limit := 8*uint(len(run)) - 57; len(run) >= 8 && bw > 0 && bit <= limit {
		fast = min(int((limit-bit)/bw)+1, len(out))
	}
	if fast > 0 {
		// Checked above: no bounds to check in the loop.
		p := unsafe.Pointer(unsafe.SliceData(run))
		for i := range out[:fast] {
			w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, bit>>3))[:])
			out[i] = T((w >> (bit & 7)) & mask)
			bit += bw
		}
	}
	for i := fast; i < len(out); i++ {
		var w uint64
		for j := len(run) - 1; j >= int(bit>>3); j-- {
			w = w<<8 | uint64(run[j])
		}
		out[i] = T((w >> (bit & 7)) & mask)
		bit += bw
	}
	d.bit = bit
}
