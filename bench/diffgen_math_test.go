package bench

import "strconv"

// The numeric functions (colexpr's fn/math.go) in the differential test:
// round and trunc (with and without places), floor, ceil, the f64
// functions, sign, greatest, least, mod as a function, and the bitwise
// operators.
//
// The transcendental functions (cbrt, exp, ln, log10, log2, log(b, x))
// are computed by Go's math package here and by the C library in DuckDB,
// which may differ in the last bit (knownDifferences): the generator
// rounds their results to 6 places in both dialects and keeps their
// arguments where the results are finite and at most about 5·10^8, so
// that a last-bit difference never shows (power too: the C library's pow
// is within an ulp, not always correctly rounded, so even pow(x, 2) may
// differ from x · x). sqrt is exact in both (IEEE 754).

func init() {
	add := func(t gtype, f func(g *gen, t gtype, d int) *gnode) {
		familyGens[t] = append(familyGens[t], func(g *gen, d int) *gnode { return f(g, t, d) })
	}
	for _, t := range []gtype{gI8, gI16, gI32, gI64, gU8, gU32, gU64, gF64, gDec} {
		add(t, mathRoundingOf)
		add(t, mathExtreme)
	}
	for _, t := range []gtype{gI8, gI16, gI32, gI64, gU8, gU32, gU64} {
		add(t, mathBitwise)
		add(t, mathMod)
	}
	add(gStr, mathExtreme)
	add(gBool, mathExtreme)
	add(gDate, mathExtreme)
	familyGens[gF64] = append(familyGens[gF64], mathFloat)
	familyGens[gI8] = append(familyGens[gI8], mathSign)
	familyGens[gI64] = append(familyGens[gI64], mathRoundUnsigned)
}

func mcall(t gtype, name, duck string, kids ...*gnode) *gnode {
	return &gnode{t: t, kind: "call", text: name, duck: duck, kids: kids}
}

// places is a number of decimal places: an INTEGER literal (as DuckDB
// wants it), or for floats sometimes a column.
func (g *gen) places(t gtype, d int) *gnode {
	if t == gF64 && g.pick(3) == 0 {
		return g.expr(gI32, d)
	}
	return &gnode{t: gI32, kind: "lit", text: strconv.Itoa(g.pick(9) - 5)}
}

// mathRoundingOf is round or trunc of t (floor and ceil for floats and
// decimals; decimals are cast back to their type).
func mathRoundingOf(g *gen, t gtype, d int) *gnode {
	names := []string{"round", "trunc"}
	if t == gF64 || t == gDec {
		names = append(names, "floor", "ceil")
	}
	if !t.signed() && t.isInt() {
		names = []string{"trunc"} // DuckDB's round of an unsigned integer is BIGINT or HUGEINT
	}
	name := names[g.pick(len(names))]
	n := mcall(t, name, "", g.expr(t, d))
	if (name == "round" || name == "trunc") && g.pick(3) > 0 {
		n.kids = append(n.kids, g.places(t, d))
	}
	if t == gDec {
		// the scale follows the places: cast back to DECIMAL(9,2)
		return &gnode{t: gDec, kind: "cast", kids: []*gnode{n}}
	}
	return n
}

// pickType is one of ts.
func (g *gen) pickType(ts ...gtype) gtype { return ts[g.pick(len(ts))] }

// mathRoundUnsigned is round of an unsigned integer, BIGINT in both.
func mathRoundUnsigned(g *gen, d int) *gnode {
	x := g.expr(g.pickType(gU8, gU32), d)
	n := mcall(gI64, "round", "", x)
	if g.pick(2) == 0 {
		n.kids = append(n.kids, g.places(gI64, d))
	}
	return n
}

// mathExtreme is greatest or least of one to three values of one type.
func mathExtreme(g *gen, t gtype, d int) *gnode {
	n := mcall(t, []string{"greatest", "least"}[g.pick(2)], "")
	for range 1 + g.pick(3) {
		n.kids = append(n.kids, g.expr(t, d))
	}
	return n
}

// mathBitwise is & | xor << >> or ~ over one integer type.
func mathBitwise(g *gen, t gtype, d int) *gnode {
	x, y := g.expr(t, d), g.expr(t, d)
	switch k := g.pick(6); k {
	case 0:
		// (~x) in both dialects: ~ takes the additive expression after it
		return &gnode{t: t, kind: "unary", text: "~", kids: []*gnode{x}}
	case 1:
		return mcall(t, "xor", "", x, y)
	default:
		return &gnode{t: t, kind: "op", text: []string{"&", "|", "<<", ">>"}[k-2], kids: []*gnode{x, y}}
	}
}

