package fn_test

// Tests of the kernels of the string, like, list and struct families as
// functions: each case is typed with ReturnType and evaluated through the
// fn.Kernel interface. (The kernels' own tests, in internal/kernels, cover
// the semantics row by row with sliced arrays.) Helpers start with vk so
// they cannot clash with those of the other kernel tests in this package.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// vkArg is an argument: a column (JSON array) or a literal (JSON value).
type vkArg struct {
	typ  string
	json string
	lit  bool
}

func vkCol(typ, js string) vkArg { return vkArg{typ: typ, json: js} }
func vkLit(typ, js string) vkArg { return vkArg{typ: typ, json: js, lit: true} }

// vkCase evaluates f over args: the result rows want (JSON), or an
// *fn.EvalError wrapping wantErr at errRow.
type vkCase struct {
	name    string
	f       fn.Function
	args    []vkArg
	want    string
	wantErr error
	errRow  int
}

func vkType(t testing.TB, s string) dtype.DType {
	t.Helper()
	dt, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("bad test type %q: %v", s, err)
	}
	return dt
}

func vkArray(t testing.TB, mem memory.Allocator, dt dtype.DType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dtype.ToArrow(dt), strings.NewReader(js))
	if err != nil {
		t.Fatalf("bad test JSON %s for %s: %v", js, dt, err)
	}
	return arr
}

// vkDatums builds the arguments; n is the row count of the first column
// (1 when every argument is a literal).
func vkDatums(t testing.TB, mem memory.Allocator, args []vkArg) ([]datum.Datum, []dtype.DType, int) {
	t.Helper()
	n := 1
	for _, a := range args {
		if !a.lit {
			arr := vkArray(t, memory.DefaultAllocator, vkType(t, a.typ), a.json)
			n = arr.Len()
			arr.Release()
			break
		}
	}
	ds := make([]datum.Datum, len(args))
	ts := make([]dtype.DType, len(args))
	for i, a := range args {
		dt := vkType(t, a.typ)
		ts[i] = dt
		if !a.lit {
			ds[i] = datum.FromArray(vkArray(t, mem, dt, a.json), dt)
			continue
		}
		one := vkArray(t, memory.DefaultAllocator, dt, "["+a.json+"]")
		s, err := scalar.FromArray(one, 0, dt)
		one.Release()
		if err != nil {
			t.Fatalf("literal %s of %s: %v", a.json, dt, err)
		}
		ds[i] = datum.FromScalar(s, n)
	}
	return ds, ts, n
}

// vkRows is every row of d as a scalar of type t.
func vkRows(t testing.TB, mem memory.Allocator, d datum.Datum, dt dtype.DType) []scalar.Scalar {
	t.Helper()
	arr := d.Array()
	if d.IsScalar() {
		var err error
		if arr, err = scalar.MakeArray(mem, d.Scalar(), d.Len()); err != nil {
			t.Fatal(err)
		}
		defer arr.Release()
	}
	out := make([]scalar.Scalar, arr.Len())
	for i := range out {
		s, err := scalar.FromArray(arr, i, dt)
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		out[i] = s
	}
	return out
}

func vkRun(t *testing.T, cases []vkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			args, types, _ := vkDatums(t, mem, c.args)
			defer func() {
				for _, a := range args {
					a.Release()
				}
			}()
			ret, err := c.f.ReturnType(types)
			if err != nil {
				t.Fatalf("ReturnType: %v", err)
			}
			k, ok := c.f.(fn.Kernel)
			if !ok {
				t.Fatalf("%s is not a fn.Kernel", c.f.ID())
			}
			got, err := k.Eval(&fn.Context{Mem: mem}, args, ret)
			if c.wantErr != nil {
				var ee *fn.EvalError
				if err == nil {
					got.Release()
					t.Fatalf("no error, want %v", c.wantErr)
				}
				if !errors.Is(err, c.wantErr) || !errors.As(err, &ee) || ee.Row != c.errRow || ee.Fn != c.f.ID() {
					t.Fatalf("error %#v (%v), want an EvalError of %s at row %d wrapping %v", err, err, c.f.ID(), c.errRow, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			defer got.Release()
			if !got.DType().Equal(ret) {
				t.Errorf("result dtype %s, want %s", got.DType(), ret)
			}
			exp := vkArray(t, mem, ret, c.want)
			defer exp.Release()
			gs, ws := vkRows(t, mem, got, ret), vkRows(t, mem, datum.FromArray(exp, ret), ret)
			if fmt.Sprint(gs) != fmt.Sprint(ws) || len(gs) != len(ws) {
				t.Errorf("got %v, want %v", gs, ws)
				return
			}
			for i := range gs {
				if !gs[i].Identical(ws[i]) {
					t.Errorf("row %d: got %v, want %v", i, gs[i], ws[i])
				}
			}
		})
	}
}

