package partition

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// ErrRoot is the cause of ByField's errors about the scope's root: it must
// be a non-nullable struct, and the expression must have been bound against
// it. Test with errors.Is.
var ErrRoot = errors.New("cannot partition by field")

// Partition is the part of an expression that one root field computes.
type Partition struct {
	// Field is the name of the root field.
	Field string
	// Expr is evaluated with the field's column as its input: its $ has the
	// field's dtype. When the field feeds several sub-expressions, Expr packs
	// them into a struct with fields e0, e1, … in order of first use.
	Expr *expr.Bound
	// Var is the variable through which Partitioned.Root reads Expr's result.
	Var string
}

// Partitioned is an expression split by root field.
type Partitioned struct {
	// Partitions holds one partition per root field the expression reads, in
	// the order of the root struct's fields.
	Partitions []Partition
	// Root combines the partitions' results: it reads them through the
	// variables Partition.Var and never reads $ itself. It has exactly the
	// dtype of the expression that was partitioned.
	Root *expr.Bound
	// Scope is the scope Root is bound in: the scope given to ByField with
	// one more frame binding each Partition.Var to the dtype of its Expr.
	Scope expr.Scope
}

// String prints the partitions, one per line as `field: expr  ($var)`, and
// then the root as `root: expr`.
func (p *Partitioned) String() string {
	var b strings.Builder
	for _, part := range p.Partitions {
		fmt.Fprintf(&b, "%s: %s  ($%s)\n", dtype.QuoteFieldName(part.Field), part.Expr, dtype.QuoteFieldName(part.Var))
	}
	fmt.Fprintf(&b, "root: %s\n", p.Root)
	return b.String()
}

// Partition returns the partition of the named field.
func (p *Partitioned) Partition(field string) (Partition, bool) {
	for _, part := range p.Partitions {
		if part.Field == field {
			return part, true
		}
	}
	return Partition{}, false
}

// ByField splits b, bound against scope, by the fields of the root struct.
//
// Each root field the expression reads gets a partition rooted at that
// field, holding the largest sub-expressions that read only that field; the
// root expression reads the partitions' results through variables. See the
// package doc for the rules (lambdas, conditional arguments, whole-root
// uses, naming).
//
// The scope's root must be a non-nullable struct: a field's column does not
// carry the nulls of a nullable parent, so a partition could not see them.
func ByField(b *expr.Bound, scope expr.Scope) (*Partitioned, error) {
	if b == nil {
		return nil, errors.New("partition: nil expression")
	}
	rt := scope.Root()
	if !rt.IsStruct() {
		return nil, fmt.Errorf("partition: %w: the root dtype is %s, not a struct", ErrRoot, rt)
	}
	if rt.Nullable() {
		return nil, fmt.Errorf("partition: %w: the root struct %s is nullable, and a field's column does not carry the struct's nulls", ErrRoot, rt)
	}
	p := &partitioner{root: rt, index: map[string]int{}, lambdaNames: map[string]bool{}, seen: map[*expr.Bound]int{}}
	for i, f := range rt.Fields() {
		p.index[f.Name] = i
	}
	p.cands = make([][]*expr.Bound, len(rt.Fields()))
	p.hashes = make([]map[uint64][]int, len(rt.Fields()))
	info, err := p.analyze(b)
	if err != nil {
		return nil, err
	}
	p.collect(b, info, 0, false)
	parts, refs, frame, types, err := p.layout(scope)
	if err != nil {
		return nil, err
	}
	p.refs = refs
	root, err := p.build(b, info, 0, false)
	if err != nil {
		return nil, err
	}
	return &Partitioned{Partitions: parts, Root: root, Scope: scope.Push(frame, types)}, nil
}

// Field sets: none, one field (its index), or several.
const (
	noField    = -1
	manyFields = -2
)

func mergeField(a, b int) int {
	switch {
	case a == noField:
		return b
	case b == noField || a == b:
		return a
	}
	return manyFields
}

