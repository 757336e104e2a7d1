package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// kleeneUnroll is how many vectors of words one loop iteration does.
const kleeneUnroll = 2

// kleene writes the Kleene AND (or OR) kernel over word-aligned bitmaps
// with nulls on both sides: with x, y the value words and vx, vy the
// validity words,
//
//	AND: value = x & y, valid = vx&vy | vx&^x | vy&^y
//	OR:  value = x | y, valid = vx&vy | vx&x | vy&y
//
// (boolean.go), and the count of valid rows: by POPCNT of each stored
// validity word (AVX2), or VPOPCNTQ into a vector of counts (AVX-512, its
// VPOPCNTDQ extension: POPCNT of words just stored from a ZMM register
// measured slower than the AVX2 kernel). AVX-512 computes valid with two
// VPTERNLOGs:
// t = vx & (vy | ^x), valid = t | vy&^y (AND; x and y uncomplemented
// for OR).
func kleene(or, avx512 bool) {
	opName, isa, vbytes := "And", "AVX2", 32
	if or {
		opName = "Or"
	}
	if avx512 {
		isa, vbytes = "AVX512", 64
	}
	name := fmt.Sprintf("kleene%s%s", opName, isa)
	TEXT(name, NOSPLIT, "func(words, valid, x, y, vx, vy []uint64) int")
	block := kleeneUnroll * vbytes / 8
	Doc(fmt.Sprintf("%s computes the value and validity words of x %s y (Kleene) for the words of whole blocks of %d, and returns how many of their bits are valid (%s).",
		name, map[bool]string{false: "AND", true: "OR"}[or], block, isa))
	pw := Load(Param("words").Base(), GP64())
	pv := Load(Param("valid").Base(), GP64())
	px := Load(Param("x").Base(), GP64())
	py := Load(Param("y").Base(), GP64())
	pvx := Load(Param("vx").Base(), GP64())
	pvy := Load(Param("vy").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	ones := GP64()
	XORQ(ones, ones)
	var acc reg.VecVirtual // AVX-512: the valid bits' counts, by lane
	if avx512 {
		acc = ZMM()
		VPXORQ(acc, acc, acc)
	}
	SHRQ(U8(map[int]uint8{8: 3, 16: 4}[block]), n)
	JZ(LabelRef("done"))
	Label("loop")
	newVec := func() reg.VecVirtual {
		if avx512 {
			return ZMM()
		}
		return YMM()
	}
	load := func(p reg.Register, i int) reg.VecVirtual {
		v := newVec()
		if avx512 {
			VMOVDQU64(Mem{Base: p, Disp: vbytes * i}, v)
		} else {
			VMOVDQU(Mem{Base: p, Disp: vbytes * i}, v)
		}
		return v
	}
	cnt := GP64()
	for i := range kleeneUnroll {
		x, y, vx, vy := load(px, i), load(py, i), load(pvx, i), load(pvy, i)
		w := newVec()
		if avx512 {
			if or {
				VPORQ(y, x, w)
			} else {
				VPANDQ(y, x, w)
			}
			VMOVDQU64(w, Mem{Base: pw, Disp: vbytes * i})
			if or {
				VPTERNLOGQ(U8(ternImm(func(a, b, c bool) bool { return a && (b || c) })), x, vy, vx)
				VPTERNLOGQ(U8(ternImm(func(a, b, c bool) bool { return a || b && c })), y, vy, vx)
			} else {
				VPTERNLOGQ(U8(ternImm(func(a, b, c bool) bool { return a && (b || !c) })), x, vy, vx)
				VPTERNLOGQ(U8(ternImm(func(a, b, c bool) bool { return a || b && !c })), y, vy, vx)
			}
			VMOVDQU64(vx, Mem{Base: pv, Disp: vbytes * i})
		} else {
			t := newVec()
			VPAND(vy, vx, t) // vx&vy
			if or {
				VPOR(y, x, w)
				VPAND(x, vx, vx) // vx&x
				VPAND(y, vy, vy) // vy&y
			} else {
				VPAND(y, x, w)
				VPANDN(vx, x, vx) // vx&^x
				VPANDN(vy, y, vy) // vy&^y
			}
			VMOVDQU(w, Mem{Base: pw, Disp: vbytes * i})
			VPOR(vx, t, t)
			VPOR(vy, t, t)
			VMOVDQU(t, Mem{Base: pv, Disp: vbytes * i})
		}
		if avx512 {
			p := ZMM()
			VPOPCNTQ(vx, p)
			VPADDQ(p, acc, acc)
			continue
		}
		for j := 0; j < vbytes; j += 8 {
			POPCNTQ(Mem{Base: pv, Disp: vbytes*i + j}, cnt)
			ADDQ(cnt, ones)
		}
	}
	for _, p := range []reg.Register{pw, pv, px, py, pvx, pvy} {
		ADDQ(U32(kleeneUnroll*vbytes), p)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	if avx512 {
		// The eight lanes' counts summed.
		y := YMM()
		VEXTRACTI64X4(U8(1), acc, y)
		VPADDQ(y, acc.AsY(), y)
		x := XMM()
		VEXTRACTI128(U8(1), y, x)
		VPADDQ(x, y.AsX(), x)
		h := XMM()
		VPSHUFD(U8(0x4e), x, h)
		VPADDQ(h, x, x)
		VMOVQ(x, ones)
	}
	Store(ones, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
