// Package prune skips chunks of data with statistics: it turns a predicate
// into a falsifier, a boolean expression over a chunk's statistics that is
// true only when no row of the chunk can satisfy the predicate.
//
// # Statistics
//
// A chunk (a Parquet row group, a file, a page) is described by its row
// count and, for each column the falsifier reads, its minimum, its maximum
// and its null count. A column the predicate reads only in inconclusive
// parts (`l_quantity * l_discount > 5`) is not listed: nothing would use its
// statistics. The falsifier is a bound expression whose root is a
// struct of those statistics:
//
//	struct<row_count: i64?, cols: struct<"l_shipdate": struct<min: date?, max: date?, null_count: i64?>, …>>
//
// one field of cols per column, named by its path from the root ("a.x" for
// $.a.x). A column compared for equality with literals (x = v, x IN (…))
// also has one statistic absent_k: bool? per distinct value (its Probes):
// true when the chunk's bloom filter rules the value out, null otherwise. A statistic a chunk does not have is null, and SQL's three-valued
// logic then makes every part of the falsifier that needs it null —
// inconclusive — so a missing statistic can never cause a wrong skip. A chunk
// is skipped only where the falsifier is true.
//
// Because the falsifier is an ordinary bound expression, Skip evaluates it
// vectorized over the statistics of all chunks at once: pruning a file of
// 10 000 row groups is one evaluation.
//
// # Rules
//
// With x a column (or a monotonic function of one: a widening cast, a
// number to a float, a date or timestamp to a timestamp — the bounds are
// cast with try_cast, so a bound the cast cannot hold is unknown — or a
// function whose fn.Properties declare it increasing or decreasing in the
// column's argument, its other arguments literals: x + 1, x - 1, -x,
// floor(x), round(x, 2), year(d), date_trunc('month', d); min and max are
// then the function of the column's bounds, swapped by a decreasing one),
// v a literal, and min, max, nulls, rows the chunk's statistics of x:
//
//	x = v            min > v OR max < v OR absent(v)   (absent: the bloom filter's answer)
//	x != v           min = v AND max = v            (not for floats: NaN != v)
//	x < v            min >= v
//	x <= v           min > v
//	x > v            max <= v
//	x >= v           max < v
//	v op x           as x op' v with the operator flipped
//	x op y           the same, bounds against bounds: x < y ⇐ x.min >= y.max, …
//	x BETWEEN a AND b   min > b OR max < a
//	x IN (v1, …)     every x = vi is falsified
//	x LIKE 'p%'      max < 'p' OR min >= the successor of 'p' (a literal prefix, case-sensitive)
//	x IS NULL        nulls = 0
//	x IS NOT NULL    nulls = rows
//	p AND q          either is falsified
//	p OR q           both are falsified
//	NOT p            pushed down first: De Morgan, comparisons negated
//	                 (not for floats: NaN makes x < v and NOT x >= v differ),
//	                 IS NULL ↔ IS NOT NULL, NOT BETWEEN, NOT IN
//	false, null      always falsified
//
// Every comparison is also falsified when the column is entirely null
// (nulls = rows): a comparison with null is never true.
//
// Bloom filters: absent(v) is asked only of a column itself, or of one
// under widening casts, with v converted exactly to the column's type (v
// cast to it and back is v); otherwise x = v has no absent term. So
// x IN (v1, v2) is falsified where each vi is out of the bounds or absent,
// and p AND q, p OR q combine them as any other falsifier. A bloom filter
// has false positives, never false negatives: "absent" is certain, and a
// chunk it does not rule out is read. NaN is never probed, nor the values
// of an IN list of more than 64 (all of them absent is unlikely).
//
// Anything else is inconclusive. Floats: Parquet writers leave NaN out of
// min and max, so a chunk whose bounds look finite may hold NaN. The rules
// above are sound under that: NaN satisfies no ordered comparison and no
// equality, and the rules that NaN would break (x != v, negated float
// comparisons) are not used for floats. A NaN bound itself makes the
// comparisons that use it false, so it never causes a skip.
package prune

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scalar"
)

