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

	fmt.Fprintf(w, "| workload | colexpr |")
	for _, e := range engineOrder {
		fmt.Fprintf(w, " %s |", e)
	}
	fmt.Fprintf(w, "\n|---|---:|")
	for range engineOrder {
		fmt.Fprintf(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, wr := range rs {
		fmt.Fprintf(w, "| %s | %s |", wr.Workload.Name, cell(wr.Results[0]))
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
	fmt.Fprintf(w, "\n— : the engine does not run this workload (see its notes).\n\n")

	fmt.Fprintf(w, "## Targets\n\n| workload | peer | peer / colexpr | target | met |\n|---|---|---:|---:|---|\n")
	for _, wr := range rs {
		for i := 1; i < len(wr.Results); i++ {
			t, ok := wr.Workload.Target(wr.Results[i].Engine)
			if !ok {
				continue
			}
			r := wr.Ratio(i)
			met := "yes"
			if r < t {
				met = "**no**"
			}
			fmt.Fprintf(w, "| %s | %s | %s | ≥ %s | %s |\n", wr.Workload.Name, wr.Results[i].Engine, formatRatio(r), formatRatio(t), met)
		}
	}

	fmt.Fprintf(w, "\n## Workloads\n")
	for _, wr := range rs {
		fmt.Fprintf(w, "\n### %s\n\n%s.\n\n", wr.Workload.Name, wr.Workload.Desc)
		fmt.Fprintf(w, "| engine | median | peer / colexpr | allocs/op | bytes/op | what runs |\n|---|---:|---:|---:|---:|---|\n")
		for i, r := range wr.Results {
			if r.Err != nil {
				fmt.Fprintf(w, "| %s | error: %s | | | | %s |\n", r.Engine, mdEscape(r.Err.Error()), mdEscape(r.How))
				continue
			}
			a, b := r.Allocs()
			ratio := ""
			if i > 0 {
				ratio = formatRatio(wr.Ratio(i))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.Engine, FormatDuration(r.Median()), ratio,
				formatCount(a), formatBytes(b), mdEscape(r.How))
		}
	}
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
