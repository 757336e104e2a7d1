package eval

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestDecodeDictionaryBadIndex: an index outside the dictionary (a corrupt
// or hand-made array) is an error that says so, not a panic; a sliced
// dictionary array decodes its own rows.
func TestDecodeDictionaryBadIndex(t *testing.T) {
	mem := checkedMem(t)
	values := fromJSON(t, mem, "utf8?", `["a", "b"]`)
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
	} {
		ind, _, err := array.FromJSON(mem, c.index, strings.NewReader(c.indices))
		if err != nil {
			t.Fatal(err)
		}
		dict := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: c.index, ValueType: values.DataType()}, ind, values)
		ind.Release()
		got, err := decodeDictionaries(mem, dict)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got error %v, want %q", c.indices, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.indices, err)
		default:
			if js := jsonOf(t, got); js != c.want {
				t.Errorf("%s: got %s, want %s", c.indices, js, c.want)
			}
			sl := array.NewSlice(dict, 1, int64(dict.Len()))
			sg, err := decodeDictionaries(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			if js, want := jsonOf(t, sg), "["+c.want[strings.Index(c.want, ",")+1:]; js != want {
				t.Errorf("%s sliced: got %s, want %s", c.indices, js, want)
			}
			sg.Release()
			sl.Release()
			got.Release()
		}
		dict.Release()
	}
}
