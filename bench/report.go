package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// Machine describes where a measurement ran.
type Machine struct {
	CPU       string // model name from /proc/cpuinfo
	NumCPU    int    // runtime.NumCPU, what nproc prints
	Go        string // runtime.Version
	OSArch    string
	DuckDB    string // SELECT version()
	Date      string
	Reps      int
	MinSample time.Duration
}

// ReadMachine fills a Machine for this process.
func ReadMachine(d *Duck, reps int, minSample time.Duration) Machine {
	m := Machine{
		CPU:       cpuModel(),
		NumCPU:    runtime.NumCPU(),
		Go:        runtime.Version(),
		OSArch:    runtime.GOOS + "/" + runtime.GOARCH,
		Date:      time.Now().UTC().Format("2006-01-02"),
		Reps:      reps,
		MinSample: minSample,
	}
	if d != nil {
		_ = d.DB.QueryRow("SELECT version()").Scan(&m.DuckDB)
	}
	return m
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// engineOrder is the column order of the summary table.
var engineOrder = []string{ArrowCompute, ArrowExprs, DuckDB, CelGo, ExprLang}

// WriteMarkdown prints the results as markdown: the machine, a summary table
// (colexpr's median time, each peer's median time and the ratio peer/colexpr),
// the targets and whether each is met, and per workload the details
// (allocations, and what exactly each engine calls).
func WriteMarkdown(w io.Writer, m Machine, rs []*WorkloadResult) {
	fmt.Fprintf(w, "# colexpr against its peers\n\n")
	fmt.Fprintf(w, "Machine: %s, %d CPUs (nproc), %s, %s; DuckDB %s through duckdb-go with `SET threads = 1`. %s.\n\n",
		m.CPU, m.NumCPU, m.Go, m.OSArch, m.DuckDB, m.Date)
	fmt.Fprintf(w, "Each figure is the median of %d samples per engine, taken round-robin (every engine one sample per round); "+
		"a sample repeats the operation until it lasts at least %s (the heap is not collected between samples: each engine pays for its own garbage) and reports the time per operation. "+
		"The ratio is the peer's time divided by colexpr's: above 1, colexpr is faster. "+
		"All engines read the same data, generated once from a fixed seed; `go test` in bench/ checks that they compute the same values.\n\n",
		m.Reps, m.MinSample)
	fmt.Fprintf(w, "The floor of a workload over columns in memory is the time to read its input bytes once and write its output bytes once "+
		"(a sum over the same input buffers as 8-byte words, then a clear of a preallocated buffer of the output's size), "+
		"sampled in the same rounds as the engines; ÷ floor is an engine's time divided by it.\n\n")

	fmt.Fprintf(w, "| workload | floor | colexpr | colexpr ÷ floor |")
	for _, e := range engineOrder {
		fmt.Fprintf(w, " %s |", e)
	}
	fmt.Fprintf(w, "\n|---|---:|---:|---:|")
	for range engineOrder {
		fmt.Fprintf(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, wr := range rs {
		floor, byFloor := "—", "—"
		if wr.Floor != nil {
			floor = cell(wr.Floor)
			byFloor = formatRatio(wr.FloorRatio(0))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |", wr.Workload.Name, floor, cell(wr.Results[0]), byFloor)
		for _, e := range engineOrder {
			i := wr.index(e)
			switch {
			case i < 0:
				fmt.Fprintf(w, " — |")
			case wr.Results[i].Err != nil:
				fmt.Fprintf(w, " error |")
			default:
				fmt.Fprintf(w, " %s (%s) |", FormatDuration(wr.Results[i].Median()), formatRatio(wr.Ratio(i)))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n— : the engine does not run this workload (see its notes), or the workload has no floor (it is not one kernel over columns in memory).\n\n")

	WriteTargets(w, rs)

	fmt.Fprintf(w, "\n## Workloads\n")
	for _, wr := range rs {
		fmt.Fprintf(w, "\n### %s\n\n%s.\n\n", wr.Workload.Name, wr.Workload.Desc)
		fmt.Fprintf(w, "| engine | median | peer / colexpr | ÷ floor | allocs/op | bytes/op | what runs |\n|---|---:|---:|---:|---:|---:|---|\n")
		for i, r := range wr.Results {
			if r.Err != nil {
				fmt.Fprintf(w, "| %s | error: %s | | | | | %s |\n", r.Engine, mdEscape(r.Err.Error()), mdEscape(r.How))
				continue
			}
			a, b := r.Allocs()
			ratio, byFloor := "", ""
			if i > 0 {
				ratio = formatRatio(wr.Ratio(i))
			}
			if wr.Floor != nil {
				byFloor = formatRatio(wr.FloorRatio(i))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Engine, FormatDuration(r.Median()), ratio, byFloor,
				formatCount(a), formatBytes(b), mdEscape(r.How))
		}
		if f := wr.Floor; f != nil {
			if f.Err != nil {
				fmt.Fprintf(w, "| %s | error: %s | | | | | %s |\n", f.Engine, mdEscape(f.Err.Error()), mdEscape(f.How))
			} else {
				a, b := f.Allocs()
				fmt.Fprintf(w, "| %s | %s | | 1× | %s | %s | %s |\n", f.Engine, FormatDuration(f.Median()), formatCount(a), formatBytes(b), mdEscape(f.How))
			}
		}
	}
}

// WriteTargets prints the targets table: per workload each target, the
// figure it bounds, and whether it is met, then how many are.
func WriteTargets(w io.Writer, rs []*WorkloadResult) {
	fmt.Fprintf(w, "## Targets\n\n| workload | target | measured | met |\n|---|---|---:|---|\n")
	met, all := 0, 0
	for _, wr := range rs {
		for _, t := range wr.Workload.Targets() {
			got, ok, yes := wr.Check(t)
			if !ok && t.Kind == AtLeastPeer && wr.index(t.Peer) < 0 {
				continue // the peer does not run this workload
			}
			if pf, yes := wr.GivesWay(t); yes && !meets(wr, t) {
				fmt.Fprintf(w, "| %s | %s | %s | floor instead: %s takes %s its floor |\n",
					wr.Workload.Name, mdEscape(t.String()), formatRatio(got), t.Peer, formatRatio(pf))
				continue
			}
			all++
			measured, verdict := "n/a", "**no**"
			if ok {
				if t.Kind == AtMostTime {
					measured = FormatDuration(time.Duration(got))
				} else {
					measured = formatRatio(got)
				}
			}
			if yes {
				met++
				verdict = "yes"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", wr.Workload.Name, mdEscape(t.String()), measured, verdict)
		}
	}
	fmt.Fprintf(w, "\n%d of %d targets met. A target against a row-by-row engine gives way to the floor target "+
		"where that engine takes less than the ratio × the floor: meeting it would take reading the input faster than once.\n", met, all)
}

// meets reports whether wr meets t.
func meets(wr *WorkloadResult, t Target) bool {
	_, _, yes := wr.Check(t)
	return yes
}

func (wr *WorkloadResult) index(engine string) int {
	for i, r := range wr.Results {
		if r.Engine == engine {
			return i
		}
	}
	return -1
}

func cell(r *Result) string {
	if r.Err != nil {
		return "error"
	}
	return FormatDuration(r.Median())
}

func formatRatio(r float64) string {
	switch {
	case r == 0:
		return "n/a"
	case r >= 100:
		return fmt.Sprintf("%.0f×", r)
	case r >= 10:
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

func formatCount(n float64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", n/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}

func formatBytes(n float64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", n/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", n/(1<<10))
	}
	return fmt.Sprintf("%.0f B", n)
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
