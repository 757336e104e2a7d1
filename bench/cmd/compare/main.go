// Command compare runs every comparison of colexpr against its peers
// (arrow-go compute and compute/exprs, DuckDB on one thread, cel-go and
// expr-lang row by row) on this machine and prints a markdown report: the
// machine, a table with colexpr's time, each peer's time and the ratio
// peer/colexpr per workload, and for kernel workloads the memory floor
// (reading the inputs and writing the output once, sampled in the same
// rounds) with colexpr's time ÷ floor; the targets and whether each is
// met; and per-workload details.
//
// Usage (from the bench directory):
//
//	go run ./cmd/compare                 # full sizes, 15 rounds; report on stdout
//	go run ./cmd/compare -o RESULTS.md   # also write the report to a file
//	go run ./cmd/compare -reps 31 -only 'Q6|LIKE'
//
// Before measuring, every workload is run once by every engine and their
// outputs are compared; a disagreement stops the command.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime/pprof"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/bench"
)

func main() {
	reps := flag.Int("reps", 15, "samples per engine and workload; the median is reported")
	minSample := flag.Duration("min-sample", 20*time.Millisecond, "a sample repeats the operation until it lasts this long")
	only := flag.String("only", "", "run only the workloads whose name matches this regular expression")
	out := flag.String("o", "", "also write the report to this file")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the measuring (every engine's samples) to this file")
	flag.Parse()
	if err := run(*reps, *minSample, *only, *out, *cpuProfile); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(reps int, minSample time.Duration, only, out, cpuProfile string) error {
	var re *regexp.Regexp
	if only != "" {
		var err error
		if re, err = regexp.Compile(only); err != nil {
			return fmt.Errorf("-only: %w", err)
		}
	}
	fmt.Fprintln(os.Stderr, "generating data and loading it into DuckDB…")
	s, err := bench.NewSuite(memory.DefaultAllocator, bench.FullSizes)
	if err != nil {
		return err
	}
	defer s.Close()
	var ws []*bench.Workload
	for _, w := range s.Workloads {
		if re == nil || re.MatchString(w.Name) {
			ws = append(ws, w)
		}
	}
	fmt.Fprintln(os.Stderr, "checking that every engine computes the same values…")
	for _, w := range ws {
		if err := w.Check(); err != nil {
			return err
		}
	}
	fmt.Fprintln(os.Stderr, "measuring…")
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	rs := bench.Measure(ws, bench.Options{Reps: reps, MinSample: minSample, Progress: os.Stderr})
	pprof.StopCPUProfile()
	var buf bytes.Buffer
	bench.WriteMarkdown(&buf, bench.ReadMachine(s.Duck, reps, minSample), rs)
	os.Stdout.Write(buf.Bytes())
	if out != "" {
		return os.WriteFile(out, buf.Bytes(), 0o644)
	}
	return nil
}
