package kernels

// LIKE and ILIKE.
//
// `%` matches any run of characters, `_` exactly one character (a code
// point; a byte that is not valid UTF-8 counts as one), and `\` makes the
// next character literal; a pattern ending in a lone `\` is an error. (As
// in PostgreSQL: DuckDB's LIKE has no escape character unless an ESCAPE
// clause names one.) LikeEscaped takes another escape character, or none,
// for `LIKE … ESCAPE '!'`.
//
// A pattern is compiled once into a matcher. The common shapes get a
// dedicated loop over the offsets and bytes of the array, with no call per
// row: exact ('abc'), prefix ('abc%'), suffix ('%abc'), contains ('%abc%',
// searched across the whole value buffer at once) and everything ('%').
// Other patterns use a general matcher: the pattern split at '%' into
// segments of literal bytes and '_' wildcards, the first segment anchored at
// the start, the last at the end, and the middle ones found leftmost-first
// in between, which is exact for LIKE because '%' absorbs whatever the
// earliest match leaves. No regular expressions are involved.
//
// ILIKE compares characters under Unicode simple case folding: two
// characters are equal when unicode.SimpleFold cycles one to the other
// ('k', 'K' and the Kelvin sign 'K' are all equal). Both the pattern and
// each value are mapped to one representative per folding orbit, then
// matched as with LIKE. A value buffer that is all ASCII is folded at once,
// eight bytes at a time, and matched with the LIKE loops; a prefix of up to
// 8 ASCII bytes is compared with one load per row.

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// LikeEscape is the escape character of LIKE patterns: it makes the next
// character (`%`, `_`, or itself) literal.
const LikeEscape = '\\'

type matchKind uint8

const (
	matchAll      matchKind = iota // only '%': every value
	matchExact                     // no wildcards
	matchPrefix                    // lit%
	matchSuffix                    // %lit
	matchContains                  // %lit%
	matchGeneral
)

// matcher is a compiled pattern.
type matcher struct {
	kind matchKind
	lit  string    // exact, prefix, suffix, contains
	segs []segment // general: the pattern split at '%'
	fold bool      // ILIKE: lit and segs are folded; values are folded before matching
}

// segment is a run of the pattern between two '%': literal bytes and '_'
// wildcards, in order.
type segment struct {
	items []segItem
	runes int  // characters it consumes
	wild  bool // holds a '_'
}

// segItem is literal bytes (any == 0) or any == k wildcards.
type segItem struct {
	lit []byte
	any int
}

// NoLikeEscape is the escape argument of LikeEscaped for a pattern without
// an escape character (DuckDB's empty ESCAPE string).
const NoLikeEscape = -1

// compileLike compiles a LIKE pattern with the escape character `\`; with
// fold the literals are case-folded for ILIKE.
func compileLike(pattern []byte, fold bool) (*matcher, error) {
	return compileLikeEscaped(pattern, fold, LikeEscape)
}

// compileLikeEscaped is compileLike with the escape character esc (an ASCII
// byte), or none when esc is NoLikeEscape.
func compileLikeEscaped(pattern []byte, fold bool, esc int) (*matcher, error) {
	segs := []segment{{}}
	var lit []byte // literal bytes of the current item
	cur := &segs[0]
	flush := func() {
		if len(lit) > 0 {
			cur.items = append(cur.items, segItem{lit: lit})
			lit = nil
		}
	}
	for i := 0; i < len(pattern); {
		r, w := utf8.DecodeRune(pattern[i:])
		c := pattern[i]
		switch {
		case int(c) == esc:
			if i+1 >= len(pattern) {
				return nil, fmt.Errorf("LIKE pattern %q ends with the escape character %q, which must precede a character: %w", pattern, rune(esc), errs.ErrInvalidArgument)
			}
			r, w = utf8.DecodeRune(pattern[i+1:])
			lit = appendLit(lit, pattern[i+1:i+1+w], r, fold)
			cur.runes++
			i += 1 + w
			continue
		case c == '%':
			flush()
			if len(cur.items) > 0 || len(segs) == 1 {
				segs = append(segs, segment{})
			}
			cur = &segs[len(segs)-1]
		case c == '_':
			flush()
			if k := len(cur.items); k > 0 && cur.items[k-1].any > 0 {
				cur.items[k-1].any++
			} else {
				cur.items = append(cur.items, segItem{any: 1})
			}
			cur.runes++
			cur.wild = true
		default:
			lit = appendLit(lit, pattern[i:i+w], r, fold)
			cur.runes++
		}
		i += w
	}
	flush()
	m := &matcher{fold: fold, kind: matchGeneral, segs: segs}
	// Classify the plain shapes. segs[0] is anchored at the start; with more
	// than one segment the last is anchored at the end (an empty one is a
	// trailing '%').
	for _, s := range segs {
		if s.wild {
			return m, nil
		}
	}
	text := func(s segment) string {
		if len(s.items) == 0 {
			return ""
		}
		return string(s.items[0].lit)
	}
	switch {
	case len(segs) == 1:
		m.kind, m.lit = matchExact, text(segs[0])
	case len(segs) == 2 && len(segs[1].items) == 0:
		m.kind, m.lit = matchPrefix, text(segs[0])
		if m.lit == "" {
			m.kind = matchAll
		}
	case len(segs) == 2 && len(segs[0].items) == 0:
		m.kind, m.lit = matchSuffix, text(segs[1])
	case len(segs) == 3 && len(segs[0].items) == 0 && len(segs[2].items) == 0:
		m.kind, m.lit = matchContains, text(segs[1])
	}
	return m, nil
}

