package eval

import (
	"errors"
	"math"
	"math/big"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/scalar"
)

// The reference semantics of the list functions of fn/list_more.go, as
// DuckDB documents them, written element by element over scalar values.
// list_reduce is evaluated with the lambdas (refReduce).

func init() {
	for id, op := range map[string]func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error){
		fn.IDListValue: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			out := make([]scalar.Scalar, len(v))
			for i, x := range v {
				out[i] = x.WithDType(t.Elem())
			}
			return scalar.List(t.AsNonNullable(), out), nil
		},
		fn.IDListSlice: refSlice,
		fn.IDListSum:   refListSum,
		fn.IDListAvg:   refListAvg,
		fn.IDListMin:   func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refListExtreme(t, v, -1) },
		fn.IDListMax:   func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refListExtreme(t, v, 1) },
		fn.IDListCount: refListCount,
		fn.IDListSort:  func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refListSort(t, v[0], v[1:]) },
		fn.IDListReverseSort: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			return refListSort(t, v[0], append([]scalar.Scalar{scalar.String("DESC")}, v[1:]...))
		},
		fn.IDListElement: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			if v[0].IsNull() || v[1].IsNull() {
				return scalar.Null(t), nil
			}
			i := intValue(v[1])
			if s, ok := v[0].Value().(string); ok {
				return refStringElement(t, s, i)
			}
			elems := refElems(v[0])
			n := int64(len(elems))
			switch {
			case i >= 1 && i <= n:
				return elems[i-1].WithDType(t), nil
			case i <= -1 && i >= -n:
				return elems[n+i].WithDType(t), nil
			}
			return scalar.Null(t), nil
		},
		fn.IDStringConcat: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			// Nulls are propagated before: both sides are values.
			if t.IsList() {
				return scalar.List(t.AsNonNullable(), append(append([]scalar.Scalar(nil), refElems(v[0])...), refElems(v[1])...)), nil
			}
			return mk(t, v[0].Value().(string)+v[1].Value().(string)), nil
		},
		fn.IDListReverse: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			elems := refElems(v[0])
			out := make([]scalar.Scalar, len(elems))
			for i, e := range elems {
				out[len(elems)-1-i] = e
			}
			return scalar.List(t.AsNonNullable(), out), nil
		},
		fn.IDListDistinct: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			var out []scalar.Scalar
			for _, e := range refElems(v[0]) {
				if e.IsNull() {
					continue
				}
				dup := false
				for _, o := range out {
					dup = dup || refSame(o, e)
				}
				if !dup {
					out = append(out, e)
				}
			}
			return scalar.List(t.AsNonNullable(), out), nil
		},
		fn.IDListHasAny:   func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refHas(t, v, false), nil },
		fn.IDListHasAll:   func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) { return refHas(t, v, true), nil },
		fn.IDListPosition: refPosition,
		fn.IDListConcat: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			var out []scalar.Scalar
			for _, l := range v {
				out = append(out, refElems(l)...) // a null list has none
			}
			return scalar.List(t.AsNonNullable(), out), nil
		},
		fn.IDFlatten: func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
			var out []scalar.Scalar
			for _, inner := range refElems(v[0]) {
				out = append(out, refElems(inner)...)
			}
			return scalar.List(t.AsNonNullable(), out), nil
		},
	} {
		refFuncs[id] = op
	}
	refFuncs[fn.IDListAggregate] = func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
		id := map[string]string{"sum": fn.IDListSum, "avg": fn.IDListAvg, "mean": fn.IDListAvg, "min": fn.IDListMin,
			"max": fn.IDListMax, "count": fn.IDListCount}[strings.ToLower(v[1].Value().(string))]
		return refFuncs[id](t, v[:1])
	}
}

// refElems are the elements of a list value (none for null).
func refElems(s scalar.Scalar) []scalar.Scalar {
	elems, _ := s.Value().([]scalar.Scalar)
	return elems
}