// Column is a column the falsifier reads statistics of.
type Column struct {
	Path partition.FieldPath
	Type dtype.DType // the column's dtype
	// Probes are the values the falsifier asks the chunk's bloom filter
	// about, of the column's dtype (nullability aside), in the order of
	// the statistics absent_0, absent_1, …: one for each distinct value
	// of an = or IN on the column.
	Probes []scalar.Scalar
}

// Key is the column's field name in the cols struct of the statistics.
func (c Column) Key() string { return strings.Join(c.Path, ".") }

// Pruner holds a predicate's falsifier and the layout of the statistics it
// reads.
type Pruner struct {
	// Expr is the falsifier, bound against Stats: true means no row of the
	// chunk can satisfy the predicate.
	Expr *expr.Bound
	// Stats is the struct type of one chunk's statistics.
	Stats dtype.DType
	// Columns are the columns whose statistics Expr reads, in the order of
	// Stats' cols fields.
	Columns []Column
}

// HasProbes reports whether the falsifier asks bloom filters about any
// value (Column.Probes).
func (p *Pruner) HasProbes() bool {
	for _, c := range p.Columns {
		if len(c.Probes) > 0 {
			return true
		}
	}
	return false
}

// Inconclusive reports whether the falsifier can never prove anything (it is
// the literal false), so computing statistics would be wasted.
func (p *Pruner) Inconclusive() bool {
	v, ok := p.Expr.Literal()
	return ok && !v.IsNull() && v.Value() == false
}

// Falsifier builds the falsifier of a bound boolean predicate over scope's
// root.
func Falsifier(pred *expr.Bound, scope expr.Scope) (*Pruner, error) {
	if err := check(pred, scope); err != nil {
		return nil, err
	}
	return falsifier(pred, true)
}

// check checks that pred is a predicate over a struct.
func check(pred *expr.Bound, scope expr.Scope) error {
	if !pred.DType().IsBool() {
		return fmt.Errorf("prune: the predicate has type %s, want bool", pred.DType())
	}
	if !scope.Root().IsStruct() {
		return fmt.Errorf("prune: the root has type %s, want a struct", scope.Root())
	}
	return nil
}

// falsifier builds the falsifier of pred; probes says whether it may ask
// bloom filters (Column.Probes).
func falsifier(pred *expr.Bound, probes bool) (*Pruner, error) {
	b := &builder{index: map[string]int{}}
	// First pass: find the columns, so the stats type is known before any
	// node over it is built.
	b.collect(pred)
	b.stats = statsType(b.cols)
	b.root = expr.NewRoot(b.stats)
	// And the values to probe bloom filters with, which the falsifier's
	// rules choose: the first build registers them (and builds no probe);
	// when there are some, the second builds the falsifier over the
	// statistics that have them.
	b.discover = probes
	f, err := b.falsify(pred, false)
	if err != nil {
		return nil, err
	}
	if b.discover && b.probes > 0 {
		b.discover = false
		b.stats = statsType(b.cols)
		b.root = expr.NewRoot(b.stats)
		if f, err = b.falsify(pred, false); err != nil {
			return nil, err
		}
	}
	if f == nil {
		f = expr.NewLiteral(scalar.Bool(false))
	}
	opt, err := optimize.Optimize(dedupOr(f))
	if err != nil {
		return nil, err
	}
	// collect registered every column reference, also those whose part of
	// the predicate turned out inconclusive: keep only the columns the
	// final falsifier reads, so no statistic is computed for nothing.
	read := readColumns(opt)
	if len(read) == len(b.cols) {
		return &Pruner{Expr: opt, Stats: b.stats, Columns: b.cols}, nil
	}
	var cols []Column
	for _, c := range b.cols {
		if read[c.Key()] {
			cols = append(cols, c)
		}
	}
	stats := statsType(cols)
	if opt, err = expr.ReplaceRoot(opt, stats); err != nil {
		return nil, fmt.Errorf("%w: %v", errBuild, err)
	}
	return &Pruner{Expr: opt, Stats: stats, Columns: cols}, nil
}

