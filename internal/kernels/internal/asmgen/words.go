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
