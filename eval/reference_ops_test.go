package eval

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// The reference evaluator's operations (see reference_test.go):
// arithmetic, comparison and strings, written from their documentation.

// --- arithmetic ---

func bigOf(s scalar.Scalar) *big.Int {
	switch v := s.Value().(type) {
	case int64:
		return big.NewInt(v)
	case uint64:
		return new(big.Int).SetUint64(v)
	case decimal128.Num:
		return v.BigInt()
	}
	panic(fmt.Sprintf("reference: %s is not an integer or decimal", s.DType()))
}

var ten = big.NewInt(10)

func pow10(n int) *big.Int { return new(big.Int).Exp(ten, big.NewInt(int64(n)), nil) }

// fitInt makes an integer of type t from v, or an overflow.
func fitInt(op string, v *big.Int, t dtype.DType) (scalar.Scalar, error) {
	p := t.PType()
	bits := p.BitWidth()
	var lo, hi *big.Int
	if p.IsSigned() {
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
	} else {
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
		lo = big.NewInt(0)
	}
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return scalar.Scalar{}, refFail(errs.ErrOverflow, "%s: %s does not fit %s", op, v, t)
	}
	if p.IsSigned() {
		return mk(t, v.Int64()), nil
	}
	return mk(t, v.Uint64()), nil
}

// fitDecimal makes a decimal of type t from the unscaled v, or an overflow.
func fitDecimal(op string, v *big.Int, t dtype.DType) (scalar.Scalar, error) {
	if new(big.Int).Abs(v).Cmp(pow10(t.Precision())) >= 0 {
		return scalar.Scalar{}, refFail(errs.ErrOverflow, "%s: %s does not fit %s", op, v, t)
	}
	return mk(t, decimal128.FromBigInt(v)), nil
}

func refArith(op string, l, r scalar.Scalar, t dtype.DType) (scalar.Scalar, error) {
	lt := l.DType()
	switch {
	case lt.IsDecimal():
		return refDecimalArith(op, l, r, t)
	case lt.IsFloat():
		return refFloatArith(op, l.Value().(float64), r.Value().(float64), lt.PType(), t)
	}
	x, y := bigOf(l), bigOf(r)
	var z *big.Int
	switch op {
	case "add":
		z = new(big.Int).Add(x, y)
	case "sub":
		z = new(big.Int).Sub(x, y)
	case "mul":
		z = new(big.Int).Mul(x, y)
	case "div", "mod":
		if y.Sign() == 0 {
			return scalar.Scalar{}, refFail(errs.ErrDivideByZero, "%s: %s by zero", op, x)
		}
		// Quo and Rem truncate toward zero: the remainder has the dividend's
		// sign. MIN % -1 is 0 mathematically, but raises an overflow as in
		// DuckDB (and as MIN / -1 does).
		if op == "div" {
			z = new(big.Int).Quo(x, y)
		} else {
			if q := new(big.Int).Quo(x, y); !fits(q, t) {
				return scalar.Scalar{}, refFail(errs.ErrOverflow, "mod: %s %% %s", x, y)
			}
			z = new(big.Int).Rem(x, y)
		}
	}
	return fitInt(op, z, t)
}

func fits(v *big.Int, t dtype.DType) bool {
	_, err := fitInt("", v, t)
	return err == nil
}

func refFloatArith(op string, x, y float64, p dtype.PType, t dtype.DType) (scalar.Scalar, error) {
	if p == dtype.F32 {
		a, b := float32(x), float32(y)
		var z float32
		switch op {
		case "add":
			z = a + b
		case "sub":
			z = a - b
		case "mul":
			z = a * b
		case "div":
			z = a / b
		case "mod":
			z = float32(math.Mod(float64(a), float64(b))) // fmod is exact
		}
		return mk(t, float64(z)), nil
	}
	if p != dtype.F64 {
		return scalar.Scalar{}, fmt.Errorf("reference: no float arithmetic for %s", p)
	}
	var z float64
	switch op {
	case "add":
		z = x + y
	case "sub":
		z = x - y
	case "mul":
		z = x * y
	case "div":
		z = x / y
	case "mod":
		z = math.Mod(x, y)
	}
	return mk(t, z), nil
}

