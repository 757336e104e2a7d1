package expr

import (
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
)

// Format prints e in the canonical text form (see the package doc of parse
// for the grammar). Free variables print as $name, lambda parameters bare,
// and root fields bare unless a lambda parameter shadows them ($.name then).
//
// Calls whose argument count does not fit their operator syntax (a `not`
// with two arguments, a pack with fewer values than names) print in call
// syntax, id(args…); for functions with options (get_item, cast, pack, …)
// that form does not parse back, but Format never fails.
//
// Format recurses, so that it never exhausts the stack it prints a tree
// deeper than MaxDepth (which no stage accepts) with the subtrees below
// that depth written as `…`.
func Format(e Expr) string {
	var p printer
	p.expr(e, fn.PrecLambda)
	return string(p.b)
}

type printer struct {
	b      buffer
	params []string // lambda parameters in scope, innermost last
	depth  int      // the nesting of the node being printed
}

// buffer is a byte buffer with the strings.Builder methods the printer
// uses; unlike a Builder it lets the printer insert a parenthesis before
// text it already wrote.
type buffer []byte

func (b *buffer) WriteString(s string) { *b = append(*b, s...) }
func (b *buffer) WriteByte(c byte) error {
	*b = append(*b, c)
	return nil
}

func (p *printer) inScope(name string) bool {
	for _, q := range p.params {
		if q == name {
			return true
		}
	}
	return false
}

func precedence(e Expr) fn.Precedence {
	c, ok := e.(*Call)
	if !ok {
		if _, isLambda := e.(*Lambda); isLambda {
			return fn.PrecLambda
		}
		return fn.PrecPostfix
	}
	if !operatorForm(c) {
		return fn.PrecPostfix // printed as id(args…)
	}
	switch f := c.Fn.(type) {
	case fn.LiteralFn:
		if strings.HasPrefix(literalText(f), "-") {
			return fn.PrecUnary
		}
		return fn.PrecPostfix
	}
	if c.Fn.ID() == fn.IDNot {
		if inner, ok := c.Args[0].(*Call); ok && negatesInfix(inner) {
			return fn.PrecCompare // printed as x NOT IN (…), x NOT BETWEEN …
		}
	}
	return fn.PropertiesOf(c.Fn).Prec
}

// operatorForm reports whether c has the argument count its operator or
// keyword syntax needs; other calls print as id(args…).
func operatorForm(c *Call) bool {
	if c.Fn == nil {
		return false
	}
	n := len(c.Args)
	switch f := c.Fn.(type) {
	case fn.LiteralFn:
		return n == 0
	case fn.GetItemFn, fn.CastFn, fn.SelectFn:
		return n == 1
	case fn.LikeFn:
		return n == 2
	case fn.PackFn:
		return n == len(f.Names)
	case fn.CaseWhenFn:
		if f.HasElse {
			return n >= 3 && n%2 == 1
		}
		return n >= 2 && n%2 == 0
	}
	switch c.Fn.ID() {
	case fn.IDBetween:
		return n == 3
	case fn.IDInList:
		return n >= 1
	}
	switch fn.PropertiesOf(c.Fn).Syntax {
	case fn.SyntaxPrefix, fn.SyntaxPostfix:
		return n == 1
	case fn.SyntaxInfix:
		return n == 2
	}
	return true
}

// negatesInfix reports whether not(c) prints as x NOT BETWEEN … or x NOT IN (…).
func negatesInfix(c *Call) bool {
	return (c.Fn.ID() == fn.IDBetween || c.Fn.ID() == fn.IDInList) && operatorForm(c)
}

// literalText is how a literal prints: an untyped number as itself, a typed
// value in SQL form (such as 5::i64).
func literalText(l fn.LiteralFn) string {
	if l.Untyped {
		return l.Value.ValueText()
	}
	text := l.Value.SQL()
	if text == "{}" {
		// On its own, {} is the empty struct pack; the type suffix makes it
		// the empty struct literal.
		return "{}::struct<>"
	}
	return text
}

// expr prints e, in parentheses when it binds looser than min.
func (p *printer) expr(e Expr, min fn.Precedence) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		p.b.WriteString("…")
		return
	}
	if precedence(e) < min {
		p.b.WriteByte('(')
		p.node(e)
		p.b.WriteByte(')')
		return
	}
	p.node(e)
}

func (p *printer) node(e Expr) {
	switch n := e.(type) {
	case *Root:
		p.b.WriteByte('$')
	case *Var:
		if p.inScope(n.Name) {
			p.b.WriteString(dtype.QuoteFieldName(n.Name))
		} else {
			p.b.WriteString("$" + dtype.QuoteFieldName(n.Name))
		}
	case *Lambda:
		p.lambda(n)
	case *Call:
		p.call(n)
	}
}

// lambda prints DuckDB's form, lambda x, y: body (the parser reads the
// arrow form x -> body too); a lambda without parameters, which DuckDB's
// form cannot write, prints as () -> body.
func (p *printer) lambda(l *Lambda) {
	if len(l.Params) == 0 {
		p.b.WriteString("() -> ")
	} else {
		p.b.WriteString("lambda ")
		for i, q := range l.Params {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(dtype.QuoteFieldName(q))
		}
		p.b.WriteString(": ")
	}
	p.params = append(p.params, l.Params...)
	p.expr(l.Body, fn.PrecOr)
	p.params = p.params[:len(p.params)-len(l.Params)]
}

func (p *printer) args(args []Expr) {
	for i, a := range args {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.expr(a, fn.PrecLambda)
	}
}

