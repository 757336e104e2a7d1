package kernels

// Conversions between dates, times and timestamps (scalar.Cast's rules): a
// date is midnight UTC; a timestamp's date is its UTC day, rounding toward
// the past; a finer unit multiplies (checked), a coarser one divides
// rounding toward the past; a change of zone keeps the instant (and the
// stored value). Also utf8 ↔ binary, and integers to utf8 (the one text
// conversion with a loop of its own: strconv prints integers exactly as
// scalar.Cast does).

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

func castTemporal(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	var conv func(int64) (int64, bool)
	switch {
	case from.ExtID() == dtype.ExtDate: // → timestamp
		perDay := 86400 * to.Unit().PerSecond()
		conv = func(v int64) (int64, bool) { return mulChecked(v, perDay) }
	case to.ExtID() == dtype.ExtDate: // timestamp →
		perDay := 86400 * from.Unit().PerSecond()
		conv = func(v int64) (int64, bool) { return floorDiv(v, perDay), true }
	case from.Unit() == to.Unit():
		return relabel(arr, to), nil, nil // a zone change
	default:
		pf, pt := from.Unit().PerSecond(), to.Unit().PerSecond()
		if pt > pf {
			conv = func(v int64) (int64, bool) { return mulChecked(v, pt/pf) }
		} else {
			conv = func(v int64) (int64, bool) { return floorDiv(v, pf/pt), true }
		}
	}
	if from.PType() == dtype.I32 {
		return temporalRows[int32](mem, arr, valuesOf[int32](arr), to, conv)
	}
	return temporalRows[int64](mem, arr, valuesOf[int64](arr), to, conv)
}

func temporalRows[S int32 | int64](mem memory.Allocator, arr arrow.Array, src []S, to dtype.DType, conv func(int64) (int64, bool)) (arrow.Array, []uint64, error) {
	valid := ValidityOf(arr)
	if to.PType() == dtype.I32 {
		buf, dst := newValues[int32](mem, len(src))
		failed := convertRows(dst, src, valid, func(v S) (int32, bool) {
			r, ok := conv(int64(v))
			return int32(r), ok && r >= math.MinInt32 && r <= math.MaxInt32
		})
		return castResult(mem, arr, to, buf, failed)
	}
	buf, dst := newValues[int64](mem, len(src))
	failed := convertRows(dst, src, valid, func(v S) (int64, bool) { return conv(int64(v)) })
	return castResult(mem, arr, to, buf, failed)
}

// mulChecked is a*b, ok false on overflow.
func mulChecked(a, b int64) (int64, bool) {
	lo, flag := mulS64(uint64(a), uint64(b))
	return int64(lo), flag == 0
}

// floorDiv is a/b rounded toward minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// binaryToUtf8 shares the bytes; a row that is not valid UTF-8 fails.
func binaryToUtf8(mem memory.Allocator, arr arrow.Array) (arrow.Array, []uint64, error) {
	rows, err := byteRowsOfArray(arr)
	if err != nil {
		return nil, nil, err
	}
	n := arr.Len()
	valid := ValidityOf(arr)
	var failed []uint64
	for i := 0; i < n; i++ {
		if valid.Get(i) && !utf8.Valid(rows.at(i)) {
			failed = setFailed(failed, n, i)
		}
	}
	d := arr.Data()
	if failed == nil {
		return relabel(arr, dtype.Utf8(true)), nil, nil
	}
	// The same offsets and bytes, under a validity without the failures.
	validity, nulls := withFailures(mem, valid, failed, n)
	offs, data := d.Buffers()[1], d.Buffers()[2]
	offBuf := memory.SliceBuffer(offs, d.Offset()*4, (n+1)*4)
	nd := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{validity, offBuf, data}, nil, nulls, 0)
	releaseAll(validity, offBuf)
	out := array.MakeFromData(nd)
	nd.Release()
	return out, failed, nil
}

// intsToText prints integers in decimal.
func intsToText(mem memory.Allocator, arr arrow.Array, from dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(n * 4)
	var tmp [24]byte
	at := intReader(arr, from.PType())
	signed := from.PType().IsSigned()
	for i := 0; i < n; i++ {
		if arr.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := at(i)
		if signed {
			b.BinaryBuilder.Append(strconv.AppendInt(tmp[:0], int64(v), 10))
		} else {
			b.BinaryBuilder.Append(strconv.AppendUint(tmp[:0], v, 10))
		}
	}
	return b.NewArray(), nil, nil
}

// intReader reads row i of an integer array as its 64-bit pattern
// (sign-extended for signed types).
func intReader(arr arrow.Array, p dtype.PType) func(int) uint64 {
	switch p {
	case dtype.I8:
		v := valuesOf[int8](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.I16:
		v := valuesOf[int16](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.I32:
		v := valuesOf[int32](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.I64:
		v := valuesOf[int64](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.U8:
		v := valuesOf[uint8](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.U16:
		v := valuesOf[uint16](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	case dtype.U32:
		v := valuesOf[uint32](arr)
		return func(i int) uint64 { return uint64(v[i]) }
	}
	v := valuesOf[uint64](arr)
	return func(i int) uint64 { return v[i] }
}
