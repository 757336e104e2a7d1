package bench

import (
	"testing"
)

// Generators of DuckDB's JSON functions (fn/json.go) for the differential
// test. Documents are literals of jsonDocPool (numbers of every form,
// escapes, duplicate keys, trailing commas, nan and inf, a few malformed
// ones, which raise in both) or are built with || from numeric, boolean
// and string expressions, so that the numbers DuckDB re-serializes and the
// strings it escapes come from the whole generator (a string holding a
// quote or a control character makes a malformed document, which raises
// in both), or are any string of the generator. DuckDB's json_extract returns its JSON type, which the
// Go driver decodes: its calls are cast to VARCHAR in both dialects (a
// no-op in colexpr).

// jsonDocPool are JSON documents, each with paths into it.
var jsonDocPool = []struct {
	doc   string
	paths []string
}{
	{`{"a":1,"b":[1,2,3],"c":{"d":"x"}}`, []string{"$", "a", "$.b", "$.b[-1]", "$.b[#-3]", "$.c", "$.c.d", "/b/2", "$.b[#]"}},
	{`{"a":{"b":[10,20,{"c d":"e"}]},"a b":1,"x.y":2,"":3,"$":5,"/":6}`, []string{"$", "$.a.b[2].\"c d\"", "$.\"a b\"", "$.a b", "x.y", "$.\"x.y\"", "/", "$.$", "/a/b/1", "$.a.b[01]", "$.x.y"}},
	{`[1,-1,0,-0,3.0,3.5,1e2,1e20,1e21,1e-6,1e-7,-0.0,0.1,2.5e-300,1e308]`, []string{"$", "", "$[8]", "$[-5]", "$[3]"}},
	{`[123456789012345678901234,9223372036854775807,9223372036854775808,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809]`, []string{"$", "$[0]", "$[2]", "$[-1]", "$[5]"}},
	{`[1e400,-1e400,1e-400,NaN,-Infinity,inf,12345678901234567890.5,9007199254740993.0,0.30000000000000004]`, []string{"$", "$[0]", "$[3]", "$[6]", "$[-1]"}},
	{`{"s":"x\ny\t\"q\"\\\/\u00e9\u2028\u0001\u001f\ud83d\ude00","n":null,"t":true,"f":false}`, []string{"$", "$.s", "s", "$.n", "$.t", "$.f", "$.z"}},
	{`{"d":1,"d":2,"e":[],"o":{}}`, []string{"$", "d", "$.e", "$.o", "$.e[0]"}},
	{`{"a\"b":1,"a\\b":2,"\"a\"":3,"*":4,"a*":5,"x\\":6}`, []string{`a"b`, `a\b`, `a\\b`, `"a"`, "/*", "$.a*", `x\\`, `$."a\"b"`, `$."x\\"`, `/a"b`}},
	{`[1,2,]`, []string{"$", "$[1]", "$[2]"}},
	{`{"a":1,}`, []string{"$", "a"}},
	{` [ {"a" : [ 1 , 2 ] } , "x" , null ] `, []string{"$", "$[0]", "$[0].a", "$[1]", "$[2]", "/0/a/1"}},
	{`"just a string"`, []string{"$", "a", "$[0]"}},
	{`42`, []string{"$", ""}},
	{`-7`, []string{"$"}},
	{`1.5`, []string{"$"}},
	{`null`, []string{"$", "$.a"}},
	{`true`, []string{"$"}},
	{`[]`, []string{"$", "$[0]", "$[-1]"}},
	{`{}`, []string{"$", "a"}},
	{`[[1,[2,[3,[4]]]],{"a":{"a":{"a":"deep"}}}]`, []string{"$", "$[0]", "$[0][1][1]", "$[1].a.a.a", "$[1].a", "/0/1/1/1/0"}},
	{`{"k":"日本語","ü":"ö"}`, []string{"$", "k", "ü", "$.ü"}},
	// malformed: raise in both
	{`[1,,2]`, nil}, {`{"a"}`, nil}, {`tru`, nil}, {``, nil}, {`{"a":1} x`, nil},
}

// jsonPathPool are paths of every form DuckDB reads, for any document;
// wildcards ($[*], $.*, and '*' and $."*", which DuckDB reads as $.*) are
// left out: lists in DuckDB, refused by colexpr.
var jsonPathPool = []string{"$", "", "a", "$.a", "$.b", "$.b[0]", "$.b[-1]", "$.b[#-1]", "$.b[#]", "$.c.d", "$[0]", "$[1]",
	"$[-1]", "$[#-2]", "$[-0]", "$[3]", "$[99]", "/", "/0", "/0/0", "$[0].a", `a"b`, `"a"`, `a\b`, `$."a\"b"`, `$."a\b"`, "$.a*"}

