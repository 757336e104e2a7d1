package optimize

import (
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/expr"
)

// EventKind says what happened when a rule matched a node.
type EventKind uint8

const (
	// Applied: the replacement was accepted and the node rewritten.
	Applied EventKind = iota
	// Rejected: the replacement had a different dtype, or equalled the
	// original; the node was left alone and the next rule tried. A rejection
	// is a bug in the rule.
	Rejected
	// BudgetExhausted: the rule matched, but the node position had taken
	// its budget of rewrites, or the run its budget of rewrites and nodes
	// walked (then no rule runs for the rest of the run); the node was left
	// as it is.
	BudgetExhausted
)

func (k EventKind) String() string {
	switch k {
	case Applied:
		return "applied"
	case Rejected:
		return "rejected"
	case BudgetExhausted:
		return "budget exhausted"
	}
	return "event?"
}

// Event is one match of a rule: the node before and the replacement the
// rule offered.
type Event struct {
	Kind   EventKind
	Rule   string
	Before *expr.Bound
	After  *expr.Bound
	// Reason explains a rejection or an exhausted budget.
	Reason string
	// Path is where Before stood in the tree when the rule matched: the
	// index of the child (expr.Bound.Args) taken at each level from the
	// top of the run's tree, empty for the top itself. The tree "when the
	// rule matched" is the run's input with every earlier Applied event's
	// After put at its Path; Trace.Replay rebuilds it, so a viewer can show
	// each rewrite in place. It is nil (and Replay refuses the event) once
	// a trace has recorded a million path entries, as a chain rewritten at
	// every level of a deep tree would.
	Path []int
}

// Trace is the record of one run, in the order rules matched.
type Trace struct {
	Events []Event
}

// Replay is the tree top (the tree the traced run was given) as it stood
// after the trace's first n events: each Applied event's After put in
// place of the node at its Path, the nodes above it rebuilt. Replay(top,
// len(t.Events)) is the run's result, structurally (expr.Bound.Equal).
// An event whose Path top does not have, or whose node there is not its
// Before, is an error: the trace is of another tree.
func (t *Trace) Replay(top *expr.Bound, n int) (*expr.Bound, error) {
	if n < 0 || n > len(t.Events) {
		return nil, fmt.Errorf("optimize: replay of %d events of a trace of %d", n, len(t.Events))
	}
	for i, e := range t.Events[:n] {
		if e.Kind != Applied {
			continue
		}
		if e.Path == nil {
			return nil, fmt.Errorf("optimize: replaying event %d (%s): the trace did not record where it applied (too deep a tree)", i+1, e.Rule)
		}
		out, err := replaceAt(top, e.Path, e.Before, e.After)
		if err != nil {
			return nil, fmt.Errorf("optimize: replaying event %d (%s): %w", i+1, e.Rule, err)
		}
		top = out
	}
	return top, nil
}

// replaceAt is top with the node at path, which must be before, replaced
// by after, and the nodes above it rebuilt. The walk is a loop, so a deep
// path costs no Go stack.
func replaceAt(top *expr.Bound, path []int, before, after *expr.Bound) (*expr.Bound, error) {
	nodes := make([]*expr.Bound, 0, len(path)+1)
	n := top
	for d, i := range path {
		if i < 0 || i >= len(n.Args()) {
			return nil, fmt.Errorf("the path %v leaves the tree at level %d (%s has %d children)", path, d, expr.Label(n), len(n.Args()))
		}
		nodes = append(nodes, n)
		n = n.Arg(i)
	}
	if n != before && !n.Equal(before) {
		return nil, fmt.Errorf("the node at %v is %s, not the rule's input %s", path, expr.Abbreviate(n.String()), expr.Abbreviate(before.String()))
	}
	n = after
	for d := len(nodes) - 1; d >= 0; d-- {
		args := append([]*expr.Bound(nil), nodes[d].Args()...)
		args[path[d]] = n
		nn, err := nodes[d].WithArgsSameTypes(args)
		if err != nil {
			return nil, err
		}
		n = nn
	}
	return n, nil
}

// Fired lists the rules that applied, in order (a rule appears once per
// application).
func (t *Trace) Fired() []string {
	var out []string
	for _, e := range t.Events {
		if e.Kind == Applied {
			out = append(out, e.Rule)
		}
	}
	return out
}

// Count is the number of times the named rule applied.
func (t *Trace) Count(rule string) int {
	n := 0
	for _, e := range t.Events {
		if e.Kind == Applied && e.Rule == rule {
			n++
		}
	}
	return n
}

// Problems lists the rejections and exhausted budgets.
func (t *Trace) Problems() []Event {
	var out []Event
	for _, e := range t.Events {
		if e.Kind != Applied {
			out = append(out, e)
		}
	}
	return out
}

// String prints the trace as explain shows it, one block per event:
//
//	binary/add_zero
//	  before: a + 0::i32
//	  after:  a
func (t *Trace) String() string {
	var b strings.Builder
	for _, e := range t.Events {
		b.WriteString(e.String())
	}
	return b.String()
}

// String prints the event as a block of lines; a long tree is abbreviated
// (expr.Abbreviate).
func (e Event) String() string {
	var b strings.Builder
	b.WriteString(e.Rule)
	if e.Kind != Applied {
		b.WriteString(" (" + e.Kind.String() + ": " + e.Reason + ")")
	}
	b.WriteString("\n  before: ")
	b.WriteString(expr.Abbreviate(e.Before.String()))
	b.WriteString("\n  after:  ")
	b.WriteString(expr.Abbreviate(e.After.String()))
	b.WriteByte('\n')
	return b.String()
}