// statsType is the struct type of one chunk's statistics of cols.
func statsType(cols []Column) dtype.DType {
	fields := make([]dtype.Field, len(cols))
	for i, c := range cols {
		stats := []dtype.Field{
			{Name: "min", Type: c.Type.AsNullable()},
			{Name: "max", Type: c.Type.AsNullable()},
			{Name: "null_count", Type: dtype.Primitive(dtype.I64, true)},
		}
		for k := range c.Probes {
			stats = append(stats, dtype.Field{Name: absentField(k), Type: dtype.Bool(true)})
		}
		fields[i] = dtype.Field{Name: c.Key(), Type: dtype.Struct(stats, false)}
	}
	return dtype.Struct([]dtype.Field{
		{Name: "row_count", Type: dtype.Primitive(dtype.I64, true)},
		{Name: "cols", Type: dtype.Struct(fields, false)},
	}, false)
}

// absentField is the name of the statistic that is true when the chunk's
// bloom filter rules out probe k of a column.
func absentField(k int) string { return fmt.Sprintf("absent_%d", k) }

// readColumns is the set of column keys a falsifier reads: the fields of
// $.cols it takes.
func readColumns(f *expr.Bound) map[string]bool {
	read := map[string]bool{}
	stack := []*expr.Bound{f}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g, ok := n.Fn().(fn.GetItemFn); ok && n.Kind() == expr.KindCall {
			if c, ok := n.Arg(0).Fn().(fn.GetItemFn); ok && c.Field == "cols" && n.Arg(0).Arg(0).Kind() == expr.KindRoot {
				read[g.Field] = true
				continue
			}
		}
		stack = append(stack, n.Args()...)
	}
	return read
}

type builder struct {
	cols  []Column
	index map[string]int
	stats dtype.DType
	root  *expr.Bound
	// discover is set in the pass that only registers probes (see
	// falsifier); probe then builds nothing. probes counts them.
	discover bool
	probes   int
	// longIn is set while the values of an IN list too long to probe
	// are built (see maxInProbes).
	longIn bool
}

// maxInProbes is the longest IN list whose values are probed: a row group
// is skipped only when every value is absent, which for a long list is
// unlikely (with 1% false positives, 0.99^n for n values none of which it
// holds), and each probe costs a look-up in every filter read.
const maxInProbes = 64

// monotonic reports whether a cast keeps order (x <= y ⇒ cast(x) <= cast(y)),
// so the cast of a column's bounds bounds the cast column: widening casts,
// numbers to floats (rounding is monotonic), dates to timestamps and
// timestamps to other units of the same zone.
func monotonic(from, to dtype.DType) bool {
	switch {
	case optimize.Widening(from, to):
		return true
	case from.IsNumeric() && to.IsFloat():
		return true
	case from.IsTemporal() && to.IsTemporal() && to.ExtID() == dtype.ExtTimestamp:
		return from.ExtID() == dtype.ExtDate || (from.ExtID() == dtype.ExtTimestamp && from.TZ() == to.TZ())
	}
	return false
}

// layer is one monotonic step between a column and the value a predicate
// compares: a cast, or a call of a function whose fn.Properties.Order says
// it is monotonic in argument arg, the other arguments being literals.
type layer struct {
	node       *expr.Bound
	arg        int
	decreasing bool
}

// colRef is a column reference as pruning sees it: the column, and the
// monotonic layers around it, innermost first.
type colRef struct {
	path   partition.FieldPath
	t      dtype.DType // the column's type
	layers []layer
}

// maxLayers bounds the monotonic layers followed around a column, so deep
// trees cost nothing here.
const maxLayers = 16

