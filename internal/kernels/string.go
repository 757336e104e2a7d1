package kernels

// String kernels: lower, upper, length, byte_length, starts_with,
// ends_with, contains, concat and substring over utf8 (byte_length also
// over binary).
//
// Text is UTF-8. Case mapping and character counting decode it rune by
// rune, with a fast path for ASCII; a byte that is not valid UTF-8 counts
// as one character and is copied through lower and upper unchanged.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// asciiLower and asciiUpper map bytes below 0x80; other bytes map to themselves.
var asciiLower, asciiUpper [256]byte

func init() {
	for i := range 256 {
		asciiLower[i], asciiUpper[i] = byte(i), byte(i)
	}
	for c := 'A'; c <= 'Z'; c++ {
		asciiLower[c] = byte(c + 'a' - 'A')
		asciiUpper[c+'a'-'A'] = byte(c)
	}
}

// CaseMap is lower(s), or upper(s) when upper is set: Unicode simple case
// mapping of every character (unicode.ToLower / unicode.ToUpper), which may
// change a string's length in bytes but never in characters.
func CaseMap(mem memory.Allocator, s datum.Datum, ret dtype.DType, upper bool) (datum.Datum, error) {
	table := &asciiLower
	mapRune := unicode.ToLower
	if upper {
		table, mapRune = &asciiUpper, unicode.ToUpper
	}
	if s.IsScalar() {
		if s.Scalar().IsNull() {
			return nullResult(ret, s.Len()), nil
		}
		out := appendCase(nil, scalarBytes(s.Scalar()), table, mapRune)
		return datum.FromScalar(scalar.String(string(out)).WithDType(ret), s.Len()), nil
	}
	arr := s.Array()
	v, err := viewBytes(arr)
	if err != nil {
		return datum.Datum{}, err
	}
	n := arr.Len()
	span := v.span()
	if isASCII(span) {
		// Byte for byte: the offsets stay as they are.
		if v.offs[0] == 0 {
			// Share the offsets and validity buffers: the result keeps
			// the input's offset.
			data := memory.NewResizableBuffer(mem)
			data.Resize(len(span))
			caseASCII(data.Bytes(), span, upper)
			d := arr.Data()
			bufs := d.Buffers()
			validity := bufs[0]
			if arr.NullN() == 0 {
				validity = nil
			}
			if validity != nil {
				validity.Retain()
			}
			bufs[1].Retain()
			out := makeArray(arr.DataType(), n, []*memory.Buffer{validity, bufs[1], data}, nil, arr.NullN(), d.Offset())
			return datum.FromArray(out, ret), nil
		}
		b := newStrBuilder(mem, n, len(span))
		b.grow(len(span))
		b.data = b.data[:len(span)]
		caseASCII(b.data, span, upper)
		for i := 1; i <= n; i++ {
			b.offs[i] = v.offs[i] - v.offs[0]
		}
		b.n = n
		validity, nulls := andValidity(mem, n, arr)
		return datum.FromArray(b.finish(arr.DataType(), validity, nulls), ret), nil
	}
	b := newStrBuilder(mem, n, len(span)+len(span)/8)
	for i := range n {
		if !validAt(arr, i) {
			b.endEmpty()
			continue
		}
		appendCaseTo(b, v.at(i), table, mapRune)
		if err := b.end(); err != nil {
			b.release()
			return datum.Datum{}, err
		}
	}
	validity, nulls := andValidity(mem, n, arr)
	return datum.FromArray(b.finish(arr.DataType(), validity, nulls), ret), nil
}