// refSliceRange is list_slice's range [b, e) (0-based) over size values:
// a positive begin is 1-based, a negative one counts from the end (-1 is
// the last), 0 is the first; end is inclusive, negative from the end too,
// 0 before the first; both clamped, on big integers.
func refSliceRange(size int64, begin, end int64) (int64, int64) {
	n := big.NewInt(size)
	clamp := func(x *big.Int) int64 {
		switch {
		case x.Sign() < 0:
			return 0
		case x.Cmp(n) > 0:
			return size
		}
		return x.Int64()
	}
	b := big.NewInt(begin)
	switch {
	case begin > 0:
		b.Sub(b, big.NewInt(1))
	case begin < 0:
		b.Add(b, n)
	}
	e := big.NewInt(end)
	if end < 0 {
		e.Add(e, n)
		e.Add(e, big.NewInt(1))
	}
	bb, ee := clamp(b), clamp(e)
	return bb, max(bb, ee)
}

func refSlice(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	begin, end := intValue(v[1]), intValue(v[2])
	if s, ok := v[0].Value().(string); ok {
		runes := []rune(s)
		b, e := refSliceRange(int64(len(runes)), begin, end)
		return mk(t, string(runes[b:e])), nil
	}
	elems := refElems(v[0])
	if len(v) > 3 {
		// every k-th element of the range from its start; a negative k
		// walks the range of end..begin from its last element
		k := intValue(v[3])
		if k == 0 {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "list_slice: step 0")
		}
		var out []scalar.Scalar
		if k > 0 {
			b, e := refSliceRange(int64(len(elems)), begin, end)
			for p := b; p < e; p++ {
				if (p-b)%k == 0 {
					out = append(out, elems[p])
				}
			}
		} else {
			b, e := refSliceRange(int64(len(elems)), end, begin)
			for p := e - 1; p >= b; p-- {
				if (e-1-p)%k == 0 {
					out = append(out, elems[p])
				}
			}
		}
		return scalar.List(t.AsNonNullable(), out), nil
	}
	b, e := refSliceRange(int64(len(elems)), begin, end)
	return scalar.List(t.AsNonNullable(), elems[b:e]), nil
}

// refStringElement is s[i] on a string: DuckDB's substring(s, i, 1), ”
// outside the string.
func refStringElement(t dtype.DType, s string, i int64) (scalar.Scalar, error) {
	if i > 1<<32-1 || i < -(1<<32) {
		return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "list_element: string index %d", i)
	}
	n := int64(utf8.RuneCountInString(s))
	if i < 0 {
		i += n + 1
	}
	if i < 1 || i > n {
		return mk(t, ""), nil
	}
	return mk(t, string([]rune(s)[i-1])), nil
}

// refNonNull are the non-null elements of a list value.
func refNonNull(s scalar.Scalar) []scalar.Scalar {
	var out []scalar.Scalar
	for _, e := range refElems(s) {
		if !e.IsNull() {
			out = append(out, e)
		}
	}
	return out
}

func refListSum(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	elems := refNonNull(v[0])
	if len(elems) == 0 {
		return scalar.Null(t), nil
	}
	if t.IsFloat() {
		var acc float64
		for _, e := range elems {
			acc += e.Value().(float64)
		}
		return mk(t, acc), nil
	}
	// Checked at every step, as the kernel is: a running sum that leaves
	// the type is an overflow even if later elements would bring it back
	// (the sums of DuckDB's HUGEINT never overflow; see knownDifferences).
	acc := new(big.Int)
	for _, e := range elems {
		acc.Add(acc, bigOf(e))
		if t.IsDecimal() {
			if new(big.Int).Abs(acc).Cmp(new(big.Int).Exp(ten, big.NewInt(38), nil)) >= 0 {
				return scalar.Scalar{}, refFail(errs.ErrOverflow, "list_sum: %s", acc)
			}
		} else if !fits(acc, t) {
			return scalar.Scalar{}, refFail(errs.ErrOverflow, "list_sum: %s", acc)
		}
	}
	if t.IsDecimal() {
		return scalar.Decimal(decimal128.FromBigInt(acc), t.Precision(), t.Scale()).WithDType(t), nil
	}
	if t.PType() == dtype.U64 {
		return mk(t, acc.Uint64()), nil
	}
	return mk(t, acc.Int64()), nil
}

