package kernels

// The JSON reader and writer behind DuckDB's JSON functions (json_funcs.go):
// a validating parser that turns one document into a tape of nodes, paths
// into steps, and a writer that prints a node as DuckDB (yyjson) prints it.
//
// The parser is iterative: containers are kept on an explicit stack, so a
// deeply nested document costs memory in proportion to its size, never
// goroutine stack. It reads what DuckDB's reader accepts: RFC 8259 JSON,
// plus trailing commas in arrays and objects ([1,] and {"a":1,}) and the
// literals nan, inf and infinity in any case, with an optional minus sign.
// A malformed document is an error naming the byte, with yyjson's words
// ("malformed JSON at byte 2 of input: unexpected end of data").
//
// Numbers are kept as their text and classified when a function needs
// them, as yyjson reads them with DuckDB's options: an integer that fits
// u64 (when not negative) or i64 (when negative) is an integer (-0 is the
// integer 0); any other number with a fraction or an exponent is a double
// (1e-400 underflows to 0.0); an integer beyond 64 bits, a number whose
// double overflows (1e400) and the nan and inf literals are "raw" and
// print as written. The writer prints a double in the shortest form that
// reads back to it, as yyjson does (DuckDB 2.0, checked value by value):
//
//	positional when 1e-7 <= |x| < 1e21, with .0 when integral:
//	  1e2 → 100.0, 1e20 → 100000000000000000000.0, 1e15 → 1000000000000000.0,
//	  1e-6 → 0.000001, 1.25e-6 → 0.00000125, 12345678901234567890.5 → 12345678901234567000.0
//	exponent form otherwise, without a + and with a '.' only between digits:
//	  1e21 → 1e21, 1.2345678901234568e21, 1e-7 → 1e-7, 123e-9 → 1.23e-7, 2.5e-300
//	zero keeps its sign: -0.0 → -0.0, -0e0 → -0.0, while the integer -0 → 0
//
// Strings print with the escapes yyjson writes: \" \\ \b \f \n \r \t, and
// \u00XX (upper-case hex) for the other control characters; '/', DEL,
// non-ASCII characters and U+2028/U+2029 are written as they are.

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/colexpr/colexpr/errs"
)

// jsonKind is the kind of a tape node.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonFalse
	jsonTrue
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// jsonNode is one value of a document, in document order (a container
// before its elements; an object's elements alternate key and value).
type jsonNode struct {
	kind       jsonKind
	esc        bool  // a string with escapes; a number with a fraction or an exponent
	lit        bool  // a number spelt nan, inf or infinity
	start, end int32 // the bytes of the value (a string's with its quotes)
	next       int32 // the node after this value and its elements
	n          int32 // a container's elements (an object's members)
}

// jsonDoc is a parsed document. Its slices are reused from row to row.
type jsonDoc struct {
	src   []byte
	nodes []jsonNode
	open  []int32 // containers being read, innermost last
	buf   []byte  // scratch: decoded keys
	elems []int32 // scratch of appendValue
}

// errMalformed is the error of a document that is not JSON.
func errMalformed(at int, why string) error {
	return fmt.Errorf("malformed JSON at byte %d of input: %s: %w", at, why, errs.ErrInvalidArgument)
}

func jsonSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(s []byte, i int) int {
	for i < len(s) && jsonSpace(s[i]) {
		i++
	}
	return i
}

// parse reads src into d. The document's size must fit 32-bit offsets,
// as every utf8 value does.
func (d *jsonDoc) parse(src []byte) error {
	d.src, d.nodes, d.open = src, d.nodes[:0], d.open[:0]
	if len(src) == 0 {
		return errMalformed(0, "input length is 0")
	}
	if len(src) > math.MaxInt32 {
		return errMalformed(0, "input larger than 2 GiB")
	}
	i := skipSpace(src, 0)
	if i == len(src) {
		return errMalformed(0, "input data is empty")
	}
	for {
		// A value at i (spaces skipped).
		if i >= len(src) {
			return errMalformed(i, "unexpected end of data")
		}
		var err error
		switch c := src[i]; c {
		case '[', '{':
			kind := jsonArray
			if c == '{' {
				kind = jsonObject
			}
			d.count()
			d.nodes = append(d.nodes, jsonNode{kind: kind, start: int32(i)})
			d.open = append(d.open, int32(len(d.nodes)-1))
			i = skipSpace(src, i+1)
			if i < len(src) && src[i] == c+2 { // ] or }
				i = d.close(i + 1)
				break
			}
			if kind == jsonObject {
				if i, err = d.key(i); err != nil {
					return err
				}
			}
			continue
		case '"':
			if i, err = d.strNode(i, false); err != nil {
				return err
			}
		case 't', 'f', 'n', 'N', 'i', 'I', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if i, err = d.scalar(i); err != nil {
				return err
			}
		default:
			return errMalformed(i, "unexpected character")
		}
		// After a value: a comma, a closing bracket, or the end.
		for {
			if len(d.open) == 0 {
				if i = skipSpace(src, i); i < len(src) {
					return errMalformed(i, "unexpected content after document")
				}
				return nil
			}
			i = skipSpace(src, i)
			if i >= len(src) {
				return errMalformed(i, "unexpected end of data")
			}
			top := &d.nodes[d.open[len(d.open)-1]]
			closer := byte(']')
			if top.kind == jsonObject {
				closer = '}'
			}
			if src[i] == closer {
				i = d.close(i + 1)
				continue
			}
			if src[i] != ',' {
				return errMalformed(i, "unexpected character")
			}
			i = skipSpace(src, i+1)
			if i < len(src) && src[i] == closer { // a trailing comma
				i = d.close(i + 1)
				continue
			}
			if top.kind == jsonObject {
				if i, err = d.key(i); err != nil {
					return err
				}
			}
			break
		}
	}
}

