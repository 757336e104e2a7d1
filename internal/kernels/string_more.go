package kernels

// The DuckDB-dialect string kernels: trim, ltrim, rtrim, replace, left,
// right, reverse, repeat, lpad, rpad, split_part, string_split, strpos,
// concat_ws, ascii and chr, with DuckDB's semantics (fn/string_more.go
// documents them). Positions and lengths count characters (code points); a
// byte that is not valid UTF-8 counts as one character.

import (
	"bytes"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// maxStringCount is the largest count DuckDB accepts for the length of a
// result (left's count, a result's size): 2^32-1.
const maxStringCount = math.MaxUint32

// TrimSide is which ends trim removes characters from.
type TrimSide uint8

// The sides of trim.
const (
	TrimBoth  TrimSide = iota // trim
	TrimLeft                  // ltrim
	TrimRight                 // rtrim
)

// charSet is the set of characters trim removes: ASCII in a bitmap, others
// in a list. load reuses its memory from row to row.
type charSet struct {
	ascii [4]uint64
	runes []rune
}

func (c *charSet) load(chars []byte) {
	c.ascii = [4]uint64{}
	c.runes = c.runes[:0]
	for i := 0; i < len(chars); {
		if b := chars[i]; b < utf8.RuneSelf {
			c.ascii[b>>6] |= 1 << (b & 63)
			i++
			continue
		}
		r, w := utf8.DecodeRune(chars[i:])
		if r == utf8.RuneError && w == 1 {
			r = -rune(chars[i]) // an invalid byte stands for itself
		}
		c.runes = append(c.runes, r)
		i += w
	}
}

// has reports whether the character of s at its start (forward) of width w
// is in the set.
func (c *charSet) hasRune(r rune) bool {
	for _, x := range c.runes {
		if x == r {
			return true
		}
	}
	return false
}

// trimBytes removes the characters of c from the ends of s that side says.
func (c *charSet) trimBytes(s []byte, side TrimSide) []byte {
	if side != TrimRight {
		for len(s) > 0 {
			b := s[0]
			if b < utf8.RuneSelf {
				if c.ascii[b>>6]&(1<<(b&63)) == 0 {
					break
				}
				s = s[1:]
				continue
			}
			r, w := utf8.DecodeRune(s)
			if r == utf8.RuneError && w == 1 {
				r = -rune(b)
			}
			if !c.hasRune(r) {
				break
			}
			s = s[w:]
		}
	}
	if side != TrimLeft {
		for len(s) > 0 {
			b := s[len(s)-1]
			if b < utf8.RuneSelf {
				if c.ascii[b>>6]&(1<<(b&63)) == 0 {
					break
				}
				s = s[:len(s)-1]
				continue
			}
			r, w := utf8.DecodeLastRune(s)
			if r == utf8.RuneError && w == 1 {
				r = -rune(b)
			}
			if !c.hasRune(r) {
				break
			}
			s = s[:len(s)-w]
		}
	}
	return s
}

// Trim is trim(s[, chars]), ltrim or rtrim: the characters of chars (a
// space without it) removed from the ends of s. chars is a set: trim('abcba',
// 'ab') is 'c'.
func Trim(mem memory.Allocator, args []datum.Datum, side TrimSide, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	var (
		set   charSet
		chars strArg
		fixed = true
	)
	set.load([]byte{' '})
	if len(args) > 1 {
		if chars, err = newStrArg(args[1]); err != nil {
			return datum.Datum{}, err
		}
		if chars.arr == nil {
			set.load(chars.lit)
		} else {
			fixed = false
		}
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		if !fixed {
			set.load(chars.at(i))
		}
		b.write(set.trimBytes(s.at(i), side))
		return nil
	})
}

// Replace is replace(s, from, to): every occurrence of from, left to right
// and not overlapping, replaced by to. An empty from changes nothing.
func Replace(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	var a [3]strArg
	for k := range a {
		var err error
		if a[k], err = newStrArg(args[k]); err != nil {
			return datum.Datum{}, err
		}
	}
	return utf8Rows(mem, args, ret, a[0].size(args[0].Len()), func(i int, b *strBuilder) error {
		s, from, to := a[0].at(i), a[1].at(i), a[2].at(i)
		if len(from) == 0 {
			b.write(s)
			return nil
		}
		for {
			k := bytes.Index(s, from)
			if k < 0 {
				break
			}
			b.write(s[:k])
			b.write(to)
			s = s[k+len(from):]
		}
		b.write(s)
		return nil
	})
}