func refListAvg(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	elems := refNonNull(v[0])
	if len(elems) == 0 {
		return scalar.Null(t), nil
	}
	if _, ok := elems[0].Value().(float64); ok {
		var acc float64
		for _, e := range elems {
			acc += e.Value().(float64)
		}
		return mk(t, acc/float64(len(elems))), nil
	}
	acc := new(big.Int)
	for _, e := range elems {
		acc.Add(acc, bigOf(e))
	}
	// The exact sum divided by count × 10^scale, rounded once.
	div := big.NewInt(int64(len(elems)))
	if d := elems[0].DType(); d.IsDecimal() {
		div.Mul(div, new(big.Int).Exp(ten, big.NewInt(int64(d.Scale())), nil))
	}
	f, _ := new(big.Rat).SetFrac(acc, div).Float64()
	return mk(t, f), nil
}

// refSortOrder is list_sort's order of two non-null values: NaN above
// every number.
func refSortOrder(a, b scalar.Scalar) int {
	if x, nested := a.Value().([]scalar.Scalar); nested {
		// lists lexicographically, structs field by field; a null inside
		// above every value
		y := b.Value().([]scalar.Scalar)
		for k := range min(len(x), len(y)) {
			switch xn, yn := x[k].IsNull(), y[k].IsNull(); {
			case xn && yn:
				continue
			case xn || yn:
				return boolInt(xn) - boolInt(yn)
			}
			if c := refSortOrder(x[k], y[k]); c != 0 {
				return c
			}
		}
		return cmpOf(int64(len(x)), int64(len(y)))
	}
	x, xf := a.Value().(float64)
	y, _ := b.Value().(float64)
	if xf && (math.IsNaN(x) || math.IsNaN(y)) {
		return boolInt(math.IsNaN(x)) - boolInt(math.IsNaN(y))
	}
	c, _ := refOrder(a, b)
	return c
}

func refListExtreme(t dtype.DType, v []scalar.Scalar, sign int) (scalar.Scalar, error) {
	var best *scalar.Scalar
	for _, e := range refNonNull(v[0]) {
		if best == nil || refSortOrder(e, *best)*sign >= 0 { // the last of equal ones, as DuckDB
			e := e
			best = &e
		}
	}
	if best == nil {
		return scalar.Null(t), nil
	}
	return best.WithDType(t), nil
}

func refListCount(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	return mk(t, int64(len(refNonNull(v[0])))), nil
}

// refListSort is list_sort(xs, opts…), opts the order and the nulls.
func refListSort(t dtype.DType, xs scalar.Scalar, opts []scalar.Scalar) (scalar.Scalar, error) {
	desc, nullsFirst := false, false
	for i, a := range opts {
		w := strings.ToUpper(strings.TrimSpace(a.Value().(string)))
		switch {
		case w == "DESC" && i == 0:
			desc = true
		case w == "ASC" && i == 0:
		case w == "NULLS FIRST":
			nullsFirst = true
		case w == "NULLS LAST":
		default:
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "list_sort: %q", w)
		}
	}
	vals := refNonNull(xs)
	nulls := len(refElems(xs)) - len(vals)
	sort.SliceStable(vals, func(i, j int) bool {
		c := refSortOrder(vals[i], vals[j])
		if desc {
			return c > 0
		}
		return c < 0
	})
	out := make([]scalar.Scalar, 0, len(vals)+nulls)
	for range nulls * boolInt(nullsFirst) {
		out = append(out, scalar.Null(t.Elem()))
	}
	out = append(out, vals...)
	for range nulls * (1 - boolInt(nullsFirst)) {
		out = append(out, scalar.Null(t.Elem()))
	}
	return scalar.List(t.AsNonNullable(), out), nil
}

