package parse

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// isKeyword reports whether word is one of the words with a meaning of their
// own (dtype.IsKeyword, so the printer quotes a name spelled like one). DATE,
// TIME and TIMESTAMP are names too when no string follows them.
func isKeyword(word string) bool { return dtype.IsKeyword(word) }

// typedLiterals are the keywords that read a string as a typed value.
var typedLiterals = map[string]dtype.DType{
	"date":      dtype.Date(false),
	"time":      dtype.Time(dtype.Micro, false),
	"timestamp": dtype.Timestamp(dtype.Micro, "", false),
}

// primary reads an operand: a literal, a name, a call, a parenthesised
// expression, CASE, CAST, a list or struct literal or a struct pack.
func (p *parser) primary() (expr.Expr, error) {
	t := p.tok
	switch t.kind {
	case tokNumber:
		return p.number(t.start, t.text)
	case tokString:
		p.next()
		return expr.LitScalar(scalar.String(t.text)), nil
	case tokHex:
		p.next()
		b, err := hex.DecodeString(t.text)
		if err != nil { // the lexer checked the digits; kept for safety
			return nil, p.errAt(t.start, err, "invalid binary literal: %v", err)
		}
		return expr.LitScalar(scalar.Binary(b)), nil
	case tokDollar:
		p.next()
		return expr.RootExpr(), nil
	case tokVar:
		p.next()
		return expr.V(t.text), nil
	case tokQuoted:
		if p.peek().is("(") {
			return p.call() // "and"(a, b, c): a function whose name is a keyword
		}
		p.next()
		return p.name(t.text), nil
	case tokIdent:
		return p.word()
	case tokPunct:
		switch t.text {
		case "(":
			p.next()
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.tok.is(")") {
				line, col := position(p.src, t.start)
				return nil, p.expected("')' to close the '(' at " + itoa(line) + ":" + itoa(col))
			}
			p.next()
			return e, nil
		case "[":
			return p.listLiteral()
		case "{":
			return p.brace()
		}
	}
	return nil, p.expected("an expression" + p.after())
}

// name is the expression a name stands for: the lambda parameter when one
// is in scope, the root field otherwise.
func (p *parser) name(n string) expr.Expr {
	if p.isParam(n) {
		return expr.V(n)
	}
	return expr.Col(n)
}

// number makes the untyped literal of the number text (with its sign),
// written at byte offset off.
func (p *parser) number(off int, text string) (expr.Expr, error) {
	s, err := scalar.ParseNumber(text)
	if err != nil {
		return nil, p.errAt(off, err, "invalid number %s: %v", text, err)
	}
	p.next()
	return expr.Untyped(s), nil
}

// word reads an operand that starts with a bare word.
func (p *parser) word() (expr.Expr, error) {
	t := p.tok
	lower := strings.ToLower(t.text)
	switch lower {
	case "true", "false":
		p.next()
		return expr.LitScalar(scalar.Bool(lower == "true")), nil
	case "null":
		p.next()
		return expr.LitScalar(scalar.Null(dtype.Null())), nil
	case "case":
		return p.caseExpr()
	case "cast", "try_cast":
		return p.cast(lower == "try_cast")
	case "date", "time", "timestamp":
		if p.peek().kind == tokString {
			return p.typedLiteral(typedLiterals[lower])
		}
		p.next()
		return p.name(t.text), nil
	case "interval":
		return p.interval()
	case "current_date", "current_timestamp":
		// SQL's clock keywords, without parentheses (DuckDB takes them with
		// too); a column of that name is quoted: "current_date".
		if !p.peek().is("(") {
			p.next()
			return p.apply(t, lower)
		}
	case "not":
		return nil, p.expected("an expression" + p.after() + " (put NOT … in parentheses there)")
	}
	if isKeyword(lower) {
		return nil, p.expected("an expression" + p.after())
	}
	if p.peek().is("(") {
		return p.call()
	}
	p.next()
	return p.name(t.text), nil
}

// typedLiteral reads DATE '…', TIME '…' or TIMESTAMP '…'.
func (p *parser) typedLiteral(t dtype.DType) (expr.Expr, error) {
	kw := strings.ToUpper(p.tok.text)
	p.next()
	str := p.tok
	p.next()
	s, err := scalar.Cast(scalar.String(str.text), t)
	if err != nil {
		return nil, p.errAt(str.start, err, "invalid %s literal '%s': %v", kw, clip(strings.ReplaceAll(str.text, "'", "''")), err)
	}
	return expr.LitScalar(s), nil
}

