package eval_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/scalar"
)

// dictOf is a dictionary type of the given indices over values.
func dictOf(index, values arrow.DataType) *arrow.DictionaryType {
	return &arrow.DictionaryType{IndexType: index, ValueType: values}
}

// dictFields are columns encoded as dictionaries at every place one can
// stand (a column, list elements, a struct field, with indices of several
// widths and signs), and plainFields the same columns without them.
var (
	dictFields = []arrow.Field{
		{Name: "mode", Type: dictOf(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String), Nullable: true},
		{Name: "k", Type: dictOf(arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(dictOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "c", Type: dictOf(arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String), Nullable: true}), Nullable: true},
	}
	plainFields = []arrow.Field{
		{Name: "mode", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "c", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	}
	dictRows = `[
	{"mode": "AIR", "k": 7, "qty": 1, "tags": ["a", "b"], "s": {"c": "x"}},
	{"mode": null, "k": 7, "qty": 2, "tags": null, "s": null},
	{"mode": "MAIL", "k": null, "qty": 3, "tags": ["b", null], "s": {"c": null}},
	{"mode": "AIR", "k": -2, "qty": null, "tags": [], "s": {"c": "y"}},
	{"mode": "SHIP", "k": 7, "qty": 5, "tags": ["c"], "s": {"c": "x"}}
	]`
	dictExprs = []string{
		"mode",
		"mode = 'AIR'",
		"upper(mode) || '!'",
		"mode IN ('MAIL', 'SHIP') OR k > 0",
		"k + qty",
		"coalesce(mode, 'none')",
		"CASE WHEN qty > 2 THEN mode ELSE s.c END",
		"s.c",
		"s",
		"s IS NULL",
		"{m: mode, c: s.c}",
		"tags",
		"list_transform(tags, t -> t || mode)",
		"list_filter(tags, t -> t <> 'b')",
	}
)

// TestEvalDictionary: a dictionary-encoded column (dtype.FromArrow types
// it as its values) evaluates as the same column stored plain would,
// whether a record batch's column, list elements or a struct field, read
// through a field, whole, in a CASE branch or a lambda body; Filter keeps
// the dictionary columns as they are.
func TestEvalDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dictSchema, plainSchema := arrow.NewSchema(dictFields, nil), arrow.NewSchema(plainFields, nil)
	dt, err := dtype.FromArrowSchema(dictSchema)
	if err != nil {
		t.Fatal(err)
	}
	if pt, _ := dtype.FromArrowSchema(plainSchema); !dt.Equal(pt) {
		t.Fatalf("dictionary schema types as %s, plain as %s", dt, pt)
	}
	drec, prec := record(mem, dictSchema, dictRows), record(mem, plainSchema, dictRows)
	defer drec.Release()
	defer prec.Release()
	dstruct, pstruct := array.RecordToStructArray(drec), array.RecordToStructArray(prec)
	defer dstruct.Release()
	defer pstruct.Release()
	for _, src := range dictExprs {
		b := compile(src, dictSchema)
		want, err := eval.EvalRecord(mem, b, prec)
		if err != nil {
			t.Fatalf("%s over plain columns: %v", src, err)
		}
		wantJS := jsonText(t, want)
		want.Release()
		got, err := eval.EvalRecord(mem, b, drec)
		if err != nil {
			t.Fatalf("%s over the record batch: %v", src, err)
		}
		if js := jsonText(t, got); js != wantJS {
			t.Errorf("%s over the record batch: got %s, want %s", src, js, wantJS)
		}
		if !arrow.TypeEqual(got.DataType(), dtype.ToArrow(b.DType())) {
			t.Errorf("%s: result of Arrow type %s, want %s", src, got.DataType(), dtype.ToArrow(b.DType()))
		}
		got.Release()
		got, err = eval.Eval(mem, b, dstruct)
		if err != nil {
			t.Fatalf("%s over a struct array: %v", src, err)
		}
		if js := jsonText(t, got); js != wantJS {
			t.Errorf("%s over a struct array: got %s, want %s", src, js, wantJS)
		}
		got.Release()
	}
	// Filter: the same rows, the dictionary columns still dictionaries.
	for _, src := range []string{"mode = 'AIR'", "k = 7 AND s.c = 'x'", "list_any(tags, t -> t = 'b')"} {
		b := compile(src, dictSchema)
		want, err := eval.Filter(mem, b, prec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := eval.Filter(mem, b, drec)
		if err != nil {
			t.Fatalf("Filter %s: %v", src, err)
		}
		if !got.Schema().Equal(dictSchema) {
			t.Errorf("Filter %s: schema %s", src, got.Schema())
		}
		if g, w := jsonText(t, got), jsonText(t, want); g != w {
			t.Errorf("Filter %s: got %s, want %s", src, g, w)
		}
		got.Release()
		want.Release()
	}
}

// TestEvalDictionaryNullStruct: a struct array with null rows whose field
// is a dictionary (Eval with a struct input): the field reads null on the
// struct's null rows; a free variable bound to a dictionary array
// (EvalDatum, as partitioning evaluates) is decoded too.
func TestEvalDictionaryNullStruct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	st := arrow.StructOf(arrow.Field{Name: "c", Type: dictOf(arrow.PrimitiveTypes.Uint8, arrow.BinaryTypes.String), Nullable: true})
	arr, _, err := array.FromJSON(mem, st, strings.NewReader(`[{"c": "x"}, null, {"c": null}, {"c": "y"}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	root, err := dtype.FromArrow(st, true)
	if err != nil {
		t.Fatal(err)
	}
	if root.String() != "struct<c: utf8?>?" {
		t.Fatalf("dtype %s", root)
	}
	b := compile("c || '!'", arrow.NewSchema(st.Fields(), nil))
	got, err := eval.Eval(mem, b, arr)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if js := jsonText(t, got); js != `["x!",null,null,"y!"]` {
		t.Errorf("c || '!' got %s", js)
	}

	vt := root.Fields()[0].Type
	vb, err := expr.Bind(expr.IsNull(expr.V("v")), expr.ScopeOf(dtype.Null()).With("v", vt))
	if err != nil {
		t.Fatal(err)
	}
	col, _, err := array.FromJSON(mem, st.Field(0).Type, strings.NewReader(`["x", null, "y", "x"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer col.Release()
	d, err := eval.EvalDatum(mem, vb, datum.FromScalar(scalar.Null(dtype.Null()), col.Len()), map[string]datum.Datum{"v": datum.FromArray(col, vt)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	if js := jsonText(t, d.Array()); js != `[false,true,false,false]` {
		t.Errorf("v IS NULL got %s", js)
	}
}

// jsonText is the JSON of an array's rows or a record batch's.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEvalDictionaryOfNestedValues: a dictionary whose values are lists
// or structs reads as those values (list functions, field access).
func TestEvalDictionaryOfNestedValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	listVals, _, err := array.FromJSON(mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), strings.NewReader(`[[1, 2], null, [5]]`))
	if err != nil {
		t.Fatal(err)
	}
	defer listVals.Release()
	structVals, _, err := array.FromJSON(mem, arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), strings.NewReader(`[{"x": 7}, {"x": null}, null]`))
	if err != nil {
		t.Fatal(err)
	}
	defer structVals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, 2, null, 1, 0]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	xs := array.NewDictionaryArray(dictOf(arrow.PrimitiveTypes.Int32, listVals.DataType()), idx, listVals)
	defer xs.Release()
	s := array.NewDictionaryArray(dictOf(arrow.PrimitiveTypes.Int32, structVals.DataType()), idx, structVals)
	defer s.Release()
	sc := arrow.NewSchema([]arrow.Field{{Name: "xs", Type: xs.DataType(), Nullable: true}, {Name: "s", Type: s.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(sc, []arrow.Array{xs, s}, 5)
	defer rec.Release()
	for _, c := range []struct{ src, want string }{
		{"list_transform(xs, v -> v * 10)", `[[10,20],[50],null,null,[10,20]]`},
		{"len(xs)", `[2,1,null,null,2]`},
		{"s.x + 1", `[8,null,null,null,8]`},
		{"s IS NULL", `[false,true,true,false,false]`},
	} {
		got, err := eval.EvalRecord(mem, compile(c.src, sc), rec)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if js := jsonText(t, got); js != c.want {
			t.Errorf("%s: got %s, want %s", c.src, js, c.want)
		}
		got.Release()
	}
}
