package substrait

import (
	"errors"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
)

// goldenSchema is the root of the export golden tests.
var goldenSchema = mustParse(`struct<a: i32, b: i64?, c: i32?, f: f64, g: f32?, d: decimal(10,2)?, e: decimal(5,1),
	s: utf8?, ok: bool?, xs: list<i32?>?, ls: list<struct<k: i32, v: utf8?>>, st: struct<x: i32, y: utf8?>?,
	dt: date, ts: timestamp(us)?, tz: timestamp(ms, 'UTC')>`)

func bindText(t *testing.T, src string, scope expr.Scope) *expr.Bound {
	t.Helper()
	e, err := parse.Parse(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	b, err := coerce.Bind(e, scope)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return b
}

// TestExportGolden records the Substrait form of each construct: the
// functions it declares, the expression (protobuf JSON) and the colexpr
// hints. Each case also round-trips.
func TestExportGolden(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	g := readGolden(t, "export.txt")
	for i := range g.cases {
		c := &g.cases[i]
		b := bindText(t, c.title, scope)
		msg, err := Export(b, scope)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		var out []string
		for _, d := range msg.Extensions {
			f := d.GetExtensionFunction()
			var urn string
			for _, u := range msg.ExtensionUrns {
				if u.ExtensionUrnAnchor == f.ExtensionUrnReference {
					urn = u.Urn
				}
			}
			out = append(out, "uses "+strings.TrimPrefix(urn, "extension:io.substrait:")+" "+f.Name+" as "+itoa(int(f.FunctionAnchor)))
		}
		out = append(out, indentJSON(t, msg.ReferredExpr[0].GetExpression()))
		if msg.AdvancedExtensions != nil {
			out = append(out, "hints "+compactJSON(t, msg.AdvancedExtensions.Optimization[0]))
		}
		c.got = strings.Join(out, "\n")
		if err := roundTrip(t, b, scope); err != nil {
			t.Errorf("%s: %v", c.title, err)
		}
	}
	g.check(t)
}

// refusalSchema has types Substrait lacks.
var refusalSchema = mustParse(`struct<a: i32, u: u8, h: f16?, fx: fixed_size_list<i32, 2>?, st: struct<x: i32, w: u16>,
	s: utf8?, bin: binary, f: f64, d: decimal(10,2), d38: decimal(38,10), xs: list<i32>>`)

// TestExportRefusals records the error for each construct with no
// Substrait form: it names the construct, says where it is and why.
func TestExportRefusals(t *testing.T) {
	g := readGolden(t, "export_errors.txt")
	for i := range g.cases {
		c := &g.cases[i]
		schema := goldenSchema
		src := c.title
		var opts Options
		if rest, ok := strings.CutPrefix(src, "refusal schema: "); ok {
			schema, src = refusalSchema, rest
		}
		if rest, ok := strings.CutPrefix(src, "refusal schema, pruned: "); ok {
			schema, src, opts = refusalSchema, rest, Options{PruneSchema: true}
		}
		scope := expr.ScopeOf(schema)
		b := bindText(t, src, scope)
		_, err := opts.Export(b, scope)
		var e *Error
		switch {
		case err == nil:
			c.got = "exported"
		case !errors.As(err, &e) || !errors.Is(err, ErrUnsupported) || e.Op != "export":
			t.Errorf("%s: %v is not an export *Error wrapping ErrUnsupported", c.title, err)
			fallthrough
		default:
			c.got = err.Error()
		}
	}
	g.check(t)
}

func TestExportScopeErrors(t *testing.T) {
	// A root that is not a struct has no base schema.
	scope := expr.ScopeOf(dtype.Primitive(dtype.I32, false))
	b, err := expr.NewCall(fn.Add, expr.NewRoot(dtype.Primitive(dtype.I32, false)), expr.NewRoot(dtype.Primitive(dtype.I32, false)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Export(b, scope); err == nil || !strings.Contains(err.Error(), "a Substrait base schema is a struct") {
		t.Errorf("non-struct root: err = %v", err)
	}
	// A free variable bound through a scope frame.
	scope = expr.ScopeOf(goldenSchema).With("v", dtype.Primitive(dtype.I32, false))
	b = bindText(t, "$v + a", scope)
	if _, err := Export(b, scope); err == nil || !strings.Contains(err.Error(), "variable v is not a lambda parameter") {
		t.Errorf("free variable: err = %v", err)
	}
	// A nil expression.
	if _, err := ExportAll(expr.ScopeOf(goldenSchema), Named{Name: "x"}); err == nil || !strings.Contains(err.Error(), "nil expression") {
		t.Errorf("nil expression: err = %v", err)
	}
}

func TestExportAllNames(t *testing.T) {
	scope := expr.ScopeOf(goldenSchema)
	msg, err := ExportAll(scope,
		Named{Name: "total", Expr: bindText(t, "a + 1", scope)},
		Named{Name: "pair", Expr: bindText(t, "{p: a, q: {r: s}}", scope)})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(msg.ReferredExpr[1].OutputNames, " "); got != "pair p q r" {
		t.Errorf("output names of a struct = %q, want the depth-first names", got)
	}
	got, err := Import(msg, scope)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "total" || got[1].Name != "pair" || got[1].Expr.String() != "{p: a, q: {r: s}}" {
		t.Errorf("imported %v", got)
	}
}

// TestPruneSchema exports over a scope with fields Substrait has no type
// for: the base schema keeps only the referenced fields, and the message
// reads back against the full scope, whose fields are found by name.
func TestPruneSchema(t *testing.T) {
	scope := expr.ScopeOf(refusalSchema)
	b := bindText(t, "s LIKE 'x%' AND a + length(s) > 3 AND list_any(xs, x -> x = a)", scope)
	msg, err := Options{PruneSchema: true}.Export(b, scope)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(msg.BaseSchema.Names, " "); got != "a s xs" {
		t.Errorf("pruned base schema names = %q, want the referenced fields in root order", got)
	}
	got, err := Import(msg, scope)
	if err != nil {
		t.Fatal(err)
	}
	if !got[0].Expr.Equal(b) {
		t.Errorf("round trip:\n%s\n%s", b.Tree(), got[0].Expr.Tree())
	}
	pruned, err := Schema(msg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "struct<a: i32, s: utf8?, xs: list<i32>>"; pruned.String() != want {
		t.Errorf("Schema = %s, want %s", pruned, want)
	}
}
