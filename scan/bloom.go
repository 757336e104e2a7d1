package scan

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// Bloom filters. A Parquet column chunk may have a split-block bloom
// filter: the xxhash of the plain encoding of each of its values (an
// INT32 or INT64 little-endian, a FLOAT or DOUBLE's bits, a byte array's
// bytes without their length, a FIXED_LEN_BYTE_ARRAY's bytes). Asked about
// a value's hash it answers "maybe" or "definitely not". The falsifier's
// probes (prune.Column.Probes: the values of = and IN) are converted to
// the column's stored form, and a row group whose filter rules a probe out
// has absent_k true in its statistics.

// maxBloomFilterRead bounds the bytes read for one filter: arrow-go
// writes at most 128 MiB of bitset, and its header is a few bytes.
const maxBloomFilterRead = 128<<20 + 1<<10

// plainValues are the plain encodings of the stored values of column
// descr that read as v, of type t: one, or two for a float zero (-0 and
// +0 are equal but hashed apart). ok is false when v has no exact stored
// form in this column; it is the inverse of statValue, and accepts the
// same physical and logical types.
func plainValues(descr *schema.Column, t dtype.DType, v scalar.Scalar) (enc [][]byte, ok bool) {
	if v.IsNull() {
		return nil, false
	}
	t = t.AsNonNullable()
	phys := descr.PhysicalType()
	logical := descr.LogicalType()
	switch t.Kind() {
	case dtype.KindPrimitive:
		p := t.PType()
		if p.IsFloat() {
			return floatPlain(phys, logical, p, v)
		}
		signed := true
		switch l := logical.(type) {
		case schema.IntLogicalType:
			signed = l.IsSigned()
		case schema.NoLogicalType, nil:
		default:
			return nil, false
		}
		if signed != p.IsSigned() {
			return nil, false
		}
		var x int64 // the value's bits, sign- or zero-extended
		switch n := v.Value().(type) {
		case int64:
			x = n
		case uint64:
			x = int64(n)
			if phys == parquet.Types.Int32 && n > math.MaxUint32 {
				return nil, false
			}
		default:
			return nil, false
		}
		switch phys {
		case parquet.Types.Int32:
			if signed && (x < math.MinInt32 || x > math.MaxInt32) {
				return nil, false
			}
			return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(x))}, true
		case parquet.Types.Int64:
			return [][]byte{binary.LittleEndian.AppendUint64(nil, uint64(x))}, true
		}
		return nil, false

	case dtype.KindDecimal:
		d, ok := logical.(schema.DecimalLogicalType)
		n, isDec := v.Value().(decimal128.Num)
		if !ok || !isDec || int(d.Scale()) != t.Scale() || v.DType().Scale() != t.Scale() {
			return nil, false
		}
		switch phys {
		case parquet.Types.Int32:
			if !n.FitsInPrecision(9) {
				return nil, false
			}
			return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(int32(n.LowBits())))}, true
		case parquet.Types.Int64:
			if !n.FitsInPrecision(18) {
				return nil, false
			}
			return [][]byte{binary.LittleEndian.AppendUint64(nil, n.LowBits())}, true
		case parquet.Types.FixedLenByteArray:
			b, ok := bigEndianFixed(n, descr.TypeLength())
			if !ok {
				return nil, false
			}
			return [][]byte{b}, true
		}
		// A BYTE_ARRAY decimal has no one length: its bytes are not known.
		return nil, false

	case dtype.KindUtf8, dtype.KindBinary:
		s, isStr := v.Value().(string)
		if !isStr || phys != parquet.Types.ByteArray {
			return nil, false
		}
		switch logical.(type) {
		case schema.NoLogicalType, nil:
		case schema.StringLogicalType:
			if t.Kind() != dtype.KindUtf8 {
				return nil, false
			}
		default:
			return nil, false
		}
		return [][]byte{[]byte(s)}, true

	case dtype.KindExtension:
		x, isInt := v.Value().(int64)
		if !isInt {
			return nil, false
		}
		switch t.ExtID() {
		case dtype.ExtDate:
			if _, ok := logical.(schema.DateLogicalType); !ok || phys != parquet.Types.Int32 || x < math.MinInt32 || x > math.MaxInt32 {
				return nil, false
			}
			return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(x))}, true
		case dtype.ExtTime:
			l, ok := logical.(schema.TimeLogicalType)
			if !ok {
				return nil, false
			}
			s, ok := exactTicks(x, t.Unit(), parquetUnit(l.TimeUnit()))
			switch {
			case !ok:
			case phys == parquet.Types.Int32 && s >= math.MinInt32 && s <= math.MaxInt32:
				return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(s))}, true
			case phys == parquet.Types.Int64:
				return [][]byte{binary.LittleEndian.AppendUint64(nil, uint64(s))}, true
			}
			return nil, false
		case dtype.ExtTimestamp:
			l, ok := logical.(schema.TimestampLogicalType)
			if !ok || phys != parquet.Types.Int64 {
				return nil, false
			}
			s, ok := exactTicks(x, t.Unit(), parquetUnit(l.TimeUnit()))
			if !ok {
				return nil, false
			}
			return [][]byte{binary.LittleEndian.AppendUint64(nil, uint64(s))}, true
		}
	}
	return nil, false
}

