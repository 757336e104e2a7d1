package kernels

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// Glob is s GLOB pattern, with the pattern read as DuckDB (after SQLite)
// reads it, byte by byte and case-sensitively:
//
//   - any run of bytes, the empty one too
//     ?        any one byte (so one byte of a character of several)
//     [abc]    one byte of the set; [a-z] a range of bytes; [!…] one byte not
//     in the set; a ] first in the set, and a - last, are members,
//     and a ^ is always one ([^b] holds ^ and b)
//     \x       the byte x itself
//
// A pattern whose bracket does not close, or that ends in a lone \, matches
// nothing. Matching backtracks only to the last *, so it takes at most
// len(s)·len(pattern) steps whatever the pattern.
func Glob(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	pat, err := newStrArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	var g globPattern
	var last []byte
	compiled := false
	return boolRows(mem, args, ret, func(i int) (bool, error) {
		p := pat.at(i)
		if !compiled || (pat.arr != nil && string(p) != string(last)) {
			g, last, compiled = compileGlob(p), p, true
		}
		return g.match(s.at(i)), nil
	})
}

// globToken is one step of a glob pattern: a byte set, or a star.
type globToken struct {
	star bool
	set  [4]uint64 // the bytes this step accepts, by bit
}

func (t *globToken) add(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		t.set[c>>6] |= 1 << (c & 63)
	}
}

func (t *globToken) accepts(c byte) bool { return t.set[c>>6]>>(c&63)&1 != 0 }

// globPattern is a compiled glob pattern; never marks one that matches
// nothing (an unclosed bracket, a trailing \).
type globPattern struct {
	toks  []globToken
	never bool
}

func compileGlob(p []byte) globPattern {
	var g globPattern
	for i := 0; i < len(p); {
		var t globToken
		switch c := p[i]; c {
		case '*':
			t.star = true
			i++
		case '?':
			t.add(0, 255)
			i++
		case '\\':
			if i+1 == len(p) {
				return globPattern{never: true}
			}
			t.add(p[i+1], p[i+1])
			i += 2
		case '[':
			var ok bool
			if t, i, ok = globClass(p, i+1); !ok {
				return globPattern{never: true}
			}
		default:
			t.add(c, c)
			i++
		}
		if t.star && len(g.toks) > 0 && g.toks[len(g.toks)-1].star {
			continue // ** is *
		}
		g.toks = append(g.toks, t)
	}
	return g
}

// globClass reads the set of a bracket whose members start at p[i]: the
// step, where the pattern goes on, and false when the bracket does not
// close.
func globClass(p []byte, i int) (globToken, int, bool) {
	var t globToken
	invert := i < len(p) && p[i] == '!'
	if invert {
		i++
	}
	first := i
	for i < len(p) {
		c := p[i]
		if c == ']' && i > first {
			if invert {
				for k := range t.set {
					t.set[k] = ^t.set[k]
				}
			}
			return t, i + 1, true
		}
		switch {
		case i+1 == len(p):
			return t, i, false
		case p[i+1] == '-' && i+2 < len(p) && p[i+2] != ']':
			if hi := p[i+2]; c <= hi {
				t.add(c, hi)
			}
			i += 3
		default: // a byte, or a - before the closing ] (a member too)
			t.add(c, c)
			i++
		}
	}
	return t, i, false
}

// match reports whether g matches all of s: steps advance together, and a
// mismatch goes back to the last star, which then takes one byte more.
func (g *globPattern) match(s []byte) bool {
	if g.never {
		return false
	}
	toks := g.toks
	si, ti := 0, 0
	starTi, starSi := -1, 0
	for si < len(s) {
		if ti < len(toks) {
			if toks[ti].star {
				starTi, starSi = ti, si
				ti++
				continue
			}
			if toks[ti].accepts(s[si]) {
				si++
				ti++
				continue
			}
		}
		if starTi < 0 {
			return false
		}
		starSi++
		si, ti = starSi, starTi+1
	}
	for ti < len(toks) && toks[ti].star {
		ti++
	}
	return ti == len(toks)
}
