package scalar_test

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// mustType parses a dtype or fails the test.
func mustType(t testing.TB, s string) dtype.DType {
	t.Helper()
	d, err := dtype.Parse(s)
	if err != nil {
		t.Fatalf("dtype.Parse(%q): %v", s, err)
	}
	return d
}

// mustNew is scalar.New or a failed test.
func mustNew(t testing.TB, typ string, v any) scalar.Scalar {
	t.Helper()
	s, err := scalar.New(mustType(t, typ), v)
	if err != nil {
		t.Fatalf("scalar.New(%s, %#v): %v", typ, v, err)
	}
	return s
}

func dec(t testing.TB, text string) decimal128.Num {
	t.Helper()
	b, ok := new(big.Int).SetString(text, 10)
	if !ok {
		t.Fatalf("bad decimal digits %q", text)
	}
	return decimal128.FromBigInt(b)
}

// readSQL is a reference reader of the literal grammar in the package doc,
// the oracle for SQL: the expression parser must read the same text the
// same way. It supports exactly that grammar and nothing more.
func readSQL(text string) (scalar.Scalar, error) {
	r := &sqlReader{src: text}
	s, err := r.literal()
	if err != nil {
		return scalar.Scalar{}, err
	}
	if r.pos != len(r.src) {
		return scalar.Scalar{}, fmt.Errorf("trailing text %q", r.src[r.pos:])
	}
	return s, nil
}

type sqlReader struct {
	src string
	pos int
}

func (r *sqlReader) rest() string { return r.src[r.pos:] }

func (r *sqlReader) eat(s string) bool {
	if strings.HasPrefix(r.rest(), s) {
		r.pos += len(s)
		return true
	}
	return false
}

func (r *sqlReader) literal() (scalar.Scalar, error) {
	s, err := r.base()
	if err != nil {
		return s, err
	}
	for r.eat("::") {
		t, n, err := dtype.ParsePrefix(r.rest())
		if err != nil {
			return s, err
		}
		r.pos += n
		if s, err = scalar.Cast(s, t); err != nil {
			return s, err
		}
	}
	return s, nil
}

func (r *sqlReader) str() (string, error) {
	if !r.eat("'") {
		return "", fmt.Errorf("expected a string at %q", r.rest())
	}
	var b strings.Builder
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		r.pos++
		if c == '\'' {
			if r.eat("'") {
				b.WriteByte('\'')
				continue
			}
			return b.String(), nil
		}
		b.WriteByte(c)
	}
	return "", fmt.Errorf("unterminated string")
}

