package substrait

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestIndent checks the JSON layout against encoding/json's Indent.
func TestIndent(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":1}`, `{"a": [1, 2, {"b": {}}], "c": [], "d": "x\"y,{z}:"}`,
		`{ "e" : [ [ ] , { } ] , "f" : "\\" }`, `[{"a":null,"b":true},-1.5e3]`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatal(err)
		}
		want.WriteByte('\n')
		if got := indent([]byte(in)); string(got) != want.String() {
			t.Errorf("indent(%s) =\n%s\nwant\n%s", in, got, want.String())
		}
	}
}

// TestIndentDeep checks that beyond maxIndent levels the layout is compact:
// the text of a deep document grows linearly.
func TestIndentDeep(t *testing.T) {
	const depth = 10000
	in := bytes.Repeat([]byte(`{"a":`), depth)
	in = append(in, '1')
	in = append(in, bytes.Repeat([]byte(`}`), depth)...)
	out := indent(in)
	if len(out) > 2*len(in)+maxIndent*maxIndent*4 {
		t.Errorf("%d bytes of JSON indent to %d", len(in), len(out))
	}
	if !json.Valid(out) {
		t.Error("the deep layout is not valid JSON")
	}
}
