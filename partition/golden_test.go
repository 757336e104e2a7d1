package partition_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/internal/golden"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/partition"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testSchema is the root dtype of the golden tests.
const testSchema = `struct<a: struct<x: i32, y: i32?>, b: i32, c: i32?, s: utf8?, xs: list<i32?>?, ` +
	`t: i64?, ok: bool?, st: struct<u: struct<v: i32>, w: utf8>>`

func mustType(t testing.TB, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("dtype %q: %v", s, err)
	}
	return d
}

// bindSrc parses src and coerces and binds it against scope.
func bindSrc(t testing.TB, src string, scope expr.Scope) *expr.Bound {
	t.Helper()
	e, err := parse.Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	b, err := coerce.Bind(e, scope)
	if err != nil {
		t.Fatalf("bind %q: %v", src, err)
	}
	return b
}

// scopeWith is the test schema's scope with a frame of `name: type` vars.
func scopeWith(t testing.TB, vars []string) expr.Scope {
	scope := expr.ScopeOf(mustType(t, testSchema))
	if len(vars) == 0 {
		return scope
	}
	names := make([]string, len(vars))
	types := make([]dtype.DType, len(vars))
	for i, v := range vars {
		name, typ, ok := strings.Cut(v, ": ")
		if !ok {
			t.Fatalf("bad var line %q", v)
		}
		names[i], types[i] = name, mustType(t, typ)
	}
	return scope.Push(names, types)
}

// partitionOutput is what the golden files record: the partitions with
// their variables and dtypes, the root, and the referenced fields.
func partitionOutput(t *testing.T, c golden.Case) string {
	scope := scopeWith(t, c.Vars)
	b := bindSrc(t, c.Src, scope)
	p, err := partition.ByField(b, scope)
	if err != nil {
		return "error: " + err.Error()
	}
	checkInvariants(t, c.Src, b, scope, p)
	var out strings.Builder
	for _, part := range p.Partitions {
		fmt.Fprintf(&out, "%s: %s  as $%s :: %s\n", part.Field, part.Expr, part.Var, part.Expr.DType())
	}
	fmt.Fprintf(&out, "root: %s\n", p.Root)
	var paths []string
	for _, f := range partition.ReferencedFields(b) {
		paths = append(paths, f.String())
	}
	if len(paths) == 0 {
		paths = []string{"(nothing)"}
	}
	fmt.Fprintf(&out, "reads: %s", strings.Join(paths, " "))
	return out.String()
}

// checkInvariants checks what every partitioning must satisfy: the root has
// the expression's dtype, reads no $, and binds in the returned scope to
// itself; each partition binds against its field's dtype; partitions follow
// the struct's field order and have distinct variables.
func checkInvariants(t *testing.T, src string, b *expr.Bound, scope expr.Scope, p *partition.Partitioned) {
	t.Helper()
	if !p.Root.DType().Equal(b.DType()) {
		t.Errorf("%s: root dtype %s, expression %s", src, p.Root.DType(), b.DType())
	}
	if hasRoot(p.Root) {
		t.Errorf("%s: the root %s reads $", src, p.Root)
	}
	rebound, err := expr.Bind(p.Root.Expr(), p.Scope)
	if err != nil || !rebound.Equal(p.Root) {
		t.Errorf("%s: the root %s does not bind to itself in the returned scope: %v", src, p.Root, err)
	}
	root := scope.Root()
	last := -1
	seen := map[string]bool{}
	for _, part := range p.Partitions {
		i := root.FieldIndex(part.Field)
		if i <= last {
			t.Errorf("%s: partition %s out of field order", src, part.Field)
		}
		last = i
		if seen[part.Var] {
			t.Errorf("%s: variable %s used twice", src, part.Var)
		}
		seen[part.Var] = true
		ft := root.Fields()[i].Type
		pb, err := expr.Bind(part.Expr.Expr(), expr.ScopeOf(ft))
		if err != nil || !pb.Equal(part.Expr) {
			t.Errorf("%s: partition %s = %s does not bind against %s: %v", src, part.Field, part.Expr, ft, err)
		}
		if vt, ok := p.Scope.Lookup(part.Var); !ok || !vt.Equal(part.Expr.DType()) {
			t.Errorf("%s: scope has %s :: %v, want %s", src, part.Var, vt, part.Expr.DType())
		}
	}
}

func hasRoot(b *expr.Bound) bool {
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == expr.KindRoot {
			return true
		}
		stack = append(stack, n.Args()...)
	}
	return false
}

// TestGolden partitions every input of testdata/*.txt. Rewrite the files
// with -update.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g := golden.Read(t, path)
			got := make([]string, len(g.Cases))
			for i, c := range g.Cases {
				got[i] = partitionOutput(t, c)
				if !*update && got[i] != c.Want {
					t.Errorf("> %s\ngot:\n%s\nwant:\n%s", c.Src, got[i], c.Want)
				}
			}
			if *update {
				g.Write(t, path, got)
			}
		})
	}
}
