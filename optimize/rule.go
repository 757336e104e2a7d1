package optimize

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Rule is one named rewrite. A rule sees a node whose children are already
// optimized and returns its replacement, or nil when it does not apply.
//
// The replacement must have exactly the node's dtype (nullability included,
// at every level) and must differ from the node; the engine rejects and
// records anything else, so a rule should check both before it returns.
// Rules are pure functions of the node and the Context: the same node
// always gives the same answer, which keeps optimization deterministic.
//
// An optimizer keeps the pointer it is given: do not change a rule after
// registering it (the built-in rules are shared by every optimizer).
type Rule struct {
	// Name is "family/rule", such as "binary/add_zero".
	Name string
	// Fns are the functions whose calls the rule can rewrite, such as
	// fn.Add, or fn.CastFn{} for every checked cast: a call matches a
	// function of Fns with its id. Naming functions by value, not by name,
	// a rule cannot name one that does not exist.
	Fns []fn.Function
	// AnyCall makes the rule see every call with arguments (every call but
	// a literal), whatever Fns says. With neither Fns nor AnyCall the rule
	// sees every node: calls of any function, literals, $, variables and
	// lambdas.
	AnyCall bool
	// ChainTop makes the rule see a call only at the top of a chain of
	// calls of one function: never when the node's parent calls the
	// function the node calls (a OR b OR c is or(or(a, b), c), whose top
	// is the outer or). A rule that takes a whole chain apart at once, as
	// binary/or_eq_to_in does, then runs once per chain; the engine skips
	// it at the links without calling it.
	ChainTop bool
	// ConstArg says that the rule rewrites only calls with an argument that
	// is a literal or a lambda (x + 0, p OR true, folding), so the engine
	// skips it, without calling it, at calls with neither (the links of a
	// chain of ORs, $.x). A rule that sets it must return nil for such
	// calls anyway; the property only saves the call.
	ConstArg bool
	// Rewrite returns the replacement of n, or nil.
	Rewrite func(c *Context, n *expr.Bound) *expr.Bound
}

// String is the rule's name.
func (r *Rule) String() string { return r.Name }

// Family is the part of the name before the slash.
func (r *Rule) Family() string {
	family, _, _ := strings.Cut(r.Name, "/")
	return family
}

func validRuleName(name string) error {
	family, rule, ok := strings.Cut(name, "/")
	if !ok || family == "" || rule == "" || strings.Contains(rule, "/") || strings.ContainsAny(name, " \t\n*") {
		return fmt.Errorf("optimize: rule name %q is not of the form family/rule", name)
	}
	return nil
}

// Context is what a rule may ask of the run that calls it. It is only valid
// during the call of Rewrite.
type Context struct {
	r *run
}

// Mem is the allocator constant folding evaluates with.
func (c *Context) Mem() memory.Allocator { return c.r.o.mem }

// Parent is the function of the call the node is an argument of, or nil when
// the node is the top of the run or a lambda's body. (A rule that acts once
// on a whole chain need not ask: Rule.ChainTop says so to the engine.)
func (c *Context) Parent() fn.Function {
	c.r.asked++
	p := c.r.parent()
	if p == nil || p.Kind() != expr.KindCall {
		return nil
	}
	return p.Fn()
}

// position is the node whose argument the rule is looking at and the
// argument's index, or nil and -1 at the top of the run: Parent, for the
// rules of this package that look at the parent node itself. Like Parent,
// asking ties the rule's answer to the node's position (see run.seen).
func (c *Context) position() (parent *expr.Bound, arg int) {
	c.r.asked++
	if len(c.r.frames) == 0 {
		return nil, -1
	}
	f := &c.r.frames[len(c.r.frames)-1]
	return f.n, int(f.next) - 1
}

// Lookup is the dtype of a variable visible at the node: a parameter of a
// lambda around it (the optimizer knows their types from the bound lambda
// nodes), else a variable of the scope given to OptimizeIn or ExplainIn.
func (c *Context) Lookup(name string) (dtype.DType, bool) {
	c.r.asked++
	if len(c.r.scopes) == 0 {
		return c.r.scope.Lookup(name)
	}
	return c.r.scopes[len(c.r.scopes)-1].Lookup(name)
}

// Reuse tells the engine that the replacement the rule is about to return
// reuses these subtrees of the node, which are already optimized, so they
// are not walked again. Children and grandchildren of the node are known
// without it; a rule that takes nodes from deeper down (as
// binary/or_eq_to_in does from a whole OR chain) may name them, in the
// order the replacement holds them. It is only a saving: naming a node that
// is not from the node's subtree would leave that node unoptimized.
func (c *Context) Reuse(nodes ...*expr.Bound) {
	c.r.known = append(c.r.known, nodes...)
}

// Fold evaluates n, a call whose arguments are literals (lambda arguments
// may refer only to their own parameters), with the evaluator's kernels and
// returns the result as a literal of n's dtype. It returns nil when n is not
// constant, not Immutable, or when evaluation fails: a folded error would be
// raised where the data might never have raised it.
func (c *Context) Fold(n *expr.Bound) *expr.Bound {
	if !isConstantCall(n) {
		return nil
	}
	return c.r.fold(n)
}
