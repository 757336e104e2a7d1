package scalar

// TEMPORARY: signatures only, so other packages compile while the scalar
// package is being written. Every function here is replaced by a real
// implementation in its own file and this file is deleted.

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowscalar "github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/colexpr/colexpr/dtype"
)

var errTODO = errors.New("scalar: not written yet")

func (s Scalar) Identical(o Scalar) bool                                   { return false }
func (s Scalar) Hash() uint64                                              { return 0 }
func checkValue(t dtype.DType, v any) error                                { return nil }
func errorf(f string, a ...any) error                                      { return fmt.Errorf(f, a...) }
func (s Scalar) SQL() string                                               { return "" }
func (s Scalar) ValueText() string                                         { return "" }
func (s Scalar) String() string                                            { return s.SQL() }
func Compare(a, b Scalar) (int, error)                                     { return 0, errTODO }
func Cast(s Scalar, to dtype.DType) (Scalar, error)                        { return Scalar{}, errTODO }
func TryCast(s Scalar, to dtype.DType) Scalar                              { return Scalar{} }
func ParseNumber(text string) (Scalar, error)                              { return Scalar{}, errTODO }
func FromArray(arr arrow.Array, i int, t dtype.DType) (Scalar, error)      { return Scalar{}, errTODO }
func Append(b array.Builder, s Scalar) error                               { return errTODO }
func MakeArray(mem memory.Allocator, s Scalar, n int) (arrow.Array, error) { return nil, errTODO }
func ToArrowScalar(s Scalar) (arrowscalar.Scalar, error)                   { return nil, errTODO }
func FromArrowScalar(sc arrowscalar.Scalar, t dtype.DType) (Scalar, error) { return Scalar{}, errTODO }