// runeOffsetFromEnd is the byte index at which the last k characters of s
// start (0 when s has k or fewer).
func runeOffsetFromEnd(s []byte, k int64) int {
	i := len(s)
	for ; k > 0 && i > 0; k-- {
		if s[i-1] < utf8.RuneSelf {
			i--
			continue
		}
		_, w := utf8.DecodeLastRune(s[:i])
		i -= w
	}
	return i
}

// LeftRight is left(s, n) (right when right is set): the first (last) n
// characters of s; a negative n drops the last (first) -n characters
// instead. DuckDB rejects a count of left above 2^32-1 (errs.ErrOverflow).
func LeftRight(mem memory.Allocator, args []datum.Datum, right bool, ret dtype.DType) (datum.Datum, error) {
	if anyNullScalar(args) {
		// A null count is a null result; it has no value to read.
		return nullResult(ret, args[0].Len()), nil
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	count, err := newIntArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	name := "left"
	if right {
		name = "right"
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		v, k := s.at(i), count.get(i)
		switch {
		case !right && k > maxStringCount:
			return fmt.Errorf("%s(%s, %d): the count is above 4294967295: %w", name, quoteBytes(v), k, errs.ErrOverflow)
		case !right && k >= 0:
			b.write(v[:runeOffset(v, 0, k)])
		case !right:
			b.write(v[:runeOffsetFromEnd(v, negAbs(k))])
		case k >= 0:
			b.write(v[runeOffsetFromEnd(v, k):])
		default:
			b.write(v[runeOffset(v, 0, negAbs(k)):])
		}
		return nil
	})
}

// negAbs is -k for a negative k, saturated at MaxInt64.
func negAbs(k int64) int64 {
	if k == math.MinInt64 {
		return math.MaxInt64
	}
	return -k
}

// quoteBytes quotes a value for an error message, shortened when long.
func quoteBytes(v []byte) string {
	const most = 40
	if len(v) > most {
		k := most
		for k > 0 && !utf8.RuneStart(v[k]) {
			k--
		}
		return fmt.Sprintf("%q…", v[:k])
	}
	return fmt.Sprintf("%q", v)
}

// Reverse is reverse(s): the grapheme clusters of s in reverse order (a
// base character keeps its combining marks, see nextCluster).
func Reverse(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		v := s.at(i)
		b.grow(len(v))
		start := len(b.data)
		b.data = b.data[:start+len(v)]
		out := b.data[start:]
		if isASCII(v) {
			for j, c := range v {
				out[len(v)-1-j] = c
			}
			return nil
		}
		for j := 0; j < len(v); {
			e := nextCluster(v, j)
			copy(out[len(v)-e:], v[j:e])
			j = e
		}
		return nil
	})
}

// nextCluster is the end of the grapheme cluster that starts at byte j of
// s. It follows the common rules of Unicode's extended grapheme clusters
// (UAX #29), as DuckDB (utf8proc) applies them: a character with the combining marks (categories Mn,
// Mc, Me), emoji modifiers and zero-width joiners that follow it, and the
// character after a joiner; pairs of regional indicators (flags); Hangul
// syllables with the vowel and final jamo that follow; prepended
// characters (Arabic number signs and the like) with the character after
// them. CR is not joined to LF (DuckDB reverses "\r\n" to "\n\r").
func nextCluster(s []byte, j int) int {
	r, w := utf8.DecodeRune(s[j:])
	e := j + w
	if r < utf8.RuneSelf && (r < ' ' || r == 0x7f) {
		return e // controls stand alone
	}
	for isPrepend(r) && e < len(s) {
		// GB9b: a prepended mark joins the character after it.
		r2, w2 := utf8.DecodeRune(s[e:])
		if r2 < ' ' || r2 == 0x7f {
			return e
		}
		r = r2
		e += w2
	}
	if isRegional(r) && e < len(s) {
		if r2, w2 := utf8.DecodeRune(s[e:]); isRegional(r2) {
			e += w2
		}
	}
	prev := r
	for e < len(s) {
		r2, w2 := utf8.DecodeRune(s[e:])
		switch {
		case prev == 0x200D && r2 >= 0x80: // after a zero-width joiner
		case isExtend(r2):
		case hangulJoins(prev, r2):
		default:
			return e
		}
		prev = r2
		e += w2
	}
	return e
}

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// isPrepend reports whether r has the Grapheme_Cluster_Break property
// Prepend (Unicode 15).
func isPrepend(r rune) bool {
	switch {
	case r < 0x600:
		return false
	case r <= 0x605, r == 0x6DD, r == 0x70F, r == 0x890, r == 0x891, r == 0x8E2, r == 0xD4E,
		r == 0x110BD, r == 0x110CD, r == 0x111C2, r == 0x111C3, r == 0x1193F, r == 0x11941,
		r == 0x11A3A, r >= 0x11A84 && r <= 0x11A89, r == 0x11D46, r == 0x11F02:
		return true
	}
	return false
}

