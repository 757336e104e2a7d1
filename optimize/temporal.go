package optimize

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// Rules of the temporal family (temporal/*).

// DatePartShorthand turns date_part with a literal part (what extract(part
// FROM x) reads as) into the part's shorthand function:
//
//	date_part('year', x)     →  year(x)
//	extract(epoch FROM x)    →  epoch(x)
//
// The shorthand declares its own properties, so a part that never
// decreases (year, epoch, …) carries its order to pruning:
// extract(year FROM d) = 1995 prunes as year(d) = 1995 does. The dtype is
// the same (i64, f64 for the epoch, nullable as x is).
var DatePartShorthand = &Rule{
	Name: "temporal/date_part_shorthand",
	Fns:  []fn.Function{fn.DatePartFn},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		lit, ok := n.Arg(0).Fn().(fn.LiteralFn)
		if !ok || n.Arg(0).Kind() != expr.KindCall || lit.Value.IsNull() || !lit.Value.DType().IsUtf8() {
			return nil
		}
		p, ok := fn.ParseDatePart(lit.Value.Value().(string))
		if !ok {
			return nil
		}
		return call(n.DType(), fn.Shorthands[p], n.Arg(1))
	},
}
