package kernels

// The loops of LIKE and ILIKE over a whole array with one compiled pattern:
// one per literal shape, word by word into the result bitmap.
//
// The literal shapes of up to 8 bytes compare one masked 64-bit load per
// row instead of calling memequal: a row starts with lit when the first 8
// bytes at its start, masked to len(lit) bytes, equal lit. The loads may
// read past the end of a row (into the next one), never past the end of the
// value buffer: the few rows near its end take the plain comparison. The
// loops are branch-free and keep every variable in a register.

import (
	"bytes"
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
)

// matchArray applies m to every row of arr.
func matchArray(mem memory.Allocator, m *matcher, arr arrow.Array, negated bool, ret dtype.DType) (datum.Datum, error) {
	// The offsets are checked as they are used: by the literal loops in
	// passing, by the others before they start.
	v, err := viewBytesUnchecked(arr)
	if err != nil {
		return datum.Datum{}, err
	}
	n := arr.Len()
	valBuf, words := NewBits(mem, n)
	ok := true
	switch {
	case m.kind == matchAll:
		for w := range words {
			words[w] = ^uint64(0)
		}
	case !m.fold:
		ok = matchWords(words, n, v, m)
	case !ascending(v.offs):
		ok = false
	case m.kind == matchPrefix && len(m.lit) <= 8 && isASCII([]byte(m.lit)):
		foldPrefixWords(words, v, m)
	case isASCII(v.span()):
		// Fold every value at once (eight bytes at a time) into a scratch
		// copy with offsets from 0, then match it as LIKE does.
		span := v.span()
		data, offs := memory.NewResizableBuffer(mem), memory.NewResizableBuffer(mem)
		data.Resize(len(span))
		offs.Resize((n + 1) * 4)
		caseASCII(data.Bytes(), span, true) // asciiFold is upper-casing
		fo := arrow.Int32Traits.CastFromBytes(offs.Bytes())
		for i, o := range v.offs {
			fo[i] = o - v.offs[0]
		}
		matchWords(words, n, bytesView{offs: fo, data: data.Bytes()}, m)
		data.Release()
		offs.Release()
	default:
		matchFoldWords(words, n, v, m)
	}
	if !ok {
		valBuf.Release()
		return datum.Datum{}, errDecreasing(arr)
	}
	if negated {
		for w := range words {
			words[w] = ^words[w]
		}
	}
	validity, nulls := andValidity(mem, n, arr)
	return datum.FromArray(boolArray(valBuf, validity, nulls, n), ret), nil
}

// foldPrefixWords is ILIKE with a prefix of up to 8 ASCII bytes: one
// 64-bit load per row, upper-cased eight bytes at a time (see caseASCII)
// and compared; a row whose first bytes are not all ASCII is folded whole
// and matched as in matchFoldWords.
func foldPrefixWords(words []uint64, v bytesView, m *matcher) {
	n, k, data := len(v.offs)-1, int32(len(m.lit)), v.data
	var scratch []byte
	slow := func(i int) uint64 {
		scratch = foldInto(scratch[:0], v.at(i))
		return wordBool(m.match(scratch))
	}
	want, mask := loadLE(m.lit)
	const ones, high = 0x0101010101010101, 0x8080808080808080
	base := unsafe.Pointer(unsafe.SliceData(data))
	var acc uint64
	for i := range n {
		s, e := v.offs[i], v.offs[i+1]
		var b uint64
		if int(s) <= len(data)-8 {
			x := load8(unsafe.Add(base, s)) & mask
			if x&high == 0 {
				letters := (x + (0x80-'a')*ones) &^ (x + (0x80-'z'-1)*ones) & high
				b = isZero(x^letters>>2^want) & isNonNeg(e-s-k)
			} else {
				b = slow(i)
			}
		} else {
			b = slow(i)
		}
		acc |= b << (uint(i) & 63)
		if i&63 == 63 {
			words[i>>6] = acc
			acc = 0
		}
	}
	if n&63 != 0 {
		words[n>>6] = acc
	}
}

// matchWords applies m to the rows of v (already folded for ILIKE), with the
// loop of its shape. It reports false when the offsets of v decrease.
func matchWords(words []uint64, n int, v bytesView, m *matcher) bool {
	switch m.kind {
	case matchPrefix:
		return literalWords(words, v, m.lit, false)
	case matchExact:
		return literalWords(words, v, m.lit, true)
	}
	if !ascending(v.offs) {
		return false
	}
	switch m.kind {
	case matchSuffix:
		matchSuffixWords(words, v, m.lit)
	case matchContains:
		matchContainsWords(words, v, m.lit)
	default:
		FillBits(words, n, func(i int) bool { return m.matchGeneral(v.at(i)) })
	}
	return true
}

