package optimize

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/colexpr/colexpr/expr"
)

// A run is one optimization of one tree. It walks the tree bottom-up with
// an explicit stack of frames and a stack of results, so the Go stack stays
// flat however deep the tree is.
//
// The frames are the path from the top of the tree to the node being
// worked on: each frame is a node with children and the index of the next
// child to optimize. A child with children of its own gets a frame; a leaf
// goes to the rules at once and its result is pushed. When every child of a
// frame's node has a result, the frame is popped, its node rebuilt (only
// when a child changed, so an unchanged tree comes back as the same
// pointer), and the rules tried on it. A node whose children need no work
// (leaves that no rule looks at, or children a rewrite reuses, which are
// optimized already) goes to the rules at once, without a frame.
//
// When a rule replaces a node, the replacement takes the node's place and
// is optimized again, one rewrite further into the position's budget. Its
// children that were children or grandchildren of the node it replaced are
// already optimized and are pushed as results; new children are optimized
// (they inherit the position's budget count, so a rule that keeps inventing
// nodes still stops).
//
// The run as a whole has a budget too, proportional to the size of its
// input: a number of rewrites and a number of nodes settled (walked, new
// ones included). A rule that wraps its input in new nodes stays within the
// budget per position at every node it makes, yet the nodes multiply; the
// run's budget bounds the total work and the growth of the tree. When it is
// spent no rule runs for the rest of the run, which only rebuilds what is
// left, and the trace records one BudgetExhausted event.
type run struct {
	o       *Optimizer
	trace   *Trace
	ctx     Context
	frames  []frame
	results []*expr.Bound
	// known holds, per rewrite, the children and grandchildren of the
	// replaced node; frames refer to a range of it.
	known  []*expr.Bound
	ranges []frameRange
	// scope is the scope the tree was bound in; scopes add the frames of
	// the lambdas around the node being visited.
	scope  expr.Scope
	scopes []expr.Scope
	// High-water marks of frames and results, for reset.
	framesHW, resultsHW int
	// The run's budget: rewrites accepted and nodes settled so far, their
	// limits, and whether they were reached (no rule runs then).
	rewrites, visits       int
	maxRewrites, maxVisits int
	spent                  bool
	// Scratch space rules of this package may borrow during one call.
	scratchA, scratchB []*expr.Bound
	scratchInts        []int
	// pathInts is how many path entries the trace's events hold so far
	// (see maxTracePath).
	pathInts int
	// leafRules is whether any rule looks at leaves ($, variables,
	// literals): such rules are the rules for every node. Without any, a
	// leaf child is its own result.
	leafRules bool
	// seen holds nodes settled without a frame (their children needed no
	// work) on which every rule returned nil without asking the Context
	// about the node's surroundings: settled again at a position with the
	// same rule list, such a node is its own result without calling the
	// rules. A column read shared by many comparisons ($.x in x = 0 OR
	// x = 1 OR …, one node since expr.Bind) is settled once per use.
	seen [seenSize]seenEntry
	// asked counts the rule calls whose answer may depend on more than
	// the node: replacements handed to the hook, and questions to the
	// Context about the parent or the scope.
	asked int
}

// seenSize is the number of entries of run.seen, a power of two; a node
// takes the entry its address picks.
const seenSize = 8

type seenEntry struct {
	n    *expr.Bound
	link bool // the node's parent called the node's function
}

// maxTracePath bounds the path entries a trace records (8 MiB of them):
// every event's Path is as long as the tree is deep there, so a chain a
// million deep, rewritten at every level, would record a quadratic number.
// Past it, events have a nil Path and Trace.Replay refuses them.
const maxTracePath = 1 << 20

// A frame is 16 bytes, so that the stack of a deep tree stays small; the
// rare frames under a replacement keep their range of known nodes in
// run.ranges.
type frame struct {
	n        *expr.Bound
	next     int32 // the next child to optimize
	used     int16 // rewrites this node position has taken
	hasRange bool  // the top of run.ranges is this frame's
}

// frameRange is the range of run.known that a frame's children may be
// found in (they are then already optimized), and where to look first.
type frameRange struct {
	lo, hi, cur int32
}

var runPool = sync.Pool{New: func() any {
	r := &run{}
	r.frames = make([]frame, 0, 32)
	r.results = make([]*expr.Bound, 0, 32)
	return r
}}

// maxPooledStack bounds the stacks a pooled run keeps, so one huge tree
// does not pin its memory.
const maxPooledStack = 1 << 18