// close ends the innermost container at byte i (just past its bracket).
func (d *jsonDoc) close(i int) int {
	c := d.open[len(d.open)-1]
	d.open = d.open[:len(d.open)-1]
	d.nodes[c].end = int32(i)
	d.nodes[c].next = int32(len(d.nodes))
	return i
}

// key reads an object's key at i and the colon after it, and returns the
// position of the value.
func (d *jsonDoc) key(i int) (int, error) {
	if i >= len(d.src) {
		return i, errMalformed(i, "unexpected end of data")
	}
	if d.src[i] != '"' {
		return i, errMalformed(i, "unexpected character")
	}
	i, err := d.strNode(i, true)
	if err != nil {
		return i, err
	}
	i = skipSpace(d.src, i)
	if i >= len(d.src) {
		return i, errMalformed(i, "unexpected end of data")
	}
	if d.src[i] != ':' {
		return i, errMalformed(i, "unexpected character")
	}
	return skipSpace(d.src, i+1), nil
}

// strNode reads the string at i (its opening quote) as a node; a key is
// not counted as an element of its object.
func (d *jsonDoc) strNode(i int, key bool) (int, error) {
	end, esc, err := scanString(d.src, i)
	if err != nil {
		return end, err
	}
	n := jsonNode{kind: jsonString, esc: esc, start: int32(i), end: int32(end), next: int32(len(d.nodes) + 1)}
	if !key {
		d.count()
	}
	d.nodes = append(d.nodes, n)
	return end, nil
}

// count counts a value (not a key) in the innermost container.
func (d *jsonDoc) count() {
	if k := len(d.open); k > 0 {
		d.nodes[d.open[k-1]].n++
	}
}

// scalar reads a literal or a number at i.
func (d *jsonDoc) scalar(i int) (int, error) {
	src := d.src
	for _, l := range [...]struct {
		word string
		kind jsonKind
	}{{"true", jsonTrue}, {"false", jsonFalse}, {"null", jsonNull}} {
		if src[i] != l.word[0] {
			continue
		}
		k := 0
		for k < len(l.word) && i+k < len(src) && src[i+k] == l.word[k] {
			k++
		}
		switch {
		case k == len(l.word):
			d.count()
			d.nodes = append(d.nodes, jsonNode{kind: l.kind, start: int32(i), end: int32(i + k), next: int32(len(d.nodes) + 1)})
			return i + k, nil
		case i+k == len(src):
			return i + k, errMalformed(i+k, "unexpected end of data")
		case l.word != "null": // n may start nan
			return i, errMalformed(i, "invalid literal")
		}
	}
	end, float, lit, err := scanNumber(src, i)
	if err != nil {
		return end, err
	}
	d.count()
	d.nodes = append(d.nodes, jsonNode{kind: jsonNumber, esc: float, lit: lit, start: int32(i), end: int32(end), next: int32(len(d.nodes) + 1)})
	return end, nil
}

