package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// wordsOps are the bitwise kernels over whole words of bitmaps: AND and OR
// of two (Kleene logic without nulls) and NOT of one.
var wordsOps = []string{"And", "Or", "Not"}

// words writes dst = x op y (or ^x) for the words of whole blocks of
// four vectors, and returns how many words it did.
func words(op string, avx512 bool) {
	isa, vbytes := "AVX2", 32
	if avx512 {
		isa, vbytes = "AVX512", 64
	}
	name := fmt.Sprintf("words%s%s", op, isa)
	sig := "func(dst, x, y []uint64) int"
	if op == "Not" {
		sig = "func(dst, x []uint64) int"
	}
	TEXT(name, NOSPLIT, sig)
	block := 4 * vbytes / 8
	Doc(fmt.Sprintf("%s computes dst = %s for the words of whole blocks of %d, and returns how many words it did (%s).",
		name, map[string]string{"And": "x & y", "Or": "x | y", "Not": "^x"}[op], block, isa))
	pd := Load(Param("dst").Base(), GP64())
	px := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	var py reg.Register
	if op != "Not" {
		py = Load(Param("y").Base(), GP64())
	}
	newVec := func() reg.VecVirtual {
		if avx512 {
			return ZMM()
		}
		return YMM()
	}
	ones := newVec()
	if op == "Not" {
		if avx512 {
			VPTERNLOGQ(U8(0xff), ones, ones, ones)
		} else {
			VPCMPEQQ(ones, ones, ones)
		}
	}
	done := GP64()
	MOVQ(n, done)
	ANDQ(U32(^uint32(block-1)), done)
	SHRQ(U8(map[int]uint8{16: 4, 32: 5}[block]), n)
	JZ(LabelRef("done"))
	Label("loop")
	for i := range 4 {
		m := Mem{Base: px, Disp: vbytes * i}
		v := newVec()
		switch {
		case op == "Not" && avx512:
			VPXORQ(m, ones, v)
		case op == "Not":
			VPXOR(m, ones, v)
		default:
			if avx512 {
				VMOVDQU64(Mem{Base: py, Disp: vbytes * i}, v)
			} else {
				VMOVDQU(Mem{Base: py, Disp: vbytes * i}, v)
			}
			f := map[bool]map[string]func(...Op){
				true:  {"And": VPANDQ, "Or": VPORQ},
				false: {"And": func(o ...Op) { VPAND(o[0], o[1], o[2]) }, "Or": func(o ...Op) { VPOR(o[0], o[1], o[2]) }},
			}[avx512][op]
			f(m, v, v)
		}
		if avx512 {
			VMOVDQU64(v, Mem{Base: pd, Disp: vbytes * i})
		} else {
			VMOVDQU(v, Mem{Base: pd, Disp: vbytes * i})
		}
	}
	for _, p := range []reg.Register{pd, px, py} {
		if p != nil {
			ADDQ(U32(4*vbytes), p)
		}
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// kleeneHalf writes the Kleene AND (or OR) kernel for word-aligned
// bitmaps where only y has nulls: x's validity is all ones, so
//
//	AND: value = x & y, valid = vy | ^x
//	OR:  value = x | y, valid = vy | x
//
// It returns how many words it did (whole blocks of four vectors); the
// caller counts the nulls.
func kleeneHalf(or, avx512 bool) {
	opName, isa, vbytes := "And", "AVX2", 32
	if or {
		opName = "Or"
	}
	if avx512 {
		isa, vbytes = "AVX512", 64
	}
	name := fmt.Sprintf("kleeneHalf%s%s", opName, isa)
	TEXT(name, NOSPLIT, "func(words, valid, x, y, vy []uint64) int")
	block := 4 * vbytes / 8
	Doc(fmt.Sprintf("%s computes the value and validity words of x %s y (Kleene) where only y has nulls, for the words of whole blocks of %d, and returns how many words it did (%s).",
		name, map[bool]string{false: "AND", true: "OR"}[or], block, isa))
	pw := Load(Param("words").Base(), GP64())
	pv := Load(Param("valid").Base(), GP64())
	px := Load(Param("x").Base(), GP64())
	py := Load(Param("y").Base(), GP64())
	pvy := Load(Param("vy").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
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
	store := func(v reg.VecVirtual, p reg.Register, i int) {
		if avx512 {
			VMOVDQU64(v, Mem{Base: p, Disp: vbytes * i})
		} else {
			VMOVDQU(v, Mem{Base: p, Disp: vbytes * i})
		}
	}
	ones := newVec()
	if !or && !avx512 {
		VPCMPEQQ(ones, ones, ones)
	}
	done := GP64()
	MOVQ(n, done)
	ANDQ(U32(^uint32(block-1)), done)
	SHRQ(U8(map[int]uint8{16: 4, 32: 5}[block]), n)
	JZ(LabelRef("done"))
	Label("loop")
	for i := range 4 {
		x, y, vy := load(px, i), load(py, i), load(pvy, i)
		w := newVec()
		switch {
		case avx512 && or:
			VPORQ(y, x, w)
			VPORQ(x, vy, vy)
		case avx512:
			VPANDQ(y, x, w)
			// vy | ^x
			VPTERNLOGQ(U8(ternImm(func(a, b, _ bool) bool { return a || !b })), x, x, vy)
		case or:
			VPOR(y, x, w)
			VPOR(x, vy, vy)
		default:
			VPAND(y, x, w)
			VPANDN(x, vy, vy) // ^vy & x
			VPXOR(ones, vy, vy)
		}
		store(w, pw, i)
		store(vy, pv, i)
	}
	for _, p := range []reg.Register{pw, pv, px, py, pvy} {
		ADDQ(U32(4*vbytes), p)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
