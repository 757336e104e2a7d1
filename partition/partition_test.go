package partition_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scalar"
)

// TestByFieldRootErrors checks the roots ByField refuses.
func TestByFieldRootErrors(t *testing.T) {
	good := expr.ScopeOf(mustType(t, "struct<a: i32>"))
	b := bindSrc(t, "a > 1", good)
	cases := []struct {
		name  string
		scope expr.Scope
		msg   string
	}{
		{"not a struct", expr.ScopeOf(mustType(t, "i32")), "the root dtype is i32, not a struct"},
		{"nullable struct", expr.ScopeOf(mustType(t, "struct<a: i32>?")), "is nullable"},
		{"other root", expr.ScopeOf(mustType(t, "struct<a: i32, b: i32>")), "was bound against struct<a: i32>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := partition.ByField(b, c.scope)
			if !errors.Is(err, partition.ErrRoot) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want ErrRoot saying %q", err, c.msg)
			}
		})
	}
}

// TestByFieldNames checks the variable names: p_ and the field, made
// unique against the scope, the lambda parameters and each other.
func TestByFieldNames(t *testing.T) {
	root := mustType(t, `struct<a: i32, p_a: i32, "odd name": i32, xs: list<i32>>`)
	scope := expr.ScopeOf(root).With("p_odd name", dtype.Primitive(dtype.I32, false))
	b := bindSrc(t, `list_any(xs, p_p_a -> p_p_a = a + p_a) AND "odd name" > $"p_odd name"`, scope)
	p, err := partition.ByField(b, scope)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, part := range p.Partitions {
		got = append(got, part.Field+"="+part.Var)
	}
	want := "a=p_a p_a=p_p_a_1 odd name=p_odd name_1 xs=p_xs"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	if part, ok := p.Partition("xs"); !ok || part.Var != "p_xs" {
		t.Errorf("Partition(xs) = %v, %v", part, ok)
	}
	if _, ok := p.Partition("nope"); ok {
		t.Errorf("Partition(nope) found something")
	}
	wantRoot := `list_any($p_xs, lambda p_p_a: p_p_a = $p_a + $p_p_a_1) AND $"p_odd name_1" > $"p_odd name"`
	if got := p.Root.String(); got != wantRoot {
		t.Errorf("root: got %s, want %s", got, wantRoot)
	}
}

// TestByFieldShared checks a subtree shared between two positions: inside a
// lambda that binds a variable it reads, and outside any lambda where the
// same name is the caller's variable.
func TestByFieldShared(t *testing.T) {
	root := mustType(t, "struct<a: i32, xs: list<i32>>")
	scope := expr.ScopeOf(root).With("x", dtype.Primitive(dtype.I32, false))
	shared := bindSrc(t, "$.a + $x", scope)
	lam, err := expr.NewCall(fn.ListAny, bindSrc(t, "xs", scope),
		expr.NewLambda([]string{"x"}, []dtype.DType{dtype.Primitive(dtype.I32, false)},
			mustCall(t, fn.Gt, expr.NewVar("x", dtype.Primitive(dtype.I32, false)), shared)))
	if err != nil {
		t.Fatal(err)
	}
	b := mustCall(t, fn.And, lam, mustCall(t, fn.Gt, shared, expr.NewLiteral(scalar.Int32(0))))
	p, err := partition.ByField(b, scope)
	if err != nil {
		t.Fatal(err)
	}
	want := "list_any($p_xs, lambda x: x > $p_a + x) AND $p_a + $x > 0::i32"
	if got := p.Root.String(); got != want {
		t.Errorf("root: got %s, want %s", got, want)
	}
}

func mustCall(t *testing.T, f fn.Function, args ...*expr.Bound) *expr.Bound {
	t.Helper()
	b, err := expr.NewCall(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestByFieldDeep partitions a chain nearly expr.MaxDepth deep reading two fields.
func TestByFieldDeep(t *testing.T) {
	const n = expr.MaxDepth - 10
	root := mustType(t, "struct<a: i64, b: i64>")
	scope := expr.ScopeOf(root)
	a, bcol := bindSrc(t, "a", scope), bindSrc(t, "b", scope)
	one := expr.NewLiteral(scalar.Int64(1))
	// (((a + 1) + 1) … + 1) + b: the chain of a goes whole into a's partition.
	chain := a
	for i := 0; i < n; i++ {
		chain = mustCall(t, fn.Add, chain, one)
	}
	b := mustCall(t, fn.Add, chain, bcol)
	p, err := partition.ByField(b, scope)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Partitions) != 2 || p.Root.String() != "$p_a + $p_b" {
		t.Fatalf("got %d partitions and root %s", len(p.Partitions), p.Root)
	}
	// ((a + b) + b) + … : every level stays in the root.
	chain = a
	for i := 0; i < n; i++ {
		chain = mustCall(t, fn.Add, chain, bcol)
	}
	p, err = partition.ByField(chain, scope)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Partitions) != 2 || !p.Root.DType().Equal(chain.DType()) {
		t.Fatalf("got %d partitions and root dtype %s", len(p.Partitions), p.Root.DType())
	}
	if got := len(partition.ReferencedFields(chain)); got != 2 {
		t.Errorf("ReferencedFields: got %d paths, want 2", got)
	}
}

