package kernels

// printf and format: a format string and values of any of the kinds below,
// formatted per row as DuckDB does (DuckDB formats with the {fmt} library:
// printf takes C-style specifiers, format takes {fmt}'s {} fields).
//
// Values are integers (signed or unsigned, any width), floats, utf8 and
// bool; package fn casts decimals to f64 (DuckDB formats them as doubles)
// and other types to utf8 before calling. Rows are written straight into
// the result with strconv's Append functions: no allocation per row.

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
)

// fmtKind is the kind of a formatted value.
type fmtKind uint8

const (
	fmtInt fmtKind = iota
	fmtUint
	fmtFloat
	fmtString
	fmtBool
)

func (k fmtKind) String() string {
	return [...]string{"integer", "unsigned integer", "float", "string", "bool"}[k]
}

// withArticle is the kind after "a" or "an", for messages.
func (k fmtKind) withArticle() string {
	if k == fmtInt || k == fmtUint {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// fmtArg is one value argument, array or scalar.
type fmtArg struct {
	kind  fmtKind
	bits  int // floats: 32 or 64, for the shortest representation
	ints  intArg
	uints []uint64 // u64 arrays (other unsigned widths go through ints)
	usc   uint64
	u64sc bool // a u64 scalar, in usc
	f64   []float64
	f32   []float32
	fsc   float64
	str   strArg
	bools *array.Boolean
	bsc   bool
	arr   arrow.Array
}

func newFmtArg(d datum.Datum) (fmtArg, error) {
	t := d.DType()
	a := fmtArg{arr: d.Array()}
	switch {
	case t.IsUtf8():
		a.kind = fmtString
		s, err := newStrArg(d)
		a.str = s
		return a, err
	case t.IsBool():
		a.kind = fmtBool
		if d.IsScalar() {
			a.bsc, _ = d.Scalar().Value().(bool)
		} else {
			a.bools, _ = d.Array().(*array.Boolean)
		}
		return a, nil
	case t.IsFloat():
		a.kind, a.bits = fmtFloat, 64
		if t.PType() == dtype.F32 {
			a.bits = 32
		}
		switch {
		case d.IsScalar():
			a.fsc, _ = d.Scalar().Value().(float64)
		case t.PType() == dtype.F64:
			a.f64 = valuesOf[float64](d.Array())
		case t.PType() == dtype.F32:
			a.f32 = valuesOf[float32](d.Array())
		default:
			return a, fmt.Errorf("cannot format a value of type %s", t)
		}
		return a, nil
	case t.IsInt() && t.PType() == dtype.U64:
		a.kind = fmtUint
		if d.IsScalar() {
			a.usc, _ = d.Scalar().Value().(uint64)
			a.u64sc = true
		} else {
			a.uints = valuesOf[uint64](d.Array())
		}
		return a, nil
	case t.IsInt():
		a.kind = fmtInt
		if t.PType().IsUnsigned() {
			a.kind = fmtUint
		}
		ia, err := newIntArg(d)
		a.ints = ia
		return a, err
	}
	return a, fmt.Errorf("cannot format a value of type %s", t)
}

func (a *fmtArg) int(i int) int64 {
	if a.kind == fmtBool {
		if a.bool(i) {
			return 1
		}
		return 0
	}
	return a.ints.get(i)
}

func (a *fmtArg) uint(i int) uint64 {
	switch {
	case a.kind == fmtInt || a.kind == fmtBool:
		return uint64(a.int(i))
	case a.uints != nil:
		return a.uints[i]
	case a.u64sc:
		return a.usc
	}
	return uint64(a.ints.get(i))
}

func (a *fmtArg) float(i int) float64 {
	switch {
	case a.f64 != nil:
		return a.f64[i]
	case a.f32 != nil:
		return float64(a.f32[i])
	}
	return a.fsc
}

func (a *fmtArg) bool(i int) bool {
	if a.bools != nil {
		return a.bools.Value(i)
	}
	return a.bsc
}

// spec is one parsed conversion: flags, width, precision and the verb.
type spec struct {
	minus, plus, space, zero, alt bool
	fill                          rune
	align                         byte // '<', '>', '^' or 0 for the kind's default
	width, prec                   int  // prec < 0: none
	verb                          byte // 0: format's default
}

// Format is format(fmt, args…) (printf(fmt, args…) when printf is set).
func Format(mem memory.Allocator, args []datum.Datum, printf bool, ret dtype.DType) (datum.Datum, error) {
	f, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	vals := make([]fmtArg, len(args)-1)
	for k, a := range args[1:] {
		if vals[k], err = newFmtArg(a); err != nil {
			return datum.Datum{}, err
		}
	}
	var scratch []byte
	return utf8Rows(mem, args, ret, f.size(args[0].Len())*2, func(i int, b *strBuilder) error {
		if printf {
			return printfRow(b, f.at(i), vals, i, &scratch)
		}
		return formatRow(b, f.at(i), vals, i, &scratch)
	})
}

// errArgIndex is the error of a conversion with no argument left.
func errArgIndex(k int) error {
	return fmt.Errorf("argument index %d is out of range (arguments after the format count from 0): %w", k, errs.ErrInvalidArgument)
}

// printfRow formats one row with C-style conversions: %[flags][width][.prec]verb
// with flags among "-+ 0#" and verbs d i u (integers, bool as 1/0), x X o
// (integers, negative ones in two's complement), c (an integer's low
// byte, an ASCII character), f F e E g G (floats), s (strings and bools) and %%.
func printfRow(b *strBuilder, f []byte, vals []fmtArg, i int, scratch *[]byte) error {
	next := 0
	for j := 0; j < len(f); {
		c := f[j]
		if c != '%' {
			k := j
			for k < len(f) && f[k] != '%' {
				k++
			}
			b.write(f[j:k])
			j = k
			continue
		}
		start := j
		j++
		var sp spec
		sp.prec = -1
	flags:
		for ; j < len(f); j++ {
			switch f[j] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '0':
				sp.zero = true
			case '#':
				sp.alt = true
			default:
				break flags
			}
		}
		for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
			sp.width = min(sp.width*10+int(f[j]-'0'), 1<<20)
		}
		if j < len(f) && f[j] == '.' {
			j++
			sp.prec = 0
			for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
				sp.prec = min(sp.prec*10+int(f[j]-'0'), 1<<20)
			}
		}
		if j >= len(f) {
			return fmt.Errorf("the format %s ends inside the conversion %q: %w", quoteBytes(f), f[start:], errs.ErrInvalidArgument)
		}
		sp.verb = f[j]
		j++
		if sp.verb == '%' {
			b.write([]byte{'%'})
			continue
		}
		switch {
		case sp.minus:
			sp.align = '<'
		case sp.zero:
			sp.fill = '0' // after the sign, numbers only
		default:
			sp.align = '>' // C right-aligns text too
		}
		if next >= len(vals) {
			return errArgIndex(next)
		}
		if err := formatValue(b, &vals[next], i, sp, true, scratch); err != nil {
			return fmt.Errorf("%q: %w", f[start:j], err)
		}
		next++
	}
	return nil
}

