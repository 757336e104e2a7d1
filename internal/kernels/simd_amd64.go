//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"golang.org/x/sys/cpu"
)

// cmpKernels is the comparison kernels of one element type and
// instruction set, indexed by CmpOp (= to >=): column-scalar and
// column-column. Each does the len(a)/64 whole blocks of 64 rows.
type cmpKernels[T Number] struct {
	vs [CmpGe + 1]func(dst []uint64, a []T, s T)
	vv [CmpGe + 1]func(dst []uint64, a, b []T)
}

// arithKernels is the checked arithmetic kernels of one integer type and
// instruction set, indexed by ArithOp (add, sub, mul; nil where there is
// no kernel): column-column,
// column-scalar and scalar-column. Each does the rows of the whole blocks
// of arithBlock bytes and reports whether one of them may have
// overflowed.
type arithKernels[T Integer] struct {
	vv    [OpMul + 1]func(dst, a, b []T) bool
	vs    [OpMul + 1]func(dst, a []T, y T) bool
	subSV func(dst []T, x T, b []T) bool
}

// decKernels is the comparison kernels of decimals of at most 18 digits
// (by their low words, the values seen as two words a row), indexed by
// CmpOp, nil where there is none.
type decKernels struct {
	vs [CmpGe + 1]func(dst []uint64, a []uint64, s int64)
	vv [CmpGe + 1]func(dst []uint64, a, b []uint64)
}

// simdSet is the kernels of one instruction set.
type simdSet struct {
	name       string
	arithBlock int // bytes of a block of the arithmetic kernels

	// Kleene AND and OR over aligned words with nulls on both sides, by
	// blocks of kleeneBlock words.
	kleeneAnd, kleeneOr func(words, valid, x, y, vx, vy []uint64) int
	kleeneBlock         int

	// Kleene AND and OR over aligned words with nulls on one side (y), by
	// blocks.
	kleeneHalfAnd, kleeneHalfOr func(words, valid, x, y, vy []uint64) int

	// Bitwise AND, OR and NOT of words, by blocks.
	wordsAnd, wordsOr func(dst, x, y []uint64) int
	wordsNot          func(dst, x []uint64) int

	// Bitmap → selection vector.
	selectRows func(dst []int32, bm []byte, words int) (done, k int)
	// Compress (filter by a bitmap) of 32-, 64- and 128-bit values (the
	// last as pairs of uint64, k counting them; AVX-512 only).
	compress32  func(dst, src []uint32, bm []byte, words int) (done, k int)
	compress64  func(dst, src []uint64, bm []byte, words int) (done, k int)
	compress128 func(dst, src []uint64, bm []byte, words int) (done, k int)
	// list_element of 32- and 64-bit values by a column of indices
	// (AVX-512 only).
	elementGather32 func(out, vals []uint32, offs []int32, ks []int64) (miss uint64, down int64)
	elementGather64 func(out, vals []uint64, offs []int32, ks []int64) (miss uint64, down int64)
	cmpI8           *cmpKernels[int8]
	cmpI16          *cmpKernels[int16]
	cmpI32          *cmpKernels[int32]
	cmpI64          *cmpKernels[int64]
	cmpU8           *cmpKernels[uint8]
	cmpU16          *cmpKernels[uint16]
	cmpU32          *cmpKernels[uint32]
	cmpU64          *cmpKernels[uint64]
	cmpF32          *cmpKernels[float32]
	cmpF64          *cmpKernels[float64]
	cmpD18          *decKernels

	arithI8  *arithKernels[int8]
	arithI16 *arithKernels[int16]
	arithI32 *arithKernels[int32]
	arithI64 *arithKernels[int64]
	arithU8  *arithKernels[uint8]
	arithU16 *arithKernels[uint16]
	arithU32 *arithKernels[uint32]
	arithU64 *arithKernels[uint64]

	// LIKE 'lit%' and LIKE 'lit' with a literal of at most 8 bytes, by
	// words of 64 rows (AVX-512 only; see prefixWords).
	likePrefix, likeExact func(words []uint64, offs []int32, data []byte, want, mask uint64, k int32) (down uint64)
}

