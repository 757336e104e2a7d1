package optimize

import (
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
}

// Trace is the record of one run, in the order rules matched.
type Trace struct {
	Events []Event
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