// interval reads DuckDB's interval syntax: INTERVAL '1 year 2 days' and
// INTERVAL 'n' UNIT and INTERVAL n UNIT are literals (a fractional n is
// truncated, as DuckDB truncates it), INTERVAL (x) UNIT is to_<unit>(x).
func (p *parser) interval() (expr.Expr, error) {
	kw := p.tok
	p.next()
	t := p.tok
	const forms = "INTERVAL '3 days', INTERVAL 3 DAY or INTERVAL (x) DAY"
	switch {
	case t.kind == tokString && !p.peekUnit():
		p.next()
		s, err := scalar.Cast(scalar.String(t.text), dtype.Interval(false))
		if err != nil {
			return nil, p.errAt(t.start, err, "invalid INTERVAL literal '%s': %v", clip(strings.ReplaceAll(t.text, "'", "''")), err)
		}
		return expr.LitScalar(s), nil
	case t.kind == tokString || t.kind == tokNumber:
		p.next()
		unit, err := p.intervalUnit(kw)
		if err != nil {
			return nil, err
		}
		n, err := truncatedCount(t.text)
		if err != nil {
			return nil, p.errAt(t.start, err, "INTERVAL takes a whole number of units, not %s: %v", describe(t), err)
		}
		s, err := fn.IntervalOf(unit, n)
		if err != nil {
			return nil, p.errAt(t.start, err, "INTERVAL %s %s: %v", t.text, strings.ToUpper(unit.ID()[len("to_"):]), err)
		}
		return expr.LitScalar(s), nil
	case t.is("("):
		x, err := p.primary()
		if err != nil {
			return nil, err
		}
		unit, err := p.intervalUnit(kw)
		if err != nil {
			return nil, err
		}
		return expr.Apply(unit, x), nil
	}
	return nil, p.errAt(t.start, nil, "INTERVAL takes a string, a number or a parenthesised expression and a unit, as in %s; found %s", forms, describe(t))
}

// peekUnit reports whether the token after the current one is a unit of
// INTERVAL n UNIT.
func (p *parser) peekUnit() bool {
	t := p.peek()
	if t.kind != tokIdent {
		return false
	}
	_, ok := fn.IntervalUnit(t.text)
	return ok
}

// intervalUnit reads the unit of INTERVAL n UNIT: its to_* function.
func (p *parser) intervalUnit(kw token) (fn.Function, error) {
	t := p.tok
	if t.kind == tokIdent {
		if f, ok := fn.IntervalUnit(t.text); ok {
			g, ok := p.lookup(f.ID())
			if !ok {
				return nil, p.errAt(kw.start, nil, "INTERVAL … %s needs the function %s, which the registry does not have", strings.ToUpper(t.text), f.ID())
			}
			p.next()
			return g, nil
		}
	}
	return nil, p.errAt(t.start, nil, "INTERVAL needs a unit here (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, …), found %s", describe(t))
}

// truncatedCount is the number text (a string's text in INTERVAL '2' DAY)
// truncated toward zero, as DuckDB truncates the count of INTERVAL n UNIT.
func truncatedCount(text string) (int64, error) {
	s, err := scalar.ParseNumber(strings.TrimSpace(text))
	if err != nil {
		return 0, err
	}
	if s.DType().IsInt() {
		if v, err := scalar.Cast(s, dtype.Primitive(dtype.I64, false)); err == nil {
			return v.Value().(int64), nil
		}
	}
	f, err := scalar.Cast(s, dtype.Primitive(dtype.F64, false))
	if err != nil {
		return 0, err
	}
	x := math.Trunc(f.Value().(float64))
	if x != x || x < -(1<<63) || x >= 1<<63 {
		return 0, fmt.Errorf("%w: %s is out of range", errs.ErrOverflow, text)
	}
	return int64(x), nil
}