// formatRow formats one row with {fmt}-style fields: {} (the next
// argument), {n} (argument n, from 0), each optionally with
// :[[fill]align][sign][#][0][width][.precision][type], align among < > ^,
// sign + or space, type among d x X o b c (integers), e E f F g G
// (floats), s (strings and bools); {{ and }} are braces.
func formatRow(b *strBuilder, f []byte, vals []fmtArg, i int, scratch *[]byte) error {
	next, manual, auto := 0, false, false
	for j := 0; j < len(f); {
		c := f[j]
		if c != '{' && c != '}' {
			k := j
			for k < len(f) && f[k] != '{' && f[k] != '}' {
				k++
			}
			b.write(f[j:k])
			j = k
			continue
		}
		if j+1 < len(f) && f[j+1] == c {
			b.write(f[j : j+1])
			j += 2
			continue
		}
		if c == '}' {
			return fmt.Errorf("the format %s has an unmatched '}': %w", quoteBytes(f), errs.ErrInvalidArgument)
		}
		start := j
		j++
		idx := -1
		if j < len(f) && f[j] >= '0' && f[j] <= '9' {
			idx = 0
			for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
				idx = min(idx*10+int(f[j]-'0'), 1<<20)
			}
		}
		sp := spec{prec: -1}
		if j < len(f) && f[j] == ':' {
			j++
			var err error
			if j, err = parseFmtSpec(f, j, &sp); err != nil {
				return err
			}
		}
		if j >= len(f) || f[j] != '}' {
			return fmt.Errorf("the format %s has an invalid or unclosed field %q: %w", quoteBytes(f), f[start:min(j+1, len(f))], errs.ErrInvalidArgument)
		}
		j++
		if idx < 0 {
			if manual {
				return fmt.Errorf("the format %s mixes automatic {} and numbered {n} fields: %w", quoteBytes(f), errs.ErrInvalidArgument)
			}
			auto, idx = true, next
			next++
		} else {
			if auto {
				return fmt.Errorf("the format %s mixes automatic {} and numbered {n} fields: %w", quoteBytes(f), errs.ErrInvalidArgument)
			}
			manual = true
		}
		if idx >= len(vals) {
			return errArgIndex(idx)
		}
		if err := formatValue(b, &vals[idx], i, sp, false, scratch); err != nil {
			return fmt.Errorf("%q: %w", f[start:j], err)
		}
	}
	return nil
}

