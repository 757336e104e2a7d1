package colexpr_test

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/substrait"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
)

// deepStack caps the Go stack while the deep tests run. A tree MaxDepth deep
// fits; a walk that recursed once a level down a 1 000 000-deep chain would
// not, and would crash the test binary (a stack overflow is fatal).
const deepStack = 256 << 20

// deepOps are the prefix and postfix operators whose chains the deep tests
// build, each with the text that repeats it (when the syntax has one) and
// the Go constructor.
var deepOps = []struct {
	name   string
	text   func(n int) string // the chain as text, n operators deep
	wrap   func(e expr.Expr) expr.Expr
	fn     fn.Function
	leaf   string // the operand at the bottom
	result string // the dtype of every level
}{
	{"not", func(n int) string { return strings.Repeat("NOT ", n) + "(a = 1)" }, expr.Not, fn.Not, "a = 1", "bool?"},
	{"neg", func(n int) string { return strings.Repeat("- ", n) + "a" }, expr.Neg, fn.Neg, "a", "i64?"},
	{"neg of a number", func(n int) string { return strings.Repeat("- ", n) + "1" }, expr.Neg, fn.Neg, "a", "i64?"},
	{"cast", func(n int) string { return "a" + strings.Repeat("::i64", n) }, func(e expr.Expr) expr.Expr { return expr.Cast(e, dtype.Primitive(dtype.I64, true)) }, fn.Cast(dtype.Primitive(dtype.I64, true)), "a", "i64?"},
	{"try_cast", nil, func(e expr.Expr) expr.Expr { return expr.TryCast(e, dtype.Primitive(dtype.I64, true)) }, fn.TryCast(dtype.Primitive(dtype.I64, true)), "a", "i64?"},
	{"is_null", func(n int) string { return strings.Repeat("(", n) + "a" + strings.Repeat(" IS NULL)", n) }, expr.IsNull, fn.IsNull, "a = 1", "bool"},
	{"is_not_null", func(n int) string { return "(a = 1)" + strings.Repeat(" IS NOT NULL", n) }, expr.IsNotNull, fn.IsNotNull, "a = 1", "bool"},
	{"field", func(n int) string { return "s" + strings.Repeat(".s", n) }, func(e expr.Expr) expr.Expr { return expr.GetItem(e, "s") }, nil, "s", ""},
	{"missing field", nil, func(e expr.Expr) expr.Expr { return expr.GetItem(e, "nope") }, nil, "s", ""},
}

func deepSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "s", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), Nullable: true},
	}, nil)
}

func deepBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	rec, _, err := array.RecordFromJSON(mem, deepSchema(), strings.NewReader(`[{"a": 1, "s": {"s": 2}}, {"a": null, "s": null}, {"a": -7, "s": {"s": null}}]`))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestDeepText compiles 1 000 000-deep chains of each prefix and postfix
// operator written as text: an error wrapping expr.ErrTooDeep (or another
// parse error where the syntax forbids the chain), never a crash.
func TestDeepText(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(deepStack))
	for _, op := range deepOps {
		if op.text == nil {
			continue
		}
		_, err := colexpr.Compile(op.text(1_000_000), deepSchema())
		if err == nil {
			t.Errorf("%s: compiled a 1 000 000-deep chain", op.name)
			continue
		}
		if op.name != "is_not_null" && !errors.Is(err, expr.ErrTooDeep) {
			t.Errorf("%s: got %.200v, want ErrTooDeep", op.name, err)
		}
		if len(err.Error()) > 2000 {
			t.Errorf("%s: the error is %d bytes long", op.name, len(err.Error()))
		}
	}
}

// TestDeepExpr builds 1 000 000-deep chains through the Go API: String and
// Hash work, compiling is an error wrapping expr.ErrTooDeep.
func TestDeepExpr(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(deepStack))
	const n = 1_000_000
	for _, op := range deepOps {
		if op.wrap == nil {
			continue
		}
		build := func() expr.Expr {
			e := expr.Col("a")
			if op.leaf == "s" {
				e = expr.Col("s")
			}
			if op.leaf == "a = 1" {
				e = expr.Eq(e, expr.Lit(int64(1)))
			}
			for i := 0; i < n; i++ {
				e = op.wrap(e)
			}
			return e
		}
		e := build()
		if d := expr.Depth(e); d < n {
			t.Errorf("%s: Depth %d, want at least %d", op.name, d, n)
		}
		if s := e.String(); !strings.Contains(s, "…") || len(s) < expr.MaxDepth {
			t.Errorf("%s: String gives %d bytes %.40q, want the tree down to MaxDepth and …", op.name, len(s), s)
		}
		if h := expr.Hash(e); h != expr.Hash(op.wrap(e).(*expr.Call).Args[0]) {
			t.Errorf("%s: Hash differs between two calls", op.name)
		}
		_, err := colexpr.CompileExpr(e, mustRoot(t), deepSchema())
		if op.name == "missing field" {
			// The schema check names the field before anything recurses.
			if err == nil || !strings.Contains(err.Error(), "nope") {
				t.Errorf("%s: CompileExpr: got %.200v, want an unknown field", op.name, err)
			}
		} else if !errors.Is(err, expr.ErrTooDeep) {
			t.Errorf("%s: CompileExpr: got %.200v, want ErrTooDeep", op.name, err)
		} else if len(err.Error()) > 2000 {
			t.Errorf("%s: the error is %d bytes long", op.name, len(err.Error()))
		}
		root := mustRoot(t)
		if _, err := expr.Bind(e, expr.ScopeOf(root)); !errors.Is(err, expr.ErrTooDeep) {
			t.Errorf("%s: Bind: got %.200v, want ErrTooDeep", op.name, err)
		}
	}
}

