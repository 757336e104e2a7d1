package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// likeName is the name of the AVX-512 kernel of a prefix LIKE (exact
// false) or of an exact match.
func likeName(exact bool) string {
	if exact {
		return "likeExactAVX512"
	}
	return "likePrefixAVX512"
}

// like512 writes the AVX-512 kernel of LIKE 'lit%' (exact false) and of
// LIKE 'lit' with a literal of at most 8 bytes, the vector form of
// prefixWords: for 16 rows a step, the 17 offsets are loaded, the starts
// clamped to lim = len(data)-8 (VPMINUD, unsigned as prefixWords' min)
// and the 8 bytes at each gathered with two VPGATHERDQ at data + start;
// a row matches when those bytes, masked to the literal's, equal it
// (VPTESTNMQ of their XOR) and its length e - s is >= k (== k for exact),
// compared as signed 32-bit, as the portable loop does. The 16 bits are
// stored as they are (little-endian, they are the word's next two bytes);
// 64 rows fill a word. The OR of the masks of e < s is returned: nonzero
// when an offset decreases.
//
// The caller must give len(words) whole words, 64·len(words)+1 offsets and
// 8 <= len(data) <= 2^31+7: the gathers' indices are signed 32-bit, so the
// clamped starts must stay below 2^31. Every load is then inside data,
// whatever the offsets are, and no offset past offs is read. Only
// AVX-512 F is used.
func like512(exact bool) {
	name := likeName(exact)
	TEXT(name, NOSPLIT, "func(words []uint64, offs []int32, data []byte, want, mask uint64, k int32) (down uint64)")
	what := "starts with"
	if exact {
		what = "is"
	}
	Doc(fmt.Sprintf("%s sets bit i of words when row i (offs[i]…offs[i+1] of data) %s the k-byte literal want (mask covering its bytes), for the len(words) whole words of 64 rows; down is nonzero when an offset decreases (AVX-512 F).", name, what))
	dst := Load(Param("words").Base(), GP64())
	n := Load(Param("words").Len(), GP64())
	po := Load(Param("offs").Base(), GP64())
	pd := Load(Param("data").Base(), GP64())
	t := GP64()
	Load(Param("data").Len(), t)
	SUBQ(U8(8), t)
	vlim, vk, vwant, vmask := ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTD(t.As32(), vlim)
	kk := Load(Param("k"), GP32())
	VPBROADCASTD(kk, vk)
	w := Load(Param("want"), GP64())
	VPBROADCASTQ(w, vwant)
	m := Load(Param("mask"), GP64())
	VPBROADCASTQ(m, vmask)
	kdown, kones := K(), K()
	XORL(t.As32(), t.As32())
	KMOVW(t.As32(), kdown)
	MOVL(U32(0xffff), t.As32())
	KMOVW(t.As32(), kones)
	// The predicate of e - s against k (VPCMPD: 0 is =, 5 is >=).
	pred := U8(5)
	if exact {
		pred = U8(0)
	}
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("loop")
	for step := range 4 {
		s, e := ZMM(), ZMM()
		VMOVDQU32(Mem{Base: po, Disp: 64 * step}, s)
		VMOVDQU32(Mem{Base: po, Disp: 64*step + 4}, e)
		kd := K()
		VPCMPD(U8(1), s, e, kd) // e < s
		KORW(kd, kdown, kdown)
		ln, kl := ZMM(), K()
		VPSUBD(s, e, ln)
		VPCMPD(pred, vk, ln, kl) // e - s >= k (== k)
		at := ZMM()
		VPMINUD(vlim, s, at)
		// gather is the 8 bytes at the starts of 8 rows, XORed with the
		// literal, and the mask of the rows whose literal's bytes are 0.
		gather := func(idx reg.Register) reg.Register {
			g, kg, hit := ZMM(), K(), K()
			VPXORQ(g, g, g) // no dependence on g's last value
			KMOVW(kones, kg)
			VPGATHERDQ(Mem{Base: pd, Index: idx, Scale: 1}, kg, g)
			VPXORQ(vwant, g, g)
			VPTESTNMQ(vmask, g, hit)
			return hit
		}
		lo := gather(at.AsY())
		hi := YMM()
		VEXTRACTI64X4(U8(1), at, hi)
		hiHit := gather(hi)
		both := K()
		KUNPCKBW(lo, hiHit, both) // the first operand is the low byte
		KANDW(kl, both, both)
		KMOVW(both, Mem{Base: dst, Disp: 2 * step})
	}
	ADDQ(U32(4*64), po)
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	KMOVW(kdown, t.As32())
	Store(t, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
