// Command runner runs one process and reports its wall time, CPU time and
// peak RSS on file descriptor 3, as one line: wall and CPU (user + system)
// in nanoseconds, peak RSS in KiB. The process gets the runner's standard
// input, output and error. Usage: runner BIN [ARG...]
//
// cmd/scancompare measures every engine through it because a process started
// from Go inherits its parent's peak RSS: os/exec starts children with
// vfork (CLONE_VM), so when the child calls exec, Linux records the high
// water mark of the parent's memory as the child's, and getrusage's
// ru_maxrss is at least the parent's peak. scancompare holds DuckDB and the
// engines' outputs; the runner is a small fresh process, so what it passes
// on to the measured process is its own few MiB.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	report := os.NewFile(3, "report")
	if len(os.Args) < 2 || report == nil {
		fmt.Fprintln(os.Stderr, "usage: runner BIN [ARG...], with file descriptor 3 open for the report")
		os.Exit(2)
	}
	// The measured process does not get the report's descriptor.
	syscall.CloseOnExec(3)
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		code := 1
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() > 0 {
			code = ee.ExitCode()
		}
		os.Exit(code)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := ru.Utime.Nano() + ru.Stime.Nano()
	if _, err := fmt.Fprintf(report, "%d %d %d\n", wall.Nanoseconds(), cpu, ru.Maxrss); err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		os.Exit(1)
	}
}
