package optimize_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

// bindAgainst parses src and binds it against the root type t.
func bindAgainst(b *testing.B, src string, t dtype.DType) *expr.Bound {
	b.Helper()
	e, err := parse.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	bound, err := expr.Bind(e, expr.ScopeOf(t))
	if err != nil {
		b.Fatal(err)
	}
	return bound
}

// loop runs f b.N times and reports, besides the wall time, the CPU time
// of the benchmark's thread per operation (cpu-ns/op) and, with nodes > 0,
// per node (cpu-ns/node): on a machine shared with other work the CPU time
// is the steadier figure.
func loop(b *testing.B, nodes int, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	start, ok := threadCPU()
	b.ResetTimer()
	for b.Loop() {
		f()
	}
	b.StopTimer()
	if end, ok2 := threadCPU(); ok && ok2 {
		per := float64(end-start) / float64(b.N)
		b.ReportMetric(per, "cpu-ns/op")
		if nodes > 0 {
			b.ReportMetric(per/float64(nodes), "cpu-ns/node")
		}
	}
	if nodes > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
	}
}

// BenchmarkOrChain is `$.x = 0 OR $.x = 1 OR … OR $.x = 199` over
// struct<x: i32>, bound once, then optimized into one IN list.
func BenchmarkOrChain(b *testing.B) {
	terms := make([]string, 200)
	for i := range terms {
		terms[i] = fmt.Sprintf("$.x = %d", i)
	}
	t := dtype.Struct([]dtype.Field{{Name: "x", Type: dtype.Primitive(dtype.I32, false)}}, false)
	bound := bindAgainst(b, strings.Join(terms, " OR "), t)
	o := optimize.New()
	out, err := o.Optimize(bound)
	if err != nil || !out.IsCall("in_list") || len(out.Args()) != 201 {
		b.Fatalf("or chain optimized to %v (%v)", out, err)
	}
	loop(b, 0, func() {
		if _, err := o.Optimize(bound); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPack is a pack of every field of a 2 000-field root struct, in
// order, which optimizes to $.
func BenchmarkPack(b *testing.B) {
	const n = 2000
	fields := make([]dtype.Field, n)
	names := make([]string, n)
	for i := range fields {
		names[i] = fmt.Sprintf("f%d", i)
		fields[i] = dtype.Field{Name: names[i], Type: dtype.Primitive(dtype.I64, i%2 == 0)}
	}
	t := dtype.Struct(fields, false)
	root := expr.NewRoot(t)
	args := make([]*expr.Bound, n)
	for i := range args {
		var err error
		if args[i], err = expr.NewCall(fn.GetItem(names[i]), root); err != nil {
			b.Fatal(err)
		}
	}
	pack, err := expr.NewCall(fn.Pack(names...), args...)
	if err != nil {
		b.Fatal(err)
	}
	o := optimize.New()
	if out, err := o.Optimize(pack); err != nil || out != root {
		b.Fatalf("pack optimized to %v (%v)", out, err)
	}
	loop(b, 0, func() {
		if _, err := o.Optimize(pack); err != nil {
			b.Fatal(err)
		}
	})
}

// chain is c0 + c1 + … over i64 columns of $, left-deep, with n additions;
// every node is distinct. With zero, every right operand is the literal 0
// instead. It returns the tree and its number of nodes.
func chain(b *testing.B, n int, zero bool) (*expr.Bound, int) {
	t := dtype.Struct([]dtype.Field{{Name: "l", Type: dtype.Primitive(dtype.I64, false)}, {Name: "k", Type: dtype.Primitive(dtype.I64, true)}}, false)
	col := func(i int) *expr.Bound {
		c, err := expr.NewCall(fn.GetItem([]string{"l", "k"}[i%2]), expr.NewRoot(t))
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	acc, nodes := col(0), 2
	for i := 1; i <= n; i++ {
		right := col(i)
		if zero {
			right = expr.NewLiteral(scalar.Int64(0))
		}
		var err error
		if acc, err = expr.NewCall(fn.Add, acc, right); err != nil {
			b.Fatal(err)
		}
		nodes += 1 + len(right.Args()) + 1
	}
	return acc, nodes
}

// chainSizes are the sizes of the chains the benchmarks optimize: the larger
// stays within expr.MaxDepth (a chain of n additions is n + 2 deep).
var chainSizes = []int{1_000, 99_000}

// BenchmarkNoRewrite optimizes a tree with nothing to rewrite, at two
// sizes, and reports the time per node.
func BenchmarkNoRewrite(b *testing.B) {
	for _, n := range chainSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tree, nodes := chain(b, n, false)
			o := optimize.New()
			if out, err := o.Optimize(tree); err != nil || out != tree {
				b.Fatalf("changed: %v", err)
			}
			loop(b, nodes, func() {
				if _, err := o.Optimize(tree); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkRewriteEveryLevel optimizes l + 0 + 0 + … + 0, which rewrites
// at every level, at two sizes.
func BenchmarkRewriteEveryLevel(b *testing.B) {
	for _, n := range chainSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tree, nodes := chain(b, n, true)
			o := optimize.New()
			loop(b, nodes, func() {
				if _, err := o.Optimize(tree); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
