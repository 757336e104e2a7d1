package parse_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

var roundTrips = flag.Int("roundtrips", 20000, "number of random trees TestRoundTrip checks")

// TestRoundTrip generates random well-formed trees of every node kind and
// function, with literals of many types, and checks that Format → Parse
// gives an equal tree and that Format is stable.
func TestRoundTrip(t *testing.T) {
	n := *roundTrips
	if testing.Short() {
		n = 2000
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
		e := g.expr(4)
		text := expr.Format(e)
		back, err := parse.Parse(text)
		if err != nil {
			t.Fatalf("seed %d: Parse(Format(e)): %v\ntree: %s", seed, err, text)
		}
		if !expr.Equal(back, e) {
			t.Fatalf("seed %d: Parse(Format(e)) differs from e\ntext:  %s\nagain: %s\n%s", seed, text, expr.Format(back), firstDifference(e, back))
		}
		if again := expr.Format(back); again != text {
			t.Fatalf("seed %d: Format is not stable:\n%s\n%s", seed, text, again)
		}
		if expr.Hash(back) != expr.Hash(e) {
			t.Fatalf("seed %d: equal trees hash differently: %s", seed, text)
		}
	}
}

// firstDifference describes the first pair of nodes where a and b differ.
func firstDifference(a, b expr.Expr) string {
	ca, okA := a.(*expr.Call)
	cb, okB := b.(*expr.Call)
	if okA && okB && ca.Fn.Equal(cb.Fn) && len(ca.Args) == len(cb.Args) {
		for i := range ca.Args {
			if !expr.Equal(ca.Args[i], cb.Args[i]) {
				return firstDifference(ca.Args[i], cb.Args[i])
			}
		}
	}
	la, lb := a.(*expr.Lambda), b.(*expr.Lambda)
	if la != nil && lb != nil && strings.Join(la.Params, ",") == strings.Join(lb.Params, ",") {
		return firstDifference(la.Body, lb.Body)
	}
	describe := func(e expr.Expr) string {
		if c, ok := e.(*expr.Call); ok {
			if l, ok := c.Fn.(fn.LiteralFn); ok {
				return fmt.Sprintf("literal %#v of %s (untyped %v)", l.Value.Value(), l.Value.DType(), l.Untyped)
			}
			return fmt.Sprintf("%T %+v with %d args", c.Fn, c.Fn, len(c.Args))
		}
		return fmt.Sprintf("%T %+v", e, e)
	}
	return "first difference: " + describe(a) + " vs " + describe(b)
}

// gen makes random trees.
type gen struct {
	r      *rand.Rand
	params []string // lambda parameters in scope
}

// names are field, variable and parameter names, plain and odd.
var names = []string{"a", "b", "x", "y", "s", "xs", "odd name", `quo"te`, "it's", "and", "NULL", "date",
	"Select", "ünï", "", "1st", "a.b", "$x", "lower", "end_"}