var avx512Set = &simdSet{
	name:            "avx512",
	selectRows:      selectRowsAVX512,
	compress32:      compress32AVX512,
	compress64:      compress64AVX512,
	compress128:     compress128AVX512,
	elementGather32: elementGather32AVX512,
	elementGather64: elementGather64AVX512,
	likePrefix:      likePrefixAVX512,
	likeExact:       likeExactAVX512,
	kleeneHalfAnd:   kleeneHalfAndAVX512,
	kleeneHalfOr:    kleeneHalfOrAVX512,
	wordsAnd:        wordsAndAVX512,
	wordsOr:         wordsOrAVX512,
	wordsNot:        wordsNotAVX512,
	kleeneAnd:       kleeneAndAVX512,
	kleeneOr:        kleeneOrAVX512,
	kleeneBlock:     16,
	arithBlock:      256,
	arithI8:         &arithI8AVX512,
	arithI16:        &arithI16AVX512,
	arithI32:        &arithI32AVX512,
	arithI64:        &arithI64AVX512,
	arithU8:         &arithU8AVX512,
	arithU16:        &arithU16AVX512,
	arithU32:        &arithU32AVX512,
	arithU64:        &arithU64AVX512,
	cmpI8:           &cmpI8AVX512,
	cmpI16:          &cmpI16AVX512,
	cmpI32:          &cmpI32AVX512,
	cmpI64:          &cmpI64AVX512,
	cmpU8:           &cmpU8AVX512,
	cmpU16:          &cmpU16AVX512,
	cmpU32:          &cmpU32AVX512,
	cmpU64:          &cmpU64AVX512,
	cmpF32:          &cmpF32AVX512,
	cmpF64:          &cmpF64AVX512,
	cmpD18:          &cmpD18AVX512,
}

var avx2Set = &simdSet{
	name:          "avx2",
	selectRows:    selectRowsAVX2,
	compress32:    compress32AVX2,
	compress64:    compress64AVX2,
	kleeneHalfAnd: kleeneHalfAndAVX2,
	kleeneHalfOr:  kleeneHalfOrAVX2,
	wordsAnd:      wordsAndAVX2,
	wordsOr:       wordsOrAVX2,
	wordsNot:      wordsNotAVX2,
	kleeneAnd:     kleeneAndAVX2,
	kleeneOr:      kleeneOrAVX2,
	kleeneBlock:   8,
	arithBlock:    128,
	arithI8:       &arithI8AVX2,
	arithI16:      &arithI16AVX2,
	arithI32:      &arithI32AVX2,
	arithI64:      &arithI64AVX2,
	arithU8:       &arithU8AVX2,
	arithU16:      &arithU16AVX2,
	arithU32:      &arithU32AVX2,
	arithU64:      &arithU64AVX2,
	cmpI8:         &cmpI8AVX2,
	cmpI16:        &cmpI16AVX2,
	cmpI32:        &cmpI32AVX2,
	cmpI64:        &cmpI64AVX2,
	cmpU8:         &cmpU8AVX2,
	cmpU16:        &cmpU16AVX2,
	cmpU32:        &cmpU32AVX2,
	cmpU64:        &cmpU64AVX2,
	cmpF32:        &cmpF32AVX2,
	cmpF64:        &cmpF64AVX2,
	cmpD18:        &cmpD18AVX2,
}

