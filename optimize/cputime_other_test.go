//go:build !linux

package optimize_test

func threadCPU() (ns int64, ok bool) { return 0, false }
