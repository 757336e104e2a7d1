package coerce

import (
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Dates and times meet other operands as DuckDB makes them meet:
//
//   - date ± days: beside a date, an integer of at most 32 bits (i8, i16,
//     u8, u16, an untyped literal that fits) becomes the i32 that
//     +(DATE, INTEGER) takes: dt + 1, dt - u8_col. Wider integers are left
//     for binding to reject, as DuckDB rejects DATE + BIGINT.
//   - an interval times an integer: the integer (of at most 32 bits, or an
//     untyped literal) becomes the i64 that *(INTERVAL, BIGINT) takes; an
//     interval times a decimal or f32, or divided by any number, takes it
//     as the f64 of *(INTERVAL, DOUBLE) and /(INTERVAL, DOUBLE);
//     a string literal added to or subtracted from a timestamp is read as
//     an interval (ts + '1 day'), as DuckDB reads it.
//   - date - timestamp and timestamp - date: the date becomes the
//     timestamp's midnight, and the difference is an interval.
//   - a string literal compared with a date, timestamp or interval is read as one
//     (dt > '1995-01-01', ts BETWEEN '1995-01-01' AND '1995-02-01', dt IN
//     ('1995-01-01')), and so is one that meets a date or timestamp in a
//     result (coalesce(dt, '1995-01-01'), CASE … THEN dt ELSE '…' END,
//     greatest, a list literal): DuckDB casts the literal. A date takes the date of a
//     text with a time of day ('1995-01-01 10:00:00' is 1995-01-01), as
//     DuckDB's cast does. A text that reads as neither is an error naming
//     it.

// dateDays coerces date + n, n + date and date - n; handled is false when
// neither operand of + or - is a date.
func (w *walker) dateDays(c *expr.Call, args []arg) (handled bool, err error) {
	if len(args) != 2 || (c.Fn.ID() != fn.IDAdd && c.Fn.ID() != fn.IDSub) {
		return false, nil
	}
	d := -1
	for i, a := range args {
		if t := a.DType(); t.IsTemporal() && t.ExtID() == dtype.ExtDate {
			d = i
		}
	}
	if d < 0 {
		return false, nil
	}
	o := 1 - d
	a := args[o]
	if t := a.DType(); t.IsTemporal() && t.ExtID() == dtype.ExtTimestamp {
		return false, nil // date - timestamp: both meet at the timestamp
	}
	i32 := dtype.Primitive(dtype.I32, false)
	switch lv, isLit := untypedNumber(a); {
	case isNullLiteral(a):
		args[o] = nullLiteralTo(a, i32)
	case isLit && isInteger(lv) && !lv.DType().EqualIgnoreNullability(i32):
		s, err := scalar.Cast(lv, i32)
		if err != nil {
			return true, w.literalMisfit(c, a, lv, i32, err)
		}
		args[o] = literal(s)
	case a.DType().IsInt():
		switch a.DType().PType() {
		case dtype.I8, dtype.I16, dtype.U8, dtype.U16:
			args[o] = castTo(a, i32)
		}
	}
	return true, nil
}

// intervalOperands coerces the operands of + - * beside an interval, and
// the string literal in timestamp ± '1 day'; handled is false when there
// is nothing of the kind.
func (w *walker) intervalOperands(c *expr.Call, args []arg) (handled bool, err error) {
	if len(args) != 2 {
		return false, nil
	}
	id := c.Fn.ID()
	iv := -1
	for i, a := range args {
		if a.DType().IsInterval() {
			iv = i
		}
	}
	if iv < 0 {
		if id != fn.IDAdd && id != fn.IDSub {
			return false, nil
		}
		for i, a := range args {
			if t := a.DType(); t.IsTemporal() && t.ExtID() == dtype.ExtTimestamp {
				if text, ok := stringLiteral(args[1-i]); ok && (i == 0 || id == fn.IDAdd) {
					v, err := scalar.Cast(scalar.String(text), dtype.Interval(false))
					if err != nil {
						return true, w.literalMisfit(c, args[1-i], scalar.String(text), dtype.Interval(false), err)
					}
					args[1-i] = literal(v)
					return true, nil
				}
			}
		}
		return false, nil
	}
	if id != fn.IDMul && (id != fn.IDDiv || iv != 0) {
		return true, nil
	}
	o := 1 - iv
	a := args[o]
	i64, f64 := dtype.Primitive(dtype.I64, false), dtype.Primitive(dtype.F64, false)
	if isNullLiteral(a) {
		if id == fn.IDDiv {
			args[o] = nullLiteralTo(a, f64)
		} else {
			args[o] = nullLiteralTo(a, i64)
		}
		return true, nil
	}
	// A fraction (and any divisor) scales the interval as an f64.
	lv, isLit := untypedNumber(a)
	if t := a.DType(); id == fn.IDDiv && (t.IsNumeric() || isLit) || t.IsFloat() || t.IsDecimal() || isLit && !isInteger(lv) {
		switch {
		case isLit:
			s, err := scalar.Cast(lv, f64)
			if err != nil {
				return true, w.literalMisfit(c, a, lv, f64, err)
			}
			args[o] = literal(s)
		case !t.EqualIgnoreNullability(f64):
			args[o] = castTo(a, f64)
		}
		return true, nil
	}
	switch {
	case isLit && isInteger(lv) && !lv.DType().EqualIgnoreNullability(i64):
		s, err := scalar.Cast(lv, i64)
		if err != nil {
			return true, w.literalMisfit(c, a, lv, i64, err)
		}
		args[o] = literal(s)
	case a.DType().IsInt() && a.DType().PType() != dtype.I64 && a.DType().PType() != dtype.U64:
		args[o] = castTo(a, i64)
	}
	return true, nil
}

// temporalText reads the string literals among args at idx as the date,
// timestamp or interval type of the other arguments (their supertype when
// there are several), when there is one.
func (w *walker) temporalText(c *expr.Call, args []arg, idx []int) error {
	var t dtype.DType
	have := false
	for _, i := range idx {
		at := args[i].DType()
		if (!at.IsTemporal() || at.ExtID() == dtype.ExtTime) && !at.IsInterval() {
			continue
		}
		if !have {
			t, have = at, true
		} else if s, ok := dtype.Supertype(t, at); ok {
			t = s
		}
	}
	if !have {
		return nil
	}
	for _, i := range idx {
		text, ok := stringLiteral(args[i])
		if !ok {
			continue
		}
		v, err := textAs(text, t.AsNonNullable())
		if err != nil {
			return &Error{
				Path:   w.where(),
				Node:   expr.Shorten(expr.Format(c)),
				Fn:     c.Fn.ID(),
				What:   fmt.Sprintf("read the string %q as %s", text, t.AsNonNullable()),
				Types:  [2]dtype.DType{t, dtype.Utf8(false)},
				Reason: err.Error(),
			}
		}
		args[i] = literal(v)
	}
	return nil
}

// stringLiteral is the text of a utf8 literal that is not null.
func stringLiteral(a arg) (string, bool) {
	c, ok := a.Expr.(*expr.Call)
	if !ok {
		return "", false
	}
	l, ok := c.Fn.(fn.LiteralFn)
	if !ok || l.Value.IsNull() || !l.Value.DType().IsUtf8() {
		return "", false
	}
	return l.Value.Value().(string), true
}

// textAs casts text to the date, timestamp or interval t; a date also
// reads a timestamp's text and keeps its day.
func textAs(text string, t dtype.DType) (scalar.Scalar, error) {
	text = strings.TrimSpace(text)
	v, err := scalar.Cast(scalar.String(text), t)
	if err == nil || t.ExtID() != dtype.ExtDate {
		return v, err
	}
	ts, err2 := scalar.Cast(scalar.String(text), dtype.Timestamp(dtype.Micro, "", false))
	if err2 != nil {
		return v, err
	}
	return scalar.Cast(ts, t)
}