func (p *printer) call(c *Call) {
	if c.Fn == nil {
		// Not a valid tree, but error messages print it: never panic.
		p.b.WriteString("<nil function>(")
		p.args(c.Args)
		p.b.WriteByte(')')
		return
	}
	id := c.Fn.ID()
	if !operatorForm(c) {
		// and, or, not are keywords: "and"(a, b, c).
		p.b.WriteString(dtype.QuoteFieldName(id))
		p.b.WriteByte('(')
		p.args(c.Args)
		p.b.WriteByte(')')
		return
	}
	if props := fn.PropertiesOf(c.Fn); props.Syntax == fn.SyntaxInfix && len(c.Args) == 2 {
		prec := props.Prec
		left, right := prec, prec+1 // left-associative
		if prec == fn.PrecCompare {
			left = prec + 1 // comparisons do not chain
		}
		p.expr(c.Args[0], left)
		p.b.WriteString(props.Token)
		p.expr(c.Args[1], right)
		return
	}
	switch f := c.Fn.(type) {
	case fn.LiteralFn:
		p.b.WriteString(literalText(f))
		return
	case fn.GetItemFn:
		if _, isRoot := c.Args[0].(*Root); isRoot && !p.inScope(f.Field) {
			p.b.WriteString(dtype.QuoteFieldName(f.Field))
			return
		}
		p.expr(c.Args[0], fn.PrecPostfix)
		p.b.WriteString("." + dtype.QuoteFieldName(f.Field))
		return
	case fn.CastFn:
		if f.Try {
			p.b.WriteString("TRY_CAST(")
		} else {
			p.b.WriteString("CAST(")
		}
		p.expr(c.Args[0], fn.PrecLambda)
		p.b.WriteString(" AS " + f.To.String() + ")")
		return
	case fn.LikeFn:
		p.expr(c.Args[0], fn.PrecCompare+1)
		if f.Negated {
			p.b.WriteString(" NOT")
		}
		if f.CaseInsensitive {
			p.b.WriteString(" ILIKE ")
		} else {
			p.b.WriteString(" LIKE ")
		}
		p.expr(c.Args[1], fn.PrecCompare+1)
		if esc, ok := f.EscapeText(); ok {
			p.b.WriteString(" ESCAPE " + dtype.QuoteString(esc))
		}
		return
	case fn.CaseWhenFn:
		p.b.WriteString("CASE")
		branches := f.Branches(len(c.Args))
		for i := 0; i < branches; i++ {
			p.b.WriteString(" WHEN ")
			p.expr(c.Args[2*i], fn.PrecLambda+1)
			p.b.WriteString(" THEN ")
			p.expr(c.Args[2*i+1], fn.PrecLambda+1)
		}
		if f.HasElse {
			p.b.WriteString(" ELSE ")
			p.expr(c.Args[len(c.Args)-1], fn.PrecLambda+1)
		}
		p.b.WriteString(" END")
		return
	case fn.PackFn:
		p.b.WriteByte('{')
		for i, a := range c.Args {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(dtype.QuoteFieldName(f.Names[i]) + ": ")
			p.expr(a, fn.PrecLambda+1)
		}
		p.b.WriteByte('}')
		return
	case fn.SelectFn:
		if f.Exclude {
			p.b.WriteString("struct_exclude(")
		} else {
			p.b.WriteString("struct_select(")
		}
		p.expr(c.Args[0], fn.PrecLambda)
		for _, n := range f.Names {
			p.b.WriteString(", " + dtype.QuoteString(n))
		}
		p.b.WriteByte(')')
		return
	}
	switch id {
	case fn.IDNeg:
		p.b.WriteByte('-')
		if lit, ok := c.Args[0].(*Call); ok && lit.Fn.ID() == fn.IDLiteral {
			// -(5) stays a negation; -5 would read back as the literal -5.
			p.b.WriteByte('(')
			p.node(lit)
			p.b.WriteByte(')')
			return
		}
		// A minus before a number would be read as part of the number:
		// neg(5.x) is -(5.x), not -5.x (the field x of -5).
		at := len(p.b)
		p.expr(c.Args[0], fn.PrecUnary)
		// Nor may it meet another minus: -(-x), since -- starts a comment.
		if len(p.b) > at && (p.b[at] >= '0' && p.b[at] <= '9' || p.b[at] == '.' || p.b[at] == '-') {
			operand := string(p.b[at:])
			p.b = append(p.b[:at], '(')
			p.b.WriteString(operand)
			p.b.WriteByte(')')
		}
		return
	case fn.IDNot:
		if inner, ok := c.Args[0].(*Call); ok && negatesInfix(inner) {
			p.notInfix(inner)
			return
		}
		p.b.WriteString("NOT ")
		p.expr(c.Args[0], fn.PrecNot)
		return
	case fn.IDBetween, fn.IDInList:
		p.notInfix2(c, "")
		return
	}
	if props := fn.PropertiesOf(c.Fn); props.Syntax == fn.SyntaxPostfix {
		p.expr(c.Args[0], props.Prec+1)
		p.b.WriteString(props.Token)
		return
	}
	p.b.WriteString(id)
	p.b.WriteByte('(')
	p.args(c.Args)
	p.b.WriteByte(')')
}

func (p *printer) notInfix(c *Call) { p.notInfix2(c, " NOT") }

// notInfix2 prints BETWEEN and IN, with not = " NOT" for the negated forms.
func (p *printer) notInfix2(c *Call, not string) {
	p.expr(c.Args[0], fn.PrecCompare+1)
	if c.Fn.ID() == fn.IDBetween {
		p.b.WriteString(not + " BETWEEN ")
		p.expr(c.Args[1], fn.PrecAdd)
		p.b.WriteString(" AND ")
		p.expr(c.Args[2], fn.PrecAdd)
		return
	}
	p.b.WriteString(not + " IN (")
	p.args(c.Args[1:])
	p.b.WriteByte(')')
}
