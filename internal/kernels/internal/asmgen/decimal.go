package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The comparison kernels of decimals of at most 18 digits: their 128-bit
// values fit the low word, which is compared as an int64 (as
// compare_loops.go's Dec loops do). The values are read as words, two a
// row; the low words of a vector's rows are picked out with VPERMT2Q
// (AVX-512) or VPUNPCKLQDQ and VPERMQ (AVX2), then compared as the i64
// kernels compare.

var decVSOps = []string{"Eq", "Lt", "Le", "Gt", "Ge"}
var decVVOps = []string{"Eq", "Lt", "Le"}

var d18 = elem{"D18", "uint64", 64, true, false}

func decName(op, isa string, vv bool) string {
	form := "VS"
	if vv {
		form = "VV"
	}
	return fmt.Sprintf("cmp%sD18%s%s", op, form, isa)
}

func decSignature(vv bool) string {
	if vv {
		return "func(dst []uint64, a, b []uint64)"
	}
	return "func(dst []uint64, a []uint64, s int64)"
}

func decDoc(op, isa string, vv bool) {
	Doc(fmt.Sprintf("%s sets a bit of dst for each decimal of a %s, reading the low words of a's rows (two words a row), for the len(a)/128 whole blocks of 64 rows (%s).",
		decName(op, isa, vv), cmpDesc(op, vv), isa))
}

func cmpDec512(op string, vv bool) {
	TEXT(decName(op, "AVX512", vv), NOSPLIT, decSignature(vv))
	decDoc(op, "AVX512", vv)
	dst := Load(Param("dst").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var b reg.Register
	var s reg.VecVirtual
	if vv {
		b = Load(Param("b").Base(), GP64())
	} else {
		s = ZMM()
		broadcastParam(d18, "s", s)
	}
	// idx picks the even words of two vectors: 0, 2, …, 14.
	idx := ZMM()
	t := GP64()
	MOVQ(U64(0x0e0c0a0806040200), t)
	MOVQ(t, idx.AsX())
	VPMOVZXBQ(idx.AsX(), idx)
	SHRQ(U8(7), n)
	JZ(LabelRef("done"))
	Label("loop")
	lows := func(p reg.Register, i int) reg.VecVirtual {
		v := ZMM()
		VMOVDQU64(Mem{Base: p, Disp: 128 * i}, v)
		VPERMT2Q(Mem{Base: p, Disp: 128*i + 64}, idx, v)
		return v
	}
	var block func(lo, count int) reg.Register
	block = func(lo, count int) reg.Register {
		if count == 1 {
			k := K()
			x := lows(a, lo)
			if vv {
				cmp512Instr(d18, op, lows(b, lo), x, k)
			} else {
				cmp512Instr(d18, flipOp[op], x, s, k)
			}
			return k
		}
		l, h := block(lo, count/2), block(lo+count/2, count/2)
		k := K()
		switch count / 2 * 8 {
		case 8:
			KUNPCKBW(l, h, k)
		case 16:
			KUNPCKWD(l, h, k)
		default:
			KUNPCKDQ(l, h, k)
		}
		return k
	}
	KMOVQ(block(0, 8), Mem{Base: dst})
	ADDQ(U32(1024), a)
	if vv {
		ADDQ(U32(1024), b)
	}
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	VZEROUPPER()
	RET()
}

func cmpDecAVX2(op string, vv bool) {
	TEXT(decName(op, "AVX2", vv), NOSPLIT, decSignature(vv))
	decDoc(op, "AVX2", vv)
	dst := Load(Param("dst").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var b reg.Register
	var s reg.VecVirtual
	if vv {
		b = Load(Param("b").Base(), GP64())
	} else {
		s = YMM()
		broadcastParam(d18, "s", s)
	}
	cop, not := op, false
	switch op {
	case "Le":
		cop, not = "Gt", true
	case "Ge":
		cop, not = "Lt", true
	}
	SHRQ(U8(7), n)
	JZ(LabelRef("done"))
	Label("loop")
	w, t := GP64(), GP64()
	XORQ(w, w)
	lows := func(p reg.Register, i int) reg.VecVirtual {
		v := YMM()
		VMOVDQU(Mem{Base: p, Disp: 64 * i}, v)
		VPUNPCKLQDQ(Mem{Base: p, Disp: 64*i + 32}, v, v) // rows 0, 2, 1, 3
		VPERMQ(U8(0xd8), v, v)
		return v
	}
	for i := range 16 {
		x := lows(a, i)
		var y reg.Register = s
		if vv {
			y = lows(b, i)
		}
		switch cop {
		case "Eq":
			VPCMPEQQ(y, x, x)
		case "Gt":
			VPCMPGTQ(y, x, x) // x > y
		default:
			VPCMPGTQ(x, y, x) // y > x
		}
		VMOVMSKPD(x, t.As32())
		if i > 0 {
			SHLQ(U8(4*i), t)
		}
		ORQ(t, w)
	}
	if not {
		NOTQ(w)
	}
	MOVQ(w, Mem{Base: dst})
	ADDQ(U32(1024), a)
	if vv {
		ADDQ(U32(1024), b)
	}
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	VZEROUPPER()
	RET()
}