func (r *run) reset() {
	r.o, r.trace = nil, nil
	// Popped entries are not cleared as the run goes (that would cost a
	// write barrier per node); clear everything the run used now, so a
	// pooled run holds no tree.
	clear(r.results[:r.resultsHW])
	clear(r.frames[:r.framesHW])
	clear(r.known)
	clear(r.seen[:])
	clear(r.scratchA[:cap(r.scratchA)])
	clear(r.scratchB[:cap(r.scratchB)])
	for i := range r.scopes {
		r.scopes[i] = expr.Scope{}
	}
	r.scope = expr.Scope{}
	r.frames, r.results, r.known, r.scopes, r.ranges = r.frames[:0], r.results[:0], r.known[:0], r.scopes[:0], r.ranges[:0]
	r.framesHW, r.resultsHW = 0, 0
	r.rewrites, r.visits, r.maxRewrites, r.maxVisits, r.spent = 0, 0, 0, 0, false
	if cap(r.frames) > maxPooledStack {
		r.frames = make([]frame, 0, 32)
	}
	if cap(r.results) > maxPooledStack {
		r.results = make([]*expr.Bound, 0, 32)
	}
	if cap(r.known) > maxPooledStack {
		r.known = nil
	}
}

// The run's budget, for an input of size nodes: runRewritesPerNode
// rewrites and runNodesPerNode nodes settled a node, and runSlack more of
// each so that small trees have room.
const (
	runRewritesPerNode = 8
	runNodesPerNode    = 16
	runSlack           = 256
)

func (r *run) run(top *expr.Bound) (*expr.Bound, error) {
	size := top.Size()
	r.maxRewrites = runRewritesPerNode*size + runSlack
	r.maxVisits = runNodesPerNode*size + runSlack
	r.leafRules = len(r.o.anyRules) > 0
	r.settle(top, 0, 0, 0)
	for len(r.frames) > 0 {
		f := &r.frames[len(r.frames)-1]
		args := f.n.Args()
		if i := int(f.next); i < len(args) {
			c := args[i]
			f.next++
			switch {
			case c == nil:
				return nil, fmt.Errorf("%w: argument %d of %s", ErrNilNode, f.next, expr.Label(f.n))
			case f.hasRange:
				rg := &r.ranges[len(r.ranges)-1]
				if r.isKnown(c, rg) {
					r.results = append(r.results, c)
				} else {
					r.settle(c, f.used, rg.lo, rg.hi)
				}
			case len(c.Args()) == 0 && !r.leafRules && !isCallLeaf(c):
				r.results = append(r.results, c)
			default:
				r.settle(c, f.used, 0, 0)
			}
			continue
		}

		// Every child has its result: pop the frame and build the node.
		n, used := f.n, f.used
		if len(r.frames) > r.framesHW {
			r.framesHW = len(r.frames)
		}
		if f.hasRange {
			rg := r.ranges[len(r.ranges)-1]
			r.ranges = r.ranges[:len(r.ranges)-1]
			if len(r.ranges) == 0 || r.ranges[len(r.ranges)-1].hi <= rg.lo {
				// The range was this frame's own (its children shared
				// it, and they are done): drop it.
				r.forget(rg.lo)
			}
		}
		r.frames = r.frames[:len(r.frames)-1]
		base := len(r.results) - len(args)
		if base+len(args) > r.resultsHW {
			r.resultsHW = base + len(args)
		}
		for j, k := range r.results[base:] {
			if k != args[j] {
				nn, err := r.rebuild(n, r.results[base:])
				if err != nil {
					return nil, err
				}
				n = nn
				break
			}
		}
		r.results = r.results[:base]
		if n.Kind() == expr.KindLambda {
			r.scopes[len(r.scopes)-1] = expr.Scope{}
			r.scopes = r.scopes[:len(r.scopes)-1]
		}

		if out, lo, hi, ok := r.rewrite(n, used); ok {
			r.settle(out, used+1, lo, hi)
		} else {
			r.results = append(r.results, n)
		}
	}
	if len(r.results) != 1 {
		return nil, fmt.Errorf("optimize: internal error: %d results at the end of a run", len(r.results))
	}
	return r.results[0], nil
}

// rebuild is n with the optimized children kids, retyped.
func (r *run) rebuild(n *expr.Bound, kids []*expr.Bound) (*expr.Bound, error) {
	nn, err := n.WithArgsSameTypes(append([]*expr.Bound(nil), kids...))
	if err != nil {
		return nil, fmt.Errorf("optimize: internal error: rebuilding %s with optimized arguments: %w", expr.Label(n), err)
	}
	if !nn.DType().Equal(n.DType()) {
		return nil, fmt.Errorf("optimize: internal error: rebuilding %s changed its dtype from %s to %s", expr.Label(n), n.DType(), nn.DType())
	}
	return nn, nil
}

