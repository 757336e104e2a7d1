package eval

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/kernels"
)

// Test helpers: checked allocators, arrays from JSON, bound trees from
// unbound ones, and test-only functions with kernels, so the evaluator's
// own rules (laziness, row mapping, lambdas) are tested without depending
// on the built-in kernels.

func checkedMem(t testing.TB) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func mustType(t testing.TB, text string) dtype.DType {
	t.Helper()
	dt, err := dtype.Parse(text)
	if err != nil {
		t.Fatalf("dtype %q: %v", text, err)
	}
	return dt
}

// fromJSON is an array of dtype text (such as `struct<a: i64?>`) read from
// a JSON array.
func fromJSON(t testing.TB, mem memory.Allocator, typ, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dtype.ToArrow(mustType(t, typ)), strings.NewReader(js))
	if err != nil {
		t.Fatalf("array %s from %s: %v", typ, js, err)
	}
	return arr
}

// jsonOf is the JSON text of an array's rows.
func jsonOf(t testing.TB, arr arrow.Array) string {
	t.Helper()
	b, err := json.Marshal(arr)
	if err != nil {
		t.Fatalf("json of %s: %v", arr.DataType(), err)
	}
	return string(b)
}

func mustBind(t testing.TB, e expr.Expr, root dtype.DType) *expr.Bound {
	t.Helper()
	b, err := expr.Bind(e, expr.ScopeOf(root))
	if err != nil {
		t.Fatalf("bind %s: %v", e, err)
	}
	return b
}

