package coerce

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// rule rewrites the coerced, bound arguments of c in place so that c binds,
// as the function's declared coercion (fn.Properties.Coercion) says.
func (w *walker) rule(c *expr.Call, args []arg) error {
	p := fn.PropertiesOf(c.Fn)
	switch p.Coercion {
	case fn.CoerceCase:
		cw, ok := c.Fn.(fn.CaseWhenFn)
		if !ok {
			return nil
		}
		n := cw.Branches(len(args))
		values := make([]int, 0, n+1)
		for i := 0; i < n; i++ {
			if err := w.toBool(c, args, 2*i); err != nil {
				return err
			}
			values = append(values, 2*i+1)
		}
		if cw.HasElse {
			values = append(values, len(args)-1)
		}
		return w.meet(c, args, values, verbCombine)
	case fn.CoerceArith:
		return w.arith(c, args)
	case fn.CoerceCompare:
		return w.meet(c, args, all(len(args)), verbCompare)
	case fn.CoerceCombine:
		return w.meet(c, args, all(len(args)), verbCombine)
	case fn.CoerceBool:
		for i := range args {
			if err := w.toBool(c, args, i); err != nil {
				return err
			}
		}
	case fn.CoerceText:
		for i := range args {
			if err := toUtf8(args, i); err != nil {
				return err
			}
		}
	case fn.CoerceConcat:
		for _, a := range args {
			if a.DType().IsList() {
				// The lists meet; a null (of type null) stays as it is, as
				// || takes it beside a list of any type.
				var idx []int
				for i, b := range args {
					if !b.DType().IsNull() {
						idx = append(idx, i)
					}
				}
				return w.meet(c, args, idx, verbCombine)
			}
		}
		for i := range args {
			if err := toUtf8(args, i); err != nil {
				return err
			}
		}
	case fn.CoerceNullLiterals:
		for i := range args {
			if len(p.NullArgs) > 0 {
				args[i] = nullLiteralTo(args[i], p.NullArgs[min(i, len(p.NullArgs)-1)])
			}
		}
	case fn.CoerceListElement:
		return w.listContains(c, args)
	case fn.CoerceDeclared:
		return w.declared(c, args)
	}
	return nil
}

// declared casts each argument of c to the type c's function names for it
// (fn.ArgTyper): a typed argument gets a cast, a literal (typed or not) is
// converted when its value fits (else it is left for binding to reject),
// so that it stays a literal (round(d, 1::i8) keeps a literal number of
// places, which a decimal's result type needs), a null literal becomes a
// typed null.
func (w *walker) declared(c *expr.Call, args []arg) error {
	at, ok := c.Fn.(fn.ArgTyper)
	if !ok {
		return nil
	}
	types := make([]dtype.DType, len(args))
	for i, a := range args {
		types[i] = a.DType()
	}
	for i, t := range at.ArgTypes(types) {
		if i >= len(args) || t.IsNull() || args[i].DType().EqualIgnoreNullability(t) {
			continue
		}
		a := args[i]
		switch lv, isLit := literalNumber(a); {
		case isNullLiteral(a):
			args[i] = nullLiteralTo(a, t)
		case isLit:
			if s, err := scalar.Cast(lv, t.AsNonNullable()); err == nil {
				args[i] = literal(s)
			}
		case fn.CanCast(a.DType(), t):
			args[i] = castTo(a, t)
		}
	}
	return nil
}

// literalNumber returns the value of a numeric literal, typed or not.
func literalNumber(a arg) (scalar.Scalar, bool) {
	c, ok := a.Expr.(*expr.Call)
	if !ok {
		return scalar.Scalar{}, false
	}
	l, ok := c.Fn.(fn.LiteralFn)
	if !ok || l.Value.IsNull() || !l.Value.DType().IsNumeric() {
		return scalar.Scalar{}, false
	}
	return l.Value, true
}

