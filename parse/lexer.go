package parse

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokError          // a lexical error; msg says what
	tokIdent          // a bare word: a name or a keyword
	tokQuoted         // a "quoted identifier"
	tokDollar         // $ on its own: the root
	tokVar            // $name or $"name": a free variable
	tokNumber         // 12, 2.5, 1e-3
	tokString         // 'text'
	tokHex            // x'00ff'
	tokPunct          // an operator or punctuation: + - * / % = != <> < <= > >= ( ) [ ] { } , . : :: ->
)

// token is one lexeme. text is the decoded value for strings, quoted
// identifiers, variables and hex literals (the hex digits), and the source
// text otherwise.
type token struct {
	kind       tokKind
	start, end int // byte offsets in the source
	text       string
	msg        string // for tokError
}

// is reports whether t is the punctuation s.
func (t token) is(s string) bool { return t.kind == tokPunct && t.text == s }

// keyword reports whether t is the bare word kw, compared case-insensitively.
func (t token) keyword(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

// lex reads the token that starts at byte offset off (after white space).
// It is a pure function of the offset, so the parser can look ahead by
// lexing from a later offset and can jump over text another reader
// consumed (a type after `::` or AS).
func lex(src string, off int) token {
	off, bad := skipSpace(src, off)
	if bad >= 0 {
		return token{kind: tokError, start: bad, end: len(src), msg: "unclosed comment: /* needs a closing */"}
	}
	if off >= len(src) {
		return token{kind: tokEOF, start: off, end: off}
	}
	c := src[off]
	switch {
	case c == '\'':
		return lexQuoted(src, off, off+1, '\'', tokString, "string")
	case c == '"':
		return lexQuoted(src, off, off+1, '"', tokQuoted, "quoted identifier")
	case c >= '0' && c <= '9', c == '.' && off+1 < len(src) && src[off+1] >= '0' && src[off+1] <= '9':
		return lexNumber(src, off)
	case c == '$':
		if off+1 < len(src) && src[off+1] == '"' {
			t := lexQuoted(src, off, off+2, '"', tokVar, "quoted variable name")
			return t
		}
		if end := scanWord(src, off+1); end > off+1 {
			return token{kind: tokVar, start: off, end: end, text: src[off+1 : end]}
		}
		if off+1 < len(src) && src[off+1] >= '0' && src[off+1] <= '9' {
			return token{kind: tokError, start: off, end: off + 1, msg: `a variable name after $ starts with a letter or _; quote other names: $"1st"`}
		}
		return token{kind: tokDollar, start: off, end: off + 1, text: "$"}
	case (c == 'x' || c == 'X') && off+1 < len(src) && src[off+1] == '\'':
		t := lexQuoted(src, off, off+2, '\'', tokHex, "binary literal")
		if t.kind == tokHex {
			for i := 0; i < len(t.text); i++ {
				if !isHex(t.text[i]) {
					return token{kind: tokError, start: off + 2 + i, end: off + 2 + i, msg: "invalid hex digit " + describeRune(t.text[i:]) + " in binary literal"}
				}
			}
			if len(t.text)%2 != 0 {
				return token{kind: tokError, start: off, end: t.end, msg: "binary literal x'…' needs an even number of hex digits"}
			}
		}
		return t
	}
	if end := scanWord(src, off); end > off {
		return token{kind: tokIdent, start: off, end: end, text: src[off:end]}
	}
	for _, p := range punctuation {
		if strings.HasPrefix(src[off:], p) {
			return token{kind: tokPunct, start: off, end: off + len(p), text: p}
		}
	}
	r, _ := utf8.DecodeRuneInString(src[off:])
	if r == utf8.RuneError {
		return token{kind: tokError, start: off, end: off, msg: "invalid UTF-8 in the source"}
	}
	return token{kind: tokError, start: off, end: off, msg: "unexpected character " + describeRune(src[off:])}
}

// skipSpace skips white space and comments — `-- to the end of the line`
// and `/* … */`, as in SQL — from off. bad is the offset of a /* that is
// never closed, or -1.
func skipSpace(src string, off int) (next, bad int) {
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			off++
			continue
		case '-':
			if strings.HasPrefix(src[off:], "--") {
				end := strings.IndexByte(src[off:], '\n')
				if end < 0 {
					return len(src), -1
				}
				off += end + 1
				continue
			}
		case '/':
			if strings.HasPrefix(src[off:], "/*") {
				end := strings.Index(src[off+2:], "*/")
				if end < 0 {
					return len(src), off
				}
				off += 2 + end + 2
				continue
			}
		}
		break
	}
	return off, -1
}

// punctuation lists the operators, longest first so that `::` wins over `:`.
var punctuation = []string{
	"!~~*", "!~~", "~~*", "->>",
	"::", ":=", "->", "!=", "<>", "<=", ">=", "==", "||", "<<", ">>", "//", "**", "!~", "~~", "^@",
	"+", "-", "*", "/", "%", "=", "<", ">", "(", ")", "[", "]", "{", "}", ",", ".", ":", "&", "|", "~", "^",
}

func describeRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	return strconv.QuoteRune(r)
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanWord returns the end of the word starting at off: a letter or
// underscore followed by letters, digits and underscores. Letters may be
// any Unicode letters.
func scanWord(src string, off int) int {
	i := off
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > off && c >= '0' && c <= '9') {
				i++
				continue
			}
			break
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || (i > off && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)))) {
			break
		}
		i += n
	}
	return i
}

// lexQuoted reads text up to the closing quote q, where a doubled quote
// stands for one. from is the offset just after the opening quote.
func lexQuoted(src string, start, from int, q byte, kind tokKind, what string) token {
	var b strings.Builder
	i := from
	for i < len(src) {
		j := strings.IndexByte(src[i:], q)
		if j < 0 {
			break
		}
		b.WriteString(src[i : i+j])
		i += j + 1
		if i < len(src) && src[i] == q {
			b.WriteByte(q)
			i++
			continue
		}
		text := b.String()
		if !utf8.ValidString(text) {
			bad := from
			for bad < i {
				r, n := utf8.DecodeRuneInString(src[bad:])
				if r == utf8.RuneError && n <= 1 {
					break
				}
				bad += n
			}
			return token{kind: tokError, start: bad, end: bad, msg: "invalid UTF-8 in " + what}
		}
		return token{kind: kind, start: start, end: i, text: text}
	}
	closing := "quote '"
	if q == '"' {
		closing = `double quote "`
	}
	return token{kind: tokError, start: start, end: len(src), msg: "unterminated " + what + ": no closing " + closing}
}

// lexNumber reads a number as scalar.ParseNumber takes it: digits with an
// optional fraction (5.25, .5, and 5. with a trailing point) and an
// optional exponent. A point followed by a name is not part of the number
// (`5.x` is the field x of 5; `5..x` the field x of 5.). A number running
// into a letter is an error.
func lexNumber(src string, off int) token {
	i := off
	digits := func() {
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	digits()
	if i < len(src) && src[i] == '.' {
		next := i + 1
		switch {
		case next < len(src) && src[next] >= '0' && src[next] <= '9':
			i = next
			digits()
		case next < len(src) && (src[next] == '"' || scanWord(src, next) > next):
			// a field access
		case i > off:
			i = next // a trailing point: 5. is decimal(1,0)
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			i = j
			digits()
		}
	}
	if end := scanWord(src, i); end > i {
		return token{kind: tokError, start: off, end: end, msg: "invalid number " + strconv.Quote(src[off:end])}
	}
	return token{kind: tokNumber, start: off, end: i, text: src[off:i]}
}
