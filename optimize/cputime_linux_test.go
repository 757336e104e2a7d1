//go:build linux

package optimize_test

import "syscall"

// threadCPU is the CPU time the calling OS thread has used, in
// nanoseconds; ok is false where it cannot be read.
func threadCPU() (ns int64, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
