package scan

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// Row-group statistics of a Parquet file, as prune.ChunkStats. The rules
// for when a statistic is used are in the package doc (Row-group pruning):
// anything uncertain is unknown — a null scalar, a count of -1 — which
// makes the falsifier inconclusive for that row group, never wrong.

// arrowGoVersion is the version of arrow-go colexpr is built with.
var arrowGoVersion = metadata.NewAppVersion("parquet-go version " + arrow.PkgVersion)

// readFooter reads the raw footer of the Parquet file r of the given size.
func readFooter(r io.ReaderAt, size int64) ([]byte, error) {
	if size < 12 {
		return nil, fmt.Errorf("%d bytes is too short for a Parquet file", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, err
	}
	if string(tail[4:]) != "PAR1" {
		return nil, fmt.Errorf("the footer is not a plain Parquet footer (magic %q)", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, fmt.Errorf("the footer length %d is more than the file holds", n)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return nil, err
	}
	return footer, nil
}

// leafColumn finds the Parquet leaf column of a field path in a pqarrow
// manifest, or -1.
func leafColumn(m *pqarrow.SchemaManifest, path []string) int {
	fields := m.Fields
	var f *pqarrow.SchemaField
	for _, name := range path {
		f = nil
		for i := range fields {
			if fields[i].Field.Name == name {
				if f != nil {
					return -1 // a name used twice means nothing certain
				}
				f = &fields[i]
			}
		}
		if f == nil {
			return -1
		}
		fields = f.Children
	}
	if f == nil || !f.IsLeaf() {
		return -1
	}
	return f.ColIndex
}

// wholeByteArrays reports whether a file's writer is known to write byte
// array statistics whole: arrow-go (its parquet package calls itself
// parquet-go), up to the version colexpr is built with, whose source shows
// it drops a statistic longer than its limit rather than cutting it.
func wholeByteArrays(v *metadata.AppVersion) bool {
	return v != nil && v.App == "parquet-go" && v.Version.Major > 0 && !arrowGoVersion.LessThan(v)
}

// rowGroupStats converts the statistics of the columns cols in every row
// group of pf. raw is the footer's statistics (footerStats); when it is
// nil, every bound and count is unknown and only row counts are given.
func rowGroupStats(pf *file.Reader, manifest *pqarrow.SchemaManifest, raw [][]rawStats, cols []prune.Column) []prune.ChunkStats {
	md := pf.MetaData()
	n := md.NumRowGroups()
	if raw != nil && len(raw) != n {
		raw = nil
	}
	leaves := make([]int, len(cols))
	for i, c := range cols {
		leaves[i] = leafColumn(manifest, c.Path)
	}
	trustedMax := wholeByteArrays(md.WriterVersion())
	out := make([]prune.ChunkStats, n)
	for g := 0; g < n; g++ {
		rg := md.RowGroup(g)
		cs := prune.ChunkStats{RowCount: rg.NumRows(), Columns: make([]prune.ColumnStats, len(cols))}
		if cs.RowCount < 0 {
			cs.RowCount = -1
		}
		for i, c := range cols {
			cs.Columns[i] = prune.Unknown()
			leaf := leaves[i]
			if raw == nil || leaf < 0 || leaf >= len(raw[g]) || leaf >= rg.NumColumns() {
				continue
			}
			cc, err := rg.ColumnChunk(leaf)
			if err != nil {
				continue
			}
			cs.Columns[i] = chunkStats(cc, md.Schema.Column(leaf), c.Type, raw[g][leaf], trustedMax)
		}
		out[g] = cs
	}
	return out
}

// chunkStats converts one column chunk's statistics to those of a column
// of type t.
func chunkStats(cc *metadata.ColumnChunkMetaData, descr *schema.Column, t dtype.DType, raw rawStats, trustedMax bool) prune.ColumnStats {
	s := prune.Unknown()
	if !raw.set || descr.MaxRepetitionLevel() > 0 {
		return s
	}
	if ok, err := cc.StatsSet(); err != nil || !ok {
		return s
	}
	if raw.hasNullCount && raw.nullCount >= 0 && raw.nullCount <= cc.NumValues() {
		s.NullCount = raw.nullCount
	}
	var minB, maxB []byte
	var hasMin, hasMax bool
	maxExact := false
	if descr.ColumnOrder() == parquet.ColumnOrders.TypeDefinedOrder {
		minB, hasMin, maxB, hasMax = raw.minValue, raw.hasMinValue, raw.maxValue, raw.hasMaxValue
		maxExact = raw.isMaxExact == 1
	} else {
		minB, hasMin, maxB, hasMax = raw.min, raw.hasMin, raw.max, raw.hasMax
	}
	if hasMin {
		if v, ok := statValue(descr, t, minB, false); ok {
			s.Min = v
		}
	}
	if hasMax {
		byteArray := descr.PhysicalType() == parquet.Types.ByteArray
		if !byteArray || maxExact || trustedMax {
			if v, ok := statValue(descr, t, maxB, true); ok {
				s.Max = v
			}
		}
	}
	if !s.Min.IsNull() && !s.Max.IsNull() {
		if c, err := scalar.Compare(s.Min, s.Max); err != nil || c > 0 {
			s.Min, s.Max = scalar.Null(dtype.Null()), scalar.Null(dtype.Null())
		}
	}
	return s
}

// statValue decodes a bound (plain-encoded, without a length prefix for
// byte arrays) as a scalar of type t, or reports false when it cannot be
// one with certainty. isMax says which bound it is, for rounding outward.
func statValue(descr *schema.Column, t dtype.DType, b []byte, isMax bool) (scalar.Scalar, bool) {
	t = t.AsNonNullable()
	phys := descr.PhysicalType()
	logical := descr.LogicalType()
	switch t.Kind() {
	case dtype.KindBool:
		if phys != parquet.Types.Boolean || len(b) != 1 || b[0] > 1 {
			return scalar.Scalar{}, false
		}
		return scalar.Bool(b[0] == 1), true

	case dtype.KindPrimitive:
		p := t.PType()
		if p.IsFloat() {
			return floatStat(phys, logical, p, b, isMax)
		}
		v, signed, ok := integerStat(phys, logical, b)
		// The bounds are in the order of the Parquet type: signed or
		// unsigned. Only the same order is the column's.
		if !ok || signed != p.IsSigned() {
			return scalar.Scalar{}, false
		}
		return intScalar(p, v)

	case dtype.KindDecimal:
		d, ok := logical.(schema.DecimalLogicalType)
		if !ok || int(d.Scale()) != t.Scale() {
			return scalar.Scalar{}, false
		}
		var n decimal128.Num
		switch phys {
		case parquet.Types.Int32:
			if len(b) != 4 {
				return scalar.Scalar{}, false
			}
			n = decimal128.FromI64(int64(int32(binary.LittleEndian.Uint32(b))))
		case parquet.Types.Int64:
			if len(b) != 8 {
				return scalar.Scalar{}, false
			}
			n = decimal128.FromI64(int64(binary.LittleEndian.Uint64(b)))
		case parquet.Types.FixedLenByteArray, parquet.Types.ByteArray:
			if phys == parquet.Types.FixedLenByteArray && len(b) != descr.TypeLength() {
				return scalar.Scalar{}, false
			}
			var ok bool
			if n, ok = bigEndianDecimal(b); !ok {
				return scalar.Scalar{}, false
			}
		default:
			return scalar.Scalar{}, false
		}
		if !n.FitsInPrecision(int32(t.Precision())) {
			return scalar.Scalar{}, false
		}
		return scalar.Decimal(n, t.Precision(), t.Scale()), true

	case dtype.KindUtf8:
		if phys != parquet.Types.ByteArray || !utf8.Valid(b) {
			return scalar.Scalar{}, false
		}
		switch logical.(type) {
		case schema.StringLogicalType, schema.NoLogicalType, nil:
		default:
			return scalar.Scalar{}, false // JSON, enums: another order
		}
		return scalar.String(string(b)), true

	case dtype.KindBinary:
		if phys != parquet.Types.ByteArray {
			return scalar.Scalar{}, false
		}
		switch logical.(type) {
		case schema.NoLogicalType, nil:
		default:
			return scalar.Scalar{}, false
		}
		return scalar.Binary(b), true

	case dtype.KindExtension:
		return temporalStat(phys, logical, t, b, isMax)
	}
	return scalar.Scalar{}, false
}

// integerStat decodes an INT32 or INT64 bound in its logical type's order
// (signed, or unsigned for UINT logical types) as a big integer, and says
// which order that is.
func integerStat(phys parquet.Type, logical schema.LogicalType, b []byte) (v *big.Int, signed, ok bool) {
	signed = true
	switch l := logical.(type) {
	case schema.IntLogicalType:
		signed = l.IsSigned()
	case schema.NoLogicalType, nil:
	default:
		return nil, false, false
	}
	switch {
	case phys == parquet.Types.Int32 && len(b) == 4:
		u := binary.LittleEndian.Uint32(b)
		if signed {
			return big.NewInt(int64(int32(u))), true, true
		}
		return new(big.Int).SetUint64(uint64(u)), false, true
	case phys == parquet.Types.Int64 && len(b) == 8:
		u := binary.LittleEndian.Uint64(b)
		if signed {
			return big.NewInt(int64(u)), true, true
		}
		return new(big.Int).SetUint64(u), false, true
	}
	return nil, false, false
}

// intScalar is v as an integer scalar of type p, when it is in p's range.
func intScalar(p dtype.PType, v *big.Int) (scalar.Scalar, bool) {
	bits := p.BitWidth()
	if p.IsSigned() {
		if !v.IsInt64() {
			return scalar.Scalar{}, false
		}
		x := v.Int64()
		if bits < 64 && (x < -(1<<(bits-1)) || x >= 1<<(bits-1)) {
			return scalar.Scalar{}, false
		}
		return scalar.Int(p, x), true
	}
	if !v.IsUint64() {
		return scalar.Scalar{}, false
	}
	x := v.Uint64()
	if bits < 64 && x >= 1<<bits {
		return scalar.Scalar{}, false
	}
	return scalar.Uint(p, x), true
}

// floatStat decodes a FLOAT, DOUBLE or FLOAT16 bound.
func floatStat(phys parquet.Type, logical schema.LogicalType, p dtype.PType, b []byte, isMax bool) (scalar.Scalar, bool) {
	var f float64
	switch {
	case p == dtype.F64 && phys == parquet.Types.Double && len(b) == 8:
		f = math.Float64frombits(binary.LittleEndian.Uint64(b))
	case p == dtype.F32 && phys == parquet.Types.Float && len(b) == 4:
		f = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case p == dtype.F16 && phys == parquet.Types.FixedLenByteArray && len(b) == 2:
		if _, ok := logical.(schema.Float16LogicalType); !ok {
			return scalar.Scalar{}, false
		}
		f = float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32())
	default:
		return scalar.Scalar{}, false
	}
	if math.IsNaN(f) {
		return scalar.Scalar{}, false
	}
	// A chunk whose minimum is +0.0 may hold -0.0, and one whose maximum
	// is -0.0 may hold +0.0.
	if f == 0 {
		if isMax {
			f = 0
		} else {
			f = math.Copysign(0, -1)
		}
	}
	return scalar.Float(p, f), true
}

// bigEndianDecimal decodes a big-endian two's complement integer of any
// length as a decimal128.Num, when it fits.
func bigEndianDecimal(b []byte) (decimal128.Num, bool) {
	if len(b) == 0 {
		return decimal128.Num{}, false
	}
	neg := b[0]&0x80 != 0
	// Bytes beyond the last 16 must only extend the sign.
	for len(b) > 16 {
		if (neg && b[0] != 0xff) || (!neg && b[0] != 0) {
			return decimal128.Num{}, false
		}
		b = b[1:]
	}
	if (b[0]&0x80 != 0) != neg {
		return decimal128.Num{}, false
	}
	var full [16]byte
	if neg {
		for i := range full {
			full[i] = 0xff
		}
	}
	copy(full[16-len(b):], b)
	hi := int64(binary.BigEndian.Uint64(full[:8]))
	lo := binary.BigEndian.Uint64(full[8:])
	return decimal128.New(hi, lo), true
}

// temporalStat decodes a date, time or timestamp bound.
func temporalStat(phys parquet.Type, logical schema.LogicalType, t dtype.DType, b []byte, isMax bool) (scalar.Scalar, bool) {
	var raw int64
	switch {
	case phys == parquet.Types.Int32 && len(b) == 4:
		raw = int64(int32(binary.LittleEndian.Uint32(b)))
	case phys == parquet.Types.Int64 && len(b) == 8:
		raw = int64(binary.LittleEndian.Uint64(b))
	default:
		return scalar.Scalar{}, false
	}
	switch t.ExtID() {
	case dtype.ExtDate:
		if _, ok := logical.(schema.DateLogicalType); !ok || phys != parquet.Types.Int32 {
			return scalar.Scalar{}, false
		}
		return scalar.Date(int32(raw)), true
	case dtype.ExtTime:
		l, ok := logical.(schema.TimeLogicalType)
		if !ok {
			return scalar.Scalar{}, false
		}
		v, ok := rescale(raw, parquetUnit(l.TimeUnit()), t.Unit(), isMax)
		if !ok || v < 0 || v >= 86400*t.Unit().PerSecond() {
			return scalar.Scalar{}, false
		}
		return scalar.Time(t.Unit(), v), true
	case dtype.ExtTimestamp:
		l, ok := logical.(schema.TimestampLogicalType)
		if !ok || phys != parquet.Types.Int64 {
			return scalar.Scalar{}, false
		}
		v, ok := rescale(raw, parquetUnit(l.TimeUnit()), t.Unit(), isMax)
		if !ok {
			return scalar.Scalar{}, false
		}
		return scalar.Timestamp(t.Unit(), t.TZ(), v), true
	}
	return scalar.Scalar{}, false
}

func parquetUnit(u schema.TimeUnitType) dtype.TimeUnit {
	switch u {
	case schema.TimeUnitMillis:
		return dtype.Milli
	case schema.TimeUnitMicros:
		return dtype.Micro
	case schema.TimeUnitNanos:
		return dtype.Nano
	}
	return 255 // unknown: rescale refuses it
}

// rescale converts v ticks of unit from to unit to, rounding a minimum
// down and a maximum up when to is coarser, and refusing on overflow.
func rescale(v int64, from, to dtype.TimeUnit, roundUp bool) (int64, bool) {
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
	q, r := v/k, v%k
	if r != 0 && (v < 0) != roundUp {
		// Go truncates toward zero: step outward when that went the wrong way.
		if roundUp {
			q++
		} else {
			q--
		}
	}
	return q, true
}