func (r *sqlReader) base() (scalar.Scalar, error) {
	switch {
	case r.eat("null"):
		return scalar.Null(dtype.Null()), nil
	case r.eat("true"):
		return scalar.Bool(true), nil
	case r.eat("false"):
		return scalar.Bool(false), nil
	case r.eat("DATE "):
		s, err := r.str()
		if err != nil {
			return scalar.Scalar{}, err
		}
		return scalar.Cast(scalar.String(s), dtype.Date(false))
	case r.eat("TIMESTAMP "):
		s, err := r.str()
		if err != nil {
			return scalar.Scalar{}, err
		}
		return scalar.Cast(scalar.String(s), dtype.Timestamp(dtype.Micro, "", false))
	case r.eat("INTERVAL "):
		s, err := r.str()
		if err != nil {
			return scalar.Scalar{}, err
		}
		return scalar.Cast(scalar.String(s), dtype.Interval(false))
	case r.eat("x'"):
		end := strings.IndexByte(r.rest(), '\'')
		if end < 0 {
			return scalar.Scalar{}, fmt.Errorf("unterminated binary")
		}
		b, err := hex.DecodeString(r.rest()[:end])
		if err != nil {
			return scalar.Scalar{}, err
		}
		r.pos += end + 1
		return scalar.Binary(b), nil
	case strings.HasPrefix(r.rest(), "'"):
		s, err := r.str()
		return scalar.String(s), err
	case r.eat("["):
		var elems []scalar.Scalar
		elem := dtype.Null()
		for !r.eat("]") {
			if len(elems) > 0 && !r.eat(", ") {
				return scalar.Scalar{}, fmt.Errorf("expected ', ' at %q", r.rest())
			}
			e, err := r.literal()
			if err != nil {
				return e, err
			}
			if len(elems) == 0 {
				elem = e.DType()
			} else if st, ok := dtype.Supertype(elem, e.DType()); ok {
				elem = st
			} else {
				return e, fmt.Errorf("no supertype of %s and %s", elem, e.DType())
			}
			elems = append(elems, e)
		}
		for i, e := range elems {
			c, err := scalar.Cast(e, elem)
			if err != nil {
				return c, err
			}
			elems[i] = c
		}
		return scalar.New(dtype.List(elem, false), elems)
	case r.eat("{"):
		var fields []dtype.Field
		var vals []scalar.Scalar
		for !r.eat("}") {
			if len(vals) > 0 && !r.eat(", ") {
				return scalar.Scalar{}, fmt.Errorf("expected ', ' at %q", r.rest())
			}
			name, err := r.str()
			if err != nil {
				return scalar.Scalar{}, err
			}
			if !r.eat(": ") {
				return scalar.Scalar{}, fmt.Errorf("expected ': ' at %q", r.rest())
			}
			v, err := r.literal()
			if err != nil {
				return v, err
			}
			fields = append(fields, dtype.Field{Name: name, Type: v.DType()})
			vals = append(vals, v)
		}
		return scalar.New(dtype.Struct(fields, false), vals)
	}
	// A number: [-] digits, point, exponent.
	start := r.pos
	r.eat("-")
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		if (c >= '0' && c <= '9') || c == '.' || c == 'e' || ((c == '+' || c == '-') && r.src[r.pos-1] == 'e') {
			r.pos++
			continue
		}
		break
	}
	return scalar.ParseNumber(r.src[start:r.pos])
}

// Random dtypes and scalars for property tests.

var fieldNames = []string{"a", "b", "b c", "select", `x"y`, "null", "é"}

func randDType(r *rand.Rand, depth int) dtype.DType {
	nullable := r.IntN(3) == 0
	k := r.IntN(15)
	if depth >= 3 && k >= 11 && k < 14 {
		k = r.IntN(11)
	}
	switch k {
	case 0:
		if r.IntN(4) == 0 {
			return dtype.Null()
		}
		return dtype.Bool(nullable)
	case 1, 2, 3:
		return dtype.Primitive(dtype.PType(r.IntN(11)), nullable)
	case 4:
		p := 1 + r.IntN(38)
		return dtype.Decimal(p, r.IntN(p+1), nullable)
	case 5:
		return dtype.Utf8(nullable)
	case 6:
		return dtype.Binary(nullable)
	case 7:
		return dtype.Date(nullable)
	case 8:
		return dtype.Time(dtype.TimeUnit(r.IntN(4)), nullable)
	case 9, 10:
		tz := []string{"", "", "UTC", "America/New_York", "it's"}[r.IntN(5)]
		return dtype.Timestamp(dtype.TimeUnit(r.IntN(4)), tz, nullable)
	case 11:
		return dtype.List(randDType(r, depth+1), nullable)
	case 12:
		return dtype.FixedSizeList(randDType(r, depth+1), r.IntN(4), nullable)
	case 14:
		return dtype.Interval(nullable)
	default:
		n := r.IntN(4)
		perm := r.Perm(len(fieldNames))
		fs := make([]dtype.Field, n)
		for i := range fs {
			fs[i] = dtype.Field{Name: fieldNames[perm[i]], Type: randDType(r, depth+1)}
		}
		return dtype.Struct(fs, nullable)
	}
}