// caseASCII lowers (or uppers) the ASCII bytes src into dst, eight at a
// time: in a word of 7-bit bytes, adding 0x80-'A' sets the top bit of each
// byte >= 'A' and adding 0x80-'Z'-1 that of each byte > 'Z', without carries
// between bytes; the bytes with the first bit and not the second are the
// letters, whose 0x20 bit is flipped.
func caseASCII(dst, src []byte, upper bool) {
	lo, hi := uint64(0x80-'A'), uint64(0x80-'Z'-1)
	if upper {
		lo, hi = 0x80-'a', 0x80-'z'-1
	}
	const ones = 0x0101010101010101
	lo, hi = lo*ones, hi*ones
	dst = dst[:len(src)]
	i := 0
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		letters := (x + lo) &^ (x + hi) & (0x80 * ones)
		binary.LittleEndian.PutUint64(dst[i:], x^letters>>2)
	}
	table := &asciiLower
	if upper {
		table = &asciiUpper
	}
	mapASCII(dst[i:], src[i:], table)
}

// mapASCII maps the bytes src into dst through table.
func mapASCII(dst, src []byte, table *[256]byte) {
	dst = dst[:len(src)]
	for i, c := range src {
		dst[i] = table[c]
	}
}

// appendCase appends src case-mapped to a Go slice (for scalars).
func appendCase(dst, src []byte, table *[256]byte, mapRune func(rune) rune) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			dst = append(dst, table[c])
			i++
			continue
		}
		r, w := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && w == 1 {
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, mapRune(r))
		}
		i += w
	}
	return dst
}

// appendCaseTo appends src case-mapped to b's current row.
func appendCaseTo(b *strBuilder, src []byte, table *[256]byte, mapRune func(rune) rune) {
	b.grow(len(src))
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			b.grow(1)
			b.data = append(b.data, table[c])
			i++
			continue
		}
		r, w := utf8.DecodeRune(src[i:])
		b.grow(utf8.UTFMax)
		if r == utf8.RuneError && w == 1 {
			b.data = append(b.data, c)
		} else {
			b.data = utf8.AppendRune(b.data, mapRune(r))
		}
		i += w
	}
}

// Length is length(s): the number of characters (code points) of each
// string, as i64.
func Length(mem memory.Allocator, s datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return stringLength(mem, s, ret, true)
}

// ByteLength is byte_length(s): the number of bytes of each utf8 or binary
// value, as i64.
func ByteLength(mem memory.Allocator, s datum.Datum, ret dtype.DType) (datum.Datum, error) {
	return stringLength(mem, s, ret, false)
}

