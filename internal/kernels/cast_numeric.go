package kernels

// Conversions between bool, integers, floats and decimals (scalar.Cast's
// rules): integer targets check their range; float → integer rounds half
// to even and fails on NaN and infinities; decimal → integer and decimal
// rescaling round half away from zero; a finite value too large for f32 or
// f16 fails; anything → bool is "not zero" (NaN is true); bool → number is
// 1 or 0. Float → decimal and decimal → f16 round through decimal text and
// go through scalar.Cast.

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }

// castNumeric converts between bool, numbers and decimals.
func castNumeric(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	switch {
	case from.IsBool():
		return castFromBool(mem, arr, to)
	case to.IsBool():
		return castToBool(mem, arr, from, to)
	case from.IsDecimal():
		return castFromDecimal(mem, arr, from, to)
	}
	switch from.PType() {
	case dtype.I8:
		return castFromInt[int8](mem, arr, from, to)
	case dtype.I16:
		return castFromInt[int16](mem, arr, from, to)
	case dtype.I32:
		return castFromInt[int32](mem, arr, from, to)
	case dtype.I64:
		return castFromInt[int64](mem, arr, from, to)
	case dtype.U8:
		return castFromInt[uint8](mem, arr, from, to)
	case dtype.U16:
		return castFromInt[uint16](mem, arr, from, to)
	case dtype.U32:
		return castFromInt[uint32](mem, arr, from, to)
	case dtype.U64:
		return castFromInt[uint64](mem, arr, from, to)
	case dtype.F16:
		h := valuesOf[half](arr)
		tmp, f := newValues[float32](mem, len(h))
		defer tmp.Release()
		widenF16(f, h)
		return castFromFloat(mem, arr, f, from, to)
	case dtype.F32:
		return castFromFloat(mem, arr, valuesOf[float32](arr), from, to)
	default:
		return castFromFloat(mem, arr, valuesOf[float64](arr), from, to)
	}
}

// castResult wraps converted values: the input's validity less the failed
// rows.
func castResult(mem memory.Allocator, arr arrow.Array, to dtype.DType, values *memory.Buffer, failed []uint64) (arrow.Array, []uint64, error) {
	n := arr.Len()
	validity, nulls := withFailures(mem, ValidityOf(arr), failed, n)
	return newArrayFrom(dtype.ToArrow(to), n, nulls, validity, values), failed, nil
}

// convertRows writes conv(src[i]) to dst and collects the valid rows whose
// conversion fails. It is the general loop; the common conversions have
// loops without a call per row.
func convertRows[S, D any](dst []D, src []S, valid Bitmap, conv func(S) (D, bool)) []uint64 {
	var failed []uint64
	dst = dst[:len(src)]
	for i, v := range src {
		d, ok := conv(v)
		dst[i] = d
		if !ok && valid.Get(i) {
			failed = setFailed(failed, len(src), i)
		}
	}
	return failed
}

// rescanFailures collects the valid rows among n for which ok is false;
// the fast loops call it only when their flags say some row may fail.
func rescanFailures(n int, valid Bitmap, ok func(i int) bool) []uint64 {
	var failed []uint64
	for i := 0; i < n; i++ {
		if valid.Get(i) && !ok(i) {
			failed = setFailed(failed, n, i)
		}
	}
	return failed
}

func castFromInt[S Integer](mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	src := valuesOf[S](arr)
	valid := ValidityOf(arr)
	if to.IsDecimal() {
		buf, dst := newValues[decimal128.Num](mem, len(src))
		failed := convertRows(dst, src, valid, func(v S) (decimal128.Num, bool) { return intToDecimal(v, to) })
		return castResult(mem, arr, to, buf, failed)
	}
	switch to.PType() {
	case dtype.I8:
		return intToInt[S, int8](mem, arr, src, to)
	case dtype.I16:
		return intToInt[S, int16](mem, arr, src, to)
	case dtype.I32:
		return intToInt[S, int32](mem, arr, src, to)
	case dtype.I64:
		return intToInt[S, int64](mem, arr, src, to)
	case dtype.U8:
		return intToInt[S, uint8](mem, arr, src, to)
	case dtype.U16:
		return intToInt[S, uint16](mem, arr, src, to)
	case dtype.U32:
		return intToInt[S, uint32](mem, arr, src, to)
	case dtype.U64:
		return intToInt[S, uint64](mem, arr, src, to)
	case dtype.F16:
		buf, dst := newValues[half](mem, len(src))
		failed := convertRows(dst, src, valid, func(v S) (half, bool) { return toHalf(float64(v), false) })
		return castResult(mem, arr, to, buf, failed)
	case dtype.F32:
		buf, dst := newValues[float32](mem, len(src))
		dst = dst[:len(src)]
		for i, v := range src {
			dst[i] = float32(v) // one rounding, as scalar.Cast
		}
		return castResult(mem, arr, to, buf, nil)
	default:
		buf, dst := newValues[float64](mem, len(src))
		dst = dst[:len(src)]
		for i, v := range src {
			dst[i] = float64(v)
		}
		return castResult(mem, arr, to, buf, nil)
	}
}

