package expr

import (
	"fmt"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// The constructors build unbound trees the way the parser would.

var root = &Root{}

// RootExpr is $, the value the expression is evaluated against.
func RootExpr() Expr { return root }

// Col is the root field name: $.name.
func Col(name string) Expr { return GetItem(root, name) }

// Path is a nested field of the root: Path("s", "x") is $.s.x.
func Path(names ...string) Expr {
	var e Expr = root
	for _, n := range names {
		e = GetItem(e, n)
	}
	return e
}

// GetItem reads field name of the struct e.
func GetItem(e Expr, name string) Expr { return &Call{Fn: fn.GetItem(name), Args: []Expr{e}} }

// V is the variable name.
func V(name string) Expr { return &Var{Name: name} }

// Fn is the lambda with the given parameters and body.
func Fn(params []string, body Expr) Expr {
	return &Lambda{Params: append([]string(nil), params...), Body: body}
}

// Apply calls f on args.
func Apply(f fn.Function, args ...Expr) Expr { return &Call{Fn: f, Args: args} }

// LitScalar is the literal s.
func LitScalar(s scalar.Scalar) Expr { return &Call{Fn: fn.Literal(s)} }

// Lit is a typed literal made from a Go value: bool, int8…int64 (i8…i64),
// int (i64), uint8…uint64 (u8…u64), float32 (f32), float64 (f64), string
// (utf8), []byte (binary) and nil (the untyped null). It panics on other
// types: it is for code, not user input.
func Lit(v any) Expr {
	var s scalar.Scalar
	switch x := v.(type) {
	case nil:
		s = scalar.Null(dtype.Null())
	case bool:
		s = scalar.Bool(x)
	case int8:
		s = scalar.Int(dtype.I8, int64(x))
	case int16:
		s = scalar.Int(dtype.I16, int64(x))
	case int32:
		s = scalar.Int(dtype.I32, int64(x))
	case int64:
		s = scalar.Int(dtype.I64, x)
	case int:
		s = scalar.Int(dtype.I64, int64(x))
	case uint8:
		s = scalar.Uint(dtype.U8, uint64(x))
	case uint16:
		s = scalar.Uint(dtype.U16, uint64(x))
	case uint32:
		s = scalar.Uint(dtype.U32, uint64(x))
	case uint64:
		s = scalar.Uint(dtype.U64, x)
	case float32:
		s = scalar.Float(dtype.F32, float64(x))
	case float64:
		s = scalar.Float(dtype.F64, x)
	case string:
		s = scalar.String(x)
	case []byte:
		s = scalar.Binary(x)
	default:
		panic(fmt.Sprintf("expr.Lit: unsupported Go type %T", v))
	}
	return LitScalar(s)
}

// Untyped is a numeric literal written without a type, as the parser makes
// from `1` or `2.5`: coercion lets it adapt to the other operand's type.
func Untyped(s scalar.Scalar) Expr { return &Call{Fn: fn.LiteralFn{Value: s, Untyped: true}} }

func bin(f fn.Function, a, b Expr) Expr { return &Call{Fn: f, Args: []Expr{a, b}} }

// Add is a + b.
func Add(a, b Expr) Expr { return bin(fn.Add, a, b) }

// Sub is a - b.
func Sub(a, b Expr) Expr { return bin(fn.Sub, a, b) }

// Mul is a * b.
func Mul(a, b Expr) Expr { return bin(fn.Mul, a, b) }

// Div is a / b.
func Div(a, b Expr) Expr { return bin(fn.Div, a, b) }

// Mod is a % b.
func Mod(a, b Expr) Expr { return bin(fn.Mod, a, b) }

// Neg is -a.
func Neg(a Expr) Expr { return &Call{Fn: fn.Neg, Args: []Expr{a}} }

// Eq is a = b.
func Eq(a, b Expr) Expr { return bin(fn.Eq, a, b) }

// NotEq is a != b.
func NotEq(a, b Expr) Expr { return bin(fn.NotEq, a, b) }

// Lt is a < b.
func Lt(a, b Expr) Expr { return bin(fn.Lt, a, b) }

// LtEq is a <= b.
func LtEq(a, b Expr) Expr { return bin(fn.LtEq, a, b) }

// Gt is a > b.
func Gt(a, b Expr) Expr { return bin(fn.Gt, a, b) }

// GtEq is a >= b.
func GtEq(a, b Expr) Expr { return bin(fn.GtEq, a, b) }

// And is a AND b.
func And(a, b Expr) Expr { return bin(fn.And, a, b) }

// Or is a OR b.
func Or(a, b Expr) Expr { return bin(fn.Or, a, b) }

// Not is NOT a.
func Not(a Expr) Expr { return &Call{Fn: fn.Not, Args: []Expr{a}} }

// IsNull is a IS NULL.
func IsNull(a Expr) Expr { return &Call{Fn: fn.IsNull, Args: []Expr{a}} }

// IsNotNull is a IS NOT NULL.
func IsNotNull(a Expr) Expr { return &Call{Fn: fn.IsNotNull, Args: []Expr{a}} }

// Cast is CAST(a AS t): it fails on a value that does not convert.
func Cast(a Expr, t dtype.DType) Expr { return &Call{Fn: fn.Cast(t), Args: []Expr{a}} }

// TryCast is TRY_CAST(a AS t): null where a value does not convert.
func TryCast(a Expr, t dtype.DType) Expr { return &Call{Fn: fn.TryCast(t), Args: []Expr{a}} }

// Between is lo <= a AND a <= hi.
func Between(a, lo, hi Expr) Expr { return &Call{Fn: fn.Between, Args: []Expr{a, lo, hi}} }

// In is a IN (values…).
func In(a Expr, values ...Expr) Expr {
	return &Call{Fn: fn.InList, Args: append([]Expr{a}, values...)}
}

// Like is a LIKE pattern.
func Like(a, pattern Expr) Expr { return bin(fn.Like(false, false), a, pattern) }

// Pack builds the struct {names[0]: values[0], names[1]: values[1], …}.
func Pack(names []string, values []Expr) Expr {
	return &Call{Fn: fn.Pack(names...), Args: append([]Expr(nil), values...)}
}

// StringConcat is a || b.
func StringConcat(a, b Expr) Expr { return bin(fn.StringConcat, a, b) }

// Coalesce is the first non-null of args.
func Coalesce(args ...Expr) Expr { return &Call{Fn: fn.Coalesce, Args: args} }