// matchFoldWords applies an ILIKE matcher to every row of values that are
// not all ASCII. When the literal of
// a prefix, suffix or exact pattern is ASCII, a row whose compared bytes are
// ASCII is compared in place through the folding table; other rows are
// folded whole first. (Folding never lengthens a string: an orbit's
// smallest member is never longer in UTF-8 than the others.)
func matchFoldWords(words []uint64, n int, v bytesView, m *matcher) {
	lit, k := m.lit, len(m.lit)
	direct := isASCII([]byte(lit)) && (m.kind == matchPrefix || m.kind == matchSuffix || m.kind == matchExact)
	var scratch []byte
	FillBits(words, n, func(i int) bool {
		row := v.at(i)
		if direct {
			switch m.kind {
			case matchPrefix:
				if len(row) < k {
					return false
				}
				if head := row[:k]; isASCII(head) {
					return equalFoldASCII(head, lit)
				}
			case matchSuffix:
				if len(row) < k {
					return false
				}
				if tail := row[len(row)-k:]; isASCII(tail) {
					return equalFoldASCII(tail, lit)
				}
			default:
				if isASCII(row) {
					return len(row) == k && equalFoldASCII(row, lit)
				}
			}
		}
		scratch = foldInto(scratch[:0], row)
		return m.match(scratch)
	})
}

// equalFoldASCII reports whether the ASCII bytes b fold to lit (already
// folded, of the same length).
func equalFoldASCII(b []byte, lit string) bool {
	for j, c := range b {
		if asciiFold[c] != lit[j] {
			return false
		}
	}
	return true
}

// loadLE reads up to 8 bytes of lit as a little-endian word and the mask of
// the bytes it covers.
func loadLE(lit string) (want, mask uint64) {
	var b [8]byte
	copy(b[:], lit)
	want = binary.LittleEndian.Uint64(b[:])
	mask = ^uint64(0)
	if len(lit) < 8 {
		mask = 1<<(8*uint(len(lit))) - 1
	}
	return want, mask
}

// isZero is 1 when x is 0, else 0.
func isZero(x uint64) uint64 { return (^x & (x - 1)) >> 63 }

// isNonNeg is 1 when x >= 0, else 0.
func isNonNeg(x int32) uint64 { return ^uint64(int64(x)) >> 63 }

// load8 reads 8 bytes at p, little-endian.
func load8(p unsafe.Pointer) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(p)[:])
}

// literalWords sets bit i when row i starts with lit, or with exact when
// it equals lit. It checks that the offsets never decrease as it reads them,
// and reports false when they do; its loads are clamped to the value
// buffer, so even then it reads nothing outside it.
func literalWords(words []uint64, v bytesView, lit string, exact bool) bool {
	n, k, data := len(v.offs)-1, len(lit), v.data
	slow := func(i int) bool {
		s, e := int(v.offs[i]), int(v.offs[i+1])
		if exact {
			return e-s == k && bytesString(data[s:e]) == lit
		}
		return e-s >= k && bytesString(data[s:s+k]) == lit
	}
	if k > 8 || len(data) < 8 {
		if !ascending(v.offs) {
			return false
		}
		FillBits(words, n, slow)
		return true
	}
	fast := n // rows [0, fast) start at least 8 bytes before the end
	for fast > 0 && int(v.offs[fast-1]) > len(data)-8 {
		fast--
	}
	if !ascending(v.offs[fast:]) { // the rows slow slices
		return false
	}
	want, mask := loadLE(lit)
	if !prefixWords(words, v.offs[:fast+1], data, want, mask, int32(k), exact) {
		return false
	}
	tailBits(words, fast, n, slow)
	return true
}

// prefixWords is the fast loop of prefix (exact false) and exact matching
// over the rows of offs (len(offs)-1 rows from row 0), for data of at least
// 8 bytes. The active SIMD kernel, if there is one, does the whole words
// of 64 rows (prefixFast); where there is none they are unrolled four rows
// at a time. The last partial word is not. It reports whether the offsets
// never decrease.
func prefixWords(words []uint64, offs []int32, data []byte, want, mask uint64, k int32, exact bool) bool {
	n := len(offs) - 1
	full := n &^ 63
	base := unsafe.Pointer(unsafe.SliceData(data))
	lim := uint32(len(data) - 8)
	hit := prefixHit
	if exact {
		hit = exactHit
	}
	var down int64 // the OR of the differences of successive offsets
	done, dec := prefixFast(words, offs[:full+1], data, want, mask, k, exact)
	if dec {
		down = -1
	}
	for w := done >> 6; w < full>>6; w++ {
		o := (*[65]int32)(offs[w*64 : w*64+65])
		var acc uint64
		for j := 0; j < 64; j += 4 {
			// Parenthesized: | and - bind alike, left to right.
			down |= (int64(o[j+1]) - int64(o[j])) | (int64(o[j+2]) - int64(o[j+1])) |
				(int64(o[j+3]) - int64(o[j+2])) | (int64(o[j+4]) - int64(o[j+3]))
			if exact {
				acc |= (exactHit(base, lim, o[j], o[j+1], want, mask, k) |
					exactHit(base, lim, o[j+1], o[j+2], want, mask, k)<<1 |
					exactHit(base, lim, o[j+2], o[j+3], want, mask, k)<<2 |
					exactHit(base, lim, o[j+3], o[j+4], want, mask, k)<<3) << (uint(j) & 63)
			} else {
				acc |= (prefixHit(base, lim, o[j], o[j+1], want, mask, k) |
					prefixHit(base, lim, o[j+1], o[j+2], want, mask, k)<<1 |
					prefixHit(base, lim, o[j+2], o[j+3], want, mask, k)<<2 |
					prefixHit(base, lim, o[j+3], o[j+4], want, mask, k)<<3) << (uint(j) & 63)
			}
		}
		words[w] = acc
	}
	if full < n {
		var acc uint64
		for i := full; i < n; i++ {
			down |= int64(offs[i+1]) - int64(offs[i])
			acc |= hit(base, lim, offs[i], offs[i+1], want, mask, k) << (uint(i) & 63)
		}
		words[full>>6] = acc
	}
	return down >= 0
}

