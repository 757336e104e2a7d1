package substrait

import (
	"strings"
	"testing"

	"github.com/substrait-io/substrait-go/v8/types"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/colexpr/colexpr/dtype"
)

// TestTypesExport records the Substrait type of every kind of dtype and
// checks that it reads back to the same dtype (struct field names from the
// names list a NamedStruct would carry), or records why there is none.
func TestTypesExport(t *testing.T) {
	g := readGolden(t, "types_export.txt")
	for i := range g.cases {
		c := &g.cases[i]
		d, err := dtype.Parse(c.title)
		if err != nil {
			t.Fatalf("%s: %v", c.title, err)
		}
		st, err := typeOf(d)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		p := types.TypeToProto(st)
		back, err := dtypeOf(p, &names{list: structNames(d, nil)})
		if err != nil {
			t.Errorf("%s: reading back: %v", c.title, err)
			continue
		}
		c.got = compactJSON(t, p)
		if !back.Equal(d) {
			c.got += "\nreads back as " + back.String()
		}
	}
	g.check(t)
}

// TestTypesImport records how Substrait types (given as protobuf JSON) read
// as dtypes, with default struct field names, or why they do not.
func TestTypesImport(t *testing.T) {
	g := readGolden(t, "types_import.txt")
	for i := range g.cases {
		c := &g.cases[i]
		var p pb.Type
		if err := protojson.Unmarshal([]byte(strings.Join(c.input, "\n")), &p); err != nil {
			t.Fatalf("%s: %v", c.title, err)
		}
		d, err := dtypeOf(&p, nil)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		c.got = d.String()
	}
	g.check(t)
}

func TestStructNamesDepthFirst(t *testing.T) {
	d := mustParse("struct<a: i32, s: struct<x: i32, t: struct<y: utf8>>, ls: list<struct<k: i32>>, b: bool>")
	got := strings.Join(structNames(d, nil), " ")
	if want := "a s x t y ls k b"; got != want {
		t.Errorf("structNames = %q, want %q", got, want)
	}
	// Too few names is an error, not a panic.
	p := mustProto(d)
	if _, err := dtypeOf(p, &names{list: []string{"a", "s"}}); err == nil || !strings.Contains(err.Error(), "fewer than the struct fields need") {
		t.Errorf("short names list: err = %v", err)
	}
	// Repeated names are refused: colexpr struct fields are distinct.
	if _, err := dtypeOf(mustProto(mustParse("struct<a: i32, b: i32>")), &names{list: []string{"a", "a"}}); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("repeated names: err = %v", err)
	}
}
