package scan

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// countingScan hands out batches of per rows (1 when per is 0), n rows in
// all, numbered from 1, and counts how many batches were read.
type countingScan struct {
	mem    memory.Allocator
	n, per int
	rows   int // rows handed out
	read   int // batches handed out
	closed bool
}

var countingSchema = arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)

func (s *countingScan) Next() (arrow.RecordBatch, error) {
	if s.rows == s.n {
		return nil, nil
	}
	s.read++
	k := min(max(s.per, 1), s.n-s.rows)
	b := array.NewInt64Builder(s.mem)
	defer b.Release()
	for i := 0; i < k; i++ {
		s.rows++
		b.Append(int64(s.rows))
	}
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(countingSchema, []arrow.Array{col}, int64(k)), nil
}

func (s *countingScan) Progress() float64 { return -1 }
func (s *countingScan) Close()            { s.closed = true }

// countingSource is a source whose one scan is sc.
func countingSource(mem memory.Allocator, sc *countingScan) *Source {
	return &Source{
		name: "test", schema: countingSchema, mem: mem,
		open:  func(scanSpec) (scanner, error) { return sc, nil },
		close: func() error { return nil },
	}
}

// readAll reads n from every batch of rr.
func readAll(t *testing.T, rr *Reader, stopAfter int) []int64 {
	t.Helper()
	var got []int64
	for rr.Next() {
		col := rr.RecordBatch().Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			got = append(got, col.Value(i))
		}
		if stopAfter >= 0 && len(got) >= stopAfter {
			break
		}
	}
	return got
}

// TestReaderOrderAndEarlyStop checks that batches come out in input order
// whatever the number of threads, that releasing the reader early stops
// the reading, and that nothing leaks.
func TestReaderOrderAndEarlyStop(t *testing.T) {
	for _, threads := range []int{1, 2, 8} {
		for _, stop := range []int{-1, 1, 5, 999} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			sc := &countingScan{mem: mem, n: 1000, per: 10}
			plan, err := Compile(countingSource(mem, sc), Query{Where: &Expr{Text: "n % 2 = 1"}}, Options{Threads: threads, BatchSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := plan.Read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, rr, stop)
			err = rr.Err()
			rr.Release()
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got {
				if v != int64(2*i+1) {
					t.Fatalf("threads %d: row %d is %d: out of order", threads, i+1, v)
				}
			}
			if stop < 0 && len(got) != 500 {
				t.Fatalf("threads %d: %d rows, want 500", threads, len(got))
			}
			// The batches needed, plus those in flight when it stopped.
			if need := (stop + 4) / 5; stop >= 0 && stop < 500 && sc.read > need+2*threads+2 {
				t.Errorf("threads %d, stop after %d: %d batches read; reading did not stop", threads, stop, sc.read)
			}
			if !sc.closed {
				t.Error("the scan was not closed")
			}
			mem.AssertSize(t, 0)
		}
	}
}

// TestReaderErrors checks that an evaluation error ends the scan after
// the rows before it, naming the row; that a cancelled context stops it
// with the context's error; and that neither leaks.
func TestReaderErrors(t *testing.T) {
	t.Run("evaluation error", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		sc := &countingScan{mem: mem, n: 1000}
		plan, err := Compile(countingSource(mem, sc), Query{Select: []Expr{{Text: "100 / (n - 4)"}}}, Options{Threads: 4, BatchSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := plan.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, rr, -1)
		err = rr.Err()
		rr.Release()
		if len(got) != 3 {
			t.Errorf("%d rows before the error, want the 3 before it", len(got))
		}
		if !errors.Is(err, colexpr.ErrDivideByZero) || !strings.Contains(err.Error(), "test: row 4:") {
			t.Errorf("error %v, want a division by zero at row 4", err)
		}
		if sc.read > 4+2*4+2 {
			t.Errorf("%d batches read after an error at the fourth", sc.read)
		}
		mem.AssertSize(t, 0)
	})
	t.Run("cancelled", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		sc := &countingScan{mem: mem, n: 100_000, per: 10}
		plan, err := Compile(countingSource(mem, sc), Query{}, Options{Threads: 2, BatchSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rr, err := plan.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rr.Next() {
			if n++; n == 3 {
				cancel()
			}
		}
		err = rr.Err()
		rr.Release()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if sc.read > 3+2*2+3 {
			t.Errorf("%d batches read after cancelling at the third", sc.read)
		}
		mem.AssertSize(t, 0)
	})
	t.Run("internal error", func(t *testing.T) {
		err := error(&internalError{value: "kaput", stack: []byte("stack")})
		if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "internal error (a bug, please report it): kaput") {
			t.Errorf("%v does not read as an internal error", err)
		}
	})
}
