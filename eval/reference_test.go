package eval

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The reference evaluator: the oracle of the differential test. It
// evaluates a bound tree one row at a time over scalar.Scalar values, with
// each function's semantics written out in plain Go from the documentation
// (fn/*.go, DESIGN.md), not from the kernels: checked integer arithmetic
// through math/big, Kleene logic, SQL IN, LIKE by backtracking, CASE and
// coalesce evaluating only what they need, lambdas element by element.
// Casts use scalar.Cast, the definition of a cast.
//
// It is written to be obviously correct, not fast.

// refEnv is the value of $ and the variables for one row.
type refEnv struct {
	root scalar.Scalar
	vars []refVar // innermost last
}

type refVar struct {
	name string
	val  scalar.Scalar
}

func (e refEnv) with(name string, v scalar.Scalar) refEnv {
	vars := make([]refVar, len(e.vars), len(e.vars)+1)
	copy(vars, e.vars)
	return refEnv{root: e.root, vars: append(vars, refVar{name, v})}
}

// refError is the error of a reference evaluation: the sentinels it may
// report. A lambda collects the errors of all its elements (the vectorized
// evaluator runs the body node by node over all elements, so it may meet
// another element's error first).
type refError struct {
	msg       string
	sentinels []error
}

func (e *refError) Error() string { return e.msg }

func (e *refError) Is(target error) bool {
	for _, s := range e.sentinels {
		if s == target {
			return true
		}
	}
	return false
}

func refFail(sentinel error, format string, a ...any) error {
	return &refError{msg: fmt.Sprintf(format, a...) + ": " + sentinel.Error(), sentinels: []error{sentinel}}
}

// sentinels are the error classes the differential test compares, in the
// order primarySentinel tries them.
var sentinels = []error{errs.ErrInvalidCast, errs.ErrDivideByZero, errs.ErrOverflow, errs.ErrInvalidArgument}

