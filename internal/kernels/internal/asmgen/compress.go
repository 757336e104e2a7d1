package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The kernels of filtering a fixed-width column by a bitmap (compress):
// the values of the rows whose bit is set, in order, packed to the front
// of dst. Each reads the bitmap a word (64 rows) at a time, unaligned,
// from row 0, and checks before a word that dst has room for everything
// the word may write; it stops there otherwise (or after words words) and
// returns how many words it did and how many values (32- and 64-bit
// kernels) or 64-bit halves (the 128-bit kernel) it wrote. A zero word
// costs a test, a word of ones is copied.

// compressSig is the Go signature of a compress kernel of 32 or 64 bits
// (128-bit values are pairs of 64-bit ones).
func compressSig(bits int) string {
	t := "uint64"
	if bits == 32 {
		t = "uint32"
	}
	return fmt.Sprintf("func(dst, src []%s, bm []byte, words int) (done, k int)", t)
}

// compressRegs is the registers of a compress kernel.
type compressRegs struct {
	pd, ps, room, pb, nw reg.GPVirtual // dst, src, len(dst), bm, words
	done, k, w           reg.GPVirtual // words done, values written, the word
}

// compressParams loads the parameters of a compress kernel.
func compressParams() compressRegs {
	var r compressRegs
	r.pd, r.room, r.ps, r.pb, r.nw = GP64(), GP64(), GP64(), GP64(), GP64()
	Load(Param("dst").Base(), r.pd)
	Load(Param("dst").Len(), r.room)
	Load(Param("src").Base(), r.ps)
	Load(Param("bm").Base(), r.pb)
	Load(Param("words"), r.nw)
	r.done, r.k, r.w = GP64(), GP64(), GP64()
	XORQ(r.done, r.done)
	XORQ(r.k, r.k)
	return r
}

// compressLoop starts the loop over the words of bm: it stops (to label
// stop) after words words or when room - k is less than the word's
// popcount times perRow plus slack, skips a zero word (to label next,
// which moves src on) and jumps to label full for a word of ones.
func compressLoop(r compressRegs, perRow, slack int) {
	c, t := GP64(), GP64()
	Label("loop")
	CMPQ(r.done, r.nw)
	JAE(LabelRef("stop"))
	MOVQ(Mem{Base: r.pb, Index: r.done, Scale: 8}, r.w)
	POPCNTQ(r.w, c)
	if perRow == 2 {
		SHLQ(U8(1), c)
	}
	LEAQ(Mem{Base: r.k, Index: c, Scale: 1, Disp: slack}, t)
	CMPQ(t, r.room)
	JA(LabelRef("stop"))
	INCQ(r.done)
	TESTQ(r.w, r.w)
	JZ(LabelRef("next"))
	CMPQ(r.w, I8(-1))
	JE(LabelRef("full"))
}

// compressStop ends the kernel: label stop returns done and k.
func compressStop(r compressRegs) {
	Label("stop")
	Store(r.done, ReturnIndex(0))
	Store(r.k, ReturnIndex(1))
	VZEROUPPER()
	RET()
}

// compressFull copies the 64 rows of a word of ones (bytes of them) from
// src to dst at k (scale: the bytes of what k counts) with vectors of
// width bytes, adds them to k and jumps to next.
func compressFull(pd, ps, k reg.GPVirtual, bytes, width, scale int) {
	Label("full")
	for i := 0; i < bytes; i += width {
		var v reg.VecVirtual
		if width == 64 {
			v = ZMM()
			VMOVDQU64(Mem{Base: ps, Disp: i}, v)
			VMOVDQU64(v, Mem{Base: pd, Index: k, Scale: uint8(scale), Disp: i})
		} else {
			v = YMM()
			VMOVDQU(Mem{Base: ps, Disp: i}, v)
			VMOVDQU(v, Mem{Base: pd, Index: k, Scale: uint8(scale), Disp: i})
		}
	}
	ADDQ(U32(bytes/scale), k)
	Label("next")
	ADDQ(U32(bytes), ps)
	JMP(LabelRef("loop"))
}

