// Command asmgen writes the SIMD kernels of package kernels with avo:
// simd_amd64.s (the assembly), simd_stubs_amd64.go (their Go
// declarations) and simd_tables_amd64.go (the tables the dispatch in
// simd_amd64.go picks from). It is run by go generate in
// internal/kernels:
//
//	go generate ./internal/kernels
//
// Every kernel works on whole blocks (64 rows for a comparison, one
// vector for arithmetic) and leaves the rest to the portable Go loop, so
// none of them reads or writes past the slices it is given.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// elem is one element type of a kernel.
type elem struct {
	name   string // in kernel names: I64, F32, …
	gotype string
	bits   int
	signed bool
	float  bool
}

var elems = []elem{
	{"I8", "int8", 8, true, false},
	{"I16", "int16", 16, true, false},
	{"I32", "int32", 32, true, false},
	{"I64", "int64", 64, true, false},
	{"U8", "uint8", 8, false, false},
	{"U16", "uint16", 16, false, false},
	{"U32", "uint32", 32, false, false},
	{"U64", "uint64", 64, false, false},
	{"F32", "float32", 32, true, true},
	{"F64", "float64", 64, true, true},
}

func (e elem) size() int { return e.bits / 8 }

// The comparison operators, in the order of kernels.CmpOp.
var cmpOps = []string{"Eq", "Ne", "Lt", "Le", "Gt", "Ge"}

// flipOp is op with its operands swapped.
var flipOp = map[string]string{"Eq": "Eq", "Ne": "Ne", "Lt": "Gt", "Le": "Ge", "Gt": "Lt", "Ge": "Le"}

// The AVX-512 predicates of VPCMP[U]{B,W,D,Q} and of VCMPP{S,D}. The
// float ones are the quiet ordered predicates, except that != is the
// unordered one, as Go's != is true when either side is NaN.
var intPred = map[string]uint8{"Eq": 0, "Lt": 1, "Le": 2, "Ne": 4, "Ge": 5, "Gt": 6}
var floatPred = map[string]uint8{"Eq": 0x00, "Ne": 0x04, "Lt": 0x11, "Le": 0x12, "Gt": 0x1e, "Ge": 0x1d}

func main() {
	tables := flag.String("tables", "simd_tables_amd64.go", "the dispatch tables to write")
	flag.Parse()
	ConstraintExpr("!purego")

	for _, e := range elems {
		for _, op := range cmpOps {
			cmp512(e, op, false)
			cmp512(e, op, true)
			cmpAVX2(e, op, false)
			cmpAVX2(e, op, true)
		}
	}
	for _, e := range elems {
		if e.float {
			continue
		}
		for _, op := range arithOps {
			for _, form := range arithForms {
				if op == "Mul" && hasMul8(e, form) {
					mul8512(e, form)
				}
				if op == "Mul" && hasMul64(e, form) {
					mul64512(e, form)
				}
				if !hasArith(e, op, form) {
					continue
				}
				arith(e, op, form, true)
				arith(e, op, form, false)
			}
		}
	}
	for _, vv := range []bool{false, true} {
		ops := decVSOps
		if vv {
			ops = decVVOps
		}
		for _, op := range ops {
			cmpDec512(op, vv)
			cmpDecAVX2(op, vv)
		}
	}
	selectRows512()
	selectRows2()
	for _, bits := range []int{32, 64, 128} {
		compress512(bits)
	}
	compress2(32)
	compress2(64)
	elementGather512(32)
	elementGather512(64)
	like512(false)
	like512(true)
	for _, op := range wordsOps {
		words(op, true)
		words(op, false)
	}
	for _, or := range []bool{false, true} {
		kleeneHalf(or, true)
		kleeneHalf(or, false)
	}
	for _, or := range []bool{false, true} {
		kleene(or, true)
		kleene(or, false)
	}
	if err := writeTables(*tables); err != nil {
		log.Fatal(err)
	}
	Generate()
}

// kernelName is the name of a comparison kernel.
func cmpName(e elem, op, isa string, vv bool) string {
	form := "VS"
	if vv {
		form = "VV"
	}
	return fmt.Sprintf("cmp%s%s%s%s", op, e.name, form, isa)
}

