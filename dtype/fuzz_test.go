package dtype_test

import (
	"testing"

	"github.com/colexpr/colexpr/dtype"
)

// FuzzParseType: Parse never panics; an error is a *dtype.Error with a
// position inside the text; a parsed type prints to canonical text that
// reads back equal, converts to Arrow and back, and is its own supertype.
// Seeds: the canonical types of the tests and testdata/fuzz/FuzzParseType.
func FuzzParseType(f *testing.F) {
	for _, s := range canonical {
		f.Add(s)
	}
	for _, s := range []string{"DOUBLE PRECISION?", "Timestamp(NS, UTC)", "NUMERIC(10)", "struct<\"a\"\"b\": list<i8?>?>", "decimal(38,39)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := dtype.Parse(text)
		if err != nil {
			e, ok := err.(*dtype.Error)
			if !ok {
				t.Fatalf("Parse(%q): error of type %T: %v", text, err, err)
			}
			if e.Pos < 0 || e.Pos > len(text) {
				t.Fatalf("Parse(%q): error position %d outside the text: %v", text, e.Pos, err)
			}
			return
		}
		canon := d.String()
		again, err := dtype.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not parse: %v", text, canon, err)
		}
		if !again.Equal(d) || again.Hash() != d.Hash() || again.String() != canon {
			t.Fatalf("Parse(%q) = %s, reads back as %s", text, canon, again)
		}
		back, err := dtype.FromArrow(dtype.ToArrow(d), d.Nullable())
		if err != nil || !back.Equal(d) {
			t.Fatalf("%s: Arrow round trip gives %v, %v", canon, back, err)
		}
		if st, ok := dtype.Supertype(d, d); !ok || !st.Equal(d) {
			t.Fatalf("Supertype(%s, itself) = %s, %v", canon, st, ok)
		}
	})
}
