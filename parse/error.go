package parse

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/colexpr/colexpr/internal/levenshtein"
)

// Error is a syntax error: where it is and what was expected there.
//
// Error() renders the message with the source line and a caret under the
// column:
//
//	parse error at 1:9: expected an expression after '+', found end of input
//	  a + b +
//	          ^
type Error struct {
	Line   int    // 1-based line
	Column int    // 1-based column, counted in runes (characters)
	Offset int    // 0-based byte offset in the source
	Msg    string // what was expected and what was found
	// SourceLine is the source line the error is on, without its line break.
	SourceLine string
	// Err is the underlying cause when there is one (a bad type from the
	// dtype package, a value the scalar package could not convert), for
	// errors.Is and errors.As.
	Err error
}

func (e *Error) Error() string {
	pos := Position{Line: e.Line, Column: e.Column, Offset: e.Offset, SourceLine: e.SourceLine}
	return fmt.Sprintf("parse error at %d:%d: %s\n%s", e.Line, e.Column, e.Msg, pos.Excerpt())
}

func (e *Error) Unwrap() error { return e.Err }

// window cuts a long source line down to the part around column col and
// returns it with the column of the same character in the cut line.
func window(line string, col int) (string, int) {
	const before, after = 60, 40
	n := utf8.RuneCountInString(line)
	if n <= before+after+1 {
		return line, col
	}
	runes := []rune(line)
	from, to := col-1-before, col-1+after
	prefix, suffix := "…", "…"
	if from <= 0 {
		from, prefix = 0, ""
	}
	if to >= len(runes) {
		to, suffix = len(runes), ""
	}
	return prefix + string(runes[from:to]) + suffix, col - from + utf8.RuneCountInString(prefix)
}

// newError builds an Error at byte offset off of src.
func newError(src string, off int, cause error, format string, args ...any) *Error {
	pos := PositionAt(src, off)
	return &Error{
		Line:       pos.Line,
		Column:     pos.Column,
		Offset:     pos.Offset,
		Msg:        fmt.Sprintf(format, args...),
		SourceLine: pos.SourceLine,
		Err:        cause,
	}
}

// position is the 1-based line and column (in runes) of byte offset off.
func position(src string, off int) (line, col int) {
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	return strings.Count(src[:off], "\n") + 1, utf8.RuneCountInString(src[lineStart:off]) + 1
}

func itoa(n int) string { return strconv.Itoa(n) }

// describe names a token the way an error message says what was found.
func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokError:
		return t.msg
	case tokIdent:
		if isKeyword(t.text) {
			return "keyword " + strings.ToUpper(t.text)
		}
		return "name " + t.text
	case tokQuoted:
		return "name " + strconv.Quote(t.text)
	case tokDollar:
		return "'$'"
	case tokVar:
		return "variable $" + t.text
	case tokNumber:
		return "number " + clip(t.text)
	case tokString:
		return "string '" + clip(strings.ReplaceAll(t.text, "'", "''")) + "'"
	case tokHex:
		return "binary literal x'" + clip(t.text) + "'"
	}
	return "'" + t.text + "'"
}

// spell is how an error message quotes a token it follows ("after '+'").
func spell(t token) string {
	switch t.kind {
	case tokPunct:
		return "'" + t.text + "'"
	case tokIdent:
		if isKeyword(t.text) {
			return strings.ToUpper(t.text)
		}
	}
	return describe(t)
}

// clip shortens s for an error message and keeps it on one line.
func clip(s string) string {
	const max = 30
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}

// suggest lists up to three names from candidates close to name (by edit
// distance, or sharing a prefix), closest first.
func suggest(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	var out []scored
	lname := strings.ToLower(name)
	if len(lname) > 64 {
		return nil
	}
	limit := max(1, len(lname)/3)
	for _, c := range candidates {
		if isKeyword(c) {
			continue // and, or, not: callable only quoted, never what was meant
		}
		lc := strings.ToLower(c)
		d := levenshtein.Distance(lname, lc)
		if d <= limit || (len(lname) >= 3 && (strings.HasPrefix(lc, lname) || strings.HasPrefix(lname, lc) && len(lc) >= 3)) {
			out = append(out, scored{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].name < out[j].name
	})
	var names []string
	for i := 0; i < len(out) && i < 3; i++ {
		names = append(names, out[i].name)
	}
	return names
}
