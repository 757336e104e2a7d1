package bench

// The functions of colexpr's fn/temporal_epoch.go in the differential test:
// dayname and monthname of a date or of epoch_ms(ms) (a TIMESTAMP), and
// epoch_ms, epoch_us and epoch_ns of a date, of epoch_ms(ms) and of
// to_timestamp(seconds), which give ticks back (BIGINT). DuckDB reads a TIMESTAMP WITH TIME ZONE
// in the session's time zone, so to_timestamp's result is only ever taken
// back to milliseconds, which no time zone changes.

func init() {
	familyGens[gStr] = append(familyGens[gStr], func(g *gen, d int) *gnode {
		x := g.expr(gDate, d)
		if g.pick(3) == 0 {
			x = mcall(gDate, "epoch_ms", "", g.expr(gI64, d))
		}
		return mcall(gStr, []string{"dayname", "monthname"}[g.pick(2)], "", x)
	})
	familyGens[gI64] = append(familyGens[gI64], func(g *gen, d int) *gnode {
		var x *gnode
		switch g.pick(3) {
		case 0:
			x = mcall(gDate, "epoch_ms", "", g.expr(gI64, d))
		case 1:
			x = mcall(gDate, "to_timestamp", "", g.expr(gF64, d))
		default:
			x = g.expr(gDate, d)
		}
		return mcall(gI64, []string{"epoch_ms", "epoch_ms", "epoch_us", "epoch_ns"}[g.pick(4)], "", x)
	})
}
