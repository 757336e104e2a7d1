package bench

// The || operator on operands that are not strings: DuckDB casts them to
// VARCHAR (1 || 2 is '12'), as colexpr's coerce does. Doubles are left out:
// their text differs (knownDifferences of printing), and so are decimals'
// trailing zeros only where both agree — DuckDB and colexpr print a
// decimal(9,2) the same way.
func init() {
	familyGens[gStr] = append(familyGens[gStr], func(g *gen, d int) *gnode {
		others := []gtype{gI8, gI32, gI64, gU8, gU32, gDec, gDate, gBool, gStr}
		x := g.expr(gStr, d)
		y := g.expr(others[g.pick(len(others))], d)
		if g.pick(2) == 0 {
			x, y = y, x
		}
		return &gnode{t: gStr, kind: "op", text: "||", kids: []*gnode{x, y}}
	})
}