// isExtend reports whether r joins the cluster before it: combining marks,
// the zero-width joiner and emoji skin-tone modifiers.
func isExtend(r rune) bool {
	if r < 0x300 {
		return false
	}
	return r == 0x200D || (r >= 0x1F3FB && r <= 0x1F3FF) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
}

// hangulJoins reports whether the Hangul jamo r continues the syllable
// ending in prev (UAX #29 GB6–GB8).
func hangulJoins(prev, r rune) bool {
	isL := func(r rune) bool { return (r >= 0x1100 && r <= 0x115F) || (r >= 0xA960 && r <= 0xA97C) }
	isV := func(r rune) bool { return (r >= 0x1160 && r <= 0x11A7) || (r >= 0xD7B0 && r <= 0xD7C6) }
	isT := func(r rune) bool { return (r >= 0x11A8 && r <= 0x11FF) || (r >= 0xD7CB && r <= 0xD7FB) }
	syl := prev >= 0xAC00 && prev <= 0xD7A3
	isLV := syl && (prev-0xAC00)%28 == 0
	switch {
	case isL(prev):
		return isL(r) || isV(r) || (r >= 0xAC00 && r <= 0xD7A3)
	case isV(prev) || isLV:
		return isV(r) || isT(r)
	case isT(prev) || syl:
		return isT(r)
	}
	return false
}

// Repeat is repeat(s, n): s n times (empty for n <= 0). A result beyond
// 2 GiB is an error (errs.ErrOverflow).
func Repeat(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if anyNullScalar(args) {
		// A null count is a null result; it has no value to read.
		return nullResult(ret, args[0].Len()), nil
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	count, err := newIntArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		v, k := s.at(i), count.get(i)
		if k <= 0 || len(v) == 0 {
			return nil
		}
		if k > math.MaxInt32/int64(len(v)) {
			return fmt.Errorf("repeat(%s, %d): a result of %d×%d bytes is too large: %w", quoteBytes(v), k, len(v), k, errs.ErrOverflow)
		}
		if err := offsetFits(len(b.data) + len(v)*int(k)); err != nil {
			return err
		}
		b.grow(len(v) * int(k))
		for range k {
			b.data = append(b.data, v...)
		}
		return nil
	})
}

// Pad is lpad(s, n, pad) (rpad when right is set): s brought to n
// characters, cut to its first n when longer, else filled on the left
// (right) with pad repeated. n <= 0 gives ”; an empty pad that has to fill
// is an error (errs.ErrInvalidArgument), as in DuckDB.
func Pad(mem memory.Allocator, args []datum.Datum, right bool, ret dtype.DType) (datum.Datum, error) {
	if anyNullScalar(args) {
		// A null count is a null result; it has no value to read.
		return nullResult(ret, args[0].Len()), nil
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	count, err := newIntArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	pad, err := newStrArg(args[2])
	if err != nil {
		return datum.Datum{}, err
	}
	name := "lpad"
	if right {
		name = "rpad"
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len()), func(i int, b *strBuilder) error {
		v, k, p := s.at(i), count.get(i), pad.at(i)
		if k <= 0 {
			return nil
		}
		cut := runeOffset(v, 0, k)
		if cut < len(v) {
			b.write(v[:cut])
			return nil
		}
		have := int64(utf8.RuneCount(v))
		if have == k {
			b.write(v)
			return nil
		}
		if len(p) == 0 {
			return fmt.Errorf("%s(%s, %d, ''): the padding is empty and cannot fill %d characters: %w", name, quoteBytes(v), k, k-have, errs.ErrInvalidArgument)
		}
		fill := k - have
		// The size first: fill characters of p take about fill/runes(p)
		// copies of p (fill is at most 2^31 here, so the product fits).
		room := int64(math.MaxInt32 - len(b.data) - len(v))
		if fill > room || fill*int64(len(p))/int64(utf8.RuneCount(p)) > room {
			return fmt.Errorf("%s(%s, %d, %s): a result of %d characters is too large: %w", name, quoteBytes(v), k, quoteBytes(p), k, errs.ErrOverflow)
		}
		if right {
			b.write(v)
		}
		// Whole copies of p, doubling what is written, then the
		// characters of p that remain.
		runes := int64(utf8.RuneCount(p))
		whole, rest := int(fill/runes), runeOffset(p, 0, fill%runes)
		b.grow(whole*len(p) + rest + len(v)) // the appends below stay within it
		if whole > 0 {
			start := len(b.data)
			b.data = append(b.data, p...)
			for n := len(p); n < whole*len(p); n = len(b.data) - start {
				b.data = append(b.data, b.data[start:start+min(n, whole*len(p)-n)]...)
			}
		}
		b.data = append(b.data, p[:rest]...)
		if !right {
			b.write(v)
		}
		return offsetFits(len(b.data))
	})
}