// parseFmtSpec parses a {fmt} format spec from f[j:] up to the closing
// brace, which it leaves.
func parseFmtSpec(f []byte, j int, sp *spec) (int, error) {
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '^' }
	if j < len(f) && f[j] != '}' {
		r, w := utf8.DecodeRune(f[j:])
		if j+w < len(f) && isAlign(f[j+w]) && r != '{' {
			sp.fill, sp.align = r, f[j+w]
			j += w + 1
		} else if isAlign(f[j]) {
			sp.align = f[j]
			j++
		}
	}
	if j < len(f) && (f[j] == '+' || f[j] == ' ' || f[j] == '-') {
		sp.plus, sp.space = f[j] == '+', f[j] == ' '
		j++
	}
	if j < len(f) && f[j] == '#' {
		sp.alt = true
		j++
	}
	if j < len(f) && f[j] == '0' {
		sp.zero = true
		if sp.align == 0 {
			sp.fill = '0'
		}
		j++
	}
	for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
		sp.width = min(sp.width*10+int(f[j]-'0'), 1<<20)
	}
	if j < len(f) && f[j] == '.' {
		j++
		sp.prec = 0
		k := j
		for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
			sp.prec = min(sp.prec*10+int(f[j]-'0'), 1<<20)
		}
		if j == k {
			return j, fmt.Errorf("the format spec has a '.' without a precision: %w", errs.ErrInvalidArgument)
		}
	}
	if j < len(f) && f[j] != '}' {
		sp.verb = f[j]
		j++
	}
	return j, nil
}

