package bench

import (
	"errors"
	"fmt"
	"time"

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
	// Floor, on kernel workloads, reads the workload's input bytes and
	// writes its output bytes once (see floorImpl); it is sampled in the
	// same rounds as the engines.
	Floor *Impl
	// NoDigest is set when the engines' outputs are not comparable values
	// (the optimizer workload returns trees of different libraries).
	NoDigest bool
}

// Kind says which targets apply to a workload.
type Kind int

const (
	// FixedWidth kernels: one kernel over fixed-width or bool columns in
	// memory, with a floor; colexpr should be within 1.5× of it.
	FixedWidth Kind = iota
	// Scan workloads over the demo table.
	Scan
	// Nested workloads (lists).
	Nested
	// Optimizer workloads: colexpr's optimizer alone, timed in absolute terms.
	Optimizer
)

// TargetKind is what a target bounds.
type TargetKind int

const (
	// AtLeastPeer: the peer's time ÷ colexpr's is at least Value.
	AtLeastPeer TargetKind = iota
	// AtMostFloor: colexpr's time ÷ the workload's floor is at most Value.
	AtMostFloor
	// AtMostTime: colexpr's time is at most Time.
	AtMostTime
)

// Target is one goal of a workload (issue 17 set them: the memory floor
// for kernels, since a ratio to arrow-go of 10× is beyond what reading the
// input allows on the memory-bound ones).
type Target struct {
	Kind  TargetKind
	Peer  string // AtLeastPeer: the engine
	Value float64
	Time  time.Duration
	// UnlessFloor, on an AtLeastPeer target, gives way to the floor
	// target where the peer itself takes less than Value × the floor:
	// there, meeting the ratio would take a colexpr faster than reading
	// its input once.
	UnlessFloor bool
}

// String says the target in the report's words.
func (t Target) String() string {
	switch t.Kind {
	case AtLeastPeer:
		return fmt.Sprintf("%s ÷ colexpr ≥ %s", t.Peer, formatRatio(t.Value))
	case AtMostFloor:
		return fmt.Sprintf("colexpr ÷ floor ≤ %s", formatRatio(t.Value))
	}
	return fmt.Sprintf("colexpr ≤ %s", FormatDuration(t.Time))
}

// peerTargets are the ratios to a peer that named workloads should reach.
var peerTargets = map[string][]Target{
	NameAdd:     {{Kind: AtLeastPeer, Peer: ArrowCompute, Value: 20}},
	NameGather:  {{Kind: AtLeastPeer, Peer: ArrowCompute, Value: 5}},
	NameCompare: {{Kind: AtLeastPeer, Peer: ArrowCompute, Value: 1.1}, {Kind: AtLeastPeer, Peer: ArrowExprs, Value: 1.1}},
	NameQ6:      {{Kind: AtLeastPeer, Peer: DuckDB, Value: 1.5}},
}

// Targets are w's goals: every workload with a floor within 1.5× of it;
// the ratios to a peer of peerTargets; the or-chain optimized in 20 µs;
// and, against the row-by-row engines, 50× (their time is interpretation,
// not memory) — unless the engine itself is under 50× the floor, where
// 50× would mean beating the memory and the floor target stands instead.
func (w *Workload) Targets() []Target {
	var ts []Target
	if w.Floor != nil {
		ts = append(ts, Target{Kind: AtMostFloor, Value: 1.5})
	}
	ts = append(ts, peerTargets[w.Name]...)
	if w.Kind == Optimizer {
		return append(ts, Target{Kind: AtMostTime, Time: 20 * time.Microsecond})
	}
	for _, im := range w.Impls {
		if im.Engine == CelGo || im.Engine == ExprLang {
			ts = append(ts, Target{Kind: AtLeastPeer, Peer: im.Engine, Value: 50, UnlessFloor: true})
		}
	}
	return ts
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