// primarySentinel is the first sentinel err wraps, or nil.
func primarySentinel(err error) error {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// mk makes a scalar of type t from a Go value (nil: null).
func mk(t dtype.DType, v any) scalar.Scalar {
	if v == nil {
		return scalar.Null(t)
	}
	s, err := scalar.New(t, v)
	if err != nil {
		panic(fmt.Sprintf("reference: %v", err))
	}
	return s
}

// refEval evaluates b for one row.
func refEval(b *expr.Bound, env refEnv) (scalar.Scalar, error) {
	switch b.Kind() {
	case expr.KindRoot:
		return env.root, nil
	case expr.KindVar:
		for i := len(env.vars) - 1; i >= 0; i-- {
			if env.vars[i].name == b.Name() {
				return env.vars[i].val, nil
			}
		}
		return scalar.Scalar{}, fmt.Errorf("reference: unbound variable %q", b.Name())
	case expr.KindLambda:
		return scalar.Scalar{}, errors.New("reference: a lambda outside a higher-order function")
	}
	t := b.DType()
	args := b.Args()
	// The lazy forms first: they decide which arguments to evaluate.
	switch f := b.Fn().(type) {
	case fn.LiteralFn:
		return f.Value, nil
	case fn.CaseWhenFn:
		for i := range f.Branches(len(args)) {
			c, err := refEval(args[2*i], env)
			if err != nil {
				return scalar.Scalar{}, err
			}
			if v, ok := c.Value().(bool); ok && v {
				return refEval(args[2*i+1], env)
			}
		}
		if f.HasElse {
			return refEval(args[len(args)-1], env)
		}
		return scalar.Null(t), nil
	}
	switch b.Fn().ID() {
	case "coalesce", "fill_null":
		for _, a := range args {
			v, err := refEval(a, env)
			if err != nil {
				return scalar.Scalar{}, err
			}
			if !v.IsNull() {
				return v, nil
			}
		}
		return scalar.Null(t), nil
	case "list_transform", "list_filter", "list_any", "list_all":
		return refLambda(b, env)
	case "list_reduce":
		return refReduce(b, env)
	}
	// Every other function evaluates all its arguments.
	vals := make([]scalar.Scalar, len(args))
	for i, a := range args {
		v, err := refEval(a, env)
		if err != nil {
			return scalar.Scalar{}, err
		}
		vals[i] = v
	}
	if b.Fn().NullHandling() == fn.NullPropagating {
		for _, v := range vals {
			if v.IsNull() {
				return scalar.Null(t), nil
			}
		}
	}
	return refCall(b, vals)
}

// refLambda evaluates a higher-order list function element by element.
func refLambda(b *expr.Bound, env refEnv) (scalar.Scalar, error) {
	t := b.DType()
	list, err := refEval(b.Arg(0), env)
	if err != nil {
		return scalar.Scalar{}, err
	}
	if list.IsNull() {
		return scalar.Null(t), nil
	}
	lam := b.Arg(1)
	elems := list.Value().([]scalar.Scalar)
	results := make([]scalar.Scalar, len(elems))
	var failed *refError
	for i, e := range elems {
		inner := env.with(lam.Params()[0], e)
		if len(lam.Params()) > 1 { // lambda x, i: the 1-based index
			inner = inner.with(lam.Params()[1], scalar.Int64(int64(i+1)))
		}
		v, err := refEval(lam.Body(), inner)
		if err != nil {
			var re *refError
			if !errors.As(err, &re) {
				return scalar.Scalar{}, err
			}
			if failed == nil {
				failed = &refError{msg: re.msg}
			}
			failed.sentinels = append(failed.sentinels, re.sentinels...)
			continue
		}
		results[i] = v
	}
	if failed != nil {
		return scalar.Scalar{}, failed
	}
	switch b.Fn().ID() {
	case "list_transform":
		return scalar.List(t.AsNonNullable(), results), nil
	case "list_filter":
		var kept []scalar.Scalar
		for i, r := range results {
			if v, ok := r.Value().(bool); ok && v {
				kept = append(kept, elems[i])
			}
		}
		return scalar.List(t.AsNonNullable(), kept), nil
	}
	// list_any: true if any is true, else null if any is null, else false;
	// list_all: false if any is false, else null if any is null, else true.
	decisive := b.Fn().ID() == "list_any"
	sawNull := false
	for _, r := range results {
		v, ok := r.Value().(bool)
		if !ok {
			sawNull = true
		} else if v == decisive {
			return mk(t, decisive), nil
		}
	}
	if sawNull {
		return scalar.Null(t), nil
	}
	return mk(t, !decisive), nil
}

// refFuncs are the reference operations of function families kept in their
// own files (reference_<family>_test.go), by function id: each file adds
// its functions in an init. An operation gets the call's dtype and its
// argument values (for a null-propagating function, none is null).
var refFuncs = map[string]func(t dtype.DType, v []scalar.Scalar) (scalar.Scalar, error){}

// refCall applies an eager function to its argument values (for a
// null-propagating function, none is null).
func refCall(b *expr.Bound, v []scalar.Scalar) (scalar.Scalar, error) {
	t := b.DType()
	id := b.Fn().ID()
	switch f := b.Fn().(type) {
	case fn.GetItemFn:
		if v[0].IsNull() {
			return scalar.Null(t), nil
		}
		st := v[0].DType()
		return v[0].Value().([]scalar.Scalar)[st.FieldIndex(f.Field)], nil
	case fn.PackFn:
		return scalar.Struct(t, v), nil
	case fn.SelectFn:
		if v[0].IsNull() {
			return scalar.Null(t), nil
		}
		st, fields := v[0].DType(), v[0].Value().([]scalar.Scalar)
		var out []scalar.Scalar
		for _, f := range t.Fields() {
			out = append(out, fields[st.FieldIndex(f.Name)])
		}
		return scalar.Struct(t, out), nil
	case fn.CastFn:
		if f.Try {
			return scalar.TryCast(v[0], t), nil
		}
		r, err := scalar.Cast(v[0], t)
		if err != nil {
			re := &refError{msg: err.Error()}
			for _, s := range sentinels {
				if errors.Is(err, s) {
					re.sentinels = append(re.sentinels, s)
				}
			}
			return scalar.Scalar{}, re
		}
		return r, nil
	case fn.ClockFn:
		return f.Value(), nil
	case fn.LikeFn:
		if v[0].IsNull() || v[1].IsNull() {
			return scalar.Null(t), nil
		}
		esc := f.Escape
		if esc == 0 {
			esc = '\\'
		}
		m, err := refLikeEscaped(v[0].Value().(string), v[1].Value().(string), f.CaseInsensitive, esc)
		if err != nil {
			return scalar.Scalar{}, err
		}
		return mk(t, m != f.Negated), nil
	}
	if op, ok := refFuncs[id]; ok {
		return op(t, v)
	}
	switch id {
	case "merge":
		index := map[string]int{}
		for i, f := range t.Fields() {
			index[f.Name] = i
		}
		out := make([]scalar.Scalar, len(t.Fields()))
		for _, a := range v {
			if a.IsNull() {
				return scalar.Null(t), nil
			}
			for i, f := range a.DType().Fields() {
				out[index[f.Name]] = a.Value().([]scalar.Scalar)[i]
			}
		}
		return scalar.Struct(t, out), nil
	case "add", "sub", "mul", "div", "mod":
		return refArith(id, v[0], v[1], t)
	case "neg", "abs":
		return refNeg(id == "abs", v[0], t)
	case "eq", "neq", "lt", "lte", "gt", "gte":
		return refCompareOp(id, v[0], v[1], t)
	case "is_distinct_from", "is_not_distinct_from":
		same := refNotDistinct(v[0], v[1])
		return mk(t, same == (id == "is_not_distinct_from")), nil
	case "between":
		lo, err := refCompareOp("lte", v[1], v[0], dtype.Bool(true))
		if err != nil {
			return scalar.Scalar{}, err
		}
		hi, err := refCompareOp("lte", v[0], v[2], dtype.Bool(true))
		if err != nil {
			return scalar.Scalar{}, err
		}
		return kleeneAnd(lo, hi, t), nil
	case "in_list":
		if v[0].IsNull() {
			return scalar.Null(t), nil
		}
		sawNull := false
		for _, x := range v[1:] {
			if x.IsNull() {
				sawNull = true
				continue
			}
			if refEqual(v[0], x) {
				return mk(t, true), nil
			}
		}
		if sawNull {
			return scalar.Null(t), nil
		}
		return mk(t, false), nil
	case "and":
		return kleeneAnd(v[0], v[1], t), nil
	case "or":
		return kleeneNot(kleeneAnd(kleeneNot(v[0], t), kleeneNot(v[1], t), t), t), nil
	case "not":
		return kleeneNot(v[0], t), nil
	case "is_null":
		return mk(t, v[0].IsNull()), nil
	case "is_not_null":
		return mk(t, !v[0].IsNull()), nil
	case "lower":
		return mk(t, strings.Map(unicode.ToLower, v[0].Value().(string))), nil
	case "upper":
		return mk(t, strings.Map(unicode.ToUpper, v[0].Value().(string))), nil
	case "length":
		return mk(t, int64(utf8.RuneCountInString(v[0].Value().(string)))), nil
	case "byte_length":
		return mk(t, int64(len(v[0].Value().(string)))), nil
	case "starts_with":
		return mk(t, strings.HasPrefix(v[0].Value().(string), v[1].Value().(string))), nil
	case "ends_with":
		return mk(t, strings.HasSuffix(v[0].Value().(string), v[1].Value().(string))), nil
	case "contains":
		return mk(t, strings.Contains(v[0].Value().(string), v[1].Value().(string))), nil
	case "concat", "string_concat": // string_concat's nulls are propagated above
		var sb strings.Builder
		for _, a := range v {
			if !a.IsNull() {
				sb.WriteString(a.Value().(string))
			}
		}
		return mk(t, sb.String()), nil
	case "substring":
		length := int64(math.MaxInt64)
		if len(v) > 2 {
			length = intValue(v[2])
		}
		return mk(t, refSubstring(v[0].Value().(string), intValue(v[1]), length)), nil
	case "list_length":
		return mk(t, int64(len(v[0].Value().([]scalar.Scalar)))), nil
	case "list_contains":
		// DuckDB's rule (fn/list.go): null elements never match, and a miss
		// is false even when the list holds a null.
		if v[0].IsNull() || v[1].IsNull() {
			return scalar.Null(t), nil
		}
		for _, e := range v[0].Value().([]scalar.Scalar) {
			if !e.IsNull() && refEqual(e, v[1]) {
				return mk(t, true), nil
			}
		}
		return mk(t, false), nil
	case "list_element":
		if v[0].IsNull() || v[1].IsNull() {
			return scalar.Null(t), nil
		}
		elems := v[0].Value().([]scalar.Scalar)
		i := intValue(v[1])
		n := int64(len(elems))
		switch {
		case i >= 1 && i <= n:
			return elems[i-1].WithDType(t), nil
		case i <= -1 && i >= -n:
			return elems[n+i].WithDType(t), nil
		}
		return scalar.Null(t), nil
	}
	return scalar.Scalar{}, fmt.Errorf("reference: no semantics for %s", id)
}

// intValue reads an integer scalar, saturating unsigned values.
func intValue(s scalar.Scalar) int64 {
	switch v := s.Value().(type) {
	case int64:
		return v
	case uint64:
		if v > math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(v)
	}
	panic(fmt.Sprintf("reference: %s is not an integer", s.DType()))
}

func kleeneNot(a scalar.Scalar, t dtype.DType) scalar.Scalar {
	if a.IsNull() {
		return scalar.Null(t)
	}
	return mk(t, !a.Value().(bool))
}

// kleeneAnd: false if either is false, else null if either is null, else
// true.
func kleeneAnd(a, b scalar.Scalar, t dtype.DType) scalar.Scalar {
	av, aok := a.Value().(bool)
	bv, bok := b.Value().(bool)
	switch {
	case aok && !av, bok && !bv:
		return mk(t, false)
	case !aok || !bok:
		return scalar.Null(t)
	}
	return mk(t, true)
}
