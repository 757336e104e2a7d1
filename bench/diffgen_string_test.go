package bench

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// Generators of the DuckDB-dialect string functions (fn/string_more.go) for
// the differential test. Counts that make a result grow (repeat, lpad,
// rpad) are small literals, so that no generated call allocates more than a
// few bytes per row in either engine; counts that only select (left, right,
// split_part) take any integer, extremes included (left's count above
// 2^32-1 raises in both). Doubles formatted by printf and format are
// columns or literals (moderate values; see knownDifferences).

// regexPool are regular expressions in the syntax both engines read (RE2's).
// None is malformed: DuckDB rejects a malformed constant pattern when it
// binds, even in a branch no row takes (knownDifferences); the kernel tests
// cover malformed patterns.
var regexPool = []string{"b", "^a", "[0-9]+", "(a)(b)?", "ü", "^$", ".", "a|b", "(?i)abc", `\d`, "x*", `^(\w+) (\w+)$`, `[[:alpha:]]+`, "日.", `\s`}

// regexOptPool are regexp options ('g' only for regexp_replace).
var regexOptPool = []string{"", "i", "s", "l", "c", "ic"}

// rewritePool are replacements of regexp_replace (\1 raises where the
// pattern has no group, in both).
var rewritePool = []string{"X", `\1`, `<\0>`, "", `\\`, "$1"}

// formatPool are format strings of format with the generator types of their
// arguments; printfPool the same for printf.
var formatPool = []struct {
	f    string
	args []gtype
}{
	{"{}", []gtype{gStr}},
	{"{} {}", []gtype{gStr, gI64}},
	{"<{:>6}|{:<4}|{:^5}>", []gtype{gI32, gStr, gStr}},
	{"{:.2f}", []gtype{gF64}},
	{"{}", []gtype{gF64}},
	{"{}", []gtype{gDec}},
	{"{1}-{0}", []gtype{gStr, gU8}},
	{"{:x}", []gtype{gU32}},
	{"{:+d}", []gtype{gI8}},
	{"{}", []gtype{gBool}},
	{"{}", []gtype{gDate}},
	{"{:s}", []gtype{gI32}}, // raises in both
	{"{{}}{}", []gtype{gU64}},
}

var printfPool = []struct {
	f    string
	args []gtype
}{
	{"%d", []gtype{gI64}},
	{"%s|%5d", []gtype{gStr, gI32}},
	{"%-6s|", []gtype{gStr}},
	{"%.2f", []gtype{gF64}},
	{"%x", []gtype{gI64}},
	{"%X %o", []gtype{gU32, gU8}},
	{"%05.1f%%", []gtype{gDec}},
	{"%e", []gtype{gF64}},
	{"%d", []gtype{gBool}},
	{"%s", []gtype{gI8}}, // raises in both
	{"%c", []gtype{gU8}},
}

// likeEscapePool are LIKE patterns with the escape character '!' and
// without one (ESCAPE ”).
var likeEscapePool = []string{"a!%%", "%!_%", "!!%", "%", "a%", `%\%`, "_!%", "!a%", "%!"}

func (g *gen) smallCount() *gnode {
	return &gnode{t: gI64, kind: "lit", text: strconv.Itoa(g.pick(9) - 2)}
}

func (g *gen) strLit(pool []string) *gnode {
	s := pool[g.pick(len(pool))]
	return &gnode{t: gStr, kind: "lit", text: "'" + strings.ReplaceAll(s, "'", "''") + "'"}
}

// likePlainPool are the patterns of likePool without a backslash.
var likePlainPool = []string{"%", "_", "a%", "%c", "%b%", "a_c", "A%", "__", "", "ab", "%ab%ab%", "ü%", "_%_", "日%"}

// globPool are GLOB patterns: stars, question marks (one byte each), sets
// with ranges, negations, a ] first and a - last, escapes, and patterns
// that never match (an unclosed [, a trailing \).
var globPool = []string{"*", "a*", "*b*", "?", "??", "a?c", "[a-c]*", "*[!a-z]*", "[]a]*", "*[x-]", "\\*", "a\\", "[a", "ü*", "?b*", "", "*a*a*b", "[^a]*"}