// mathMod is mod(a, b) over integers: a zero divisor raises in both.
func mathMod(g *gen, t gtype, d int) *gnode {
	return mcall(t, "mod", "", g.expr(t, d), g.expr(t, d))
}

// mathSign is sign of any number: TINYINT.
func mathSign(g *gen, d int) *gnode {
	return mcall(gI8, "sign", "", g.expr(g.pickType(gI8, gI32, gI64, gU8, gU64, gF64, gDec), d))
}

// mathFloat is one of the f64 functions, on arguments where its result is
// finite, rounded to 6 places where the C library's last bit may differ.
func mathFloat(g *gen, d int) *gnode {
	x := g.expr(gF64, d)
	one := &gnode{t: gF64, kind: "lit", text: "CAST(1 AS DOUBLE)"}
	positive := func(x *gnode) *gnode { // abs(x) + 1
		return &gnode{t: gF64, kind: "op", text: "+", kids: []*gnode{mcall(gF64, "abs", "", x), one}}
	}
	round6 := func(n *gnode) *gnode {
		return mcall(gF64, "round", "", n, &gnode{t: gI32, kind: "lit", text: "6"})
	}
	clamp := func(x *gnode) *gnode { // within ±10
		return mcall(gF64, "least", "", mcall(gF64, "greatest", "", x, &gnode{t: gF64, kind: "lit", text: "CAST(-10 AS DOUBLE)"}),
			&gnode{t: gF64, kind: "lit", text: "CAST(10 AS DOUBLE)"})
	}
	switch g.pick(10) {
	case 7:
		// The trigonometric and hyperbolic functions where they are
		// defined and far from a pole (NaN outside, in both).
		return round6(mcall(gF64, []string{"sin", "cos", "atan", "tanh", "asinh", "sinh", "cosh"}[g.pick(7)], "", clamp(x)))
	case 8:
		unit := &gnode{t: gF64, kind: "op", text: "/", kids: []*gnode{x, positive(g.expr(gF64, d))}} // in (-1, 1)
		switch g.pick(4) {
		case 0:
			return round6(mcall(gF64, "acosh", "", positive(x)))
		case 1:
			return round6(mcall(gF64, "atan2", "", x, g.expr(gF64, d)))
		}
		return round6(mcall(gF64, []string{"asin", "acos", "atanh", "tan"}[g.pick(4)], "", unit))
	case 9:
		return round6(&gnode{t: gF64, kind: "op", text: "*", kids: []*gnode{mcall(gF64, "pi", ""), clamp(x)}})
	case 0:
		return mcall(gF64, "sqrt", "", mcall(gF64, "abs", "", x))
	case 1:
		return round6(mcall(gF64, "cbrt", "", mcall(gF64, "least", "", mcall(gF64, "greatest", "", x, g.lit(gF64)), &gnode{t: gF64, kind: "lit", text: "CAST(1e18 AS DOUBLE)"})))
	case 2:
		return round6(mcall(gF64, "exp", "", mcall(gF64, "least", "", x, &gnode{t: gF64, kind: "lit", text: "CAST(20 AS DOUBLE)"})))
	case 3:
		return round6(mcall(gF64, []string{"ln", "log10", "log2", "log"}[g.pick(4)], "", positive(x)))
	case 4:
		return round6(mcall(gF64, "log", "", &gnode{t: gF64, kind: "op", text: "+", kids: []*gnode{positive(g.expr(gF64, d)), one}}, positive(x)))
	case 5:
		// a base of at most 1000 and small exponents, rounded: even
		// pow(x, 2) may differ from x * x in the C library's last bit
		y := []string{"2", "1", "0.5", "0", "-1", "1.5", "-2.5"}[g.pick(7)]
		base := mcall(gF64, "least", "", mcall(gF64, "abs", "", x), &gnode{t: gF64, kind: "lit", text: "CAST(1000 AS DOUBLE)"})
		return round6(mcall(gF64, []string{"power", "pow"}[g.pick(2)], "", base, &gnode{t: gF64, kind: "lit", text: "CAST(" + y + " AS DOUBLE)"}))
	}
	return mathRoundingOf(g, gF64, d)
}
