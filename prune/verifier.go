package prune

import (
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/scalar"
)

// Verifier builds the dual of the falsifier: a boolean expression over a
// chunk's statistics that is true only when every row of the chunk
// satisfies the predicate (it is true, neither false nor null). A scan then
// keeps such a chunk's rows without evaluating the predicate on them.
//
// It is the falsifier of NOT pred, which proves that no row makes pred
// false, together with a null count of 0 for every column pred reads, which
// rules out the rows where pred would be null. That reasoning needs every
// row's pred to be true or false when its columns are not null, and needs
// evaluating pred to be unable to fail, since skipping the evaluation
// would skip its errors; so the verifier is built only for predicates made
// of AND, OR, NOT, comparisons, BETWEEN, IN, IS [NOT] NULL, literals,
// columns and casts that can neither fail nor make a null (widening ones,
// numbers to floats), and is the literal false — it never claims anything —
// for the others. Float comparisons are never verified, as NOT of them is
// never falsified (NaN).
func Verifier(pred *expr.Bound, scope expr.Scope) (*Pruner, error) {
	if !verifiable(pred) {
		never := expr.NewLiteral(scalar.Bool(false))
		return &Pruner{Expr: never, Stats: statsType(nil)}, nil
	}
	not, err := expr.NewCall(fn.Not, pred)
	if err != nil {
		return nil, err
	}
	if err := check(pred, scope); err != nil {
		return nil, err
	}
	// Bloom filters could prove x != v (v absent), but reading a filter
	// to spare evaluating a comparison costs more than it saves.
	p, err := falsifier(not, false)
	if err != nil || p.Inconclusive() {
		return p, err
	}
	b := &builder{stats: p.Stats, root: expr.NewRoot(p.Stats)}
	f := p.Expr
	for _, c := range p.Columns {
		nulls := b.columnStat(c, "null_count")
		f = call(fn.And, f, call(fn.Eq, nulls, expr.NewLiteral(scalar.Int64(0))))
	}
	return &Pruner{Expr: f, Stats: p.Stats, Columns: p.Columns}, nil
}

// verifiable reports whether every node of pred is one the verifier can
// reason about (see Verifier).
func verifiable(pred *expr.Bound) bool {
	stack := []*expr.Bound{pred}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind() {
		case expr.KindRoot:
			continue
		case expr.KindVar, expr.KindLambda:
			return false
		}
		f := n.Fn()
		switch f.(type) {
		case fn.LiteralFn, fn.GetItemFn:
		case fn.CastFn:
			// Only casts that can neither fail nor make a null: widening
			// ones and numbers to floats (a date to a timestamp can
			// overflow).
			from, to := n.Arg(0).DType(), n.DType()
			if c := f.(fn.CastFn); c.Try || !optimize.Widening(from, to) && !(from.IsNumeric() && to.IsFloat()) {
				return false
			}
		default:
			if f.Fallible() {
				return false
			}
			switch n.FnID() {
			case fn.IDAnd, fn.IDOr, fn.IDNot, fn.IDIsNull, fn.IDIsNotNull, fn.IDBetween, fn.IDInList:
			default:
				if fn.PropertiesOf(f).Order != fn.OrderCompare {
					return false
				}
			}
		}
		stack = append(stack, n.Args()...)
	}
	return true
}

// columnStat is one statistic of the column c itself.
func (b *builder) columnStat(c Column, name string) *expr.Bound {
	cols := must(expr.NewCall(fn.GetItem("cols"), b.root))
	col := must(expr.NewCall(fn.GetItem(c.Key()), cols))
	return must(expr.NewCall(fn.GetItem(name), col))
}
