package parse

import (
	"strings"

	"github.com/colexpr/colexpr/expr"
)

// Span is where a node of a parsed tree is in the source: the byte offsets
// of its first character and one past its last.
type Span struct{ Start, End int }

// Spans are the places of the nodes of one parsed tree, so that errors
// found after parsing (by binding, coercion, or a check of the columns)
// can point at the text, as syntax errors do.
type Spans struct {
	src   string
	spans map[expr.Expr]Span
}

// ParseSpans is ParseWith that also records where each node of the tree is
// in src. Nodes the parser shares between trees ($ under bare names) have
// no place of their own.
func ParseSpans(src string, opts Options) (expr.Expr, *Spans, error) {
	s := &Spans{src: src, spans: map[expr.Expr]Span{}}
	e, err := parseWith(src, opts, s.spans)
	if err != nil {
		return nil, nil, err
	}
	return e, s, nil
}

// Of is the span of node e, if the parser made it.
func (s *Spans) Of(e expr.Expr) (Span, bool) {
	if s == nil {
		return Span{}, false
	}
	sp, ok := s.spans[e]
	return sp, ok
}

// Position is the place of the node at path (as expr.BindError and
// coerce.Error name it: args[1].body.args[0]) in root, the tree parsed.
func (s *Spans) Position(root expr.Expr, path string) (Position, bool) {
	n, ok := expr.At(root, path)
	if !ok {
		return Position{}, false
	}
	return s.PositionOf(n)
}

// PositionOf is the place of node e of the tree parsed.
func (s *Spans) PositionOf(e expr.Expr) (Position, bool) {
	sp, ok := s.Of(e)
	if !ok {
		return Position{}, false
	}
	return PositionAt(s.src, sp.Start), true
}

// Position is a place in the source text, as an error shows it.
type Position struct {
	Line   int // 1-based line
	Column int // 1-based column, counted in runes (characters)
	Offset int // 0-based byte offset in the source
	// SourceLine is the source line of the place, without its line break.
	SourceLine string
}

// PositionAt is the position of byte offset off of src.
func PositionAt(src string, off int) Position {
	off = min(max(off, 0), len(src))
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	lineEnd := strings.IndexByte(src[off:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += off
	}
	line, col := position(src, off)
	return Position{Line: line, Column: col, Offset: off, SourceLine: strings.TrimSuffix(src[lineStart:lineEnd], "\r")}
}

// Excerpt is the source line (cut around the column when long) and a caret
// under the column, each line indented by two spaces:
//
//	a + b +
//	        ^
func (p Position) Excerpt() string {
	line, col := window(p.SourceLine, p.Column)
	var b strings.Builder
	b.WriteString("  " + line + "\n  ")
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	b.WriteByte('^')
	return b.String()
}