func cmpSignature(e elem, vv bool) string {
	if vv {
		return fmt.Sprintf("func(dst []uint64, a, b []%s)", e.gotype)
	}
	return fmt.Sprintf("func(dst []uint64, a []%s, s %s)", e.gotype, e.gotype)
}

// broadcast loads the scalar parameter s into every lane of v.
func broadcast(e elem, v reg.VecVirtual) {
	b, err := Param("s").Resolve()
	if err != nil {
		log.Fatal(err)
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

// cmp512 writes an AVX-512 comparison kernel: the 64 rows of a block are
// 64/lanes vector compares into mask registers, joined with KUNPCK into
// one 64-bit mask and stored as the block's word. A column-scalar kernel
// compares the scalar with the values in memory (the predicate flipped),
// so that the loads fold into the compares.
func cmp512(e elem, op string, vv bool) {
	TEXT(cmpName(e, op, "AVX512", vv), NOSPLIT, cmpSignature(e, vv))
	Doc(fmt.Sprintf("%s sets a bit of dst for each row of a %s, for the len(a)/64 whole blocks of 64 rows (AVX-512 F, BW).",
		cmpName(e, op, "AVX512", vv), cmpDesc(op, vv)))
	dst := Load(Param("dst").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var b reg.Register
	var s reg.VecVirtual
	if vv {
		b = Load(Param("b").Base(), GP64())
	} else {
		s = ZMM()
		broadcast(e, s)
	}
	SHRQ(U8(6), n)
	JZ(LabelRef("done"))
	Label("loop")
	// One vector's compare, then the masks joined as a tree (so that few
	// are live at once): KUNPCK's first operand is the low half.
	lanes := 512 / e.bits
	var block func(lo, count int) reg.Register
	block = func(lo, count int) reg.Register {
		if count == 1 {
			k := K()
			ma := Mem{Base: a, Disp: 64 * lo}
			if vv {
				x := ZMM()
				VMOVDQU64(ma, x)
				cmp512Instr(e, op, Mem{Base: b, Disp: 64 * lo}, x, k)
			} else {
				cmp512Instr(e, flipOp[op], ma, s, k)
			}
			return k
		}
		l := block(lo, count/2)
		h := block(lo+count/2, count/2)
		k := K()
		switch count / 2 * lanes {
		case 8:
			KUNPCKBW(l, h, k)
		case 16:
			KUNPCKWD(l, h, k)
		default:
			KUNPCKDQ(l, h, k)
		}
		return k
	}
	ks := []reg.Register{block(0, e.bits/8)}
	KMOVQ(ks[0], Mem{Base: dst})
	ADDQ(U32(8*e.bits), a)
	if vv {
		ADDQ(U32(8*e.bits), b)
	}
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	VZEROUPPER()
	RET()
}

func cmpDesc(op string, vv bool) string {
	sym := map[string]string{"Eq": "==", "Ne": "!=", "Lt": "<", "Le": "<=", "Gt": ">", "Ge": ">="}[op]
	if vv {
		return sym + " b"
	}
	return sym + " s"
}

// cmp512Instr is k = src1 pred src2 (Go operand order: src2, src1, k).
func cmp512Instr(e elem, op string, src2 Op, src1, k reg.Register) {
	if e.float {
		p := U8(floatPred[op])
		if e.bits == 32 {
			VCMPPS(p, src2, src1, k)
		} else {
			VCMPPD(p, src2, src1, k)
		}
		return
	}
	p := U8(intPred[op])
	f := map[bool]map[int]func(...Op){
		true:  {8: VPCMPB, 16: VPCMPW, 32: VPCMPD, 64: VPCMPQ},
		false: {8: VPCMPUB, 16: VPCMPUW, 32: VPCMPUD, 64: VPCMPUQ},
	}[e.signed][e.bits]
	f(p, src2, src1, k)
}

// cmpAVX2 writes an AVX2 comparison kernel: 64 rows are 64·bits/256
// vector compares, each turned into bits by a MOVMSK and shifted into the
// block's word. AVX2 compares integers only for = and signed >: unsigned
// values are biased by the sign bit, < swaps the operands, and <=, >=
// and != are the complements of >, < and =. Floats use VCMPP{S,D}'s
// predicates, as AVX-512 does.
func cmpAVX2(e elem, op string, vv bool) {
	TEXT(cmpName(e, op, "AVX2", vv), NOSPLIT, cmpSignature(e, vv))
	Doc(fmt.Sprintf("%s sets a bit of dst for each row of a %s, for the len(a)/64 whole blocks of 64 rows (AVX2).",
		cmpName(e, op, "AVX2", vv), cmpDesc(op, vv)))
	dst := Load(Param("dst").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var b reg.Register
	var s, bias reg.VecVirtual
	biased := !e.float && !e.signed && op != "Eq" && op != "Ne"
	if biased {
		bias = YMM()
		t := GP64()
		MOVQ(U64(uint64(1)<<(e.bits-1)), t)
		MOVQ(t, bias.AsX())
		switch e.bits {
		case 8:
			VPBROADCASTB(bias.AsX(), bias)
		case 16:
			VPBROADCASTW(bias.AsX(), bias)
		case 32:
			VPBROADCASTD(bias.AsX(), bias)
		default:
			VPBROADCASTQ(bias.AsX(), bias)
		}
	}
	if vv {
		b = Load(Param("b").Base(), GP64())
	} else {
		s = YMM()
		broadcast(e, s)
		if biased {
			VPXOR(bias, s, s)
		}
	}
	// The operator computed, and whether the word is complemented after.
	cop, not := op, false
	if !e.float {
		switch op {
		case "Ne":
			cop, not = "Eq", true
		case "Le":
			cop, not = "Gt", true
		case "Ge":
			cop, not = "Lt", true
		}
	}
	SHRQ(U8(6), n)
	JZ(LabelRef("done"))
	Label("loop")
	w := GP64()
	XORQ(w, w)
	t := GP64()
	nv := e.bits / 4 // vectors per block
	lanes := 256 / e.bits
	var pending reg.VecVirtual // 16-bit: the first vector of a pair
	for i := range nv {
		ma := Mem{Base: a, Disp: 32 * i}
		var mb Op
		if vv {
			mb = Mem{Base: b, Disp: 32 * i}
		} else {
			mb = s
		}
		// load is a value into a register, biased when needed.
		load := func(m Op) reg.VecVirtual {
			x := YMM()
			if biased {
				VPXOR(m, bias, x)
			} else {
				VMOVDQU(m, x)
			}
			return x
		}
		c := YMM()
		switch {
		case e.float:
			p := U8(floatPred[cop])
			var src1 reg.Register
			var src2 Op
			if vv {
				src1, src2 = load(ma), mb
			} else {
				src1, src2, p = s, ma, U8(floatPred[flipOp[cop]])
			}
			if e.bits == 32 {
				VCMPPS(p, src2, src1, c)
			} else {
				VCMPPD(p, src2, src1, c)
			}
		case cop == "Eq":
			// a == b: one side from memory.
			var src1 reg.Register
			if vv {
				src1 = load(ma)
			} else {
				src1 = s
			}
			src2 := Op(ma)
			if vv {
				src2 = mb
			}
			pcmpeq(e.bits, src2, src1, c)
		case cop == "Gt":
			// a > b
			var y Op = mb
			if vv && biased {
				y = load(mb)
			}
			pcmpgt(e.bits, y, load(ma), c)
		default:
			// a < b is b > a
			var x Op = ma
			if biased {
				x = load(ma)
			}
			var y reg.Register
			if vv {
				y = load(mb)
			} else {
				y = s
			}
			pcmpgt(e.bits, x, y, c)
		}
		// c's lanes are all ones or zeros: gather their bits.
		switch e.bits {
		case 64:
			VMOVMSKPD(c, t.As32())
		case 32:
			VMOVMSKPS(c, t.As32())
		case 8:
			VPMOVMSKB(c, t.As32())
		case 16:
			if i%2 == 0 {
				pending = c
				continue
			}
			// Two vectors of words packed to bytes: PACKSSWB interleaves
			// 128-bit lanes, VPERMQ puts them back in row order.
			VPACKSSWB(c, pending, c)
			VPERMQ(U8(0xd8), c, c)
			VPMOVMSKB(c, t.As32())
		}
		first := i * lanes // the row of the vector's first lane
		if e.bits == 16 {
			first = (i - 1) * lanes
		}
		if first > 0 {
			SHLQ(U8(first), t)
		}
		ORQ(t, w)
	}
	if not {
		NOTQ(w)
	}
	MOVQ(w, Mem{Base: dst})
	ADDQ(U32(8*e.bits), a)
	if vv {
		ADDQ(U32(8*e.bits), b)
	}
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	VZEROUPPER()
	RET()
}

// pcmpeq is c = src1 == src2 lane-wise.
func pcmpeq(bits int, src2 Op, src1, c reg.Register) {
	map[int]func(...Op){8: VPCMPEQB, 16: VPCMPEQW, 32: VPCMPEQD, 64: VPCMPEQQ}[bits](src2, src1, c)
}

// pcmpgt is c = src1 > src2 lane-wise, signed.
func pcmpgt(bits int, src2 Op, src1, c reg.Register) {
	map[int]func(...Op){8: VPCMPGTB, 16: VPCMPGTW, 32: VPCMPGTD, 64: VPCMPGTQ}[bits](src2, src1, c)
}

// writeTables writes the Go tables of the kernels, by element type and
// instruction set, indexed by kernels.CmpOp.
func writeTables(path string) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by command: go run ./internal/asmgen. DO NOT EDIT.\n\n")
	fmt.Fprintf(&buf, "//go:build !purego\n\npackage kernels\n\n")
	for _, isa := range []string{"AVX512", "AVX2"} {
		fmt.Fprintf(&buf, "// The comparison kernels of %s, by element type.\n", isa)
		for _, e := range elems {
			fmt.Fprintf(&buf, "var cmp%s%s = cmpKernels[%s]{\n", e.name, isa, e.gotype)
			fmt.Fprintf(&buf, "\tvs: [...]func([]uint64, []%s, %s){", e.gotype, e.gotype)
			for _, op := range cmpOps {
				fmt.Fprintf(&buf, "Cmp%s: %s, ", op, cmpName(e, op, isa, false))
			}
			fmt.Fprintf(&buf, "},\n\tvv: [...]func([]uint64, []%s, []%s){", e.gotype, e.gotype)
			for _, op := range cmpOps {
				fmt.Fprintf(&buf, "Cmp%s: %s, ", op, cmpName(e, op, isa, true))
			}
			fmt.Fprintf(&buf, "},\n}\n\n")
		}
	}
	for _, isa := range []string{"AVX512", "AVX2"} {
		fmt.Fprintf(&buf, "// The comparison kernels of small decimals of %s.\n", isa)
		fmt.Fprintf(&buf, "var cmpD18%s = decKernels{\n\tvs: [CmpGe + 1]func([]uint64, []uint64, int64){", isa)
		for _, op := range decVSOps {
			fmt.Fprintf(&buf, "Cmp%s: %s, ", op, decName(op, isa, false))
		}
		fmt.Fprintf(&buf, "},\n\tvv: [CmpGe + 1]func([]uint64, []uint64, []uint64){")
		for _, op := range decVVOps {
			fmt.Fprintf(&buf, "Cmp%s: %s, ", op, decName(op, isa, true))
		}
		fmt.Fprintf(&buf, "},\n}\n\n")
	}
	for _, isa := range []string{"AVX512", "AVX2"} {
		fmt.Fprintf(&buf, "// The checked arithmetic kernels of %s, by element type.\n", isa)
		for _, e := range elems {
			if e.float {
				continue
			}
			fmt.Fprintf(&buf, "var arith%s%s = arithKernels[%s]{\n", e.name, isa, e.gotype)
			for _, form := range []string{"VV", "VS"} {
				sig := map[string]string{"VV": "[]%[2]s, []%[2]s, []%[2]s", "VS": "[]%[2]s, []%[2]s, %[2]s"}[form]
				fmt.Fprintf(&buf, "\t%s: [OpMul + 1]func("+sig+") bool{", strings.ToLower(form), e.gotype)
				for _, op := range arithOps {
					if hasArith(e, op, form) || op == "Mul" && isa == "AVX512" && (hasMul8(e, form) || hasMul64(e, form)) {
						fmt.Fprintf(&buf, "Op%s: %s, ", op, arithName(e, op, form, isa))
					}
				}
				fmt.Fprintf(&buf, "},\n")
			}
			fmt.Fprintf(&buf, "\tsubSV: %s,\n}\n\n", arithName(e, "Sub", "SV", isa))
		}
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}
