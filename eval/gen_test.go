package eval

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The generator of the differential test: random data over a fixed schema,
// with nulls and extreme values, and random well-typed bound expressions
// over it, built with expr.NewCall so they type-check by construction.

// diffSchema is the root type of the differential test.
const diffSchema = `struct<i8: i8?, i16: i16?, i32: i32?, i64: i64?, n64: i64, u8: u8?, u32: u32?, u64: u64?,` +
	` f32: f32?, f64: f64?, b: bool?, d: decimal(9,2)?, d2: decimal(18,4)?, s: utf8?, s2: utf8?, dt: date?,` +
	` xs: list<i32?>?, fx: fixed_size_list<i16?, 3>?, st: struct<x: i32?, y: utf8?>?>`

// gen draws random values and expressions.
type gen struct {
	r    *rand.Rand
	root dtype.DType
	// funcs are the functions with kernels or evaluation rules that may be
	// generated; a function whose kernel is missing is left out.
	funcs map[string]bool
	vars  []genVar // lambda parameters in scope, innermost last
	next  int      // counter for fresh lambda parameter names
}

type genVar struct {
	name string
	t    dtype.DType
}

func newGen(seed uint64, root dtype.DType, funcs map[string]bool) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), root: root, funcs: funcs}
}

func (g *gen) intn(n int) int        { return g.r.IntN(n) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// --- values ---

var stringAlphabet = []string{"a", "b", "A", "B", "z", "%", "_", "\\", "é", "É", "ß", "K", "k", "\u212a", " ", "0", "1", "-", ".", "e", "x"}

func (g *gen) str() string {
	var sb strings.Builder
	for range g.intn(6) {
		sb.WriteString(stringAlphabet[g.intn(len(stringAlphabet))])
	}
	return sb.String()
}

// likePattern is a LIKE pattern, usually well-formed.
func (g *gen) likePattern() string {
	var sb strings.Builder
	for range g.intn(5) {
		switch g.intn(6) {
		case 0:
			sb.WriteString("%")
		case 1:
			sb.WriteString("_")
		case 2:
			sb.WriteString("\\" + stringAlphabet[g.intn(len(stringAlphabet))])
		default:
			sb.WriteString(stringAlphabet[g.intn(len(stringAlphabet))])
		}
	}
	if g.chance(0.05) {
		sb.WriteString("\\") // malformed: an invalid argument
	}
	return sb.String()
}

// value is a random non-null value of t (nullability ignored), biased to
// extremes.
func (g *gen) value(t dtype.DType) scalar.Scalar {
	t = t.AsNonNullable()
	switch t.Kind() {
	case dtype.KindBool:
		return scalar.Bool(g.chance(0.5))
	case dtype.KindPrimitive:
		p := t.PType()
		bits := p.BitWidth()
		switch {
		case p.IsSigned():
			lo, hi := -int64(1)<<(bits-1), int64(uint64(1)<<(bits-1)-1)
			choices := []int64{lo, hi, lo + 1, hi - 1, -1, 0, 1, 2, -2, 3, 7, -7, 100}
			if g.chance(0.6) {
				return mk(t, choices[g.intn(len(choices))])
			}
			return mk(t, lo+int64(g.r.Uint64()>>(64-bits)))
		case p.IsUnsigned():
			hi := uint64(math.MaxUint64) >> (64 - bits)
			choices := []uint64{0, 1, 2, 3, 7, hi, hi - 1, hi / 2, 100}
			if g.chance(0.6) {
				return mk(t, min(choices[g.intn(len(choices))], hi))
			}
			return mk(t, g.r.Uint64()>>(64-bits))
		default:
			choices := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, -2.5, 0.1, math.NaN(), math.Inf(1), math.Inf(-1),
				math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1e10, 3}
			if p == dtype.F64 {
				choices = append(choices, math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1e300)
			}
			v := choices[g.intn(len(choices))]
			if g.chance(0.3) {
				v = g.r.NormFloat64() * 1000
			}
			if p == dtype.F32 {
				v = float64(float32(v))
			}
			return mk(t, v)
		}
	case dtype.KindDecimal:
		limit := new(big.Int).Sub(pow10(t.Precision()), big.NewInt(1))
		var v *big.Int
		switch g.intn(5) {
		case 0:
			v = limit
		case 1:
			v = new(big.Int).Neg(limit)
		case 2:
			v = big.NewInt(int64(g.intn(2001) - 1000))
		default:
			v = new(big.Int).Lsh(new(big.Int).SetUint64(g.r.Uint64()), 64)
			v.Add(v, new(big.Int).SetUint64(g.r.Uint64()))
			v.Mod(v, limit)
			if g.chance(0.5) {
				v.Neg(v)
			}
		}
		return mk(t, decimal128.FromBigInt(v))
	case dtype.KindUtf8:
		return mk(t, g.str())
	case dtype.KindBinary:
		return mk(t, g.str())
	case dtype.KindExtension:
		if t.ExtID() == dtype.ExtDate {
			choices := []int64{0, -1, 1, 10957, 19000, -719528, 2932896, math.MaxInt32, math.MinInt32}
			if g.chance(0.5) {
				return mk(t, choices[g.intn(len(choices))])
			}
			return mk(t, int64(g.intn(40000)-10000))
		}
	case dtype.KindList, dtype.KindFixedSizeList:
		n := g.intn(5)
		if t.Kind() == dtype.KindFixedSizeList {
			n = t.Size()
		}
		elems := make([]scalar.Scalar, n)
		for i := range elems {
			elems[i] = g.maybeNull(t.Elem())
		}
		return scalar.List(t, elems)
	case dtype.KindStruct:
		fs := make([]scalar.Scalar, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = g.maybeNull(f.Type)
		}
		return scalar.Struct(t, fs)
	}
	panic(fmt.Sprintf("gen: no values of %s", t))
}