func refDecimalArith(op string, l, r scalar.Scalar, t dtype.DType) (scalar.Scalar, error) {
	s1, s2 := l.DType().Scale(), r.DType().Scale()
	x, y := bigOf(l), bigOf(r)
	if op == "div" {
		// f64, as in DuckDB: both operands to f64, then divided.
		if y.Sign() == 0 {
			return scalar.Scalar{}, refFail(errs.ErrDivideByZero, "div: decimal by zero")
		}
		xn, yn := l.Value().(decimal128.Num), r.Value().(decimal128.Num)
		return mk(t, xn.ToFloat64(int32(s1))/yn.ToFloat64(int32(s2))), nil
	}
	if op == "mul" {
		return fitDecimal(op, new(big.Int).Mul(x, y), t)
	}
	// add, sub, mod: both to the result's scale.
	s := t.Scale()
	x = new(big.Int).Mul(x, pow10(s-s1))
	y = new(big.Int).Mul(y, pow10(s-s2))
	switch op {
	case "add":
		return fitDecimal(op, new(big.Int).Add(x, y), t)
	case "sub":
		return fitDecimal(op, new(big.Int).Sub(x, y), t)
	}
	if y.Sign() == 0 {
		return scalar.Scalar{}, refFail(errs.ErrDivideByZero, "mod: decimal by zero")
	}
	return fitDecimal(op, new(big.Int).Rem(x, y), t)
}

func refNeg(abs bool, x scalar.Scalar, t dtype.DType) (scalar.Scalar, error) {
	xt := x.DType()
	switch {
	case xt.IsFloat():
		v := x.Value().(float64)
		if abs {
			return mk(t, math.Abs(v)), nil
		}
		return mk(t, -v), nil
	case xt.IsDecimal():
		v := bigOf(x)
		if abs {
			return fitDecimal("abs", v.Abs(v), t)
		}
		return fitDecimal("neg", v.Neg(v), t)
	}
	v := bigOf(x)
	if abs {
		return fitInt("abs", v.Abs(v), t)
	}
	return fitInt("neg", v.Neg(v), t)
}

// --- comparison ---

