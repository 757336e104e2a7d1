package kernels

// The comparison loops over fixed-width numbers: each packs 64 results
// into a word, 16 rows a step, without a branch per row (the last partial
// word goes bit by bit, cmpTail). Go's operators give IEEE semantics on floats (NaN is unequal to
// everything and unordered). "same" is equality that also matches NaN with
// NaN, for IS [NOT] DISTINCT FROM; on integers it is plain equality.
//
// Each step of a loop compares 16 rows and combines their bits as a tree of
// pairs (see pack16) rather than shifting every bit into place: a bit is a
// compare and a SETcc (rowBit), and the pairs combine with LEA, so the 16
// rows are independent chains of a few instructions. Measured on 1M i64
// rows (cpu time), this tree is about 15% faster than or-ing each bit at
// its shift, and bounds checks are gone because every step slices its
// 16 values with a constant length.
//
// Column-scalar loops exist for every operator; column-column loops for
// =, <, <= and same (> and >= swap their operands).

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// b2u is 1 for true and 0 for false, without a branch.
func b2u(b bool) uint64 { return wordBool(b) }

// rowBit is 1 for true and 0 for false. Unlike b2u, written as a
// branch the compiler turns into a SETcc in a register: b2u's read through
// a pointer goes by the stack.
func rowBit(b bool) uint64 {
	var x uint64
	if b {
		x = 1
	}
	return x
}

// pack16 combines 16 result bits given as eight pairs p = bit0 + 2*bit1
// (rows 2i and 2i+1) into the low 16 bits of a word, row 0 lowest.
func pack16(p0, p1, p2, p3, p4, p5, p6, p7 uint64) uint64 {
	lo := (p0 + 4*p1) + 16*(p2+4*p3)
	hi := (p4 + 4*p5) + 16*(p6+4*p7)
	return lo | hi<<8
}

// cmpTail packs the last len(a) < 64 results of a loop.
func cmpTail[T any](a []T, f func(T) bool) uint64 {
	var w uint64
	for j, x := range a {
		w |= b2u(f(x)) << uint(j)
	}
	return w
}

func cmpTailVV[T any](a, b []T, f func(T, T) bool) uint64 {
	var w uint64
	b = b[:len(a)]
	for j, x := range a {
		w |= b2u(f(x, b[j])) << uint(j)
	}
	return w
}

func eqVS[T Number](dst []uint64, a []T, s T) {
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d := a[m : m+16 : m+16]
			w |= pack16(
				rowBit(d[0] == s)+2*rowBit(d[1] == s), rowBit(d[2] == s)+2*rowBit(d[3] == s),
				rowBit(d[4] == s)+2*rowBit(d[5] == s), rowBit(d[6] == s)+2*rowBit(d[7] == s),
				rowBit(d[8] == s)+2*rowBit(d[9] == s), rowBit(d[10] == s)+2*rowBit(d[11] == s),
				rowBit(d[12] == s)+2*rowBit(d[13] == s), rowBit(d[14] == s)+2*rowBit(d[15] == s)) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x T) bool { return x == s })
	}
}

func ltVS[T Number](dst []uint64, a []T, s T) {
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d := a[m : m+16 : m+16]
			w |= pack16(
				rowBit(d[0] < s)+2*rowBit(d[1] < s), rowBit(d[2] < s)+2*rowBit(d[3] < s),
				rowBit(d[4] < s)+2*rowBit(d[5] < s), rowBit(d[6] < s)+2*rowBit(d[7] < s),
				rowBit(d[8] < s)+2*rowBit(d[9] < s), rowBit(d[10] < s)+2*rowBit(d[11] < s),
				rowBit(d[12] < s)+2*rowBit(d[13] < s), rowBit(d[14] < s)+2*rowBit(d[15] < s)) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x T) bool { return x < s })
	}
}

