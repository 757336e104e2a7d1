package kernels

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

// jsonRows is the JSON of an array's rows.
func jsonRows(t *testing.T, arr arrow.Array) string {
	t.Helper()
	b, err := json.Marshal(arr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecodeDictionary: indices of every integer type pick their values,
// a null index a null row; an index outside the dictionary (a corrupt or
// hand-made array) is an error that says so, not a panic; a sliced
// dictionary array decodes its own rows.
func TestDecodeDictionary(t *testing.T) {
	mem := checkedMem(t)
	values := fromJSON(t, mem, dtype.Utf8(true), `["a", "b"]`)
	defer values.Release()
	for _, c := range []struct {
		index   arrow.DataType
		indices string
		err     string
		want    string
	}{
		{arrow.PrimitiveTypes.Int8, `[0, 1, null, 1]`, "", `["a","b",null,"b"]`},
		{arrow.PrimitiveTypes.Int8, `[0, 2]`, "an index outside its dictionary of 2 values", ""},
		{arrow.PrimitiveTypes.Int16, `[-1, 0]`, "an index outside its dictionary", ""},
		{arrow.PrimitiveTypes.Uint64, `[1, 18446744073709551615]`, "an index outside its dictionary", ""},
		{arrow.PrimitiveTypes.Uint64, `[1, null, 0]`, "", `["b",null,"a"]`},
		{arrow.PrimitiveTypes.Int32, `[1, 1, 0]`, "", `["b","b","a"]`},
		{arrow.PrimitiveTypes.Int64, `[null, 0, 1]`, "", `[null,"a","b"]`},
		{arrow.PrimitiveTypes.Uint8, `[0, 0, 1]`, "", `["a","a","b"]`},
		{arrow.PrimitiveTypes.Uint16, `[1, 0, 0]`, "", `["b","a","a"]`},
		{arrow.PrimitiveTypes.Uint32, `[0, null, null]`, "", `["a",null,null]`},
	} {
		ind, _, err := array.FromJSON(mem, c.index, strings.NewReader(c.indices))
		if err != nil {
			t.Fatal(err)
		}
		dict := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: c.index, ValueType: values.DataType()}, ind, values)
		ind.Release()
		got, err := DecodeDictionaries(mem, dict)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: got error %v, want %q", c.index, c.indices, err, c.err)
			}
		case err != nil:
			t.Errorf("%s %s: %v", c.index, c.indices, err)
		default:
			if js := jsonRows(t, got); js != c.want {
				t.Errorf("%s %s: got %s, want %s", c.index, c.indices, js, c.want)
			}
			if !arrow.TypeEqual(got.DataType(), DecodedType(dict.DataType())) {
				t.Errorf("%s: decoded to %s, DecodedType says %s", c.index, got.DataType(), DecodedType(dict.DataType()))
			}
			sl := array.NewSlice(dict, 1, int64(dict.Len()))
			sg, err := DecodeDictionaries(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			if js, want := jsonRows(t, sg), "["+c.want[strings.Index(c.want, ",")+1:]; js != want {
				t.Errorf("%s %s sliced: got %s, want %s", c.index, c.indices, js, want)
			}
			sg.Release()
			sl.Release()
			got.Release()
		}
		dict.Release()
	}
}

// TestDecodeNestedDictionaries: dictionaries as struct fields, list and
// fixed-size list elements decode in
// place (the outer arrays' validity and offsets kept, a slice's rows
// too); an array without a dictionary is returned as it is.
func TestDecodeNestedDictionaries(t *testing.T) {
	mem := checkedMem(t)
	d8 := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	typ := arrow.StructOf(
		arrow.Field{Name: "c", Type: d8, Nullable: true},
		arrow.Field{Name: "xs", Type: arrow.ListOf(d8), Nullable: true},
		arrow.Field{Name: "f", Type: arrow.FixedSizeListOf(2, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint32, ValueType: arrow.PrimitiveTypes.Int64}), Nullable: true},
		arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	)
	rows := `[{"c": "p", "xs": ["a", null, "b"], "f": [1, 2], "n": 1},
		null,
		{"c": null, "xs": null, "f": null, "n": 3},
		{"c": "q", "xs": [], "f": [7, null], "n": null}]`
	arr, _, err := array.FromJSON(mem, typ, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	want := `[{"c":"p","f":[1,2],"n":1,"xs":["a",null,"b"]},null,{"c":null,"f":null,"n":3,"xs":null},{"c":"q","f":[7,null],"n":null,"xs":[]}]`
	wantType := "struct<c: utf8 nullable, xs: list<item: utf8, nullable> nullable, f: fixed_size_list<item: int64, nullable>[2] nullable, n: int32 nullable>"
	for _, a := range []arrow.Array{arr, array.NewSlice(arr, 1, 4)} {
		got, err := DecodeDictionaries(mem, a)
		if err != nil {
			t.Fatal(err)
		}
		js := jsonRows(t, got)
		if a != arr {
			a.Release()
			want = "[" + want[strings.Index(want, "},null,")+2:]
		}
		if js != want {
			t.Errorf("got %s, want %s", js, want)
		}
		if HasDictionary(got.DataType()) || got.DataType().String() != wantType || !arrow.TypeEqual(got.DataType(), DecodedType(typ)) {
			t.Errorf("decoded type %s", got.DataType())
		}
		got.Release()
	}
	plain := fromJSON(t, mem, dtype.Primitive(dtype.I32, true), `[1, null]`)
	defer plain.Release()
	same, err := DecodeDictionaries(mem, plain)
	if err != nil {
		t.Fatal(err)
	}
	if same != plain {
		t.Errorf("a plain array was copied")
	}
	same.Release()
}

