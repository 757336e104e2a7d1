package scalar

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
)

// ParseNumber reads an untyped numeric literal — the way the expression
// parser types a number written without a type — and returns its value in
// its natural type, as DuckDB types numeric constants:
//
//   - an integer (digits only) is i32 if it fits, else i64, else u64, else
//     decimal(38,0) if it has at most 38 digits; more is an error;
//   - a number with a decimal point and no exponent is decimal(p, s), where
//     s is the number of digits after the point and p the number of digits
//     written, leading zeros included (0.05 is decimal(3,2), 1.5 is
//     decimal(2,1), .5 is decimal(1,1), 5. is decimal(1,0)); beyond 38
//     digits it is f64;
//   - a number with an exponent (1e3, 2.5E-3) is f64; one too large for f64
//     is an error, one too small is zero.
//
// text may start with a minus (or plus) sign; it has no spaces, underscores
// or hexadecimal forms. ValueText of a scalar ParseNumber returns gives back
// a text that ParseNumber reads as an identical scalar.
func ParseNumber(text string) (Scalar, error) {
	lit, ok := scanNumber(text)
	if !ok {
		return Scalar{}, errorf("%q is not a number", text)
	}
	switch {
	case !lit.hasPoint && !lit.hasExp:
		mag := strings.TrimLeft(lit.intDigits, "0")
		if s, ok := smallIntLiteral(lit.neg, mag); ok {
			return s, nil
		}
		if len(mag) > dtype.MaxDecimalPrecision {
			return Scalar{}, errorf("integer %s has more than %d digits", text, dtype.MaxDecimalPrecision)
		}
		return Decimal(numFromDigits(lit.neg, mag), dtype.MaxDecimalPrecision, 0), nil
	case lit.hasPoint && !lit.hasExp:
		p := len(lit.intDigits) + len(lit.fracDigits)
		if p <= dtype.MaxDecimalPrecision {
			mag := strings.TrimLeft(lit.intDigits+lit.fracDigits, "0")
			return Decimal(numFromDigits(lit.neg, mag), p, len(lit.fracDigits)), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return Scalar{}, errorf("%s is out of the range of f64", text)
	}
	return Float64(f), nil
}

// smallIntLiteral types an integer literal of magnitude mag (no leading
// zeros) as i32, i64 or u64, or reports that none holds it.
func smallIntLiteral(neg bool, mag string) (Scalar, bool) {
	if len(mag) > 20 {
		return Scalar{}, false
	}
	u, err := strconv.ParseUint("0"+mag, 10, 64)
	if err != nil {
		return Scalar{}, false
	}
	switch {
	case !neg && u <= math.MaxInt32:
		return Int(dtype.I32, int64(u)), true
	case neg && u <= 1<<31:
		return Int(dtype.I32, -int64(u)), true
	case !neg && u <= math.MaxInt64:
		return Int(dtype.I64, int64(u)), true
	case neg && u <= 1<<63:
		return Int(dtype.I64, int64(-u)), true // -u wraps to the two's complement
	case !neg:
		return Uint(dtype.U64, u), true
	}
	return Scalar{}, false
}

// numLit is a scanned number: [sign] intDigits [. fracDigits] [e exp].
type numLit struct {
	neg                   bool
	intDigits, fracDigits string
	hasPoint, hasExp      bool
	exp                   int64 // clamped to ±maxExp
}

// maxExp bounds exponents so that arithmetic on them cannot overflow; any
// number beyond it is out of every range anyway.
const maxExp = 1 << 40

// scanNumber reads [+-] (digits [. digits] | . digits) [(e|E) [+-] digits],
// all of text.
func scanNumber(text string) (numLit, bool) {
	var n numLit
	i := 0
	if i < len(text) && (text[i] == '-' || text[i] == '+') {
		n.neg = text[i] == '-'
		i++
	}
	start := i
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	n.intDigits = text[start:i]
	if i < len(text) && text[i] == '.' {
		n.hasPoint = true
		i++
		start = i
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		n.fracDigits = text[start:i]
	}
	if n.intDigits == "" && n.fracDigits == "" {
		return n, false
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		n.hasExp = true
		i++
		negExp := false
		if i < len(text) && (text[i] == '-' || text[i] == '+') {
			negExp = text[i] == '-'
			i++
		}
		start = i
		for i < len(text) && isDigit(text[i]) {
			if n.exp < maxExp {
				n.exp = n.exp*10 + int64(text[i]-'0')
			}
			i++
		}
		if start == i {
			return n, false
		}
		n.exp = min(n.exp, maxExp)
		if negExp {
			n.exp = -n.exp
		}
	}
	return n, i == len(text)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// dec is an exact decimal number: ±digits × 10^exp, digits without leading
// zeros ("" is zero).
type dec struct {
	neg    bool
	digits string
	exp    int64
}

func (l numLit) dec() dec {
	return dec{neg: l.neg, digits: strings.TrimLeft(l.intDigits+l.fracDigits, "0"), exp: l.exp - int64(len(l.fracDigits))}
}

// parseDec reads a decimal number in the syntax of scanNumber.
func parseDec(text string) (dec, bool) {
	l, ok := scanNumber(text)
	if !ok {
		return dec{}, false
	}
	return l.dec(), true
}

// decOfNum is the exact value of the unscaled decimal n at the given scale.
func decOfNum(n decimal128.Num, scale int) dec {
	neg, m := numMagnitude(n)
	return dec{neg: neg, digits: strings.TrimLeft(m.String(), "0"), exp: -int64(scale)}
}

func (d dec) isZero() bool { return d.digits == "" }

// trimmed is d with trailing zeros moved into the exponent.
func (d dec) trimmed() dec {
	t := strings.TrimRight(d.digits, "0")
	d.exp += int64(len(d.digits) - len(t))
	d.digits = t
	return d
}

// decCmpAbs compares |a| and |b|.
func decCmpAbs(a, b dec) int {
	a, b = a.trimmed(), b.trimmed()
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		return -1
	case b.isZero():
		return 1
	}
	// Compare the positions of the leading digits, then the digits.
	pa, pb := int64(len(a.digits))+a.exp, int64(len(b.digits))+b.exp
	if pa != pb {
		return cmp3(pa, pb)
	}
	for i := 0; i < max(len(a.digits), len(b.digits)); i++ {
		ca, cb := byte('0'), byte('0')
		if i < len(a.digits) {
			ca = a.digits[i]
		}
		if i < len(b.digits) {
			cb = b.digits[i]
		}
		if ca != cb {
			return cmp3(ca, cb)
		}
	}
	return 0
}

func cmp3[T int64 | uint64 | byte | int | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// roundTo returns the magnitude of d rounded half away from zero to a
// multiple of 10^-scale, as the digits of the unscaled integer (no leading
// zeros), or ok=false when it has more than maxDigits digits.
func (d dec) roundTo(scale int, maxDigits int) (string, bool) {
	if d.isZero() {
		return "", true
	}
	shift := d.exp + int64(scale)
	if shift >= 0 {
		if int64(len(d.digits))+shift > int64(maxDigits) {
			return "", false
		}
		return d.digits + strings.Repeat("0", int(shift)), true
	}
	drop := -shift
	var kept string
	up := false
	switch {
	case drop > int64(len(d.digits)):
		return "", true
	case drop == int64(len(d.digits)):
		up = d.digits[0] >= '5'
	default:
		cut := len(d.digits) - int(drop)
		kept = d.digits[:cut]
		up = d.digits[cut] >= '5'
	}
	if up {
		kept = incDigits(kept)
	}
	if len(kept) > maxDigits {
		return "", false
	}
	return kept, true
}

// incDigits adds one to a decimal digit string.
func incDigits(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// toNum is d rounded half away from zero to the given scale, as an unscaled
// decimal of at most prec digits; ok is false when it does not fit.
func (d dec) toNum(prec, scale int) (decimal128.Num, bool) {
	mag, ok := d.roundTo(scale, prec)
	if !ok {
		return decimal128.Num{}, false
	}
	return numFromDigits(d.neg, mag), true
}

// toInt64 is d rounded half away from zero to an integer, if it fits int64.
func (d dec) toInt64() (int64, bool) {
	mag, ok := d.roundTo(0, 20)
	if !ok {
		return 0, false
	}
	u, err := strconv.ParseUint("0"+mag, 10, 64)
	if err != nil {
		return 0, false
	}
	if d.neg {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// toUint64 is d rounded half away from zero to an integer, if it fits
// uint64 (a negative number rounding to zero does).
func (d dec) toUint64() (uint64, bool) {
	mag, ok := d.roundTo(0, 20)
	if !ok {
		return 0, false
	}
	u, err := strconv.ParseUint("0"+mag, 10, 64)
	if err != nil || (d.neg && u != 0) {
		return 0, false
	}
	return u, true
}

// String is d in plain decimal notation (no exponent), for strconv.
func (d dec) String() string {
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	if d.isZero() {
		b.WriteByte('0')
		return b.String()
	}
	b.WriteString(d.digits)
	if d.exp != 0 {
		b.WriteByte('e')
		b.WriteString(strconv.FormatInt(d.exp, 10))
	}
	return b.String()
}

// u128 is an unsigned 128-bit integer, the magnitude of a decimal128.
type u128 struct{ hi, lo uint64 }

// numMagnitude splits a two's-complement decimal128 into sign and magnitude.
func numMagnitude(n decimal128.Num) (bool, u128) {
	hi, lo := uint64(n.HighBits()), n.LowBits()
	if n.HighBits() >= 0 {
		return false, u128{hi, lo}
	}
	lo = ^lo + 1
	hi = ^hi
	if lo == 0 {
		hi++
	}
	return true, u128{hi, lo}
}

// numFromDigits is the decimal128 with the given sign and magnitude digits
// (at most 38 of them, no sign).
func numFromDigits(neg bool, digits string) decimal128.Num {
	var m u128
	for i := 0; i < len(digits); i++ {
		hi, lo := bits.Mul64(m.lo, 10)
		hi += m.hi * 10
		lo, carry := bits.Add64(lo, uint64(digits[i]-'0'), 0)
		m = u128{hi + carry, lo}
	}
	n := decimal128.New(int64(m.hi), m.lo)
	if neg {
		return n.Negate()
	}
	return n
}

// String is m in decimal.
func (m u128) String() string {
	if m.hi == 0 {
		return strconv.FormatUint(m.lo, 10)
	}
	const chunk = 1e19
	var parts []uint64
	for m.hi != 0 {
		qhi := m.hi / chunk
		qlo, r := bits.Div64(m.hi%chunk, m.lo, chunk)
		parts = append(parts, r)
		m = u128{qhi, qlo}
	}
	var b strings.Builder
	b.WriteString(strconv.FormatUint(m.lo, 10))
	for i := len(parts) - 1; i >= 0; i-- {
		s := strconv.FormatUint(parts[i], 10)
		b.WriteString(strings.Repeat("0", 19-len(s)))
		b.WriteString(s)
	}
	return b.String()
}

// decimalText is the unscaled n at the given scale in plain notation with
// exactly scale decimals: 12.50, -0.05, 7.
func decimalText(n decimal128.Num, scale int) string {
	neg, m := numMagnitude(n)
	digits := m.String()
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	cut := len(digits) - scale
	b.WriteString(digits[:cut])
	if scale > 0 {
		b.WriteByte('.')
		b.WriteString(digits[cut:])
	}
	return b.String()
}

// decimalLiteralText is the text that ParseNumber reads as exactly n in
// decimal(prec, scale): the digits padded to prec with leading zeros and a
// point before the last scale digits (a trailing point when scale is 0),
// or, for decimal(38,0) values no integer type holds, the bare integer.
func decimalLiteralText(n decimal128.Num, prec, scale int) string {
	neg, m := numMagnitude(n)
	digits := m.String()
	if scale == 0 && prec == dtype.MaxDecimalPrecision && digits != "0" {
		if _, small := smallIntLiteral(neg, digits); !small {
			if neg {
				return "-" + digits
			}
			return digits
		}
	}
	if len(digits) < prec {
		digits = strings.Repeat("0", prec-len(digits)) + digits
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	cut := len(digits) - scale
	b.WriteString(digits[:cut])
	b.WriteByte('.')
	b.WriteString(digits[cut:])
	return b.String()
}

// floatText is x as Cast(x, utf8) prints it, DuckDB style: the shortest
// decimal that reads back as x in its type (bits 16, 32 or 64), in plain
// notation with at least one decimal ("2.0", "0.001") when its decimal
// exponent is in [-4, 16), else in exponent notation ("1e+20", "1.5e-07");
// NaN, Infinity and -Infinity for the special values.
func floatText(x float64, bits int) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	e := shortestE(x, bits)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		return e
	}
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp < 0 {
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-1))
		b.WriteString(digits)
		return b.String()
	}
	if len(digits) <= exp+1 {
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp+1-len(digits)))
		b.WriteString(".0")
		return b.String()
	}
	b.WriteString(digits[:exp+1])
	b.WriteByte('.')
	b.WriteString(digits[exp+1:])
	return b.String()
}

// shortestE is the shortest round-trip decimal of x in its type, in
// strconv's 'e' notation.
func shortestE(x float64, bits int) string {
	if bits == 16 {
		return f16Shortest(x)
	}
	return strconv.FormatFloat(x, 'e', -1, bits)
}

// floatBits is the width of a float type.
func floatBits(p dtype.PType) int { return p.BitWidth() }