// info is what the analysis learns about one position of the tree. The info
// tree mirrors the bound tree, so a subtree shared between two positions
// (with different lambdas around it) is judged at each position on its own.
type info struct {
	field    int  // the root field read, noField or manyFields
	whole    bool // reads $ itself, not through a field
	fallible bool // some node may fail at run time
	// minBind is the lambda depth binding the outermost variable the subtree
	// reads: 0 for a variable of the caller's scope, k for a parameter of the
	// k-th enclosing lambda, math.MaxInt when it reads no variable. A node at
	// lambda depth d is free of outside variables when minBind > d.
	minBind int
	kids    []*info
}

type partitioner struct {
	root  dtype.DType
	index map[string]int // field name → index

	lambdas     [][]string // parameters of the enclosing lambdas, innermost last
	lambdaNames map[string]bool

	// Candidates per field, deduplicated: cands[f] in order of first use,
	// hashes[f] from structural hash to indexes into cands[f], and seen the
	// index of each candidate node already met (a shared node is hashed
	// once).
	cands  [][]*expr.Bound
	hashes []map[uint64][]int
	seen   map[*expr.Bound]int
	// emitted records, in walk order, which candidate each emission was.
	emitted []int
	cursor  int
	// refs[f][k] is the root's reference to candidate k of field f.
	refs [][]*expr.Bound
}

// analyze computes the info tree of b (post-order, one visit per position).
// Errors and lambdas are handled in helpers so that this recursive frame,
// repeated once per level of a deep tree, stays small.
func (p *partitioner) analyze(b *expr.Bound) (*info, error) {
	switch b.Kind() {
	case expr.KindRoot:
		if err := p.checkRoot(b); err != nil {
			return nil, err
		}
		return wholeRootKids[0], nil
	case expr.KindVar:
		return &info{field: noField, minBind: p.bindDepth(b.Name())}, nil
	case expr.KindLambda:
		return p.analyzeLambda(b)
	}
	if f, ok := p.fieldRef(b); ok && p.checkRoot(b.Arg(0)) == nil {
		return &info{field: f, minBind: math.MaxInt, kids: wholeRootKids}, nil
	}
	in := &info{field: noField, minBind: math.MaxInt, fallible: b.Fn().Fallible()}
	in.kids = make([]*info, len(b.Args()))
	for i, a := range b.Args() {
		k, err := p.analyze(a)
		if err != nil {
			return nil, err
		}
		in.kids[i] = k
		in.field = mergeField(in.field, k.field)
		in.whole = in.whole || k.whole
		in.fallible = in.fallible || k.fallible
		in.minBind = min(in.minBind, k.minBind)
	}
	return in, nil
}

// checkRoot reports a $ bound against another root than the scope's.
func (p *partitioner) checkRoot(root *expr.Bound) error {
	if root.DType().Equal(p.root) {
		return nil
	}
	return fmt.Errorf("partition: %w: the expression was bound against %s, the scope's root is %s", ErrRoot, root.DType(), p.root)
}

// analyzeLambda is analyze for a lambda: its body is analyzed with the
// parameters in scope.
func (p *partitioner) analyzeLambda(b *expr.Bound) (*info, error) {
	p.lambdas = append(p.lambdas, b.Params())
	for _, n := range b.Params() {
		p.lambdaNames[n] = true
	}
	body, err := p.analyze(b.Body())
	p.lambdas = p.lambdas[:len(p.lambdas)-1]
	if err != nil {
		return nil, err
	}
	in := *body
	in.kids = []*info{body}
	return &in, nil
}

// wholeRootKids is the info of the child of $.f: a use of $ itself. It is
// shared, never modified.
var wholeRootKids = []*info{{field: manyFields, whole: true, minBind: math.MaxInt}}

// fieldRef reports whether b is $.f for a root field f.
func (p *partitioner) fieldRef(b *expr.Bound) (int, bool) {
	g, ok := b.Fn().(fn.GetItemFn)
	if !ok || b.Arg(0).Kind() != expr.KindRoot {
		return 0, false
	}
	i, ok := p.index[g.Field]
	return i, ok
}