func refHas(t dtype.DType, v []scalar.Scalar, all bool) scalar.Scalar {
	a := refNonNull(v[0])
	for _, x := range refNonNull(v[1]) {
		found := false
		for _, y := range a {
			found = found || refSame(x, y)
		}
		if found != all {
			return mk(t, !all)
		}
	}
	return mk(t, all)
}

func refPosition(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error) {
	if v[0].IsNull() {
		return scalar.Null(t), nil
	}
	for i, e := range refElems(v[0]) {
		if refSame(e, v[1]) { // not distinct: NaN finds NaN, -0 finds 0, null finds null (DuckDB)
			return mk(t, int64(i+1)), nil
		}
	}
	return scalar.Null(t), nil
}

// refReduce is list_reduce, element by element.
func refReduce(b *expr.Bound, env refEnv) (scalar.Scalar, error) {
	t := b.DType()
	list, err := refEval(b.Arg(0), env)
	if err != nil {
		return scalar.Scalar{}, err
	}
	var acc scalar.Scalar
	if len(b.Args()) > 2 {
		if acc, err = refEval(b.Arg(2), env); err != nil {
			return scalar.Scalar{}, err
		}
	}
	if list.IsNull() {
		return scalar.Null(t), nil
	}
	elems := refElems(list)
	from := 0
	if len(b.Args()) <= 2 {
		if len(elems) == 0 {
			return scalar.Scalar{}, refFail(errs.ErrInvalidArgument, "list_reduce of an empty list")
		}
		acc, from = elems[0], 1
	}
	lam := b.Arg(1)
	ps := lam.Params()
	for k := from; k < len(elems); k++ {
		inner := env.with(ps[0], acc).with(ps[1], elems[k])
		if len(ps) > 2 {
			inner = inner.with(ps[2], scalar.Int64(int64(k+1)))
		}
		if acc, err = refEval(lam.Body(), inner); err != nil {
			var re *refError
			if errors.As(err, &re) {
				return scalar.Scalar{}, re
			}
			return scalar.Scalar{}, err
		}
		if at := lam.ParamTypes()[0]; !acc.DType().EqualIgnoreNullability(at) {
			// a wider body: back to the accumulator's type
			if acc, err = refCast(acc, at); err != nil {
				return scalar.Scalar{}, err
			}
		}
	}
	return refCast(acc, t)
}

// refCast is a checked cast, failing with the cast's sentinels.
func refCast(v scalar.Scalar, t dtype.DType) (scalar.Scalar, error) {
	if v.IsNull() {
		return scalar.Null(t), nil
	}
	r, err := scalar.Cast(v, t.AsNonNullable())
	if err != nil {
		re := &refError{msg: err.Error()}
		for _, s := range sentinels {
			if errors.Is(err, s) {
				re.sentinels = append(re.sentinels, s)
			}
		}
		return scalar.Scalar{}, re
	}
	return r.WithDType(t), nil
}

