package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/colexpr/colexpr/scan"
)

// progress draws a bar on a terminal while a scan (or demo's writing)
// runs. It stays silent for the first second, so quick scans print
// nothing, and erases itself when the scan ends.
type progress struct {
	w        io.Writer
	label    string         // what is going on, before the bar ("" for a scan)
	fraction func() float64 // of the input read, or -1
	rows     func() int64   // rows read, or nil when there is no count
	// position, when set, says where the scan of a dataset is.
	position func() scan.Position
	stop     chan struct{}
	done     sync.WaitGroup
	drawn    bool
}

// progressDelay is how long a scan runs before its bar is drawn.
var progressDelay = time.Second

// startProgress starts drawing on w; a nil w draws nothing.
func startProgress(w io.Writer, fraction func() float64, rows func() int64) *progress {
	return startLabeledProgress(w, "", fraction, rows)
}

// startLabeledProgress is startProgress with a label before the bar.
func startLabeledProgress(w io.Writer, label string, fraction func() float64, rows func() int64) *progress {
	return (&progress{w: w, label: label, fraction: fraction, rows: rows}).start()
}

// startScanProgress is startProgress over a scan, which may be of a
// dataset: the bar then also says which file it is at, and the bytes read.
func startScanProgress(w io.Writer, rr *scan.Reader) *progress {
	return (&progress{w: w, fraction: rr.Progress, rows: rr.RowsRead, position: rr.Position}).start()
}

// byteSize writes n bytes as 12.3 MB (decimal units, as ls -h --si).
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, prefix := float64(n), ""
	for _, p := range []string{"kB", "MB", "GB", "TB", "PB"} {
		f /= unit
		prefix = p
		if f < unit {
			break
		}
	}
	return fmt.Sprintf("%.1f %s", f, prefix)
}

func (p *progress) start() *progress {
	p.stop = make(chan struct{})
	w := p.w
	if w == nil {
		return p
	}
	start := time.Now()
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		if progressDelay > 0 {
			delay := time.NewTimer(progressDelay)
			defer delay.Stop()
			select {
			case <-delay.C:
			case <-p.stop:
				return
			}
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			p.draw(time.Since(start))
			select {
			case <-tick.C:
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

func (p *progress) draw(elapsed time.Duration) {
	const width = 30
	f := p.fraction()
	var bar string
	if f >= 0 {
		f = min(f, 1)
		full := int(f * width)
		bar = fmt.Sprintf("[%s%s] %3d%%", strings.Repeat("=", full), strings.Repeat(" ", width-full), int(f*100))
	} else {
		pos := int(elapsed/(200*time.Millisecond)) % width
		bar = "[" + strings.Repeat(" ", pos) + "*" + strings.Repeat(" ", width-1-pos) + "]"
	}
	label, count := "", ""
	if p.label != "" {
		label = p.label + " "
	}
	if p.rows != nil {
		count = " " + thousands(p.rows()) + " rows"
	}
	if p.position != nil {
		if pos := p.position(); pos.Files > 0 {
			count += fmt.Sprintf(", file %d of %d, %s of %s", pos.File, pos.Files, byteSize(pos.Bytes), byteSize(pos.TotalBytes))
		}
	}
	fmt.Fprintf(p.w, "\r%s%s%s %.1fs\x1b[K", label, bar, count, elapsed.Seconds())
	p.drawn = true
}

// finish stops drawing and erases the bar.
func (p *progress) finish() {
	close(p.stop)
	p.done.Wait()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