// splitRegexPool are the patterns of regexPool that cannot match the empty
// string: at an empty match, colexpr's regexp_split_to_array and DuckDB's
// split differently (knownDifferences).
var splitRegexPool = []string{"b", "^a", "[0-9]+", "(a)(b)?", "ü", ".", "a|b", "(?i)abc", `\d`, `^(\w+) (\w+)$`, `[[:alpha:]]+`, "日.", `\s`}

// regexpSplitGen is a regexp_split_to_array call under one of its names,
// a list node carrying its element type (gStr), for a length or an
// element read.
func regexpSplitGen(g *gen, d int) *gnode {
	split := call(gStr, []string{"regexp_split_to_array", "string_split_regex", "str_split_regex"}[g.pick(3)], g.expr(gStr, d), g.strLit(splitRegexPool))
	if g.pick(2) == 0 {
		split.kids = append(split.kids, g.strLit(regexOptPool))
	}
	return split
}

// regexpExtractAllGen is a regexp_extract_all call, a list node carrying
// its element type (gStr), with any pattern of regexPool (those matching
// the empty string too: DuckDB's empty matches right after a match are
// what colexpr's kernel reproduces) and a group of -1 to 2 (beyond the
// pattern's groups, an error in both).
func regexpExtractAllGen(g *gen, d int) *gnode {
	n := call(gStr, "regexp_extract_all", g.expr(gStr, d), g.strLit(regexPool))
	if g.pick(2) == 0 {
		n.kids = append(n.kids, intLit(g.pick(4)-1))
		if g.pick(2) == 0 {
			n.kids = append(n.kids, g.strLit(regexOptPool))
		}
	}
	return n
}

func call(t gtype, name string, kids ...*gnode) *gnode {
	return &gnode{t: t, kind: "call", text: name, kids: kids}
}

// stringFamily are this file's generators, by result type; init adds them
// to familyGens.
var stringFamily = map[gtype][]func(g *gen, d int) *gnode{}