// column recognises a column reference: a chain of get_item from $, or one
// wrapped in monotonic layers — casts that keep order (see monotonic) and
// calls of functions that declare an order in one argument (floor(x),
// x + 1, year(d), date_trunc('month', d)) with literals for the other
// arguments and nulls propagated. The bounds of such an expression over a
// chunk are the layers applied to the column's bounds (swapped by a
// decreasing layer).
func column(b *expr.Bound) (ref colRef, ok bool) {
	var layers []layer
	for len(layers) <= maxLayers && b.Kind() == expr.KindCall {
		l, inner, ok := monotonicLayer(b)
		if !ok {
			break
		}
		layers = append(layers, l)
		b = inner
	}
	path, base := partition.FieldChain(b)
	if base.Kind() != expr.KindRoot || len(path) == 0 {
		return colRef{}, false
	}
	// Statistics describe leaf values: a nested struct or list has none.
	if b.DType().IsStruct() || b.DType().IsList() {
		return colRef{}, false
	}
	slices.Reverse(layers)
	return colRef{path: path, t: b.DType(), layers: layers}, true
}

// monotonicLayer recognises b as a monotonic layer over its argument inner.
func monotonicLayer(b *expr.Bound) (l layer, inner *expr.Bound, ok bool) {
	if c, isCast := b.Fn().(fn.CastFn); isCast {
		if c.Try || !monotonic(b.Arg(0).DType(), b.DType()) {
			return layer{}, nil, false
		}
		return layer{node: b}, b.Arg(0), true
	}
	f := b.Fn()
	p := fn.PropertiesOf(f)
	if p.Order != fn.OrderIncreasing && p.Order != fn.OrderDecreasing || f.NullHandling() != fn.NullPropagating ||
		f.Volatility() != fn.Immutable || p.OrderArg >= len(b.Args()) {
		return layer{}, nil, false
	}
	for i, a := range b.Args() {
		if _, isLit := a.Literal(); !isLit && i != p.OrderArg {
			return layer{}, nil, false
		}
	}
	return layer{node: b, arg: p.OrderArg, decreasing: p.Order == fn.OrderDecreasing}, b.Arg(p.OrderArg), true
}

// plain reports whether the reference is the column itself, no layer around
// it.
func (r colRef) plain() bool { return len(r.layers) == 0 }

// collect registers every column the falsifier may read.
func (b *builder) collect(n *expr.Bound) {
	stack := []*expr.Bound{n}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ref, ok := column(top); ok {
			key := strings.Join(ref.path, ".")
			if _, seen := b.index[key]; !seen {
				b.index[key] = len(b.cols)
				b.cols = append(b.cols, Column{Path: ref.path, Type: ref.t.AsNonNullable()})
			}
			continue
		}
		if top.Kind() == expr.KindLambda {
			continue // lambda bodies read elements, which have no statistics
		}
		stack = append(stack, top.Args()...)
	}
}

var errBuild = errors.New("prune: internal error building the falsifier")

func must(b *expr.Bound, err error) *expr.Bound {
	if err != nil {
		panic(fmt.Errorf("%w: %v", errBuild, err))
	}
	return b
}

// stat is one statistic of a column reference, through its layers: the
// layers applied to the column's min or max (a decreasing layer swaps
// them). A cast of a bound is a try_cast, so a bound the cast cannot hold is
// unknown (null) instead of failing; a function that fails on a bound makes
// that chunk's falsifier fail, and Skip then keeps the chunk.
func (b *builder) stat(x *expr.Bound, name string) *expr.Bound {
	ref, _ := column(x)
	if name != "null_count" {
		for _, l := range ref.layers {
			if l.decreasing && name == "min" {
				name = "max"
			} else if l.decreasing {
				name = "min"
			}
		}
	}
	s := b.columnStat(Column{Path: ref.path}, name)
	if name == "null_count" {
		// A layer propagates nulls and adds none: a null row stays null.
		return s
	}
	for _, l := range ref.layers {
		if c, ok := l.node.Fn().(fn.CastFn); ok {
			s = must(expr.NewCall(fn.TryCast(c.To.AsNonNullable()), s))
			continue
		}
		args := slices.Clone(l.node.Args())
		args[l.arg] = s
		s = must(expr.NewCall(l.node.Fn(), args...))
	}
	return s
}

