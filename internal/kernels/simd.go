package kernels

//go:generate go run ./internal/asmgen -out simd_amd64.s -stubs simd_stubs_amd64.go -pkg kernels -tables simd_tables_amd64.go

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// simdDisabled reports whether COLEXPR_NOSIMD asked, at start-up, for the
// portable loops on every machine (any value but "" and "0").
var simdDisabled = func() bool {
	v := os.Getenv("COLEXPR_NOSIMD")
	return v != "" && v != "0"
}()

// simdWant is COLEXPR_SIMD, read at start-up: "avx2" caps the kernels at
// AVX2 on a machine with AVX-512 (to compare the two, or to avoid
// AVX-512's clock penalty on older Intel parts); other values are
// ignored.
var simdWant = os.Getenv("COLEXPR_SIMD")

// SIMDLevel names the instruction set the kernels dispatched to at
// start-up: "avx512", "avx2", or "" for the portable Go loops.
func SIMDLevel() string {
	if active == nil {
		return ""
	}
	return active.name
}

// cmpFastVS computes the words of the whole 64-row blocks of a op s with
// the active SIMD kernels and returns how many rows it did (0 when there
// are none, or no kernel for T and op); the caller's portable loop does
// the rest. cmpSame is = on integers and on a scalar that is not NaN.
func cmpFastVS[T Number](op CmpOp, dst []uint64, a []T, s T) int {
	if active == nil || len(a) < 64 {
		return 0
	}
	if op == cmpSame {
		if s != s {
			return 0
		}
		op = CmpEq
	}
	return simdCmpVS(active, op, dst, a, s)
}

// cmpFastVV is cmpFastVS for a op b over two columns. cmpSame is = on
// integers, and left to the portable loop on floats.
func cmpFastVV[T Number](op CmpOp, dst []uint64, a, b []T) int {
	if active == nil || len(a) < 64 {
		return 0
	}
	if op == cmpSame {
		var half T = 1
		if half/2 != 0 { // a float
			return 0
		}
		op = CmpEq
	}
	return simdCmpVV(active, op, dst, a, b[:len(a)])
}

// The forms of a binary kernel: column-column, column-scalar,
// scalar-column.
const (
	formVV = iota
	formVS
	formSV
)

// arithFast computes dst = a op b (or a op x, x op b by form) for the
// rows of the active SIMD kernels' whole blocks, and returns how many
// rows it did and whether one of them may have overflowed; the caller's
// portable loop does the rest. op is OpAdd, OpSub or OpMul (16 and 32
// bits).
func arithFast[T Integer](op ArithOp, form int, dst, a []T, x T, b []T) (int, bool) {
	if active == nil || len(dst) < 64 {
		return 0, false
	}
	return simdArith(active, op, form, dst, a, x, b)
}

// kleeneFast computes the value and validity words of x AND y (or OR)
// under Kleene logic (boolean.go) for the whole blocks of words the active
// SIMD kernels take, and returns how many words it did and how many of
// their bits are valid; the caller's portable loop does the rest. All the
// slices hold at least len(x) words.
func kleeneFast(or bool, words, valid, x, y, vx, vy []uint64) (done, ones int) {
	if active == nil {
		return 0, 0
	}
	return simdKleene(active, or, words, valid, x, y, vx, vy)
}

// decFastVS computes the words of the whole 64-row blocks of a op s over
// decimals of at most 18 digits (compared by their low words) with the
// active SIMD kernels, and returns how many rows it did. op is CmpEq or
// CmpLt to CmpGe.
func decFastVS(op CmpOp, dst []uint64, a []decimal128.Num, s int64) int {
	if active == nil || len(a) < 64 {
		return 0
	}
	return simdDecVS(active, op, dst, a, s)
}

// decFastVV is decFastVS for two columns; op is CmpEq, CmpLt or CmpLe.
func decFastVV(op CmpOp, dst []uint64, a, b []decimal128.Num) int {
	if active == nil || len(a) < 64 {
		return 0
	}
	return simdDecVV(active, op, dst, a, b)
}

// selectFast writes to dst the rows of the set bits of the first words
// words of bm with the active SIMD kernel, if there is one, and returns
// how many words it did and how many rows it wrote; it may write up to 64
// slots past them, and stops before a word when dst has no room for that.
func selectFast(dst []int32, bm []byte, words int) (done, k int) {
	if active == nil {
		return 0, 0
	}
	return simdSelect(active, dst, bm, words)
}

// compressFast writes to dst the values of src whose bit is set in the
// first words words of bm (from row 0) with the active SIMD kernel for
// T's size, if there is one, and returns how many words it did and how
// many values it wrote. It writes nothing past dst: it stops before a
// word when dst has no room for what the kernel may store.
func compressFast[T any](dst, src []T, bm []byte, words int) (done, k int) {
	if active == nil || words == 0 {
		return 0, 0
	}
	return simdCompress(active, dst, src, bm, words)
}

// elementGatherFast is list_element over the whole steps (16 rows of
// 32-bit values, 8 of 64-bit ones) of up to 64 rows of lists with a column
// of indices (see elementRun): it returns how many rows it did, their miss
// bits and the OR of their list sizes (negative when an offset decreases).
func elementGatherFast[T any](out, vals []T, offs []int32, ks []int64) (done int, miss uint64, down int64) {
	if active == nil {
		return 0, 0, 0
	}
	return simdElementGather(active, out, vals, offs, ks)
}

// prefixFast sets the bits of the rows of the whole words of 64 rows of
// offs (len(offs)-1 rows from row 0) that start with the k-byte literal
// want (mask covering its bytes), or that are it when exact, with the
// active SIMD kernel, and returns how many rows it did and whether an
// offset among them decreases; prefixWords does the rest. data holds at
// least 8 bytes.
func prefixFast(words []uint64, offs []int32, data []byte, want, mask uint64, k int32, exact bool) (done int, down bool) {
	if active == nil {
		return 0, false
	}
	return simdPrefix(active, words, offs, data, want, mask, k, exact)
}

// wordsFast computes dst = x | y (or), x & y, or ^x (not; y unused) for
// the whole blocks of words the active SIMD kernels take, and returns how
// many words it did. dst and y hold at least len(x) words.
func wordsFast(or, not bool, dst, x, y []uint64) int {
	if active == nil {
		return 0
	}
	return simdWords(active, or, not, dst, x, y)
}

// kleeneHalfFast is kleeneFast where only y has nulls (x's validity all
// ones): it returns how many words it did, and leaves counting the nulls
// to the caller.
func kleeneHalfFast(or bool, words, valid, x, y, vy []uint64) int {
	if active == nil {
		return 0
	}
	return simdKleeneHalf(active, or, words, valid, x, y, vy)
}
