package colexpr_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// TestFilterKeepsDictionaryColumns: a record's dictionary column (which
// NewSchema once left out, and now types as its values), even one the
// predicate does not read, is filtered with the others, its dictionary
// kept — in both of Filter's ways of taking rows
// (a row list when few rows pass, compression when many do) — and a
// program compiled against the schema evaluates its batches (it reads
// columns by name). Both failed: the gather dropped the dictionary (and
// arrow-go panicked), and the batch did not "hold" the program's $.
func TestFilterKeepsDictionaryColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "mode", Type: dictType, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	modes := []string{"AIR", "MAIL", "SHIP", "RAIL"}
	for i := range 40 {
		b.Field(1).(*array.Int32Builder).Append(int32(i))
		if err := b.Field(0).(*array.BinaryDictionaryBuilder).AppendString(modes[i%4]); err != nil {
			t.Fatal(err)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	s := colexpr.NewSchema(sc)
	for _, c := range []struct {
		where string
		want  string
	}{
		{"qty % 10 = 3", `[{"mode":"RAIL","qty":3}
,{"mode":"MAIL","qty":13}
,{"mode":"RAIL","qty":23}
,{"mode":"MAIL","qty":33}
]`},
		{"qty % 10 <> 3 AND qty > 35", `[{"mode":"AIR","qty":36}
,{"mode":"MAIL","qty":37}
,{"mode":"SHIP","qty":38}
,{"mode":"RAIL","qty":39}
]`},
		{"qty % 10 <> 3", ""},
	} {
		p, err := s.Compile(c.where, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Filter(mem, rec)
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		if c.want != "" {
			js, err := out.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(js) != c.want {
				t.Errorf("%s: got %s, want %s", c.where, js, c.want)
			}
		} else if out.NumRows() != 36 || out.Column(0).(*array.Dictionary).Dictionary().Len() != 4 {
			t.Errorf("%s: %d rows, %s", c.where, out.NumRows(), out.Column(0))
		}
		out.Release()
	}
	p, err := s.Compile("qty * 2 + len({a: qty}.a::utf8)", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Eval(mem, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got := out.(*array.Int64).Value(39); got != 80 {
		t.Errorf("row 39: got %d, want 80", got)
	}
}

// TestDictionaryColumnTyped: NewSchema types a dictionary column as its
// values, so a predicate and a select over it compile and evaluate (with
// a null index a null row), and Filter keeps it a dictionary; a dictionary
// of values colexpr cannot type is left out with the reason.
func TestDictionaryColumnTyped(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "mode", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		{Name: "price", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: &arrow.Decimal128Type{Precision: 9, Scale: 2}}},
	}, nil)
	s := colexpr.NewSchema(sc)
	if got := s.Root.String(); got != "struct<mode: utf8?, price: decimal(9,2)>" {
		t.Errorf("root %s", got)
	}
	withNote := colexpr.NewSchema(arrow.NewSchema(append(sc.Fields(), arrow.Field{Name: "note",
		Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.LargeString}}), nil))
	if why := withNote.LeftOut["note"]; !strings.Contains(why, "dictionary<values=large_utf8") {
		t.Errorf("note left out because %q", why)
	}
	if _, err := withNote.Compile("note = 'a'", nil); err == nil || !strings.Contains(err.Error(), "column note cannot be read") {
		t.Errorf("note = 'a': %v", err)
	}
	rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(`[
		{"mode": "AIR", "price": "10.50"},
		{"mode": null, "price": "3.00"},
		{"mode": "MAIL", "price": "10.50"},
		{"mode": "AIR", "price": "7.25"}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	p, err := s.Compile("lower(mode) || ':' || (price * 2)::utf8", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Eval(mem, rec)
	if err != nil {
		t.Fatal(err)
	}
	if js, _ := out.MarshalJSON(); string(js) != `["air:21.00",null,"mail:21.00","air:14.50"]` {
		t.Errorf("eval: got %s", js)
	}
	out.Release()
	p, err = s.Compile("mode = 'AIR' AND price > 8", nil)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := p.Filter(mem, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Release()
	if !kept.Schema().Equal(sc) {
		t.Errorf("filter output schema %s", kept.Schema())
	}
	if js, _ := kept.MarshalJSON(); string(js) != `[{"mode":"AIR","price":"10.5"}
]` {
		t.Errorf("filter: got %s", js)
	}
}