func init() {
	str := func(g *gen, d int) *gnode { return g.expr(gStr, d) }
	stringFamily[gStr] = append(stringFamily[gStr],
		func(g *gen, d int) *gnode {
			name := []string{"trim", "ltrim", "rtrim"}[g.pick(3)]
			if g.pick(3) == 0 {
				return call(gStr, name, str(g, d))
			}
			return call(gStr, name, str(g, d), str(g, d))
		},
		func(g *gen, d int) *gnode { return call(gStr, "replace", str(g, d), str(g, d), str(g, d)) },
		func(g *gen, d int) *gnode {
			n := g.smallCount()
			if g.pick(2) == 0 {
				n = g.expr(gI64, d)
			}
			return call(gStr, []string{"left", "right"}[g.pick(2)], str(g, d), n)
		},
		func(g *gen, d int) *gnode { return call(gStr, "reverse", str(g, d)) },
		func(g *gen, d int) *gnode { return call(gStr, "repeat", str(g, d), g.smallCount()) },
		func(g *gen, d int) *gnode {
			return call(gStr, []string{"lpad", "rpad"}[g.pick(2)], str(g, d), g.smallCount(), str(g, d))
		},
		func(g *gen, d int) *gnode {
			k := g.smallCount()
			if g.pick(3) == 0 {
				k = g.expr(gI64, d)
			}
			sep := g.strLit([]string{",", "", "a", " ", "ab", "日"})
			if g.pick(3) == 0 {
				sep = str(g, d)
			}
			return call(gStr, "split_part", str(g, d), sep, k)
		},
		func(g *gen, d int) *gnode {
			n := call(gStr, "concat_ws", str(g, d))
			for range 1 + g.pick(3) {
				n.kids = append(n.kids, str(g, d))
			}
			return n
		},
		func(g *gen, d int) *gnode {
			return call(gStr, "chr", &gnode{t: gI32, kind: "lit", text: strconv.Itoa([]int{65, 0, 233, 26085, 1114111, 1114112, 55296, -1}[g.pick(8)])})
		},
		func(g *gen, d int) *gnode {
			p := g.strLit(regexPool)
			switch g.pick(2) {
			case 0:
				n := call(gStr, "regexp_replace", str(g, d), p, g.strLit(rewritePool))
				if g.pick(2) == 0 {
					opt := regexOptPool[g.pick(len(regexOptPool))]
					if g.pick(2) == 0 {
						opt += "g"
					}
					n.kids = append(n.kids, g.strLit([]string{opt}))
				}
				return n
			default:
				n := call(gStr, "regexp_extract", str(g, d), p)
				if g.pick(2) == 0 {
					n.kids = append(n.kids, &gnode{t: gI64, kind: "lit", text: strconv.Itoa(g.pick(4))})
					if g.pick(2) == 0 {
						n.kids = append(n.kids, g.strLit(regexOptPool))
					}
				}
				return n
			}
		},
		func(g *gen, d int) *gnode {
			name, f, args := "format", "", []gtype(nil)
			if g.pick(2) == 0 {
				c := formatPool[g.pick(len(formatPool))]
				f, args = c.f, c.args
			} else {
				c := printfPool[g.pick(len(printfPool))]
				name, f, args = "printf", c.f, c.args
			}
			n := call(gStr, name, g.strLit([]string{f}))
			for _, t := range args {
				if t == gF64 {
					// a column or a literal: DuckDB prints the fixed-point
					// form of a huge double inexactly (knownDifferences)
					n.kids = append(n.kids, g.leaf(t))
					continue
				}
				n.kids = append(n.kids, g.expr(t, d))
			}
			return n
		},
	)
	stringFamily[gI64] = append(stringFamily[gI64],
		func(g *gen, d int) *gnode {
			n := call(gI64, "strpos", str(g, d), str(g, d))
			if g.pick(2) == 0 {
				n.duck = "instr"
			}
			return n
		},
		func(g *gen, d int) *gnode {
			sep := g.strLit([]string{",", "", "a", " "})
			if g.pick(2) == 0 {
				sep = str(g, d)
			}
			return call(gI64, []string{"len", "length", "array_length"}[g.pick(3)], call(gStr, "string_split", str(g, d), sep))
		},
		func(g *gen, d int) *gnode {
			return call(gI64, []string{"len", "length", "strlen"}[g.pick(3)], str(g, d))
		},
		func(g *gen, d int) *gnode {
			return call(gI64, []string{"len", "length", "array_length"}[g.pick(3)], regexpSplitGen(g, d))
		},
	)
	stringFamily[gStr] = append(stringFamily[gStr], func(g *gen, d int) *gnode {
		return call(gStr, "list_element", regexpSplitGen(g, d), intLit(g.pick(5)-1))
	}, func(g *gen, d int) *gnode {
		return call(gStr, "list_element", regexpExtractAllGen(g, d), intLit(g.pick(5)-1))
	}, func(g *gen, d int) *gnode {
		return call(gStr, "array_to_string", regexpExtractAllGen(g, d), g.strLit([]string{",", ""}))
	})
	stringFamily[gI64] = append(stringFamily[gI64], func(g *gen, d int) *gnode {
		return call(gI64, []string{"len", "length", "array_length"}[g.pick(3)], regexpExtractAllGen(g, d))
	})
	stringFamily[gI32] = append(stringFamily[gI32], func(g *gen, d int) *gnode { return call(gI32, "ascii", str(g, d)) })
	stringFamily[gBool] = append(stringFamily[gBool],
		func(g *gen, d int) *gnode {
			n := call(gBool, "regexp_matches", str(g, d), g.strLit(regexPool))
			if g.pick(2) == 0 {
				n.kids = append(n.kids, g.strLit(regexOptPool))
			}
			return n
		},
		func(g *gen, d int) *gnode {
			// The pattern operators, spelt the same in both dialects.
			switch g.pick(4) {
			case 0:
				return &gnode{t: gBool, kind: "op", text: []string{"GLOB", "NOT GLOB"}[g.pick(2)], kids: []*gnode{str(g, d), g.strLit(globPool)}}
			case 1:
				return &gnode{t: gBool, kind: "op", text: []string{"~", "!~", "SIMILAR TO", "NOT SIMILAR TO"}[g.pick(4)], kids: []*gnode{str(g, d), g.strLit(regexPool)}}
			case 2:
				if g.pick(4) == 0 {
					return &gnode{t: gBool, kind: "op", text: "^@", kids: []*gnode{str(g, d), str(g, d)}}
				}
				// colexpr's LIKE escapes with \ by default and DuckDB's does
				// not (TestDifferential gives DuckDB's LIKE an ESCAPE '\', which
				// its ~~ cannot take): patterns without one.
				return &gnode{t: gBool, kind: "op", text: []string{"~~", "!~~", "~~*", "!~~*"}[g.pick(4)], kids: []*gnode{str(g, d), g.strLit(likePlainPool)}}
			}
			n := call(gBool, "regexp_full_match", str(g, d), g.strLit(regexPool))
			if g.pick(2) == 0 {
				n.kids = append(n.kids, g.strLit(regexOptPool))
			}
			return n
		},
		func(g *gen, d int) *gnode {
			// LIKE … ESCAPE, spelt the same in both dialects: the clause
			// rides on the pattern literal.
			esc := []string{"'!'", "''"}[g.pick(2)]
			p := g.strLit(likeEscapePool)
			p.text += " ESCAPE " + esc
			op := []string{"LIKE", "ILIKE", "NOT LIKE"}[g.pick(3)]
			return &gnode{t: gBool, kind: "op", text: op, kids: []*gnode{str(g, d), p}}
		},
	)
	for t, gens := range stringFamily {
		familyGens[t] = append(familyGens[t], gens...)
	}
}

