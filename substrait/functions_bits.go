package substrait

import (
	"fmt"
	"math"

	"github.com/substrait-io/substrait-go/v8/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Substrait's shifts work on the bits of an i32 or i64 by an i32 amount;
// colexpr's << raises on a negative number and on a result that does not
// fit (DuckDB's), so import composes them from operations that cannot
// fail, exactly for an amount n in [0, w) (w the width; Substrait leaves
// other amounts unspecified, and colexpr gives 0 or an error there):
//
//	shift_right(x, n)            x >> n (arithmetic, as colexpr's)
//	shift_right_unsigned(x, n)   CASE WHEN n = 0 THEN x ELSE (x >> n) & (MAX >> (n - 1)) END
//	shift_left(x, n)             ((x & (MAX >> n)) << n) | CASE WHEN (x >> (w-1-n)) & 1 = 1 THEN MIN ELSE 0 END
//
// with MAX and MIN the type's extremes and n cast to x's type: the bits
// shifted out of shift_left are dropped and the sign bit is the one
// shifted into it, as Substrait's bitwise shift says. Export writes none of
// them: colexpr's << and >> differ from them outside that range.
func init() {
	imports[extensions.ID{URN: urnArithmetic, Name: "shift_right"}] = importSpec{allowed: noOptions, build: shift(func(b *bitBuilder) *expr.Bound {
		return b.call(fn.ShiftRight, b.x, b.n)
	})}
	imports[extensions.ID{URN: urnArithmetic, Name: "shift_right_unsigned"}] = importSpec{allowed: noOptions, build: shift(func(b *bitBuilder) *expr.Bound {
		mask := b.call(fn.ShiftRight, b.lit(b.max), b.call(fn.Sub, b.n, b.lit(1)))
		shifted := b.call(fn.BitAnd, b.call(fn.ShiftRight, b.x, b.n), mask)
		return b.call(fn.CaseWhen(true), b.call(fn.Eq, b.n, b.lit(0)), b.x, shifted)
	})}
	imports[extensions.ID{URN: urnArithmetic, Name: "shift_left"}] = importSpec{allowed: noOptions, build: shift(func(b *bitBuilder) *expr.Bound {
		low := b.call(fn.ShiftLeft, b.call(fn.BitAnd, b.x, b.call(fn.ShiftRight, b.lit(b.max), b.n)), b.n)
		bit := b.call(fn.BitAnd, b.call(fn.ShiftRight, b.x, b.call(fn.Sub, b.lit(b.width-1), b.n)), b.lit(1))
		sign := b.call(fn.CaseWhen(true), b.call(fn.Eq, bit, b.lit(1)), b.lit(b.min), b.lit(0))
		return b.call(fn.BitOr, low, sign)
	})}
}

// bitBuilder builds a composition of calls, keeping the first error.
type bitBuilder struct {
	x, n            *expr.Bound
	p               dtype.PType
	width, max, min int64
	err             error
}

func (b *bitBuilder) lit(v int64) *expr.Bound { return expr.NewLiteral(scalar.Int(b.p, v)) }

func (b *bitBuilder) call(f fn.Function, args ...*expr.Bound) *expr.Bound {
	if b.err != nil {
		return nil
	}
	for _, a := range args {
		if a == nil {
			return nil
		}
	}
	out, err := expr.NewCall(f, args...)
	b.err = err
	return out
}

// shift checks the argument types (i32 or i64, and an integer amount,
// cast to the base's type) and builds the composition.
func shift(build func(*bitBuilder) *expr.Bound) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("takes 2 arguments, got %d", len(args))
		}
		x, n := args[0], args[1]
		b := &bitBuilder{x: x, p: x.DType().PType()}
		switch {
		case x.DType().IsInt() && b.p == dtype.I32:
			b.width, b.max, b.min = 32, math.MaxInt32, math.MinInt32
		case x.DType().IsInt() && b.p == dtype.I64:
			b.width, b.max, b.min = 64, math.MaxInt64, math.MinInt64
		default:
			return nil, fmt.Errorf("argument 1 has type %s, want i32 or i64", x.DType())
		}
		if !n.DType().IsInt() {
			return nil, fmt.Errorf("argument 2 has type %s, want an integer", n.DType())
		}
		b.n = n
		if n.DType().PType() != b.p {
			b.n = b.call(fn.Cast(dtype.Primitive(b.p, n.DType().Nullable())), n)
		}
		out := build(b)
		if b.err != nil {
			return nil, b.err
		}
		return out, nil
	}
}

// The decimal extension's bitwise_and, bitwise_or and bitwise_xor take
// decimal<P,0> values; colexpr computes them on i64 when both precisions
// are at most 18, where every value fits (two's complement, as Substrait's
// 128-bit ones agree on such values):
//
//	bitwise_and(a, b)   CAST(CAST(a AS i64) & CAST(b AS i64) AS decimal(max(P1, P2), 0))
//
// A result beyond the result's precision (bitwise_or(99, 28) is 127) is a
// cast error. Wider decimals are refused: colexpr has no 128-bit integer.
func init() {
	for name, f := range map[string]fn.Function{"bitwise_and": fn.BitAnd, "bitwise_or": fn.BitOr, "bitwise_xor": fn.BitXor} {
		imports[extensions.ID{URN: urnDecimal, Name: name}] = importSpec{allowed: noOptions, build: decimalBits(f)}
	}
}

func decimalBits(f fn.Function) func([]*expr.Bound, map[string]string) (*expr.Bound, error) {
	return func(args []*expr.Bound, _ map[string]string) (*expr.Bound, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("takes 2 arguments, got %d", len(args))
		}
		p := 0
		cast := make([]*expr.Bound, 2)
		for i, a := range args {
			t := a.DType()
			if !t.IsDecimal() || t.Scale() != 0 {
				return nil, fmt.Errorf("argument %d has type %s, want decimal(p, 0)", i+1, t)
			}
			if t.Precision() > 18 {
				return nil, fmt.Errorf("%w: %s of decimal(%d, 0): colexpr computes bitwise operations on integers of at most 64 bits, so on decimals of at most 18 digits", ErrUnsupported, f.ID(), t.Precision())
			}
			p = max(p, t.Precision())
			c, err := expr.NewCall(fn.Cast(dtype.Primitive(dtype.I64, t.Nullable())), a)
			if err != nil {
				return nil, err
			}
			cast[i] = c
		}
		r, err := expr.NewCall(f, cast...)
		if err != nil {
			return nil, err
		}
		return expr.NewCall(fn.Cast(dtype.Decimal(p, 0, r.DType().Nullable())), r)
	}
}
