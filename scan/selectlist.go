package scan

import (
	"fmt"
	"strings"

	"github.com/colexpr/colexpr/parse"
)

// SplitSelect splits a select list as a person types it — `a, b + 1 AS c`
// — at its top-level commas (not inside parentheses, brackets, braces,
// 'strings' or "quoted names"), and takes an optional trailing `AS name`
// off each item: Exprs with Text and Name set (the name is the text when
// there is no AS). A name used again is renamed as DuckDB does: the second
// a becomes a_1, the third a_2, skipping any name another item already
// has. Errors say where the list is malformed.
func SplitSelect(list string) ([]Expr, error) {
	if strings.TrimSpace(list) == "" {
		return nil, listError(list, 0, "the select list is empty")
	}
	var items []Expr
	start := 0
	var openers []int // where each open bracket is
	closerOf := map[byte]byte{'(': ')', '[': ']', '{': '}'}
	for i := 0; i < len(list); i++ {
		c := list[i]
		switch c {
		case '\'', '"':
			j := closeQuote(list, i)
			if j < 0 {
				return nil, listError(list, i, "unterminated %c quote", c)
			}
			i = j
		case '(', '[', '{':
			openers = append(openers, i)
		case ')', ']', '}':
			if len(openers) == 0 || closerOf[list[openers[len(openers)-1]]] != c {
				return nil, listError(list, i, "unbalanced %q", c)
			}
			openers = openers[:len(openers)-1]
		case ',':
			if len(openers) == 0 {
				item, err := selectItemOf(list, start, i, len(items)+1)
				if err != nil {
					return nil, err
				}
				items = append(items, item)
				start = i + 1
			}
		}
	}
	if len(openers) > 0 {
		at := openers[len(openers)-1]
		return nil, listError(list, at, "%q is never closed", list[at])
	}
	item, err := selectItemOf(list, start, len(list), len(items)+1)
	if err != nil {
		return nil, err
	}
	items = append(items, item)
	dedupeNames(items)
	return items, nil
}

// listError is a *parse.Error at byte offset off of the select list, so
// that it points at the text as a syntax error in an item does.
func listError(list string, off int, format string, args ...any) error {
	pos := parse.PositionAt(list, off)
	return &parse.Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Msg: fmt.Sprintf(format, args...), SourceLine: pos.SourceLine}
}

// dedupeNames renames items whose name an earlier item has, as DuckDB
// does: the second a becomes a_1, the third a_2, skipping any name
// another item already has. (Compile still refuses two select items of one
// name given to it: a program has no rule to rename by, while a list is
// typed by a person who wants the rows.)
func dedupeNames(items []Expr) {
	taken := map[string]bool{}
	for _, it := range items {
		taken[it.Name] = true
	}
	seen := map[string]bool{}
	for i, it := range items {
		if !seen[it.Name] {
			seen[it.Name] = true
			continue
		}
		for k := 1; ; k++ {
			name := fmt.Sprintf("%s_%d", it.Name, k)
			if !taken[name] {
				items[i].Name = name
				taken[name] = true
				seen[name] = true
				break
			}
		}
	}
}

// closeQuote is the index of the quote closing the one at i (a doubled
// quote is an escaped one), or -1.
func closeQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// selectItemOf is item n of the list, list[from:to].
func selectItemOf(list string, from, to, n int) (Expr, error) {
	text := strings.TrimSpace(list[from:to])
	at := from + strings.Index(list[from:to], text) // where the item's text starts
	if text == "" {
		return Expr{}, listError(list, min(from, max(len(list)-1, 0)), "item %d is empty", n)
	}
	if src, name, ok := cutAlias(text); ok {
		if src == "" {
			return Expr{}, listError(list, at, "item %d has a name (%s) but no expression", n, name)
		}
		return Expr{Text: src, Name: name}, nil
	}
	return Expr{Text: text, Name: text}, nil
}

// cutAlias splits `expr AS name` at its last top-level AS, when what
// follows is one name: an identifier, or a "quoted" one.
func cutAlias(text string) (src, name string, ok bool) {
	depth := 0
	last := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\'' || c == '"':
			j := closeQuote(text, i)
			if j < 0 {
				return "", "", false
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && (c == 'a' || c == 'A') && i+1 < len(text) && (text[i+1] == 's' || text[i+1] == 'S'):
			before := i == 0 || isSpace(text[i-1]) || text[i-1] == ')'
			after := i+2 < len(text) && (isSpace(text[i+2]) || text[i+2] == '"')
			if before && after {
				last = i
			}
		}
	}
	if last < 0 {
		return "", "", false
	}
	rest := strings.TrimSpace(text[last+2:])
	switch {
	case len(rest) >= 2 && rest[0] == '"' && closeQuote(rest, 0) == len(rest)-1:
		name = strings.ReplaceAll(rest[1:len(rest)-1], `""`, `"`)
	case isIdent(rest):
		name = rest
	default:
		return "", "", false
	}
	return strings.TrimSpace(text[:last]), name, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
