package bench

// The functions of colexpr's fn/math_more.go in the differential test:
// isnan, isinf and isfinite (of doubles that are sometimes NaN or infinite:
// literals, and quotients by a column that may be 0), radians, degrees and
// even (exact in both: one multiplication by the same constant, or
// rounding), gcd and lcm of any integers (cast to BIGINT in both; of
// UBIGINT, gcd only, which never overflows), factorial of a number from
// -20 to 20 (DuckDB's HUGEINT holds up to 33!, colexpr's i64 up to 20!; a
// negative number raises in both) and bit_count of any integer.
//
// DuckDB's gcd of UBIGINT and its factorial are HUGEINT, which the
// expression around them would compute in (without overflowing where
// colexpr's u64 and i64 do): the generator casts them back to UBIGINT and
// BIGINT in both dialects (knownDifferences).

func init() {
	familyGens[gBool] = append(familyGens[gBool], floatTestGen)
	familyGens[gF64] = append(familyGens[gF64], func(g *gen, d int) *gnode {
		if g.pick(4) == 0 {
			return powerOpGen(g, d)
		}
		return mcall(gF64, []string{"radians", "degrees", "even"}[g.pick(3)], "", g.expr(gF64, d))
	})
	familyGens[gI64] = append(familyGens[gI64], func(g *gen, d int) *gnode {
		if g.pick(3) == 0 {
			return factorialGen(g, d)
		}
		return gcdGen(g, d)
	})
	familyGens[gU64] = append(familyGens[gU64], func(g *gen, d int) *gnode {
		n := mcall(gU64, "gcd", "", g.expr(gU64, d), g.expr(g.pickType(gU8, gU32, gU64), d))
		return &gnode{t: gU64, kind: "cast", kids: []*gnode{n}}
	})
	familyGens[gI8] = append(familyGens[gI8], func(g *gen, d int) *gnode {
		return mcall(gI8, "bit_count", "", g.expr(g.pickType(gI8, gI16, gI32, gI64, gU8, gU32, gU64), d))
	})
}

// floatTestGen is isnan, isinf or isfinite of a double.
func floatTestGen(g *gen, d int) *gnode {
	var x *gnode
	switch g.pick(3) {
	case 0:
		v := []string{"NaN", "Infinity", "-Infinity", "1.5"}[g.pick(4)]
		x = &gnode{t: gF64, kind: "lit", text: "CAST('" + v + "' AS DOUBLE)"}
	case 1:
		// ±Inf, or NaN for 0 / 0, where the divisor is 0 (IEEE in both)
		x = &gnode{t: gF64, kind: "op", text: "/", kids: []*gnode{g.expr(gF64, d), g.col(gF64)}}
	default:
		x = g.expr(gF64, d)
	}
	return mcall(gBool, []string{"isnan", "isinf", "isfinite"}[g.pick(3)], "", x)
}

// gcdGen is gcd or lcm (or their long names) of two integers of the
// signed types or the narrower unsigned ones.
func gcdGen(g *gen, d int) *gnode {
	names := []string{"gcd", "lcm", "greatest_common_divisor", "least_common_multiple"}
	types := []gtype{gI8, gI16, gI32, gI64, gU8, gU32}
	return mcall(gI64, names[g.pick(len(names))], "", g.expr(g.pickType(types...), d), g.expr(g.pickType(types...), d))
}

// factorialGen is factorial of x % 21 for a TINYINT or UTINYINT x (-20 to
// 20), cast to BIGINT.
func factorialGen(g *gen, d int) *gnode {
	t := g.pickType(gI8, gU8)
	k := &gnode{t: t, kind: "lit", text: "CAST(21 AS " + t.sqlName() + ")"}
	n := mcall(gI64, "factorial", "", &gnode{t: t, kind: "op", text: "%", kids: []*gnode{g.expr(t, d), k}})
	return &gnode{t: gI64, kind: "cast", kids: []*gnode{n}}
}

// powerOpGen is x ** y or x ^ y (power(x, y)) beside * and a minus sign, on
// a base of at most 1000 and a small exponent, rounded to 6 places as
// mathFloat rounds power (the C library's pow may differ in the last bit):
// round(-b ** e * c, 6) checks the precedence both dialects give them.
func powerOpGen(g *gen, d int) *gnode {
	base := mcall(gF64, "least", "", mcall(gF64, "abs", "", g.expr(gF64, d)), &gnode{t: gF64, kind: "lit", text: "CAST(1000 AS DOUBLE)"})
	if g.pick(2) == 0 {
		base = &gnode{t: gF64, kind: "unary", text: "-", kids: []*gnode{base}}
	}
	e := &gnode{t: gF64, kind: "lit", text: "CAST(" + []string{"2", "1", "0.5", "0", "-1", "3"}[g.pick(6)] + " AS DOUBLE)"}
	// no parentheses around the power: the precedence is what is tested
	pow := &gnode{t: gF64, kind: "bare", text: []string{"**", "^"}[g.pick(2)], kids: []*gnode{base, e}}
	x := pow
	if g.pick(2) == 0 {
		x = &gnode{t: gF64, kind: "op", text: "*", kids: []*gnode{pow, g.lit(gF64)}}
	}
	return mcall(gF64, "round", "", x, &gnode{t: gI32, kind: "lit", text: "6"})
}