// builtPaths are paths into the documents jsonDoc builds.
var builtPaths = []string{"$", "$.a", "$.b", "$.b[0]", "$.b[-1]", "$.c.d", "$.c", "$[0]", "$[1].a", "$[1].a[0]", "$[-1]"}

// jsonDoc is a document, a literal or one built from expressions, with
// paths that lead somewhere in it.
func (g *gen) jsonDoc(d int) (*gnode, []string) {
	cat := func(parts ...*gnode) *gnode {
		n := parts[0]
		for _, p := range parts[1:] {
			n = &gnode{t: gStr, kind: "op", text: "||", kids: []*gnode{n, p}}
		}
		return n
	}
	text := func(s string) *gnode { return g.strLit([]string{s}) }
	switch g.pick(8) {
	case 2:
		// a string of the generator inside a JSON string: malformed where
		// it holds a quote, a backslash or a control character
		return cat(text(`{"s":"`), g.expr(gStr, d), text(`","t":[`), g.expr(gStr, d), text(`]}`)), []string{"$.s", "$.t", "$.t[0]", "$"}
	case 3:
		// any string of the generator: a number, a literal or malformed
		return g.expr(gStr, d), nil
	case 0:
		return cat(text(`{"a":`), g.expr(gI64, d), text(`,"b":[`), g.leaf(gF64), text(`,`), g.expr(gI32, d), text(`],"c":{"d":`), g.expr(gBool, d), text(`}}`)), builtPaths
	case 1:
		// a double as a leaf: a computed one may be infinite, which colexpr's
		// cast to text spells Infinity and DuckDB 2.0's inf (not a JSON
		// difference: '[' || -1.0 / f2 differs alone)
		n := g.leaf(gF64)
		if t := []gtype{gU64, gI8, gF64, gDec}[g.pick(4)]; t != gF64 {
			n = g.expr(t, d)
		}
		return cat(text(`[`), n, text(`,{"a":[`), g.leaf(gU32), text(`]}]`)), builtPaths
	}
	c := jsonDocPool[g.pick(len(jsonDocPool))]
	return g.strLit([]string{c.doc}), c.paths
}

// jsonPath is a path: mostly one of paths (into the document), else one
// of jsonPathPool, a string expression or, with intPath, an integer index
// (a literal or a column).
func (g *gen) jsonPath(paths []string, intPath bool) *gnode {
	switch {
	case intPath && g.pick(5) == 0:
		if g.pick(3) == 0 {
			return g.col([]gtype{gI8, gI32, gI64, gU8}[g.pick(4)])
		}
		return intLit(g.pick(7) - 3)
	case g.pick(10) == 0:
		// a path per row: any string of the generator ('ab' is a key, '$x'
		// malformed)
		return g.expr(gStr, 1)
	case len(paths) > 0 && g.pick(4) != 0:
		return g.strLit(paths)
	}
	return g.strLit(jsonPathPool)
}

// jsonFamily are this file's generators, by result type.
var jsonFamily = map[gtype][]func(g *gen, d int) *gnode{
	gStr: {
		func(g *gen, d int) *gnode {
			doc, paths := g.jsonDoc(d)
			if g.pick(2) == 0 {
				return &gnode{t: gStr, kind: "op", text: "->>", kids: []*gnode{doc, g.jsonPath(paths, true)}}
			}
			return call(gStr, "json_extract_string", doc, g.jsonPath(paths, true))
		},
		func(g *gen, d int) *gnode {
			doc, paths := g.jsonDoc(d)
			x := call(gStr, "json_extract", doc, g.jsonPath(paths, true))
			return &gnode{t: gStr, kind: "castto", text: "VARCHAR", kids: []*gnode{x}}
		},
		func(g *gen, d int) *gnode {
			doc, paths := g.jsonDoc(d)
			if g.pick(3) == 0 {
				return call(gStr, "json_type", doc)
			}
			return call(gStr, "json_type", doc, g.jsonPath(paths, false))
		},
	},
	gU64: {
		func(g *gen, d int) *gnode {
			doc, paths := g.jsonDoc(d)
			if g.pick(3) == 0 {
				return call(gU64, "json_array_length", doc)
			}
			return call(gU64, "json_array_length", doc, g.jsonPath(paths, false))
		},
	},
	gBool: {
		func(g *gen, d int) *gnode {
			if g.pick(2) == 0 {
				return call(gBool, "json_valid", g.expr(gStr, d))
			}
			doc, _ := g.jsonDoc(d)
			return call(gBool, "json_valid", doc)
		},
	},
}

func init() {
	for t, gens := range jsonFamily {
		familyGens[t] = append(familyGens[t], gens...)
	}
}

// TestDifferentialJSON checks the JSON functions alone: random calls of
// this file's generators, with arguments from the whole generator,
// against DuckDB.
func TestDifferentialJSON(t *testing.T) {
	familyDifferential(t, jsonFamily, 0x750e, []gtype{gStr, gStr, gStr, gStr, gU64, gBool})
}