// fieldIter walks the fields of s split at sep: an empty sep splits s into
// its characters (an empty s still has one, empty, field).
type fieldIter struct {
	s, sep []byte
	done   bool
}

// next is the next field, or false after the last.
func (it *fieldIter) next() ([]byte, bool) {
	if it.done {
		return nil, false
	}
	if len(it.sep) == 0 {
		if len(it.s) == 0 {
			it.done = true
			return it.s, true
		}
		_, w := utf8.DecodeRune(it.s)
		f := it.s[:w]
		it.s = it.s[w:]
		it.done = len(it.s) == 0
		return f, true
	}
	k := bytes.Index(it.s, it.sep)
	if k < 0 {
		it.done = true
		return it.s, true
	}
	f := it.s[:k]
	it.s = it.s[k+len(it.sep):]
	return f, true
}

// fieldCount is the number of fields of s split at sep.
func fieldCount(s, sep []byte) int64 {
	if len(sep) == 0 {
		return max(int64(utf8.RuneCount(s)), 1)
	}
	return int64(bytes.Count(s, sep)) + 1
}

// SplitPart is split_part(s, sep, k): field k of s split at sep, 1-based,
// a negative k counting from the last (-1); ” when there is no field k
// (k = 0 included). An empty sep splits s into its characters.
func SplitPart(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	if anyNullScalar(args) {
		// A null count is a null result; it has no value to read.
		return nullResult(ret, args[0].Len()), nil
	}
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	sep, err := newStrArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	idx, err := newIntArg(args[2])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, s.size(args[0].Len())/2, func(i int, b *strBuilder) error {
		v, d, k := s.at(i), sep.at(i), idx.get(i)
		if k < 0 {
			k += fieldCount(v, d) + 1
		}
		if k <= 0 {
			return nil
		}
		it := fieldIter{s: v, sep: d}
		for f, ok := it.next(); ok; f, ok = it.next() {
			if k--; k == 0 {
				b.write(f)
				break
			}
		}
		return nil
	})
}