// randValue is a random valid Go value of t (nil sometimes when nullable).
func randValue(r *rand.Rand, t dtype.DType) any {
	if t.Nullable() && r.IntN(5) == 0 {
		return nil
	}
	switch t.Kind() {
	case dtype.KindNull:
		return nil
	case dtype.KindBool:
		return r.IntN(2) == 1
	case dtype.KindPrimitive:
		return randPrimitive(r, t.PType())
	case dtype.KindDecimal:
		n := r.IntN(t.Precision() + 1)
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteByte('0')
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		v, _ := new(big.Int).SetString(b.String(), 10)
		return decimal128.FromBigInt(v)
	case dtype.KindUtf8:
		pieces := []string{"a", "'", "''", "é", "日本", " ", "\n", `\`, "x", "null", "::"}
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	case dtype.KindBinary:
		b := make([]byte, r.IntN(5))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	case dtype.KindExtension:
		switch t.ExtID() {
		case dtype.ExtDate:
			switch r.IntN(6) {
			case 0:
				return int64(math.MinInt32)
			case 1:
				return int64(math.MaxInt32)
			case 2:
				return int64(int32(r.Uint32()))
			}
			return r.Int64N(80000) - 40000
		case dtype.ExtTime:
			return r.Int64N(86400 * t.Unit().PerSecond())
		default:
			switch r.IntN(6) {
			case 0:
				return int64(math.MinInt64)
			case 1:
				return int64(math.MaxInt64)
			case 2:
				return int64(r.Uint64())
			}
			return (r.Int64N(4e9) - 2e9) * t.Unit().PerSecond() / [...]int64{1, 1, 1000, 1000}[r.IntN(4)]
		}
	case dtype.KindInterval:
		if r.IntN(4) == 0 {
			return arrow.MonthDayNanoInterval{Months: int32(r.Uint32()), Days: int32(r.Uint32()), Nanoseconds: int64(r.Uint64())}
		}
		return arrow.MonthDayNanoInterval{Months: int32(r.IntN(50) - 25), Days: int32(r.IntN(80) - 40), Nanoseconds: r.Int64N(2e14) - 1e14}
	case dtype.KindList, dtype.KindFixedSizeList:
		n := r.IntN(4)
		if t.Kind() == dtype.KindFixedSizeList {
			n = t.Size()
		}
		out := make([]scalar.Scalar, n)
		for i := range out {
			out[i] = randScalar(r, t.Elem())
		}
		return out
	case dtype.KindStruct:
		out := make([]scalar.Scalar, len(t.Fields()))
		for i, f := range t.Fields() {
			out[i] = randScalar(r, f.Type)
		}
		return out
	}
	return nil
}

func randPrimitive(r *rand.Rand, p dtype.PType) any {
	switch {
	case p.IsSigned():
		bits := p.BitWidth()
		lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1
		if bits == 64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		switch r.IntN(5) {
		case 0:
			return lo
		case 1:
			return hi
		case 2:
			return r.Int64N(201) - 100
		}
		return int64(r.Uint64()>>(64-bits)) + lo
	case p.IsUnsigned():
		bits := p.BitWidth()
		switch r.IntN(4) {
		case 0:
			return uint64(math.MaxUint64) >> (64 - bits)
		case 1:
			return uint64(r.IntN(100))
		}
		return r.Uint64() >> (64 - bits)
	}
	var f float64
	switch r.IntN(8) {
	case 0:
		f = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64,
			math.SmallestNonzeroFloat64, 65504, 0x1p-24, math.MaxFloat32, 0x1p-149}[r.IntN(11)]
	case 1, 2:
		f = float64(r.IntN(20001)-10000) / 100
	case 3:
		f = float64(r.Int64N(1<<53)) * math.Pow(10, float64(r.IntN(40)-20))
	default:
		f = math.Float64frombits(r.Uint64())
	}
	switch p {
	case dtype.F32:
		return float64(float32(f))
	case dtype.F16:
		s := scalar.Float(dtype.F16, f) // rounds to binary16
		return s.Value()
	}
	return f
}

// randScalar is a random valid scalar of exactly dtype t (or Null(t)).
func randScalar(r *rand.Rand, t dtype.DType) scalar.Scalar {
	v := randValue(r, t)
	s, err := scalar.New(t, v)
	if err != nil {
		panic(fmt.Sprintf("randScalar(%s, %#v): %v", t, v, err))
	}
	return s
}
