// Package parse reads colexpr's text syntax into unbound expression trees
// (expr.Expr). expr.Format prints the canonical form of a tree, and Parse
// reads it back into an equal tree (expr.Equal).
//
//	e, err := parse.Parse("a + 1 > b AND s LIKE 'x%'")
//
// # Syntax
//
// The syntax is SQL-flavoured. Operators, loosest first:
//
//	lambda x: body, lambda x, y: body   lambda (an argument of list_transform & co.);
//	x -> body, (x, y) -> body           the older arrow form, read too
//	OR
//	AND
//	NOT x                       prefix
//	= != <> < <= > >=           comparisons; <> and == are aliases of != and =
//	IS [NOT] NULL, IS [NOT] DISTINCT FROM y
//	[NOT] BETWEEN lo AND hi, [NOT] IN (v, …), [NOT] LIKE p, [NOT] ILIKE p
//	[NOT] GLOB p, [NOT] SIMILAR TO p, ~ !~ ~~ !~~ ~~* !~~* ^@
//	                            DuckDB's pattern matches, at the level of the
//	                            comparisons: glob(x, p); regexp_full_match(x, p);
//	                            ~ is regexp_matches (somewhere in x), ~~ LIKE,
//	                            ~~* ILIKE, a leading ! their NOT; ^@ starts_with
//	->>                         json_extract_string(j, path), DuckDB's: looser than the
//	                            bitwise operators, + and - ('[1,2,3]' ->> 0 + 1 is '2'),
//	                            left-associative (j ->> 'a' ->> 'b'); DuckDB's || shares
//	                            its level, colexpr's that of +, so write (j ->> 'a') || 'x';
//	                            printed as the call. (-> is the lambda arrow, not DuckDB's
//	                            json_extract: call json_extract(j, path).)
//	& | << >>                   bitwise and, or, shifts (integers), as in DuckDB
//	+ -  ||                     || joins strings (null if either side is; concat skips nulls)
//	* / // %                    // is DuckDB's integer division, colexpr's / on integers
//	** ^                        power(a, b), as in DuckDB: 2 ** 3 * 2 is 16, -2 ^ 2 is 4,
//	                            2 ^ 3 ^ 2 is 64; printed as the call
//	-x, ~x                      prefix; ~ (bitwise not) takes the additive expression
//	                            after it, as in DuckDB: ~a + 1 is ~(a + 1)
//	x.field, x::type, x[…]      postfix
//
// Binary operators are left-associative. Comparisons do not chain: `a < b <
// c` is an error; write `a < b AND b < c` or parenthesise. NOT BETWEEN and
// NOT IN give not(between(…)) and not(in_list(…)); NOT LIKE and NOT ILIKE
// give the negated like function. Keywords are case-insensitive; names are
// case-sensitive. DATE, TIME and TIMESTAMP are names too when no string
// follows them.
//
// Operands:
//
//	a, "odd name"           the root field $.a; inside a lambda, a parameter
//	                        of that name is meant instead (write $.a for the field)
//	$                       the root itself; $.a.b and a.b are nested fields
//	$v, $"odd name"         a free variable, resolved by the scope's frames at bind time
//	1, 2.5, .5, 5., 1e-3    untyped numeric literals, typed by scalar.ParseNumber
//	                        (2.5 is decimal(2,1), 1e-3 is f64); a minus directly
//	                        before a number belongs to it: -5 is a literal, -(5) a
//	                        negation, and -5::i8 the i8 -5
//	'it''s'                 a utf8 string; a doubled quote is one quote
//	true, false, null       null has the type null
//	x'00ff'                 a binary string in hex
//	DATE '1995-01-01', TIME '12:00:00', TIMESTAMP '1995-01-01 12:00:00'
//	                        typed literals: date, time(us), timestamp(us)
//	current_date, current_timestamp, now(), today()
//	                        the clock (fn.ClockFn): every one of them in one
//	                        expression stands for the instant it was parsed
//	                        (Options.Now), as DuckDB's stand for the
//	                        transaction's; as bare words they are keywords, so a
//	                        column of that name is quoted: "current_date"
//	[1, 2, null]            a list literal: literal values, converted to the
//	                        supertype of their types
//	[a, b + 1]              a list per row, list_value(a, b + 1), when an element
//	                        is not a literal
//	{'a': 1, 'b': 'x'}      a struct literal: string keys, literal values
//	{a: x + 1, "b c": y}    a struct pack (fn.Pack): any values; {} is empty;
//	{'a': x + 1}            DuckDB's spelling of the same pack
//	struct_pack(a := x, b)  DuckDB's struct_pack: the pack {a: x, b: b}
//	row(x, y)               the pack {v1: x, v2: y}: DuckDB's unnamed struct
//	                        (TUPLE), whose fields it reads by position
//	                        (struct_extract(t, 2)); colexpr's fields have names
//	x[i]                    element i of a list, 1-based, negative from the end
//	                        (list_element)
//	x[a:b], x[a:], x[:b]    a slice of a list or a string, both bounds included;
//	                        a missing bound is 1 or -1 (list_slice)
//	x['name']               the field name of a struct, as x.name
//	struct_extract(x, 'name')  the same; struct_extract(x, k), k an integer
//	                        literal, is x.vk: field k of a row(…)
//	if(c, a, b)             CASE WHEN c THEN a ELSE b END
//	nullif(a, b)            CASE WHEN a = b THEN NULL ELSE a END
//	lit::type               a typed literal when lit is a literal that converts to
//	                        exactly that type (1::i64, '1995-01-01'::date,
//	                        null::i32?); otherwise x::type is a cast
//	CAST(x AS type), TRY_CAST(x AS type)    always a cast call
//	CASE WHEN c THEN v … [ELSE e] END
//	CASE x WHEN v THEN r … [ELSE e] END     compares x = v in each branch
//	struct_select(x, 'a', 'b'), struct_exclude(x, 'a')
//	name(args…)             a function of the registry (fn.Default), by
//	                        case-insensitive name; quote a name spelled like a
//	                        keyword: "and"(a, b, c)
//	( x )
//
// Comments are SQL's: -- runs to the end of the line, /* … */ may span
// lines.
//
// Types are written as the dtype package reads them (dtype.ParsePrefix):
// i32, decimal(15,2), list<i32?>, struct<x: i32, "y z": utf8>?, and the SQL
// names BIGINT, VARCHAR, DOUBLE and so on.
//
// The parser does not type-check: `lower(1)` or a lambda where no
// higher-order function takes one parse fine and fail in expr.Bind, which
// names the offending node. It does check what it can see on its own:
// unknown function names (with suggestions), malformed numbers and typed
// literals, and list and struct literals whose values are not literals or
// share no type.
//
// # Errors
//
// ParseSpans also records where each node of the tree is in the text
// (Spans), so that an error found later — by binding, by coercion, by a
// check of the columns — can point at the text too: colexpr.Schema.Compile
// does so (colexpr.SourceError). Position.Excerpt renders the caret.
//
// A syntax error is an *Error with the line and column (in characters) and
// a message saying what was expected and what was found; its Error method
// shows the source line with a caret under the column:
//
//	parse error at 1:9: expected an expression after '+', found end of input
//	  a + b +
//	          ^
//
// Nesting (parentheses, calls, lambdas, CASE, and each prefix or postfix
// operator: NOT, -, .field, ::type) is capped at DefaultMaxDepth levels so
// hostile input cannot exhaust the stack of this or any later stage; the
// error wraps expr.ErrTooDeep. Long chains such as `a + a + … + a` are read
// in loops and not limited here; the tree they make is limited to
// expr.MaxDepth levels, which Bind enforces.
//
// # Canonical form
//
// expr.Format prints binary operators with single spaces, keywords in upper
// case, != for inequality, CAST(…) for cast calls and `value::type` for typed
// literals, root fields bare unless a lambda parameter shadows them, and
// parentheses only where precedence needs them. An untyped literal prints as
// its number, so only untyped literals that scalar.ParseNumber can produce
// (an untyped i64 5 is not one) round-trip.
package parse
