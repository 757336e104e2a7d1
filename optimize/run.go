package optimize

import (
	"fmt"
	"sync"

	"github.com/colexpr/colexpr/expr"
)

// A run is one optimization of one tree. It walks the tree bottom-up with
// an explicit task stack and result stack, so the Go stack stays flat
// however deep the tree is.
//
// Tasks:
//
//	visit  n   push build n, then visit each child (last child first, so the
//	           first child's result lands first on the result stack);
//	           a node without children goes straight to the rules
//	build  n   pop n's children's results; rebuild n only when one of them
//	           changed; then try the rules on it
//	done   n   n is already optimized: push it as a result as it is
//
// When a rule replaces a node, the replacement is visited again, one
// rewrite further into the node position's budget. Its children that were
// children or grandchildren of the node it replaced are already optimized
// and become done tasks; new children are visited (they inherit the
// position's budget count, so a rule that keeps inventing nodes still stops).
type run struct {
	o       *Optimizer
	trace   *Trace
	ctx     Context
	tasks   []task
	results []*expr.Bound
	// known holds, per rewrite, the children and grandchildren of the
	// replaced node; tasks refer to a range of it.
	known  []*expr.Bound
	scopes []expr.Scope
	cur    task // the task whose node the rules are looking at
}

type taskKind uint8

const (
	taskVisit taskKind = iota
	taskBuild
	taskDone
)

type task struct {
	n      *expr.Bound
	parent *expr.Bound // the node's parent, nil at the top of the run
	used   int32       // rewrites this node position has taken
	kLo    int32       // range of run.known that is already optimized
	kHi    int32
	kind   taskKind
}

var runPool = sync.Pool{New: func() any {
	r := &run{}
	r.tasks = make([]task, 0, 64)
	r.results = make([]*expr.Bound, 0, 64)
	return r
}}

// maxPooledStack bounds the stacks a pooled run keeps, so one huge tree
// does not pin its memory.
const maxPooledStack = 1 << 14

func (r *run) reset() {
	r.o, r.trace, r.cur = nil, nil, task{}
	clear(r.results)
	clear(r.tasks)
	clear(r.known)
	for i := range r.scopes {
		r.scopes[i] = expr.Scope{}
	}
	r.tasks, r.results, r.known, r.scopes = r.tasks[:0], r.results[:0], r.known[:0], r.scopes[:0]
	if cap(r.tasks) > maxPooledStack {
		r.tasks = make([]task, 0, 64)
	}
	if cap(r.results) > maxPooledStack {
		r.results = make([]*expr.Bound, 0, 64)
	}
	if cap(r.known) > maxPooledStack {
		r.known = nil
	}
}

func (r *run) run(root *expr.Bound) (*expr.Bound, error) {
	r.tasks = append(r.tasks, task{n: root, kind: taskVisit})
	for len(r.tasks) > 0 {
		t := r.tasks[len(r.tasks)-1]
		r.tasks[len(r.tasks)-1] = task{}
		r.tasks = r.tasks[:len(r.tasks)-1]
		switch t.kind {
		case taskDone:
			r.results = append(r.results, t.n)
		case taskVisit:
			if err := r.visit(t); err != nil {
				return nil, err
			}
		case taskBuild:
			if err := r.build(t); err != nil {
				return nil, err
			}
		}
	}
	if len(r.results) != 1 {
		return nil, fmt.Errorf("optimize: internal error: %d results at the end of a run", len(r.results))
	}
	return r.results[0], nil
}

func (r *run) visit(t task) error {
	n := t.n
	args := n.Args()
	if len(args) == 0 {
		r.rewrite(t)
		return nil
	}
	if n.Kind() == expr.KindLambda {
		r.pushScope(n)
	}
	t.kind = taskBuild
	r.tasks = append(r.tasks, t)
	for i := len(args) - 1; i >= 0; i-- {
		c := args[i]
		if c == nil {
			return fmt.Errorf("%w: argument %d of %s", ErrNilNode, i+1, expr.Label(n))
		}
		kind := taskVisit
		if t.kHi > t.kLo && r.isKnown(c, t) {
			kind = taskDone
		}
		r.tasks = append(r.tasks, task{n: c, parent: n, used: t.used, kLo: t.kLo, kHi: t.kHi, kind: kind})
	}
	return nil
}