// compress512 writes the AVX-512 compress kernel of 32- or 64-bit
// values, or of 128-bit ones as pairs of 64-bit halves: a vector of
// values (16, 8 or 4 rows) is loaded, packed by VPCOMPRESSD/Q under the
// word's bits for its rows (each bit doubled for 128-bit values, by a
// PDEP of the word's halves), and stored under a mask of as many lanes as
// there were bits (BZHI), so that nothing is written past the values
// kept: the kernel needs only their room.
func compress512(bits int) {
	name := fmt.Sprintf("compress%dAVX512", bits)
	TEXT(name, NOSPLIT, compressSig(bits))
	what := "values"
	if bits == 128 {
		what = "values of 128 bits (pairs of uint64; k counts halves)"
	}
	Doc(fmt.Sprintf("%s writes to dst the %s of src whose bit is set in the first words words of bm and returns how many words it did and how many uint%d it wrote (AVX-512 F, BMI2, POPCNT).",
		name, what, min(bits, 64)))
	perRow := 1
	if bits == 128 {
		perRow = 2
	}
	r := compressParams()
	pd, ps, k, w := r.pd, r.ps, r.k, r.w
	ones, spread := GP64(), GP64()
	MOVQ(I64(-1), ones)
	if bits == 128 {
		MOVQ(U64(0x5555555555555555), spread)
	}
	compressLoop(r, perRow, 0)
	lanes := 512 / min(bits, 64)
	scale := min(bits, 64) / 8
	c, t := GP64(), GP64()
	// step packs the values of one vector at byte disp of src under the
	// mask in the low lanes bits of m.
	step := func(m reg.GPVirtual, disp int) {
		km, ks := K(), K()
		KMOVW(m.As32(), km)
		v := ZMM()
		if bits == 32 {
			VMOVDQU32(Mem{Base: ps, Disp: disp}, v)
			VPCOMPRESSD_Z(v, km, v)
		} else {
			VMOVDQU64(Mem{Base: ps, Disp: disp}, v)
			VPCOMPRESSQ_Z(v, km, v)
		}
		if lanes == 16 {
			MOVWLZX(m.As16(), c.As32())
		} else {
			MOVBLZX(m.As8(), c.As32())
		}
		POPCNTL(c.As32(), c.As32())
		BZHIQ(c, ones, t)
		KMOVW(t.As32(), ks)
		if bits == 32 {
			VMOVDQU32(v, ks, Mem{Base: pd, Index: k, Scale: uint8(scale)})
		} else {
			VMOVDQU64(v, ks, Mem{Base: pd, Index: k, Scale: uint8(scale)})
		}
		ADDQ(c, k)
	}
	if bits < 128 {
		for j := range 64 / lanes {
			step(w, 64*j)
			if j < 64/lanes-1 {
				SHRQ(U8(lanes), w)
			}
		}
	} else {
		// Each half word's 32 bits, doubled into 64 mask bits of 8 lanes a
		// vector: PDEP spreads them to the even bits, ×3 copies them up.
		d := GP64()
		for h := range 2 {
			if h == 1 {
				SHRQ(U8(32), w)
			}
			MOVL(w.As32(), d.As32())
			PDEPQ(spread, d, d)
			LEAQ(Mem{Base: d, Index: d, Scale: 2}, d)
			for j := range 8 {
				step(d, 64*(8*h+j))
				if j < 7 {
					SHRQ(U8(8), d)
				}
			}
		}
	}
	JMP(LabelRef("next"))
	compressFull(pd, ps, k, 64*bits/8, 64, scale)
	compressStop(r)
}

// compress2 writes the AVX2 compress kernel of 32- or 64-bit values,
// which has no compress instruction: VPERMD packs a vector by a table
// entry — for 32-bit values the set-bit positions of a byte
// (selectBytesLUT, 8 rows a step), for 64-bit ones the pairs of 32-bit
// lanes of a nibble's (compress64LUT, 16 × 8 int32, 4 rows a step) — and
// the whole vector is stored, so a step writes up to a vector past its
// last value: the kernel stops before a word when dst has not that much
// room after the word's values.
func compress2(bits int) {
	var lut Mem
	if bits == 32 {
		lut = selectBytesLUT()
	} else {
		lut = GLOBL("compress64LUT", RODATA|NOPTR)
		for b := range 16 {
			k := 0
			for bit := range 4 {
				if b>>bit&1 != 0 {
					DATA(b*32+4*k, U32(2*bit))
					DATA(b*32+4*k+4, U32(2*bit+1))
					k += 2
				}
			}
			for ; k < 8; k++ {
				DATA(b*32+4*k, U32(0))
			}
		}
	}
	name := fmt.Sprintf("compress%dAVX2", bits)
	TEXT(name, NOSPLIT, compressSig(bits))
	Doc(fmt.Sprintf("%s writes to dst the values of src whose bit is set in the first words words of bm and returns how many words it did and how many values it wrote (AVX2, POPCNT).", name))
	lanes := 256 / bits
	r := compressParams()
	pd, ps, k, w := r.pd, r.ps, r.k, r.w
	tab := GP64()
	LEAQ(lut, tab)
	compressLoop(r, 1, lanes)
	scale := bits / 8
	c, t := GP64(), GP64()
	for j := range 64 / lanes {
		MOVL(w.As32(), t.As32())
		ANDL(U32(1<<lanes-1), t.As32())
		POPCNTL(t.As32(), c.As32())
		SHLL(U8(5), t.As32())
		idx, v := YMM(), YMM()
		VMOVDQU(Mem{Base: tab, Index: t, Scale: 1}, idx)
		VPERMD(Mem{Base: ps, Disp: 32 * j}, idx, v)
		VMOVDQU(v, Mem{Base: pd, Index: k, Scale: uint8(scale)})
		ADDQ(c, k)
		if j < 64/lanes-1 {
			SHRQ(U8(lanes), w)
		}
	}
	JMP(LabelRef("next"))
	compressFull(pd, ps, k, 64*scale, 32, scale)
	compressStop(r)
}