// maybeNull is a value of t, null now and then when t is nullable.
func (g *gen) maybeNull(t dtype.DType) scalar.Scalar {
	if t.Nullable() && g.chance(0.2) {
		return scalar.Null(t)
	}
	return g.value(t).WithDType(t)
}

// batch is a random struct array of the root type with n rows.
func (g *gen) batch(mem memory.Allocator, n int) (arrow.Array, error) {
	bld := array.NewBuilder(mem, dtype.ToArrow(g.root))
	defer bld.Release()
	for range n {
		if err := scalar.Append(bld, g.value(g.root)); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// --- expressions ---

// Types the generator produces expressions of.
var genScalarTypes = []string{"i8", "i16", "i32", "i64", "u8", "u32", "u64", "f32", "f64", "bool", "decimal(9,2)", "decimal(18,4)", "utf8", "date"}

func (g *gen) anyType() dtype.DType {
	switch g.intn(12) {
	case 0:
		return dtype.List(dtype.Primitive(dtype.I32, true), true)
	case 1:
		return g.root.Fields()[g.root.FieldIndex("st")].Type
	}
	return mustParse(genScalarTypes[g.intn(len(genScalarTypes))])
}

func mustParse(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// call builds a call, panicking on a typing error (a generator bug).
func (g *gen) call(f fn.Function, args ...*expr.Bound) *expr.Bound {
	b, err := expr.NewCall(f, args...)
	if err != nil {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = a.String() + " :: " + a.DType().String()
		}
		panic(fmt.Sprintf("gen: %s(%s): %v", f.ID(), strings.Join(parts, ", "), err))
	}
	return b
}

func (g *gen) ok(id string) bool { return g.funcs[id] }

// expr is a random expression whose type is t (nullability aside).
func (g *gen) expr(t dtype.DType, depth int) *expr.Bound {
	if depth <= 0 || g.chance(0.2) {
		return g.leaf(t)
	}
	for range 20 {
		if b := g.compound(t, depth-1); b != nil {
			return b
		}
	}
	return g.leaf(t)
}

// leaf is a column, a variable or a literal of type t.
func (g *gen) leaf(t dtype.DType) *expr.Bound {
	var cands []*expr.Bound
	for _, f := range g.root.Fields() {
		if f.Type.EqualIgnoreNullability(t) {
			cands = append(cands, g.call(fn.GetItem(f.Name), expr.NewRoot(g.root)))
		}
	}
	seen := map[string]bool{}
	for i := len(g.vars) - 1; i >= 0; i-- {
		v := g.vars[i]
		if seen[v.name] {
			continue // shadowed by an inner parameter
		}
		seen[v.name] = true
		if v.t.EqualIgnoreNullability(t) {
			cands = append(cands, expr.NewVar(v.name, v.t), expr.NewVar(v.name, v.t))
		}
	}
	if len(cands) > 0 && g.chance(0.75) {
		return cands[g.intn(len(cands))]
	}
	if g.chance(0.1) {
		return expr.NewLiteral(scalar.Null(t))
	}
	return expr.NewLiteral(g.value(t))
}

// castable are the types a cast to t may come from in the generator.
func (g *gen) castFrom(t dtype.DType) dtype.DType {
	for range 10 {
		from := g.anyType()
		if fn.CanCast(from, t) && !from.IsStruct() && !from.IsList() {
			return from
		}
	}
	return t
}

// compound is a call producing t, or nil when the chosen production does
// not fit t.
func (g *gen) compound(t dtype.DType, depth int) *expr.Bound {
	boolT := dtype.Bool(true)
	switch g.intn(14) {
	case 0: // CASE
		n := 1 + g.intn(2)
		var args []*expr.Bound
		for range n {
			args = append(args, g.expr(boolT, depth), g.expr(t, depth))
		}
		hasElse := g.chance(0.6)
		if hasElse {
			args = append(args, g.expr(t, depth))
		}
		return g.call(fn.CaseWhen(hasElse), args...)
	case 1: // coalesce, fill_null
		if g.chance(0.3) {
			return g.call(fn.FillNull, g.expr(t, depth), g.expr(t, depth))
		}
		args := []*expr.Bound{g.expr(t, depth)}
		for range 1 + g.intn(2) {
			args = append(args, g.expr(t, depth))
		}
		return g.call(fn.Coalesce, args...)
	case 2: // cast, try_cast
		if t.IsList() || t.IsStruct() || !g.ok("cast") {
			return nil
		}
		from := g.castFrom(t)
		if g.chance(0.4) {
			return g.call(fn.TryCast(t.AsNonNullable()), g.expr(from, depth))
		}
		return g.call(fn.Cast(t.AsNonNullable()), g.expr(from, depth))
	case 3: // struct field, select, merge
		st := g.root.Fields()[g.root.FieldIndex("st")].Type
		var field string
		for _, f := range st.Fields() {
			if f.Type.EqualIgnoreNullability(t) {
				field = f.Name
			}
		}
		if field == "" {
			if t.EqualIgnoreNullability(st) && g.ok("pack") {
				return g.call(fn.Pack("x", "y"), g.expr(st.Fields()[0].Type, depth), g.expr(st.Fields()[1].Type, depth))
			}
			return nil
		}
		src := g.expr(st, depth)
		switch {
		case g.chance(0.3) && g.ok("select"):
			src = g.call(fn.Select(field), src)
		case g.chance(0.3) && g.ok("merge") && g.ok("pack"):
			src = g.call(fn.Merge, src, g.call(fn.Pack(field), g.expr(t, depth)))
		}
		return g.call(fn.GetItem(field), src)
	case 4: // list_element
		if !g.ok("list_element") {
			return nil
		}
		list := g.listOf(t, depth)
		if list == nil {
			return nil
		}
		return g.call(fn.ListElement, list, g.expr(mustParse([]string{"i64", "i32", "i8", "u8"}[g.intn(4)]), depth))
	}
	switch {
	case t.IsBool():
		return g.boolExpr(depth)
	case t.IsInt() || t.IsFloat():
		return g.numeric(t, depth)
	case t.IsDecimal():
		return g.decimal(t, depth)
	case t.IsUtf8():
		if g.chance(0.1) {
			return g.temporalCall(t, depth) // reference_temporal_test.go
		}
		return g.stringExpr(depth)
	case t.IsList():
		return g.listExpr(t, depth)
	case t.ExtID() == dtype.ExtDate:
		return g.temporalCall(t, depth)
	}
	return nil
}

func (g *gen) numeric(t dtype.DType, depth int) *expr.Bound {
	switch g.intn(7) {
	case 6:
		if g.chance(0.1) {
			return g.temporalEpochCall(t, depth) // reference_temporal_epoch_test.go
		}
		if g.chance(0.4) {
			return g.temporalCall(t, depth) // reference_temporal_test.go
		}
		return g.mathCall(t, depth) // reference_math_test.go
	case 0:
		if t.PType() == dtype.I64 {
			if g.chance(0.2) {
				return g.stringCodecCall(t, depth) // reference_string_codec_test.go
			}
			switch g.intn(3) {
			case 0:
				if g.ok("length") {
					return g.call(fn.Length, g.expr(dtype.Utf8(true), depth))
				}
			case 1:
				if g.ok("byte_length") {
					return g.call(fn.ByteLength, g.expr(dtype.Utf8(true), depth))
				}
			default:
				if g.ok("list_length") {
					return g.call(fn.ListLength, g.anyList(depth))
				}
			}
		}
		if t.PType() == dtype.F64 && g.ok("div") {
			d := g.decimalType()
			return g.call(fn.Div, g.expr(d, depth), g.expr(g.decimalType(), depth))
		}
		return nil
	case 1:
		f := []fn.Function{fn.Neg, fn.Abs}[g.intn(2)]
		if !g.ok(f.ID()) || (f == fn.Neg && t.PType().IsUnsigned()) {
			return nil
		}
		return g.call(f, g.expr(t, depth))
	}
	f := []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Div, fn.Mod}[g.intn(5)]
	if !g.ok(f.ID()) {
		return nil
	}
	return g.call(f, g.expr(t, depth), g.expr(t, depth))
}

func (g *gen) decimalType() dtype.DType {
	return mustParse([]string{"decimal(9,2)", "decimal(18,4)"}[g.intn(2)])
}

// decimal is decimal arithmetic cast back to t when its type differs.
func (g *gen) decimal(t dtype.DType, depth int) *expr.Bound {
	if g.intn(7) == 0 {
		return g.mathDecimal(t, depth) // reference_math_test.go
	}
	f := []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Mod, fn.Neg, fn.Abs}[g.intn(6)]
	if !g.ok(f.ID()) {
		return nil
	}
	var b *expr.Bound
	if f == fn.Neg || f == fn.Abs {
		b = g.call(f, g.expr(t, depth))
	} else {
		b = g.call(f, g.expr(g.decimalType(), depth), g.expr(g.decimalType(), depth))
	}
	if b.DType().EqualIgnoreNullability(t) {
		return b
	}
	if !g.ok("cast") {
		return nil
	}
	return g.call(fn.Cast(t.AsNonNullable()), b)
}

