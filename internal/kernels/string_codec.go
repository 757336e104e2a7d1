package kernels

// More DuckDB string functions: levenshtein, bit_length, translate, md5,
// to_base64 and from_base64, with DuckDB's semantics (fn/string_codec.go
// documents them). levenshtein and bit_length count bytes, as DuckDB's do;
// translate maps characters (code points).

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/internal/levenshtein"
)

// Levenshtein is levenshtein(a, b): the edit distance between two strings
// in bytes (internal/levenshtein), as i64.
func Levenshtein(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	a, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	b, err := newStrArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	var m levenshtein.Meter
	return intRows(mem, args, ret, func(i int) (int64, error) {
		return int64(m.Bytes(a.at(i), b.at(i))), nil
	})
}

// BitLength is bit_length(s): 8 times the bytes of s, as i64.
func BitLength(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	if s.arr != nil && !allScalar(args) {
		// The lengths come straight from the offsets.
		validity, nulls := ShareValidity(mem, s.arr)
		values, dst := newValues[int64](mem, len(s.v.offs)-1)
		for i := range dst {
			dst[i] = 8 * int64(s.v.offs[i+1]-s.v.offs[i])
		}
		return fixedResult(ret, len(dst), validity, nulls, values), nil
	}
	return intRows(mem, args, ret, func(i int) (int64, error) { return 8 * int64(len(s.at(i))), nil })
}

// translation maps characters of from to those of to at the same
// position; a character of from past the end of to is deleted (-1), and of
// repeated characters of from the first wins. ASCII maps through a table.
type translation struct {
	mapped [utf8.RuneSelf]bool // whether an ASCII character is in from
	ascii  [utf8.RuneSelf]rune // its replacement (-1: deleted)
	runes  map[rune]rune       // the other characters of from: replacement or -1
}

// load builds the translation of from to to.
func (t *translation) load(from, to []byte) {
	*t = translation{}
	var tos []rune
	for len(to) > 0 {
		r, w := utf8.DecodeRune(to)
		tos = append(tos, r)
		to = to[w:]
	}
	for k := 0; len(from) > 0; k++ {
		r, w := utf8.DecodeRune(from)
		from = from[w:]
		dst := rune(-1)
		if k < len(tos) {
			dst = tos[k]
		}
		if r < utf8.RuneSelf {
			if !t.mapped[r] {
				t.mapped[r], t.ascii[r] = true, dst
			}
			continue
		}
		if t.runes == nil {
			t.runes = map[rune]rune{}
		}
		if _, ok := t.runes[r]; !ok {
			t.runes[r] = dst
		}
	}
}

// apply writes s translated into b.
func (t *translation) apply(s []byte, b *strBuilder) {
	b.grow(len(s))
	for len(s) > 0 {
		c := s[0]
		if c < utf8.RuneSelf {
			s = s[1:]
			switch {
			case !t.mapped[c]:
				b.data = append(b.data, c)
			case t.ascii[c] >= 0:
				b.data = utf8.AppendRune(b.data, t.ascii[c])
			}
			continue
		}
		r, w := utf8.DecodeRune(s)
		dst, ok := t.runes[r]
		switch {
		case !ok || r == utf8.RuneError && w == 1:
			b.data = append(b.data, s[:w]...)
		case dst >= 0:
			b.data = utf8.AppendRune(b.data, dst)
		}
		s = s[w:]
	}
}

// Translate is translate(s, from, to): each character of s found in from
// replaced by the character of to at the same position, or deleted when to
// is shorter ('abc', 'ab', 'x' is 'xc'); of a character repeated in from,
// the first position counts. Constant from and to are read once.
func Translate(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	var sa [3]strArg
	for k := range sa {
		var err error
		if sa[k], err = newStrArg(args[k]); err != nil {
			return datum.Datum{}, err
		}
	}
	s, from, to := &sa[0], &sa[1], &sa[2]
	var t translation
	fixed := from.arr == nil && to.arr == nil
	if fixed {
		t.load(from.lit, to.lit)
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		if !fixed {
			t.load(from.at(i), to.at(i))
		}
		t.apply(s.at(i), b)
		return nil
	})
}

// MD5 is md5(s) of utf8 or binary values: the digest in lowercase hex, as
// utf8.
func MD5(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	n := args[0].Len()
	return utf8Rows(mem, args, ret, 2*md5.Size*n, func(i int, b *strBuilder) error {
		sum := md5.Sum(s.at(i))
		b.grow(2 * md5.Size)
		b.data = hex.AppendEncode(b.data, sum[:])
		return nil
	})
}

// ToBase64 is to_base64(b): the standard base64 encoding (with padding) of
// binary or utf8 bytes, as utf8.
func ToBase64(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len())*4/3+4, func(i int, b *strBuilder) error {
		v := s.at(i)
		b.grow(base64.StdEncoding.EncodedLen(len(v)))
		b.data = base64.StdEncoding.AppendEncode(b.data, v)
		return nil
	})
}

// base64Values are the values of the base64 alphabet's characters, -1 for
// the others.
var base64Values = func() [256]int8 {
	var t [256]int8
	for i := range t {
		t[i] = -1
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range len(alphabet) {
		t[alphabet[i]] = int8(i)
	}
	return t
}()

// decodeBase64 appends the bytes s encodes to out, as DuckDB decodes them:
// the length must be a multiple of 4, and only the last group's third and
// fourth characters may be '=' padding (each counting as zero bits; a '='
// third character ends the output after one byte, a '=' fourth after two).
// Bits past the last byte are ignored ("YR==" is "a", as "YQ==").
func decodeBase64(out, s []byte) ([]byte, error) {
	if len(s)%4 != 0 {
		return out, fmt.Errorf("%w: could not decode %s as base64: its length must be a multiple of 4", errs.ErrInvalidArgument, quoteBytes(s))
	}
	for g := 0; g < len(s); g += 4 {
		last := g+4 == len(s)
		var word uint32
		for k := range 4 {
			c := s[g+k]
			if last && k >= 2 && c == '=' {
				word <<= 6
				continue
			}
			v := base64Values[c]
			if v < 0 {
				return out, fmt.Errorf("%w: could not decode %s as base64: invalid character %q at position %d", errs.ErrInvalidArgument, quoteBytes(s), s[g+k:g+k+1], g+k)
			}
			word = word<<6 | uint32(v)
		}
		out = append(out, byte(word>>16))
		if last && s[g+2] == '=' {
			break
		}
		out = append(out, byte(word>>8))
		if last && s[g+3] == '=' {
			break
		}
		out = append(out, byte(word))
	}
	return out, nil
}

// FromBase64 is from_base64(s): the bytes a base64 string encodes, as
// binary; a string that is not base64 is errs.ErrInvalidArgument, as DuckDB
// raises (decodeBase64).
func FromBase64(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len())*3/4, func(i int, b *strBuilder) error {
		v := s.at(i)
		b.grow(len(v) * 3 / 4)
		out, err := decodeBase64(b.data, v)
		b.data = out
		return err
	})
}