// listArray builds a list<elem> array with explicit offsets and validity,
// so null rows may address elements (as Arrow allows).
func listArray(t testing.TB, mem memory.Allocator, elem, valuesJSON string, offsets []int32, valid []bool) arrow.Array {
	t.Helper()
	values := fromJSON(t, mem, elem, valuesJSON)
	defer values.Release()
	n := len(offsets) - 1
	offs := kernels.ZeroedBuffer(mem, 4*len(offsets))
	defer offs.Release()
	copy(kernels.Reinterpret[int32](offs.Bytes()), offsets)
	validity, nulls := bitmapOf(mem, valid)
	defer kernels.ReleaseBuffer(validity)
	lt := arrow.ListOfField(arrow.Field{Name: "item", Type: values.DataType(), Nullable: true})
	d := array.NewData(lt, n, []*memory.Buffer{validity, offs}, []arrow.ArrayData{values.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// fslArray builds a fixed_size_list<elem, size> array over values, with
// the given validity (garbage stays under null rows).
func fslArray(t testing.TB, mem memory.Allocator, elem, valuesJSON string, size int, valid []bool) arrow.Array {
	t.Helper()
	values := fromJSON(t, mem, elem, valuesJSON)
	defer values.Release()
	validity, nulls := bitmapOf(mem, valid)
	defer kernels.ReleaseBuffer(validity)
	lt := arrow.FixedSizeListOfField(int32(size), arrow.Field{Name: "item", Type: values.DataType(), Nullable: true})
	d := array.NewData(lt, len(valid), []*memory.Buffer{validity}, []arrow.ArrayData{values.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// structOf packs columns into a non-null struct array.
func structOf(t testing.TB, names []string, cols ...arrow.Array) arrow.Array {
	t.Helper()
	st, err := array.NewStructArray(cols, names)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func bitmapOf(mem memory.Allocator, valid []bool) (*memory.Buffer, int) {
	nulls := 0
	buf := kernels.ZeroedBitmap(mem, len(valid))
	for i, v := range valid {
		if v {
			bitutil.SetBit(buf.Bytes(), i)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// testFn is a test-only function with a kernel.
type testFn struct {
	id    string
	arity int
	ret   func(args []dtype.DType) (dtype.DType, error)
	eval  func(ctx *fn.Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error)
}

var _ fn.Kernel = (*testFn)(nil)

func (f *testFn) ID() string                    { return f.id }
func (f *testFn) Arity() fn.Arity               { return fn.Exactly(f.arity) }
func (f *testFn) NullHandling() fn.NullHandling { return fn.NullPropagating }
func (f *testFn) Volatility() fn.Volatility     { return fn.Immutable }
func (f *testFn) Fallible() bool                { return true }
func (f *testFn) Equal(o fn.Function) bool      { return o == fn.Function(f) }
func (f *testFn) Hash() uint64                  { return uint64(len(f.id)) }
func (f *testFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return f.ret(args)
}
func (f *testFn) Eval(ctx *fn.Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return f.eval(ctx, args, ret)
}

// probe records the rows each call of a test kernel saw.
type probe struct {
	calls   int
	rows    int
	valid   int // non-null rows
	scalars int // calls whose arguments were all scalars
}

// checkPos is check_pos(x): x itself, for an integer x, failing with
// errs.ErrInvalidArgument at the first valid negative row. It records its
// calls in p.
func checkPos(p *probe) *testFn {
	return &testFn{
		id: "check_pos", arity: 1,
		ret: func(args []dtype.DType) (dtype.DType, error) {
			if !args[0].IsInt() {
				return dtype.DType{}, &fn.ArgError{Fn: "check_pos", Arg: 0, Msg: "want an integer"}
			}
			return args[0], nil
		},
		eval: func(_ *fn.Context, args []datum.Datum, _ dtype.DType) (datum.Datum, error) {
			p.calls++
			p.rows += args[0].Len()
			x := args[0]
			if x.IsScalar() {
				p.scalars++
				if !x.Scalar().IsNull() {
					p.valid++
				}
				if v, ok := x.Scalar().Value().(int64); ok && v < 0 {
					return datum.Datum{}, &fn.EvalError{Fn: "check_pos", Row: 0, Err: errs.ErrInvalidArgument}
				}
				return x, nil
			}
			arr := x.Array()
			p.valid += arr.Len() - arr.NullN()
			for i := range arr.Len() {
				if arr.IsValid(i) && intAt(arr, i) < 0 {
					return datum.Datum{}, &fn.EvalError{Fn: "check_pos", Row: i, Err: errs.ErrInvalidArgument}
				}
			}
			return x.Retain(), nil
		},
	}
}

// isEven is is_even(x) → bool for an integer array or scalar.
func isEven() *testFn {
	return &testFn{
		id: "is_even", arity: 1,
		ret: func(args []dtype.DType) (dtype.DType, error) { return dtype.Bool(args[0].Nullable()), nil },
		eval: func(ctx *fn.Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
			arr := args[0].Array()
			if arr == nil {
				return datum.Datum{}, fmt.Errorf("is_even: scalar input not supported in this test kernel")
			}
			bld := array.NewBooleanBuilder(ctx.Mem)
			defer bld.Release()
			for i := range arr.Len() {
				if arr.IsNull(i) {
					bld.AppendNull()
				} else {
					bld.Append(intAt(arr, i)%2 == 0)
				}
			}
			return datum.FromArray(bld.NewArray(), ret), nil
		},
	}
}

func intAt(arr arrow.Array, i int) int64 {
	switch a := arr.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	panic(fmt.Sprintf("intAt: %T", arr))
}

// noKernelFn is a function without a kernel.
type noKernelFn struct{}

func (noKernelFn) ID() string                    { return "no_such_kernel" }
func (noKernelFn) Arity() fn.Arity               { return fn.Exactly(1) }
func (noKernelFn) NullHandling() fn.NullHandling { return fn.NullPropagating }
func (noKernelFn) Volatility() fn.Volatility     { return fn.Immutable }
func (noKernelFn) Fallible() bool                { return false }
func (noKernelFn) Equal(o fn.Function) bool      { _, ok := o.(noKernelFn); return ok }
func (noKernelFn) Hash() uint64                  { return 7 }
func (noKernelFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	return args[0], nil
}
