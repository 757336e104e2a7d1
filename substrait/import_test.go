package substrait

import (
	"errors"
	"strings"
	"testing"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/colexpr/colexpr/expr"
)

// TestImportGolden reads hand-written messages — the forms other producers
// write (compound function names, variadic and/or, no colexpr hints) and
// malformed or unsupported ones — and records the expressions they import
// as, or the error. Each case's input is a `schema: T` line (the scope;
// also the base schema when the message has none) and the message as
// protobuf JSON.
func TestImportGolden(t *testing.T) {
	g := readGolden(t, "import.txt")
	for i := range g.cases {
		c := &g.cases[i]
		if len(c.input) < 2 || !strings.HasPrefix(c.input[0], "schema: ") {
			t.Fatalf("case %q: want a schema line and a message", c.title)
		}
		schema := mustParse(strings.TrimPrefix(c.input[0], "schema: "))
		data := []byte(strings.Join(c.input[1:], "\n"))
		msg, err := Unmarshal(data)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		if msg.BaseSchema == nil {
			st, err := typeOf(schema)
			if err != nil {
				t.Fatal(err)
			}
			msg.BaseSchema = namedStruct(schema, st)
		}
		got, err := Import(msg, expr.ScopeOf(schema))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Op != "import" || !(errors.Is(err, ErrUnsupported) || errors.Is(err, ErrInvalid)) {
				t.Errorf("%s: %v is not an import *Error wrapping ErrUnsupported or ErrInvalid", c.title, err)
			}
			c.got = "error: " + err.Error()
			continue
		}
		var out []string
		for _, n := range got {
			out = append(out, n.Name+": "+n.Expr.String()+" :: "+n.Expr.DType().String())
		}
		c.got = strings.Join(out, "\n")
	}
	g.check(t)
}

func TestImportNil(t *testing.T) {
	if _, err := Import(nil, expr.ScopeOf(goldenSchema)); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("Import(nil) = %v", err)
	}
	if _, err := Schema(nil); err == nil {
		t.Error("Schema(nil) succeeded")
	}
	if _, err := ImportJSON([]byte("{not json"), expr.ScopeOf(goldenSchema)); err == nil || !strings.Contains(err.Error(), "reading JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := ImportJSON([]byte{0xff, 0xff, 0xff}, expr.ScopeOf(goldenSchema)); err == nil || !strings.Contains(err.Error(), "reading protobuf") {
		t.Errorf("bad protobuf: %v", err)
	}
}

// TestSchema reads the base schema back, with the zone a hint names.
func TestSchema(t *testing.T) {
	root := mustParse("struct<a: i32, st: struct<x: timestamp(ms, 'Europe/Paris')?>, xs: list<struct<k: utf8>>>")
	scope := expr.ScopeOf(root)
	msg, err := Export(bindText(t, "a + 1", scope), scope)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Schema(msg)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(root) {
		t.Errorf("Schema = %s, want %s", got, root)
	}
	// Without colexpr's hints the zone is UTC.
	msg.AdvancedExtensions = nil
	got, err = Schema(msg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "struct<a: i32, st: struct<x: timestamp(ms, 'UTC')?>, xs: list<struct<k: utf8>>>"; got.String() != want {
		t.Errorf("Schema without hints = %s, want %s", got, want)
	}
	// A message exported over a scope with a zone imports against a scope
	// that has another: the base schema and the data agree on the instant.
	other := mustParse("struct<a: i32, st: struct<x: timestamp(ms, 'UTC')?>, xs: list<struct<k: utf8>>>")
	if _, err := Import(msg, expr.ScopeOf(other)); err != nil {
		t.Errorf("import against another zone: %v", err)
	}
}

// TestHintErrors checks that colexpr hints that do not fit the message are
// errors, and that other producers' optimizations are ignored.
func TestHintErrors(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	export := func() *pb.ExtendedExpression {
		msg, err := Export(bindText(t, "{p: a} = {'p': 1::i32}", scope), scope)
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	setHints := func(msg *pb.ExtendedExpression, v map[string]any) {
		s, err := structpb.NewStruct(map[string]any{"colexpr": v})
		if err != nil {
			t.Fatal(err)
		}
		a, err := anypb.New(s)
		if err != nil {
			t.Fatal(err)
		}
		msg.AdvancedExtensions.Optimization = []*anypb.Any{a}
	}
	for _, c := range []struct {
		name  string
		hints map[string]any
		want  string
	}{
		{"version", map[string]any{"version": 2.0}, "colexpr hints of version 2"},
		{"count", map[string]any{"version": 1.0, "exprs": []any{}}, "colexpr hints for 0 expressions, the message has 1"},
		{"type", map[string]any{"version": 1.0, "exprs": []any{map[string]any{"types": map[string]any{"1": "struct<p: i64>"}}}}, "says struct<p: i64>, the Substrait type reads as struct<f1: i32>"},
		{"unparsable type", map[string]any{"version": 1.0, "exprs": []any{map[string]any{"types": map[string]any{"1": "struct<"}}}}, "colexpr hint for node 1"},
		{"node number", map[string]any{"version": 1.0, "exprs": []any{map[string]any{"types": map[string]any{"one": "i32"}}}}, `colexpr hint "one": want a node number`},
		{"pack", map[string]any{"version": 1.0, "exprs": []any{map[string]any{"types": map[string]any{"0": "i32"}}}}, "is not a struct of 1 fields"},
		{"schema", map[string]any{"version": 1.0, "schema": "struct<z: i32>", "exprs": []any{map[string]any{}}}, "does not describe the base schema"},
	} {
		msg := export()
		setHints(msg, c.hints)
		_, err := Import(msg, scope)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// Someone else's optimization, even a Struct, is not ours.
	msg := export()
	s, _ := structpb.NewStruct(map[string]any{"other": 1.0})
	a, _ := anypb.New(s)
	w, _ := anypb.New(structpb.NewStringValue("x"))
	msg.AdvancedExtensions.Optimization = append([]*anypb.Any{a, w}, msg.AdvancedExtensions.Optimization...)
	if _, err := Import(msg, scope); err != nil {
		t.Errorf("foreign optimizations: %v", err)
	}
}
