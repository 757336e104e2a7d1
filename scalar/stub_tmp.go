package scalar

import "fmt"

func (s Scalar) Identical(o Scalar) bool { return false }
func (s Scalar) Hash() uint64            { return 0 }
func checkValue(t any, v any) error      { return nil }
func errorf(f string, a ...any) error    { return fmt.Errorf(f, a...) }
func (s Scalar) SQL() string       { return "" }
func (s Scalar) ValueText() string { return "" }
