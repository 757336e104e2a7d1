package parse

import (
	"strings"
	"time"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// DefaultMaxDepth is the nesting depth Parse accepts: parentheses, calls,
// CASE, lambdas and literals inside one another, and each prefix operator
// (NOT, -) and postfix operator (.field, ::type) — `NOT NOT a` is two
// levels deeper than a. Deeper text is an error wrapping expr.ErrTooDeep.
// Chains of binary operators (`a + b + c …`) do not count here; the tree
// they make is limited to expr.MaxDepth levels, as every tree is (Bind
// refuses a deeper one).
const DefaultMaxDepth = 1000

// Options adjust ParseWith.
type Options struct {
	// Registry resolves function names; nil means fn.Default.
	Registry *fn.Registry
	// MaxDepth caps the nesting depth; 0 means DefaultMaxDepth.
	MaxDepth int
	// Now is the instant now(), current_timestamp, today() and
	// current_date stand for; zero means the time Parse is called. Every
	// clock function of one expression gets the same instant (see
	// fn.ClockFn).
	Now time.Time
}

// Parse reads one expression in the text syntax (see the package doc),
// resolving function names against fn.Default. A syntax error is an *Error.
func Parse(src string) (expr.Expr, error) { return ParseWith(src, Options{}) }

// ParseWith is Parse with options.
func ParseWith(src string, opts Options) (expr.Expr, error) {
	return parseWith(src, opts, nil)
}

func parseWith(src string, opts Options, spans map[expr.Expr]Span) (expr.Expr, error) {
	p := &parser{src: src, reg: opts.Registry, maxDepth: opts.MaxDepth, spans: spans, now: opts.Now}
	if p.now.IsZero() {
		p.now = time.Now()
	}
	if p.reg == nil {
		p.reg = fn.Default
	}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	p.tok = lex(src, 0)
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.expected("an operator or the end of the expression")
	}
	return e, nil
}

type parser struct {
	src      string
	tok      token // the current token
	prev     token // the token before it
	reg      *fn.Registry
	params   []string // lambda parameters in scope, innermost last
	depth    int
	maxDepth int
	// spans, when asked for (ParseSpans), records where each node is.
	spans map[expr.Expr]Span
	// slicing is set while the lower bound of x[a::s] may be read: a ::
	// not followed by a type is then the slice's two colons.
	slicing bool
	// now is the instant the clock functions are fixed at.
	now time.Time
}

// mark records that e spans the text from byte offset start to the end of
// the last token read, unless e already has a span (the innermost reading
// of a node is the most precise: (a + b) is a + b). It returns e.
func (p *parser) mark(e expr.Expr, start int) expr.Expr {
	if p.spans == nil || e == nil {
		return e
	}
	if _, ok := p.spans[e]; !ok {
		p.spans[e] = Span{Start: start, End: max(p.prev.end, start)}
	}
	return e
}

// next moves to the following token.
func (p *parser) next() {
	p.prev = p.tok
	p.tok = lex(p.src, p.tok.end)
}

// peek is the token after the current one.
func (p *parser) peek() token { return lex(p.src, p.tok.end) }

// errAt is an error at byte offset off.
func (p *parser) errAt(off int, cause error, format string, args ...any) error {
	return newError(p.src, off, cause, format, args...)
}

// expected is the error "expected <what>, found <the current token>", or
// the lexical error when the current token is one.
func (p *parser) expected(what string) error {
	if p.tok.kind == tokError {
		return p.errAt(p.tok.start, nil, "%s", p.tok.msg)
	}
	return p.errAt(p.tok.start, nil, "expected %s, found %s", what, describe(p.tok))
}

// after is " after X" naming the previous token, for error messages.
func (p *parser) after() string {
	if p.prev.end == 0 && p.prev.kind == tokEOF {
		return ""
	}
	return " after " + spell(p.prev)
}

// punct consumes the punctuation s or fails with "expected s <context>".
func (p *parser) punct(s, context string) error {
	if !p.tok.is(s) {
		return p.expected("'" + s + "'" + context)
	}
	p.next()
	return nil
}

// keyword consumes the keyword kw or fails.
func (p *parser) keyword(kw, context string) error {
	if !p.tok.keyword(kw) {
		return p.expected(strings.ToUpper(kw) + context)
	}
	p.next()
	return nil
}

func (p *parser) isParam(name string) bool {
	for i := len(p.params) - 1; i >= 0; i-- {
		if p.params[i] == name {
			return true
		}
	}
	return false
}

