package substrait

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// testSchema is the root the random expressions read: every type Substrait
// can carry, nested structs and lists, and a zoned timestamp whose zone
// only a colexpr hint can say.
var testSchema = mustParse(`struct<i8: i8?, i16: i16, i32: i32?, i64: i64, f32: f32?, f64: f64,
	d: decimal(10,2)?, d2: decimal(5,0), b: bool?, s: utf8?, bin: binary?,
	dt: date?, t: time(ms)?, tn: time(ns), ts: timestamp(us)?, tz: timestamp(ns, 'UTC')?, tzp: timestamp(s, 'Europe/Paris'),
	xs: list<i32?>?, ss: list<utf8>, st: struct<x: i64?, y: utf8, inner: struct<z: bool?>>?,
	ls: list<struct<k: i32, v: f64?>>?, "odd name": i32>`)

func mustParse(s string) dtype.DType {
	t, err := dtype.Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// scalarTypes are the non-nested types the generator draws from.
var scalarTypes = []dtype.DType{
	dtype.Bool(false), dtype.Primitive(dtype.I8, false), dtype.Primitive(dtype.I16, false),
	dtype.Primitive(dtype.I32, false), dtype.Primitive(dtype.I64, false), dtype.Primitive(dtype.F32, false),
	dtype.Primitive(dtype.F64, false), dtype.Decimal(10, 2, false), dtype.Decimal(5, 0, false), dtype.Decimal(38, 10, false),
	dtype.Utf8(false), dtype.Binary(false), dtype.Date(false), dtype.Time(dtype.Milli, false), dtype.Time(dtype.Nano, false),
	dtype.Timestamp(dtype.Micro, "", false), dtype.Timestamp(dtype.Nano, "UTC", false), dtype.Timestamp(dtype.Second, "Europe/Paris", false),
}

// gen builds random bound expressions over testSchema. Calls are built
// with expr.NewCall, so every tree type-checks; a call that would not is
// replaced by a leaf.
type gen struct {
	r       *rand.Rand
	root    *expr.Bound
	lambdas []*expr.Bound // variables in scope, innermost last
	nvars   int
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), root: expr.NewRoot(testSchema)}
}

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) anyType() dtype.DType {
	t := scalarTypes[g.pick(len(scalarTypes))]
	switch g.pick(10) {
	case 0:
		t = dtype.List(t, g.pick(2) == 0)
	case 1:
		t = dtype.Struct([]dtype.Field{{Name: "p", Type: t}, {Name: "q r", Type: dtype.Utf8(true)}}, g.pick(2) == 0)
	}
	return t.WithNullable(g.pick(2) == 0)
}

// expr is a random expression of type want (nullability aside), or of any
// type when want is nil.
func (g *gen) expr(want *dtype.DType, depth int) *expr.Bound {
	if depth <= 0 || g.pick(4) == 0 {
		return g.leaf(want)
	}
	for try := 0; try < 4; try++ {
		if b := g.call(want, depth-1); b != nil && (want == nil || b.DType().EqualIgnoreNullability(*want)) {
			return b
		}
	}
	return g.leaf(want)
}

func (g *gen) typed(t dtype.DType, depth int) *expr.Bound { return g.expr(&t, depth) }

func (g *gen) mk(f fn.Function, args ...*expr.Bound) *expr.Bound {
	for _, a := range args {
		if a == nil {
			return nil
		}
	}
	b, err := expr.NewCall(f, args...)
	if err != nil {
		return nil
	}
	return b
}