func leVS[T Number](dst []uint64, a []T, s T) {
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d := a[m : m+16 : m+16]
			w |= pack16(
				rowBit(d[0] <= s)+2*rowBit(d[1] <= s), rowBit(d[2] <= s)+2*rowBit(d[3] <= s),
				rowBit(d[4] <= s)+2*rowBit(d[5] <= s), rowBit(d[6] <= s)+2*rowBit(d[7] <= s),
				rowBit(d[8] <= s)+2*rowBit(d[9] <= s), rowBit(d[10] <= s)+2*rowBit(d[11] <= s),
				rowBit(d[12] <= s)+2*rowBit(d[13] <= s), rowBit(d[14] <= s)+2*rowBit(d[15] <= s)) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x T) bool { return x <= s })
	}
}

func gtVS[T Number](dst []uint64, a []T, s T) {
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d := a[m : m+16 : m+16]
			w |= pack16(
				rowBit(d[0] > s)+2*rowBit(d[1] > s), rowBit(d[2] > s)+2*rowBit(d[3] > s),
				rowBit(d[4] > s)+2*rowBit(d[5] > s), rowBit(d[6] > s)+2*rowBit(d[7] > s),
				rowBit(d[8] > s)+2*rowBit(d[9] > s), rowBit(d[10] > s)+2*rowBit(d[11] > s),
				rowBit(d[12] > s)+2*rowBit(d[13] > s), rowBit(d[14] > s)+2*rowBit(d[15] > s)) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x T) bool { return x > s })
	}
}

func geVS[T Number](dst []uint64, a []T, s T) {
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d := a[m : m+16 : m+16]
			w |= pack16(
				rowBit(d[0] >= s)+2*rowBit(d[1] >= s), rowBit(d[2] >= s)+2*rowBit(d[3] >= s),
				rowBit(d[4] >= s)+2*rowBit(d[5] >= s), rowBit(d[6] >= s)+2*rowBit(d[7] >= s),
				rowBit(d[8] >= s)+2*rowBit(d[9] >= s), rowBit(d[10] >= s)+2*rowBit(d[11] >= s),
				rowBit(d[12] >= s)+2*rowBit(d[13] >= s), rowBit(d[14] >= s)+2*rowBit(d[15] >= s)) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x T) bool { return x >= s })
	}
}

// sameVS: equal, or both NaN.
func sameVS[T Number](dst []uint64, a []T, s T) {
	if s != s {
		// Only NaN rows match a NaN scalar.
		k := 0
		for ; len(a) >= 64; a, k = a[64:], k+1 {
			var w uint64
			for j := 0; j < 64; j++ {
				w |= b2u(a[j] != a[j]) << uint(j)
			}
			dst[k] = w
		}
		if len(a) > 0 {
			dst[k] = cmpTail(a, func(x T) bool { return x != x })
		}
		return
	}
	eqVS(dst, a, s)
}

func eqVV[T Number](dst []uint64, a, b []T) {
	k := 0
	b = b[:len(a)]
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d, e := a[m:m+16:m+16], b[m:m+16:m+16]
			w |= pack16(
				rowBit(d[0] == e[0])+2*rowBit(d[1] == e[1]), rowBit(d[2] == e[2])+2*rowBit(d[3] == e[3]),
				rowBit(d[4] == e[4])+2*rowBit(d[5] == e[5]), rowBit(d[6] == e[6])+2*rowBit(d[7] == e[7]),
				rowBit(d[8] == e[8])+2*rowBit(d[9] == e[9]), rowBit(d[10] == e[10])+2*rowBit(d[11] == e[11]),
				rowBit(d[12] == e[12])+2*rowBit(d[13] == e[13]), rowBit(d[14] == e[14])+2*rowBit(d[15] == e[15])) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y T) bool { return x == y })
	}
}

