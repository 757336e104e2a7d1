package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

const formsType = `struct<a: i32?, b: i32?, ok: bool?, s: struct<x: i32?, y: utf8?>?, xs: list<i32?>?>`

const formsRows = `[
 {"a": 1,    "b": 10,   "ok": true,  "s": {"x": 1, "y": "p"},    "xs": [1, 2]},
 {"a": -2,   "b": null, "ok": false, "s": null,                  "xs": null},
 {"a": null, "b": 30,   "ok": null,  "s": {"x": null, "y": "q"}, "xs": []},
 {"a": 4,    "b": -40,  "ok": true,  "s": {"x": 3, "y": null},   "xs": [3, null, -5]},
 {"a": -5,   "b": 50,   "ok": false, "s": {"x": 4, "y": "r"},    "xs": [6]}
]`

var (
	a, b, ok, xs = expr.Col("a"), expr.Col("b"), expr.Col("ok"), expr.Col("xs")
	x, y         = expr.V("x"), expr.V("y")
)

func caseWhen(args ...expr.Expr) expr.Expr {
	return expr.Apply(fn.CaseWhen(len(args)%2 == 1), args...)
}

func lambda(f fn.Function, list expr.Expr, param string, body expr.Expr) expr.Expr {
	return expr.Apply(f, list, expr.Fn([]string{param}, body))
}

