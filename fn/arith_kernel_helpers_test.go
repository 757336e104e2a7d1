package fn_test

// Helpers of the fixed-width kernel tests (arith, compare, boolean, null,
// cast). Names start with fk so they cannot clash with the helpers of the
// other kernel tests in this package.
//
// A case lists its arguments as columns (JSON arrays) or literals (one JSON
// value) and the expected result rows as a JSON array, or the expected
// error sentinel and row. fkRun evaluates every case in several shapes that
// must agree: as written; with every column sliced out of a longer array
// (offset 3, padding rows that would fail or differ if read); with every
// literal broadcast into a column; and, for cases of literals only, as
// scalars (whose result must stay a scalar).

import (
	"encoding/json"
	"errors"
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

// fkArg is an argument of a case: a column or a literal of type typ.
type fkArg struct {
	typ  string
	json string // a JSON array for a column, a JSON value for a literal
	lit  bool
}

func fkCol(typ, json string) fkArg { return fkArg{typ: typ, json: json} }
func fkLit(typ, json string) fkArg { return fkArg{typ: typ, json: json, lit: true} }

// fkCase is one evaluation and what it must give.
type fkCase struct {
	name string
	f    fn.Function
	args []fkArg
	want string // the result rows as a JSON array
	err  error  // the expected sentinel, if the call fails
	row  int    // the expected failing row
}

// fkRows is the number of rows a case of literals only is evaluated over.
const fkRows = 2

func fkRun(t *testing.T, cases []fkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shapes := []string{"plain", "sliced", "broadcast"}
			for _, shape := range shapes {
				fkRunShape(t, c, shape)
			}
		})
	}
}