// settle puts n, whose children are not optimized yet, at the current
// position: a node with children gets a frame; a leaf goes to the rules at
// once, and so does a node whose children need no work, such
// as $.x, or the IN list binary/or_eq_to_in makes of a chain's values.
func (r *run) settle(n *expr.Bound, used int16, kLo, kHi int32) {
	for {
		r.visits++
		if args := n.Args(); len(args) > 0 {
			// Whether the children would all be their own results, with
			// no rule called and nothing walked: each is known (when there
			// is a range), or a leaf that no rule looks at, or seen (see
			// run.seen). The node then goes to the rules without a frame,
			// which is what its frame would come to; the seen children
			// count as settled, as they would have been. A chain's link,
			// whose first child is the rest of the chain, is decided by
			// that child.
			ready := n.Kind() != expr.KindLambda
			if ready {
				rg := frameRange{kLo, kHi, kLo}
				seen := 0
				for _, c := range args {
					switch {
					case c == nil:
						ready = false
					case kHi > kLo:
						ready = r.isKnown(c, &rg)
					case len(c.Args()) == 0 && !r.leafRules && !isCallLeaf(c):
					case r.isSeen(c, n):
						seen++
					default:
						ready = false
					}
					if !ready {
						break
					}
				}
				if ready {
					r.visits += seen
				}
			}
			if ready {
				// What the frame would do when it pops: drop the range
				// unless an enclosing frame's children share it.
				if len(r.ranges) == 0 || r.ranges[len(r.ranges)-1].hi <= kLo {
					r.forget(kLo)
				}
			} else {
				if n.Kind() == expr.KindLambda {
					r.pushScope(n)
				}
				hasRange := kHi > kLo
				if hasRange {
					r.ranges = append(r.ranges, frameRange{kLo, kHi, kLo})
				}
				r.frames = append(r.frames, frame{n: n, used: used, hasRange: hasRange})
				return
			}
		}
		// A node seen is its own result. A node the rules leave alone
		// is seen from now on, unless they asked about its position, or
		// its children were known (optimized at the position of the node
		// a rule replaced, not at this one).
		e := r.seenEntry(n)
		link := isLink(n, r.parent())
		if e.n == n && e.link == link {
			r.results = append(r.results, n)
			return
		}
		asked := r.asked
		out, lo, hi, ok := r.rewrite(n, used)
		if !ok {
			if r.asked == asked && kHi == kLo {
				*e = seenEntry{n, link}
			}
			r.results = append(r.results, n)
			return
		}
		n, used, kLo, kHi = out, used+1, lo, hi
	}
}

// seenEntry is the entry of run.seen that n takes.
func (r *run) seenEntry(n *expr.Bound) *seenEntry {
	return &r.seen[uintptr(unsafe.Pointer(n))>>5&(seenSize-1)]
}

// isSeen reports whether n, a child of parent, is in run.seen: it and its
// subtree are their own result there.
func (r *run) isSeen(n, parent *expr.Bound) bool {
	e := r.seenEntry(n)
	return e.n == n && e.link == isLink(n, parent)
}

// isLink reports whether n is a call of the function its parent calls: a
// link of a chain, where the rules for it leave out the ChainTop ones.
func isLink(n, parent *expr.Bound) bool {
	if parent == nil || n.Kind() != expr.KindCall || parent.Kind() != expr.KindCall {
		return false
	}
	// sameID, with the first byte compared before the bytes: ids of
	// different functions, "or" and "eq", rarely share one.
	a, b := parent.FnID(), n.FnID()
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || (a[0] == b[0] && a == b))
}

// isKnown reports whether c is in a frame's range of known nodes. The
// search starts after the previous match: a replacement usually lists the
// nodes it reuses in the order the rule gave them, so a long list costs one
// comparison per child.
func (r *run) isKnown(c *expr.Bound, rg *frameRange) bool {
	for i := rg.cur; i < rg.hi; i++ {
		if r.known[i] == c {
			rg.cur = i + 1
			return true
		}
	}
	for i := rg.lo; i < rg.cur; i++ {
		if r.known[i] == c {
			rg.cur = i + 1
			return true
		}
	}
	return false
}

func (r *run) pushScope(l *expr.Bound) {
	s := r.scope
	if len(r.scopes) > 0 {
		s = r.scopes[len(r.scopes)-1]
	}
	r.scopes = append(r.scopes, s.Push(l.Params(), l.ParamTypes()))
}

// parent is the node whose child the rules are looking at: the node of the
// top frame, or nil at the top of the tree.
func (r *run) parent() *expr.Bound {
	if len(r.frames) == 0 {
		return nil
	}
	return r.frames[len(r.frames)-1].n
}