func TestStringKernels(t *testing.T) {
	s := vkCol("utf8?", `["Hello", null, "日本語", ""]`)
	vkRun(t, []vkCase{
		{name: "lower", f: fn.Lower, args: []vkArg{s}, want: `["hello", null, "日本語", ""]`},
		{name: "upper", f: fn.Upper, args: []vkArg{s}, want: `["HELLO", null, "日本語", ""]`},
		{name: "upper literal", f: fn.Upper, args: []vkArg{vkLit("utf8", `"straße"`)}, want: `["STRAßE"]`},
		{name: "length", f: fn.Length, args: []vkArg{s}, want: `[5, null, 3, 0]`},
		{name: "byte_length", f: fn.ByteLength, args: []vkArg{s}, want: `[5, null, 9, 0]`},
		{name: "byte_length binary", f: fn.ByteLength, args: []vkArg{vkCol("binary", `["AAEC", ""]`)}, want: `[3, 0]`},
		{name: "starts_with", f: fn.StartsWith, args: []vkArg{s, vkLit("utf8", `"He"`)}, want: `[true, null, false, false]`},
		{name: "ends_with", f: fn.EndsWith, args: []vkArg{s, vkLit("utf8", `"語"`)}, want: `[false, null, true, false]`},
		{name: "contains", f: fn.Contains, args: []vkArg{s, vkCol("utf8", `["ll", "x", "本", ""]`)}, want: `[true, null, true, true]`},
		{name: "concat", f: fn.Concat, args: []vkArg{s, vkLit("utf8", `"!"`), vkLit("null", `null`)}, want: `["Hello!", "!", "日本語!", "!"]`},
		{name: "|| with a literal", f: fn.StringConcat, args: []vkArg{s, vkLit("utf8", `"!"`)}, want: `["Hello!", null, "日本語!", "!"]`},
		{name: "|| of two columns", f: fn.StringConcat, args: []vkArg{vkCol("utf8?", `["a", "b", null, ""]`), s}, want: `["aHello", null, null, ""]`},
		{name: "|| with a null literal", f: fn.StringConcat, args: []vkArg{s, vkLit("utf8?", `null`)}, want: `[null, null, null, null]`},
		{name: "|| with an untyped null", f: fn.StringConcat, args: []vkArg{s, vkLit("null", `null`)}, want: `[null, null, null, null]`},
		{name: "|| of literals", f: fn.StringConcat, args: []vkArg{vkLit("utf8", `"x"`), vkLit("utf8", `"y"`)}, want: `["xy"]`},
		{name: "substring", f: fn.Substring, args: []vkArg{s, vkLit("i64", `2`), vkLit("i32", `2`)}, want: `["el", null, "本語", ""]`},
		{name: "substring from end", f: fn.Substring, args: []vkArg{s, vkCol("i8", `[-3, 1, -1, 1]`)}, want: `["llo", null, "語", ""]`},
	})
}

// TestKernelMisuse checks the errors for argument lists the binder would
// never produce: they are errors, not panics.
func TestKernelMisuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := &fn.Context{Mem: mem}
	s := datum.FromScalar(scalar.String("x"), 1)
	for _, f := range []fn.Function{fn.Lower, fn.Upper, fn.Length, fn.ByteLength, fn.StartsWith, fn.EndsWith,
		fn.Contains, fn.Concat, fn.Substring, fn.Like(false, false), fn.ListLength, fn.ListContains,
		fn.ListElement, fn.GetItem("a"), fn.Pack("a"), fn.Select("a"), fn.Merge} {
		k, ok := f.(fn.Kernel)
		if !ok {
			t.Errorf("%s has no kernel", f.ID())
			continue
		}
		// One argument too many, or none for a variadic function.
		var args []datum.Datum
		for range f.Arity().Max + 1 {
			args = append(args, s)
		}
		if out, err := k.Eval(ctx, args, dtype.Utf8(false)); err == nil {
			out.Release()
			t.Errorf("%s with %d arguments: no error", f.ID(), len(args))
		}
	}
	st := dtype.Struct([]dtype.Field{{Name: "a", Type: dtype.Utf8(false)}}, false)
	v := datum.FromScalar(scalar.Struct(st, []scalar.Scalar{scalar.String("x")}), 1)
	for _, f := range []fn.Function{fn.GetItem("zz"), fn.Select("zz")} {
		out, err := f.(fn.Kernel).Eval(ctx, []datum.Datum{v}, dtype.Utf8(false))
		if err == nil || !strings.Contains(err.Error(), "zz") {
			if err == nil {
				out.Release()
			}
			t.Errorf("%s of a missing field: error %v", f.ID(), err)
		}
	}
}

func Example_substring() {
	mem := memory.NewGoAllocator()
	ctx := &fn.Context{Mem: mem}
	k := fn.Substring.(fn.Kernel)
	for _, a := range [][2]int64{{2, 3}, {-3, 2}, {0, 2}, {4, -2}} {
		args := []datum.Datum{
			datum.FromScalar(scalar.String("héllo"), 1),
			datum.FromScalar(scalar.Int64(a[0]), 1),
			datum.FromScalar(scalar.Int64(a[1]), 1),
		}
		out, _ := k.Eval(ctx, args, dtype.Utf8(false))
		fmt.Printf("substring('héllo', %d, %d) = %q\n", a[0], a[1], out.Scalar().Value())
	}
	// Output:
	// substring('héllo', 2, 3) = "éll"
	// substring('héllo', -3, 2) = "ll"
	// substring('héllo', 0, 2) = "h"
	// substring('héllo', 4, -2) = "él"
}
