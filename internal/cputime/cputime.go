// Package cputime reads the CPU time the process has used, which
// benchmarks report next to wall time: on a machine shared with other
// work, wall time measures the neighbours too.
package cputime

import "time"

// Process is the CPU time this process has used (user and system, every
// thread), or 0 where it cannot be read.
func Process() time.Duration { return process() }
