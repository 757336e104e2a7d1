package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The checked arithmetic kernels: dst = a op b lane by lane in the
// element's own width (wrapping, as the portable loops store it), with an
// overflow flag per lane whose sign bit is set when the lane overflowed;
// the flags are OR-ed together and only their sign bits are tested, once,
// at the end. The kernel returns whether some row may have failed, and
// the caller's row-by-row rescan (the portable one) finds which. A
// lane's flag, from its result s and operands a, b:
//
//	signed add    (a^s) & (b^s)           both operands have the sign s lacks
//	signed sub    (a^b) & (a^s)           the operands differ in sign, s has b's
//	unsigned add  a&b | (a|b)&^s          the carry out of the top bit
//	unsigned sub  ^a&b | ^(a^b)&s         the borrow out of the top bit
//
// AVX-512 computes each with one VPTERNLOG; AVX2 with three or four
// logic instructions.

// arithUnroll is how many vectors one loop iteration does.
const arithUnroll = 4

var arithOps = []string{"Add", "Sub", "Mul"}

// hasArith reports whether there is a kernel for op, e and form made by
// arith: mul is for 16- and 32-bit types only (vectors have no byte
// multiply, see mul8512, and no 64×64→128 one), and only subtraction has
// a scalar-column form.
func hasArith(e elem, op, form string) bool {
	switch {
	case e.float:
		return false
	case form == "SV":
		return op == "Sub"
	case op == "Mul":
		return e.bits == 16 || e.bits == 32
	}
	return true
}

// hasMul8 reports whether there is an AVX-512 byte multiplication for e
// and form (AVX2 has none: it cannot narrow words to bytes in one step).
func hasMul8(e elem, form string) bool {
	return !e.float && e.bits == 8 && form != "SV"
}

// hasMul64 reports whether there is an AVX-512 64-bit multiplication for
// e and form (mul64512; AVX2 has no 64-bit multiply).
func hasMul64(e elem, form string) bool {
	return !e.float && e.bits == 64 && form != "SV"
}

// arithForms: both operands columns, a column and a scalar, a scalar and
// a column (subtraction only: addition commutes).
var arithForms = []string{"VV", "VS", "SV"}

func arithName(e elem, op, form, isa string) string {
	return fmt.Sprintf("%s%s%s%s", map[string]string{"Add": "add", "Sub": "sub", "Mul": "mul"}[op], e.name, form, isa)
}

func arithSignature(e elem, form string) string {
	switch form {
	case "VS":
		return fmt.Sprintf("func(dst, a []%s, y %s) bool", e.gotype, e.gotype)
	case "SV":
		return fmt.Sprintf("func(dst []%s, x %s, b []%s) bool", e.gotype, e.gotype, e.gotype)
	}
	return fmt.Sprintf("func(dst, a, b []%s) bool", e.gotype)
}

// flagFunc is the flag of a lane as a function of s, a, b (bitwise).
func flagFunc(e elem, op string) func(s, a, b bool) bool {
	switch {
	case e.signed && op == "Add":
		return func(s, a, b bool) bool { return (a != s) && (b != s) }
	case e.signed:
		return func(s, a, b bool) bool { return (a != b) && (a != s) }
	case op == "Add":
		return func(s, a, b bool) bool { return a && b || (a || b) && !s }
	}
	return func(s, a, b bool) bool { return !a && b || !(a != b) && s }
}

// ternImm is VPTERNLOG's immediate for f(A, B, C), A being the
// destination operand.
func ternImm(f func(a, b, c bool) bool) uint8 {
	var imm uint8
	for i := range 8 {
		if f(i&4 != 0, i&2 != 0, i&1 != 0) {
			imm |= 1 << i
		}
	}
	return imm
}

// broadcastParam loads the scalar parameter name into every lane of v.
func broadcastParam(e elem, name string, v reg.VecVirtual) {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	switch e.bits {
	case 8:
		VPBROADCASTB(b.Addr, v)
	case 16:
		VPBROADCASTW(b.Addr, v)
	case 32:
		VBROADCASTSS(b.Addr, v) // vet sizes VPBROADCASTD's operand wrongly
	default:
		VPBROADCASTQ(b.Addr, v)
	}
}