// TestDifferentialStrings checks the DuckDB-dialect string functions alone:
// random calls of this file's generators, with arguments from the whole
// generator, against DuckDB.
func TestDifferentialStrings(t *testing.T) {
	familyDifferential(t, stringFamily, 0x57e1, []gtype{gStr, gStr, gStr, gI64, gI32, gBool})
}

// familyDifferential evaluates random calls of one family's generators
// (of the result types given, repeated for weight), with arguments from
// the whole generator, in colexpr and DuckDB, and reports each
// disagreement with the expression shrunk.
func familyDifferential(t *testing.T, family map[gtype][]func(g *gen, d int) *gnode, stream uint64, types []gtype) {
	env := newDiffEnv(t, *diffSeed, *diffRows)
	g := &gen{r: rand.New(rand.NewPCG(*diffSeed, stream))}
	found, bothErr := 0, 0
	n := *diffN / 2
	for i := range n {
		gens := family[types[g.pick(len(types))]]
		var e *gnode
		for e == nil || !e.avoidsKnown() {
			e = gens[g.pick(len(gens))](g, g.pick(*diffDepth))
		}
		v := env.disagreement(e.String(), e.SQL())
		if v.bothErr {
			bothErr++
		}
		if testing.Verbose() && i < 20 {
			t.Logf("%s", e.describe())
		}
		if v.msg != "" {
			found++
			small := env.shrink(g, e)
			t.Errorf("expression %d disagrees:\n  %s\n  %s\nshrunk to:\n  %s\n  %s",
				i, e.describe(), v.msg, small.describe(), env.disagreement(small.String(), small.SQL()).msg)
			if found >= 5 && !*diffKeep {
				t.Fatalf("stopping after %d disagreements (-diff.keep-going reports all)", found)
			}
		}
	}
	t.Logf("%d expressions, %d raising in both engines", n, bothErr)
}
