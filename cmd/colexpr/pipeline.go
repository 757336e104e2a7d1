package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// The scan pipeline: one goroutine reads batches, workers process them
// (filter, project, encode) in parallel, and the caller's goroutine writes
// the results in input order. A batch takes a token when it is read and
// gives it back when its result is written, so at most 2 × threads batches
// are in flight and memory is bounded by the batch size.

// internalError is a panic caught in a goroutine: a bug, exit status 3.
type internalError struct {
	value any
	stack []byte
}

func (e *internalError) Error() string {
	return fmt.Sprintf("internal error (a bug, please report it): %v\n%s", e.value, e.stack)
}

// batch is one unit of work: a record batch and the number of rows before
// it in the input.
type batch struct {
	seq    int
	offset int64
	rec    arrow.RecordBatch
	err    error
}

type outcome struct {
	seq int
	c   chunk
	err error
}

type pipeline struct {
	scan      scanner
	name      string // the input, for messages
	threads   int
	batchSize int
	// process turns a batch into an encoded chunk; it must not release b.rec.
	process func(b batch) (chunk, error)
	out     sink
	limit   int64 // -1: no limit
	prog    *progress
}

// run scans the whole input (or up to the limit) and writes the results.
// It closes the scan.
func (p *pipeline) run() error {
	defer p.scan.Close()
	if p.limit == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jobs := make(chan batch)
	results := make(chan outcome)
	tokens := make(chan struct{}, 2*p.threads)

	go p.read(ctx, jobs, tokens)

	var wg sync.WaitGroup
	for w := 0; w < p.threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				results <- p.work(ctx, b)
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]outcome{}
	next := 0
	var failed error
	stopped := false
	// sent counts the rows handed to the sink. The limit is checked
	// against it, not against out.written(): a sink may hold rows back
	// (the table waits for enough rows to size its columns), and those
	// count towards the limit too.
	var sent int64
	for r := range results {
		if stopped {
			if r.c != nil {
				r.c.release()
			}
			continue
		}
		pending[r.seq] = r
		for !stopped {
			q, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-tokens
			if q.err != nil {
				failed, stopped = q.err, true
				break
			}
			n := q.c.rows()
			if p.limit >= 0 {
				n = int(min(int64(n), p.limit-sent))
			}
			err := p.out.write(q.c, n)
			q.c.release()
			sent += int64(n)
			if err != nil {
				failed, stopped = fmt.Errorf("writing the output: %w", err), true
			} else if p.limit >= 0 && sent >= p.limit {
				stopped = true
			}
		}
		if stopped {
			cancel()
			for _, q := range pending {
				if q.c != nil {
					q.c.release()
				}
			}
			pending = nil
		}
	}
	return failed
}

// read sends the input's batches, cut to at most batchSize rows, as jobs.
func (p *pipeline) read(ctx context.Context, jobs chan<- batch, tokens chan struct{}) {
	defer close(jobs)
	seq := 0
	var offset int64
	send := func(b batch) bool {
		select {
		case tokens <- struct{}{}:
		case <-ctx.Done():
			if b.rec != nil {
				b.rec.Release()
			}
			return false
		}
		select {
		case jobs <- b:
			seq++
			return true
		case <-ctx.Done():
			if b.rec != nil {
				b.rec.Release()
			}
			return false
		}
	}
	next := func() (rec arrow.RecordBatch, err error) {
		defer func() {
			if v := recover(); v != nil {
				rec, err = nil, fmt.Errorf("%s: reading failed, the file may be corrupt: %v", p.name, v)
			}
		}()
		return p.scan.Next()
	}
	for ctx.Err() == nil {
		rec, err := next()
		if err != nil {
			send(batch{seq: seq, err: err})
			return
		}
		if rec == nil {
			return
		}
		n := rec.NumRows()
		if n <= int64(p.batchSize) {
			if !send(batch{seq: seq, offset: offset, rec: rec}) {
				return
			}
		} else {
			for from := int64(0); from < n; from += int64(p.batchSize) {
				part := rec.NewSlice(from, min(n, from+int64(p.batchSize)))
				if !send(batch{seq: seq, offset: offset + from, rec: part}) {
					rec.Release()
					return
				}
			}
			rec.Release()
		}
		offset += n
		if p.prog != nil {
			p.prog.rows.Store(offset)
		}
	}
}

// work processes one batch, turning a panic into an internal error.
func (p *pipeline) work(ctx context.Context, b batch) (o outcome) {
	o.seq = b.seq
	if b.err != nil {
		o.err = b.err
		return o
	}
	defer b.rec.Release()
	if ctx.Err() != nil {
		o.err = ctx.Err()
		return o
	}
	defer func() {
		if v := recover(); v != nil {
			o.c, o.err = nil, &internalError{value: v, stack: debug.Stack()}
		}
	}()
	o.c, o.err = p.process(b)
	return o
}