func (g *gen) call(want *dtype.DType, depth int) *expr.Bound {
	t := g.anyType()
	if want != nil {
		t = *want
	}
	boolT := dtype.Bool(false)
	switch g.pick(22) {
	case 0, 1: // arithmetic
		ops := []fn.Function{fn.Add, fn.Sub, fn.Mul, fn.Div, fn.Mod}
		a := g.typed(t, depth)
		return g.mk(ops[g.pick(len(ops))], a, g.typed(a.DType(), depth))
	case 2:
		ops := []fn.Function{fn.Neg, fn.Abs}
		return g.mk(ops[g.pick(2)], g.typed(t, depth))
	case 3, 4: // comparison
		ops := []fn.Function{fn.Eq, fn.NotEq, fn.Lt, fn.LtEq, fn.Gt, fn.GtEq, fn.IsDistinctFrom, fn.IsNotDistinctFrom}
		a := g.expr(nil, depth)
		return g.mk(ops[g.pick(len(ops))], a, g.typed(a.DType(), depth))
	case 5:
		a := g.expr(nil, depth)
		switch g.pick(3) {
		case 0:
			return g.mk(fn.Between, a, g.typed(a.DType(), depth), g.typed(a.DType(), depth))
		case 1:
			args := []*expr.Bound{a}
			for i := 0; i <= g.pick(3); i++ {
				args = append(args, g.typed(a.DType(), depth))
			}
			return g.mk(fn.InList, args...)
		}
		return g.mk([]fn.Function{fn.IsNull, fn.IsNotNull}[g.pick(2)], a)
	case 6, 7: // boolean
		switch g.pick(3) {
		case 0:
			return g.mk(fn.Not, g.typed(boolT, depth))
		case 1:
			return g.mk(fn.And, g.typed(boolT, depth), g.typed(boolT, depth))
		}
		return g.mk(fn.Or, g.typed(boolT, depth), g.typed(boolT, depth))
	case 8: // like
		s := dtype.Utf8(false)
		return g.mk(fn.Like(g.pick(2) == 0, g.pick(2) == 0), g.typed(s, depth), g.typed(s, depth))
	case 9: // strings
		s := dtype.Utf8(false)
		switch g.pick(6) {
		case 0:
			return g.mk([]fn.Function{fn.Lower, fn.Upper}[g.pick(2)], g.typed(s, depth))
		case 1:
			return g.mk([]fn.Function{fn.Length, fn.ByteLength}[g.pick(2)], g.typed(s, depth))
		case 2:
			return g.mk([]fn.Function{fn.StartsWith, fn.EndsWith, fn.Contains}[g.pick(3)], g.typed(s, depth), g.typed(s, depth))
		case 3:
			args := []*expr.Bound{g.typed(s, depth)}
			for i := 0; i < g.pick(3); i++ {
				args = append(args, g.typed(s, depth))
			}
			if g.pick(3) == 0 {
				return g.mk(fn.StringConcat, args[0], g.typed(s, depth))
			}
			return g.mk(fn.Concat, args...)
		}
		i32 := dtype.Primitive(dtype.I32, false)
		if g.pick(2) == 0 {
			return g.mk(fn.Substring, g.typed(s, depth), g.typed(i32, depth))
		}
		return g.mk(fn.Substring, g.typed(s, depth), g.typed(i32, depth), g.typed(i32, depth))
	case 10, 11: // casts
		to := t.WithNullable(g.pick(3) == 0)
		for try := 0; try < 5; try++ {
			from := g.anyType()
			if fn.CanCast(from, to) {
				f := fn.Cast(to)
				if g.pick(2) == 0 {
					f = fn.TryCast(to)
				}
				return g.mk(f, g.typed(from, depth))
			}
		}
		return nil
	case 12, 13: // CASE
		var args []*expr.Bound
		for i := 0; i <= g.pick(2); i++ {
			args = append(args, g.typed(boolT, depth), g.typed(t, depth))
		}
		hasElse := g.pick(2) == 0
		if hasElse {
			if g.pick(4) == 0 {
				args = append(args, expr.NewLiteral(scalar.Null(t)))
			} else {
				args = append(args, g.typed(t, depth))
			}
		}
		return g.mk(fn.CaseWhen(hasElse), args...)
	case 14: // coalesce
		args := []*expr.Bound{g.typed(t, depth)}
		for i := 0; i < g.pick(3); i++ {
			args = append(args, g.typed(t, depth))
		}
		if len(args) == 2 && g.pick(2) == 0 {
			return g.mk(fn.FillNull, args...)
		}
		return g.mk(fn.Coalesce, args...)
	case 15: // pack, and fields of expressions
		n := 1 + g.pick(3)
		names := make([]string, n)
		args := make([]*expr.Bound, n)
		for i := range args {
			names[i] = []string{"a", "b c", "é", "x"}[i]
			args[i] = g.expr(nil, depth)
		}
		p := g.mk(fn.Pack(names...), args...)
		if p != nil && g.pick(2) == 0 {
			return g.mk(fn.GetItem(names[g.pick(n)]), p)
		}
		return p
	case 16, 17: // higher-order list functions
		list := g.listExpr(depth)
		if list == nil {
			return nil
		}
		elem := list.DType().Elem()
		hof := []fn.Function{fn.ListTransform, fn.ListFilter, fn.ListAny, fn.ListAll}[g.pick(4)]
		name := "v" + strconv.Itoa(g.nvars)
		g.nvars++
		v := expr.NewVar(name, elem)
		g.lambdas = append(g.lambdas, v)
		var body *expr.Bound
		if hof.ID() == "list_transform" {
			body = g.expr(nil, depth)
		} else {
			body = g.typed(boolT, depth)
		}
		g.lambdas = g.lambdas[:len(g.lambdas)-1]
		return g.mk(hof, list, expr.NewLambda([]string{name}, []dtype.DType{elem}, body))
	case 18:
		list := g.listExpr(depth)
		return g.mk(fn.ListLength, list)
	}
	return g.leaf(want)
}