// simdSets is every set this machine can run, best first; active is the
// one the kernels use, nil when there is none or COLEXPR_NOSIMD is set.
var simdSets, active = func() ([]*simdSet, *simdSet) {
	var sets []*simdSet
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasPOPCNT {
		if !cpu.X86.HasAVX512DQ || !cpu.X86.HasAVX512CD {
			// The 64-bit multiplications use VPMULLQ and VPLZCNTQ.
			arithI64AVX512.vv[OpMul], arithI64AVX512.vs[OpMul] = nil, nil
			arithU64AVX512.vv[OpMul], arithU64AVX512.vs[OpMul] = nil, nil
		}
		if !cpu.X86.HasBMI2 {
			// The AVX-512 compress kernels mask their stores with BZHI and
			// double the 128-bit rows' bits with PDEP; the list_element
			// gathers place their miss bits with SHLX.
			avx512Set.compress32, avx512Set.compress64 = compress32AVX2, compress64AVX2
			avx512Set.compress128 = nil
			avx512Set.elementGather32, avx512Set.elementGather64 = nil, nil
		}
		if !cpu.X86.HasAVX512VPOPCNTDQ {
			// The AVX-512 Kleene kernels count with VPOPCNTQ.
			avx512Set.kleeneAnd, avx512Set.kleeneOr = kleeneAndAVX2, kleeneOrAVX2
			avx512Set.kleeneBlock = avx2Set.kleeneBlock
		}
		sets = append(sets, avx512Set)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT {
		sets = append(sets, avx2Set)
	}
	if len(sets) == 0 || simdDisabled {
		return sets, nil
	}
	if simdWant == "avx2" {
		return sets, sets[len(sets)-1] // AVX2, or nothing better
	}
	return sets, sets[0]
}()

// as is x's bits as a U, the type T turned out to be.
func as[U, T any](x T) U { return *(*U)(unsafe.Pointer(&x)) }

func runCmpVS[T Number](k *cmpKernels[T], op CmpOp, dst []uint64, a []T, s T) int {
	if k == nil || k.vs[op] == nil {
		return 0
	}
	k.vs[op](dst, a, s)
	return len(a) &^ 63
}

func runCmpVV[T Number](k *cmpKernels[T], op CmpOp, dst []uint64, a, b []T) int {
	if k == nil || k.vv[op] == nil {
		return 0
	}
	k.vv[op](dst, a, b)
	return len(a) &^ 63
}

// simdCmpVS runs set's kernel for T and op (CmpEq to CmpGe) on the whole
// blocks of a, and returns how many rows it did.
func simdCmpVS[T Number](set *simdSet, op CmpOp, dst []uint64, a []T, s T) int {
	switch a := any(a).(type) {
	case []int8:
		return runCmpVS(set.cmpI8, op, dst, a, as[int8](s))
	case []int16:
		return runCmpVS(set.cmpI16, op, dst, a, as[int16](s))
	case []int32:
		return runCmpVS(set.cmpI32, op, dst, a, as[int32](s))
	case []int64:
		return runCmpVS(set.cmpI64, op, dst, a, as[int64](s))
	case []uint8:
		return runCmpVS(set.cmpU8, op, dst, a, as[uint8](s))
	case []uint16:
		return runCmpVS(set.cmpU16, op, dst, a, as[uint16](s))
	case []uint32:
		return runCmpVS(set.cmpU32, op, dst, a, as[uint32](s))
	case []uint64:
		return runCmpVS(set.cmpU64, op, dst, a, as[uint64](s))
	case []float32:
		return runCmpVS(set.cmpF32, op, dst, a, as[float32](s))
	case []float64:
		return runCmpVS(set.cmpF64, op, dst, a, as[float64](s))
	}
	return 0
}

// simdCmpVV is simdCmpVS for two columns of the same length.
func simdCmpVV[T Number](set *simdSet, op CmpOp, dst []uint64, a, b []T) int {
	switch a := any(a).(type) {
	case []int8:
		return runCmpVV(set.cmpI8, op, dst, a, as[[]int8](b))
	case []int16:
		return runCmpVV(set.cmpI16, op, dst, a, as[[]int16](b))
	case []int32:
		return runCmpVV(set.cmpI32, op, dst, a, as[[]int32](b))
	case []int64:
		return runCmpVV(set.cmpI64, op, dst, a, as[[]int64](b))
	case []uint8:
		return runCmpVV(set.cmpU8, op, dst, a, as[[]uint8](b))
	case []uint16:
		return runCmpVV(set.cmpU16, op, dst, a, as[[]uint16](b))
	case []uint32:
		return runCmpVV(set.cmpU32, op, dst, a, as[[]uint32](b))
	case []uint64:
		return runCmpVV(set.cmpU64, op, dst, a, as[[]uint64](b))
	case []float32:
		return runCmpVV(set.cmpF32, op, dst, a, as[[]float32](b))
	case []float64:
		return runCmpVV(set.cmpF64, op, dst, a, as[[]float64](b))
	}
	return 0
}

// arithRows is how many rows of a the kernels of set do: whole blocks.
func arithRows[T Integer](set *simdSet, n int) int {
	return n &^ (set.arithBlock/int(unsafe.Sizeof(T(0))) - 1)
}

func runArith[T Integer](set *simdSet, k *arithKernels[T], op ArithOp, form int, dst, a []T, x T, b []T) (int, bool) {
	if k == nil {
		return 0, false
	}
	switch form {
	case formVV:
		if k.vv[op] == nil {
			return 0, false
		}
		done := arithRows[T](set, len(a))
		return done, k.vv[op](dst[:done], a[:done], b[:done])
	case formVS:
		if k.vs[op] == nil {
			return 0, false
		}
		done := arithRows[T](set, len(a))
		return done, k.vs[op](dst[:done], a[:done], x)
	}
	if op != OpSub {
		return 0, false
	}
	done := arithRows[T](set, len(b))
	return done, k.subSV(dst[:done], x, b[:done])
}

// simdArith runs set's kernel for op (OpAdd, OpSub or OpMul) and form on the
// whole blocks of the rows: dst = a op b (formVV), a op x (formVS) or
// x op b (formSV, subtraction). It returns how many rows it did and
// whether one of them may have overflowed.
func simdArith[T Integer](set *simdSet, op ArithOp, form int, dst, a []T, x T, b []T) (int, bool) {
	switch dst := any(dst).(type) {
	case []int8:
		return runArith(set, set.arithI8, op, form, dst, as[[]int8](a), as[int8](x), as[[]int8](b))
	case []int16:
		return runArith(set, set.arithI16, op, form, dst, as[[]int16](a), as[int16](x), as[[]int16](b))
	case []int32:
		return runArith(set, set.arithI32, op, form, dst, as[[]int32](a), as[int32](x), as[[]int32](b))
	case []int64:
		return runArith(set, set.arithI64, op, form, dst, as[[]int64](a), as[int64](x), as[[]int64](b))
	case []uint8:
		return runArith(set, set.arithU8, op, form, dst, as[[]uint8](a), as[uint8](x), as[[]uint8](b))
	case []uint16:
		return runArith(set, set.arithU16, op, form, dst, as[[]uint16](a), as[uint16](x), as[[]uint16](b))
	case []uint32:
		return runArith(set, set.arithU32, op, form, dst, as[[]uint32](a), as[uint32](x), as[[]uint32](b))
	case []uint64:
		return runArith(set, set.arithU64, op, form, dst, as[[]uint64](a), as[uint64](x), as[[]uint64](b))
	}
	return 0, false
}

// simdKleene runs set's Kleene AND (or OR) kernel on the whole blocks of
// the words and returns how many words it did and how many of their bits
// are valid.
func simdKleene(set *simdSet, or bool, words, valid, x, y, vx, vy []uint64) (int, int) {
	f := set.kleeneAnd
	if or {
		f = set.kleeneOr
	}
	done := len(x) &^ (set.kleeneBlock - 1)
	if f == nil || done == 0 {
		return 0, 0
	}
	return done, f(words[:done], valid[:done], x[:done], y[:done], vx[:done], vy[:done])
}

// decWords is the decimals of a as words, two a row.
func decWords(a []decimal128.Num) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a))
}