// intFits reports whether v converts to D without loss.
func intFits[S, D Integer](v S) bool {
	d := D(v)
	return S(d) == v && (v < 0) == (d < 0)
}

func intToInt[S, D Integer](mem memory.Allocator, arr arrow.Array, src []S, to dtype.DType) (arrow.Array, []uint64, error) {
	buf, dst := newValues[D](mem, len(src))
	dst = dst[:len(src)]
	var bad uint64
	for i, v := range src {
		d := D(v)
		dst[i] = d
		bad |= b2u(S(d) != v) | b2u((v < 0) != (d < 0))
	}
	var failed []uint64
	if bad != 0 {
		failed = rescanFailures(len(src), ValidityOf(arr), func(i int) bool { return intFits[S, D](src[i]) })
	}
	return castResult(mem, arr, to, buf, failed)
}

// intToDecimal is v as a decimal of type to, if it fits its precision.
func intToDecimal[S Integer](v S, to dtype.DType) (decimal128.Num, bool) {
	var n decimal128.Num
	if v < 0 {
		n = decimal128.FromI64(int64(v))
	} else {
		n = decimal128.FromU64(uint64(v))
	}
	n, ok := decScaleUp(n, to.Scale())
	return n, ok && fitsPrecision(n, to.Precision())
}

// toHalf rounds x to f16; a finite x beyond f16's range fails (srcInf
// says whether x came from an infinity, which stays one).
func toHalf(x float64, srcInf bool) (half, bool) {
	h := f16FromF64(x)
	return h, h&0x7fff != 0x7c00 || math.IsInf(x, 0) || srcInf
}

func castFromFloat[S Float](mem memory.Allocator, arr arrow.Array, src []S, from, to dtype.DType) (arrow.Array, []uint64, error) {
	valid := ValidityOf(arr)
	if to.IsDecimal() {
		// Rounds the float's shortest decimal text, as scalar.Cast does.
		return castViaScalars(mem, arr, from, to)
	}
	switch to.PType() {
	case dtype.I8:
		return floatToInt[S, int8](mem, arr, src, to)
	case dtype.I16:
		return floatToInt[S, int16](mem, arr, src, to)
	case dtype.I32:
		return floatToInt[S, int32](mem, arr, src, to)
	case dtype.I64:
		return floatToInt[S, int64](mem, arr, src, to)
	case dtype.U8:
		return floatToInt[S, uint8](mem, arr, src, to)
	case dtype.U16:
		return floatToInt[S, uint16](mem, arr, src, to)
	case dtype.U32:
		return floatToInt[S, uint32](mem, arr, src, to)
	case dtype.U64:
		return floatToInt[S, uint64](mem, arr, src, to)
	case dtype.F16:
		buf, dst := newValues[half](mem, len(src))
		failed := convertRows(dst, src, valid, func(v S) (half, bool) { return toHalf(float64(v), false) })
		return castResult(mem, arr, to, buf, failed)
	case dtype.F32:
		return floatToFloat[S, float32](mem, arr, src, to)
	default:
		return floatToFloat[S, float64](mem, arr, src, to)
	}
}

// floatToInt rounds half to even and checks the range; NaN and the
// infinities fail.
func floatToInt[S Float, D Integer](mem memory.Allocator, arr arrow.Array, src []S, to dtype.DType) (arrow.Array, []uint64, error) {
	buf, dst := newValues[D](mem, len(src))
	dst = dst[:len(src)]
	lo, hi := intRange[D]()
	var bad uint64
	for i, v := range src {
		r := math.RoundToEven(float64(v))
		in := r >= lo && r < hi // false for NaN
		bad |= b2u(!in)
		if in {
			dst[i] = D(r)
		} else {
			dst[i] = 0
		}
	}
	var failed []uint64
	if bad != 0 {
		failed = rescanFailures(len(src), ValidityOf(arr), func(i int) bool {
			r := math.RoundToEven(float64(src[i]))
			return r >= lo && r < hi
		})
	}
	return castResult(mem, arr, to, buf, failed)
}