func (b *builder) rowCount() *expr.Bound { return must(expr.NewCall(fn.GetItem("row_count"), b.root)) }

func call(f fn.Function, args ...*expr.Bound) *expr.Bound { return must(expr.NewCall(f, args...)) }

// dedupOr removes repeated disjuncts of an OR tree, such as the all-null
// guard every comparison on one column adds: `lo OR g OR (hi OR g)` becomes
// `lo OR g OR hi`. Disjuncts keep their first-use order.
func dedupOr(f *expr.Bound) *expr.Bound {
	if !f.IsCall(fn.IDOr) {
		return f
	}
	var parts []*expr.Bound
	stack := []*expr.Bound{f}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.IsCall(fn.IDOr) {
			stack = append(stack, n.Arg(1), n.Arg(0))
			continue
		}
		dup := false
		for _, p := range parts {
			if p.Equal(n) {
				dup = true
				break
			}
		}
		if !dup {
			parts = append(parts, n)
		}
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out = call(fn.Or, out, p)
	}
	if !out.DType().Equal(f.DType()) {
		return f // dropping a nullable part changed the type: keep the original
	}
	return out
}

// or and and combine falsifiers; nil stands for "inconclusive" (false).
func or(a, c *expr.Bound) *expr.Bound {
	switch {
	case a == nil:
		return c
	case c == nil:
		return a
	}
	return call(fn.Or, a, c)
}

func and(a, c *expr.Bound) *expr.Bound {
	if a == nil || c == nil {
		return nil
	}
	return call(fn.And, a, c)
}

// allNull is true when every row of the column is null.
func (b *builder) allNull(ref *expr.Bound) *expr.Bound {
	return call(fn.Eq, b.stat(ref, "null_count"), b.rowCount())
}

// falsify builds the falsifier of n (of NOT n when negated). nil means
// inconclusive.
func (b *builder) falsify(n *expr.Bound, negated bool) (f *expr.Bound, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok || !errors.Is(e, errBuild) {
				panic(r)
			}
			f, err = nil, e
		}
	}()
	return b.build(n, negated), nil
}

