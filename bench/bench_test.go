package bench

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// smallSizes keep the agreement test quick; the workloads are the same.
var smallSizes = Sizes{
	Add:       1_000,
	Gather:    2_000,
	Compare:   5_000,
	Kleene:    5_000,
	Lineitem:  70_000, // two batches of the demo table
	Transform: 3_000,
	OrChain:   20,
}

// TestWorkloadsAgree runs every engine of every workload once over small data
// and checks that all of them compute the same values as colexpr.
func TestWorkloadsAgree(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	s, err := NewSuite(mem, smallSizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range s.Workloads {
		t.Run(w.Name, func(t *testing.T) {
			if err := w.Check(); err != nil {
				t.Error(err)
			}
			if (w.Kind != Optimizer) != (w.Floor != nil) {
				t.Errorf("kind %d, floor %v: every workload over columns in memory, and only those, has a floor", w.Kind, w.Floor != nil)
			}
			if w.Floor != nil {
				if err := w.Floor.Run(nil); err != nil {
					t.Error(err)
				}
			}
		})
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	mem.AssertSize(t, 0)
}

// BenchmarkWorkloads runs every engine of every workload at full size, for
// profiling one of them, e.g.
//
//	go test -run '^$' -bench 'Workloads/TPC-H.*/colexpr' -cpuprofile cpu.out
//
// The comparison table itself comes from ./cmd/compare, which interleaves the
// engines. Workloads over columns in memory have a floor too
// (BenchmarkWorkloads/<name>/floor).
func BenchmarkWorkloads(b *testing.B) {
	s, err := NewSuite(memory.DefaultAllocator, FullSizes)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, w := range s.Workloads {
		impls := w.Impls
		if w.Floor != nil {
			impls = append(impls[:len(impls):len(impls)], *w.Floor)
		}
		for _, im := range impls {
			b.Run(w.Name+"/"+im.Engine, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := im.Run(nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