// TestForms evaluates the forms the evaluator implements itself (and test
// kernels) over a small batch, in full and in every slice, and checks the
// rows each kernel call saw.
func TestForms(t *testing.T) {
	type tc struct {
		name string
		e    func(p *probe) expr.Expr
		want string
		// probeValid is the number of non-null rows check_pos saw, -1 to
		// skip: the values of the rows it runs for. (It may see more rows,
		// null, when a branch runs masked.)
		probeValid int
	}
	cases := []tc{
		{"root field", func(*probe) expr.Expr { return a }, `[1,-2,null,4,-5]`, -1},
		{"nested field masks null struct", func(*probe) expr.Expr { return expr.Path("s", "x") }, `[1,null,null,3,4]`, -1},
		{"struct field of computed struct", func(*probe) expr.Expr {
			return expr.GetItem(caseWhen(ok, expr.Col("s")), "y")
		}, `["p",null,null,null,null]`, -1},
		{"literal broadcast", func(*probe) expr.Expr { return expr.Lit(int32(7)) }, `[7,7,7,7,7]`, -1},
		{"case without else", func(*probe) expr.Expr { return caseWhen(ok, a) }, `[1,null,null,4,null]`, -1},
		{"case branches see only their rows", func(p *probe) expr.Expr {
			return caseWhen(ok, expr.Apply(checkPos(p), a), expr.Apply(checkPos(p), b))
		}, `[1,null,30,4,50]`, 4},
		{"case two branches", func(p *probe) expr.Expr {
			return caseWhen(ok, a, expr.IsNull(ok), expr.Apply(checkPos(p), b), expr.Lit(int32(0)))
		}, `[1,0,30,4,0]`, 1},
		{"case constant condition", func(p *probe) expr.Expr {
			return caseWhen(expr.Lit(false), expr.Apply(checkPos(p), expr.Lit(int32(-1))), a)
		}, `[1,-2,null,4,-5]`, 0},
		{"coalesce", func(*probe) expr.Expr { return expr.Coalesce(b, a) }, `[10,-2,30,-40,50]`, -1},
		{"coalesce later argument sees null rows only", func(p *probe) expr.Expr {
			return expr.Coalesce(a, expr.Apply(checkPos(p), b))
		}, `[1,-2,30,4,-5]`, 1},
		{"coalesce three", func(*probe) expr.Expr {
			return expr.Coalesce(expr.LitScalar(scalar.Null(dtype.Primitive(dtype.I32, true))), b, a, expr.Lit(int32(9)))
		}, `[10,-2,30,-40,50]`, -1},
		{"fill_null", func(*probe) expr.Expr { return expr.Apply(fn.FillNull, a, b) }, `[1,-2,30,4,-5]`, -1},
		{"transform identity", func(*probe) expr.Expr { return lambda(fn.ListTransform, xs, "x", x) }, `[[1,2],null,[],[3,null,-5],[6]]`, -1},
		{"transform captures root", func(*probe) expr.Expr { return lambda(fn.ListTransform, xs, "x", a) }, `[[1,1],null,[],[4,4,4],[-5]]`, -1},
		{"transform lazy inside body", func(p *probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", expr.Coalesce(x, a))
		}, `[[1,2],null,[],[3,4,-5],[6]]`, -1},
		{"transform nested captures outer param", func(*probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", lambda(fn.ListTransform, xs, "y", x))
		}, `[[[1,1],[2,2]],null,[],[[3,3,3],[null,null,null],[-5,-5,-5]],[[6]]]`, -1},
		{"transform nested reads both", func(*probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", lambda(fn.ListTransform, xs, "y", caseWhen(ok, y, x)))
		}, `[[[1,2],[1,2]],null,[],[[3,null,-5],[3,null,-5],[3,null,-5]],[[6]]]`, -1},
		{"filter", func(*probe) expr.Expr { return lambda(fn.ListFilter, xs, "x", expr.Apply(isEven(), x)) }, `[[2],null,[],[],[6]]`, -1},
		{"any", func(*probe) expr.Expr { return lambda(fn.ListAny, xs, "x", expr.Apply(isEven(), x)) }, `[true,null,false,null,true]`, -1},
		{"all", func(*probe) expr.Expr { return lambda(fn.ListAll, xs, "x", expr.Apply(isEven(), x)) }, `[false,null,true,false,true]`, -1},
		{"any of scalar body", func(*probe) expr.Expr { return lambda(fn.ListAny, xs, "x", expr.Lit(true)) }, `[true,null,false,true,true]`, -1},
		{"all of null body", func(*probe) expr.Expr {
			return lambda(fn.ListAll, xs, "x", expr.LitScalar(scalar.Null(dtype.Bool(true))))
		}, `[null,null,true,null,null]`, -1},
		{"filter by root", func(*probe) expr.Expr { return lambda(fn.ListFilter, xs, "x", ok) }, `[[1,2],null,[],[3,null,-5],[]]`, -1},
		{"transform body sees elements only", func(p *probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", expr.Apply(checkPos(p), b))
		}, ``, -1}, // row 3 has b = -40 and three elements: an error at row 3
		{"constant list, closed body", func(p *probe) expr.Expr {
			return lambda(fn.ListTransform, intList(1, 2), "x", expr.Apply(checkPos(p), x))
		}, `[[1,2],[1,2],[1,2],[1,2],[1,2]]`, 2},
		{"constant list, body reads root", func(*probe) expr.Expr {
			return lambda(fn.ListTransform, intList(1, 2), "x", a)
		}, `[[1,1],[-2,-2],[null,null],[4,4],[-5,-5]]`, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			rt := mustType(t, formsType)
			input := fromJSON(t, mem, formsType, formsRows)
			defer input.Release()
			p := &probe{}
			bound := mustBind(t, c.e(p), rt)
			got, err := Eval(mem, bound, input)
			if c.want == "" {
				if err == nil {
					got.Release()
					t.Fatalf("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if s := jsonOf(t, got); s != c.want {
				t.Errorf("got  %s\nwant %s", s, c.want)
			}
			if !arrow.TypeEqual(got.DataType(), dtype.ToArrow(bound.DType())) {
				t.Errorf("result type %s, want %s", got.DataType(), dtype.ToArrow(bound.DType()))
			}
			if c.probeValid >= 0 && p.valid != c.probeValid {
				t.Errorf("check_pos saw %d non-null rows, want %d", p.valid, c.probeValid)
			}
			// Every slice of the input gives the slice of the result.
			for i := 0; i <= input.Len(); i++ {
				for j := i; j <= input.Len(); j++ {
					sl := array.NewSlice(input, int64(i), int64(j))
					part, err := Eval(mem, bound, sl)
					sl.Release()
					if err != nil {
						t.Fatalf("slice [%d:%d]: %v", i, j, err)
					}
					want := array.NewSlice(got, int64(i), int64(j))
					if gs, ws := jsonOf(t, part), jsonOf(t, want); gs != ws {
						t.Errorf("slice [%d:%d]: got %s, want %s", i, j, gs, ws)
					}
					part.Release()
					want.Release()
				}
			}
		})
	}
}

func intList(vs ...int32) expr.Expr {
	elems := make([]scalar.Scalar, len(vs))
	for i, v := range vs {
		elems[i] = scalar.Int32(v).WithDType(dtype.Primitive(dtype.I32, true))
	}
	return expr.LitScalar(scalar.List(dtype.List(dtype.Primitive(dtype.I32, true), false), elems))
}

// TestErrorRows checks that a kernel's error names the row of the input,
// through subsets and lambda elements, and keeps its sentinel.
func TestErrorRows(t *testing.T) {
	cases := []struct {
		name string
		e    func(p *probe) expr.Expr
		row  int
	}{
		{"plain", func(p *probe) expr.Expr { return expr.Apply(checkPos(p), a) }, 1},
		{"case branch", func(p *probe) expr.Expr { return caseWhen(ok, expr.Apply(checkPos(p), b)) }, 3},
		{"case else", func(p *probe) expr.Expr { return caseWhen(ok, b, expr.Apply(checkPos(p), a)) }, 1},
		{"case second condition", func(p *probe) expr.Expr {
			return caseWhen(ok, a, expr.IsNull(expr.Apply(checkPos(p), a)), b)
		}, 1},
		{"coalesce", func(p *probe) expr.Expr { return expr.Coalesce(b, expr.Apply(checkPos(p), a)) }, 1},
		{"lambda element", func(p *probe) expr.Expr { return lambda(fn.ListTransform, xs, "x", expr.Apply(checkPos(p), x)) }, 3},
		{"lambda capture", func(p *probe) expr.Expr {
			return lambda(fn.ListAny, xs, "x", expr.IsNull(expr.Apply(checkPos(p), b)))
		}, 3},
		{"nested lambda", func(p *probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", lambda(fn.ListTransform, xs, "y", expr.Apply(checkPos(p), y)))
		}, 3},
		{"case inside lambda", func(p *probe) expr.Expr {
			return lambda(fn.ListTransform, xs, "x", caseWhen(expr.IsNull(x), x, expr.Apply(checkPos(p), x)))
		}, 3},
		{"scalar subtree reports the first row", func(p *probe) expr.Expr {
			return caseWhen(ok, expr.Apply(checkPos(p), expr.Lit(int32(-1))))
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			input := fromJSON(t, mem, formsType, formsRows)
			defer input.Release()
			bound := mustBind(t, c.e(&probe{}), mustType(t, formsType))
			got, err := Eval(mem, bound, input)
			if err == nil {
				got.Release()
				t.Fatal("want an error")
			}
			if !errors.Is(err, errs.ErrInvalidArgument) {
				t.Errorf("%v: want errs.ErrInvalidArgument", err)
			}
			var ee *fn.EvalError
			if !errors.As(err, &ee) || ee.Row != c.row {
				t.Errorf("%v: want an *fn.EvalError at row %d", err, c.row)
			}
			var eerr *Error
			if !errors.As(err, &eerr) || eerr.Row != c.row || !strings.Contains(eerr.Expr, "check_pos") {
				t.Errorf("%v: want an *eval.Error at row %d naming check_pos", err, c.row)
			}
		})
	}
}

// TestNullListGarbage: elements addressed by null list rows are never
// evaluated, for List and FixedSizeList.
func TestNullListGarbage(t *testing.T) {
	mem := checkedMem(t)
	p := &probe{}
	body := func(list dtype.DType, f fn.Function) *expr.Bound {
		return mustBind(t, lambda(f, expr.RootExpr(), "x", expr.Apply(checkPos(p), x)), list)
	}
	anyBody := func(list dtype.DType) *expr.Bound {
		return mustBind(t, lambda(fn.ListAny, expr.RootExpr(), "x", expr.IsNull(expr.Apply(checkPos(p), x))), list)
	}
	list := listArray(t, mem, "i32?", `[1, 2, -1, -2, 3, -9]`, []int32{0, 2, 4, 5, 6}, []bool{true, false, true, false})
	defer list.Release()
	lt := mustType(t, "list<i32?>?")
	fsl := fslArray(t, mem, "i32?", `[1, 2, -1, -2, 3, 4, -7, -8]`, 2, []bool{true, false, true, false})
	defer fsl.Release()
	ft := mustType(t, "fixed_size_list<i32?, 2>?")
	for _, c := range []struct {
		name  string
		b     *expr.Bound
		input arrow.Array
		want  string
	}{
		{"list transform", body(lt, fn.ListTransform), list, `[[1,2],null,[3],null]`},
		{"list filter", mustBind(t, lambda(fn.ListFilter, expr.RootExpr(), "x", expr.IsNotNull(expr.Apply(checkPos(p), x))), lt), list, `[[1,2],null,[3],null]`},
		{"list any", anyBody(lt), list, `[false,null,false,null]`},
		{"fixed-size transform", body(ft, fn.ListTransform), fsl, `[[1,2],null,[3,4],null]`},
		{"fixed-size any", anyBody(ft), fsl, `[false,null,false,null]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Eval(mem, c.b, c.input)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if s := jsonOf(t, got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
			if c.b.DType().Kind() == dtype.KindFixedSizeList && got.DataType().ID() != arrow.FIXED_SIZE_LIST {
				t.Errorf("fixed-size transform gave %s", got.DataType())
			}
			// A slice that starts inside the data: offsets do not start at 0.
			sl := array.NewSlice(c.input, 1, 3)
			defer sl.Release()
			part, err := Eval(mem, c.b, sl)
			if err != nil {
				t.Fatal(err)
			}
			defer part.Release()
			want := array.NewSlice(got, 1, 3)
			defer want.Release()
			if gs, ws := jsonOf(t, part), jsonOf(t, want); gs != ws {
				t.Errorf("slice: got %s, want %s", gs, ws)
			}
		})
	}
}

// TestScalarsStayScalars: a subtree without $ runs its kernel once on one
// row, and EvalDatum keeps a scalar result a scalar.
func TestScalarsStayScalars(t *testing.T) {
	mem := checkedMem(t)
	p := &probe{}
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()

	bound := mustBind(t, expr.Coalesce(a, expr.Apply(checkPos(p), expr.Apply(checkPos(p), expr.Lit(int32(3))))), rt)
	got, err := Eval(mem, bound, input)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if s := jsonOf(t, got); s != `[1,-2,3,4,-5]` {
		t.Errorf("got %s", s)
	}
	if p.calls != 2 || p.rows != 2 || p.scalars != 2 {
		t.Errorf("check_pos: %d calls over %d rows, %d with scalars; want 2 calls over 2 rows, all scalars", p.calls, p.rows, p.scalars)
	}

	constant := mustBind(t, expr.Apply(checkPos(p), expr.Lit(int32(3))), rt)
	d, err := EvalDatum(mem, constant, datum.FromArray(input, rt), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	if !d.IsScalar() || d.Len() != 5 || d.Scalar().Value() != int64(3) {
		t.Errorf("EvalDatum of a constant: scalar=%v len=%d value=%v, want the scalar 3 over 5 rows", d.IsScalar(), d.Len(), d.Scalar().Value())
	}
}

func TestEvalDatumVars(t *testing.T) {
	mem := checkedMem(t)
	p := &probe{}
	it := dtype.Primitive(dtype.I32, true)
	scope := expr.ScopeOf(it).Push([]string{"v", "w"}, []dtype.DType{it, it})
	bound, err := expr.Bind(expr.Coalesce(expr.V("v"), expr.Apply(checkPos(p), expr.V("w")), expr.RootExpr()), scope)
	if err != nil {
		t.Fatal(err)
	}
	in := fromJSON(t, mem, "i32?", `[1, 2, 3, 4]`)
	defer in.Release()
	v := fromJSON(t, mem, "i32?", `[null, 20, null, null]`)
	defer v.Release()
	w := datum.FromScalar(scalar.Int32(7).WithDType(it), 4)
	d, err := EvalDatum(mem, bound, datum.FromArray(in, it), map[string]datum.Datum{"v": datum.FromArray(v, it), "w": w})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	if d.IsScalar() || jsonOf(t, d.Array()) != `[7,20,7,7]` {
		t.Errorf("got %v", d)
	}

	// A missing variable, or one of another type, is an error.
	if _, err := EvalDatum(mem, bound, datum.FromArray(in, it), map[string]datum.Datum{"v": datum.FromArray(v, it)}); err == nil || !strings.Contains(err.Error(), `"w"`) {
		t.Errorf("missing variable: %v", err)
	}
	wrong := datum.FromScalar(scalar.String("no"), 4)
	if _, err := EvalDatum(mem, bound, datum.FromArray(in, it), map[string]datum.Datum{"v": datum.FromArray(v, it), "w": wrong}); err == nil {
		t.Error("a variable of the wrong type: want an error")
	}

	// A scalar input.
	d2, err := EvalDatum(mem, bound, datum.FromScalar(scalar.Int32(5).WithDType(it), 3),
		map[string]datum.Datum{"v": datum.FromScalar(scalar.Null(it), 3), "w": datum.FromScalar(scalar.Null(it), 3)})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Release()
	if !d2.IsScalar() || d2.Len() != 3 || d2.Scalar().Value() != int64(5) {
		t.Errorf("scalar input: got scalar=%v len=%d %v", d2.IsScalar(), d2.Len(), d2.Scalar().Value())
	}
}

func TestEvalConstant(t *testing.T) {
	mem := checkedMem(t)
	p := &probe{}
	it := dtype.Primitive(dtype.I32, false)
	for _, c := range []struct {
		name string
		e    expr.Expr
		want any
		err  error
	}{
		{"literal", expr.Lit(int32(4)), int64(4), nil},
		{"kernel", expr.Apply(checkPos(p), expr.Lit(int32(4))), int64(4), nil},
		{"failing kernel", expr.Apply(checkPos(p), expr.Lit(int32(-4))), nil, errs.ErrInvalidArgument},
		{"guarded", caseWhen(expr.Lit(false), expr.Apply(checkPos(p), expr.Lit(int32(-4))), expr.Lit(int32(1))), int64(1), nil},
		{"coalesce", expr.Coalesce(expr.LitScalar(scalar.Null(it)), expr.Lit(int32(2))), int64(2), nil},
		{"list", lambda(fn.ListAll, intList(2, 4), "x", expr.Apply(isEven(), x)), true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			bound := mustBind(t, c.e, dtype.Null())
			s, err := EvalConstant(mem, bound)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Value() != c.want {
				t.Errorf("got %v, want %v", s.Value(), c.want)
			}
		})
	}
	if _, err := EvalConstant(mem, mustBind(t, a, mustType(t, formsType))); err == nil {
		t.Error("EvalConstant of $.a: want an error")
	}
}

func TestFilter(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	rec := array.RecordFromStructArray(input.(*array.Struct), nil)
	defer rec.Release()
	for _, c := range []struct {
		name string
		pred expr.Expr
		want string
	}{
		{"column", ok, `[1,4]`},
		{"all", expr.Lit(true), `[1,-2,null,4,-5]`},
		{"none", expr.LitScalar(scalar.Null(dtype.Bool(true))), `[]`},
		{"lambda", lambda(fn.ListAny, xs, "x", expr.Apply(isEven(), x)), `[1,-5]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Filter(mem, mustBind(t, c.pred, rt), rec)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if s := jsonOf(t, out.Column(0)); s != c.want {
				t.Errorf("column a: got %s, want %s", s, c.want)
			}
			if out.NumCols() != rec.NumCols() || out.NumRows() != int64(out.Column(4).Len()) {
				t.Errorf("shape: %d columns, %d rows", out.NumCols(), out.NumRows())
			}
		})
	}
	if _, err := Filter(mem, mustBind(t, a, rt), rec); err == nil {
		t.Error("Filter by an i32: want an error")
	}
}