// formatValue writes argument a of row i by sp, padded to its width.
func formatValue(b *strBuilder, a *fmtArg, i int, sp spec, printf bool, scratch *[]byte) error {
	out := (*scratch)[:0]
	numeric := true
	signed := false // the value may carry a sign, so zero padding goes after it
	bad := func() error {
		verb := string(rune(sp.verb))
		if sp.verb == 0 {
			verb = "{}"
		}
		return fmt.Errorf("the specifier %q cannot format %s value: %w", verb, a.kind.withArticle(), errs.ErrInvalidArgument)
	}
	switch sp.verb {
	case 'd', 'i', 'u', 0:
		if sp.verb != 0 && !printf && sp.verb != 'd' {
			return fmt.Errorf("unknown format type %q: %w", sp.verb, errs.ErrInvalidArgument)
		}
		switch {
		case sp.verb == 0 && a.kind == fmtFloat:
			out = appendFloat(out, a.float(i), 'g', sp.prec, a.bits, sp, false)
			signed = true
		case sp.verb == 0 && a.kind == fmtString:
			out, numeric = appendPrec(out, a.str.at(i), sp.prec), false
		case sp.verb == 0 && a.kind == fmtBool:
			out, numeric = strconv.AppendBool(out, a.bool(i)), false
		case a.kind == fmtUint:
			out = appendSign(out, false, sp)
			out = strconv.AppendUint(out, a.uint(i), 10)
			signed = true
		case a.kind == fmtInt || a.kind == fmtBool:
			v := a.int(i)
			out = appendSign(out, v < 0, sp)
			out = strconv.AppendUint(out, absU(v), 10)
			signed = true
		default:
			return bad()
		}
	case 'x', 'X', 'o', 'b', 'B':
		if a.kind != fmtInt && a.kind != fmtUint {
			return bad()
		}
		if sp.verb == 'b' || sp.verb == 'B' {
			if printf {
				return fmt.Errorf("unsupported conversion %q: %w", sp.verb, errs.ErrInvalidArgument)
			}
		}
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2, 'B': 2}[sp.verb]
		var u uint64
		neg := false
		if printf || a.kind == fmtUint {
			u = a.uint(i) // C: negative values in two's complement
		} else {
			v := a.int(i)
			neg, u = v < 0, absU(v)
		}
		out = appendSign(out, neg, sp)
		if sp.alt {
			switch sp.verb {
			case 'x':
				out = append(out, "0x"...)
			case 'X':
				out = append(out, "0X"...)
			case 'o':
				if u != 0 {
					out = append(out, '0')
				}
			case 'b':
				out = append(out, "0b"...)
			case 'B':
				out = append(out, "0B"...)
			}
		}
		k := len(out)
		out = strconv.AppendUint(out, u, base)
		if sp.verb == 'X' {
			for j := k; j < len(out); j++ {
				if out[j] >= 'a' {
					out[j] -= 'a' - 'A'
				}
			}
		}
		signed = true
	case 'c':
		// C's %c writes one byte, the value's low byte, as DuckDB does: a
		// byte from 0x80 up is not UTF-8 on its own, an error.
		if !printf || (a.kind != fmtInt && a.kind != fmtUint) {
			return bad()
		}
		c := byte(a.uint(i))
		if c >= utf8.RuneSelf {
			return fmt.Errorf("%%c of %d writes the byte 0x%02x, which is not UTF-8 on its own (use chr for a code point): %w", a.int(i), c, errs.ErrInvalidArgument)
		}
		out, numeric = append(out, c), false
	case 'f', 'F', 'e', 'E', 'g', 'G':
		if a.kind != fmtFloat {
			return bad()
		}
		prec := sp.prec
		if prec < 0 && (printf || sp.verb != 'g' && sp.verb != 'G') {
			prec = 6
		}
		out = appendFloat(out, a.float(i), sp.verb, prec, a.bits, sp, sp.verb >= 'A' && sp.verb <= 'Z')
		signed = true
	case 's':
		switch a.kind {
		case fmtString:
			out = appendPrec(out, a.str.at(i), sp.prec)
		case fmtBool:
			out = appendPrec(out, strconv.AppendBool(nil, a.bool(i)), sp.prec)
		default:
			return bad()
		}
		numeric = false
	default:
		return fmt.Errorf("unsupported conversion %q (supported: d i u x X o c f F e E g G s%s): %w", sp.verb, map[bool]string{false: " b B"}[printf], errs.ErrInvalidArgument)
	}
	*scratch = out
	pad(b, out, sp, numeric, signed)
	return nil
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

func appendSign(out []byte, neg bool, sp spec) []byte {
	switch {
	case neg:
		return append(out, '-')
	case sp.plus:
		return append(out, '+')
	case sp.space:
		return append(out, ' ')
	}
	return out
}