func stringLength(mem memory.Allocator, s datum.Datum, ret dtype.DType, chars bool) (datum.Datum, error) {
	if s.IsScalar() {
		if s.Scalar().IsNull() {
			return nullResult(ret, s.Len()), nil
		}
		b := scalarBytes(s.Scalar())
		n := len(b)
		if chars {
			n = utf8.RuneCount(b)
		}
		return datum.FromScalar(scalar.Int64(int64(n)).WithDType(ret), s.Len()), nil
	}
	arr := s.Array()
	v, err := viewBytes(arr)
	if err != nil {
		return datum.Datum{}, err
	}
	n := arr.Len()
	buf, out := newInt64Values(mem, n)
	if !chars || isASCII(v.span()) {
		for i := range n {
			out[i] = int64(v.offs[i+1] - v.offs[i])
		}
	} else {
		for i := range n {
			out[i] = int64(utf8.RuneCount(v.at(i)))
		}
	}
	validity, nulls := andValidity(mem, n, arr)
	res := makeArray(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
	return datum.FromArray(res, ret), nil
}

// StrOp is a string predicate of two strings.
type StrOp uint8

// The string predicates.
const (
	OpStartsWith StrOp = iota // starts_with(s, prefix)
	OpEndsWith                // ends_with(s, suffix)
	OpContains                // contains(s, needle)
)

func (op StrOp) apply(s, x []byte) bool {
	switch op {
	case OpStartsWith:
		return bytes.HasPrefix(s, x)
	case OpEndsWith:
		return bytes.HasSuffix(s, x)
	default:
		return bytes.Contains(s, x)
	}
}

// StringPredicate is starts_with, ends_with or contains over s and x. A
// scalar x (the usual case) runs the same specialised loops as LIKE.
func StringPredicate(mem memory.Allocator, op StrOp, s, x datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := s.Len()
	if anyNullScalar([]datum.Datum{s, x}) {
		return nullResult(ret, n), nil
	}
	if s.IsScalar() && x.IsScalar() {
		r := op.apply(scalarBytes(s.Scalar()), scalarBytes(x.Scalar()))
		return datum.FromScalar(scalar.Bool(r).WithDType(ret), n), nil
	}
	if x.IsScalar() {
		lit := string(scalarBytes(x.Scalar()))
		var m matcher
		switch op {
		case OpStartsWith:
			m = matcher{kind: matchPrefix, lit: lit}
		case OpEndsWith:
			m = matcher{kind: matchSuffix, lit: lit}
		default:
			m = matcher{kind: matchContains, lit: lit}
		}
		return matchArray(mem, &m, s.Array(), false, ret)
	}
	xv, err := viewBytes(x.Array())
	if err != nil {
		return datum.Datum{}, err
	}
	valBuf, words := NewBits(mem, n)
	if s.IsScalar() {
		sb := scalarBytes(s.Scalar())
		FillBits(words, n, func(i int) bool { return op.apply(sb, xv.at(i)) })
		validity, nulls := andValidity(mem, n, x.Array())
		return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
	}
	sv, err := viewBytes(s.Array())
	if err != nil {
		valBuf.Release()
		return datum.Datum{}, err
	}
	FillBits(words, n, func(i int) bool { return op.apply(sv.at(i), xv.at(i)) })
	validity, nulls := andValidity(mem, n, s.Array(), x.Array())
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}

// Concat is concat(args…): the arguments of each row joined, null arguments
// skipped (as in DuckDB), so the result is never null. Arguments are utf8 or
// of the null type.
func Concat(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	n := 0
	if len(args) > 0 {
		n = args[0].Len()
	}
	if allScalar(args) {
		var out []byte
		for _, a := range args {
			if !a.Scalar().IsNull() {
				out = append(out, scalarBytes(a.Scalar())...)
			}
		}
		return datum.FromScalar(scalar.String(string(out)).WithDType(ret), n), nil
	}
	type part struct {
		lit   []byte // a non-null scalar
		arr   arrow.Array
		v     bytesView
		nulls bool
	}
	parts := make([]part, 0, len(args))
	hint := 0
	for _, a := range args {
		switch {
		case a.IsScalar():
			if !a.Scalar().IsNull() {
				lit := scalarBytes(a.Scalar())
				if len(lit) > 0 {
					parts = append(parts, part{lit: lit})
					hint += len(lit) * n
				}
			}
		case a.DType().IsNull() || a.Array().DataType().ID() == arrow.NULL:
			// every row null: contributes nothing
		default:
			v, err := viewBytes(a.Array())
			if err != nil {
				return datum.Datum{}, err
			}
			parts = append(parts, part{arr: a.Array(), v: v, nulls: a.Array().NullN() > 0})
			hint += len(v.span())
		}
	}
	b := newStrBuilder(mem, n, hint)
	for i := range n {
		for _, p := range parts {
			switch {
			case p.arr == nil:
				b.write(p.lit)
			case !p.nulls || p.arr.IsValid(i):
				b.write(p.v.at(i))
			}
		}
		if err := b.end(); err != nil {
			b.release()
			return datum.Datum{}, err
		}
	}
	return datum.FromArray(b.finish(dtype.ToArrow(ret), nil, 0), ret), nil
}

// satAdd is a+b saturated to the int64 range: substring clips its window
// to the string, so a bound beyond the int64 range selects exactly what the
// nearest int64 does.
func satAdd(a, b int64) int64 {
	c := a + b
	switch {
	case a > 0 && b > 0 && c < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && c >= 0:
		return math.MinInt64
	}
	return c
}

// substringRange is the character range [start, end) that substring selects
// from a string of size characters, with DuckDB's rules. The offset names a
// position p, 0-based, on an unbounded line of characters in which the
// string occupies [0, size):
//
//   - offset > 0 counts from 1 at the first character: p = offset-1;
//   - offset < 0 counts from the end, -1 being the last character:
//     p = size+offset, which lies before the string when -offset > size;
//   - offset = 0 stands one position before the first character: p = -1.
//
// A positive length takes the window [p, p+length), a negative one the
// characters before p, [p+length, p). The result is the part of the window
// inside the string, so a window that starts before the first character
// loses its leading positions: substring('abc', -5, 3) is 'a' and
// substring('abc', 0, 2) is 'a'; substring('abc', 5, -3) is 'bc'.
//
// ok is false when the range is empty.
func substringRange(size, offset, length int64) (start, end int64, ok bool) {
	var p int64
	switch {
	case offset > 0:
		p = offset - 1
	case offset < 0:
		p = size + offset
	default:
		p = -1
	}
	lo, hi := p, satAdd(p, length)
	if length < 0 {
		lo, hi = hi, p
	}
	start, end = max(lo, 0), min(hi, size)
	if start >= end {
		return 0, 0, false
	}
	return start, end, true
}

// substringOf is the part of s that substring selects.
func substringOf(s []byte, offset, length int64) []byte {
	ascii := isASCII(s)
	size := int64(len(s))
	if !ascii {
		size = int64(utf8.RuneCount(s))
	}
	start, end, ok := substringRange(size, offset, length)
	if !ok {
		return nil
	}
	if ascii {
		return s[start:end]
	}
	bs := runeOffset(s, 0, start)
	be := runeOffset(s, bs, end-start)
	return s[bs:be]
}

// runeOffset is the byte index k characters after byte index from.
func runeOffset(s []byte, from int, k int64) int {
	i := from
	for ; k > 0 && i < len(s); k-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRune(s[i:])
		i += w
	}
	return i
}