// bindDepth is the depth of the lambda defining variable name, 0 when the
// caller's scope defines it.
func (p *partitioner) bindDepth(name string) int {
	for d := len(p.lambdas) - 1; d >= 0; d-- {
		for _, n := range p.lambdas[d] {
			if n == name {
				return d + 1
			}
		}
	}
	return 0
}

// movable reports whether the node at a position with info in, at lambda
// depth depth, goes to a partition as a whole: it reads exactly one field,
// no variable bound outside it, not $ itself, and — where it is evaluated
// only for some rows (cond) — it cannot fail, since its partition evaluates
// it for every row.
func movable(b *expr.Bound, in *info, depth int, cond bool) bool {
	return b.Kind() == expr.KindCall && in.field >= 0 && !in.whole && in.minBind > depth && (!cond || !in.fallible)
}

// conditional reports whether argument i of the call b is evaluated only
// for some rows: CASE values and later conditions, coalesce's later
// arguments, lambda bodies.
func conditional(b *expr.Bound, i int) bool {
	if b.Kind() != expr.KindCall {
		return false
	}
	switch f := b.Fn().(type) {
	case fn.CaseWhenFn:
		return i > 0
	case fn.HigherOrder:
		return f.IsLambdaArg(i)
	}
	switch b.Fn().ID() {
	case fn.IDCoalesce, fn.IDFillNull:
		return i > 0
	}
	return false
}

// kidDepth is the lambda depth of the children of b, which sits at depth.
func kidDepth(b *expr.Bound, depth int) int {
	if b.Kind() == expr.KindLambda {
		return depth + 1
	}
	return depth
}

// collect finds the maximal movable sub-expressions, top-down, and records
// them as candidates of their field.
func (p *partitioner) collect(b *expr.Bound, in *info, depth int, cond bool) {
	if movable(b, in, depth, cond) {
		p.emit(in.field, b)
		return
	}
	if b.Kind() == expr.KindRoot {
		p.collectWholeRoot(b)
		return
	}
	d := kidDepth(b, depth)
	for i, k := range b.Args() {
		p.collect(k, in.kids[i], d, cond || conditional(b, i))
	}
}

// collectWholeRoot records every field as a candidate: a use of $ itself
// becomes the pack of all of them.
func (p *partitioner) collectWholeRoot(root *expr.Bound) {
	for i, f := range p.root.Fields() {
		ref, _ := expr.NewCall(fn.GetItem(f.Name), root) // the field exists
		p.emit(i, ref)
	}
}

func (p *partitioner) emit(f int, b *expr.Bound) {
	if k, ok := p.seen[b]; ok {
		p.emitted = append(p.emitted, k)
		return
	}
	h := expr.Hash(b.Expr())
	if p.hashes[f] == nil {
		p.hashes[f] = map[uint64][]int{}
	}
	for _, k := range p.hashes[f][h] {
		if p.cands[f][k].Equal(b) {
			p.seen[b] = k
			p.emitted = append(p.emitted, k)
			return
		}
	}
	k := len(p.cands[f])
	p.seen[b] = k
	p.cands[f] = append(p.cands[f], b)
	p.hashes[f][h] = append(p.hashes[f][h], k)
	p.emitted = append(p.emitted, k)
}