func (g *gen) name() string { return names[g.r.IntN(len(names))] }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) expr(depth int) expr.Expr {
	if depth <= 0 || g.pick(4) == 0 {
		return g.leaf()
	}
	d := depth - 1
	switch g.pick(16) {
	case 0:
		ops := []func(a, b expr.Expr) expr.Expr{expr.Add, expr.Sub, expr.Mul, expr.Div, expr.Mod,
			expr.Eq, expr.NotEq, expr.Lt, expr.LtEq, expr.Gt, expr.GtEq, expr.And, expr.Or}
		return ops[g.pick(len(ops))](g.expr(d), g.expr(d))
	case 1:
		fs := []fn.Function{fn.Neg, fn.Not, fn.IsNull, fn.IsNotNull, fn.Abs, fn.Lower, fn.Upper, fn.Length,
			fn.ByteLength, fn.ListLength}
		return expr.Apply(fs[g.pick(len(fs))], g.expr(d))
	case 2:
		fs := []fn.Function{fn.IsDistinctFrom, fn.IsNotDistinctFrom, fn.FillNull, fn.StartsWith, fn.EndsWith,
			fn.Contains, fn.ListContains, fn.ListElement, fn.Like(false, false), fn.Like(true, false),
			fn.Like(false, true), fn.Like(true, true)}
		return expr.Apply(fs[g.pick(len(fs))], g.expr(d), g.expr(d))
	case 3:
		e := expr.Between(g.expr(d), g.expr(d), g.expr(d))
		if g.pick(2) == 0 {
			e = expr.Not(e)
		}
		return e
	case 4:
		args := make([]expr.Expr, g.pick(4))
		for i := range args {
			args[i] = g.expr(d)
		}
		e := expr.In(g.expr(d), args...)
		if g.pick(2) == 0 {
			e = expr.Not(e)
		}
		return e
	case 5:
		var e expr.Expr
		if g.pick(2) == 0 {
			e = expr.Cast(g.expr(d), g.dtype(2))
		} else {
			e = expr.TryCast(g.expr(d), g.dtype(2))
		}
		return e
	case 6:
		hasElse := g.pick(2) == 0
		var args []expr.Expr
		for i := 0; i < 1+g.pick(3); i++ {
			args = append(args, g.expr(d), g.expr(d))
		}
		if hasElse {
			args = append(args, g.expr(d))
		}
		return expr.Apply(fn.CaseWhen(hasElse), args...)
	case 7:
		k := g.pick(4)
		ns := make([]string, k)
		vs := make([]expr.Expr, k)
		for i := range ns {
			ns[i], vs[i] = g.name(), g.expr(d)
		}
		return expr.Pack(ns, vs)
	case 8:
		ns := make([]string, g.pick(3))
		for i := range ns {
			ns[i] = g.name()
		}
		if g.pick(2) == 0 {
			return expr.Apply(fn.Select(ns...), g.expr(d))
		}
		return expr.Apply(fn.Exclude(ns...), g.expr(d))
	case 9:
		return expr.GetItem(g.expr(d), g.name())
	case 10:
		fs := []fn.Function{fn.Coalesce, fn.Concat, fn.Merge, fn.Substring}
		args := make([]expr.Expr, 1+g.pick(3))
		for i := range args {
			args[i] = g.expr(d)
		}
		return expr.Apply(fs[g.pick(len(fs))], args...)
	case 11, 12:
		hofs := []fn.Function{fn.ListTransform, fn.ListFilter, fn.ListAny, fn.ListAll}
		return expr.Apply(hofs[g.pick(len(hofs))], g.expr(d), g.lambda(d))
	case 13:
		// Arity the operator syntax cannot show: printed as a call.
		fs := []fn.Function{fn.Add, fn.Not, fn.Neg, fn.Eq, fn.And, fn.Between, fn.IsNull}
		args := make([]expr.Expr, 3+g.pick(2))
		for i := range args {
			args[i] = g.expr(d)
		}
		return expr.Apply(fs[g.pick(len(fs))], args...)
	}
	return g.leaf()
}

func (g *gen) lambda(depth int) expr.Expr {
	k := 1
	if g.pick(5) == 0 {
		k = g.pick(3)
	}
	ps := make([]string, k)
	for i := range ps {
		ps[i] = g.name()
	}
	n := len(g.params)
	g.params = append(g.params, ps...)
	body := g.expr(depth)
	g.params = g.params[:n]
	return expr.Fn(ps, body)
}

func (g *gen) leaf() expr.Expr {
	switch g.pick(8) {
	case 0:
		return expr.Col(g.name())
	case 1:
		return expr.Path(g.name(), g.name())
	case 2:
		if len(g.params) > 0 {
			return expr.V(g.params[g.pick(len(g.params))])
		}
		return expr.V(g.name())
	case 3:
		if g.pick(3) == 0 {
			return expr.RootExpr()
		}
		return expr.V(g.name())
	case 4, 5:
		return g.untyped()
	}
	return expr.LitScalar(g.scalar(g.dtype(2)))
}

// untyped is a number as the parser makes it from text.
func (g *gen) untyped() expr.Expr {
	var text string
	switch g.pick(6) {
	case 0:
		text = strconv.FormatInt(g.r.Int64N(1000)-500, 10)
	case 1:
		text = strconv.FormatInt(g.r.Int64(), 10)
	case 2:
		text = "18446744073709551615"
	case 3:
		text = fmt.Sprintf("%d.%0*d", g.r.IntN(1000), 1+g.pick(4), g.r.IntN(10))
	case 4:
		text = strconv.FormatFloat(g.r.NormFloat64()*1e10, 'e', -1, 64)
	default:
		text = []string{".5", "5.", "-0.05", "00.50", "-7.", "1e300", "-2.5e-3", "123456789012345678901234567890"}[g.pick(8)]
	}
	s, err := scalar.ParseNumber(text)
	if err != nil {
		panic(fmt.Sprintf("ParseNumber(%q): %v", text, err))
	}
	return expr.Untyped(s)
}