func (g *gen) listExpr(depth int) *expr.Bound {
	switch g.pick(3) {
	case 0:
		return g.mk(fn.GetItem("xs"), g.root)
	case 1:
		return g.mk(fn.GetItem("ls"), g.root)
	}
	l := g.expr(nil, depth)
	if !l.DType().IsList() {
		return nil
	}
	return l
}

// leaf is a field, a variable or a literal of type want.
func (g *gen) leaf(want *dtype.DType) *expr.Bound {
	var cands []*expr.Bound
	var walk func(b *expr.Bound)
	walk = func(b *expr.Bound) {
		t := b.DType()
		if b.Kind() != expr.KindRoot && (want == nil || t.EqualIgnoreNullability(*want)) {
			cands = append(cands, b)
		}
		if t.IsStruct() {
			for _, f := range t.Fields() {
				walk(g.mk(fn.GetItem(f.Name), b))
			}
		}
	}
	walk(g.root)
	for _, v := range g.lambdas {
		walk(v)
	}
	if len(cands) > 0 && g.pick(3) != 0 {
		return cands[g.pick(len(cands))]
	}
	t := g.anyType()
	if want != nil {
		t = want.WithNullable(g.pick(3) == 0)
	}
	s := g.scalar(t)
	if (t.IsInt() || t.IsDecimal() || t.IsFloat()) && !s.IsNull() && g.pick(3) == 0 {
		b, _ := expr.NewCall(fn.LiteralFn{Value: s, Untyped: true})
		return b
	}
	return expr.NewLiteral(s)
}

// scalar is a random value of type t (null now and then when t is
// nullable), with edge values drawn often.
func (g *gen) scalar(t dtype.DType) scalar.Scalar {
	if t.Nullable() && g.pick(5) == 0 {
		return scalar.Null(t)
	}
	var v any
	switch t.Kind() {
	case dtype.KindBool:
		v = g.pick(2) == 0
	case dtype.KindPrimitive:
		p := t.PType()
		switch {
		case p.IsFloat():
			edges := []float64{0, math.Copysign(0, -1), 1.5, -2.25, math.NaN(), math.Inf(1), math.Inf(-1), 1e30, -7}
			f := edges[g.pick(len(edges))]
			if g.pick(2) == 0 {
				f = g.r.NormFloat64() * 1000
			}
			if p == dtype.F32 {
				f = float64(float32(f))
			}
			v = f
		default:
			bits := p.BitWidth()
			lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
			if bits == 64 {
				lo, hi = math.MinInt64, math.MaxInt64
			}
			switch g.pick(4) {
			case 0:
				v = lo
			case 1:
				v = hi
			default:
				v = int64(g.pick(200)) - 100
			}
		}
	case dtype.KindDecimal:
		digits := g.pick(t.Precision()) + 1
		n := decimal128.FromI64(0)
		for i := 0; i < digits; i++ {
			n = n.Mul(decimal128.FromI64(10)).Add(decimal128.FromI64(int64(g.pick(10))))
		}
		if g.pick(2) == 0 {
			n = n.Negate()
		}
		v = n
	case dtype.KindUtf8:
		v = []string{"", "a", "ABC", "it's", "ünï", "%_\\", "x%"}[g.pick(7)]
	case dtype.KindBinary:
		v = string([]byte{0, 0xff, byte(g.pick(256))}[:g.pick(4)%4])
	case dtype.KindExtension:
		switch t.ExtID() {
		case dtype.ExtDate:
			v = int64(g.pick(40000)) - 20000
		case dtype.ExtTime:
			v = g.r.Int64N(86400 * t.Unit().PerSecond())
		default:
			v = g.r.Int64N(1<<50) - 1<<49
		}
	case dtype.KindInterval:
		v = arrow.MonthDayNanoInterval{Months: int32(g.pick(30)) - 15, Days: int32(g.pick(60)) - 30, Nanoseconds: g.r.Int64N(1<<40) - 1<<39}
	case dtype.KindList:
		n := g.pick(4)
		elems := make([]scalar.Scalar, n)
		for i := range elems {
			elems[i] = g.scalar(t.Elem())
		}
		return scalar.List(t, elems)
	case dtype.KindStruct:
		fs := make([]scalar.Scalar, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = g.scalar(f.Type)
		}
		return scalar.Struct(t, fs)
	}
	s, err := scalar.New(t, v)
	if err != nil {
		panic(err)
	}
	return s
}
