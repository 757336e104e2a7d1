// Package coerce makes a user's expression type-check: it inserts the casts
// that binding (expr.Bind) is too strict to assume, and gives untyped
// literals their types.
//
// Binding wants the arguments of an operator to have one type: `i32 + i64`
// does not bind. Coerce rewrites it to `CAST(a AS i64) + b`, which does. It
// takes the same scope binding does (root dtype and variable frames), so a
// variable types the same way in every pass: a variable of the scope's
// frames is coerced against its frame dtype, a lambda parameter against the
// type its higher-order function gives it, and a variable no frame defines
// is an error (expr.ErrUnresolvedVariable), as in binding.
//
//	e, err := coerce.Coerce(expr, scope)            // the rewritten expression
//	b, err := coerce.Bind(expr, scope)              // the same, bound in the same walk
//	e, b, err := coerce.CoerceAndBind(expr, scope)  // both
//
// # The rules
//
// Operands that must meet at one type meet at their supertype
// (dtype.Supertype): each operand of another type gets a cast, CAST(x AS T)
// (without `?`: a cast keeps its operand's nullability).
//
//   - Arithmetic (+ - * / %) and comparisons (= != < <= > >=, IS [NOT]
//     DISTINCT FROM): both operands. BETWEEN and IN: all operands.
//     coalesce and fill_null: all arguments. CASE: all THEN and ELSE values.
//     list_contains(xs, v): v meets the element type of xs; when v's type is
//     the wider one, xs is cast element-wise (list<i32> to list<i64>).
//   - Integers meet at the narrowest integer holding both (u8 with i8 is
//     i16, u32 with i32 is i64); u64 with a signed integer has no common
//     type. In arithmetic, as in DuckDB, integers of different signedness
//     whose supertype is neither of their types are computed in i64
//     (u8 + i8 and u16 - i16 are i64; u8 + i16 stays i16). An integer with a float gives the float wide enough to hold it
//     (f64 for 32- and 64-bit integers). Decimals meet by the SQL
//     precision/scale rule; a decimal with a float gives f64.
//   - Decimal arithmetic: the functions accept decimals of different
//     precision and scale and type the result by the SQL rule, so decimal
//     operands keep their types, an integer operand joins as decimal(d,0)
//     (d its widest number of digits), and an untyped integer literal joins
//     as the narrowest decimal holding it, while a decimal literal (an
//     integer too big for u64 is decimal(38,0)) stays as written: d * 2 is
//     d * 2::decimal(1,0), of type decimal(p+1,s), and d + 1.5 is left as
//     it is.
//   - AND, OR, NOT and CASE conditions want bool: the null literal becomes a
//     bool null; anything else but bool is an error.
//   - concat casts its non-utf8 arguments to utf8 (an untyped literal becomes
//     its text); nulls stay, concat skips them.
//   - The numeric functions cast each argument to the type they name
//     (fn.ArgTyper), as DuckDB's signatures do: sqrt, exp, ln, log, power
//     and the others take numbers as f64, floor and ceil take integers as
//     f64, round takes u8, u16 and u32 as i64, and the places of round and
//     trunc are i32 (narrower integers are cast). greatest and least meet
//     like coalesce; the bitwise operators like arithmetic.
//   - The string functions and LIKE turn a null literal into a utf8 null;
//     substring's and list_element's index arguments accept any integer and
//     are left as they are (a null literal becomes an i64 null).
//   - The body of list_filter, list_any and list_all: a null literal becomes
//     a bool null.
//   - Strings never coerce to numbers (or numbers to strings, concat aside),
//     and bool meets only bool: write the cast.
//
// # Literals
//
// The parser gives a number written without a type its natural type, as
// DuckDB does (see scalar.ParseNumber): an integer is i32, or i64, u64 or
// decimal(38,0) when it is bigger; a number with a decimal point is
// decimal(p,s) with the digits written; one with an exponent is f64. Such a
// literal is untyped (fn.LiteralFn.Untyped), and coercion adapts it:
//
//   - It takes the other operands' type when its value fits exactly
//     (converting there and back gives the same value): u8_col + 1 stays
//     u8, and the literal becomes 1::u8.
//   - An integer that does not fit an integer operand keeps its natural
//     type, which then meets the other operands at their supertype, as in
//     DuckDB: u8_col * 1000 is CAST(u8_col AS i32) * 1000, u8_col - -1 is
//     i32, u32_col + -1 is i64. With a decimal operand it is decimal(d,0), d
//     its digits; with a float, the narrowest float holding it.
//   - A literal with a decimal point meets an integer at f64 (i32_col = 1.5
//     compares as f64), a float at that float (or a wider one when its
//     magnitude needs it), a decimal at that decimal when it fits exactly,
//     else at the decimal supertype (decimal(10,2) = 1.125 compares at
//     decimal(11,3)); in arithmetic see the decimal rule above.
//   - Untyped literals with no typed operand meet at the supertype of their
//     natural types: 1 = 2.5 compares as decimal(11,1).
//   - The null literal (dtype null) becomes a typed null of the type the
//     others meet at: a literal, not a cast.
//
// A literal that needs no change keeps its node, untyped flag included.
//
// # Errors
//
// When operands have no common type, Coerce returns an *Error wrapping
// ErrNoCommonType that names both dtypes, the operation, the call's text and
// path, and an explicit cast that would do:
//
//	coerce: cannot compare u64 with i64 in `a = b` (eq) at the root node: no common type; cast one side, e.g. CAST(b AS u64)
//
// Everything binding rejects (an unknown field, an unresolved variable, a
// misplaced lambda, a function given the wrong kind of argument) comes back
// as an *expr.BindError with the path of the offending node.
//
// # Cost
//
// Coerce is a hook of the one binder (expr.BindWith), not a walker of its
// own: the binder binds each node's children first, the node's rule reads
// their dtypes and inserts casts, and the node is bound once from its bound
// children (expr.NewCall), never by re-binding a subtree. Unchanged subtrees are returned as they are (the same pointers),
// so an expression that already type-checks costs one binding walk and no
// allocation of new expression nodes.
package coerce