func all(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// verb phrases what a function does with its arguments, for errors.
type verb uint8

const (
	verbCompare verb = iota
	verbCombine
	verbArith
)

func (v verb) phrase(id string, a, b dtype.DType) string {
	switch v {
	case verbCompare:
		return "compare " + a.String() + " with " + b.String()
	case verbArith:
		op, ok := map[string]string{fn.IDAdd: "add", fn.IDSub: "subtract", fn.IDMul: "multiply", fn.IDDiv: "divide", fn.IDMod: "take the remainder of"}[id]
		if !ok {
			op = "apply " + id + " to" // the bitwise operators
		}
		return op + " " + a.String() + " and " + b.String()
	}
	return "combine " + a.String() + " with " + b.String()
}

// plan is the outcome of typing a group of arguments that must meet at one
// type: that type, if there is anything to meet.
type plan struct {
	t dtype.DType
	// ok is false when the group has nothing to meet (only nulls).
	ok bool
}

// meet makes the arguments at idx meet at their common type: typed
// arguments of another type get a cast, untyped numeric literals are
// converted (see target and literalType), null literals become typed nulls.
func (w *walker) meet(c *expr.Call, args []arg, idx []int, v verb) error {
	if v == verbCompare || v == verbCombine {
		if err := w.temporalText(c, args, idx); err != nil {
			return err // temporal.go
		}
	}
	p, err := w.target(c, args, idx, v)
	if err != nil || !p.ok {
		return err
	}
	for _, i := range idx {
		if args[i], err = w.convert(c, args[i], p.t); err != nil {
			return err
		}
	}
	return nil
}

// target computes the type the arguments at idx meet at.
//
// Typed arguments meet by dtype.Supertype, in order. Each untyped literal
// then takes that type when its value fits exactly; otherwise the narrowest
// type holding its value joins the supertype (see literalType). With no
// typed argument the literals meet at the supertype of their natural types.
func (w *walker) target(c *expr.Call, args []arg, idx []int, v verb) (plan, error) {
	var t dtype.DType
	have, first := false, -1
	var lits []int
	for _, i := range idx {
		a := args[i]
		if _, ok := untypedNumber(a); ok {
			lits = append(lits, i)
			continue
		}
		if isNullLiteral(a) {
			continue
		}
		if !have {
			t, have, first = a.DType(), true, i
			continue
		}
		s, ok := dtype.Supertype(t, a.DType())
		if !ok {
			return plan{}, w.noCommon(c, v, t, a.DType(), args[first], a)
		}
		t = s
	}
	if have && t.IsNull() {
		// Only untyped-null expressions so far: they adapt like literals do.
		have = false
	}
	if !have {
		if len(lits) == 0 {
			return plan{}, nil
		}
		// Literals alone meet at the supertype of their natural types.
		for k, i := range lits {
			lv, _ := untypedNumber(args[i])
			if k == 0 {
				t = lv.DType()
				continue
			}
			s, ok := dtype.Supertype(t, lv.DType())
			if !ok {
				return plan{}, w.noCommon(c, v, t, lv.DType(), args[lits[0]], args[i])
			}
			t = s
		}
		return plan{t: t, ok: true}, nil
	}
	for _, i := range lits {
		lv, _ := untypedNumber(args[i])
		lt := literalType(lv, t)
		if lt.EqualIgnoreNullability(t) {
			continue
		}
		s, ok := dtype.Supertype(t, lt)
		if !ok {
			return plan{}, w.noCommon(c, v, t, lv.DType(), args[first], args[i])
		}
		t = s
	}
	return plan{t: t, ok: true}, nil
}

// convert makes a take type t (nullability aside): a cast for a typed
// expression, a converted value for an untyped literal, a typed null for the
// null literal.
func (w *walker) convert(c *expr.Call, a arg, t dtype.DType) (arg, error) {
	if isNullLiteral(a) {
		return nullLiteralTo(a, t), nil
	}
	if lv, ok := untypedNumber(a); ok {
		if lv.DType().EqualIgnoreNullability(t) {
			return a, nil
		}
		s, err := scalar.Cast(lv, t.AsNonNullable())
		if err != nil {
			return arg{}, w.literalMisfit(c, a, lv, t, err)
		}
		return literal(s), nil
	}
	return castTo(a, t), nil
}

// castTo wraps a in a cast to t (nullability aside) unless it already has
// that type. The cast target is written without `?`: a cast keeps its
// argument's nullability.
func castTo(a arg, t dtype.DType) arg {
	if a.DType().EqualIgnoreNullability(t) {
		return a
	}
	f := fn.Cast(t.AsNonNullable())
	b, err := expr.NewCall(f, a.Bound)
	if err != nil {
		// Every supertype is reachable by a cast; keep a so that binding
		// reports the mismatch with its path.
		return a
	}
	return arg{Expr: &expr.Call{Fn: f, Args: []expr.Expr{a.Expr}}, Bound: b}
}

// literal is the typed literal s, bound.
func literal(s scalar.Scalar) arg {
	lit := fn.Literal(s)
	return arg{Expr: &expr.Call{Fn: lit}, Bound: expr.NewLiteral(s)}
}

// isNullLiteral reports whether a is the untyped null literal (dtype null).
func isNullLiteral(a arg) bool {
	c, ok := a.Expr.(*expr.Call)
	if !ok {
		return false
	}
	l, ok := c.Fn.(fn.LiteralFn)
	return ok && l.Value.DType().IsNull()
}

// nullLiteralTo turns the null literal into a typed null of t; anything
// else is returned unchanged.
func nullLiteralTo(a arg, t dtype.DType) arg {
	if !isNullLiteral(a) || t.IsNull() {
		return a
	}
	return literal(scalar.Null(t))
}

// untypedNumber returns the value of an untyped numeric literal.
func untypedNumber(a arg) (scalar.Scalar, bool) {
	c, ok := a.Expr.(*expr.Call)
	if !ok {
		return scalar.Scalar{}, false
	}
	l, ok := c.Fn.(fn.LiteralFn)
	if !ok || !l.Untyped || l.Value.IsNull() || !l.Value.DType().IsNumeric() {
		return scalar.Scalar{}, false
	}
	return l.Value, true
}

// toBool makes argument i bool: the null literal becomes a bool null, an
// expression of dtype null gets a cast; anything else but bool is an error.
func (w *walker) toBool(c *expr.Call, args []arg, i int) error {
	a := args[i]
	switch {
	case a.DType().IsBool():
		return nil
	case isNullLiteral(a):
		args[i] = nullLiteralTo(a, dtype.Bool(true))
		return nil
	case a.DType().IsNull():
		args[i] = castTo(a, dtype.Bool(false))
		return nil
	}
	boolT := dtype.Bool(false)
	e := &Error{
		Path:  w.where(),
		Node:  expr.Shorten(expr.Format(c)),
		Fn:    c.Fn.ID(),
		What:  "use " + a.DType().String() + " as bool",
		Types: [2]dtype.DType{boolT, a.DType()},
	}
	if fn.CanCast(a.DType(), boolT) {
		e.Hint, e.oneSided = castText(a.Expr, boolT), true
	}
	return e
}

// nullToBool is toBool for a lambda body: only a null body is adapted,
// anything else is left for binding to judge.
func nullToBool(a arg) (arg, error) {
	switch {
	case isNullLiteral(a):
		return nullLiteralTo(a, dtype.Bool(true)), nil
	case a.DType().IsNull():
		return castTo(a, dtype.Bool(false)), nil
	}
	return a, nil
}

// toUtf8 makes argument i of concat utf8: untyped literals become their
// text, other values that can be cast get a cast; nulls stay as they are
// (concat skips them).
func toUtf8(args []arg, i int) error {
	a := args[i]
	t := a.DType()
	if t.IsUtf8() || t.IsNull() {
		return nil
	}
	utf8 := dtype.Utf8(false)
	if lv, ok := untypedNumber(a); ok {
		if s, err := scalar.Cast(lv, utf8); err == nil {
			args[i] = literal(s)
			return nil
		}
	}
	if fn.CanCast(t, utf8) {
		args[i] = castTo(a, utf8)
	}
	return nil
}

// listContains makes the value of list_contains(xs, v) meet the element
// type of xs: an untyped literal takes the element type when it fits, and
// when v's type is wider the list is cast element-wise.
func (w *walker) listContains(c *expr.Call, args []arg) error {
	xs, v := args[0], args[1]
	lt := xs.DType()
	if !lt.IsList() {
		return nil // binding reports it
	}
	elem := lt.Elem()
	if isNullLiteral(v) {
		args[1] = nullLiteralTo(v, elem)
		return nil
	}
	var t dtype.DType
	if lv, ok := untypedNumber(v); ok {
		t = literalType(lv, elem)
		if !t.EqualIgnoreNullability(elem) {
			s, ok := dtype.Supertype(elem, t)
			if !ok {
				return w.noCommon(c, verbCompare, elem, lv.DType(), xs, v)
			}
			t = s
		}
	} else {
		s, ok := dtype.Supertype(elem, v.DType())
		if !ok {
			return w.noCommon(c, verbCompare, elem, v.DType(), xs, v)
		}
		t = s
	}
	if !t.EqualIgnoreNullability(elem) {
		nt := t.WithNullable(elem.Nullable())
		if lt.Kind() == dtype.KindFixedSizeList {
			args[0] = castTo(xs, dtype.FixedSizeList(nt, lt.Size(), false))
		} else {
			args[0] = castTo(xs, dtype.List(nt, false))
		}
	}
	var err error
	args[1], err = w.convert(c, v, t)
	return err
}
