package optimize

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/scalar"
)

// DefaultBudget is the number of rewrites one node position may take in a
// run before the optimizer stops rewriting it.
const DefaultBudget = 16

// Evaluator evaluates a closed bound tree (no $, no free variable) to a
// scalar. Constant folding calls it; the default is eval.EvalConstant.
type Evaluator func(mem memory.Allocator, b *expr.Bound) (scalar.Scalar, error)

// Optimizer is a rule engine: an ordered list of rules, a rewrite budget,
// an allocator and an evaluator for constant folding, and per-rule
// counters.
//
// Configure an Optimizer (Register, Disable, Enable, SetBudget,
// SetAllocator, SetEvaluator) before sharing it; Optimize and Explain are
// then safe for concurrent use.
type Optimizer struct {
	rules    []*Rule
	stats    []ruleCounters
	byName   map[string]int
	disabled map[string]bool
	budget   int
	mem      memory.Allocator
	eval     Evaluator

	// dispatch lists, per function id, the enabled rules that can match a
	// call of it, in registration order (rules for every node merged in).
	dispatch  dispatchTable
	anyRules  []entry   // rules for every node: for leaves, $, variables
	callRules ruleLists // rules for every node or every call: for calls of other functions
}

// ruleLists are the rules that can match a call, in four lists: lists[0]
// at the top of a chain of calls of its function, lists[1] at a link of
// one (the node's parent calls the same function), where the ChainTop rules
// are left out; [·][1] when no argument is a literal or a lambda, where the
// ConstArg rules are left out. chainTop and constArg say whether any rule
// of the lists sets the property, so that the lists differ.
type ruleLists struct {
	lists              [2][2][]entry
	chainTop, constArg bool
}

// dispatchTable is a small open-addressing hash table from function id to
// rule list. Looking a node's rules up is the one per-node cost of a run
// that does not depend on the rules, so it avoids hashing the whole id:
// the hash mixes the length and the first and last bytes.
type dispatchTable struct {
	slots []dispatchSlot
	mask  uint32
}

type dispatchSlot struct {
	id    string
	lists ruleLists
	used  bool
}

// entry is a rule in a dispatch list: its Rewrite function, and its index
// in Optimizer.rules for the hook.
type entry struct {
	rewrite func(*Context, *expr.Bound) *expr.Bound
	index   int
}

func hashID(id string) uint32 {
	if id == "" {
		return 0
	}
	return uint32(len(id))*0x9e3779b1 ^ uint32(id[0])*0x85ebca6b ^ uint32(id[len(id)-1])*0xc2b2ae35
}

func newDispatchTable(lists map[string]ruleLists) dispatchTable {
	size := 8
	for size < 4*len(lists) {
		size *= 2
	}
	t := dispatchTable{slots: make([]dispatchSlot, size), mask: uint32(size - 1)}
	for id, list := range lists {
		i := hashID(id) & t.mask
		for t.slots[i].used {
			i = (i + 1) & t.mask
		}
		t.slots[i] = dispatchSlot{id: id, lists: list, used: true}
	}
	return t
}

// probe is the lists for the function id, or nil when no rule names it,
// looking from slot i on. The run looks at the first slot itself (see
// run.rewrite), by address: an id is usually the very string the table
// was built with.
//
//go:noinline
func (t *dispatchTable) probe(id string, i uint32) *ruleLists {
	for ; t.slots[i].used; i = (i + 1) & t.mask {
		if s := &t.slots[i]; sameID(s.id, id) {
			return &s.lists
		}
	}
	return nil
}