// expr reads an expression at the loosest level: a lambda or an OR chain.
// Every nested construct goes through here, so this is where depth counts.
func (p *parser) expr() (expr.Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > p.maxDepth {
		return nil, p.tooDeep()
	}
	start := p.tok.start
	var e expr.Expr
	var err error
	params, ok := p.lambdaHead()
	switch {
	case ok:
		e, err = p.lambda(params)
	case p.tok.keyword("lambda"):
		if params, ok = p.lambdaKeywordHead(); ok {
			e, err = p.lambdaKeyword(params)
			break
		}
		e, err = p.or()
	default:
		e, err = p.or()
	}
	return p.mark(e, start), err
}

// lambdaKeywordHead reports whether DuckDB's lambda form starts at the
// current token, `lambda x: body` or `lambda x, y: body`, and its
// parameters. It only looks ahead; a column named lambda stays a column.
func (p *parser) lambdaKeywordHead() ([]string, bool) {
	var params []string
	t := p.peek()
	for {
		switch {
		case t.kind == tokIdent && !isKeyword(t.text), t.kind == tokQuoted:
			params = append(params, t.text)
		default:
			return nil, false
		}
		t = lex(p.src, t.end)
		if t.is(":") {
			return params, true
		}
		if !t.is(",") {
			return nil, false
		}
		t = lex(p.src, t.end)
	}
}

// lambdaKeyword reads `lambda x, y: body`, whose parameters
// lambdaKeywordHead found.
func (p *parser) lambdaKeyword(params []string) (expr.Expr, error) {
	for !p.tok.is(":") {
		p.next()
	}
	return p.lambdaBody(params)
}

// tooDeep is the error for nesting deeper than maxDepth at the current token.
func (p *parser) tooDeep() error {
	return p.errAt(p.tok.start, expr.ErrTooDeep, "expression nested too deeply (more than %d levels)", p.maxDepth)
}

// nest counts n more levels of nesting (prefix operators) for what is read
// next, or fails when that is more than maxDepth. The caller undoes it with
// p.depth -= n.
func (p *parser) nest(n int) error {
	p.depth += n
	if p.depth > p.maxDepth {
		p.depth -= n
		return p.tooDeep()
	}
	return nil
}

// lambdaHead reports whether a lambda starts at the current token, and its
// parameters: `x ->`, `(x, y) ->` or `() ->`. It only looks ahead.
func (p *parser) lambdaHead() ([]string, bool) {
	paramName := func(t token) (string, bool) {
		switch {
		case t.kind == tokIdent && !isKeyword(t.text):
			return t.text, true
		case t.kind == tokQuoted:
			return t.text, true
		}
		return "", false
	}
	if name, ok := paramName(p.tok); ok {
		return []string{name}, p.peek().is("->")
	}
	if !p.tok.is("(") {
		return nil, false
	}
	t := p.peek()
	var params []string
	if !t.is(")") {
		for {
			name, ok := paramName(t)
			if !ok {
				return nil, false
			}
			params = append(params, name)
			t = lex(p.src, t.end)
			if t.is(")") {
				break
			}
			if !t.is(",") {
				return nil, false
			}
			t = lex(p.src, t.end)
		}
	}
	return params, lex(p.src, t.end).is("->")
}

// lambda reads a lambda whose parameters lambdaHead found.
func (p *parser) lambda(params []string) (expr.Expr, error) {
	for !p.tok.is("->") {
		p.next()
	}
	return p.lambdaBody(params)
}

// lambdaBody reads the body of a lambda after the token that ends its head
// (-> or :), with the parameters in scope.
func (p *parser) lambdaBody(params []string) (expr.Expr, error) {
	p.next()
	n := len(p.params)
	p.params = append(p.params, params...)
	body, err := p.expr()
	p.params = p.params[:n]
	if err != nil {
		return nil, err
	}
	return expr.Fn(params, body), nil
}

func (p *parser) or() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.and()
	for err == nil && p.tok.keyword("or") {
		p.next()
		var right expr.Expr
		if right, err = p.and(); err == nil {
			left = p.mark(expr.Or(left, right), start)
		}
	}
	return left, err
}

func (p *parser) and() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.not()
	for err == nil && p.tok.keyword("and") {
		p.next()
		var right expr.Expr
		if right, err = p.not(); err == nil {
			left = p.mark(expr.And(left, right), start)
		}
	}
	return left, err
}