// scanNumber reads a number at i: a JSON number, or nan, inf or infinity
// in any case after an optional minus. float: it has a fraction or an
// exponent.
func scanNumber(s []byte, i int) (end int, float, lit bool, err error) {
	j := i
	if s[j] == '-' {
		j++
	}
	if j < len(s) && (s[j]|0x20 == 'n' || s[j]|0x20 == 'i') {
		for _, w := range [...]string{"infinity", "inf", "nan"} {
			if j+len(w) <= len(s) && asciiFoldEqual(s[j:j+len(w)], w) {
				return j + len(w), true, true, nil
			}
		}
		for _, w := range [...]string{"infinity", "nan"} {
			if len(s)-j < len(w) && asciiFoldEqual(s[j:], w[:len(s)-j]) {
				return len(s), false, false, errMalformed(len(s), "unexpected end of data")
			}
		}
		return i, false, false, errMalformed(i, "invalid literal")
	}
	if j >= len(s) || s[j] < '0' || s[j] > '9' {
		return j, false, false, errMalformed(j, "no digit after minus sign")
	}
	if s[j] == '0' {
		j++
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			return j - 1, false, false, errMalformed(j-1, "number with leading zero is not allowed")
		}
	} else {
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j < len(s) && s[j] == '.' {
		float = true
		j++
		if j >= len(s) || s[j] < '0' || s[j] > '9' {
			return j, false, false, errMalformed(j, "no digit after decimal point")
		}
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j < len(s) && s[j]|0x20 == 'e' {
		float = true
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j >= len(s) || s[j] < '0' || s[j] > '9' {
			return j, false, false, errMalformed(j, "no digit after exponent sign")
		}
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	return j, float, false, nil
}

func asciiFoldEqual(b []byte, lower string) bool {
	for k := range b {
		if b[k]|0x20 != lower[k] {
			return false
		}
	}
	return true
}

// scanString reads the string whose opening quote is at i, checking its
// escapes and its UTF-8, and returns the position after its closing quote
// and whether it has escapes.
func scanString(s []byte, i int) (end int, esc bool, err error) {
	j := i + 1
	for {
		// Plain bytes first, the common case.
		for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 && s[j] < 0x80 {
			j++
		}
		if j >= len(s) {
			return len(s), esc, errMalformed(len(s), "unexpected end of data")
		}
		switch c := s[j]; {
		case c == '"':
			return j + 1, esc, nil
		case c < 0x20:
			return j, esc, errMalformed(j, "unexpected control character in string")
		case c >= 0x80:
			r, size := utf8.DecodeRune(s[j:])
			if r == utf8.RuneError && size <= 1 {
				return j, esc, errMalformed(j, "invalid utf-8 encoding in string")
			}
			j += size
		default: // a backslash
			esc = true
			if j+1 >= len(s) {
				return len(s), esc, errMalformed(len(s), "unexpected end of data")
			}
			switch s[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				r, ok := hex4(s, j+2)
				if !ok {
					return j, esc, errMalformed(j, "invalid escaped sequence in string")
				}
				switch {
				case r >= 0xDC00 && r <= 0xDFFF:
					return j, esc, errMalformed(j, "invalid high surrogate in string")
				case r >= 0xD800 && r <= 0xDBFF:
					lo, ok := rune(0), j+12 <= len(s) && s[j+6] == '\\' && s[j+7] == 'u'
					if ok {
						lo, ok = hex4(s, j+8)
					}
					if !ok || lo < 0xDC00 || lo > 0xDFFF {
						return j + 6, esc, errMalformed(j+6, "no low surrogate in string")
					}
					j += 12
				default:
					j += 6
				}
			default:
				return j + 1, esc, errMalformed(j+1, "invalid escaped character in string")
			}
		}
	}
}

// hex4 reads four hex digits at i.
func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			r = r<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendUnquoted appends the characters of the string node n, its escapes
// decoded (the document is valid: scanString checked them).
func (d *jsonDoc) appendUnquoted(b []byte, n *jsonNode) []byte {
	s := d.src[n.start+1 : n.end-1]
	if !n.esc {
		return append(b, s...)
	}
	for j := 0; j < len(s); {
		c := s[j]
		if c != '\\' {
			b = append(b, c)
			j++
			continue
		}
		switch e := s[j+1]; e {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, _ := hex4(s, j+2)
			if r >= 0xD800 && r <= 0xDBFF {
				lo, _ := hex4(s, j+8)
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				j += 6
			}
			b = utf8.AppendRune(b, r)
			j += 6
			continue
		default: // " \ /
			b = append(b, e)
		}
		j += 2
	}
	return b
}

// appendQuoted appends s as a JSON string with yyjson's escapes.
func appendQuoted(b []byte, s []byte) []byte {
	const hexDigits = "0123456789ABCDEF"
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c >= 0x20:
			b = append(b, c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return append(b, '"')
}

// numClass is how a number node reads.
type numClass uint8

const (
	numUint   numClass = iota // an integer fitting u64
	numInt                    // a negative integer fitting i64 (and -0)
	numDouble                 // a finite double
	numRaw                    // kept as written
)

// classify reads the number node n.
func (d *jsonDoc) classify(n *jsonNode) (numClass, uint64, int64, float64) {
	text := bytesString(d.src[n.start:n.end])
	switch {
	case n.lit:
		return numRaw, 0, 0, 0
	case !n.esc && text[0] == '-':
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return numInt, 0, v, 0
		}
		return numRaw, 0, 0, 0
	case !n.esc:
		if v, err := strconv.ParseUint(text, 10, 64); err == nil {
			return numUint, v, 0, 0
		}
		return numRaw, 0, 0, 0
	}
	f, _ := strconv.ParseFloat(text, 64)
	if math.IsInf(f, 0) {
		return numRaw, 0, 0, 0
	}
	return numDouble, 0, 0, f
}

// appendNumber appends the number node n as yyjson writes it.
func (d *jsonDoc) appendNumber(b []byte, n *jsonNode) []byte {
	switch c, u, i, f := d.classify(n); c {
	case numUint:
		return strconv.AppendUint(b, u, 10)
	case numInt:
		return strconv.AppendInt(b, i, 10)
	case numDouble:
		return appendJSONDouble(b, f)
	}
	return append(b, d.src[n.start:n.end]...)
}

// appendJSONDouble appends the finite double f in yyjson's shortest form
// (see the file comment).
func appendJSONDouble(b []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64) // [-]d[.ddd]e±xx
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	var digits [24]byte
	nd := 0
	k := 0
	for ; e[k] != 'e'; k++ {
		if e[k] != '.' {
			digits[nd] = e[k]
			nd++
		}
	}
	exp, _ := strconv.Atoi(bytesString(e[k+1:]))
	ds := digits[:nd]
	switch {
	case exp >= 21 || exp < -6:
		b = append(b, ds[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, ds[1:]...)
		}
		b = append(b, 'e')
		return strconv.AppendInt(b, int64(exp), 10)
	case exp < 0:
		b = append(b, '0', '.')
		for range -exp - 1 {
			b = append(b, '0')
		}
		return append(b, ds...)
	case nd <= exp+1:
		b = append(b, ds...)
		for range exp + 1 - nd {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	}
	b = append(b, ds[:exp+1]...)
	b = append(b, '.')
	return append(b, ds[exp+1:]...)
}

// appendValue appends node at minified, as yyjson writes it. The walk is
// iterative: open containers are on d.open (free after parsing).
func (d *jsonDoc) appendValue(b []byte, at int32) []byte {
	end := d.nodes[at].next
	stack := d.open[:0]
	// stack holds the open containers; elems counts what each has written.
	elems := d.elems[:0]
	for k := at; k < end; k++ {
		for len(stack) > 0 && d.nodes[stack[len(stack)-1]].next <= k {
			b = d.closeBracket(b, stack[len(stack)-1])
			stack, elems = stack[:len(stack)-1], elems[:len(elems)-1]
		}
		n := &d.nodes[k]
		if len(stack) > 0 {
			top := len(stack) - 1
			isObj := d.nodes[stack[top]].kind == jsonObject
			switch {
			case isObj && elems[top]%2 == 1:
				b = append(b, ':')
			case elems[top] > 0:
				b = append(b, ',')
			}
			elems[top]++
		}
		switch n.kind {
		case jsonArray, jsonObject:
			if n.kind == jsonArray {
				b = append(b, '[')
			} else {
				b = append(b, '{')
			}
			stack = append(stack, k)
			elems = append(elems, 0)
		default:
			b = d.appendScalar(b, n)
		}
	}
	for len(stack) > 0 {
		b = d.closeBracket(b, stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	d.open, d.elems = stack, elems
	return b
}

func (d *jsonDoc) closeBracket(b []byte, c int32) []byte {
	if d.nodes[c].kind == jsonArray {
		return append(b, ']')
	}
	return append(b, '}')
}

// appendScalar appends a node that is no container.
func (d *jsonDoc) appendScalar(b []byte, n *jsonNode) []byte {
	switch n.kind {
	case jsonNull:
		return append(b, "null"...)
	case jsonTrue:
		return append(b, "true"...)
	case jsonFalse:
		return append(b, "false"...)
	case jsonNumber:
		return d.appendNumber(b, n)
	}
	if !n.esc {
		return append(b, d.src[n.start:n.end]...)
	}
	k := len(b)
	b = d.appendUnquoted(b, n)
	// Re-quote the decoded characters in place: copy them out first.
	d.buf = append(d.buf[:0], b[k:]...)
	return appendQuoted(b[:k], d.buf)
}

// typeName is DuckDB's json_type of node at.
func (d *jsonDoc) typeName(at int32) string {
	n := &d.nodes[at]
	switch n.kind {
	case jsonNull:
		return "NULL"
	case jsonTrue, jsonFalse:
		return "BOOLEAN"
	case jsonString:
		return "VARCHAR"
	case jsonArray:
		return "ARRAY"
	case jsonObject:
		return "OBJECT"
	}
	switch c, _, _, _ := d.classify(n); c {
	case numUint:
		return "UBIGINT"
	case numInt:
		return "BIGINT"
	}
	return "DOUBLE"
}