func TestReferencedFields(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema)).With("v", mustType(t, "struct<a: i32>"))
	cases := []struct{ src, want string }{
		{"$.a.x > 5 AND $.b = $.c", "$.a.x $.b $.c"},
		{"b + b > c AND b IS NULL", "$.b $.c"},
		{"a.x > 1 AND a IS NOT NULL AND a.y < 2", "$.a"},
		{"st.u.v = 1 AND st.w = 'x' AND st.u.v > 0", "$.st.u.v $.st.w"},
		{"st.u.v = 1 AND st.u IS NULL", "$.st.u"},
		{"list_any(xs, x -> x > b)", "$.xs $.b"},
		{"$v.a > b", "$.b"},
		{"{p: a, q: b}.p.x > 1", "$.a $.b"},
		{"1 + 2 > 0", ""},
		{"b > 0 AND $ IS NOT NULL", "$"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			var got []string
			for _, p := range partition.ReferencedFields(bindSrc(t, c.src, scope)) {
				got = append(got, p.String())
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
	if got := (partition.FieldPath{"odd name", "x"}).String(); got != `$."odd name".x` {
		t.Errorf("FieldPath.String: got %s", got)
	}
}

func TestFieldChain(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema)).With("v", mustType(t, "struct<a: i32>"))
	cases := []struct{ src, path, base string }{
		{"st.u.v", "$.st.u.v", "$"},
		{"b", "$.b", "$"},
		{"$v.a", "$.a", "$v"},
		{"{p: a, q: b}.p.x", "$.p.x", "{p: a, q: b}"},
		{"b + 1", "$", "b + 1"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			path, base := partition.FieldChain(bindSrc(t, c.src, scope))
			if path.String() != c.path || base.String() != c.base {
				t.Errorf("got %s from %s, want %s from %s", path, base, c.path, c.base)
			}
		})
	}
}

func TestConjuncts(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema))
	cases := []struct {
		src  string
		want []string
		back string // Conjoin of the conjuncts
	}{
		{"b > 1", []string{"b > 1"}, "b > 1"},
		{"b > 1 AND c < 2 AND ok", []string{"b > 1", "c < 2", "ok"}, "b > 1 AND c < 2 AND ok"},
		{"b > 1 AND (c < 2 AND (ok OR b = 0))", []string{"b > 1", "c < 2", "ok OR b = 0"}, "b > 1 AND c < 2 AND (ok OR b = 0)"},
		{"ok OR b > 1 AND c < 2", []string{"ok OR b > 1 AND c < 2"}, "ok OR b > 1 AND c < 2"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			parts := partition.Conjuncts(bindSrc(t, c.src, scope))
			var got []string
			for _, p := range parts {
				got = append(got, p.String())
			}
			if strings.Join(got, " | ") != strings.Join(c.want, " | ") {
				t.Errorf("got %q, want %q", got, c.want)
			}
			back, err := partition.Conjoin(parts)
			if err != nil {
				t.Fatal(err)
			}
			if back.String() != c.back {
				t.Errorf("Conjoin: got %s, want %s", back, c.back)
			}
		})
	}

	// Left-deep chains round-trip to an equal tree, nearly expr.MaxDepth deep.
	const n = expr.MaxDepth - 10
	leaf := bindSrc(t, "b > 1", scope)
	other := bindSrc(t, "ok", scope)
	chain := leaf
	for i := 0; i < n; i++ {
		chain = mustCall(t, fn.And, chain, other)
	}
	parts := partition.Conjuncts(chain)
	if len(parts) != n+1 || parts[0] != leaf || parts[n] != other {
		t.Fatalf("got %d conjuncts, want %d", len(parts), n+1)
	}
	back, err := partition.Conjoin(parts)
	if err != nil || !back.Equal(chain) {
		t.Errorf("Conjoin(Conjuncts(chain)) differs from chain: %v", err)
	}
	// And right-deep ones split just as well.
	chain = leaf
	for i := 0; i < n; i++ {
		chain = mustCall(t, fn.And, other, chain)
	}
	if got := len(partition.Conjuncts(chain)); got != n+1 {
		t.Errorf("right-deep: got %d conjuncts, want %d", got, n+1)
	}
}

func TestNil(t *testing.T) {
	if _, err := partition.ByField(nil, expr.ScopeOf(mustType(t, testSchema))); err == nil {
		t.Errorf("ByField(nil): no error")
	}
	if got := partition.ReferencedFields(nil); got != nil {
		t.Errorf("ReferencedFields(nil) = %v", got)
	}
	if got := partition.Conjuncts(nil); got != nil {
		t.Errorf("Conjuncts(nil) = %v", got)
	}
}

func TestConjoinEdges(t *testing.T) {
	scope := expr.ScopeOf(mustType(t, testSchema))
	empty, err := partition.Conjoin(nil)
	if err != nil || empty.String() != "true" {
		t.Errorf("Conjoin(nil) = %v, %v; want true", empty, err)
	}
	if _, err := partition.Conjoin([]*expr.Bound{bindSrc(t, "ok", scope), bindSrc(t, "b", scope)}); err == nil ||
		!strings.Contains(err.Error(), "part 1 `b` has type i32, want bool") {
		t.Errorf("non-bool part: got %v", err)
	}
	if _, err := partition.Conjoin([]*expr.Bound{nil}); err == nil {
		t.Errorf("nil part: got no error")
	}
}

func BenchmarkByField(b *testing.B) {
	root := mustType(b, "struct<a: i64, b: i64>")
	scope := expr.ScopeOf(root)
	a, bcol := bindSrc(b, "a", scope), bindSrc(b, "b", scope)
	for _, n := range []int{1000, 100_000} {
		// ((a + b) + b) … : every level stays in the root.
		chain := a
		for i := 0; i < n; i++ {
			next, err := expr.NewCall(fn.Add, chain, bcol)
			if err != nil {
				b.Fatal(err)
			}
			chain = next
		}
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := partition.ByField(chain, scope); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