func (g *gen) orderedType() dtype.DType {
	for {
		t := mustParse(genScalarTypes[g.intn(len(genScalarTypes))])
		if fn.IsOrdered(t) {
			return t
		}
	}
}

func (g *gen) boolExpr(depth int) *expr.Bound {
	boolT := dtype.Bool(true)
	switch g.intn(10) {
	case 0, 1:
		f := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom}[g.intn(8)]
		if !g.ok(f.ID()) {
			return nil
		}
		at := g.orderedType()
		return g.call(f, g.expr(at, depth), g.expr(at, depth))
	case 2:
		if g.chance(0.15) {
			return g.floatTestCall(depth) // reference_math_more_test.go
		}
		if g.chance(0.2) {
			// greatest and least of bools, false < true.
			f := []fn.Function{fn.Greatest, fn.Least}[g.intn(2)]
			args := []*expr.Bound{g.expr(boolT, depth)}
			for range g.intn(3) {
				args = append(args, g.expr(boolT, depth))
			}
			return g.call(f, args...)
		}
		f := []fn.Function{fn.IsNull, fn.IsNotNull}[g.intn(2)]
		if !g.ok(f.ID()) {
			return nil
		}
		return g.call(f, g.expr(g.anyType(), depth))
	case 3:
		at := g.orderedType()
		if g.chance(0.5) && g.ok("between") {
			return g.call(fn.Between, g.expr(at, depth), g.expr(at, depth), g.expr(at, depth))
		}
		if !g.ok("in_list") {
			return nil
		}
		args := []*expr.Bound{g.expr(at, depth)}
		for range 1 + g.intn(3) {
			args = append(args, g.expr(at, depth))
		}
		return g.call(fn.InList, args...)
	case 4, 5:
		if g.chance(0.3) && g.ok("not") {
			return g.call(fn.Not, g.expr(boolT, depth))
		}
		f := []fn.Function{fn.And, fn.Or}[g.intn(2)]
		if !g.ok(f.ID()) {
			return nil
		}
		return g.call(f, g.expr(boolT, depth), g.expr(boolT, depth))
	case 6:
		f := fn.Like(g.chance(0.3), g.chance(0.4))
		if !g.ok(f.ID()) {
			return nil
		}
		var pat *expr.Bound
		if g.chance(0.7) {
			pat = expr.NewLiteral(scalar.String(g.likePattern()))
		} else {
			pat = g.expr(dtype.Utf8(true), depth)
		}
		return g.call(f, g.expr(dtype.Utf8(true), depth), pat)
	case 7:
		f := []fn.Function{fn.StartsWith, fn.EndsWith, fn.Contains}[g.intn(3)]
		if !g.ok(f.ID()) {
			return nil
		}
		return g.call(f, g.expr(dtype.Utf8(true), depth), g.expr(dtype.Utf8(true), depth))
	case 8:
		if !g.ok("list_contains") {
			return nil
		}
		list := g.anyList(depth)
		return g.call(fn.ListContains, list, g.expr(list.DType().Elem(), depth))
	}
	f := []fn.Function{fn.ListAny, fn.ListAll}[g.intn(2)]
	list := g.anyList(depth)
	return g.call(f, list, g.lambda(list.DType().Elem(), boolT, depth))
}

