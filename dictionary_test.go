package colexpr_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// TestFilterKeepsDictionaryColumns: a record's dictionary column, which
// colexpr cannot type (NewSchema leaves it out), is filtered with the
// others, its dictionary kept — in both of Filter's ways of taking rows
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
