package bench

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"
)

// Sample is one timed run of an engine: the time per operation and the Go
// heap allocations per operation (runtime.MemStats deltas; memory DuckDB
// allocates in C is not seen).
type Sample struct {
	PerOp       time.Duration
	AllocsPerOp float64
	BytesPerOp  float64
}

// Result is every sample of one engine on one workload.
type Result struct {
	Engine  string
	How     string
	Inner   int // operations per sample
	Samples []Sample
	Err     error
}

// Median is the median time per operation.
func (r *Result) Median() time.Duration {
	if len(r.Samples) == 0 {
		return 0
	}
	ds := make([]time.Duration, len(r.Samples))
	for i, s := range r.Samples {
		ds[i] = s.PerOp
	}
	slices.Sort(ds)
	n := len(ds)
	if n%2 == 1 {
		return ds[n/2]
	}
	return (ds[n/2-1] + ds[n/2]) / 2
}

// Allocs is the median allocations and bytes per operation.
func (r *Result) Allocs() (allocs, bytes float64) {
	if len(r.Samples) == 0 {
		return 0, 0
	}
	as := make([]float64, len(r.Samples))
	bs := make([]float64, len(r.Samples))
	for i, s := range r.Samples {
		as[i], bs[i] = s.AllocsPerOp, s.BytesPerOp
	}
	slices.Sort(as)
	slices.Sort(bs)
	return as[len(as)/2], bs[len(bs)/2]
}

// WorkloadResult is the results of every engine of one workload, colexpr
// first, and of its floor (nil when it has none).
type WorkloadResult struct {
	Workload *Workload
	Results  []*Result
	Floor    *Result
}

// FloorRatio is result i's time ÷ the floor's (0 when either is missing).
func (wr *WorkloadResult) FloorRatio(i int) float64 {
	f, r := wr.Floor, wr.Results[i]
	if f == nil || f.Err != nil || r.Err != nil || f.Median() == 0 {
		return 0
	}
	return float64(r.Median()) / float64(f.Median())
}

// Check measures t against the results: the figure it bounds (a ratio, or
// colexpr's time in nanoseconds), whether that figure exists, and whether
// t is met.
func (wr *WorkloadResult) Check(t Target) (got float64, ok, met bool) {
	switch t.Kind {
	case AtLeastPeer:
		i := wr.index(t.Peer)
		if i < 0 {
			return 0, false, false
		}
		got = wr.Ratio(i)
		return got, got > 0, got >= t.Value
	case AtMostFloor:
		got = wr.FloorRatio(0)
		return got, got > 0, got > 0 && got <= t.Value
	}
	c := wr.Results[0]
	if c.Err != nil || len(c.Samples) == 0 {
		return 0, false, false
	}
	got = float64(c.Median())
	return got, true, c.Median() <= t.Time
}

// GivesWay reports whether t, an UnlessFloor target, gives way to the
// floor target, and the peer's time ÷ the floor that decides it. The
// report counts a target that gives way but is met anyway (colexpr reads
// less than the floor does) as met.
func (wr *WorkloadResult) GivesWay(t Target) (peerByFloor float64, yes bool) {
	if !t.UnlessFloor || wr.Floor == nil {
		return 0, false
	}
	i := wr.index(t.Peer)
	if i < 0 {
		return 0, false
	}
	peerByFloor = wr.FloorRatio(i)
	return peerByFloor, peerByFloor > 0 && peerByFloor < t.Value
}

// Ratio is peer time / colexpr time for result i (0 when either is missing).
func (wr *WorkloadResult) Ratio(i int) float64 {
	c, p := wr.Results[0], wr.Results[i]
	if c.Err != nil || p.Err != nil || c.Median() == 0 {
		return 0
	}
	return float64(p.Median()) / float64(c.Median())
}

// Options control a measurement.
type Options struct {
	Reps      int           // samples per engine (the median of these is reported)
	MinSample time.Duration // a sample repeats the operation until it lasts this long
	Progress  io.Writer     // one line per workload, or nil
}

// Measure runs every workload: a warm-up run per engine (which also sets how
// many operations one sample holds), then Reps rounds in which every engine
// takes one sample in turn (round-robin, so that noise on the machine hits
// every engine alike), the workload's floor last. The heap is not collected between samples: a forced
// collection leaves the allocator cold (freshly scavenged pages fault on
// first touch), which adds the same fixed cost to every engine; a sample is
// instead long enough (Options.MinSample) for each engine to pay for its own
// garbage collection in steady state.
func Measure(ws []*Workload, opt Options) []*WorkloadResult {
	if opt.Reps < 1 {
		opt.Reps = 1
	}
	out := make([]*WorkloadResult, 0, len(ws))
	for _, w := range ws {
		wr := &WorkloadResult{Workload: w}
		// The floor, when there is one, is one more "engine" of the
		// rounds, last.
		impls := w.Impls
		if w.Floor != nil {
			impls = append(impls[:len(impls):len(impls)], *w.Floor)
		}
		rs := make([]*Result, len(impls))
		for i, im := range impls {
			r := &Result{Engine: im.Engine, How: im.How}
			r.Inner, r.Err = calibrate(im, opt.MinSample)
			rs[i] = r
		}
		for range opt.Reps {
			for i, im := range impls {
				r := rs[i]
				if r.Err != nil {
					continue
				}
				s, err := sample(im, r.Inner)
				if err != nil {
					r.Err = err
					continue
				}
				r.Samples = append(r.Samples, s)
			}
		}
		wr.Results = rs[:len(w.Impls)]
		if w.Floor != nil {
			wr.Floor = rs[len(w.Impls)]
		}
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "%-36s", w.Name)
			for _, r := range rs {
				if r.Err != nil {
					fmt.Fprintf(opt.Progress, "  %s: error", r.Engine)
					continue
				}
				fmt.Fprintf(opt.Progress, "  %s %s", r.Engine, FormatDuration(r.Median()))
			}
			fmt.Fprintln(opt.Progress)
		}
		out = append(out, wr)
	}
	return out
}

// calibrate runs im once (warm-up) and returns how many operations a sample
// needs to last at least min.
func calibrate(im Impl, min time.Duration) (int, error) {
	t0 := time.Now()
	if err := im.Run(nil); err != nil {
		return 0, err
	}
	once := time.Since(t0)
	if once <= 0 {
		once = 1
	}
	n := 1
	if once < min {
		n = int(min/once) + 1
	}
	return n, nil
}

// sample times n operations of im.
func sample(im Impl, n int) (Sample, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	for range n {
		if err := im.Run(nil); err != nil {
			return Sample{}, err
		}
	}
	d := time.Since(t0)
	runtime.ReadMemStats(&after)
	return Sample{
		PerOp:       d / time.Duration(n),
		AllocsPerOp: float64(after.Mallocs-before.Mallocs) / float64(n),
		BytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
	}, nil
}

// FormatDuration prints d with three significant digits in a unit that
// suits it.
func FormatDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.3g µs", float64(d)/1e3)
	}
	return fmt.Sprintf("%d ns", d.Nanoseconds())
}