// listMoreExprs are expressions of the list functions over the
// differential test's schema (xs: list<i32?>?, fx: fixed_size_list<i16?,
// 3>?), compared with the reference evaluator on random batches.
var listMoreExprs = []string{
	"list_value(i32, i32 + 1, CAST(NULL AS i32))", "[s, s2]", "list_value(xs, xs)",
	"list_slice(xs, i8, i16)", "list_slice(fx, -2, -1)", "list_slice(xs, i8, i16, CAST(i8 AS i64) % 3 - 1)", "list_slice(fx, -1, 1, -2)", "xs[i8:]", "xs[:i8]", "list_slice(s, i8, i16)", "s[i8]", "s[i64]",
	"list_sum(xs)", "list_sum(fx)", "list_sum(list_value(u64, u64))", "list_sum(list_value(d, d))", "list_sum(list_value(f64, f64))",
	"list_avg(xs)", "list_avg(list_value(d2, d2))", "list_avg(list_value(i64, i64))", "list_avg(list_value(f32))",
	"list_min(xs)", "list_max(fx)", "list_min(list_value(s, s2))", "list_max(list_value(f64, f64, f32))", "list_max(list_value(b, b))",
	"list_count(xs)", "list_count(fx)", "list_aggregate(xs, 'sum')", "list_aggr(fx, 'MIN')", "aggregate(list_value(d, d2), 'avg')",
	"list_sort(xs)", "list_sort(fx, 'DESC')", "list_sort(list_value(s, s2, s), 'ASC', 'NULLS FIRST')", "list_reverse_sort(list_value(f64, f64, d))",
	"list_sort(list_value(xs, xs, CAST(fx AS list<i32?>)))", "list_max(list_value(st, st))", "list_reverse_sort(list_value(fx, fx))",
	"list_reverse(xs)", "list_reverse(fx)", "list_distinct(xs)", "list_distinct(list_value(f64, f64, f32))",
	"list_unique(xs)", "array_unique(fx)", "list_unique(list_value(f64, f64, f32))", "list_unique(list_value(xs, xs, CAST(fx AS list<i32?>)))",
	"{t: typeof(st), u: typeof(xs), v: typeof(d2)}",
	"array_to_string(xs, s)", "list_string_agg(fx)", "array_to_string(list_value(f64, f32, d), '|')", "list_string_agg(list_value(s, s2, s))", "array_to_string(CASE WHEN b THEN xs END, NULL)",
	"list_has_any(xs, CAST(fx AS list<i32?>))", "list_has_all(xs, list_value(i32, 1))", "list_position(xs, i32)", "list_position(fx, CAST(NULL AS i16))", "list_position(list_value(f32, f32, f64), f64)",
	"list_has_any(list_value(f64, f32), list_value(f64))",
	"list_concat(xs, CAST(fx AS list<i32?>))", "list_concat(xs, CASE WHEN b THEN xs END, xs)", "xs || list_value(i32)",
	"flatten(list_value(xs, xs, CASE WHEN b THEN xs END))",
	"list_transform(xs, lambda x, i: CAST(x AS i64) * i + i64)", "list_filter(fx, lambda x, i: i = 2 OR x > 0)",
	"list_reduce(xs, lambda acc, x: acc + x)", "list_reduce(list_value(d, d, d), lambda acc, x: acc + x)",
	"list_reduce(list_value(i8, i8), lambda acc, x: acc + CAST(x AS i16))", "list_reduce(fx, lambda a, x, i: a + CAST(x AS i64) * i, i64)",
	"list_reduce(xs, lambda acc, x: list_reduce(xs, lambda a, y: a + y + acc + x), i32)",
	"list_transform(xs, lambda x: list_reduce(fx, lambda a, y, i: a || CAST(y AS utf8) || CAST(x AS utf8), s))",
}

func TestListMoreReference(t *testing.T) {
	root := mustType(t, diffSchema)
	funcs, _ := availableFuncs()
	var bound []*expr.Bound
	for _, src := range listMoreExprs {
		e, err := parse.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		b, err := coerce.Bind(e, expr.ScopeOf(root))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		bound = append(bound, b)
	}
	failed := 0
	for seed := range uint64(40) {
		g := newGen(seed, root, funcs)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		n := []int{0, 1, 3, 17, 40}[g.intn(5)]
		extra := g.intn(3)
		full, err := g.batch(mem, n+extra)
		if err != nil {
			t.Fatal(err)
		}
		input := array.NewSlice(full, int64(extra), int64(n+extra))
		full.Release()
		for i, b := range bound {
			mode := g.randomMode()
			if res := checkDifferentialMode(mem, b, input, mode); res.mismatch != "" {
				failed++
				if failed <= 5 {
					t.Errorf("seed %d: %s (mode %+v): %s\ndata: %s", seed, listMoreExprs[i], mode, res.mismatch, res.data)
				}
			}
		}
		input.Release()
		mem.AssertSize(t, 0)
	}
}