func ltVV[T Number](dst []uint64, a, b []T) {
	k := 0
	b = b[:len(a)]
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d, e := a[m:m+16:m+16], b[m:m+16:m+16]
			w |= pack16(
				rowBit(d[0] < e[0])+2*rowBit(d[1] < e[1]), rowBit(d[2] < e[2])+2*rowBit(d[3] < e[3]),
				rowBit(d[4] < e[4])+2*rowBit(d[5] < e[5]), rowBit(d[6] < e[6])+2*rowBit(d[7] < e[7]),
				rowBit(d[8] < e[8])+2*rowBit(d[9] < e[9]), rowBit(d[10] < e[10])+2*rowBit(d[11] < e[11]),
				rowBit(d[12] < e[12])+2*rowBit(d[13] < e[13]), rowBit(d[14] < e[14])+2*rowBit(d[15] < e[15])) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y T) bool { return x < y })
	}
}

func leVV[T Number](dst []uint64, a, b []T) {
	k := 0
	b = b[:len(a)]
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 16 {
			d, e := a[m:m+16:m+16], b[m:m+16:m+16]
			w |= pack16(
				rowBit(d[0] <= e[0])+2*rowBit(d[1] <= e[1]), rowBit(d[2] <= e[2])+2*rowBit(d[3] <= e[3]),
				rowBit(d[4] <= e[4])+2*rowBit(d[5] <= e[5]), rowBit(d[6] <= e[6])+2*rowBit(d[7] <= e[7]),
				rowBit(d[8] <= e[8])+2*rowBit(d[9] <= e[9]), rowBit(d[10] <= e[10])+2*rowBit(d[11] <= e[11]),
				rowBit(d[12] <= e[12])+2*rowBit(d[13] <= e[13]), rowBit(d[14] <= e[14])+2*rowBit(d[15] <= e[15])) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y T) bool { return x <= y })
	}
}

func sameVV[T Number](dst []uint64, a, b []T) {
	k := 0
	b = b[:len(a)]
	same := func(x, y T) bool { return x == y || x != x && y != y }
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for j := 0; j < 64; j++ {
			x, y := a[j], b[j]
			w |= b2u(x == y || x != x && y != y) << uint(j)
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, same)
	}
}

// cmpNumbers fills words with a op b over n rows of numbers (rows where
// either side is null hold arbitrary bits). A scalar on the left is moved
// to the right by flipping the operator.
func cmpNumbers[T Number](op CmpOp, words []uint64, a, b Fixed[T]) {
	if a.IsScalar && b.IsScalar {
		v := cmpOne(op, a.Scalar, b.Scalar)
		fillWords(words, v)
		return
	}
	if a.IsScalar {
		a, b, op = b, a, op.Flip()
	}
	if b.IsScalar {
		// The SIMD kernels (simd.go) do the whole 64-row blocks they can;
		// the portable loops do the rest.
		s := b.Scalar
		done := cmpFastVS(op, words, a.Vals, s)
		cmpVS(op, words[done/64:], a.Vals[done:], s)
		return
	}
	done := cmpFastVV(op, words, a.Vals, b.Vals)
	cmpVV(op, words[done/64:], a.Vals[done:], b.Vals[done:])
}

// cmpVS is the portable loop of a op s.
func cmpVS[T Number](op CmpOp, words []uint64, a []T, s T) {
	switch op {
	case CmpEq:
		eqVS(words, a, s)
	case CmpNe:
		eqVS(words, a, s)
		invertWords(words)
	case CmpLt:
		ltVS(words, a, s)
	case CmpLe:
		leVS(words, a, s)
	case CmpGt:
		gtVS(words, a, s)
	case CmpGe:
		geVS(words, a, s)
	case cmpSame:
		sameVS(words, a, s)
	}
}

// cmpVV is the portable loop of a op b.
func cmpVV[T Number](op CmpOp, words []uint64, a, b []T) {
	switch op {
	case CmpEq:
		eqVV(words, a, b)
	case CmpNe:
		eqVV(words, a, b)
		invertWords(words)
	case CmpLt:
		ltVV(words, a, b)
	case CmpLe:
		leVV(words, a, b)
	case CmpGt:
		ltVV(words, b, a)
	case CmpGe:
		leVV(words, b, a)
	case cmpSame:
		sameVV(words, a, b)
	}
}

