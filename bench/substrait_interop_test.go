package bench_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/compute/exprs"
	"github.com/apache/arrow-go/v18/arrow/memory"
	sexpr "github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/extensions"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/proto"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
	"github.com/colexpr/colexpr/substrait"
)

// TestSubstraitInterop exports random expressions with colexpr's substrait
// package, hands the protobuf bytes to arrow-go's compute/exprs (which
// reads them with substrait-go, the same v8 release colexpr uses) and
// checks that Arrow computes what colexpr's evaluator computes on the same
// record batch: the same values and the same nulls, or an error on both
// sides.
//
// The expressions stay in the subset compute/exprs executes: field
// references, literals, add, subtract, multiply, divide and abs, the six
// comparisons, is_null and is_not_null, Kleene and, or and not, and casts.
// Casts only widen (an integer to a wider one or to f64, f32 to f64):
// Arrow runs a cast that throws without overflow checks and truncates
// floats, where colexpr's checked cast fails or rounds. Integer arithmetic
// is checked on both sides (overflow option ERROR); float arithmetic
// follows IEEE 754 on both sides (Arrow's unchecked kernels, as no overflow
// option is given for floats).
func TestSubstraitInterop(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	root, err := dtype.Parse("struct<a: i8?, b: i16?, c: i32?, d: i64?, e: f32?, f: f64?, p: bool?, q: bool>")
	if err != nil {
		t.Fatal(err)
	}
	scope := expr.ScopeOf(root)
	rec := interopBatch(t, mem, root, 200)
	defer rec.Release()

	ctx := compute.WithAllocator(context.Background(), mem)
	agreedValues, agreedErrors := 0, 0
	const n = 400
	for seed := uint64(0); seed < n; seed++ {
		g := &interopGen{r: rand.New(rand.NewPCG(seed, 7)), root: expr.NewRoot(root)}
		b := g.any(4)
		for b.Kind() != expr.KindCall || b.IsCall("get_item") || b.IsCall("literal") {
			b = g.any(4)
		}
		msg, err := substrait.Export(b, scope)
		if err != nil {
			t.Fatalf("seed %d: export of %s: %v", seed, b, err)
		}
		// Hand Arrow bytes, as another process would get them.
		data, err := substrait.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		var theirs pb.ExtendedExpression
		if err := proto.Unmarshal(data, &theirs); err != nil {
			t.Fatal(err)
		}
		ext, err := sexpr.ExtendedFromProto(&theirs, extensions.GetDefaultCollectionWithNoError())
		if err != nil {
			t.Fatalf("seed %d: substrait-go reads the export of %s: %v", seed, b, err)
		}
		in := compute.NewDatumWithoutOwning(rec)
		got, arrowErr := exprs.ExecuteScalarSubstrait(ctx, ext, in)
		want, ourErr := eval.EvalRecord(mem, b, rec)
		switch {
		case ourErr != nil && arrowErr != nil:
			agreedErrors++
		case ourErr != nil:
			got.Release()
			t.Fatalf("seed %d: %s: colexpr fails (%v), Arrow does not", seed, b, ourErr)
		case arrowErr != nil:
			want.Release()
			t.Fatalf("seed %d: %s: Arrow fails (%v), colexpr does not", seed, b, arrowErr)
		default:
			err := compareResults(b.DType(), want, got, rec.NumRows())
			want.Release()
			got.Release()
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, b, err)
			}
			agreedValues++
		}
	}
	t.Logf("%d expressions: %d computed alike by colexpr and arrow-go, %d failed on both", n, agreedValues, agreedErrors)
	if agreedValues < n*3/4 {
		t.Errorf("only %d of %d expressions evaluated without error", agreedValues, n)
	}
}

// compareResults compares colexpr's result with Arrow's (an array, or a
// scalar standing for every row) row by row.
func compareResults(t dtype.DType, ours arrow.Array, theirs compute.Datum, rows int64) error {
	var arr arrow.Array
	switch d := theirs.(type) {
	case *compute.ArrayDatum:
		arr = d.MakeArray()
		defer arr.Release()
	case *compute.ScalarDatum:
		s, err := scalar.FromArrowScalar(d.Value, t.AsNullable())
		if err != nil {
			return err
		}
		for i := 0; i < int(rows); i++ {
			o, err := scalar.FromArray(ours, i, t)
			if err != nil {
				return err
			}
			if !sameValue(o, s) {
				return fmt.Errorf("row %d: colexpr %s, Arrow %s (a scalar)", i, o, s)
			}
		}
		return nil
	default:
		return fmt.Errorf("Arrow returned a %T", theirs)
	}
	if int64(arr.Len()) != rows || int64(ours.Len()) != rows {
		return fmt.Errorf("lengths: colexpr %d, Arrow %d, rows %d", ours.Len(), arr.Len(), rows)
	}
	for i := 0; i < int(rows); i++ {
		o, err := scalar.FromArray(ours, i, t.AsNullable())
		if err != nil {
			return err
		}
		a, err := scalar.FromArray(arr, i, t.AsNullable())
		if err != nil {
			return fmt.Errorf("row %d: reading Arrow's %s as %s: %v", i, arr.DataType(), t, err)
		}
		if !sameValue(o, a) {
			return fmt.Errorf("row %d: colexpr %s, Arrow %s", i, o, a)
		}
	}
	return nil
}

