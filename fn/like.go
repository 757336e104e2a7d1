package fn

import (
	"fmt"
	"strconv"

	"github.com/colexpr/colexpr/dtype"
)

// LikeFn is SQL LIKE: `%` matches any run of characters, `_` one character
// and `\` escapes the next one (another character, or none, with ESCAPE).
// With CaseInsensitive it is ILIKE; Negated gives NOT LIKE / NOT ILIKE.
// Both arguments are utf8: the value and the pattern (usually a literal,
// but any expression works).
type LikeFn struct {
	Negated         bool
	CaseInsensitive bool
	// Escape is the character that makes the next pattern character
	// literal: 0 for the default `\`, NoLikeEscape for none (ESCAPE ''),
	// otherwise the ASCII character of an ESCAPE clause. LikeWithEscape
	// builds it from the clause's text.
	Escape rune
}

// NoLikeEscape is LikeFn.Escape for a pattern without an escape character.
const NoLikeEscape rune = -1

// Like is the LIKE function with the given flags.
func Like(negated, caseInsensitive bool) LikeFn {
	return LikeFn{Negated: negated, CaseInsensitive: caseInsensitive}
}

// LikeWithEscape is `LIKE … ESCAPE escape`: escape is empty (no escape
// character) or one ASCII character, as in DuckDB, which rejects longer
// strings; ESCAPE '\' is the default.
func LikeWithEscape(negated, caseInsensitive bool, escape string) (LikeFn, error) {
	l := Like(negated, caseInsensitive)
	switch {
	case escape == "":
		l.Escape = NoLikeEscape
	case len(escape) != 1 || escape[0] >= 0x80:
		return l, fmt.Errorf("ESCAPE takes an empty string or one ASCII character, got %s", strconv.Quote(escape))
	case escape[0] != '\\':
		l.Escape = rune(escape[0])
	}
	return l, nil
}

// EscapeText is the text of the ESCAPE clause that gives l's escape
// character, and false for the default `\` (no clause).
func (l LikeFn) EscapeText() (string, bool) {
	switch l.Escape {
	case 0:
		return "", false
	case NoLikeEscape:
		return "", true
	}
	return string(l.Escape), true
}

func (l LikeFn) ID() string {
	if l.CaseInsensitive {
		return IDILike
	}
	return IDLike
}
func (l LikeFn) Arity() Arity               { return Exactly(2) }
func (l LikeFn) NullHandling() NullHandling { return NullPropagating }
func (l LikeFn) Volatility() Volatility     { return Immutable }
func (l LikeFn) Fallible() bool             { return true } // a malformed escape in a pattern
func (l LikeFn) Hash() uint64 {
	esc := ""
	if l.Escape != 0 {
		esc = strconv.Itoa(int(l.Escape))
	}
	if l.Negated {
		return hashString(l.ID(), "not", esc)
	}
	return hashString(l.ID(), esc)
}
func (l LikeFn) Equal(o Function) bool { ol, ok := o.(LikeFn); return ok && ol == l }

func (l LikeFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	for i, a := range args {
		if !a.IsUtf8() {
			return dtype.DType{}, argErr(l, i, "has type %s, want utf8", a)
		}
	}
	return dtype.Bool(anyNullable(args)), nil
}