// rewrite tries the rules on n, whose children are optimized. The first
// rule whose replacement the hook accepts wins; its replacement is returned
// with the range of r.known holding n's children and grandchildren.
func (r *run) rewrite(n *expr.Bound, used int16) (out *expr.Bound, kLo, kHi int32, ok bool) {
	if r.spent {
		return nil, 0, 0, false
	}
	// The rules that can match n: the one per-node cost of a run that
	// does not depend on the rules, so it is inline, and so is the common
	// look-up, the first slot of the dispatch table.
	rules := r.o.anyRules
	if n.Kind() == expr.KindCall && (len(n.Args()) > 0 || isCallLeaf(n)) {
		id, t := n.FnID(), &r.o.dispatch
		var l *ruleLists
		i := hashID(id) & t.mask
		switch s := &t.slots[i]; {
		case !s.used: // no rule names the function
		case unsafe.StringData(s.id) == unsafe.StringData(id) && len(s.id) == len(id):
			l = &s.lists
		default:
			l = t.probe(id, i)
		}
		if l == nil {
			l = &r.o.callRules
		}
		// The parent and the arguments are looked at only when some rule
		// of the lists sets the property they decide.
		link, noConst := 0, 0
		if l.chainTop && isLink(n, r.parent()) {
			link = 1
		}
		if l.constArg && len(n.Args()) > 0 && !hasConstArg(n.Args()) {
			noConst = 1
		}
		rules = l.lists[link][noConst]
	}
	lo := int32(len(r.known))
	for _, e := range rules {
		out := e.rewrite(&r.ctx, n)
		if out == nil {
			r.forget(lo)
			continue
		}
		use, stop := r.hook(e.index, n, out, used)
		if !use {
			r.forget(lo)
		}
		if stop {
			break
		}
		if !use {
			continue
		}
		for _, a := range n.Args() {
			r.known = append(r.known, a)
			r.known = append(r.known, a.Args()...)
		}
		return out, lo, int32(len(r.known)), true
	}
	return nil, 0, 0, false
}

// forget drops what a rule that did not apply passed to Context.Reuse.
func (r *run) forget(lo int32) {
	if int32(len(r.known)) > lo {
		clear(r.known[lo:])
		r.known = r.known[:lo]
	}
}

// hook is the one place every rule application goes through. It validates
// the replacement (same dtype, nullability included, and different from
// the original), enforces the budget, and feeds the trace and the
// counters. It reports whether the replacement is to be used, and whether
// the node is to take no more rewrites (its budget is spent).
func (r *run) hook(i int, before, after *expr.Bound, used int16) (use, stop bool) {
	r.asked++
	rule, stats := r.o.rules[i], &r.o.stats[i]
	reason := ""
	switch {
	case after.Kind() == expr.KindLambda && before.Kind() != expr.KindLambda:
		reason = "replacement is a lambda"
	case !after.DType().Equal(before.DType()):
		reason = fmt.Sprintf("replacement has dtype %s, want %s", after.DType(), before.DType())
	case after == before || sameTree(after, before):
		reason = "replacement equals the original"
	}
	if reason != "" {
		stats.rejected.Add(1)
		r.record(Event{Kind: Rejected, Rule: rule.Name, Before: before, After: after, Reason: reason})
		return false, false
	}
	if r.rewrites >= r.maxRewrites || r.visits > r.maxVisits {
		r.spent = true
		stats.budget.Add(1)
		r.record(Event{Kind: BudgetExhausted, Rule: rule.Name, Before: before, After: after,
			Reason: fmt.Sprintf("the run has taken %d rewrites and walked %d nodes, its limit for an input of %d nodes is %d and %d; no more rules run",
				r.rewrites, r.visits, (r.maxRewrites-runSlack)/runRewritesPerNode, r.maxRewrites, r.maxVisits)})
		return false, true
	}
	if int(used) >= r.o.budget {
		stats.budget.Add(1)
		r.record(Event{Kind: BudgetExhausted, Rule: rule.Name, Before: before, After: after,
			Reason: fmt.Sprintf("the node has taken %d rewrites", used)})
		return false, true
	}
	r.rewrites++
	stats.applied.Add(1)
	r.record(Event{Kind: Applied, Rule: rule.Name, Before: before, After: after})
	return true, false
}

func (r *run) record(e Event) {
	if r.trace != nil {
		if r.pathInts += len(r.frames); r.pathInts <= maxTracePath {
			e.Path = r.path()
		}
		r.trace.Events = append(r.trace.Events, e)
	}
}

// path is the position of the node the rules are looking at: the frames
// are its ancestors, each at the child it is working on (next has moved
// past it). The node's own frame, if it had one, is popped before the
// rules run.
func (r *run) path() []int {
	p := make([]int, len(r.frames))
	for i, f := range r.frames {
		p[i] = int(f.next) - 1
	}
	return p
}
