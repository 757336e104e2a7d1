package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// selectRows512 writes the AVX-512 kernel of bitmap → selection vector:
// for each word of the bitmap (read 8 bytes at a time, unaligned), the
// rows of its set bits, in order, by VPCOMPRESSD of the row numbers in
// four 16-bit steps; each step stores a whole vector (16 rows) and moves
// on by the popcount of its bits, so a word may write up to 16 slots past
// its last row. Zero words cost a test. It stops early, before a word,
// when fewer than 64 slots are left in dst.
func selectRows512() {
	TEXT("selectRowsAVX512", NOSPLIT, "func(dst []int32, bm []byte, words int) (done, k int)")
	Doc("selectRowsAVX512 writes to dst the rows of the set bits of the first words words of bm, from row 0, and returns how many words it did and how many rows it wrote (AVX-512 F, POPCNT).")
	pd := Load(Param("dst").Base(), GP64())
	room := Load(Param("dst").Len(), GP64())
	pb := Load(Param("bm").Base(), GP64())
	nw := Load(Param("words"), GP64())
	done, k := GP64(), GP64()
	XORQ(done, done)
	XORQ(k, k)
	// rows: the row numbers of the next 16 bits, from [0, 1, …, 15].
	rows, c16, c64 := ZMM(), ZMM(), ZMM()
	t := GP64()
	MOVQ(U64(0x0706050403020100), t)
	MOVQ(t, rows.AsX())
	MOVQ(U64(0x0f0e0d0c0b0a0908), t)
	VPINSRQ(U8(1), t, rows.AsX(), rows.AsX())
	VPMOVZXBD(rows.AsX(), rows)
	MOVL(U32(16), t.As32())
	VPBROADCASTD(t.As32(), c16)
	MOVL(U32(64), t.As32())
	VPBROADCASTD(t.As32(), c64)
	w, c := GP64(), GP64()
	Label("loop")
	CMPQ(done, nw)
	JAE(LabelRef("stop"))
	LEAQ(Mem{Base: k, Disp: 64}, t)
	CMPQ(t, room)
	JA(LabelRef("stop"))
	MOVQ(Mem{Base: pb, Index: done, Scale: 8}, w)
	INCQ(done)
	TESTQ(w, w)
	JZ(LabelRef("zero"))
	for j := range 4 {
		m := K()
		KMOVW(w.As32(), m)
		v := ZMM()
		VPCOMPRESSD_Z(rows, m, v)
		VMOVDQU32(v, Mem{Base: pd, Index: k, Scale: 4})
		MOVWLZX(w.As16(), c.As32())
		POPCNTL(c.As32(), c.As32())
		ADDQ(c, k)
		if j < 3 {
			SHRQ(U8(16), w)
		}
		VPADDD(c16, rows, rows)
	}
	JMP(LabelRef("loop"))
	Label("zero")
	VPADDD(c64, rows, rows)
	JMP(LabelRef("loop"))
	Label("stop")
	Store(done, ReturnIndex(0))
	Store(k, ReturnIndex(1))
	VZEROUPPER()
	RET()
}