// cmpOne is x op y for one pair of numbers.
func cmpOne[T Number](op CmpOp, x, y T) bool {
	switch op {
	case CmpEq:
		return x == y
	case CmpNe:
		return x != y
	case CmpLt:
		return x < y
	case CmpLe:
		return x <= y
	case CmpGt:
		return x > y
	case CmpGe:
		return x >= y
	}
	return x == y || x != x && y != y
}

// fillWords sets every word to all ones (v) or all zeros.
func fillWords(words []uint64, v bool) {
	w := -b2u(v)
	for k := range words {
		words[k] = w
	}
}

func invertWords(words []uint64) {
	for k := range words {
		words[k] = ^words[k]
	}
}

// The loops over decimals of at most 18 digits: the integer loops above,
// reading each value's low word in place as its int64 value (see
// cmpSmallDecimals). The SIMD kernels (simd.go) do the whole
// 64-row blocks they take first.

// decLow is a decimal of at most 18 digits as an int64: its low word.
func decLow(x decimal128.Num) int64 { return int64(x.LowBits()) }

func eqDecVS(dst []uint64, a []decimal128.Num, s int64) {
	done := decFastVS(CmpEq, dst, a, s)
	dst, a = dst[done/64:], a[done:]
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d := a[m : m+8 : m+8]
			w |= (b2u(decLow(d[0]) == s) | b2u(decLow(d[1]) == s)<<1 | b2u(decLow(d[2]) == s)<<2 | b2u(decLow(d[3]) == s)<<3 | b2u(decLow(d[4]) == s)<<4 | b2u(decLow(d[5]) == s)<<5 | b2u(decLow(d[6]) == s)<<6 | b2u(decLow(d[7]) == s)<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x decimal128.Num) bool { return decLow(x) == s })
	}
}

func ltDecVS(dst []uint64, a []decimal128.Num, s int64) {
	done := decFastVS(CmpLt, dst, a, s)
	dst, a = dst[done/64:], a[done:]
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d := a[m : m+8 : m+8]
			w |= (b2u(decLow(d[0]) < s) | b2u(decLow(d[1]) < s)<<1 | b2u(decLow(d[2]) < s)<<2 | b2u(decLow(d[3]) < s)<<3 | b2u(decLow(d[4]) < s)<<4 | b2u(decLow(d[5]) < s)<<5 | b2u(decLow(d[6]) < s)<<6 | b2u(decLow(d[7]) < s)<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x decimal128.Num) bool { return decLow(x) < s })
	}
}

func leDecVS(dst []uint64, a []decimal128.Num, s int64) {
	done := decFastVS(CmpLe, dst, a, s)
	dst, a = dst[done/64:], a[done:]
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d := a[m : m+8 : m+8]
			w |= (b2u(decLow(d[0]) <= s) | b2u(decLow(d[1]) <= s)<<1 | b2u(decLow(d[2]) <= s)<<2 | b2u(decLow(d[3]) <= s)<<3 | b2u(decLow(d[4]) <= s)<<4 | b2u(decLow(d[5]) <= s)<<5 | b2u(decLow(d[6]) <= s)<<6 | b2u(decLow(d[7]) <= s)<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x decimal128.Num) bool { return decLow(x) <= s })
	}
}

func gtDecVS(dst []uint64, a []decimal128.Num, s int64) {
	done := decFastVS(CmpGt, dst, a, s)
	dst, a = dst[done/64:], a[done:]
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d := a[m : m+8 : m+8]
			w |= (b2u(decLow(d[0]) > s) | b2u(decLow(d[1]) > s)<<1 | b2u(decLow(d[2]) > s)<<2 | b2u(decLow(d[3]) > s)<<3 | b2u(decLow(d[4]) > s)<<4 | b2u(decLow(d[5]) > s)<<5 | b2u(decLow(d[6]) > s)<<6 | b2u(decLow(d[7]) > s)<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x decimal128.Num) bool { return decLow(x) > s })
	}
}