func (g *gen) stringExpr(depth int) *expr.Bound {
	s := dtype.Utf8(true)
	switch g.intn(4) {
	case 0:
		f := []fn.Function{fn.Lower, fn.Upper}[g.intn(2)]
		if !g.ok(f.ID()) {
			return nil
		}
		return g.call(f, g.expr(s, depth))
	case 1:
		if !g.ok("concat") {
			return nil
		}
		args := []*expr.Bound{g.expr(s, depth)}
		for range g.intn(3) {
			args = append(args, g.expr(s, depth))
		}
		if g.intn(3) == 0 && g.ok("string_concat") {
			return g.call(fn.StringConcat, args[0], g.expr(s, depth))
		}
		return g.call(fn.Concat, args...)
	case 2:
		if g.chance(0.2) {
			return g.stringCodecCall(s, depth) // reference_string_codec_test.go
		}
		if g.chance(0.1) {
			return g.temporalEpochCall(s, depth) // reference_temporal_epoch_test.go
		}
		if !g.ok("substring") {
			return nil
		}
		it := mustParse([]string{"i64", "i32", "i8", "u8"}[g.intn(4)])
		args := []*expr.Bound{g.expr(s, depth), g.expr(it, depth)}
		if g.chance(0.6) {
			args = append(args, g.expr(it, depth))
		}
		return g.call(fn.Substring, args...)
	}
	if !g.ok("cast") {
		return nil
	}
	return g.call(fn.Cast(dtype.Utf8(false)), g.expr(g.castFrom(s), depth))
}

