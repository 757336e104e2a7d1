package optimize_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
)

// unshare is a copy of b in which no node appears twice: expr.Bind makes
// one node per column read ($.a read twice is one node), and a run settles
// such a node once for all its parents when the rules leave it alone.
func unshare(t testing.TB, b *expr.Bound) *expr.Bound {
	t.Helper()
	switch b.Kind() {
	case expr.KindRoot:
		return expr.NewRoot(b.DType())
	case expr.KindVar:
		return expr.NewVar(b.Name(), b.DType())
	case expr.KindLambda:
		return expr.NewLambda(b.Params(), b.ParamTypes(), unshare(t, b.Body()))
	}
	if len(b.Args()) == 0 {
		return b // a literal: Bind makes one per occurrence already
	}
	args := make([]*expr.Bound, len(b.Args()))
	for i, a := range b.Args() {
		args[i] = unshare(t, a)
	}
	out, err := expr.NewCall(b.Fn(), args...)
	if err != nil {
		t.Fatalf("unshare %s: %v", b, err)
	}
	return out
}

// sameTrace compares two traces event by event, paths included.
func sameTrace(a, b *optimize.Trace) bool {
	if len(a.Events) != len(b.Events) {
		return false
	}
	for i, x := range a.Events {
		y := b.Events[i]
		if x.Kind != y.Kind || x.Rule != y.Rule || x.Reason != y.Reason || !slices.Equal(x.Path, y.Path) ||
			!x.Before.Equal(y.Before) || !x.After.Equal(y.After) {
			return false
		}
	}
	return true
}

// TestSharedNodesAsDistinct: a tree whose column reads are shared
// optimizes to the tree, with the trace and the counters, that the same
// tree with every node distinct does: over every golden case and over
// expressions that read one column many times.
func TestSharedNodesAsDistinct(t *testing.T) {
	srcs := []string{
		"a = 0 OR a = 1 OR a = 2 OR b = 3 OR a < 4",
		"a + 0 + a * 1 + (a - a) + b",
		"(a = 1 OR a = 2) AND (a = 1 OR a = 2) AND p AND p",
		"coalesce(n, n, a) + coalesce(n, 1) + n",
		"list_any(xs, x -> x = a OR x = a + 1) OR a = 3",
		"CAST(t AS i32) = 5 OR CAST(t AS i32) = 6 OR t IS NULL",
	}
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		for _, c := range readGolden(t, path) {
			srcs = append(srcs, c.input)
		}
	}
	for _, src := range srcs {
		b, err := bindText(src)
		if err != nil {
			continue // a case that shows a bind error
		}
		shared, distinct := optimize.New(), optimize.New()
		got, gotTr := mustOptimize(t, shared, b)
		want, wantTr := mustOptimize(t, distinct, unshare(t, b))
		if !got.Equal(want) || !sameTrace(gotTr, wantTr) {
			t.Errorf("%s: shared %s\n%s\ndistinct %s\n%s", src, got, gotTr, want, wantTr)
		}
		if !slices.Equal(shared.Stats(), distinct.Stats()) {
			t.Errorf("%s: shared and distinct trees count different rule applications", src)
		}
	}
}

// TestSharedNodeAsksItsPosition: a rule that asks about the parent of a
// shared node is called at every position of it, and may answer
// differently at each.
func TestSharedNodeAsksItsPosition(t *testing.T) {
	var parents []string
	spy := &optimize.Rule{Name: "test/parent", Fns: []fn.Function{fn.GetItemFn{}},
		Rewrite: func(c *optimize.Context, n *expr.Bound) *expr.Bound {
			parents = append(parents, c.Parent().ID())
			return nil
		}}
	o := optimize.NewEmpty()
	if err := o.Register(spy); err != nil {
		t.Fatal(err)
	}
	b := mustBind(t, "a = 1 OR a < 2 OR a = 3")
	if _, err := o.Optimize(b); err != nil {
		t.Fatal(err)
	}
	if want := []string{"eq", "lt", "eq"}; !slices.Equal(parents, want) {
		t.Errorf("the rule saw $.a under %q, want %q", parents, want)
	}
}

// TestSharedLinkOfMergeChain: binary/merge_constants leaves a link of a
// chain to the parent that merges it, so one node is rewritten under one
// parent and not under another.
func TestSharedLinkOfMergeChain(t *testing.T) {
	// c = a + 1 and n = c + 2, one node each wherever they appear:
	// a * (c + 5) * ((n + 3) * (n + b)). Under c + 5 and n + 3 the parent
	// merges the chain; under n + b, n merges its own (a + 3).
	add := func(x, y *expr.Bound) *expr.Bound {
		out, err := expr.NewCall(fn.Add, x, y)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	mul := func(x, y *expr.Bound) *expr.Bound {
		out, err := expr.NewCall(fn.Mul, x, y)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	lits := mustBind(t, "a + 1 + 2 + 3 + 5 + b")
	lit := func(i int) *expr.Bound { // the literal i steps up the chain
		x := lits.Arg(0)
		for range 3 - i {
			x = x.Arg(0)
		}
		return x.Arg(1)
	}
	a, b := lits.Arg(0).Arg(0).Arg(0).Arg(0).Arg(0), lits.Arg(1)
	c := add(a, lit(0))
	n := add(c, lit(1))
	tree := mul(mul(a, add(c, lit(3))), mul(add(n, lit(2)), add(n, b)))
	got, _ := mustOptimize(t, optimize.New(), tree)
	want, _ := mustOptimize(t, optimize.New(), unshare(t, tree))
	if !got.Equal(want) {
		t.Errorf("shared: %s, distinct: %s", got, want)
	}
	if w := "a * (a + 6::i32) * ((a + 6::i32) * (a + 3::i32 + b))"; got.String() != w {
		t.Errorf("got %s, want %s", got, w)
	}
}