func (r *run) isKnown(c *expr.Bound, t task) bool {
	for _, k := range r.known[t.kLo:t.kHi] {
		if k == c {
			return true
		}
	}
	return false
}

func (r *run) build(t task) error {
	n := t.n
	args := n.Args()
	kids := r.results[len(r.results)-len(args):]
	changed := false
	for i, k := range kids {
		if k != args[i] {
			changed = true
			break
		}
	}
	if changed {
		nn, err := n.WithArgs(append([]*expr.Bound(nil), kids...))
		if err != nil {
			return fmt.Errorf("optimize: internal error: rebuilding %s with optimized arguments: %w", expr.Label(n), err)
		}
		if !nn.DType().Equal(n.DType()) {
			return fmt.Errorf("optimize: internal error: rebuilding %s changed its dtype from %s to %s", expr.Label(n), n.DType(), nn.DType())
		}
		t.n = nn
	}
	clear(kids)
	r.results = r.results[:len(r.results)-len(args)]
	if n.Kind() == expr.KindLambda {
		r.scopes = r.scopes[:len(r.scopes)-1]
	}
	r.rewrite(t)
	return nil
}

func (r *run) pushScope(l *expr.Bound) {
	var s expr.Scope
	if len(r.scopes) > 0 {
		s = r.scopes[len(r.scopes)-1]
	}
	r.scopes = append(r.scopes, s.Push(l.Params(), l.ParamTypes()))
}

// rewrite tries the rules on t.n, whose children are optimized. The first
// rule whose replacement the hook accepts wins: the replacement is visited
// again. Otherwise t.n is the result.
func (r *run) rewrite(t task) {
	n := t.n
	r.cur = t
	for _, i := range r.o.rulesFor(n) {
		out := r.o.rules[i].Rewrite(&r.ctx, n)
		if out == nil {
			continue
		}
		use, stop := r.hook(i, n, out, t.used)
		if stop {
			break
		}
		if !use {
			continue
		}
		lo := int32(len(r.known))
		for _, a := range n.Args() {
			r.known = append(r.known, a)
			r.known = append(r.known, a.Args()...)
		}
		r.tasks = append(r.tasks, task{n: out, parent: t.parent, used: t.used + 1, kLo: lo, kHi: int32(len(r.known)), kind: taskVisit})
		return
	}
	r.results = append(r.results, n)
}

// hook is the one place every rule application goes through. It validates
// the replacement (same dtype, nullability included, and different from
// the original), enforces the budget, and feeds the trace and the
// counters. It reports whether the replacement is to be used, and whether
// the node is to take no more rewrites (its budget is spent).
func (r *run) hook(i int, before, after *expr.Bound, used int32) (use, stop bool) {
	rule, stats := r.o.rules[i], &r.o.stats[i]
	reason := ""
	switch {
	case after.Kind() == expr.KindLambda && before.Kind() != expr.KindLambda:
		reason = "replacement is a lambda"
	case !after.DType().Equal(before.DType()):
		reason = fmt.Sprintf("replacement has dtype %s, want %s", after.DType(), before.DType())
	case after == before || after.Equal(before):
		reason = "replacement equals the original"
	}
	if reason != "" {
		stats.rejected.Add(1)
		r.record(Event{Kind: Rejected, Rule: rule.Name, Before: before, After: after, Reason: reason})
		return false, false
	}
	if int(used) >= r.o.budget {
		stats.budget.Add(1)
		r.record(Event{Kind: BudgetExhausted, Rule: rule.Name, Before: before, After: after,
			Reason: fmt.Sprintf("the node has taken %d rewrites", used)})
		return false, true
	}
	stats.applied.Add(1)
	r.record(Event{Kind: Applied, Rule: rule.Name, Before: before, After: after})
	return true, false
}

func (r *run) record(e Event) {
	if r.trace != nil {
		r.trace.Events = append(r.trace.Events, e)
	}
}
