package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// elementGather512 writes the AVX-512 kernel of list_element over lists
// of 32- or 64-bit values with a column of indices: for 16 rows a step
// (8 for 64-bit values), the element k (1-based) of each row's list
// offs[j]…offs[j+1], gathered with VPGATHERDD (VPGATHERDQ) where k is
// inside the list and the position inside vals; the other rows get 0 and
// their bit in miss. down is negative when a list's end is before its
// start (the caller then refuses the offsets; every read is inside vals
// whatever they are). The indices are i64, narrowed with signed
// saturation, so an index beyond the i32 range is outside every list.
// len(out) must be a multiple of the step and at most 64; offs holds
// len(out)+1 offsets and ks len(out) indices. The 64-bit kernel computes
// in the low 8 lanes of the same 16-lane vectors, loaded from 256 bits
// (the upper lanes zero: empty lists, never gathered), so it needs no
// more than AVX-512 F either.
func elementGather512(bits int) {
	name := fmt.Sprintf("elementGather%dAVX512", bits)
	vt := fmt.Sprintf("uint%d", bits)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out []%s, vals []%s, offs []int32, ks []int64) (miss uint64, down int64)", vt, vt))
	Doc(fmt.Sprintf("%s gathers element ks[j] of each list offs[j]…offs[j+1] of vals into out[j] (AVX-512 F, BMI2).", name))
	lanes := 512 / bits
	size := bits / 8
	pout := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	pv := Load(Param("vals").Base(), GP64())
	nv := GP64()
	Load(Param("vals").Len(), nv)
	po := Load(Param("offs").Base(), GP64())
	pk := Load(Param("ks").Base(), GP64())
	t := GP64()
	// Positions are compared as unsigned 32-bit: no list reaches 2^31.
	MOVL(U32(0x7fffffff), t.As32())
	CMPQ(nv, t)
	CMOVQHI(t, nv)
	vlen, ones, acc, zero := ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTD(nv.As32(), vlen)
	MOVL(U32(1), t.As32())
	VPBROADCASTD(t.As32(), ones)
	VPXORD(acc, acc, acc)
	VPXORD(zero, zero, zero)
	miss, j := GP64(), GP64()
	XORQ(miss, miss)
	XORQ(j, j)
	Label("gather")
	CMPQ(j, n)
	JAE(LabelRef("gathered"))
	s, e, sz := ZMM(), ZMM(), ZMM()
	klo, k := ZMM(), ZMM()
	if lanes == 16 {
		VMOVDQU32(Mem{Base: po, Index: j, Scale: 4}, s)
		VMOVDQU32(Mem{Base: po, Index: j, Scale: 4, Disp: 4}, e)
		khi := ZMM()
		VMOVDQU64(Mem{Base: pk, Index: j, Scale: 8}, klo)
		VMOVDQU64(Mem{Base: pk, Index: j, Scale: 8, Disp: 64}, khi)
		VPMOVSQD(klo, k.AsY())
		hi := YMM()
		VPMOVSQD(khi, hi)
		VINSERTI64X4(U8(1), hi, k, k)
	} else {
		// VEX loads of 256 bits clear the upper lanes.
		VMOVDQU(Mem{Base: po, Index: j, Scale: 4}, s.AsY())
		VMOVDQU(Mem{Base: po, Index: j, Scale: 4, Disp: 4}, e.AsY())
		VMOVDQU64(Mem{Base: pk, Index: j, Scale: 8}, klo)
		VPMOVSQD(klo, k.AsY()) // zeroes the upper lanes
	}
	VPSUBD(s, e, sz) // e - s
	VPORD(sz, acc, acc)
	VPSUBD(ones, k, k) // k - 1
	p := ZMM()
	VPADDD(s, k, p) // s + k - 1
	in, inside, m := K(), K(), K()
	VPCMPUD(U8(1), sz, k, in)       // k - 1 < size
	VPCMPUD(U8(1), vlen, p, inside) // p < len(vals)
	KANDW(in, inside, m)
	g, mg := ZMM(), K()
	if lanes == 16 {
		VMOVDQA32(zero, g)
	} else {
		VMOVDQA64(zero, g)
	}
	KMOVW(m, mg) // the gather clears its mask
	if lanes == 16 {
		VPGATHERDD(Mem{Base: pv, Index: p, Scale: uint8(size)}, mg, g)
		VMOVDQU32(g, Mem{Base: pout, Index: j, Scale: uint8(size)})
	} else {
		VPGATHERDQ(Mem{Base: pv, Index: p.AsY(), Scale: uint8(size)}, mg, g)
		VMOVDQU64(g, Mem{Base: pout, Index: j, Scale: uint8(size)})
	}
	KMOVW(m, t.As32())
	XORL(U32(1<<lanes-1), t.As32())
	SHLXQ(j, t, t)
	ORQ(t, miss)
	ADDQ(U8(lanes), j)
	JMP(LabelRef("gather"))
	Label("gathered")
	// down: negative when some list's size was.
	neg := K()
	VPCMPD(U8(1), zero, acc, neg) // acc < 0
	KMOVW(neg, t.As32())
	NEGQ(t)
	Store(miss, ReturnIndex(0))
	Store(t, ReturnIndex(1))
	VZEROUPPER()
	RET()
}