// simdDecVS runs set's kernel of a op s over small decimals (CmpEq, CmpLt
// to CmpGe) on the whole 64-row blocks of a, and returns how many rows it
// did.
func simdDecVS(set *simdSet, op CmpOp, dst []uint64, a []decimal128.Num, s int64) int {
	if set.cmpD18 == nil || set.cmpD18.vs[op] == nil {
		return 0
	}
	set.cmpD18.vs[op](dst, decWords(a), s)
	return len(a) &^ 63
}

// simdDecVV is simdDecVS for two columns (CmpEq, CmpLt, CmpLe).
func simdDecVV(set *simdSet, op CmpOp, dst []uint64, a, b []decimal128.Num) int {
	if set.cmpD18 == nil || set.cmpD18.vv[op] == nil {
		return 0
	}
	set.cmpD18.vv[op](dst, decWords(a), decWords(b[:len(a)]))
	return len(a) &^ 63
}

// simdSelect runs set's bitmap → selection kernel, if it has one (see
// selectFast).
func simdSelect(set *simdSet, dst []int32, bm []byte, words int) (int, int) {
	if set.selectRows == nil || len(bm) < 8*words {
		return 0, 0
	}
	return set.selectRows(dst, bm, words)
}

// simdCompress runs set's compress kernel for values of T's size, if it
// has one (see compressFast).
func simdCompress[T any](set *simdSet, dst, src []T, bm []byte, words int) (int, int) {
	if len(bm) < 8*words || len(src) < 64*words {
		return 0, 0
	}
	var zero T
	switch unsafe.Sizeof(zero) {
	case 4:
		if set.compress32 != nil {
			return set.compress32(reslice[uint32](dst), reslice[uint32](src), bm, words)
		}
	case 8:
		if set.compress64 != nil {
			return set.compress64(reslice[uint64](dst), reslice[uint64](src), bm, words)
		}
	case 16:
		if set.compress128 != nil {
			done, k := set.compress128(reslice[uint64](dst), reslice[uint64](src), bm, words)
			return done, k / 2
		}
	}
	return 0, 0
}