// TestFillMissingDictionaries: a list of dictionaries whose elements have
// no dictionary (as arrow-go's Parquet reader gives a batch of null or
// empty lists: no elements) gets an empty one, and decodes to its rows;
// dictionary data without a dictionary but with a valid index (which
// arrow-go refuses to make an array of) is an error, from both functions.
func TestFillMissingDictionaries(t *testing.T) {
	mem := checkedMem(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	// No elements, no dictionary.
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	elems := array.NewData(dt, 0, idx.Data().Buffers(), nil, 0, 0)
	defer elems.Release()
	offsets, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, 0, 0, 0]`))
	if err != nil {
		t.Fatal(err)
	}
	defer offsets.Release()
	// The lists' validity: that of [1, 1, null].
	v, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int8, strings.NewReader(`[1, 1, null]`))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	ld := array.NewData(arrow.ListOf(dt), 3, []*memory.Buffer{v.Data().Buffers()[0], offsets.Data().Buffers()[1]}, []arrow.ArrayData{elems}, 1, 0)
	defer ld.Release()
	list := array.MakeFromData(ld)
	defer list.Release()

	filled, err := FillMissingDictionaries(mem, list)
	if err != nil {
		t.Fatal(err)
	}
	defer filled.Release()
	if missingDictionary(filled.Data()) || !arrow.TypeEqual(filled.DataType(), list.DataType()) {
		t.Fatalf("filled: %s, missing %v", filled.DataType(), missingDictionary(filled.Data()))
	}
	if d := filled.(*array.List).ListValues().(*array.Dictionary).Dictionary(); d.Len() != 0 || d.DataType().ID() != arrow.STRING {
		t.Errorf("the dictionary given: %s", d)
	}
	for _, a := range []arrow.Array{list, filled} {
		dec, err := DecodeDictionaries(mem, a)
		if err != nil {
			t.Fatal(err)
		}
		if js := jsonRows(t, dec); js != `[[],[],null]` {
			t.Errorf("decoded: %s", js)
		}
		dec.Release()
	}
	again, err := FillMissingDictionaries(mem, filled)
	if err != nil {
		t.Fatal(err)
	}
	if again != filled {
		t.Errorf("a complete array was rebuilt")
	}
	again.Release()

	// A valid index and no dictionary.
	bad, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, null]`))
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Release()
	bd := array.NewData(dt, 2, bad.Data().Buffers(), nil, 1, 0)
	defer bd.Release()
	if _, err := fillData(mem, bd); err == nil || !strings.Contains(err.Error(), "without its dictionary") {
		t.Errorf("fill: %v", err)
	}
	if _, err := decodeData(mem, bd); err == nil || !strings.Contains(err.Error(), "without its dictionary") {
		t.Errorf("decode: %v", err)
	}
}

// TestNullValuesInIndices: the rows that pick a null value of the
// dictionary become null by their index, the dictionary has no null left,
// and the rows decode as before; a sliced array keeps its own rows.
func TestNullValuesInIndices(t *testing.T) {
	mem := checkedMem(t)
	vals := fromJSON(t, mem, dtype.Primitive(dtype.I64, true), `[10, null, 30]`)
	defer vals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Uint8, strings.NewReader(`[2, 0, 1, null, 1, 2]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	dict := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: vals.DataType()}, idx, vals)
	defer dict.Release()
	for _, c := range []struct {
		from, to int64
		want     string
	}{{0, 6, `[30,10,null,null,null,30]`}, {1, 5, `[10,null,null,null]`}} {
		in := array.NewSlice(dict, c.from, c.to)
		out := NullValuesInIndices(mem, in)
		d := out.(*array.Dictionary)
		if d.Dictionary().NullN() != 0 || d.NullN() != strings.Count(c.want, "null") {
			t.Errorf("%d–%d: %d nulls in the dictionary, %d rows null", c.from, c.to, d.Dictionary().NullN(), d.NullN())
		}
		dec, err := DecodeDictionaries(mem, out)
		if err != nil {
			t.Fatal(err)
		}
		if js := jsonRows(t, dec); js != c.want {
			t.Errorf("%d–%d: decoded %s, want %s", c.from, c.to, js, c.want)
		}
		dec.Release()
		out.Release()
		in.Release()
	}
	plain := NullValuesInIndices(mem, vals)
	if plain != vals {
		t.Errorf("an array that is no dictionary was rebuilt")
	}
	plain.Release()
}