// typeName reads a type at the current token with dtype.ParsePrefix.
func (p *parser) typeName(after string) (dtype.DType, error) {
	start := p.tok.start
	if p.tok.kind != tokIdent {
		return dtype.DType{}, p.expected("a type after " + after)
	}
	t, n, err := dtype.ParsePrefix(p.src[start:])
	if err != nil {
		off, msg := start, err.Error()
		var de *dtype.Error
		if errors.As(err, &de) {
			msg = de.Msg
			if de.Pos >= 0 {
				off = start + de.Pos
			}
		}
		return dtype.DType{}, p.errAt(off, err, "invalid type after %s: %s", after, msg)
	}
	p.prev = token{kind: tokPunct, start: start, end: start + n, text: strings.TrimSpace(p.src[start : start+n])}
	p.tok = lex(p.src, start+n)
	return t, nil
}

// literalValue is the value of a literal node. The empty pack {} counts as
// the empty struct literal: the text `{}` is both, and where only a literal
// makes sense (inside list and struct literals, before ::) it is read as
// the literal.
func literalValue(e expr.Expr) (scalar.Scalar, bool) {
	c, ok := e.(*expr.Call)
	if !ok || len(c.Args) != 0 {
		return scalar.Scalar{}, false
	}
	switch f := c.Fn.(type) {
	case fn.LiteralFn:
		return f.Value, true
	case fn.PackFn:
		if len(f.Names) == 0 {
			return scalar.Struct(dtype.Struct(nil, false), nil), true
		}
	}
	return scalar.Scalar{}, false
}

// castOrFold is e::t: a typed literal when e is a literal whose value
// converts to exactly t, a cast call otherwise.
func castOrFold(e expr.Expr, t dtype.DType) expr.Expr {
	if v, ok := literalValue(e); ok {
		if s, err := scalar.Cast(v, t); err == nil && s.DType().Equal(t) {
			return expr.LitScalar(s)
		}
	}
	return expr.Cast(e, t)
}

// cast reads CAST(x AS t) and TRY_CAST(x AS t). These always make a cast
// call, even around a literal.
func (p *parser) cast(try bool) (expr.Expr, error) {
	kw := strings.ToUpper(p.tok.text)
	p.next()
	open := p.tok
	if err := p.punct("(", " after "+kw); err != nil {
		return nil, err
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.keyword("as", " in "+kw+"(… AS type)"); err != nil {
		return nil, err
	}
	t, err := p.typeName("AS")
	if err != nil {
		return nil, err
	}
	if !p.tok.is(")") {
		line, col := position(p.src, open.start)
		return nil, p.expected("')' to close the " + kw + "( at " + itoa(line) + ":" + itoa(col))
	}
	p.next()
	if try {
		return expr.TryCast(e, t), nil
	}
	return expr.Cast(e, t), nil
}

// caseExpr reads CASE [x] WHEN c THEN v … [ELSE e] END. The simple form
// CASE x WHEN v … compares x = v in each branch.
func (p *parser) caseExpr() (expr.Expr, error) {
	p.next()
	var subject expr.Expr
	if p.tok.keyword("end") || p.tok.keyword("else") || p.tok.keyword("then") {
		return nil, p.expected("WHEN after CASE")
	}
	if !p.tok.keyword("when") {
		var err error
		if subject, err = p.expr(); err != nil {
			return nil, err
		}
	}
	var args []expr.Expr
	for p.tok.keyword("when") {
		p.next()
		cond, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.keyword("then", " after the WHEN condition"); err != nil {
			return nil, err
		}
		value, err := p.expr()
		if err != nil {
			return nil, err
		}
		if subject != nil {
			cond = expr.Eq(subject, cond)
		}
		args = append(args, cond, value)
	}
	if len(args) == 0 {
		return nil, p.expected("WHEN" + p.after())
	}
	hasElse := false
	if p.tok.keyword("else") {
		p.next()
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, e)
		hasElse = true
	}
	if !p.tok.keyword("end") {
		if hasElse {
			return nil, p.expected("END after the ELSE value")
		}
		return nil, p.expected("WHEN, ELSE or END after the THEN value")
	}
	p.next()
	return expr.Apply(fn.CaseWhen(hasElse), args...), nil
}

// specialFunctions are names the parser handles itself; they are offered as
// suggestions for misspelled names too.
var specialFunctions = []string{"cast", "try_cast", "struct_select", "struct_exclude", "struct_pack", "row", "if", "nullif", "position", "extract", "struct_extract"}