// intRange is the range of D as floats: lo <= x < hi.
func intRange[D Integer]() (lo, hi float64) {
	w := bitWidth[D]()
	if isSigned[D]() {
		return -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
	}
	return 0, math.Ldexp(1, w)
}

// floatToFloat rounds to nearest; a finite value that becomes infinite
// fails.
func floatToFloat[S, D Float](mem memory.Allocator, arr arrow.Array, src []S, to dtype.DType) (arrow.Array, []uint64, error) {
	buf, dst := newValues[D](mem, len(src))
	dst = dst[:len(src)]
	var bad uint64
	for i, v := range src {
		d := D(v)
		dst[i] = d
		bad |= b2u(math.IsInf(float64(d), 0) && !math.IsInf(float64(v), 0))
	}
	var failed []uint64
	if bad != 0 {
		failed = rescanFailures(len(src), ValidityOf(arr), func(i int) bool {
			return !math.IsInf(float64(D(src[i])), 0) || math.IsInf(float64(src[i]), 0)
		})
	}
	return castResult(mem, arr, to, buf, failed)
}

func castFromDecimal(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	src := valuesOf[decimal128.Num](arr)
	valid := ValidityOf(arr)
	s := from.Scale()
	if to.IsDecimal() {
		buf, dst := newValues[decimal128.Num](mem, len(src))
		failed := convertRows(dst, src, valid, func(v decimal128.Num) (decimal128.Num, bool) { return rescaleDecimal(v, s, to) })
		return castResult(mem, arr, to, buf, failed)
	}
	switch to.PType() {
	case dtype.I8:
		return decimalToInt[int8](mem, arr, src, s, to)
	case dtype.I16:
		return decimalToInt[int16](mem, arr, src, s, to)
	case dtype.I32:
		return decimalToInt[int32](mem, arr, src, s, to)
	case dtype.I64:
		return decimalToInt[int64](mem, arr, src, s, to)
	case dtype.U8:
		return decimalToInt[uint8](mem, arr, src, s, to)
	case dtype.U16:
		return decimalToInt[uint16](mem, arr, src, s, to)
	case dtype.U32:
		return decimalToInt[uint32](mem, arr, src, s, to)
	case dtype.U64:
		return decimalToInt[uint64](mem, arr, src, s, to)
	case dtype.F32:
		buf, dst := newValues[float32](mem, len(src))
		convertRows(dst, src, valid, func(v decimal128.Num) (float32, bool) { return decimalToF32(v, s), true })
		return castResult(mem, arr, to, buf, nil)
	case dtype.F64:
		buf, dst := newValues[float64](mem, len(src))
		convertRows(dst, src, valid, func(v decimal128.Num) (float64, bool) { return decimalToF64(v, s), true })
		return castResult(mem, arr, to, buf, nil)
	}
	// f16: rounded once from the decimal text, by scalar.Cast.
	return castViaScalars(mem, arr, from, to)
}

// rescaleDecimal is v (of scale s) at to's scale, rounding half away from
// zero when the scale shrinks, if it fits to's precision.
func rescaleDecimal(v decimal128.Num, s int, to dtype.DType) (decimal128.Num, bool) {
	k := to.Scale() - s
	ok := true
	if k >= 0 {
		v, ok = decScaleUp(v, k)
	} else {
		v = decScaleDown(v, -k)
	}
	return v, ok && fitsPrecision(v, to.Precision())
}

func decimalToInt[D Integer](mem memory.Allocator, arr arrow.Array, src []decimal128.Num, s int, to dtype.DType) (arrow.Array, []uint64, error) {
	buf, dst := newValues[D](mem, len(src))
	failed := convertRows(dst, src, ValidityOf(arr), func(v decimal128.Num) (D, bool) {
		neg, m := magnitude(decScaleDown(v, s))
		if m.hi != 0 {
			return 0, false
		}
		if neg {
			if m.lo > 1<<63 {
				return 0, false
			}
			x := -int64(m.lo)
			return D(x), intFits[int64, D](x)
		}
		return D(m.lo), intFits[uint64, D](m.lo)
	})
	return castResult(mem, arr, to, buf, failed)
}

// pow10f holds the powers of ten that float64 represents exactly.
var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalToF64 is the float64 nearest to v / 10^s. When both are exact
// float64 values, one division rounds correctly; otherwise the decimal text
// is parsed (also correctly rounded), as scalar.Cast does.
func decimalToF64(v decimal128.Num, s int) float64 {
	if neg, m := magnitude(v); m.hi == 0 && m.lo < 1<<53 && s < len(pow10f) {
		x := float64(m.lo) / pow10f[s]
		if neg {
			x = -x
		}
		return x
	}
	f, _ := strconv.ParseFloat(v.ToString(int32(s)), 64)
	return f
}