// dtype is a random type, nested up to depth.
func (g *gen) dtype(depth int) dtype.DType {
	nullable := g.pick(3) == 0
	k := g.pick(14)
	if depth <= 0 && k >= 11 {
		k = g.pick(11)
	}
	switch k {
	case 0:
		return dtype.Bool(nullable)
	case 1, 2:
		ps := []dtype.PType{dtype.I8, dtype.I16, dtype.I32, dtype.I64, dtype.U8, dtype.U16, dtype.U32, dtype.U64}
		return dtype.Primitive(ps[g.pick(len(ps))], nullable)
	case 3:
		ps := []dtype.PType{dtype.F16, dtype.F32, dtype.F64}
		return dtype.Primitive(ps[g.pick(len(ps))], nullable)
	case 4:
		p := 1 + g.pick(38)
		return dtype.Decimal(p, g.pick(p+1), nullable)
	case 5:
		return dtype.Utf8(nullable)
	case 6:
		return dtype.Binary(nullable)
	case 7:
		return dtype.Date(nullable)
	case 8:
		return dtype.Time(dtype.TimeUnit(g.pick(4)), nullable)
	case 9:
		tz := []string{"", "", "UTC", "America/New_York", "it's"}[g.pick(5)]
		return dtype.Timestamp(dtype.TimeUnit(g.pick(4)), tz, nullable)
	case 10:
		if g.pick(4) == 0 {
			return dtype.Null()
		}
		return dtype.Utf8(nullable)
	case 11:
		return dtype.List(g.dtype(depth-1), nullable)
	case 12:
		return dtype.FixedSizeList(g.dtype(depth-1), g.pick(3), nullable)
	default:
		var fs []dtype.Field
		seen := map[string]bool{}
		for i := 0; i < g.pick(4); i++ {
			n := g.name()
			if !seen[n] {
				seen[n] = true
				fs = append(fs, dtype.Field{Name: n, Type: g.dtype(depth - 1)})
			}
		}
		return dtype.Struct(fs, nullable)
	}
}

// scalar is a random value of t.
func (g *gen) scalar(t dtype.DType) scalar.Scalar {
	if t.Nullable() && g.pick(4) == 0 {
		return scalar.Null(t)
	}
	nn := t.AsNonNullable()
	relabel := func(s scalar.Scalar) scalar.Scalar { return s.WithDType(t) }
	switch {
	case t.IsNull():
		return scalar.Null(t)
	case t.IsBool():
		return relabel(scalar.Bool(g.pick(2) == 0))
	case t.IsInt():
		p := t.PType()
		bits := p.BitWidth()
		if p.IsSigned() {
			var v int64
			switch g.pick(4) {
			case 0:
				v = -1 << (bits - 1)
			case 1:
				v = 1<<(bits-1) - 1
			default:
				v = g.r.Int64N(201) - 100
			}
			return relabel(scalar.Int(p, v))
		}
		var v uint64
		switch g.pick(3) {
		case 0:
			v = math.MaxUint64 >> (64 - bits)
		default:
			v = uint64(g.r.IntN(200))
		}
		return relabel(scalar.Uint(p, v))
	case t.IsFloat():
		var v float64
		switch g.pick(6) {
		case 0:
			v = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 5e-324, math.MaxFloat64}[g.pick(7)]
		case 1:
			v = math.Float64frombits(g.r.Uint64())
			if math.IsNaN(v) {
				v = math.NaN()
			}
		case 2:
			v = float64(g.r.IntN(100)) / 8
		default:
			v = g.r.NormFloat64() * math.Pow(10, float64(g.pick(40)-20))
		}
		return relabel(scalar.Float(t.PType(), v))
	case t.IsDecimal():
		p, sc := t.Precision(), t.Scale()
		digits := make([]byte, 1+g.pick(p))
		for i := range digits {
			digits[i] = byte('0' + g.pick(10))
		}
		n, _ := decimal128.FromString(string(digits), int32(p), 0)
		if g.pick(2) == 0 {
			n = n.Negate()
		}
		return scalar.Decimal(n, p, sc).WithDType(t)
	case t.IsUtf8():
		strs := []string{"", "a", "it's", "''", "line\nbreak", "tab\there", "ünïcødé", "x'00'", "\"q\"", "-5", "NaN", "::i32"}
		return relabel(scalar.String(strs[g.pick(len(strs))]))
	case t.IsBinary():
		b := make([]byte, g.pick(4))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		return relabel(scalar.Binary(b))
	case t.IsTemporal():
		return g.temporal(t)
	case t.IsList():
		n := g.pick(3)
		if t.Kind() == dtype.KindFixedSizeList {
			n = t.Size()
		}
		es := make([]scalar.Scalar, n)
		for i := range es {
			es[i] = g.scalar(t.Elem())
		}
		return scalar.List(t, es)
	case t.IsStruct():
		fs := make([]scalar.Scalar, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = g.scalar(f.Type)
		}
		return scalar.Struct(t, fs)
	}
	panic("gen: no values of " + nn.String())
}

func (g *gen) temporal(t dtype.DType) scalar.Scalar {
	var s scalar.Scalar
	var err error
	switch t.ExtID() {
	case dtype.ExtDate:
		s, err = scalar.New(t, int64(g.r.IntN(200000)-100000))
	case dtype.ExtTime:
		perDay := 86400 * t.Unit().PerSecond()
		s, err = scalar.New(t, g.r.Int64N(perDay))
	default:
		s, err = scalar.New(t, g.r.Int64()>>8)
	}
	if err != nil {
		panic(err)
	}
	return s
}