// refOrder compares two non-null values of one ordered type: -1, 0 or 1,
// and unordered when a float NaN is involved (IEEE 754).
func refOrder(a, b scalar.Scalar) (c int, unordered bool) {
	switch x := a.Value().(type) {
	case bool:
		y := b.Value().(bool)
		return boolInt(x) - boolInt(y), false
	case int64:
		return cmpOf(x, b.Value().(int64)), false
	case uint64:
		return cmpOf(x, b.Value().(uint64)), false
	case float64:
		y := b.Value().(float64)
		if math.IsNaN(x) || math.IsNaN(y) {
			return 0, true
		}
		return cmpOf(x, y), false
	case decimal128.Num:
		return x.Cmp(b.Value().(decimal128.Num)), false
	case string:
		return strings.Compare(x, b.Value().(string)), false
	}
	if a.DType().IsInterval() {
		return refIntervalOrder(a, b), false
	}
	panic(fmt.Sprintf("reference: no order for %s", a.DType()))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOf[T int64 | uint64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// refEqual is = on two non-null values: IEEE 754 for floats (NaN equals
// nothing); nested values as refSame.
func refEqual(a, b scalar.Scalar) bool {
	if _, nested := a.Value().([]scalar.Scalar); nested {
		return refSame(a, b)
	}
	c, unordered := refOrder(a, b)
	return !unordered && c == 0
}

// refSame is equality as IS NOT DISTINCT FROM sees it, which is also how
// = compares lists and structs (as in DuckDB): nulls equal nulls, NaN
// equals NaN, -0 equals 0; nested values have equal lengths and pairwise
// same elements.
func refSame(a, b scalar.Scalar) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	switch x := a.Value().(type) {
	case []scalar.Scalar:
		y := b.Value().([]scalar.Scalar)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !refSame(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y := b.Value().(float64)
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	}
	c, _ := refOrder(a, b)
	return c == 0
}

func refCompareOp(op string, a, b scalar.Scalar, t dtype.DType) (scalar.Scalar, error) {
	if a.IsNull() || b.IsNull() {
		return scalar.Null(t), nil
	}
	if _, nested := a.Value().([]scalar.Scalar); nested {
		switch op {
		case "eq":
			return mk(t, refSame(a, b)), nil
		case "neq":
			return mk(t, !refSame(a, b)), nil
		}
		return scalar.Scalar{}, fmt.Errorf("reference: %s on %s", op, a.DType())
	}
	c, unordered := refOrder(a, b)
	var r bool
	switch op {
	case "eq":
		r = !unordered && c == 0
	case "neq":
		r = unordered || c != 0
	case "lt":
		r = !unordered && c < 0
	case "lte":
		r = !unordered && c <= 0
	case "gt":
		r = !unordered && c > 0
	case "gte":
		r = !unordered && c >= 0
	}
	return mk(t, r), nil
}

// refNotDistinct is IS NOT DISTINCT FROM: never null; NaN is not
// distinct from NaN (as in DuckDB).
func refNotDistinct(a, b scalar.Scalar) bool { return refSame(a, b) }

// --- strings ---

// refLike matches s against a LIKE pattern: % any run of characters, _ one
// character, \ makes the next character literal (a lone \ at the end is an
// invalid argument). With fold, characters compare under Unicode simple
// case folding.
func refLike(s, pattern string, fold bool) (bool, error) {
	return refLikeEscaped(s, pattern, fold, '\\')
}

// refLikeEscaped is refLike with the escape character esc (none when esc
// is fn.NoLikeEscape).
func refLikeEscaped(s, pattern string, fold bool, esc rune) (bool, error) {
	type tok struct {
		r    rune
		kind byte // 'c' literal, '_' one, '%' any run
	}
	var toks []tok
	pr := []rune(pattern)
	for i := 0; i < len(pr); i++ {
		c := pr[i]
		if c == esc {
			c = '\\' // the escape case below
		} else if c == '\\' {
			c = 'x' // a plain character
		}
		switch c {
		case '\\':
			if i+1 == len(pr) {
				return false, refFail(errs.ErrInvalidArgument, "like: pattern %q ends with an escape", pattern)
			}
			i++
			toks = append(toks, tok{pr[i], 'c'})
		case '%':
			toks = append(toks, tok{kind: '%'})
		case '_':
			toks = append(toks, tok{kind: '_'})
		default:
			toks = append(toks, tok{pr[i], 'c'})
		}
	}
	sr := []rune(s)
	// match[i][j]: toks[i:] matches sr[j:].
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var r bool
		switch {
		case i == len(toks):
			r = j == len(sr)
		case toks[i].kind == '%':
			r = match(i+1, j) || (j < len(sr) && match(i, j+1))
		case j == len(sr):
			r = false
		case toks[i].kind == '_':
			r = match(i+1, j+1)
		default:
			r = runeEq(toks[i].r, sr[j], fold) && match(i+1, j+1)
		}
		memo[key] = r
		return r
	}
	return match(0, 0), nil
}

func runeEq(a, b rune, fold bool) bool {
	if a == b {
		return true
	}
	if !fold {
		return false
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// refSubstring is DuckDB's substring in characters: start gives a 0-based
// position p (start-1 for a positive start, size+start for a negative one,
// -1 for 0); a positive length takes [p, p+length), a negative one
// [p+length, p); the part of that window inside the string is the result.
// Exact arithmetic (math/big), so extreme arguments cannot overflow.
func refSubstring(s string, start, length int64) string {
	rs := []rune(s)
	size := big.NewInt(int64(len(rs)))
	p := big.NewInt(start)
	switch {
	case start > 0:
		p.Sub(p, big.NewInt(1))
	case start < 0:
		p.Add(p, size)
	default:
		p.SetInt64(-1)
	}
	lo, hi := new(big.Int).Set(p), new(big.Int).Add(p, big.NewInt(length))
	if length < 0 {
		lo, hi = hi, lo
	}
	zero := big.NewInt(0)
	if lo.Cmp(zero) < 0 {
		lo = zero
	}
	if hi.Cmp(size) > 0 {
		hi = size
	}
	if lo.Cmp(hi) >= 0 {
		return ""
	}
	return string(rs[lo.Int64():hi.Int64()])
}