// not reads prefix NOTs in a loop, so a long run of them costs no stack;
// each counts one level of nesting.
func (p *parser) not() (expr.Expr, error) {
	n, start := 0, p.tok.start
	for p.tok.keyword("not") {
		if err := p.nest(1); err != nil {
			p.depth -= n
			return nil, err
		}
		n++
		p.next()
	}
	e, err := p.compare()
	p.depth -= n
	if err != nil {
		return nil, err
	}
	for ; n > 0; n-- {
		e = p.mark(expr.Not(e), start)
	}
	return e, nil
}

var comparisons = map[string]func(a, b expr.Expr) expr.Expr{
	"=": expr.Eq, "==": expr.Eq, "!=": expr.NotEq, "<>": expr.NotEq,
	"<": expr.Lt, "<=": expr.LtEq, ">": expr.Gt, ">=": expr.GtEq,
}

// matchOperators are DuckDB's (and PostgreSQL's) operators for pattern
// matching: ~ and !~ a regular expression somewhere in the string
// (regexp_matches), ~~ LIKE, ~~* ILIKE, their ! forms NOT, and ^@
// starts_with.
var matchOperators = map[string]func(a, b expr.Expr) expr.Expr{
	"~":    func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.RegexpMatches, a, b) },
	"!~":   func(a, b expr.Expr) expr.Expr { return expr.Not(expr.Apply(fn.RegexpMatches, a, b)) },
	"~~":   func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.Like(false, false), a, b) },
	"!~~":  func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.Like(true, false), a, b) },
	"~~*":  func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.Like(false, true), a, b) },
	"!~~*": func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.Like(true, true), a, b) },
	"^@":   func(a, b expr.Expr) expr.Expr { return expr.Apply(fn.StartsWith, a, b) },
}

// atComparison reports whether the current token starts a comparison.
func (p *parser) atComparison() bool {
	if p.tok.kind == tokPunct {
		return comparisons[p.tok.text] != nil || matchOperators[p.tok.text] != nil
	}
	for _, kw := range []string{"is", "not", "between", "in", "like", "ilike", "glob", "similar"} {
		if p.tok.keyword(kw) {
			return true
		}
	}
	return false
}

// compare reads an additive expression and at most one comparison after
// it: comparisons do not chain.
func (p *parser) compare() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.arrow()
	if err != nil || !p.atComparison() {
		return left, err
	}
	e, err := p.comparison(left)
	if err != nil {
		return nil, err
	}
	if not, ok := e.(*expr.Call); ok && not.Fn.ID() == fn.IDNot && len(not.Args) == 1 {
		p.mark(not.Args[0], start) // x NOT IN (…): the IN itself
	}
	p.mark(e, start)
	if p.atComparison() {
		return nil, p.errAt(p.tok.start, nil, "comparisons do not chain: %s cannot follow a comparison without parentheses, as in (a < b) = c or a < b AND b < c", spell(p.tok))
	}
	return e, nil
}

// comparison reads the operator at the current token and its right side.
func (p *parser) comparison(left expr.Expr) (expr.Expr, error) {
	if p.tok.kind == tokPunct {
		build := comparisons[p.tok.text]
		if build == nil {
			build = matchOperators[p.tok.text]
		}
		p.next()
		right, err := p.arrow()
		if err != nil {
			return nil, err
		}
		return build(left, right), nil
	}
	if p.tok.keyword("is") {
		return p.is(left)
	}
	negated := false
	if p.tok.keyword("not") {
		negated = true
		p.next()
		if !p.tok.keyword("between") && !p.tok.keyword("in") && !p.tok.keyword("like") && !p.tok.keyword("ilike") &&
			!p.tok.keyword("glob") && !p.tok.keyword("similar") {
			return nil, p.expected("BETWEEN, IN, LIKE, ILIKE, GLOB or SIMILAR TO after NOT")
		}
	}
	var e expr.Expr
	switch {
	case p.tok.keyword("glob"), p.tok.keyword("similar"):
		// x GLOB p; x SIMILAR TO p, DuckDB's whole-string regular
		// expression match.
		f := fn.Glob
		if p.tok.keyword("similar") {
			p.next()
			if err := p.keyword("to", " after SIMILAR"); err != nil {
				return nil, err
			}
			f = fn.RegexpFullMatch
		} else {
			p.next()
		}
		pattern, err := p.arrow()
		if err != nil {
			return nil, err
		}
		e = expr.Apply(f, left, pattern)
	case p.tok.keyword("between"):
		p.next()
		lo, err := p.arrow()
		if err != nil {
			return nil, err
		}
		if err := p.keyword("and", " between the bounds of BETWEEN"); err != nil {
			return nil, err
		}
		hi, err := p.arrow()
		if err != nil {
			return nil, err
		}
		e = expr.Between(left, lo, hi)
	case p.tok.keyword("in"):
		p.next()
		open := p.tok
		if err := p.punct("(", " after IN"); err != nil {
			return nil, err
		}
		values, err := p.list(open, ")", "the IN list")
		if err != nil {
			return nil, err
		}
		e = expr.In(left, values...)
	default: // LIKE, ILIKE
		ci := p.tok.keyword("ilike")
		p.next()
		pattern, err := p.arrow()
		if err != nil {
			return nil, err
		}
		like := fn.Like(negated, ci)
		if p.tok.keyword("escape") {
			// DuckDB's ESCAPE: '' (none) or one ASCII character.
			p.next()
			if p.tok.kind != tokString {
				return nil, p.expected("a string literal after ESCAPE")
			}
			if like, err = fn.LikeWithEscape(negated, ci, p.tok.text); err != nil {
				return nil, p.errAt(p.tok.start, nil, "%v", err)
			}
			p.next()
		}
		return expr.Apply(like, left, pattern), nil
	}
	if negated {
		e = expr.Not(e)
	}
	return e, nil
}

