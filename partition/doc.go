// Package partition splits bound expressions by the fields of the root
// struct, for projection and filter pushdown, and lists the columns an
// expression reads.
//
// # Partitioning by field
//
// A reader of a columnar file holds a record batch as one column per root
// field. ByField cuts an expression into one partition per field it reads,
// to be evaluated next to that field's column, and a root expression that
// combines their results:
//
//	scope    struct<a: struct<x: i32, y: i32>, b: i32, c: i32>
//	input    $.a.x > 5 AND $.b = $.c
//
//	a: x > 5  ($p_a)        (Partitioned.String; x is $.x, and $ is the column a)
//	b: $  ($p_b)
//	c: $  ($p_c)
//	root: $p_a AND $p_b = $p_c
//
// To evaluate, run each Partition.Expr with its field's column as input,
// then Root with the variables bound to the results:
//
//	vars := map[string]datum.Datum{}
//	for _, part := range p.Partitions {
//		vars[part.Var], err = eval.EvalDatum(mem, part.Expr, column(part.Field), nil)
//	}
//	result, err := eval.EvalDatum(mem, p.Root, batch, vars)
//
// The result is the value of the original expression, row for row, and it
// fails only where the original fails (a property test checks both on random
// expressions and data).
//
// The rules:
//
//   - A partition holds the largest sub-expressions that read only its
//     field. A sub-expression that reads no field (a literal, a lambda's own
//     parameter) stays in the root.
//   - When a field feeds several distinct sub-expressions, its partition is
//     a struct pack of them, {e0: …, e1: …} in order of first use, and the
//     root reads them as $p_f.e0, $p_f.e1. One variable per field keeps
//     "one partition per column" true for the reader; equal sub-expressions
//     are computed once.
//   - Variables are named p_ and the field name; when that name is taken by
//     a variable of the given scope or a lambda parameter of the
//     expression, _1, _2, … is appended. Partitions come in the order of the
//     root struct's fields. The root is bound in the given scope plus one
//     frame with the variables (Partitioned.Scope), never through a
//     synthetic struct.
//   - Lambdas: a higher-order call whose list argument and body read one
//     field only (and the lambda's own parameters) moves into that field's
//     partition as a whole. A body that reads several fields keeps the call
//     in the root; its arguments are partitioned, and a sub-expression of
//     the body that reads one field and none of the lambda's parameters is
//     moved out like any other, to be read as a variable.
//   - Conditional arguments: CASE values and later conditions, coalesce's
//     later arguments and lambda bodies are evaluated only for some rows (so
//     a guard like CASE WHEN b <> 0 THEN a / b END never fails). A
//     partition is evaluated for every row, so from those positions only
//     sub-expressions that cannot fail (fn.Function.Fallible is false for
//     every node) are moved out; a fallible one stays in the root and its
//     parts are considered instead.
//   - Sub-expressions that read a variable of the given scope stay in the
//     root, which is bound in that scope.
//   - A use of $ itself (not of one of its fields) becomes, in the root, the
//     pack of every field's variable, {a: $p_a, …}; each field's partition
//     then includes $.
//   - The root struct must not be nullable: a field's column does not carry
//     its parent's nulls.
//
// # Columns read
//
// ReferencedFields lists the field paths an expression reads ([a x], [b]),
// stopping where it uses a whole struct; a reader loads only those columns.
//
// # Conjuncts
//
// Conjuncts splits a filter into its top-level AND operands, so that each
// can be pushed down or pruned on its own; Conjoin puts them back together.
package partition