// prefixHit is 1 when the row [s, e) of data starts with the k-byte literal
// want (mask covering its k bytes), else 0. The load starts at most at lim,
// 8 bytes before the end of data, whatever s is.
func prefixHit(data unsafe.Pointer, lim uint32, s, e int32, want, mask uint64, k int32) uint64 {
	return wordBool(load8(unsafe.Add(data, min(uint32(s), lim)))&mask == want) & wordBool(e-s >= k)
}

// exactHit is 1 when the row [s, e) of data is the k-byte literal want.
func exactHit(data unsafe.Pointer, lim uint32, s, e int32, want, mask uint64, k int32) uint64 {
	return wordBool(load8(unsafe.Add(data, min(uint32(s), lim)))&mask == want) & wordBool(e-s == k)
}

// tailBits sets the bits of rows [from, n) to pred, after a fast loop
// filled the rows before from.
func tailBits(words []uint64, from, n int, pred func(int) bool) {
	for i := from; i < n; i++ {
		if i&63 == 0 {
			words[i>>6] = 0
		}
		words[i>>6] |= wordBool(pred(i)) << uint(i&63)
	}
}

// matchSuffixWords sets bit i when row i ends with lit. Suffixes of up to 8
// bytes compare the 8 bytes before the row's end, shifted to len(lit) bytes;
// the first rows, which end within 8 bytes of the start of the value
// buffer, take the plain comparison.
func matchSuffixWords(words []uint64, v bytesView, lit string) {
	n, k, data := len(v.offs)-1, len(lit), v.data
	slow := func(i int) bool {
		s, e := int(v.offs[i]), int(v.offs[i+1])
		return e-s >= k && bytesString(data[e-k:e]) == lit
	}
	if k > 8 || k == 0 {
		FillBits(words, n, slow)
		return
	}
	first := 0 // rows [first, n) end at least 8 bytes after the start
	for first < n && v.offs[first+1] < 8 {
		first++
	}
	// The rows before first fill whole words from the start, in order.
	tailBits(words, 0, first, slow)
	if first == n {
		return
	}
	want, _ := loadLE(lit)
	shift := 64 - 8*uint(k)
	base := unsafe.Pointer(unsafe.SliceData(data))
	acc := uint64(0)
	if first&63 != 0 {
		acc = words[first>>6]
	}
	s := v.offs[first]
	for i := first; i < n; i++ {
		e := v.offs[i+1]
		d := load8(unsafe.Add(base, e-8))>>shift ^ want
		acc |= isZero(d) & isNonNeg(e-s-int32(k)) << (uint(i) & 63)
		if i&63 == 63 {
			words[i>>6] = acc
			acc = 0
		}
		s = e
	}
	if n&63 != 0 {
		words[n>>6] = acc
	}
}

// matchContainsWords sets bit i when row i contains lit. It searches the
// whole value buffer at once and maps each hit back to its row, so rows
// without a hit cost nothing but the search itself.
func matchContainsWords(words []uint64, v bytesView, lit string) {
	n := len(v.offs) - 1
	clear(words)
	if lit == "" {
		for i := range n {
			words[i>>6] |= 1 << uint(i&63)
		}
		return
	}
	needle := []byte(lit)
	data := v.data[:v.offs[n]]
	pos, row := int(v.offs[0]), 0
	for row < n {
		i := bytes.Index(data[pos:], needle)
		if i < 0 {
			return
		}
		at := pos + i
		for row < n && int(v.offs[row+1]) <= at {
			row++
		}
		if row == n {
			return
		}
		if end := int(v.offs[row+1]); at+len(needle) <= end {
			words[row>>6] |= 1 << uint(row&63)
			pos = end
			row++
		} else {
			pos = at + 1 // the hit straddles two rows
		}
	}
}