// reslice views s, a slice of T, as a slice of U whose size divides T's.
func reslice[U, T any](s []T) []U {
	var t T
	var u U
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(t)/unsafe.Sizeof(u)))
}

// simdElementGather runs set's list_element kernel for values of T's
// size (32 or 64 bits) over the whole 16-row (8-row) steps of out (see
// elementGatherFast) and returns how many rows it did.
func simdElementGather[T any](set *simdSet, out, vals []T, offs []int32, ks []int64) (done int, miss uint64, down int64) {
	if len(out) > 64 {
		return 0, 0, 0
	}
	var zero T
	switch unsafe.Sizeof(zero) {
	case 4:
		done = len(out) &^ 15
		if set.elementGather32 == nil || done == 0 {
			return 0, 0, 0
		}
		miss, down = set.elementGather32(reslice[uint32](out[:done]), reslice[uint32](vals), offs[:done+1], ks[:done])
	case 8:
		done = len(out) &^ 7
		if set.elementGather64 == nil || done == 0 {
			return 0, 0, 0
		}
		miss, down = set.elementGather64(reslice[uint64](out[:done]), reslice[uint64](vals), offs[:done+1], ks[:done])
	default:
		return 0, 0, 0
	}
	return done, miss, down
}

// simdWords runs set's bitwise kernel: dst = x | y (or), x & y, or ^x
// (not; y unused), on the whole blocks of x, and returns how many words it
// did.
func simdWords(set *simdSet, or, not bool, dst, x, y []uint64) int {
	switch {
	case not:
		return set.wordsNot(dst[:len(x)], x)
	case or:
		return set.wordsOr(dst[:len(x)], x, y[:len(x)])
	}
	return set.wordsAnd(dst[:len(x)], x, y[:len(x)])
}

// simdKleeneHalf runs set's Kleene AND (or OR) kernel for nulls on y's
// side only and returns how many words it did.
func simdKleeneHalf(set *simdSet, or bool, words, valid, x, y, vy []uint64) int {
	f := set.kleeneHalfAnd
	if or {
		f = set.kleeneHalfOr
	}
	n := len(x)
	return f(words[:n], valid[:n], x, y[:n], vy[:n])
}

// simdPrefix runs set's prefix (exact) LIKE kernel, if it has one, over
// the whole words of 64 rows of offs (see prefixFast), and returns how
// many rows it did and whether an offset among them decreases.
func simdPrefix(set *simdSet, words []uint64, offs []int32, data []byte, want, mask uint64, k int32, exact bool) (done int, down bool) {
	f := set.likePrefix
	if exact {
		f = set.likeExact
	}
	nw := min((len(offs)-1)>>6, len(words))
	// The kernels gather at signed 32-bit indices: the starts, clamped to
	// len(data)-8, must stay below 2^31.
	if f == nil || nw <= 0 || len(data) < 8 || len(data)-8 >= 1<<31 {
		return 0, false
	}
	return 64 * nw, f(words[:nw], offs[:64*nw+1], data, want, mask, k) != 0
}
