package kernels

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FuzzJSON checks the JSON reader and writer on any input: no panic; a
// document encoding/json accepts (valid UTF-8, no lone surrogate) is read;
// what json_extract writes reads back to the same text, and to the same
// values as the input by encoding/json; any path parses or fails cleanly.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,{"b":null}],"c":"x\ny"}`, `[1e400,NaN,-0,1e21,1e-7]`, `[1,]`, `"\ud83d\ude00\u0001"`,
		`{"d":1,"d":2}`, `[[[[]]]]`, `123456789012345678901234`, `{"a"}`, ``, ` `} {
		f.Add(s, "$.a[0]")
	}
	f.Fuzz(func(t *testing.T, doc, path string) {
		d := &jsonDoc{}
		var jp jsonPath
		_ = jp.parse([]byte(path))
		err := d.parse([]byte(doc))
		if err != nil {
			if json.Valid([]byte(doc)) && utf8.ValidString(doc) && !strings.Contains(err.Error(), "surrogate") {
				t.Fatalf("%q: encoding/json reads it, colexpr: %v", doc, err)
			}
			return
		}
		if len(jp.steps) > 0 || path == "" {
			if at := d.find(&jp); at >= 0 {
				_ = d.appendValue(nil, at)
			}
		}
		out := d.appendValue(nil, 0)
		d2 := &jsonDoc{}
		if err := d2.parse(out); err != nil {
			t.Fatalf("%q wrote %q, which does not read back: %v", doc, out, err)
		}
		if again := d2.appendValue(nil, 0); string(again) != string(out) {
			t.Fatalf("%q wrote %q, which writes %q", doc, out, again)
		}
		var a, b any
		if json.Unmarshal([]byte(doc), &a) == nil && utf8.ValidString(doc) {
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatalf("%q wrote %q, which encoding/json rejects: %v", doc, out, err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%q wrote %q: %v, want %v", doc, out, b, a)
			}
		}
	})
}

// BenchmarkJSONExtract reads a member of 4096 small documents: the cost of
// a row is one parse and one walk, with no allocation once the tape has
// grown.
func BenchmarkJSONExtract(b *testing.B) {
	docs := make([]any, 4096)
	for i := range docs {
		docs[i] = `{"id":` + strings.Repeat("7", 1+i%12) + `,"tags":["a","b\n"],"score":` + []string{"1.5", "1e21", "-0.0", "NaN"}[i%4] + `,"user":{"name":"x","age":42}}`
	}
	mem := memory.NewGoAllocator()
	args := datums(b, mem, []in{col(str, jsonList(docs...)), s("$.user.age")}, len(docs), false)
	defer releaseDatums(args)
	b.ReportAllocs()
	for b.Loop() {
		out, err := JSONExtract(mem, args, true, strN)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