func (b *builder) build(n *expr.Bound, negated bool) *expr.Bound {
	if v, ok := n.Literal(); ok {
		// A predicate that is false or null everywhere keeps no row.
		if v.IsNull() || v.Value() == negated {
			return expr.NewLiteral(scalar.Bool(true))
		}
		return nil
	}
	if n.Kind() != expr.KindCall {
		return nil
	}
	if fn.PropertiesOf(n.Fn()).Order == fn.OrderCompare {
		f := n.Fn()
		if negated {
			if n.Arg(0).DType().IsFloat() {
				return nil
			}
			if f, _ = fn.Negate(f); f == nil {
				return nil
			}
		}
		return b.guard(b.compare(f, n.Arg(0), n.Arg(1)), n.Arg(0), n.Arg(1))
	}
	switch id := n.Fn().ID(); id {
	case fn.IDAnd, fn.IDOr:
		l, r := b.build(n.Arg(0), negated), b.build(n.Arg(1), negated)
		if (id == fn.IDAnd) != negated {
			return or(l, r)
		}
		return and(l, r)
	case fn.IDNot:
		return b.build(n.Arg(0), !negated)
	case fn.IDIsNull, fn.IDIsNotNull:
		if ref, ok := column(n.Arg(0)); ok && ref.plain() {
			if (id == fn.IDIsNull) != negated {
				return call(fn.Eq, b.stat(n.Arg(0), "null_count"), expr.NewLiteral(scalar.Int64(0)))
			}
			return b.allNull(n.Arg(0))
		}
	case fn.IDBetween:
		x, lo, hi := n.Arg(0), n.Arg(1), n.Arg(2)
		if negated {
			if x.DType().IsFloat() {
				return nil
			}
			return b.guard(and(b.compare(fn.Lt, x, lo), b.compare(fn.Gt, x, hi)), x, lo, hi)
		}
		return b.guard(or(b.compare(fn.GtEq, x, lo), b.compare(fn.LtEq, x, hi)), x, lo, hi)
	case fn.IDInList:
		if len(n.Args())-1 > maxInProbes && !b.longIn {
			b.longIn = true
			defer func() { b.longIn = false }()
		}
		var f *expr.Bound
		for i, v := range n.Args()[1:] {
			if negated {
				f = or(f, b.compare(fn.NotEq, n.Arg(0), v))
				continue
			}
			g := b.compare(fn.Eq, n.Arg(0), v)
			if g == nil {
				return nil
			}
			if i == 0 {
				f = g
			} else {
				f = and(f, g)
			}
		}
		return b.guard(f, n.Args()...)
	case fn.IDLike:
		// Only with the default escape character, which literalPrefix reads.
		if l := n.Fn().(fn.LikeFn); !l.Negated && !negated && l.Escape == 0 {
			return b.likePrefix(n.Arg(0), n.Arg(1))
		}
	}
	return nil
}

// compare falsifies `x op y` where op is a comparison and each side is a
// column or a literal.
func (b *builder) compare(op fn.Function, x, y *expr.Bound) *expr.Bound {
	_, xCol := column(x)
	_, yCol := column(y)
	_, xLit := x.Literal()
	_, yLit := y.Literal()
	switch {
	case xLit && yCol:
		flipped, _ := fn.Flip(op)
		return b.compare(flipped, y, x)
	case xCol && yLit:
		v, _ := y.Literal()
		if v.IsNull() {
			return expr.NewLiteral(scalar.Bool(true)) // x op null is never true
		}
		f := b.bounds(op.ID(), x.DType(), b.stat(x, "min"), b.stat(x, "max"), y, y)
		if op.ID() == fn.IDEq {
			f = or(f, b.probe(x, v))
		}
		return f
	case xCol && yCol:
		return b.bounds(op.ID(), x.DType(), b.stat(x, "min"), b.stat(x, "max"), b.stat(y, "min"), b.stat(y, "max"))
	}
	return nil
}

// probe is the statistic that is true when the chunk's bloom filter rules
// out every row of x = v: x a column, or one under casts that keep every
// value distinct (widening ones), v converted exactly to the column's type
// (cast to it and back to v's type gives v). nil when there is none. A
// bloom filter holds values as the file stores them: the column's values,
// never those of a cast, and a float's -0 and +0 apart (a reader probes
// both for either); NaN, which equals no bit pattern alone, is never probed.
func (b *builder) probe(x *expr.Bound, v scalar.Scalar) *expr.Bound {
	ref, ok := column(x)
	if !ok || b.index == nil || b.longIn {
		return nil
	}
	for _, l := range ref.layers {
		if _, isCast := l.node.Fn().(fn.CastFn); !isCast || !optimize.Widening(l.node.Arg(0).DType(), l.node.DType()) {
			return nil
		}
	}
	t := ref.t.AsNonNullable()
	if f, isFloat := v.Value().(float64); isFloat && f != f {
		return nil
	}
	cv, err := scalar.Cast(v, t)
	if err != nil {
		return nil
	}
	back := cv
	for _, l := range ref.layers {
		if back, err = scalar.Cast(back, l.node.DType().AsNonNullable()); err != nil {
			return nil
		}
	}
	if c, err := scalar.Compare(back, v.WithDType(back.DType())); err != nil || c != 0 {
		return nil
	}
	if f, isFloat := cv.Value().(float64); isFloat && f != f {
		return nil
	}
	col := &b.cols[b.index[strings.Join(ref.path, ".")]]
	k := slices.IndexFunc(col.Probes, func(p scalar.Scalar) bool {
		c, err := scalar.Compare(p, cv)
		return err == nil && c == 0
	})
	if k < 0 {
		if !b.discover {
			return nil // not found in the first pass: cannot happen
		}
		col.Probes = append(col.Probes, cv)
		b.probes++
		return nil
	}
	if b.discover {
		return nil
	}
	cols := must(expr.NewCall(fn.GetItem("cols"), b.root))
	s := must(expr.NewCall(fn.GetItem(col.Key()), cols))
	return must(expr.NewCall(fn.GetItem(absentField(k)), s))
}