// call reads name(args…): struct_select and struct_exclude, or a function
// from the registry (names are case-insensitive).
func (p *parser) call() (expr.Expr, error) {
	nameTok := p.tok
	lower := strings.ToLower(nameTok.text)
	if nameTok.kind == tokIdent {
		switch lower {
		case "struct_select", "struct_exclude":
			return p.selectCall(lower == "struct_exclude")
		case "struct_pack":
			return p.structPack()
		case "row":
			return p.row()
		case "if", "nullif":
			return p.conditional(lower)
		case "position":
			return p.position()
		case "extract":
			return p.extract()
		case "struct_extract":
			return p.structExtract()
		}
	}
	f, ok := p.lookup(nameTok.text)
	if !ok {
		msg := "unknown function " + strconv.Quote(nameTok.text)
		if close := suggest(nameTok.text, append(p.reg.Names(), specialFunctions...)); len(close) > 0 {
			msg += " (did you mean " + strings.Join(close, ", ") + "?)"
		}
		return nil, p.errAt(nameTok.start, nil, "%s", msg)
	}
	p.next()
	open := p.tok
	p.next()
	args, err := p.list(open, ")", "the arguments of "+nameTok.text+"(")
	if err != nil {
		return nil, err
	}
	return expr.Apply(f, args...), nil
}