// anyList is a list-valued expression of any element type.
func (g *gen) anyList(depth int) *expr.Bound {
	switch g.intn(4) {
	case 0:
		return g.call(fn.GetItem("fx"), expr.NewRoot(g.root))
	case 1:
		return g.listExpr(dtype.List(g.anyType(), true), depth)
	}
	return g.expr(dtype.List(dtype.Primitive(dtype.I32, true), true), depth)
}

// listOf is a list expression whose elements have type t, or nil.
func (g *gen) listOf(t dtype.DType, depth int) *expr.Bound {
	if t.IsInt() && t.PType() == dtype.I16 && g.chance(0.5) {
		return g.call(fn.GetItem("fx"), expr.NewRoot(g.root))
	}
	return g.expr(dtype.List(t, true), depth)
}

// listExpr is a list<elem> built by a lambda function.
func (g *gen) listExpr(t dtype.DType, depth int) *expr.Bound {
	elem := t.Elem()
	var src *expr.Bound
	switch {
	case g.chance(0.3):
		src = g.call(fn.GetItem("fx"), expr.NewRoot(g.root))
	case g.chance(0.5):
		src = g.call(fn.GetItem("xs"), expr.NewRoot(g.root))
	default:
		src = g.leaf(dtype.List(g.anyType(), true))
	}
	if src.DType().Elem().EqualIgnoreNullability(elem) && g.chance(0.5) {
		return g.call(fn.ListFilter, src, g.lambda(src.DType().Elem(), dtype.Bool(true), depth))
	}
	b := g.call(fn.ListTransform, src, g.lambda(src.DType().Elem(), elem, depth))
	if b.DType().Kind() != dtype.KindList {
		// A fixed-size list stays fixed-size: filter it (always a list).
		return g.call(fn.ListFilter, b, g.lambda(b.DType().Elem(), dtype.Bool(true), depth))
	}
	return b
}

// lambda is a one-parameter lambda over elements of type param whose body
// has type body. The parameter name is sometimes reused, shadowing an outer
// one.
func (g *gen) lambda(param, body dtype.DType, depth int) *expr.Bound {
	name := fmt.Sprintf("x%d", g.next)
	g.next++
	if len(g.vars) > 0 && g.chance(0.2) {
		name = g.vars[g.intn(len(g.vars))].name
	}
	g.vars = append(g.vars, genVar{name, param})
	b := g.expr(body, depth)
	g.vars = g.vars[:len(g.vars)-1]
	return expr.NewLambda([]string{name}, []dtype.DType{param}, b)
}