// appendPrec appends s cut to prec characters (all of it for prec < 0).
func appendPrec(out, s []byte, prec int) []byte {
	if prec >= 0 {
		s = s[:runeOffset(s, 0, int64(prec))]
	}
	return append(out, s...)
}

// appendFloat formats v: with verb 'g' and no precision, {fmt}'s shortest
// representation (fixed notation for decimal exponents from -4 to 15, with
// a ".0" on integers, else d.ddde±XX); otherwise C's %f %e %g. NaN and the
// infinities print as nan and inf (NAN and INF for upper-case verbs).
func appendFloat(out []byte, v float64, verb byte, prec, bits int, sp spec, upper bool) []byte {
	out = appendSign(out, math.Signbit(v) && !math.IsNaN(v), sp)
	switch {
	case math.IsNaN(v):
		return append(out, map[bool]string{false: "nan", true: "NAN"}[upper]...)
	case math.IsInf(v, 0):
		return append(out, map[bool]string{false: "inf", true: "INF"}[upper]...)
	}
	v = math.Abs(v)
	lower := verb | 0x20
	if lower == 'g' && prec < 0 {
		// {fmt}'s shortest round-trip representation.
		var tmp [32]byte
		e := strconv.AppendFloat(tmp[:0], v, 'e', -1, bits)
		k := 0
		for e[k] != 'e' {
			k++
		}
		exp, _ := strconv.Atoi(string(e[k+1:]))
		if exp < -4 || exp >= 16 {
			out = append(out, e[:k]...)
			out = append(out, 'e')
			if exp < 0 {
				out, exp = append(out, '-'), -exp
			} else {
				out = append(out, '+')
			}
			if exp < 10 {
				out = append(out, '0')
			}
			return strconv.AppendInt(out, int64(exp), 10)
		}
		k = len(out)
		out = strconv.AppendFloat(out, v, 'f', -1, bits)
		if !containsByte(out[k:], '.') {
			out = append(out, ".0"...)
		}
		return out
	}
	if lower == 'g' && prec == 0 {
		prec = 1
	}
	k := len(out)
	out = strconv.AppendFloat(out, v, lower, prec, bits)
	if sp.alt && lower != 'g' && prec == 0 && !containsByte(out[k:], '.') {
		out = append(out, '.')
	}
	if upper {
		for j := k; j < len(out); j++ {
			if out[j] == 'e' {
				out[j] = 'E'
			}
		}
	}
	return out
}

// pad writes s padded to sp.width characters: by sp.align (numbers to the
// right, text to the left by default), with zeros after the sign for a zero
// fill of a number.
func pad(b *strBuilder, s []byte, sp spec, numeric, signed bool) {
	n := utf8.RuneCount(s)
	if n >= sp.width {
		b.write(s)
		return
	}
	fill := sp.fill
	if fill == 0 {
		fill = ' '
	}
	align := sp.align
	if align == 0 {
		align = '<'
		if numeric {
			align = '>'
		}
	}
	missing := sp.width - n
	if fill == '0' && sp.align == 0 && numeric {
		// zero padding goes between the sign (or 0x) and the digits
		k := 0
		if signed && len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			k = 1
		}
		if len(s) > k+1 && s[k] == '0' && (s[k+1]|0x20 == 'x' || s[k+1]|0x20 == 'b') {
			k += 2
		}
		b.write(s[:k])
		writeFill(b, '0', missing)
		b.write(s[k:])
		return
	}
	left := 0
	switch align {
	case '>':
		left = missing
	case '^':
		left = missing / 2
	}
	writeFill(b, fill, left)
	b.write(s)
	writeFill(b, fill, missing-left)
}

func writeFill(b *strBuilder, r rune, n int) {
	var enc [utf8.UTFMax]byte
	w := utf8.EncodeRune(enc[:], r)
	b.grow(n * w)
	for range n {
		b.data = append(b.data, enc[:w]...)
	}
}