// guard adds to the falsifier f of a comparison the chunks where a column
// operand is entirely null: a comparison with null is never true, whatever
// the bounds say (and even when they say nothing).
func (b *builder) guard(f *expr.Bound, operands ...*expr.Bound) *expr.Bound {
	seen := map[string]bool{}
	for _, o := range operands {
		ref, ok := column(o)
		if !ok || seen[strings.Join(ref.path, ".")] {
			continue
		}
		seen[strings.Join(ref.path, ".")] = true
		f = or(f, b.allNull(o))
	}
	return f
}

// bounds falsifies x op y from x ∈ [xmin, xmax] and y ∈ [ymin, ymax].
func (b *builder) bounds(op string, t dtype.DType, xmin, xmax, ymin, ymax *expr.Bound) *expr.Bound {
	switch op {
	case fn.IDEq:
		return or(call(fn.Gt, xmin, ymax), call(fn.Lt, xmax, ymin))
	case fn.IDNotEq:
		if t.IsFloat() {
			return nil
		}
		// Every x equals every y only when both are one and the same value.
		return and(and(call(fn.Eq, xmin, xmax), call(fn.Eq, ymin, ymax)), call(fn.Eq, xmin, ymin))
	case fn.IDLt:
		return call(fn.GtEq, xmin, ymax)
	case fn.IDLtEq:
		return call(fn.Gt, xmin, ymax)
	case fn.IDGt:
		return call(fn.LtEq, xmax, ymin)
	case fn.IDGtEq:
		return call(fn.Lt, xmax, ymin)
	}
	return nil
}

// likePrefix falsifies x LIKE 'p%' (and x LIKE 'p', an equality).
func (b *builder) likePrefix(x, pattern *expr.Bound) *expr.Bound {
	if ref, ok := column(x); !ok || !ref.plain() {
		return nil
	}
	v, isLit := pattern.Literal()
	if !isLit || v.IsNull() {
		return nil
	}
	p, _ := v.Value().(string)
	prefix, exact, ok := literalPrefix(p)
	if !ok || prefix == "" {
		return nil
	}
	lit := expr.NewLiteral(scalar.String(prefix))
	if exact {
		return b.guard(b.compare(fn.Eq, x, lit), x)
	}
	f := call(fn.Lt, b.stat(x, "max"), lit)
	if next, ok := successor(prefix); ok {
		f = or(f, call(fn.GtEq, b.stat(x, "min"), expr.NewLiteral(scalar.String(next))))
	}
	return b.guard(f, x)
}

// literalPrefix splits a LIKE pattern of the form 'prefix%' (or a pattern
// without wildcards, exact = true). ok is false for other shapes.
func literalPrefix(p string) (prefix string, exact, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return "", false, false
			}
			i++
			sb.WriteByte(p[i])
		case '_':
			return "", false, false
		case '%':
			if strings.Trim(p[i:], "%") != "" {
				return "", false, false
			}
			return sb.String(), false, true
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true, true
}

// successor is the smallest string greater than every string with prefix p
// in byte order, when there is one.
func successor(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}