func TestEvalErrors(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()

	noKernel := mustBind(t, expr.Apply(noKernelFn{}, a), rt)
	if _, err := Eval(mem, noKernel, input); !errors.Is(err, ErrNoKernel) || err.Error() != "eval: no kernel for no_such_kernel" {
		t.Errorf("no kernel: %v", err)
	}
	// Even over no rows.
	empty := array.NewSlice(input, 0, 0)
	defer empty.Release()
	if _, err := Eval(mem, noKernel, empty); !errors.Is(err, ErrNoKernel) {
		t.Errorf("no kernel over no rows: %v", err)
	}

	// A kernel that returns an array of the wrong type or length.
	wrong := func(id string, n int) *testFn {
		return &testFn{id: id, arity: 1,
			ret: func(args []dtype.DType) (dtype.DType, error) { return args[0], nil },
			eval: func(ctx *fn.Context, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
				bld := array.NewInt64Builder(ctx.Mem)
				defer bld.Release()
				for range n {
					bld.Append(1)
				}
				return datum.FromArray(bld.NewArray(), ret), nil
			}}
	}
	for _, f := range []*testFn{wrong("wrong_type", 5), wrong("wrong_length", 2)} {
		if _, err := Eval(mem, mustBind(t, expr.Apply(f, a), rt), input); err == nil || !strings.Contains(err.Error(), "kernel "+f.id+" returned") {
			t.Errorf("%s: %v", f.id, err)
		}
	}

	other := mustBind(t, expr.Col("a"), mustType(t, "struct<a: i64>"))
	if _, err := Eval(mem, other, input); err == nil || !strings.Contains(err.Error(), "bound with") {
		t.Errorf("input of another type: %v", err)
	}
	if _, err := Eval(mem, nil, input); err == nil {
		t.Error("nil expression: want an error")
	}
	if _, err := Eval(mem, other, nil); err == nil {
		t.Error("nil input: want an error")
	}
}

