//go:build !purego

package kernels

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// cmpKernels is the comparison kernels of one element type and
// instruction set, indexed by CmpOp (= to >=): column-scalar and
// column-column. Each does the len(a)/64 whole blocks of 64 rows.
type cmpKernels[T Number] struct {
	vs [CmpGe + 1]func(dst []uint64, a []T, s T)
	vv [CmpGe + 1]func(dst []uint64, a, b []T)
}

// simdSet is the kernels of one instruction set.
type simdSet struct {
	name   string
	cmpI8  *cmpKernels[int8]
	cmpI16 *cmpKernels[int16]
	cmpI32 *cmpKernels[int32]
	cmpI64 *cmpKernels[int64]
	cmpU8  *cmpKernels[uint8]
	cmpU16 *cmpKernels[uint16]
	cmpU32 *cmpKernels[uint32]
	cmpU64 *cmpKernels[uint64]
	cmpF32 *cmpKernels[float32]
	cmpF64 *cmpKernels[float64]
}

var avx512Set = &simdSet{
	name:   "avx512",
	cmpI8:  &cmpI8AVX512,
	cmpI16: &cmpI16AVX512,
	cmpI32: &cmpI32AVX512,
	cmpI64: &cmpI64AVX512,
	cmpU8:  &cmpU8AVX512,
	cmpU16: &cmpU16AVX512,
	cmpU32: &cmpU32AVX512,
	cmpU64: &cmpU64AVX512,
	cmpF32: &cmpF32AVX512,
	cmpF64: &cmpF64AVX512,
}

var avx2Set = &simdSet{
	name:   "avx2",
	cmpI8:  &cmpI8AVX2,
	cmpI16: &cmpI16AVX2,
	cmpI32: &cmpI32AVX2,
	cmpI64: &cmpI64AVX2,
	cmpU8:  &cmpU8AVX2,
	cmpU16: &cmpU16AVX2,
	cmpU32: &cmpU32AVX2,
	cmpU64: &cmpU64AVX2,
	cmpF32: &cmpF32AVX2,
	cmpF64: &cmpF64AVX2,
}

// simdSets is every set this machine can run, best first; active is the
// one the kernels use, nil when there is none or COLEXPR_NOSIMD is set.
var simdSets, active = func() ([]*simdSet, *simdSet) {
	var sets []*simdSet
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		sets = append(sets, avx512Set)
	}
	if cpu.X86.HasAVX2 {
		sets = append(sets, avx2Set)
	}
	if len(sets) == 0 || simdDisabled {
		return sets, nil
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
