//go:build unix

package kernels

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user and system, every
// thread). Benchmarks report it next to wall time: on a machine shared with
// other work, wall time measures the neighbours too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
