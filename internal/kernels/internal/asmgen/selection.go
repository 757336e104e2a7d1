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

// selectRows2 writes the AVX2 kernel of bitmap → selection vector, which
// has no compress instruction: a table gives, for each byte value, the
// positions of its set bits packed to the front (256 × 8 int32, 8 KiB).
// For each byte of a word, the kernel adds the byte's first row to its
// entry, stores the 8 lanes and moves on by the byte's popcount, so a
// byte may write up to 8 slots past its last row. Zero words cost a test.
// It stops early, before a word, when fewer than 64 slots are left in
// dst.
func selectRows2() {
	lut := selectBytesLUT()
	TEXT("selectRowsAVX2", NOSPLIT, "func(dst []int32, bm []byte, words int) (done, k int)")
	Doc("selectRowsAVX2 writes to dst the rows of the set bits of the first words words of bm, from row 0, and returns how many words it did and how many rows it wrote (AVX2, POPCNT).")
	pd := Load(Param("dst").Base(), GP64())
	room := Load(Param("dst").Len(), GP64())
	pb := Load(Param("bm").Base(), GP64())
	nw := Load(Param("words"), GP64())
	done, k := GP64(), GP64()
	XORQ(done, done)
	XORQ(k, k)
	tab := GP64()
	LEAQ(lut, tab)
	// base: the first row of the current byte, in every lane; c8: 8.
	base, c8, c64 := YMM(), YMM(), YMM()
	t := GP64()
	VPXOR(base, base, base)
	MOVL(U32(8), t.As32())
	MOVQ(t, c8.AsX())
	VPBROADCASTD(c8.AsX(), c8)
	MOVL(U32(64), t.As32())
	MOVQ(t, c64.AsX())
	VPBROADCASTD(c64.AsX(), c64)
	w, b, c := GP64(), GP64(), GP64()
	Label("loop2")
	CMPQ(done, nw)
	JAE(LabelRef("stop2"))
	LEAQ(Mem{Base: k, Disp: 64}, t)
	CMPQ(t, room)
	JA(LabelRef("stop2"))
	MOVQ(Mem{Base: pb, Index: done, Scale: 8}, w)
	INCQ(done)
	TESTQ(w, w)
	JZ(LabelRef("zero2"))
	for j := range 8 {
		MOVBQZX(w.As8(), b)
		v := YMM()
		MOVQ(b, t)
		SHLQ(U8(5), t)
		VPADDD(Mem{Base: tab, Index: t, Scale: 1}, base, v)
		VMOVDQU(v, Mem{Base: pd, Index: k, Scale: 4})
		POPCNTQ(b, c)
		ADDQ(c, k)
		if j < 7 {
			SHRQ(U8(8), w)
		}
		VPADDD(c8, base, base)
	}
	JMP(LabelRef("loop2"))
	Label("zero2")
	VPADDD(c64, base, base)
	JMP(LabelRef("loop2"))
	Label("stop2")
	Store(done, ReturnIndex(0))
	Store(k, ReturnIndex(1))
	VZEROUPPER()
	RET()
}

// byteRows is the table of selectBytesLUT, once written.
var byteRows *Mem

// selectBytesLUT is the table of the set-bit positions of the 256 byte
// values, packed to the front (256 × 8 int32, 8 KiB, zeros after the
// last): selectRows2 adds a byte's first row to its entry, compress32AVX2
// permutes eight values by it. It is written the first time it is asked
// for.
func selectBytesLUT() Mem {
	if byteRows != nil {
		return *byteRows
	}
	lut := GLOBL("selectBytesLUT", RODATA|NOPTR)
	for b := range 256 {
		k := 0
		for bit := range 8 {
			if b>>bit&1 != 0 {
				DATA(b*32+4*k, U32(bit))
				k++
			}
		}
		for ; k < 8; k++ {
			DATA(b*32+4*k, U32(0))
		}
	}
	byteRows = &lut
	return lut
}
