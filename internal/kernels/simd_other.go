//go:build !amd64 || purego

package kernels

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// simdSet is empty where there are no SIMD kernels: every loop is the
// portable one.
type simdSet struct{ name string }

// active is always nil here; simdSets is empty.
var (
	active   *simdSet
	simdSets []*simdSet
)

func simdCmpVS[T Number](*simdSet, CmpOp, []uint64, []T, T) int   { return 0 }
func simdCmpVV[T Number](*simdSet, CmpOp, []uint64, []T, []T) int { return 0 }

func simdArith[T Integer](*simdSet, ArithOp, int, []T, []T, T, []T) (int, bool) { return 0, false }

func simdKleene(*simdSet, bool, []uint64, []uint64, []uint64, []uint64, []uint64, []uint64) (int, int) {
	return 0, 0
}

func simdDecVS(*simdSet, CmpOp, []uint64, []decimal128.Num, int64) int            { return 0 }
func simdDecVV(*simdSet, CmpOp, []uint64, []decimal128.Num, []decimal128.Num) int { return 0 }

func simdSelect(*simdSet, []int32, []byte, int) (int, int) { return 0, 0 }

func simdCompress[T any](*simdSet, []T, []T, []byte, int) (int, int) { return 0, 0 }

func simdElementGather[T any](*simdSet, []T, []T, []int32, []int64) (int, uint64, int64) {
	return 0, 0, 0
}

func simdWords(*simdSet, bool, bool, []uint64, []uint64, []uint64) int { return 0 }

func simdKleeneHalf(*simdSet, bool, []uint64, []uint64, []uint64, []uint64, []uint64) int { return 0 }

func simdPrefix(*simdSet, []uint64, []int32, []byte, uint64, uint64, int32, bool) (int, bool) {
	return 0, false
}