// sameValue compares two results: both null, or equal values (floats bit
// for bit, NaN alike).
func sameValue(a, b scalar.Scalar) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	if x, ok := a.Value().(float64); ok {
		y := b.Value().(float64)
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	}
	c, err := scalar.Compare(a, b.WithDType(a.DType()))
	return err == nil && c == 0
}

// interopBatch is a record batch of small values (so that most integer
// arithmetic does not overflow) with nulls in the nullable columns.
func interopBatch(t *testing.T, mem memory.Allocator, root dtype.DType, rows int) arrow.RecordBatch {
	schema, err := dtype.ToArrowSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range root.Fields() {
		for row := 0; row < rows; row++ {
			var s scalar.Scalar
			switch {
			case f.Type.Nullable() && r.IntN(6) == 0:
				s = scalar.Null(f.Type)
			case f.Type.IsBool():
				s = scalar.Bool(r.IntN(2) == 0)
			case f.Type.IsFloat():
				v := []float64{0, -0.5, 1.25, 3, -7.75, 100.5}[r.IntN(6)]
				s = scalar.Float(f.Type.PType(), v)
			default:
				s = scalar.Int(f.Type.PType(), int64(r.IntN(13)-6))
			}
			if err := scalar.Append(b.Field(i), s.WithDType(f.Type)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.NewRecordBatch()
}

// interopGen builds random expressions in the subset Arrow executes.
type interopGen struct {
	r    *rand.Rand
	root *expr.Bound
}

var (
	intTypes   = []dtype.PType{dtype.I8, dtype.I16, dtype.I32, dtype.I64}
	floatTypes = []dtype.PType{dtype.F32, dtype.F64}
)

func (g *interopGen) mk(f fn.Function, args ...*expr.Bound) *expr.Bound {
	b, err := expr.NewCall(f, args...)
	if err != nil {
		panic(fmt.Sprintf("%s%v: %v", f.ID(), args, err))
	}
	return b
}

func (g *interopGen) any(depth int) *expr.Bound {
	switch g.r.IntN(3) {
	case 0:
		return g.number(g.numType(), depth)
	}
	return g.boolean(depth)
}

func (g *interopGen) numType() dtype.PType {
	if g.r.IntN(3) == 0 {
		return floatTypes[g.r.IntN(2)]
	}
	return intTypes[g.r.IntN(4)]
}

// field is the root column of type p (or bool when p is nil).
func (g *interopGen) field(t dtype.DType) *expr.Bound {
	for _, f := range g.root.DType().Fields() {
		if f.Type.EqualIgnoreNullability(t) && (!t.IsBool() || g.r.IntN(2) == 0 || f.Name == "q") {
			return g.mk(fn.GetItem(f.Name), g.root)
		}
	}
	panic("no field of type " + t.String())
}

func (g *interopGen) number(p dtype.PType, depth int) *expr.Bound {
	t := dtype.Primitive(p, false)
	if depth <= 0 || g.r.IntN(4) == 0 {
		if g.r.IntN(3) == 0 {
			if p.IsFloat() {
				return expr.NewLiteral(scalar.Float(p, []float64{0, 1.5, -2, 0.25}[g.r.IntN(4)]))
			}
			if g.r.IntN(8) == 0 {
				return expr.NewLiteral(scalar.Null(t))
			}
			return expr.NewLiteral(scalar.Int(p, int64(g.r.IntN(7)-3)))
		}
		return g.field(t)
	}
	switch g.r.IntN(6) {
	case 0, 1, 2:
		ops := []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Div}
		return g.mk(ops[g.r.IntN(4)], g.number(p, depth-1), g.number(p, depth-1))
	case 3:
		return g.mk(fn.Abs, g.number(p, depth-1))
	}
	// A widening cast.
	var from []dtype.PType
	switch p {
	case dtype.I16:
		from = []dtype.PType{dtype.I8}
	case dtype.I32:
		from = []dtype.PType{dtype.I8, dtype.I16}
	case dtype.I64:
		from = []dtype.PType{dtype.I8, dtype.I16, dtype.I32}
	case dtype.F64:
		from = []dtype.PType{dtype.I8, dtype.I16, dtype.I32, dtype.F32}
	default:
		return g.number(p, depth-1)
	}
	return g.mk(fn.Cast(t), g.number(from[g.r.IntN(len(from))], depth-1))
}

func (g *interopGen) boolean(depth int) *expr.Bound {
	if depth <= 0 || g.r.IntN(5) == 0 {
		if g.r.IntN(4) == 0 {
			return expr.NewLiteral(scalar.Bool(g.r.IntN(2) == 0))
		}
		return g.field(dtype.Bool(false))
	}
	switch g.r.IntN(7) {
	case 0:
		return g.mk(fn.And, g.boolean(depth-1), g.boolean(depth-1))
	case 1:
		return g.mk(fn.Or, g.boolean(depth-1), g.boolean(depth-1))
	case 2:
		return g.mk(fn.Not, g.boolean(depth-1))
	case 3:
		return g.mk([]fn.Function{fn.IsNull, fn.IsNotNull}[g.r.IntN(2)], g.any(depth-1))
	}
	ops := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq}
	p := g.numType()
	return g.mk(ops[g.r.IntN(len(ops))], g.number(p, depth-1), g.number(p, depth-1))
}