// is reads IS [NOT] NULL and IS [NOT] DISTINCT FROM x.
func (p *parser) is(left expr.Expr) (expr.Expr, error) {
	p.next()
	negated := false
	if p.tok.keyword("not") {
		negated = true
		p.next()
	}
	switch {
	case p.tok.keyword("null"):
		p.next()
		if negated {
			return expr.IsNotNull(left), nil
		}
		return expr.IsNull(left), nil
	case p.tok.keyword("distinct"):
		p.next()
		if err := p.keyword("from", " after DISTINCT"); err != nil {
			return nil, err
		}
		right, err := p.arrow()
		if err != nil {
			return nil, err
		}
		if negated {
			return expr.Apply(fn.IsNotDistinctFrom, left, right), nil
		}
		return expr.Apply(fn.IsDistinctFrom, left, right), nil
	}
	return nil, p.expected("NULL or DISTINCT FROM" + p.after())
}

// arrow reads bitwise expressions joined by ->>, DuckDB's
// json_extract_string: one level, left-associative, looser than the
// bitwise operators, + and -, and tighter than comparisons, as in DuckDB
// ('[1,2,3]' ->> 0 + 1 is '2', j ->> 'a' = '1' compares the text, j ->> 'a'
// ->> 'b' descends). DuckDB's || shares the level of ->>, where colexpr's
// shares that of +: j ->> 'a' || 'x' is j ->> ('a' || 'x') here, so
// parenthesize. A call prints as json_extract_string(j, path).
func (p *parser) arrow() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.bitwise()
	for err == nil && p.tok.is("->>") {
		p.next()
		var right expr.Expr
		if right, err = p.bitwise(); err == nil {
			left = p.mark(expr.Apply(fn.JSONExtractString, left, right), start)
		}
	}
	return left, err
}

// bitwiseOps are the bitwise operators, one level of precedence.
var bitwiseOps = map[string]fn.Function{"&": fn.BitAnd, "|": fn.BitOr, "<<": fn.ShiftLeft, ">>": fn.ShiftRight}

// bitwise reads additive expressions joined by & | << >>: one level,
// left-associative, looser than + and - and tighter than comparisons, as in
// DuckDB (1 + 2 << 1 is 6, 6 & 3 | 8 is 10, 5 & 3 = 1 is true).
func (p *parser) bitwise() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.additive()
	for err == nil && p.tok.kind == tokPunct && bitwiseOps[p.tok.text] != nil {
		f := bitwiseOps[p.tok.text]
		p.next()
		var right expr.Expr
		if right, err = p.additive(); err == nil {
			left = p.mark(expr.Apply(f, left, right), start)
		}
	}
	return left, err
}

func (p *parser) additive() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.multiplicative()
	for err == nil && (p.tok.is("+") || p.tok.is("-") || p.tok.is("||")) {
		build := expr.Add
		switch p.tok.text {
		case "-":
			build = expr.Sub
		case "||":
			build = expr.StringConcat
		}
		p.next()
		var right expr.Expr
		if right, err = p.multiplicative(); err == nil {
			left = p.mark(build(left, right), start)
		}
	}
	return left, err
}