// structPack reads DuckDB's struct_pack(a := x, "b c" := y), a struct pack;
// a bare column name is a field of that name: struct_pack(a) is {a: a}.
func (p *parser) structPack() (expr.Expr, error) {
	p.next()
	open := p.tok
	p.next()
	var names []string
	var values []expr.Expr
	seen := map[string]bool{}
	for !p.tok.is(")") || len(names) == 0 {
		keyTok := p.tok
		if (keyTok.kind == tokIdent || keyTok.kind == tokQuoted) && p.peek().is(":=") {
			p.next()
			p.next()
		} else if keyTok.kind != tokIdent && keyTok.kind != tokQuoted || !p.peek().is(",") && !p.peek().is(")") {
			return nil, p.errAt(keyTok.start, nil, "struct_pack takes fields written name := value, or bare column names, found %s", describe(keyTok))
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if seen[keyTok.text] {
			return nil, p.errAt(keyTok.start, nil, "duplicate field %s in struct_pack", dtype.QuoteFieldName(keyTok.text))
		}
		seen[keyTok.text] = true
		names = append(names, keyTok.text)
		values = append(values, e)
		if p.tok.is(",") {
			p.next()
			continue
		}
		if !p.tok.is(")") {
			return nil, p.unclosed(open, ")", "the fields of struct_pack(")
		}
	}
	p.next()
	return expr.Pack(names, values), nil
}

// row reads DuckDB's row(x, y, …), an unnamed struct there: here the pack
// {v1: x, v2: y, …}.
func (p *parser) row() (expr.Expr, error) {
	nameTok := p.tok
	p.next()
	open := p.tok
	p.next()
	values, err := p.list(open, ")", "the arguments of row(")
	if err != nil {
		return nil, err
	}
	if len(values) == 0 {
		return nil, p.errAt(nameTok.start, nil, "row() needs at least one value")
	}
	names := make([]string, len(values))
	for i := range values {
		names[i] = "v" + strconv.Itoa(i+1)
	}
	return expr.Pack(names, values), nil
}

// structExtract reads DuckDB's struct_extract(s, 'name'), which is s.name
// (s['name']), and struct_extract(s, k), which reads field k (from 1) of
// the structs row(…) makes, whose fields are named v1, v2, …: s.vk. As in
// DuckDB, the key is a literal; a struct with other names has no field vk
// (DuckDB refuses an integer key on a struct with named fields).
func (p *parser) structExtract() (expr.Expr, error) {
	p.next()
	open := p.tok
	p.next() // '('
	s, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.punct(",", " after the struct in struct_extract(s, key)"); err != nil {
		return nil, err
	}
	key := p.tok
	var name string
	switch {
	case key.kind == tokString:
		name = key.text
	case key.kind == tokNumber:
		k, err := strconv.ParseInt(key.text, 10, 64)
		if err != nil || k < 1 {
			return nil, p.errAt(key.start, nil, "struct_extract's position %s is not an integer from 1", key.text)
		}
		name = "v" + strconv.FormatInt(k, 10)
	default:
		return nil, p.errAt(key.start, nil, "struct_extract takes a field name (a string literal) or a position (an integer literal), as in DuckDB")
	}
	p.next()
	if !p.tok.is(")") {
		return nil, p.unclosed(open, ")", "struct_extract(")
	}
	p.next()
	return expr.GetItem(s, name), nil
}

// conditional reads DuckDB's if(c, a, b), which is CASE WHEN c THEN a ELSE
// b END, and nullif(a, b), which is CASE WHEN a = b THEN NULL ELSE a END.
func (p *parser) conditional(name string) (expr.Expr, error) {
	nameTok := p.tok
	p.next()
	open := p.tok
	p.next()
	args, err := p.list(open, ")", "the arguments of "+nameTok.text+"(")
	if err != nil {
		return nil, err
	}
	want := map[string]int{"if": 3, "nullif": 2}[name]
	if len(args) != want {
		return nil, p.errAt(nameTok.start, nil, "%s takes %d arguments, got %d", name, want, len(args))
	}
	if name == "if" {
		return expr.Apply(fn.CaseWhen(true), args...), nil
	}
	null := expr.LitScalar(scalar.Null(dtype.Null()))
	return expr.Apply(fn.CaseWhen(true), expr.Eq(args[0], args[1]), null, args[0]), nil
}

// position reads DuckDB's position(needle IN s), which is strpos(s,
// needle).
func (p *parser) position() (expr.Expr, error) {
	nameTok := p.tok
	p.next()
	p.next() // '('
	needle, err := p.bitwise()
	if err != nil {
		return nil, err
	}
	if err := p.keyword("in", " in position(needle IN string)"); err != nil {
		return nil, err
	}
	s, err := p.bitwise()
	if err != nil {
		return nil, err
	}
	if err := p.punct(")", " to close position("); err != nil {
		return nil, err
	}
	f, ok := p.lookup(fn.IDStrPos)
	if !ok {
		return nil, p.errAt(nameTok.start, nil, "position(… IN …) needs the function strpos, which the registry does not have")
	}
	return expr.Apply(f, s, needle), nil
}

// extract reads SQL's extract(part FROM x), which is date_part('part', x);
// the part is a name or a string.
func (p *parser) extract() (expr.Expr, error) {
	nameTok := p.tok
	p.next()
	p.next() // '('
	partTok := p.tok
	if partTok.kind == tokIdent && strings.EqualFold(partTok.text, "from") {
		return nil, p.errAt(partTok.start, nil, "extract needs a part before FROM, as in extract(year FROM x)")
	}
	if partTok.kind != tokIdent && partTok.kind != tokString && partTok.kind != tokQuoted {
		return nil, p.errAt(partTok.start, nil, "extract takes a part such as year, as in extract(year FROM x), found %s", describe(partTok))
	}
	part := strings.ToLower(partTok.text)
	p.next()
	if err := p.keyword("from", " in extract(part FROM x)"); err != nil {
		return nil, err
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.punct(")", " to close extract("); err != nil {
		return nil, err
	}
	f, ok := p.lookup(fn.IDDatePart)
	if !ok {
		return nil, p.errAt(nameTok.start, nil, "extract(… FROM …) needs the function date_part, which the registry does not have")
	}
	return expr.Apply(f, expr.LitScalar(scalar.String(part)), x), nil
}

// lookup finds a function by name, ignoring case: the name as written, in
// lower case, or any registered name equal to it under case folding. A
// clock function (now(), today()) comes fixed at the parse's instant.
func (p *parser) lookup(name string) (fn.Function, bool) {
	f, ok := p.reg.Lookup(name)
	if !ok {
		f, ok = p.reg.Lookup(strings.ToLower(name))
	}
	if !ok {
		for _, n := range p.reg.Names() {
			if strings.EqualFold(n, name) {
				f, ok = p.reg.Lookup(n)
				break
			}
		}
	}
	if c, clock := f.(fn.ClockFn); clock && !c.Fixed {
		f = c.At(p.now)
	}
	return f, ok
}

// selectCall reads struct_select(x, 'a', …) or struct_exclude(x, 'a', …).
func (p *parser) selectCall(exclude bool) (expr.Expr, error) {
	name := p.tok.text
	p.next()
	open := p.tok
	p.next()
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	var names []string
	for p.tok.is(",") {
		p.next()
		if p.tok.kind != tokString {
			return nil, p.expected("a field name as a string such as 'a' in " + name + "(")
		}
		names = append(names, p.tok.text)
		p.next()
	}
	if !p.tok.is(")") {
		return nil, p.unclosed(open, ")", "the arguments of "+name+"(")
	}
	p.next()
	if exclude {
		return expr.Apply(fn.Exclude(names...), x), nil
	}
	return expr.Apply(fn.Select(names...), x), nil
}

// listLiteral reads [v1, v2, …]. When every element is a literal value it
// is a list literal, whose element type is the supertype of the values'
// types, each value converted to it; otherwise it is list_value(v1, v2, …),
// a list per row.
func (p *parser) listLiteral() (expr.Expr, error) {
	open := p.tok
	p.next()
	var elems []expr.Expr
	var starts []int // where each element starts, for errors
	if p.tok.is("]") {
		p.next()
	} else {
		for {
			starts = append(starts, p.tok.start)
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			elems = append(elems, e)
			if p.tok.is(",") {
				p.next()
				continue
			}
			if p.tok.is("]") {
				p.next()
				break
			}
			return nil, p.unclosed(open, "]", "the list literal")
		}
	}
	values := make([]scalar.Scalar, len(elems))
	for i, e := range elems {
		v, ok := literalValue(e)
		if !ok {
			return p.apply(open, fn.IDListValue, elems...)
		}
		values[i] = v
	}
	elem := dtype.Null()
	for i, v := range values {
		if i == 0 {
			elem = v.DType()
			continue
		}
		t, ok := dtype.Supertype(elem, v.DType())
		if !ok {
			return nil, p.errAt(starts[i], nil, "list literal element %d has type %s, which has no common type with %s (the earlier elements); cast one of them", i+1, v.DType(), elem)
		}
		elem = t
	}
	for i, v := range values {
		c, err := scalar.Cast(v, elem)
		if err != nil {
			return nil, p.errAt(starts[i], err, "list literal element %d cannot be converted to %s: %v", i+1, elem, err)
		}
		values[i] = c
	}
	return expr.LitScalar(scalar.List(dtype.List(elem, false), values)), nil
}

// brace reads what starts with '{': the struct literal {'a': 1, …} (string
// keys, literal values), or a struct pack {a: x, "b c": y} or, as DuckDB
// writes it, {'a': x + 1} (any values). {} is the empty pack.
func (p *parser) brace() (expr.Expr, error) {
	open := p.tok
	p.next()
	if p.tok.is("}") {
		p.next()
		return expr.Pack(nil, nil), nil
	}
	literal := p.tok.kind == tokString
	allLiteral := true // so far, with string keys: a struct literal
	var names []string
	var values []expr.Expr
	var fields []dtype.Field
	var scalars []scalar.Scalar
	seen := map[string]bool{}
	for {
		keyTok := p.tok
		if literal {
			if keyTok.kind != tokString {
				return nil, p.expected("a field name as a string such as 'a' in the struct literal")
			}
			p.next()
		} else if _, ok := p.fieldName(); !ok {
			return nil, p.expected("a field name in the struct {…}")
		}
		if err := p.punct(":", " after the field name"); err != nil {
			return nil, err
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if literal {
			if seen[keyTok.text] {
				return nil, p.errAt(keyTok.start, nil, "duplicate field %s in the struct literal", dtype.QuoteFieldName(keyTok.text))
			}
			seen[keyTok.text] = true
			if v, ok := literalValue(e); ok && allLiteral {
				fields = append(fields, dtype.Field{Name: keyTok.text, Type: v.DType()})
				scalars = append(scalars, v)
			} else {
				allLiteral = false
			}
		}
		names = append(names, keyTok.text)
		values = append(values, e)
		if p.tok.is(",") {
			p.next()
			continue
		}
		if p.tok.is("}") {
			p.next()
			break
		}
		return nil, p.unclosed(open, "}", "the struct")
	}
	if literal && allLiteral {
		return expr.LitScalar(scalar.Struct(dtype.Struct(fields, false), scalars)), nil
	}
	return expr.Pack(names, values), nil
}
