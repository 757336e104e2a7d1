package bench

import "strconv"

// Generators of the list functions (fn/list_more.go). The test table has
// no list columns, so lists are built per row with list_value over scalar
// expressions (DuckDB's list_value too), and every generated node has a
// scalar type: the list functions appear under an aggregate, an element
// read, a length or a membership test. A list node carries its element
// type as its gtype (shrinking may put a scalar in its place, which both
// engines reject alike).
//
// Left out, as known differences: list_distinct's order (DuckDB's is
// unspecified: only its length and sum are compared) and sums of i64 or
// u64 elements (DuckDB's are HUGEINT and never overflow).

func init() {
	ints := []gtype{gI8, gI16, gI32, gI64, gU8, gU32}
	for _, t := range ints {
		familyGens[t] = append(familyGens[t], listElementGen(t), listExtremeGen(t), listReduceGen(t))
	}
	for _, t := range []gtype{gF64, gDec, gDate, gStr, gBool, gU64} {
		familyGens[t] = append(familyGens[t], listElementGen(t), listExtremeGen(t))
	}
	familyGens[gStr] = append(familyGens[gStr], stringSliceGen, stringElementGen, listReduceGen(gStr), listStringGen)
	familyGens[gI64] = append(familyGens[gI64], listSumGen, listCountGen, listPositionGen)
	familyGens[gF64] = append(familyGens[gF64], listAvgGen)
	familyGens[gDec] = append(familyGens[gDec], func(g *gen, d int) *gnode {
		// decimal(9,2) sums are decimal(38,2): cast back to compare types
		return &gnode{t: gDec, kind: "cast", kids: []*gnode{lcall(gDec, "list_sum", g.list(gDec, d))}}
	})
	familyGens[gBool] = append(familyGens[gBool], listHasGen)
}

// lcall is a call node.
func lcall(t gtype, name string, kids ...*gnode) *gnode {
	return &gnode{t: t, kind: "call", text: name, kids: kids}
}

// intLit is an untyped integer literal, the same in both dialects.
func intLit(v int) *gnode { return &gnode{t: gI64, kind: "lit", text: strconv.Itoa(v)} }

// list is a list of 0 to 4 elements of type t: list_value of expressions
// (a typed NULL among them now and then), or one of the list functions
// applied to such a list.
func (g *gen) list(t gtype, d int) *gnode {
	n := lcall(t, "list_value")
	for range 1 + g.pick(4) {
		if g.pick(8) == 0 {
			n.kids = append(n.kids, &gnode{t: t, kind: "lit", text: "CAST(NULL AS " + t.sqlName() + ")"})
			continue
		}
		n.kids = append(n.kids, g.expr(t, d))
	}
	if d <= 0 {
		return n
	}
	switch g.pick(8) {
	case 0:
		sl := lcall(t, "list_slice", n, intLit(g.pick(7)-3), intLit(g.pick(7)-3))
		if g.pick(2) == 0 {
			sl.kids = append(sl.kids, intLit([]int{-2, -1, 2, 3}[g.pick(4)]))
		}
		return sl
	case 1:
		return lcall(t, "list_reverse", n)
	case 2:
		if t != gBool || g.pick(2) == 0 { // any order works for booleans too
			order := []string{"'ASC'", "'DESC'"}[g.pick(2)]
			nulls := []string{"'NULLS FIRST'", "'NULLS LAST'"}[g.pick(2)]
			return lcall(t, "list_sort", n, &gnode{t: gStr, kind: "lit", text: order}, &gnode{t: gStr, kind: "lit", text: nulls})
		}
		return lcall(t, "list_sort", n)
	case 3:
		return lcall(t, "list_reverse_sort", n)
	case 4:
		return lcall(t, "list_concat", n, g.list(t, d-1))
	case 5:
		return &gnode{t: t, kind: "op", text: "||", kids: []*gnode{n, g.list(t, d-1)}}
	case 6:
		return lcall(t, "flatten", lcall(t, "list_value", n, g.list(t, d-1)))
	}
	return n
}

// listElementGen reads an element of a list: list_element, with an index
// that may be out of range or negative.
func listElementGen(t gtype) func(g *gen, d int) *gnode {
	return func(g *gen, d int) *gnode {
		return lcall(t, "list_element", g.list(t, d), intLit(g.pick(9)-4))
	}
}

func listExtremeGen(t gtype) func(g *gen, d int) *gnode {
	return func(g *gen, d int) *gnode {
		return lcall(t, []string{"list_min", "list_max"}[g.pick(2)], g.list(t, d))
	}
}