func mustRoot(t *testing.T) dtype.DType {
	root, err := dtype.FromArrowSchema(deepSchema())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestDeepBound builds bound chains of each operator with expr.NewCall as
// deep as it allows — a 1 000 000-deep one is refused at expr.MaxDepth with
// ErrTooDeep — and runs the deepest through String, Hash, the optimizer,
// evaluation, partitioning, pruning and Substrait export and import: a
// correct result or an error, never a crash.
func TestDeepBound(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(deepStack))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := deepBatch(t, mem)
	defer rec.Release()
	root := mustRoot(t)
	scope := expr.ScopeOf(root)
	for _, op := range deepOps {
		if op.fn == nil || op.name == "neg of a number" {
			continue
		}
		leafSrc := op.leaf
		if leafSrc == "a = 1" {
			leafSrc = "a = 1::i64"
		}
		prog, err := colexpr.Compile(leafSrc, deepSchema())
		if err != nil {
			t.Fatal(err)
		}
		b := prog.Stages().Bound
		var refused error
		for i := 0; i < 1_000_000; i++ {
			next, err := expr.NewCall(op.fn, b)
			if err != nil {
				refused = err
				break
			}
			b = next
		}
		if !errors.Is(refused, expr.ErrTooDeep) || b.Depth() != expr.MaxDepth {
			t.Fatalf("%s: NewCall stopped at depth %d with %v, want ErrTooDeep at %d", op.name, b.Depth(), refused, expr.MaxDepth)
		}
		if got := b.DType().String(); got != op.result {
			t.Fatalf("%s: dtype %s, want %s", op.name, got, op.result)
		}
		if s := b.String(); strings.Contains(s, "…") {
			t.Errorf("%s: String elides a tree MaxDepth deep", op.name)
		}
		if expr.Hash(b.Expr()) != expr.Hash(b.Expr()) {
			t.Errorf("%s: Hash differs", op.name)
		}

		want, err := eval.EvalRecord(mem, b, rec)
		if err != nil {
			t.Fatalf("%s: eval: %v", op.name, err)
		}
		opt, trace, err := optimize.New().Explain(b)
		if err != nil {
			t.Fatalf("%s: optimize: %v", op.name, err)
		}
		if len(trace.Problems()) > 0 {
			t.Errorf("%s: optimize: %v", op.name, trace.Problems()[0])
		}
		got, err := eval.EvalRecord(mem, opt, rec)
		if err != nil {
			t.Fatalf("%s: eval of the optimized tree: %v", op.name, err)
		}
		if !array.Equal(got, want) {
			t.Errorf("%s: optimized gives %v, unoptimized %v", op.name, got, want)
		}
		got.Release()
		want.Release()
		filtered, err := eval.Filter(mem, b, rec)
		if op.result == "bool?" || op.result == "bool" {
			if err != nil {
				t.Errorf("%s: filter: %v", op.name, err)
			} else {
				filtered.Release()
			}
		}

		if p, err := partition.ByField(b, scope); err != nil {
			t.Logf("%s: partition: %.200v", op.name, err)
		} else if len(p.Partitions) != 1 {
			t.Errorf("%s: %d partitions, want 1", op.name, len(p.Partitions))
		}
		_ = partition.ReferencedFields(b)
		if op.result == "bool?" || op.result == "bool" {
			if _, err := prune.Falsifier(b, scope); err != nil {
				t.Logf("%s: falsifier: %.200v", op.name, err)
			}
		}

		msg, err := substrait.Export(b, scope)
		if err != nil {
			t.Logf("%s: export: %.200v", op.name, err)
			continue
		}
		data, err := substrait.Marshal(msg)
		if err != nil {
			t.Errorf("%s: marshal: %v", op.name, err)
			continue
		}
		back, err := substrait.ImportJSON(data, scope)
		switch {
		case err != nil:
			t.Logf("%s: import: %.300v", op.name, err)
			if len(err.Error()) > 2000 {
				t.Errorf("%s: the import error is %d bytes long", op.name, len(err.Error()))
			}
		case !back[0].Expr.Equal(b):
			t.Errorf("%s: import of the export differs", op.name)
		}
	}
}

// TestDeepImport imports a 1 000 000-deep Substrait message built in Go
// (so not limited by decoding): an error wrapping expr.ErrTooDeep.
func TestDeepImport(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(deepStack))
	prog, err := colexpr.Compile("NOT (a = 1)", deepSchema())
	if err != nil {
		t.Fatal(err)
	}
	scope := prog.Scope()
	msg, err := substrait.Export(prog.Stages().Bound, scope)
	if err != nil {
		t.Fatal(err)
	}
	top := msg.ReferredExpr[0].GetExpression()
	not := top.GetScalarFunction()
	e := top
	for i := 0; i < 1_000_000; i++ {
		e = &pb.Expression{RexType: &pb.Expression_ScalarFunction_{ScalarFunction: &pb.Expression_ScalarFunction{
			FunctionReference: not.FunctionReference,
			OutputType:        not.OutputType,
			Arguments:         []*pb.FunctionArgument{{ArgType: &pb.FunctionArgument_Value{Value: e}}},
		}}}
	}
	msg.ReferredExpr[0].ExprType = &pb.ExpressionReference_Expression{Expression: e}
	_, err = substrait.Import(msg, scope)
	if !errors.Is(err, expr.ErrTooDeep) || !errors.Is(err, substrait.ErrInvalid) {
		t.Fatalf("got %.300v, want ErrTooDeep", err)
	}
	if len(err.Error()) > 2000 {
		t.Errorf("the error is %d bytes long", len(err.Error()))
	}
}
