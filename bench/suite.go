package bench

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The engines, as the table names them.
const (
	Colexpr      = "colexpr"
	ArrowCompute = "arrow-go compute"
	ArrowExprs   = "arrow-go exprs (Substrait)"
	DuckDB       = "DuckDB (1 thread)"
	CelGo        = "cel-go"
	ExprLang     = "expr-lang"
)

// Impl is one engine's way of computing a workload. Run computes the
// workload's output once and releases it; when dig is non-nil it first adds
// the output to dig (that run is not timed).
type Impl struct {
	Engine string
	How    string // what exactly is called, for the notes under the table
	Run    func(dig *Digest) error
}

// Workload is one comparison: colexpr (Impls[0]) and the peers that fit it,
// all reading the same data.
type Workload struct {
	Name  string
	Desc  string
	Kind  Kind
	Impls []Impl
	// NoDigest is set when the engines' outputs are not comparable values
	// (the optimizer workload returns trees of different libraries).
	NoDigest bool
}

// Kind says which target applies to a workload's ratios.
type Kind int

const (
	// FixedWidth kernels: colexpr should be at least 10× faster than arrow-go.
	FixedWidth Kind = iota
	// Scan workloads over the demo table: no slower than DuckDB on Q6.
	Scan
	// Nested workloads (lists).
	Nested
	// Optimizer workloads: at least 500× faster than cel-go's folding optimizer.
	Optimizer
)

// Target is the ratio peer/colexpr a workload should reach against engine,
// and false when none is set.
func (w *Workload) Target(engine string) (float64, bool) {
	switch {
	case engine == CelGo || engine == ExprLang:
		if w.Kind == Optimizer {
			return 500, true
		}
		return 50, true
	case w.Kind == FixedWidth && (engine == ArrowCompute || engine == ArrowExprs):
		return 10, true
	case w.Kind == Scan && engine == DuckDB && w.Name == NameQ6:
		return 1, true
	}
	return 0, false
}

// Suite is every workload over one generated data set, with the DuckDB
// database the data is loaded into.
type Suite struct {
	Mem       memory.Allocator
	Data      *Data
	Duck      *Duck
	Workloads []*Workload
	tables    *tables
	closers   []func() error
}

// NewSuite generates the data at the given sizes, loads it into DuckDB and
// prepares every workload (compiling every engine's expression, untimed).
func NewSuite(mem memory.Allocator, sz Sizes) (s *Suite, err error) {
	s = &Suite{Mem: mem}
	defer func() {
		if err != nil {
			s.Close()
			s = nil
		}
	}()
	if s.Data, err = NewData(mem, sz); err != nil {
		return s, err
	}
	if s.Duck, err = OpenDuck(); err != nil {
		return s, err
	}
	if err = s.loadDuck(); err != nil {
		return s, err
	}
	for _, mk := range []func() (*Workload, error){
		s.addWorkload, s.gatherWorkload, s.compareWorkload, s.andWorkload, s.orWorkload,
		s.q6Workload, s.likeWorkload, s.transformWorkload, s.orChainWorkload,
	} {
		w, err := mk()
		if err != nil {
			return s, err
		}
		s.Workloads = append(s.Workloads, w)
	}
	return s, nil
}

// onClose registers a release for Close.
func (s *Suite) onClose(f func() error) { s.closers = append(s.closers, f) }

// Close releases the data, the prepared programs and the database.
func (s *Suite) Close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil {
			errs = append(errs, err)
		}
	}
	s.closers = nil
	if s.Duck != nil {
		errs = append(errs, s.Duck.Close())
		s.Duck = nil
	}
	s.Data.Release()
	return errors.Join(errs...)
}

// Check runs every engine of w once and returns an error when their outputs
// differ or one fails.
func (w *Workload) Check() error {
	var ref string
	for i, im := range w.Impls {
		d := NewDigest()
		if err := im.Run(d); err != nil {
			return fmt.Errorf("%s: %s: %w", w.Name, im.Engine, err)
		}
		if w.NoDigest {
			continue
		}
		if i == 0 {
			ref = d.String()
		} else if got := d.String(); got != ref {
			return fmt.Errorf("%s: %s disagrees with %s:\n  %s: %s\n  %s: %s",
				w.Name, im.Engine, w.Impls[0].Engine, w.Impls[0].Engine, ref, im.Engine, got)
		}
	}
	return nil
}