// listReduceGen folds a list with + (integers: overflow raises in both) or
// || (strings); with an initial value now and then.
func listReduceGen(t gtype) func(g *gen, d int) *gnode {
	return func(g *gen, d int) *gnode {
		body := "lambda acc, x: acc + x"
		if t == gStr {
			body = "lambda acc, x: acc || x"
		}
		if g.pick(3) == 0 {
			body = "lambda acc, x, i: CASE WHEN i % 2 = 0 THEN acc ELSE x END"
		}
		lam := &gnode{t: t, kind: "lit", text: body}
		n := lcall(t, "list_reduce", g.list(t, d), lam)
		if g.pick(2) == 0 {
			n.kids = append(n.kids, g.leaf(t))
		} else {
			// no initial value: an empty list raises in both, so keep one
			// element at least (the lists are never empty before slicing)
			n.kids[0] = lcall(t, "list_value", g.expr(t, d), g.expr(t, d))
		}
		return n
	}
}

func listSumGen(g *gen, d int) *gnode {
	t := []gtype{gI8, gI16, gI32, gU8, gU32}[g.pick(5)]
	xs := g.list(t, d)
	switch g.pick(5) {
	case 0:
		xs = lcall(t, "list_distinct", xs)
	case 1:
		// an index parameter: x + i is BIGINT in both
		xs = lcall(gI64, "list_transform", xs, &gnode{t: gI64, kind: "lit", text: "lambda x, i: x + i"})
	case 2:
		xs = lcall(t, "list_filter", xs, &gnode{t: gBool, kind: "lit", text: "lambda x, i: i % 2 = 1 OR x > 0"})
	}
	sum := lcall(gI64, "list_sum", xs)
	if g.pick(3) == 0 {
		sum = lcall(gI64, "list_aggregate", xs, &gnode{t: gStr, kind: "lit", text: "'sum'"})
	}
	return &gnode{t: gI64, kind: "cast", kids: []*gnode{sum}}
}

func listCountGen(g *gen, d int) *gnode {
	t := []gtype{gI32, gStr, gF64, gDate, gBool}[g.pick(5)]
	xs := g.list(t, d)
	if g.pick(3) == 0 {
		xs = lcall(t, "list_distinct", xs)
	}
	if g.pick(4) == 0 {
		// list_unique is UBIGINT in DuckDB (u64 here): cast to BIGINT in both
		n := lcall(gI64, []string{"list_unique", "array_unique"}[g.pick(2)], xs)
		return &gnode{t: gI64, kind: "cast", kids: []*gnode{n}}
	}
	return lcall(gI64, []string{"list_count", "len", "array_length"}[g.pick(3)], xs)
}

func listPositionGen(g *gen, d int) *gnode {
	t := []gtype{gI32, gStr, gI64, gDate}[g.pick(4)]
	return lcall(gI64, "list_position", g.list(t, d), g.expr(t, d))
}

func listAvgGen(g *gen, d int) *gnode {
	t := []gtype{gI8, gI32, gI64, gU32, gDec, gF64}[g.pick(6)]
	if t == gF64 && g.pick(2) == 0 {
		return lcall(gF64, "list_sum", g.list(t, d))
	}
	return lcall(gF64, "list_avg", g.list(t, d))
}

func listHasGen(g *gen, d int) *gnode {
	t := []gtype{gI32, gStr, gI64, gDate, gF64}[g.pick(5)]
	f := []string{"list_has_any", "list_has_all", "list_contains"}[g.pick(3)]
	if f == "list_contains" {
		return lcall(gBool, f, g.list(t, d), g.expr(t, d))
	}
	return lcall(gBool, f, g.list(t, d), g.list(t, d))
}

// stringSliceGen is list_slice on a string (x[a:b] in both dialects'
// function form).
func stringSliceGen(g *gen, d int) *gnode {
	return lcall(gStr, []string{"list_slice", "array_slice"}[g.pick(2)], g.expr(gStr, d), intLit(g.pick(9)-4), intLit(g.pick(9)-4))
}

// stringElementGen is s[i] on a string.
func stringElementGen(g *gen, d int) *gnode {
	return lcall(gStr, "list_element", g.expr(gStr, d), intLit(g.pick(9)-4))
}

// listStringGen is array_to_string(xs, sep) or list_string_agg(xs) of a
// list whose elements both engines write alike as text (no doubles), sep a
// literal (DuckDB wants a constant; knownDifferences), NULL among them
// (',' in both).
func listStringGen(g *gen, d int) *gnode {
	t := []gtype{gI32, gI64, gStr, gDate, gBool, gDec}[g.pick(6)]
	xs := g.list(t, d)
	if g.pick(4) == 0 {
		return lcall(gStr, "list_string_agg", xs)
	}
	sep := &gnode{t: gStr, kind: "lit", text: []string{"','", "''", "' | '", "CAST(NULL AS VARCHAR)", "'-'"}[g.pick(5)]}
	return lcall(gStr, "array_to_string", xs, sep)
}