func (p *parser) multiplicative() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.power()
	for err == nil && (p.tok.is("*") || p.tok.is("/") || p.tok.is("//") || p.tok.is("%")) {
		build := expr.Mul
		switch p.tok.text {
		case "/", "//": // DuckDB's // divides integers as colexpr's / does
			build = expr.Div
		case "%":
			build = expr.Mod
		}
		p.next()
		var right expr.Expr
		if right, err = p.power(); err == nil {
			left = p.mark(build(left, right), start)
		}
	}
	return left, err
}

// power reads DuckDB's power operators a ** b and a ^ b, which are
// power(a, b): tighter than * and looser than a minus sign, left to right,
// as in DuckDB (2 ** 3 * 2 is 16, -2 ^ 2 is 4, 2 ^ 3 ^ 2 is 64). The
// canonical text is the call, power(a, b).
func (p *parser) power() (expr.Expr, error) {
	start := p.tok.start
	left, err := p.unary()
	for err == nil && (p.tok.is("**") || p.tok.is("^")) {
		op := p.tok
		p.next()
		var right expr.Expr
		if right, err = p.unary(); err == nil {
			f, ok := p.lookup(fn.IDPower)
			if !ok {
				return nil, p.errAt(op.start, nil, "%s needs the function power, which the registry does not have", op.text)
			}
			left = p.mark(expr.Apply(f, left, right), start)
		}
	}
	return left, err
}

// unary reads prefix minus signs in a loop, each one level of nesting. A
// minus directly before a number is part of the number: -5 is the literal
// -5, -(5) is neg(5).
func (p *parser) unary() (expr.Expr, error) {
	n := 0
	minus := p.tok
	start := p.tok.start
	for p.tok.is("-") {
		if err := p.nest(1); err != nil {
			p.depth -= n
			return nil, err
		}
		n++
		minus = p.tok
		p.next()
	}
	defer func(n int) { p.depth -= n }(n)
	var e expr.Expr
	var err error
	operand := p.tok.start
	switch {
	case n > 0 && p.tok.kind == tokNumber:
		operand = minus.start
		e, err = p.number(minus.start, "-"+p.tok.text)
		n--
	case p.tok.is("~"), p.tok.is("~~"):
		e, err = p.bitNot()
	default:
		e, err = p.primary()
	}
	if err != nil {
		return nil, err
	}
	p.mark(e, operand)
	if e, err = p.postfix(e, operand); err != nil {
		return nil, err
	}
	for ; n > 0; n-- {
		e = p.mark(expr.Neg(e), start)
	}
	return e, nil
}

// bitNot reads ~x. As in DuckDB, ~ applies to the whole additive
// expression after it: ~1 + 1 is ~(1 + 1), and (~1) + 1 needs the
// parentheses.
func (p *parser) bitNot() (expr.Expr, error) {
	k := 1
	if p.tok.is("~~") { // the lexer's LIKE operator, here two ~
		k = 2
	}
	if err := p.nest(k); err != nil {
		return nil, err
	}
	defer func() { p.depth -= k }()
	p.next()
	x, err := p.additive()
	if err != nil {
		return nil, err
	}
	for range k {
		x = expr.Apply(fn.BitNot, x)
	}
	return x, nil
}

// postfix reads `.field`, `::type` and `[…]` after an operand, each one
// level of nesting.
func (p *parser) postfix(e expr.Expr, start int) (expr.Expr, error) {
	n := 0
	defer func() { p.depth -= n }()
	for {
		if p.slicing && p.tok.is("::") && p.peek().kind != tokIdent {
			return e, nil // x[a::s]: the colons of the slice, not a cast
		}
		if p.tok.is(".") || p.tok.is("::") || p.tok.is("[") {
			if err := p.nest(1); err != nil {
				return nil, err
			}
			n++
		}
		switch {
		case p.tok.is("."):
			p.next()
			name, ok := p.fieldName()
			if !ok {
				return nil, p.expected("a field name after '.'")
			}
			e = p.mark(expr.GetItem(e, name), start)
		case p.tok.is("::"):
			p.next()
			t, err := p.typeName("'::'")
			if err != nil {
				return nil, err
			}
			e = p.mark(castOrFold(e, t), start)
		case p.tok.is("["):
			var err error
			if e, err = p.index(e); err != nil {
				return nil, err
			}
			p.mark(e, start)
		default:
			return e, nil
		}
	}
}