// TestEmptyInput: over no rows nothing runs and the result is empty.
func TestEmptyInput(t *testing.T) {
	mem := checkedMem(t)
	p := &probe{}
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, `[]`)
	defer input.Release()
	bound := mustBind(t, expr.Apply(checkPos(p), expr.Lit(int32(-1))), rt)
	got, err := Eval(mem, bound, input)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.Len() != 0 || p.calls != 0 {
		t.Errorf("got %d rows after %d kernel calls", got.Len(), p.calls)
	}
}

// TestGetItemZeroCopy: $.a on a struct without nulls is the column itself.
func TestGetItemZeroCopy(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	got, err := Eval(mem, mustBind(t, a, rt), input)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	col := input.(*array.Struct).Field(0)
	if got.Data().Buffers()[1] != col.Data().Buffers()[1] {
		t.Error("$.a copied the column")
	}
}

// TestMaskSafe: which branches may run masked (over all rows, the others
// made null) rather than over a gathered subset.
func TestMaskSafe(t *testing.T) {
	rt := mustType(t, formsType)
	p := &probe{}
	for _, c := range []struct {
		e    expr.Expr
		safe bool
	}{
		{a, true},
		{expr.Add(a, b), true},
		{expr.Apply(checkPos(p), a), true},
		{expr.Apply(checkPos(p), expr.Lit(int32(-1))), true},                   // fails for the selected rows too
		{expr.Apply(checkPos(p), expr.Coalesce(a, expr.Lit(int32(0)))), false}, // coalesce is lazy
		{expr.Apply(checkPos(p), expr.Cast(expr.IsNull(a), dtype.Primitive(dtype.I32, false))), false},
		{expr.IsNull(expr.Apply(checkPos(p), a)), true},
		{expr.Cast(expr.Path("s", "x"), dtype.Primitive(dtype.I8, true)), true},
		{caseWhen(ok, a), false},
		// between is a Kleene AND: false on a masked row, where a cast of its
		// text to i32 would fail.
		{expr.Cast(expr.Cast(expr.Between(expr.Lit(int32(5)), a, expr.Lit(int32(3))), dtype.Utf8(false)), dtype.Primitive(dtype.I32, false)), false},
		{lambda(fn.ListTransform, xs, "x", x), false},
	} {
		bound := mustBind(t, c.e, rt)
		if safe, _ := maskSafe(bound); safe != c.safe {
			t.Errorf("maskSafe(%s) = %v, want %v", bound, safe, c.safe)
		}
	}
}

