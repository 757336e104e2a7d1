package main

import (
	"fmt"
	"strings"
)

// selectItem is one expression of --select, with its output column name.
type selectItem struct {
	src  string // the expression's text
	name string // AS name, or the text itself
}

// splitSelect splits a --select list at its top-level commas — not inside
// parentheses, brackets, braces, 'strings' or "quoted names" — and takes an
// optional trailing `AS name` off each item.
func splitSelect(list string) ([]selectItem, error) { return splitList(list, "--select") }

// splitList is splitSelect for a list that messages call what.
func splitList(list, what string) ([]selectItem, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("%s: the list is empty", what)
	}
	var items []selectItem
	start := 0
	var openers []byte
	closerOf := map[byte]byte{'(': ')', '[': ']', '{': '}'}
	for i := 0; i < len(list); i++ {
		c := list[i]
		switch c {
		case '\'', '"':
			j := closeQuote(list, i)
			if j < 0 {
				return nil, fmt.Errorf("%s: unterminated %c quote starting at column %d", what, c, i+1)
			}
			i = j
		case '(', '[', '{':
			openers = append(openers, c)
		case ')', ']', '}':
			if len(openers) == 0 || closerOf[openers[len(openers)-1]] != c {
				return nil, fmt.Errorf("%s: unbalanced %q at column %d", what, c, i+1)
			}
			openers = openers[:len(openers)-1]
		case ',':
			if len(openers) == 0 {
				item, err := selectItemOf(list[start:i], len(items)+1, what)
				if err != nil {
					return nil, err
				}
				items = append(items, item)
				start = i + 1
			}
		}
	}
	if len(openers) > 0 {
		return nil, fmt.Errorf("%s: %q is never closed", what, openers[len(openers)-1])
	}
	item, err := selectItemOf(list[start:], len(items)+1, what)
	if err != nil {
		return nil, err
	}
	items = append(items, item)
	dedupeNames(items)
	return items, nil
}

// dedupeNames renames items whose name an earlier item has, as DuckDB
// does: the second a becomes a_1, the third a_2, skipping any name
// another item already has. (scan.Compile, for library users, still
// refuses two select items of one name: a program has no rule to rename
// by, while a command line is typed by a person who wants the rows.)
func dedupeNames(items []selectItem) {
	taken := map[string]bool{}
	for _, it := range items {
		taken[it.name] = true
	}
	seen := map[string]bool{}
	for i, it := range items {
		if !seen[it.name] {
			seen[it.name] = true
			continue
		}
		for k := 1; ; k++ {
			name := fmt.Sprintf("%s_%d", it.name, k)
			if !taken[name] {
				items[i].name = name
				taken[name] = true
				seen[name] = true
				break
			}
		}
	}
}

// itemWhat names item i of a list in messages: whole when the list has
// one item, else prefix + "item N" (counting from 1).
func itemWhat(items []selectItem, i int, whole, prefix string) string {
	if len(items) == 1 {
		return whole
	}
	return fmt.Sprintf("%sitem %d", prefix, i+1)
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

func selectItemOf(text string, n int, what string) (selectItem, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return selectItem{}, fmt.Errorf("%s: item %d is empty", what, n)
	}
	if src, name, ok := cutAlias(text); ok {
		if src == "" {
			return selectItem{}, fmt.Errorf("%s: item %d has a name (%s) but no expression", what, n, name)
		}
		return selectItem{src: src, name: name}, nil
	}
	return selectItem{src: text, name: text}, nil
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