func geDecVS(dst []uint64, a []decimal128.Num, s int64) {
	done := decFastVS(CmpGe, dst, a, s)
	dst, a = dst[done/64:], a[done:]
	k := 0
	for ; len(a) >= 64; a, k = a[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d := a[m : m+8 : m+8]
			w |= (b2u(decLow(d[0]) >= s) | b2u(decLow(d[1]) >= s)<<1 | b2u(decLow(d[2]) >= s)<<2 | b2u(decLow(d[3]) >= s)<<3 | b2u(decLow(d[4]) >= s)<<4 | b2u(decLow(d[5]) >= s)<<5 | b2u(decLow(d[6]) >= s)<<6 | b2u(decLow(d[7]) >= s)<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTail(a, func(x decimal128.Num) bool { return decLow(x) >= s })
	}
}

func eqDecVV(dst []uint64, a, b []decimal128.Num) {
	b = b[:len(a)]
	done := decFastVV(CmpEq, dst, a, b)
	dst, a, b = dst[done/64:], a[done:], b[done:]
	k := 0
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d, e := a[m:m+8:m+8], b[m:m+8:m+8]
			w |= (b2u(decLow(d[0]) == decLow(e[0])) | b2u(decLow(d[1]) == decLow(e[1]))<<1 | b2u(decLow(d[2]) == decLow(e[2]))<<2 | b2u(decLow(d[3]) == decLow(e[3]))<<3 | b2u(decLow(d[4]) == decLow(e[4]))<<4 | b2u(decLow(d[5]) == decLow(e[5]))<<5 | b2u(decLow(d[6]) == decLow(e[6]))<<6 | b2u(decLow(d[7]) == decLow(e[7]))<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y decimal128.Num) bool { return decLow(x) == decLow(y) })
	}
}

func ltDecVV(dst []uint64, a, b []decimal128.Num) {
	b = b[:len(a)]
	done := decFastVV(CmpLt, dst, a, b)
	dst, a, b = dst[done/64:], a[done:], b[done:]
	k := 0
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d, e := a[m:m+8:m+8], b[m:m+8:m+8]
			w |= (b2u(decLow(d[0]) < decLow(e[0])) | b2u(decLow(d[1]) < decLow(e[1]))<<1 | b2u(decLow(d[2]) < decLow(e[2]))<<2 | b2u(decLow(d[3]) < decLow(e[3]))<<3 | b2u(decLow(d[4]) < decLow(e[4]))<<4 | b2u(decLow(d[5]) < decLow(e[5]))<<5 | b2u(decLow(d[6]) < decLow(e[6]))<<6 | b2u(decLow(d[7]) < decLow(e[7]))<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y decimal128.Num) bool { return decLow(x) < decLow(y) })
	}
}

func leDecVV(dst []uint64, a, b []decimal128.Num) {
	b = b[:len(a)]
	done := decFastVV(CmpLe, dst, a, b)
	dst, a, b = dst[done/64:], a[done:], b[done:]
	k := 0
	for ; len(a) >= 64; a, b, k = a[64:], b[64:], k+1 {
		var w uint64
		for m := 0; m < 64; m += 8 {
			d, e := a[m:m+8:m+8], b[m:m+8:m+8]
			w |= (b2u(decLow(d[0]) <= decLow(e[0])) | b2u(decLow(d[1]) <= decLow(e[1]))<<1 | b2u(decLow(d[2]) <= decLow(e[2]))<<2 | b2u(decLow(d[3]) <= decLow(e[3]))<<3 | b2u(decLow(d[4]) <= decLow(e[4]))<<4 | b2u(decLow(d[5]) <= decLow(e[5]))<<5 | b2u(decLow(d[6]) <= decLow(e[6]))<<6 | b2u(decLow(d[7]) <= decLow(e[7]))<<7) << m
		}
		dst[k] = w
	}
	if len(a) > 0 {
		dst[k] = cmpTailVV(a, b, func(x, y decimal128.Num) bool { return decLow(x) <= decLow(y) })
	}
}