// TestEvalRecord: a record batch is evaluated as the struct of its columns.
func TestEvalRecord(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	rec := array.RecordFromStructArray(input.(*array.Struct), nil)
	defer rec.Release()
	bound := mustBind(t, expr.Coalesce(expr.Path("s", "x"), b, a), rt)
	got, err := EvalRecord(mem, bound, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if s := jsonOf(t, got); s != `[1,-2,30,3,4]` {
		t.Errorf("got %s", s)
	}
	if _, err := EvalRecord(mem, bound, nil); err == nil {
		t.Error("nil record: want an error")
	}
}

// TestErrorMessage: a runtime error reads "eval: <fn>: row <n>: <cause>
// (in `<call>`)", with the input row.
func TestErrorMessage(t *testing.T) {
	mem := checkedMem(t)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	bound := mustBind(t, caseWhen(ok, expr.Apply(checkPos(&probe{}), b)), mustType(t, formsType))
	_, err := Eval(mem, bound, input)
	want := "eval: check_pos: row 3: invalid argument (in `check_pos(b)`)"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestDeepTree: a 50 000-deep chain of calls, inside a CASE branch and a
// lambda body, evaluates without running out of stack or time.
func TestDeepTree(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	p := &probe{}
	deep := func(leaf expr.Expr) expr.Expr {
		e := leaf
		for range 50_000 {
			e = expr.Apply(checkPos(p), e)
		}
		return e
	}
	for _, c := range []struct {
		e    expr.Expr
		want string
	}{
		{caseWhen(ok, deep(a)), `[1,null,null,4,null]`},
		{lambda(fn.ListTransform, xs, "x", deep(expr.Coalesce(x, expr.Lit(int32(0))))), ``}, // -5 in row 3 fails
	} {
		bound := mustBind(t, c.e, rt)
		got, err := Eval(mem, bound, input)
		if c.want == "" {
			var ee *fn.EvalError
			if !errors.As(err, &ee) || ee.Row != 3 {
				t.Errorf("got %v, want a check_pos error at row 3", err)
			}
			if err == nil {
				got.Release()
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if s := jsonOf(t, got); s != c.want {
			t.Errorf("got %s, want %s", s, c.want)
		}
		got.Release()
	}
}

// TestConcurrent: one bound tree evaluated from several goroutines at once
// (run with -race).
func TestConcurrent(t *testing.T) {
	mem := checkedMem(t)
	rt := mustType(t, formsType)
	input := fromJSON(t, mem, formsType, formsRows)
	defer input.Release()
	bound := mustBind(t, lambda(fn.ListTransform, xs, "x", caseWhen(ok, expr.Coalesce(x, a), expr.Add(x, b))), rt)
	want, err := Eval(mem, bound, input)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	ws := jsonOf(t, want)
	errc := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				got, err := Eval(mem, bound, input)
				if err != nil {
					errc <- err
					return
				}
				gs, _ := json.Marshal(got)
				got.Release()
				if string(gs) != ws {
					errc <- fmt.Errorf("got %s, want %s", gs, ws)
					return
				}
			}
			errc <- nil
		}()
	}
	for range 8 {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}