// layout builds the partitions from the candidates, names their variables,
// and makes the root's reference to each candidate.
func (p *partitioner) layout(scope expr.Scope) (parts []Partition, refs [][]*expr.Bound, names []string, types []dtype.DType, err error) {
	taken := map[string]bool{}
	for _, v := range scope.Vars() {
		taken[v] = true
	}
	for n := range p.lambdaNames {
		taken[n] = true
	}
	refs = make([][]*expr.Bound, len(p.cands))
	for f, cands := range p.cands {
		if len(cands) == 0 {
			continue
		}
		field := p.root.Fields()[f]
		name := freshName("p_"+field.Name, taken)
		rooted := make([]*expr.Bound, len(cands))
		for k, c := range cands {
			if rooted[k], err = reroot(c, &field); err != nil {
				return
			}
		}
		var pe *expr.Bound
		refs[f] = make([]*expr.Bound, len(cands))
		if len(cands) == 1 {
			pe = rooted[0]
			refs[f][0] = expr.NewVar(name, pe.DType())
		} else {
			labels := make([]string, len(cands))
			for k := range labels {
				labels[k] = "e" + strconv.Itoa(k)
			}
			pack := fn.Pack(labels...)
			if pe, err = expr.NewCall(pack, rooted...); err != nil {
				return
			}
			v := expr.NewVar(name, pe.DType())
			for k := range cands {
				if refs[f][k], err = expr.NewCall(fn.GetItem(labels[k]), v); err != nil {
					return
				}
			}
		}
		parts = append(parts, Partition{Field: field.Name, Expr: pe, Var: name})
		names = append(names, name)
		types = append(types, pe.DType())
	}
	return parts, refs, names, types, nil
}

// freshName is base, or base_1, base_2, … — the first not taken, which it
// then takes.
func freshName(base string, taken map[string]bool) string {
	name := base
	for i := 1; taken[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	taken[name] = true
	return name
}

// reroot rewrites a candidate of field f so that the field is its $: every
// $.f becomes $ of the field's dtype. A candidate reads no other part of
// the root.
//
// The field's value has the dtype $.f had (the root is not nullable), so
// retyping cannot fail; an error here means a broken invariant.
func reroot(b *expr.Bound, f *dtype.Field) (*expr.Bound, error) {
	if b.Kind() == expr.KindCall {
		if g, ok := b.Fn().(fn.GetItemFn); ok && g.Field == f.Name && b.Arg(0).Kind() == expr.KindRoot {
			return expr.NewRoot(f.Type), nil
		}
	}
	if len(b.Args()) == 0 {
		return b, nil
	}
	args := make([]*expr.Bound, len(b.Args()))
	for i, a := range b.Args() {
		var err error
		if args[i], err = reroot(a, f); err != nil {
			return nil, err
		}
	}
	out, err := b.WithArgs(args)
	if err != nil {
		return nil, rerootError(b, f, err)
	}
	return out, nil
}

func rerootError(b *expr.Bound, f *dtype.Field, err error) error {
	return fmt.Errorf("partition: rooting %s at field %s: %w", expr.Shorten(b.String()), dtype.QuoteFieldName(f.Name), err)
}

// build rewrites b for the root expression: the decisions of collect, in the
// same order, with each movable sub-expression replaced by its reference.
func (p *partitioner) build(b *expr.Bound, in *info, depth int, cond bool) (*expr.Bound, error) {
	if movable(b, in, depth, cond) {
		return p.next(in.field), nil
	}
	if b.Kind() == expr.KindRoot {
		return p.buildWholeRoot()
	}
	if len(b.Args()) == 0 {
		return b, nil
	}
	args := make([]*expr.Bound, len(b.Args()))
	d := kidDepth(b, depth)
	for i, k := range b.Args() {
		var err error
		if args[i], err = p.build(k, in.kids[i], d, cond || conditional(b, i)); err != nil {
			return nil, err
		}
	}
	return b.WithArgs(args)
}

// buildWholeRoot is what replaces a use of $ itself in the root: the pack
// of every field's reference.
func (p *partitioner) buildWholeRoot() (*expr.Bound, error) {
	fields := p.root.Fields()
	names := make([]string, len(fields))
	vals := make([]*expr.Bound, len(fields))
	for i, f := range fields {
		names[i] = f.Name
		vals[i] = p.next(i)
	}
	return expr.NewCall(fn.Pack(names...), vals...)
}

// next is the reference for the next emission of field f.
func (p *partitioner) next(f int) *expr.Bound {
	k := p.emitted[p.cursor]
	p.cursor++
	return p.refs[f][k]
}