// Substring is substring(s, offset[, length]) in characters with DuckDB's
// rules (see substringRange). Without a length it takes the rest of the
// string. DuckDB rejects offsets and lengths beyond ±2^32; here they select
// what their exact values select, so substring never fails.
func Substring(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s := args[0]
	n := s.Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	off, err := newIntArg(args[1])
	if err != nil {
		return datum.Datum{}, fmt.Errorf("substring offset: %w", err)
	}
	length := intArg{sc: math.MaxInt64}
	if len(args) > 2 {
		if length, err = newIntArg(args[2]); err != nil {
			return datum.Datum{}, fmt.Errorf("substring length: %w", err)
		}
	}
	if allScalar(args) {
		out := substringOf(scalarBytes(s.Scalar()), off.sc, length.sc)
		return datum.FromScalar(scalar.String(string(out)).WithDType(ret), n), nil
	}
	var (
		v    bytesView
		sArr arrow.Array
		lit  []byte
		hint int
	)
	if s.IsScalar() {
		lit = scalarBytes(s.Scalar())
		hint = len(lit) * n
	} else {
		sArr = s.Array()
		if v, err = viewBytes(sArr); err != nil {
			return datum.Datum{}, err
		}
		hint = len(v.span())
	}
	validity, nulls := andValidity(mem, n, sArr, off.arr, length.arr)
	var vbits []byte
	if validity != nil {
		vbits = validity.Bytes()
	}
	b := newStrBuilder(mem, n, hint)
	for i := range n {
		if vbits != nil && vbits[i>>3]&(1<<(i&7)) == 0 {
			b.endEmpty()
			continue
		}
		src := lit
		if sArr != nil {
			src = v.at(i)
		}
		b.write(substringOf(src, off.get(i), length.get(i)))
		if err := b.end(); err != nil {
			b.release()
			if validity != nil {
				validity.Release()
			}
			return datum.Datum{}, err
		}
	}
	return datum.FromArray(b.finish(dtype.ToArrow(ret), validity, nulls), ret), nil
}