// index reads what follows x in x[…], as DuckDB does: x['name'] is the
// field name of a struct, x[i] element i of a list (1-based, negative from
// the end; list_element), x[a:b] a slice (list_slice, both bounds
// included); a missing lower bound is 1, a missing upper one -1 (the last
// element); x[a:b:s] takes every s-th element.
func (p *parser) index(x expr.Expr) (expr.Expr, error) {
	open := p.tok
	p.next()
	if p.tok.kind == tokString && p.peek().is("]") {
		name := p.tok.text
		p.next()
		p.next()
		return expr.GetItem(x, name), nil
	}
	var lo, hi expr.Expr
	if !p.tok.is(":") && !p.tok.is("::") {
		var err error
		outer := p.slicing
		p.slicing = true
		lo, err = p.expr()
		p.slicing = outer
		if err != nil {
			return nil, err
		}
		if p.tok.is("]") {
			p.next()
			return p.apply(open, fn.IDListElement, x, lo)
		}
	}
	if !p.tok.is(":") && !p.tok.is("::") {
		line, col := position(p.src, open.start)
		return nil, p.expected("']' to close the '[' at " + itoa(line) + ":" + itoa(col) + ", or ':' for a slice")
	}
	// x[a::s] lexes its two colons as the cast token: no upper bound.
	noUpper := p.tok.is("::")
	if !noUpper {
		p.next()
	}
	if !noUpper && !p.tok.is("]") && !p.tok.is(":") {
		var err error
		if hi, err = p.expr(); err != nil {
			return nil, err
		}
	}
	var step expr.Expr
	if p.tok.is(":") || p.tok.is("::") { // x[a:b:step]
		p.next()
		var err error
		if step, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if !p.tok.is("]") {
		line, col := position(p.src, open.start)
		return nil, p.expected("']' to close the slice '[' at " + itoa(line) + ":" + itoa(col))
	}
	p.next()
	// The bounds left out are the literals 1 and -1 as written, so that
	// the printed slice reads back as the same tree; with a negative step,
	// which walks from the end, -1 and 1. The step's sign must then be
	// known here.
	first, last := "1", "-1"
	if step != nil && (lo == nil || hi == nil) {
		v, ok := literalValue(step)
		if !ok || !v.DType().IsNumeric() || v.IsNull() {
			return nil, p.errAt(open.start, nil, "a slice whose step is not a number written in it needs both bounds: write x[a:b:step]")
		}
		if strings.HasPrefix(v.ValueText(), "-") {
			first, last = last, first
		}
	}
	if lo == nil {
		lo = untypedNumber(first)
	}
	if hi == nil {
		hi = untypedNumber(last)
	}
	if step != nil {
		return p.apply(open, fn.IDListSlice, x, lo, hi, step)
	}
	return p.apply(open, fn.IDListSlice, x, lo, hi)
}

// untypedNumber is the untyped literal of a number written as text.
func untypedNumber(text string) expr.Expr {
	v, err := scalar.ParseNumber(text)
	if err != nil {
		panic("parse: " + text + " is not a number: " + err.Error())
	}
	return expr.Untyped(v)
}

// apply calls the registered function name (the registry may lack it, as a
// registry of one's own can) with args, for syntax that stands for a call;
// at is where that syntax starts.
func (p *parser) apply(at token, name string, args ...expr.Expr) (expr.Expr, error) {
	f, ok := p.lookup(name)
	if !ok {
		return nil, p.errAt(at.start, nil, "%s needs the function %s, which the registry does not have", spell(at), name)
	}
	return expr.Apply(f, args...), nil
}

// fieldName consumes a field name: a bare word (keywords too) or a quoted
// identifier.
func (p *parser) fieldName() (string, bool) {
	if p.tok.kind != tokIdent && p.tok.kind != tokQuoted {
		return "", false
	}
	name := p.tok.text
	p.next()
	return name, true
}

// list reads comma-separated expressions up to the closing punctuation
// close; the opening token has been consumed.
func (p *parser) list(open token, close, what string) ([]expr.Expr, error) {
	var out []expr.Expr
	if p.tok.is(close) {
		p.next()
		return out, nil
	}
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.tok.is(",") {
			p.next()
			continue
		}
		if p.tok.is(close) {
			p.next()
			return out, nil
		}
		return nil, p.unclosed(open, close, what)
	}
}

// unclosed is the error for a list that neither continues nor closes.
func (p *parser) unclosed(open token, close, what string) error {
	line, col := position(p.src, open.start)
	return p.expected(strings.TrimSpace("',' or '"+close+"' in "+what) + " opened at " + itoa(line) + ":" + itoa(col))
}