// sameID is a == b for function ids, which are usually the very string a
// function gives (fn.IDOr): the same bytes at the same address answer
// without comparing them.
func sameID(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

type ruleCounters struct {
	applied, rejected, budget atomic.Int64
}

// New is an optimizer with the built-in rules (BuiltinRules), the default
// budget, Go's default allocator and eval.EvalConstant for folding.
func New() *Optimizer {
	o := NewEmpty()
	if err := o.Register(BuiltinRules()...); err != nil {
		panic(err) // the built-in rules have valid, distinct names
	}
	return o
}

// NewEmpty is an optimizer with no rules.
func NewEmpty() *Optimizer {
	o := &Optimizer{
		byName:   map[string]int{},
		disabled: map[string]bool{},
		budget:   DefaultBudget,
		mem:      memory.DefaultAllocator,
		eval:     defaultEvaluator,
	}
	o.rebuild()
	return o
}

var defaultOptimizer = sync.OnceValue(New)

// Optimize runs the built-in rules over b (see New).
func Optimize(b *expr.Bound) (*expr.Bound, error) { return defaultOptimizer().Optimize(b) }

// Register appends rules, in order, after the ones already registered. A
// rule needs a name of the form family/rule that no other rule has, and a
// Rewrite function.
func (o *Optimizer) Register(rules ...*Rule) error {
	for i, r := range rules {
		switch {
		case r == nil:
			return fmt.Errorf("optimize: rule %d is nil", i)
		case r.Rewrite == nil:
			return fmt.Errorf("optimize: rule %q has no Rewrite function", r.Name)
		}
		if err := validRuleName(r.Name); err != nil {
			return err
		}
		for j, f := range r.Fns {
			if f == nil {
				return fmt.Errorf("optimize: rule %q: function %d of Fns is nil", r.Name, j)
			}
		}
		if _, dup := o.byName[r.Name]; dup {
			return fmt.Errorf("optimize: rule %q is already registered", r.Name)
		}
		for j := range i {
			if rules[j].Name == r.Name {
				return fmt.Errorf("optimize: rule %q is given twice", r.Name)
			}
		}
	}
	for _, r := range rules {
		o.byName[r.Name] = len(o.rules)
		o.rules = append(o.rules, r)
	}
	o.stats = append(o.stats, make([]ruleCounters, len(rules))...)
	o.rebuild()
	return nil
}

// Disable turns rules off by name. A name is a rule's full name
// ("binary/add_zero") or a family followed by "/*" ("binary/*"). Unknown
// names are an error and change nothing.
func (o *Optimizer) Disable(names ...string) error { return o.setDisabled(names, true) }

// Enable turns rules back on; it takes the names Disable takes.
func (o *Optimizer) Enable(names ...string) error { return o.setDisabled(names, false) }

func (o *Optimizer) setDisabled(names []string, off bool) error {
	var match [][]int
	for _, name := range names {
		var idx []int
		if family, ok := strings.CutSuffix(name, "/*"); ok {
			for i, r := range o.rules {
				if r.Family() == family {
					idx = append(idx, i)
				}
			}
		} else if i, ok := o.byName[name]; ok {
			idx = []int{i}
		}
		if len(idx) == 0 {
			return fmt.Errorf("optimize: no rule named %q", name)
		}
		match = append(match, idx)
	}
	for _, idx := range match {
		for _, i := range idx {
			if off {
				o.disabled[o.rules[i].Name] = true
			} else {
				delete(o.disabled, o.rules[i].Name)
			}
		}
	}
	o.rebuild()
	return nil
}

// Enabled reports whether the named rule is registered and enabled.
func (o *Optimizer) Enabled(name string) bool {
	_, ok := o.byName[name]
	return ok && !o.disabled[name]
}

// Rules are the registered rules in order, disabled ones included.
func (o *Optimizer) Rules() []*Rule { return append([]*Rule(nil), o.rules...) }

// MaxBudget is the largest budget SetBudget accepts.
const MaxBudget = 1 << 14

// SetBudget sets the number of rewrites one node position may take in a
// run, between 1 and MaxBudget.
func (o *Optimizer) SetBudget(n int) {
	o.budget = min(max(n, 1), MaxBudget)
}

// Budget is the rewrite budget per node position.
func (o *Optimizer) Budget() int { return o.budget }

// SetAllocator sets the allocator constant folding evaluates with.
func (o *Optimizer) SetAllocator(mem memory.Allocator) { o.mem = mem }

// SetEvaluator replaces the evaluator constant folding uses; nil restores
// eval.EvalConstant.
func (o *Optimizer) SetEvaluator(e Evaluator) {
	if e == nil {
		e = defaultEvaluator
	}
	o.eval = e
}

// RuleStats counts what happened to one rule over every run of an
// optimizer: how often it applied, how often the engine rejected its
// replacement, and how often it would have applied but the node had used up
// its budget.
type RuleStats struct {
	Name     string
	Applied  int64
	Rejected int64
	Budget   int64
}

// Stats are the counters of every registered rule, in order.
func (o *Optimizer) Stats() []RuleStats {
	out := make([]RuleStats, len(o.rules))
	for i, r := range o.rules {
		s := &o.stats[i]
		out[i] = RuleStats{Name: r.Name, Applied: s.applied.Load(), Rejected: s.rejected.Load(), Budget: s.budget.Load()}
	}
	return out
}

// ResetStats sets every counter to zero.
func (o *Optimizer) ResetStats() {
	for i := range o.stats {
		o.stats[i].applied.Store(0)
		o.stats[i].rejected.Store(0)
		o.stats[i].budget.Store(0)
	}
}

// rebuild recomputes the dispatch lists after a change of rules or of what
// is disabled.
func (o *Optimizer) rebuild() {
	matches := func(r *Rule, id string, call bool) bool {
		if len(r.Fns) == 0 && !r.AnyCall {
			return true
		}
		if call && r.AnyCall {
			return true
		}
		for _, f := range r.Fns {
			if f.ID() == id {
				return true
			}
		}
		return false
	}
	list := func(id string, call, link, noConst bool) []entry {
		var l []entry
		for i, r := range o.rules {
			if !o.disabled[r.Name] && matches(r, id, call) && !(link && r.ChainTop) && !(noConst && r.ConstArg) {
				l = append(l, entry{r.Rewrite, i})
			}
		}
		return l
	}
	lists := func(id string) ruleLists {
		var l ruleLists
		for link := range 2 {
			for noConst := range 2 {
				l.lists[link][noConst] = list(id, true, link == 1, noConst == 1)
			}
		}
		l.chainTop = len(l.lists[1][0]) != len(l.lists[0][0])
		l.constArg = len(l.lists[0][1]) != len(l.lists[0][0])
		return l
	}
	ids := map[string]bool{}
	for _, r := range o.rules {
		for _, f := range r.Fns {
			ids[f.ID()] = true
		}
	}
	byID := make(map[string]ruleLists, len(ids))
	for id := range ids {
		byID[id] = lists(id)
	}
	o.dispatch = newDispatchTable(byID)
	// A leaf is no link of a chain: no call with arguments calls its
	// function.
	o.anyRules = list("", false, false, false)
	o.callRules = lists("")
}

// hasConstArg reports whether one of args may be a literal (a call without
// arguments) or is a lambda: whether a ConstArg rule may apply.
func hasConstArg(args []*expr.Bound) bool {
	for _, a := range args {
		if k := a.Kind(); k == expr.KindLambda || (k == expr.KindCall && len(a.Args()) == 0) {
			return true
		}
	}
	return false
}

// Optimize rewrites b with the enabled rules, bottom-up, and returns the
// result, which has b's dtype. When no rule applies anywhere it returns b
// itself. The error reports an inconsistent tree (a nil node, or a node
// whose function no longer types its rebuilt arguments); rules never cause
// one.
func (o *Optimizer) Optimize(b *expr.Bound) (*expr.Bound, error) {
	return o.optimize(b, expr.Scope{}, nil)
}

// OptimizeIn is Optimize of b bound in scope (as expr.Bind and coerce take
// it): a rule's Context.Lookup then resolves the scope's variables too,
// such as the partition variables of package partition, beside lambda
// parameters. Optimize is OptimizeIn with the empty scope.
func (o *Optimizer) OptimizeIn(b *expr.Bound, scope expr.Scope) (*expr.Bound, error) {
	return o.optimize(b, scope, nil)
}

// Explain is Optimize that also returns the trace of the run: every rule
// that applied with the node before and after, and every rejection and
// exhausted budget.
func (o *Optimizer) Explain(b *expr.Bound) (*expr.Bound, *Trace, error) {
	return o.ExplainIn(b, expr.Scope{})
}

// ExplainIn is Explain of b bound in scope (see OptimizeIn).
func (o *Optimizer) ExplainIn(b *expr.Bound, scope expr.Scope) (*expr.Bound, *Trace, error) {
	tr := &Trace{}
	out, err := o.optimize(b, scope, tr)
	return out, tr, err
}

// ErrNilNode is returned for a nil tree or a tree with a nil node.
var ErrNilNode = errors.New("optimize: nil node")

func (o *Optimizer) optimize(b *expr.Bound, scope expr.Scope, tr *Trace) (*expr.Bound, error) {
	if b == nil {
		return nil, ErrNilNode
	}
	r := runPool.Get().(*run)
	r.o, r.trace, r.scope = o, tr, scope
	r.ctx.r = r
	out, err := r.run(b)
	r.reset()
	runPool.Put(r)
	return out, err
}