// appendLit appends one pattern character (its bytes b, rune r), folded
// for ILIKE.
func appendLit(lit, b []byte, r rune, fold bool) []byte {
	if !fold || (r == utf8.RuneError && len(b) == 1) {
		return append(lit, b...)
	}
	return utf8.AppendRune(lit, foldRune(r))
}

// foldRune is the representative of r's simple case-folding orbit: its
// smallest member.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(asciiUpper[r])
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

// asciiFold is foldRune over ASCII bytes. ASCII letters fold to upper case
// ('K' < 'k' < U+212A), so it is the upper-case table.
var asciiFold = &asciiUpper

// foldInto appends s folded to dst.
func foldInto(dst, s []byte) []byte {
	if isASCII(s) {
		k := len(dst)
		dst = append(dst, s...)
		caseASCII(dst[k:], s, true) // asciiFold is upper-casing
		return dst
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			dst = append(dst, asciiFold[c])
			i++
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && w == 1 {
			dst = append(dst, s[i])
		} else {
			dst = utf8.AppendRune(dst, foldRune(r))
		}
		i += w
	}
	return dst
}

// match reports whether s (already folded for ILIKE) matches.
func (m *matcher) match(s []byte) bool {
	switch m.kind {
	case matchAll:
		return true
	case matchExact:
		return bytesString(s) == m.lit
	case matchPrefix:
		return len(s) >= len(m.lit) && bytesString(s[:len(m.lit)]) == m.lit
	case matchSuffix:
		return len(s) >= len(m.lit) && bytesString(s[len(s)-len(m.lit):]) == m.lit
	case matchContains:
		return bytes.Contains(s, []byte(m.lit))
	}
	return m.matchGeneral(s)
}

func (m *matcher) matchGeneral(s []byte) bool {
	first := &m.segs[0]
	pos, ok := first.matchAt(s, 0)
	if !ok {
		return false
	}
	if len(m.segs) == 1 {
		return pos == len(s)
	}
	last := &m.segs[len(m.segs)-1]
	limit, ok := last.matchEnd(s)
	if !ok || limit < pos {
		return false
	}
	s = s[:limit]
	for i := 1; i < len(m.segs)-1; i++ {
		if pos, ok = m.segs[i].find(s, pos); !ok {
			return false
		}
	}
	return true
}

// matchAt matches g at byte pos of s and returns where it ends.
func (g *segment) matchAt(s []byte, pos int) (int, bool) {
	for _, it := range g.items {
		if it.any > 0 {
			for k := it.any; k > 0; k-- {
				if pos >= len(s) {
					return 0, false
				}
				if s[pos] < utf8.RuneSelf {
					pos++
				} else {
					_, w := utf8.DecodeRune(s[pos:])
					pos += w
				}
			}
			continue
		}
		if !bytes.HasPrefix(s[pos:], it.lit) {
			return 0, false
		}
		pos += len(it.lit)
	}
	return pos, true
}

// matchEnd matches g against the end of s and returns where the match
// starts.
func (g *segment) matchEnd(s []byte) (int, bool) {
	if !g.wild {
		var lit []byte
		if len(g.items) > 0 {
			lit = g.items[0].lit
		}
		if !bytes.HasSuffix(s, lit) {
			return 0, false
		}
		return len(s) - len(lit), true
	}
	start := len(s)
	for k := g.runes; k > 0; k-- {
		if start == 0 {
			return 0, false
		}
		_, w := utf8.DecodeLastRune(s[:start])
		start -= w
	}
	end, ok := g.matchAt(s, start)
	return start, ok && end == len(s)
}