func fkRunShape(t *testing.T, c fkCase, shape string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	n := -1
	for _, a := range c.args {
		if !a.lit {
			n = len(fkElems(t, a.json))
			break
		}
	}
	allLit := n < 0
	if allLit {
		n = fkRows
	}
	args := make([]datum.Datum, len(c.args))
	for i, a := range c.args {
		switch {
		case a.lit && (shape != "broadcast" || allLit):
			args[i] = datum.FromScalar(fkScalar(t, mem, a.typ, a.json), n)
		case a.lit:
			s := fkScalar(t, mem, a.typ, a.json)
			arr, err := scalar.MakeArray(mem, s, n)
			if err != nil {
				t.Fatalf("%s: broadcasting %s: %v", shape, a.json, err)
			}
			args[i] = datum.FromArray(arr, s.DType())
		case shape == "sliced":
			args[i] = fkSliced(t, mem, a.typ, a.json)
		default:
			args[i] = fkArray(t, mem, a.typ, a.json)
		}
	}
	defer func() {
		for _, a := range args {
			a.Release()
		}
	}()
	got, err := fkEval(t, mem, c.f, args)
	if c.err != nil {
		if err == nil {
			got.Release()
			t.Fatalf("%s: got no error, want %v", shape, c.err)
		}
		if !errors.Is(err, c.err) {
			t.Fatalf("%s: got error %v, want %v", shape, err, c.err)
		}
		var ee *fn.EvalError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: error %v is not an *fn.EvalError", shape, err)
		}
		if ee.Row != c.row || ee.Fn != c.f.ID() {
			t.Fatalf("%s: error at %s row %d, want %s row %d (%v)", shape, ee.Fn, ee.Row, c.f.ID(), c.row, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", shape, err)
	}
	defer got.Release()
	if allLit && shape != "broadcast" && !got.IsScalar() {
		t.Errorf("%s: literals gave an array, want a scalar", shape)
	}
	if res := fkNormJSON(t, fkJSON(t, mem, got)); res != fkNormJSON(t, c.want) {
		t.Errorf("%s: got %s, want %s", shape, res, c.want)
	}
}

// fkEval types and evaluates a call.
func fkEval(t *testing.T, mem memory.Allocator, f fn.Function, args []datum.Datum) (datum.Datum, error) {
	t.Helper()
	ts := make([]dtype.DType, len(args))
	for i, a := range args {
		ts[i] = a.DType()
	}
	var ret dtype.DType
	var err error
	if ct, ok := f.(fn.ConstTyper); ok {
		// The values of scalar arguments, as the binder gives a literal's.
		consts := make([]*scalar.Scalar, len(args))
		for i, a := range args {
			if a.IsScalar() {
				s := a.Scalar()
				consts[i] = &s
			}
		}
		ret, err = ct.ReturnTypeConst(ts, consts)
	} else {
		ret, err = f.ReturnType(ts)
	}
	if err != nil {
		t.Fatalf("typing %s%v: %v", f.ID(), ts, err)
	}
	k, ok := f.(fn.Kernel)
	if !ok {
		t.Fatalf("%s has no kernel", f.ID())
	}
	got, err := k.Eval(&fn.Context{Mem: mem}, args, ret)
	if err == nil {
		if got.Len() != args[0].Len() {
			t.Errorf("result has %d rows, want %d", got.Len(), args[0].Len())
		}
		if !got.DType().Equal(ret) && !(got.IsScalar() && got.DType().EqualIgnoreNullability(ret)) {
			t.Errorf("result has dtype %s, want %s", got.DType(), ret)
		}
		if !got.IsScalar() && !arrow.TypeEqual(got.Array().DataType(), dtype.ToArrow(ret)) {
			t.Errorf("result has Arrow type %s, want %s", got.Array().DataType(), dtype.ToArrow(ret))
		}
	}
	return got, err
}

// fkElems splits a JSON array into its elements.
func fkElems(t *testing.T, s string) []json.RawMessage {
	t.Helper()
	var es []json.RawMessage
	if err := json.Unmarshal([]byte(s), &es); err != nil {
		t.Fatalf("bad JSON array %s: %v", s, err)
	}
	return es
}

func fkType(t *testing.T, typ string) dtype.DType {
	t.Helper()
	dt, err := dtype.Parse(typ)
	if err != nil {
		t.Fatalf("bad type %q: %v", typ, err)
	}
	return dt.AsNullable()
}

// fkArray builds a column of type typ from a JSON array.
func fkArray(t *testing.T, mem memory.Allocator, typ, js string) datum.Datum {
	t.Helper()
	dt := fkType(t, typ)
	arr, _, err := array.FromJSON(mem, dtype.ToArrow(dt), strings.NewReader(js))
	if err != nil {
		t.Fatalf("bad %s column %s: %v", typ, js, err)
	}
	return datum.FromArray(arr, dt)
}

// fkSliced builds the column from a longer array: three rows before it and
// two after, taken from its own rows in another order (so reading them by
// mistake shows), then sliced to the rows of js.
func fkSliced(t *testing.T, mem memory.Allocator, typ, js string) datum.Datum {
	t.Helper()
	es := fkElems(t, js)
	var pad []json.RawMessage
	for i := 0; i < 5; i++ {
		if len(es) == 0 {
			pad = append(pad, json.RawMessage("null"))
		} else {
			pad = append(pad, es[(i+1)%len(es)])
		}
	}
	all := append(append(append([]json.RawMessage{}, pad[:3]...), es...), pad[3:]...)
	b, _ := json.Marshal(all)
	whole := fkArray(t, mem, typ, string(b))
	defer whole.Release()
	return datum.FromArray(array.NewSlice(whole.Array(), 3, int64(3+len(es))), whole.DType())
}

// fkScalar builds a literal of type typ from a JSON value.
func fkScalar(t *testing.T, mem memory.Allocator, typ, js string) scalar.Scalar {
	t.Helper()
	d := fkArray(t, mem, typ, "["+js+"]")
	defer d.Release()
	s, err := scalar.FromArray(d.Array(), 0, d.DType())
	if err != nil {
		t.Fatalf("bad %s literal %s: %v", typ, js, err)
	}
	return s
}

// fkJSON is the rows of d as a JSON array (a scalar broadcast to its rows).
func fkJSON(t *testing.T, mem memory.Allocator, d datum.Datum) string {
	t.Helper()
	arr := d.Array()
	if d.IsScalar() {
		var err error
		arr, err = scalar.MakeArray(mem, d.Scalar(), d.Len())
		if err != nil {
			t.Fatalf("broadcasting the result %v: %v", d.Scalar(), err)
		}
		defer arr.Release()
	} else {
		fkCheckNulls(t, arr)
	}
	b, err := arr.MarshalJSON()
	if err != nil {
		t.Fatalf("result to JSON: %v", err)
	}
	return string(b)
}

// fkCheckNulls checks that an array's null count matches its bitmap.
func fkCheckNulls(t *testing.T, arr arrow.Array) {
	t.Helper()
	count := 0
	for i := 0; i < arr.Len(); i++ {
		if arr.IsNull(i) {
			count++
		}
	}
	if count != arr.NullN() {
		t.Errorf("result claims %d nulls, its bitmap has %d", arr.NullN(), count)
	}
}

// fkNormJSON reformats a JSON array compactly.
func fkNormJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(fkElems(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