func arith(e elem, op, form string, avx512 bool) {
	isa, vbytes := "AVX2", 32
	if avx512 {
		isa, vbytes = "AVX512", 64
	}
	name := arithName(e, op, form, isa)
	TEXT(name, NOSPLIT, arithSignature(e, form))
	rows := arithUnroll * vbytes / e.size()
	Doc(fmt.Sprintf("%s computes dst = %s for the rows of whole blocks of %d and reports whether one may have overflowed (%s).",
		name, map[string]string{"VV": "a OP b", "VS": "a OP y", "SV": "x OP b"}[form], rows, isa))
	newVec := func() reg.VecVirtual {
		if avx512 {
			return ZMM()
		}
		return YMM()
	}
	dst := Load(Param("dst").Base(), GP64())
	var pa, pb reg.Register
	var va, vb reg.VecVirtual
	var n reg.Register
	switch form {
	case "VV":
		pa = Load(Param("a").Base(), GP64())
		pb = Load(Param("b").Base(), GP64())
		n = Load(Param("a").Len(), GP64())
	case "VS":
		pa = Load(Param("a").Base(), GP64())
		n = Load(Param("a").Len(), GP64())
		vb = newVec()
		broadcastParam(e, "y", vb)
	default:
		pb = Load(Param("b").Base(), GP64())
		n = Load(Param("b").Len(), GP64())
		va = newVec()
		broadcastParam(e, "x", va)
	}
	acc := newVec()
	if avx512 {
		VPXORQ(acc, acc, acc)
	} else {
		VPXOR(acc, acc, acc)
	}
	SHRQ(U8(bits.TrailingZeros(uint(rows))), n)
	JZ(LabelRef("done"))
	Label("loop")
	load := func(p reg.Register, i int) reg.VecVirtual {
		x := newVec()
		if avx512 {
			VMOVDQU64(Mem{Base: p, Disp: vbytes * i}, x)
		} else {
			VMOVDQU(Mem{Base: p, Disp: vbytes * i}, x)
		}
		return x
	}
	for i := range arithUnroll {
		x, y := va, vb
		if pa != nil {
			x = load(pa, i)
		}
		if pb != nil {
			y = load(pb, i)
		}
		if op == "Mul" {
			mulVector(e, x, y, acc, Mem{Base: dst, Disp: vbytes * i}, avx512, newVec)
			continue
		}
		s := newVec()
		inst := map[string]map[int]func(...Op){
			"Add": {8: VPADDB, 16: VPADDW, 32: VPADDD, 64: VPADDQ},
			"Sub": {8: VPSUBB, 16: VPSUBW, 32: VPSUBD, 64: VPSUBQ},
		}[op][e.bits]
		inst(y, x, s) // s = x op y
		if avx512 {
			VMOVDQU64(s, Mem{Base: dst, Disp: vbytes * i})
			VPTERNLOGQ(U8(ternImm(flagFunc(e, op))), y, x, s)
			VPORQ(s, acc, acc)
			continue
		}
		VMOVDQU(s, Mem{Base: dst, Disp: vbytes * i})
		t := newVec()
		switch {
		case e.signed && op == "Add":
			VPXOR(s, x, t)
			VPXOR(s, y, s)
			VPAND(s, t, t)
		case e.signed:
			VPXOR(y, x, t)
			VPXOR(s, x, s)
			VPAND(s, t, t)
		case op == "Add":
			t2 := newVec()
			VPAND(y, x, t)    // a&b
			VPOR(y, x, t2)    // a|b
			VPANDN(t2, s, t2) // (a|b)&^s
			VPOR(t2, t, t)
		default:
			t2 := newVec()
			VPANDN(y, x, t)   // ^a&b
			VPXOR(y, x, t2)   // a^b
			VPANDN(s, t2, t2) // ^(a^b)&s
			VPOR(t2, t, t)
		}
		VPOR(t, acc, acc)
	}
	if pa != nil {
		ADDQ(U32(arithUnroll*vbytes), pa)
	}
	if pb != nil {
		ADDQ(U32(arithUnroll*vbytes), pb)
	}
	ADDQ(U32(arithUnroll*vbytes), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	// Some lane's sign bit set?
	var pattern uint64
	for i := 0; i < 64; i += e.bits {
		pattern |= 1 << (i + e.bits - 1)
	}
	if op == "Mul" {
		pattern = ^uint64(0) // mulVector's flags are nonzero on overflow
	}
	m := GP64()
	MOVQ(U64(pattern), m)
	mask := newVec()
	r := GP8()
	if avx512 {
		VPBROADCASTQ(m, mask)
		k := K()
		VPTESTMQ(mask, acc, k)
		KORTESTW(k, k)
	} else {
		MOVQ(m, mask.AsX())
		VPBROADCASTQ(mask.AsX(), mask)
		VPTEST(mask, acc)
	}
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// mulVector stores x*y (the low half of each product) at m and ORs into
// acc a flag that is nonzero where the product does not fit the lane:
//
//	16 bits  the high half (VPMULH[U]W) differs from the low half's sign
//	         extension (unsigned: is not zero)
//	32 bits  the 64-bit products of the even lanes, and of the odd ones
//	         shifted down (VPMUL[U]DQ), have a high half that differs
//	         from the low half's sign extension (unsigned: is not zero)
func mulVector(e elem, x, y, acc reg.VecVirtual, m Mem, avx512 bool, newVec func() reg.VecVirtual) {
	lo := newVec()
	store := func(v reg.VecVirtual) {
		if avx512 {
			VMOVDQU64(v, m)
		} else {
			VMOVDQU(v, m)
		}
	}
	or := func(t reg.VecVirtual) {
		if avx512 {
			VPORQ(t, acc, acc)
		} else {
			VPOR(t, acc, acc)
		}
	}
	xor := func(a, b, d reg.VecVirtual) {
		if avx512 {
			VPXORQ(a, b, d)
		} else {
			VPXOR(a, b, d)
		}
	}
	if e.bits == 16 {
		VPMULLW(y, x, lo)
		store(lo)
		hi := newVec()
		if e.signed {
			VPMULHW(y, x, hi)
			VPSRAW(U8(15), lo, lo)
			xor(lo, hi, hi)
		} else {
			VPMULHUW(y, x, hi)
		}
		or(hi)
		return
	}
	VPMULLD(y, x, lo)
	store(lo)
	xo, yo := newVec(), newVec()
	VPSRLQ(U8(32), x, xo)
	VPSRLQ(U8(32), y, yo)
	for _, pair := range [][2]reg.VecVirtual{{x, y}, {xo, yo}} {
		p := newVec()
		if e.signed {
			VPMULDQ(pair[1], pair[0], p)
			t := newVec()
			VPSRAD(U8(31), p, t) // the even dword: the low half's sign
			VPSLLQ(U8(32), t, t) // moved to the odd dword, under the high half
			xor(p, t, t)         // the high half against it
			VPSRLQ(U8(32), t, t) // the low half dropped
			or(t)
		} else {
			VPMULUDQ(pair[1], pair[0], p)
			VPSRLQ(U8(32), p, p) // the high half
			or(p)
		}
	}
}

// mul8512 writes the AVX-512 (BW) checked multiplication of bytes, which
// vectors cannot multiply: 32 bytes at a time are widened to words
// (VPMOVSXBW, VPMOVZXBW), multiplied exactly in 16 bits, stored narrowed
// (VPMOVWB), and flagged where the product is not its own low byte
// sign-extended (unsigned: has a high byte).
func mul8512(e elem, form string) {
	name := arithName(e, "Mul", form, "AVX512")
	TEXT(name, NOSPLIT, arithSignature(e, form))
	rows := arithUnroll * 64
	Doc(fmt.Sprintf("%s computes dst = %s for the rows of whole blocks of %d and reports whether one may have overflowed (AVX512).",
		name, map[string]string{"VV": "a * b", "VS": "a * y"}[form], rows))
	widen := VPMOVZXBW
	if e.signed {
		widen = VPMOVSXBW
	}
	dst := Load(Param("dst").Base(), GP64())
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var pb reg.Register
	var vy reg.VecVirtual
	if form == "VV" {
		pb = Load(Param("b").Base(), GP64())
	} else {
		b, err := Param("y").Resolve()
		if err != nil {
			panic(err)
		}
		vy = ZMM()
		t := GP32()
		if e.signed {
			MOVBLSX(b.Addr, t)
		} else {
			MOVBLZX(b.Addr, t)
		}
		VPBROADCASTW(t, vy)
	}
	acc := ZMM()
	VPXORQ(acc, acc, acc)
	SHRQ(U8(bits.TrailingZeros(uint(rows))), n)
	JZ(LabelRef("done"))
	Label("loop")
	for i := range rows / 32 {
		x := ZMM()
		widen(Mem{Base: pa, Disp: 32 * i}, x)
		y := vy
		if pb != nil {
			y = ZMM()
			widen(Mem{Base: pb, Disp: 32 * i}, y)
		}
		VPMULLW(y, x, x)
		VPMOVWB(x, Mem{Base: dst, Disp: 32 * i})
		if e.signed {
			t := ZMM()
			VPSLLW(U8(8), x, t)
			VPSRAW(U8(8), t, t)
			VPXORQ(x, t, t)
			VPORQ(t, acc, acc)
		} else {
			VPSRLW(U8(8), x, x)
			VPORQ(x, acc, acc)
		}
	}
	ADDQ(U32(rows), pa)
	if pb != nil {
		ADDQ(U32(rows), pb)
	}
	ADDQ(U32(rows), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	r := GP8()
	k := K()
	VPTESTMQ(acc, acc, k)
	KORTESTW(k, k)
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// mul64512 writes the AVX-512 (DQ, CD) checked multiplication of 64-bit
// integers. VPMULLQ gives every product's low word, which is the result;
// there is no vector instruction for the high word, so the flag is a
// bound instead of the exact test: a lane is flagged when its operands'
// significant bits (of their magnitudes, for signed ones; VPLZCNTQ) sum
// to more than 63 (signed) or 64 (unsigned), which every overflowing
// product does and few others do. A flag only sends the caller to its
// row-by-row rescan, which finds the row that overflows, if any.
func mul64512(e elem, form string) {
	name := arithName(e, "Mul", form, "AVX512")
	TEXT(name, NOSPLIT, arithSignature(e, form))
	rows := arithUnroll * 8
	Doc(fmt.Sprintf("%s computes dst = %s for the rows of whole blocks of %d and reports whether one may have overflowed (AVX512 F, DQ, CD).",
		name, map[string]string{"VV": "a * b", "VS": "a * y"}[form], rows))
	dst := Load(Param("dst").Base(), GP64())
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var pb reg.Register
	var vy, ly reg.VecVirtual
	if form == "VV" {
		pb = Load(Param("b").Base(), GP64())
	} else {
		vy = ZMM()
		broadcastParam(e, "y", vy)
		// The scalar's leading zeros, once.
		ly = ZMM()
		if e.signed {
			VPABSQ(vy, ly)
			VPLZCNTQ(ly, ly)
		} else {
			VPLZCNTQ(vy, ly)
		}
	}
	// limit: a lane is flagged when its operands' leading zeros sum to
	// less than this.
	limit := GP64()
	if e.signed {
		MOVQ(U64(65), limit)
	} else {
		MOVQ(U64(64), limit)
	}
	lim := ZMM()
	VPBROADCASTQ(limit, lim)
	acc := ZMM()
	VPXORQ(acc, acc, acc)
	SHRQ(U8(bits.TrailingZeros(uint(rows))), n)
	JZ(LabelRef("done"))
	Label("loop")
	lz := func(v reg.VecVirtual) reg.VecVirtual {
		t := ZMM()
		if e.signed {
			VPABSQ(v, t)
			VPLZCNTQ(t, t)
		} else {
			VPLZCNTQ(v, t)
		}
		return t
	}
	for i := range arithUnroll {
		x := ZMM()
		VMOVDQU64(Mem{Base: pa, Disp: 64 * i}, x)
		y, yl := vy, ly
		if pb != nil {
			y = ZMM()
			VMOVDQU64(Mem{Base: pb, Disp: 64 * i}, y)
			yl = lz(y)
		}
		p := ZMM()
		VPMULLQ(y, x, p)
		VMOVDQU64(p, Mem{Base: dst, Disp: 64 * i})
		s := lz(x)
		VPADDQ(yl, s, s)
		VPSUBQ(lim, s, s) // negative where flagged
		VPORQ(s, acc, acc)
	}
	ADDQ(U32(arithUnroll*64), pa)
	if pb != nil {
		ADDQ(U32(arithUnroll*64), pb)
	}
	ADDQ(U32(arithUnroll*64), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	m := GP64()
	MOVQ(U64(1<<63), m)
	mask := ZMM()
	VPBROADCASTQ(m, mask)
	k := K()
	VPTESTMQ(mask, acc, k)
	KORTESTW(k, k)
	r := GP8()
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