// floatPlain encodes a float probe: both zeros for a zero, nothing for
// NaN (whose bit patterns are many).
func floatPlain(phys parquet.Type, logical schema.LogicalType, p dtype.PType, v scalar.Scalar) ([][]byte, bool) {
	f, ok := v.Value().(float64)
	if !ok || math.IsNaN(f) {
		return nil, false
	}
	values := []float64{f}
	if f == 0 {
		values = []float64{0, math.Copysign(0, -1)}
	}
	var enc [][]byte
	for _, f := range values {
		switch {
		case p == dtype.F64 && phys == parquet.Types.Double:
			enc = append(enc, binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)))
		case p == dtype.F32 && phys == parquet.Types.Float:
			if float64(float32(f)) != f {
				return nil, false
			}
			enc = append(enc, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(f))))
		case p == dtype.F16 && phys == parquet.Types.FixedLenByteArray:
			h := float16.New(float32(f))
			if _, ok := logical.(schema.Float16LogicalType); !ok || float64(h.Float32()) != f {
				return nil, false
			}
			enc = append(enc, binary.LittleEndian.AppendUint16(nil, h.Uint16()))
		default:
			return nil, false
		}
	}
	return enc, true
}

// bigEndianFixed is n as a big-endian two's complement integer of n
// bytes, when it fits.
func bigEndianFixed(n decimal128.Num, size int) ([]byte, bool) {
	if size <= 0 || size > 64 {
		return nil, false
	}
	var full [16]byte
	binary.BigEndian.PutUint64(full[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(full[8:], n.LowBits())
	sign := byte(0)
	if n.Sign() < 0 {
		sign = 0xff
	}
	out := make([]byte, size)
	if size >= 16 {
		for i := range size - 16 {
			out[i] = sign
		}
		copy(out[size-16:], full[:])
		return out, true
	}
	// The bytes left out must only extend the sign, which the first byte
	// kept must carry.
	for _, c := range full[:16-size] {
		if c != sign {
			return nil, false
		}
	}
	if full[16-size]&0x80 != sign&0x80 {
		return nil, false
	}
	copy(out, full[16-size:])
	return out, true
}

// exactTicks converts v ticks of unit from to unit to, when the result is
// exact and does not overflow.
func exactTicks(v int64, from, to dtype.TimeUnit) (int64, bool) {
	if from > dtype.Nano || to > dtype.Nano {
		return 0, false
	}
	fp, tp := from.PerSecond(), to.PerSecond()
	switch {
	case fp == tp:
		return v, true
	case tp > fp:
		k := tp / fp
		if v > math.MaxInt64/k || v < math.MinInt64/k {
			return 0, false
		}
		return v * k, true
	}
	k := fp / tp
	if v%k != 0 {
		return 0, false
	}
	return v / k, true
}

// bloomProbe is what probeBloomFilters asks about one column.
type bloomProbe struct {
	col  int // in the columns asked about
	leaf int // the Parquet leaf column
	// enc are the encodings of each probe; nil where a probe has none.
	enc [][][]byte
}

// probeBloomFilters asks the bloom filters of the given row groups of pf
// (a file of size bytes) about the probes of cols, and sets Absent in
// stats (one per row group of the file). It returns how many filters it
// read and, when one could not be read, a note saying which and why (the
// first such): that row group is then read.
func probeBloomFilters(pf *file.Reader, manifest *pqarrow.SchemaManifest, size int64, cols []prune.Column, groups []int, stats []prune.ChunkStats) (read int, note string) {
	md := pf.MetaData()
	var probes []bloomProbe
	for i, c := range cols {
		leaf := leafColumn(manifest, c.Path)
		if len(c.Probes) == 0 || leaf < 0 || leaf >= md.Schema.NumColumns() {
			continue
		}
		descr := md.Schema.Column(leaf)
		if descr.MaxRepetitionLevel() > 0 {
			continue
		}
		bp := bloomProbe{col: i, leaf: leaf, enc: make([][][]byte, len(c.Probes))}
		asked := false
		for k, v := range c.Probes {
			if enc, ok := plainValues(descr, c.Type, v); ok {
				bp.enc[k] = enc
				asked = true
			}
		}
		if asked {
			probes = append(probes, bp)
		}
	}
	if len(probes) == 0 {
		return 0, ""
	}
	// The filters' buffers come from a pool of this call's own, on Go's
	// heap: arrow-go keeps them in the pool it is given for the next
	// filter, and the file's own pool would hold them as long as the file.
	reader := *pf.GetBloomFilterReader()
	reader.BufferPool = &sync.Pool{New: func() any { return memory.NewResizableBuffer(memory.DefaultAllocator) }}
	for _, g := range groups {
		if g < 0 || g >= md.NumRowGroups() || g >= len(stats) {
			continue
		}
		var rg *metadata.RowGroupBloomFilterReader
		for _, bp := range probes {
			absent, found, err := checkBloomFilter(&reader, &rg, md, g, bp, size)
			if err != nil {
				if note == "" {
					note = fmt.Sprintf("row group %d, column %s: the bloom filter cannot be read: %v", g, md.Schema.Column(bp.leaf).Path(), err)
				}
				continue
			}
			if !found {
				continue
			}
			read++
			if bp.col < len(stats[g].Columns) {
				stats[g].Columns[bp.col].Absent = absent
			}
		}
	}
	return read, note
}

// checkBloomFilter asks the filter of one column chunk about bp's probes:
// absent[k] is true when it rules probe k out. found is false when the
// chunk has no filter. rg is the row group's filter reader, made once.
// The filter's offset and length are checked against the file's size
// before arrow-go reads it, and a panic of the reader is an error: a
// corrupt filter is never more than a filter not used.
func checkBloomFilter(reader *metadata.BloomFilterReader, rg **metadata.RowGroupBloomFilterReader, md *metadata.FileMetaData, g int, bp bloomProbe, size int64) (absent []bool, found bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			absent, found, err = nil, false, fmt.Errorf("%v", r)
		}
	}()
	rgm := md.RowGroup(g)
	if bp.leaf >= rgm.NumColumns() {
		return nil, false, nil
	}
	cc, err := rgm.ColumnChunk(bp.leaf)
	if err != nil {
		return nil, false, err
	}
	off, n := cc.BloomFilterOffset(), int64(cc.BloomFilterLength())
	switch {
	case off <= 0:
		return nil, false, nil // no filter
	case off >= size || n < 0 || n > maxBloomFilterRead || off+n > size:
		return nil, false, fmt.Errorf("its offset %d and length %d are outside the file's %d bytes", off, n, size)
	}
	if *rg == nil {
		if *rg, err = reader.RowGroup(g); err != nil {
			return nil, false, err
		}
	}
	err = (*rg).VisitColumnBloomFilter(bp.leaf, func(bf metadata.BloomFilter) error {
		found = true
		h := bf.Hasher()
		absent = make([]bool, len(bp.enc))
		for k, enc := range bp.enc {
			if enc == nil {
				continue
			}
			absent[k] = true
			for _, b := range enc {
				if bf.CheckHash(h.Sum64(b)) {
					absent[k] = false
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return absent, found, nil
}
