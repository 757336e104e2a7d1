package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws a bar on a terminal while a scan (or demo's writing)
// runs. It stays silent for the first second, so quick scans print
// nothing, and erases itself when the scan ends.
type progress struct {
	w        io.Writer
	label    string         // what is going on, before the bar ("" for a scan)
	fraction func() float64 // of the input read, or -1
	rows     func() int64   // rows read, or nil when there is no count
	// files, when set, gives the files of a dataset reached and to read.
	files func() (read, total int)
	stop  chan struct{}
	done  sync.WaitGroup
	drawn bool
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

// startFilesProgress is startProgress over a dataset: files gives the
// files reached and to read.
func startFilesProgress(w io.Writer, fraction func() float64, rows func() int64, files func() (int, int)) *progress {
	return (&progress{w: w, fraction: fraction, rows: rows, files: files}).start()
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
	if p.files != nil {
		if read, total := p.files(); total > 0 {
			count += fmt.Sprintf(", file %d of %d", read, total)
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