// StringSplit is string_split(s, sep): the fields of s split at sep, as a
// list of utf8. An empty sep splits s into its characters; a null sep
// leaves s whole (a one-element list), as in DuckDB; a null s gives null.
func StringSplit(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	sDatum, sepDatum := args[0], args[1]
	if sDatum.IsScalar() && sDatum.Scalar().IsNull() {
		return nullResult(ret, n), nil
	}
	s, err := newStrArg(sDatum)
	if err != nil {
		return datum.Datum{}, err
	}
	var (
		sep     strArg
		sepArr  arrow.Array
		noSep   bool // a null scalar (or the null type)
		sepNull bool // an array with nulls
	)
	switch {
	case sepDatum.DType().IsNull() || (sepDatum.IsScalar() && sepDatum.Scalar().IsNull()):
		noSep = true
	default:
		if sep, err = newStrArg(sepDatum); err != nil {
			return datum.Datum{}, err
		}
		if sepArr = sep.arr; sepArr != nil && sepArr.NullN() > 0 {
			sepNull = true
		}
	}
	// Scalar arguments make one row, returned as a scalar.
	scalarOut := sDatum.IsScalar() && (noSep || sep.arr == nil)
	rows := n
	if scalarOut {
		rows = 1
	}
	b := newListBuilder(mem, rows, rows*2, s.size(rows))
	var sArr []arrow.Array
	if s.arr != nil {
		sArr = []arrow.Array{s.arr}
	}
	validity, bits, nulls := validBits(mem, rows, sArr)
	for i := range rows {
		if !bitSet(bits, i) {
			b.end()
			continue
		}
		v := s.at(i)
		var err error
		if noSep || (sepNull && !sepArr.IsValid(i)) {
			err = b.add(v)
		} else {
			it := fieldIter{s: v, sep: sep.at(i)}
			for f, ok := it.next(); ok && err == nil; f, ok = it.next() {
				err = b.add(f)
			}
		}
		if err != nil {
			b.release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
		b.end()
	}
	arr := b.finish(dtype.ToArrow(ret), validity, nulls)
	if !scalarOut {
		return datum.FromArray(arr, ret), nil
	}
	defer arr.Release()
	sc, err := scalar.FromArray(arr, 0, ret)
	if err != nil {
		return datum.Datum{}, err
	}
	return datum.FromScalar(sc, n), nil
}

// StrPos is strpos(s, needle): the character position of the first
// occurrence of needle in s, 1-based; 0 when there is none; 1 for an empty
// needle.
func StrPos(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	needle, err := newStrArg(args[1])
	if err != nil {
		return datum.Datum{}, err
	}
	return intRows(mem, args, ret, func(i int) (int64, error) {
		v := s.at(i)
		k := bytes.Index(v, needle.at(i))
		if k < 0 {
			return 0, nil
		}
		if isASCII(v[:k]) {
			return int64(k) + 1, nil
		}
		return int64(utf8.RuneCount(v[:k])) + 1, nil
	})
}

// ConcatWS is concat_ws(sep, args…): the non-null arguments joined with
// sep between them; null where sep is null, ” when every argument is.
// Arguments are utf8 or of the null type.
func ConcatWS(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := args[0].Len()
	if isNullDatum(args[0]) {
		return nullResult(ret, n), nil
	}
	sep, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	parts := make([]strArg, 0, len(args)-1)
	hint := 0
	for _, a := range args[1:] {
		if isNullDatum(a) {
			continue
		}
		p, err := newStrArg(a)
		if err != nil {
			return datum.Datum{}, err
		}
		parts = append(parts, p)
		hint += p.size(n) + sep.size(n)
	}
	if allScalar(args) {
		var out []byte
		for k, p := range parts {
			if k > 0 {
				out = append(out, sep.lit...)
			}
			out = append(out, p.lit...)
		}
		return datum.FromScalar(scalar.String(string(out)).WithDType(ret), n), nil
	}
	var sepArrs []arrow.Array
	if sep.arr != nil {
		sepArrs = []arrow.Array{sep.arr}
	}
	validity, bits, nulls := validBits(mem, n, sepArrs)
	b := newStrBuilder(mem, n, hint)
	for i := range n {
		if !bitSet(bits, i) {
			b.endEmpty()
			continue
		}
		first := true
		for k := range parts {
			p := &parts[k]
			if p.arr != nil && !validAt(p.arr, i) {
				continue
			}
			if !first {
				b.write(sep.at(i))
			}
			first = false
			b.write(p.at(i))
		}
		if err := b.end(); err != nil {
			b.release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, &RowError{Row: i, Err: err}
		}
	}
	return datum.FromArray(b.finish(dtype.ToArrow(ret), validity, nulls), ret), nil
}

// ASCII is ascii(s): the code point of the first character of s (0 for an
// empty s; the byte itself for a byte that is not valid UTF-8), as i32.
func ASCII(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	return intRows(mem, args, ret, func(i int) (int32, error) {
		v := s.at(i)
		if len(v) == 0 {
			return 0, nil
		}
		if v[0] < utf8.RuneSelf {
			return int32(v[0]), nil
		}
		r, w := utf8.DecodeRune(v)
		if r == utf8.RuneError && w == 1 {
			return int32(v[0]), nil
		}
		return r, nil
	})
}

// Chr is chr(code): the character of a code point. A value that is not a
// Unicode scalar value (negative, a surrogate, above U+10FFFF) is an error
// (errs.ErrInvalidArgument), as in DuckDB; chr(0) is the NUL character.
func Chr(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	code, err := newIntArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	return utf8Rows(mem, args, ret, args[0].Len(), func(i int, b *strBuilder) error {
		c := code.get(i)
		if c < 0 || c > utf8.MaxRune || (c >= 0xD800 && c <= 0xDFFF) {
			return fmt.Errorf("chr(%d): %d is not a Unicode code point: %w", c, c, errs.ErrInvalidArgument)
		}
		b.grow(utf8.UTFMax)
		b.data = utf8.AppendRune(b.data, rune(c))
		return nil
	})
}