// decimalToF32 is the float32 nearest to v / 10^s.
func decimalToF32(v decimal128.Num, s int) float32 {
	if neg, m := magnitude(v); m.hi == 0 && m.lo < 1<<24 && s <= 10 {
		x := float32(m.lo) / float32(pow10f[s])
		if neg {
			x = -x
		}
		return x
	}
	f, _ := strconv.ParseFloat(v.ToString(int32(s)), 32)
	return float32(f)
}

func castFromBool(mem memory.Allocator, arr arrow.Array, to dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	vals := ValuesOf(arr)
	bit := func(i int) bool { return vals.Get(i) }
	if to.IsDecimal() {
		buf, dst := newValues[decimal128.Num](mem, n)
		one, ok := decScaleUp(decimal128.FromI64(1), to.Scale())
		ok = ok && fitsPrecision(one, to.Precision())
		var failed []uint64
		for i := range dst {
			dst[i] = decimal128.Num{}
			if bit(i) {
				dst[i] = one
				if !ok && ValidityOf(arr).Get(i) {
					failed = setFailed(failed, n, i)
				}
			}
		}
		return castResult(mem, arr, to, buf, failed)
	}
	switch to.PType() {
	case dtype.I8:
		return boolToNumber[int8](mem, arr, to, 1)
	case dtype.I16:
		return boolToNumber[int16](mem, arr, to, 1)
	case dtype.I32:
		return boolToNumber[int32](mem, arr, to, 1)
	case dtype.I64:
		return boolToNumber[int64](mem, arr, to, 1)
	case dtype.U8:
		return boolToNumber[uint8](mem, arr, to, 1)
	case dtype.U16:
		return boolToNumber[uint16](mem, arr, to, 1)
	case dtype.U32:
		return boolToNumber[uint32](mem, arr, to, 1)
	case dtype.U64:
		return boolToNumber[uint64](mem, arr, to, 1)
	case dtype.F16:
		return boolToNumber[uint16](mem, arr, to, 0x3c00) // 1.0
	case dtype.F32:
		return boolToNumber[float32](mem, arr, to, 1)
	default:
		return boolToNumber[float64](mem, arr, to, 1)
	}
}

func boolToNumber[D Number](mem memory.Allocator, arr arrow.Array, to dtype.DType, one D) (arrow.Array, []uint64, error) {
	n := arr.Len()
	vals := ValuesOf(arr)
	buf, dst := newValues[D](mem, n)
	for i := range dst {
		dst[i] = one * D(b2u(vals.Get(i)))
	}
	return castResult(mem, arr, to, buf, nil)
}

// castToBool is "not zero" (NaN is true, -0 is false).
func castToBool(mem memory.Allocator, arr arrow.Array, from, to dtype.DType) (arrow.Array, []uint64, error) {
	n := arr.Len()
	buf, words := NewBits(mem, n)
	var nonzero func(i int) bool
	switch {
	case from.IsDecimal():
		v := valuesOf[decimal128.Num](arr)
		nonzero = func(i int) bool { return v[i] != decimal128.Num{} }
	case from.PType() == dtype.F16:
		v := valuesOf[half](arr)
		nonzero = func(i int) bool { return v[i]&0x7fff != 0 }
	case from.PType() == dtype.F32:
		v := valuesOf[float32](arr)
		nonzero = func(i int) bool { return v[i] != 0 }
	case from.PType() == dtype.F64:
		v := valuesOf[float64](arr)
		nonzero = func(i int) bool { return v[i] != 0 }
	default:
		nonzero = intNonzero(arr, from.PType())
	}
	FillBits(words, n, nonzero)
	validity, nulls := ShareValidity(mem, arr)
	return newArrayFrom(arrow.FixedWidthTypes.Boolean, n, nulls, validity, buf), nil, nil
}

func intNonzero(arr arrow.Array, p dtype.PType) func(int) bool {
	switch p.BitWidth() {
	case 8:
		v := valuesOf[uint8](arr)
		return func(i int) bool { return v[i] != 0 }
	case 16:
		v := valuesOf[uint16](arr)
		return func(i int) bool { return v[i] != 0 }
	case 32:
		v := valuesOf[uint32](arr)
		return func(i int) bool { return v[i] != 0 }
	}
	v := valuesOf[uint64](arr)
	return func(i int) bool { return v[i] != 0 }
}