// find finds the leftmost match of g in s at or after from and returns
// where it ends.
func (g *segment) find(s []byte, from int) (int, bool) {
	if len(g.items) == 0 {
		return from, true
	}
	head := g.items[0].lit // nil when g starts with '_'
	for pos := from; pos <= len(s); {
		if head != nil {
			i := bytes.Index(s[pos:], head)
			if i < 0 {
				return 0, false
			}
			pos += i
		}
		if end, ok := g.matchAt(s, pos); ok {
			return end, true
		}
		if pos == len(s) {
			break
		}
		if s[pos] < utf8.RuneSelf {
			pos++
		} else {
			_, w := utf8.DecodeRune(s[pos:])
			pos += w
		}
	}
	return 0, false
}

// Like is `value [NOT] [I]LIKE pattern`. A scalar pattern (the usual case)
// is compiled once; an array pattern is compiled per row, reusing the last
// compilation while the pattern repeats. A malformed pattern is a
// *PatternError naming the first row that needed it (a row where the value
// or pattern is null never does), as a *RowError wrapping
// errs.ErrInvalidArgument.
func Like(mem memory.Allocator, value, pattern datum.Datum, negated, fold bool, ret dtype.DType) (datum.Datum, error) {
	return LikeEscaped(mem, value, pattern, negated, fold, LikeEscape, ret)
}

// LikeEscaped is Like with the escape character esc (an ASCII byte), or
// without one when esc is NoLikeEscape: `value LIKE pattern ESCAPE '!'`.
func LikeEscaped(mem memory.Allocator, value, pattern datum.Datum, negated, fold bool, esc int, ret dtype.DType) (datum.Datum, error) {
	n := value.Len()
	if anyNullScalar([]datum.Datum{value, pattern}) {
		return nullResult(ret, n), nil
	}
	if pattern.IsScalar() {
		m, err := compileLikeEscaped(scalarBytes(pattern.Scalar()), fold, esc)
		if err != nil {
			row := 0
			if !value.IsScalar() {
				row = firstValid(value.Array())
			}
			switch {
			case n == 0:
				// No row needs the pattern.
				return datum.FromArray(boolArray(nil, nil, 0, 0), ret), nil
			case row < 0:
				return nullResult(ret, n), nil
			}
			return datum.Datum{}, &RowError{Row: row, Err: err}
		}
		if value.IsScalar() {
			s := scalarBytes(value.Scalar())
			if fold {
				s = foldInto(nil, s)
			}
			return datum.FromScalar(scalar.Bool(m.match(s) != negated).WithDType(ret), n), nil
		}
		return matchArray(mem, m, value.Array(), negated, ret)
	}
	return likePerRow(mem, value, pattern.Array(), negated, fold, esc, ret)
}

// firstValid is the first valid row of arr, or -1.
func firstValid(arr arrow.Array) int {
	if arr.NullN() == 0 {
		if arr.Len() == 0 {
			return -1
		}
		return 0
	}
	for i := range arr.Len() {
		if arr.IsValid(i) {
			return i
		}
	}
	return -1
}

// likePerRow evaluates LIKE with a pattern per row.
func likePerRow(mem memory.Allocator, value datum.Datum, pattern arrow.Array, negated, fold bool, esc int, ret dtype.DType) (datum.Datum, error) {
	n := pattern.Len()
	pv, err := viewBytes(pattern)
	if err != nil {
		return datum.Datum{}, err
	}
	var (
		vv     bytesView
		valArr arrow.Array
		lit    []byte
	)
	if value.IsScalar() {
		lit = scalarBytes(value.Scalar())
		if fold {
			lit = foldInto(nil, lit)
		}
	} else {
		valArr = value.Array()
		if vv, err = viewBytes(valArr); err != nil {
			return datum.Datum{}, err
		}
	}
	validity, nulls := andValidity(mem, n, valArr, pattern)
	var vbits []byte
	if validity != nil {
		vbits = validity.Bytes()
	}
	valBuf, words := NewBits(mem, n)
	var (
		m       *matcher
		last    []byte
		scratch []byte
	)
	for w := range words {
		base := w * 64
		var acc uint64
		for j := range min(64, n-base) {
			i := base + j
			if vbits != nil && vbits[i>>3]&(1<<(i&7)) == 0 {
				continue
			}
			p := pv.at(i)
			if m == nil || !bytes.Equal(p, last) {
				if m, err = compileLikeEscaped(p, fold, esc); err != nil {
					valBuf.Release()
					if validity != nil {
						validity.Release()
					}
					return datum.Datum{}, &RowError{Row: i, Err: err}
				}
				last = p
			}
			s := lit
			if valArr != nil {
				s = vv.at(i)
				if fold {
					scratch = foldInto(scratch[:0], s)
					s = scratch
				}
			}
			if m.match(s) != negated {
				acc |= 1 << uint(j)
			}
		}
		words[w] = acc
	}
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}
