// Package eval evaluates bound expressions vectorized over Arrow arrays.
//
// # Entry points
//
//	Eval(mem, b, input)          $ is an array (usually the struct of a record batch); an array of input.Len() rows
//	EvalRecord(mem, b, rec)      $ is the struct of rec's columns
//	EvalDatum(mem, b, in, vars)  $ is a datum (array or scalar); vars gives free variables; the result may be a scalar
//	EvalConstant(mem, b)         a tree without $ or free variables, to a scalar (constant folding)
//	Filter(mem, pred, rec)       the rows of rec where pred is true
//
// The tree is checked before any work: every call must have a kernel (a
// function implementing fn.Kernel) or be one of the forms this package
// evaluates itself (literal, get_item, case_when, coalesce, fill_null,
// list_transform, list_filter, list_any, list_all), otherwise the error
// wraps ErrNoKernel ("eval: no kernel for <id>"). The input's Arrow type
// must match the bound type of $ (nullability aside), and every free
// variable needs a value of its bound type.
//
// A dictionary array (dictionary<indices, values>) holds the type of its
// values, as dtype.FromArrow types it, at any depth of the input: a record
// batch column, a struct field, list elements. It is decoded where it is
// first read — a column or field when get_item reads it, $ or a variable
// when read whole — into the plain array of its values (the values
// gathered by the indices, a null index a null row), once per evaluation,
// so kernels never see a dictionary; an index outside the dictionary is an
// error. Filter gathers the record's own columns: a dictionary column
// stays one in its result.
//
// # Ownership and memory
//
// Every buffer the evaluator or a kernel allocates comes from the caller's
// allocator (memory.DefaultAllocator when it is nil), and every intermediate value is released before the call
// returns, on success and on error alike. The result is owned by the caller,
// who releases it. The input is never modified or released; a result may
// share its buffers (`$.a` returns the column a itself, with a new
// reference).
//
// An evaluation keeps all its state to itself: one bound tree may be
// evaluated from several goroutines at once.
//
// # Scalars stay scalars
//
// Values flow through the tree as datums: an array, or a scalar standing
// for a column of identical values. A literal is a scalar; a call whose
// arguments are all scalars runs its kernel on one row and stays a scalar,
// so a subtree that reads neither $ nor a variable is computed once, and
// `col + 1` hands the kernel the column and the scalar 1, never a column of
// ones. Eval broadcasts a scalar result to input.Len() rows at the end;
// EvalDatum returns it as is.
//
// Over zero rows nothing is evaluated, so nothing fails: the result is an
// empty array.
//
// # Laziness
//
// Eager kernels get every argument computed first. Four forms choose the
// rows an argument is computed on instead, so that an argument that would
// fail on some rows is never evaluated on them:
//
//   - CASE WHEN c1 THEN v1 … ELSE e END: condition i is evaluated over the
//     rows no earlier condition took (a null condition counts as false),
//     value i only over the rows condition i took, ELSE over the rest. A
//     guard such as `CASE WHEN b <> 0 THEN a / b END` never raises.
//   - coalesce(a1, …, an) and fill_null(a, b): argument i+1 is evaluated only
//     over the rows where argument i is null.
//   - the higher-order list functions evaluate their lambda only over the
//     elements of non-null lists.
//
// A branch runs in one of two ways. Over a subset: the evaluator gathers,
// on first use and one struct field at a time, only the columns and
// variables the branch reads, evaluates the branch over those rows and
// scatters the results back into place (kernels.Scatter). Or masked, when
// the branch takes a large share of the rows and cannot fail on null input
// (each fallible call in it propagates nulls and reads a value that is
// null on the other rows, and it holds no CASE, coalesce or lambda of its
// own): the branch runs over all rows with $ and the variables made null
// outside its rows, which costs a validity bitmap per column read instead
// of a copy. Either way a row the branch does not take is never computed,
// so it cannot fail.
//
// # Filtering
//
// Filter splits its predicate at the top-level ANDs and evaluates them left
// to right. A conjunct that cannot fail (no node of it is fallible) is
// evaluated only for the rows still true: over just those rows when fewer
// than a quarter remain, otherwise over all rows with its result ANDed in.
// A conjunct that can fail is evaluated over every row, as AND's own
// semantics demand, so an error is raised exactly where evaluating the whole
// predicate would raise it: skipping never hides one. Once no row is left,
// the conjuncts that cannot fail are not evaluated at all.
//
// # Lambdas
//
// list_transform(xs, x -> body), list_filter, list_any and list_all work on
// List and FixedSizeList arrays (sliced ones included). The body is
// evaluated once, not per row: over the flattened elements of all valid
// lists, with the parameter bound to that element array. When the body
// reads $ or a variable of an enclosing lambda, that value is gathered to
// element rows (element i belongs to row parent[i]) the first time it is
// read; a body that reads nothing from outside gathers nothing. Lambdas may
// nest. The lists are rebuilt from their offsets:
//
//	list_transform  same lists, the body's values as elements (a fixed-size list stays fixed-size)
//	list_filter     the elements whose body value is true (null counts as false)
//	list_any        Kleene OR over a list's elements; false for an empty list
//	list_all        Kleene AND over a list's elements; true for an empty list
//
// A null list gives null, and elements a null list row may still address
// are never evaluated.
//
// # Errors
//
// A runtime error of a call is an *Error naming the call's text and the row
// of the caller's input it failed at. When the kernel reported a
// *fn.EvalError, the *Error wraps a *fn.EvalError with the row mapped back
// to the input: a row of a CASE branch or a later coalesce argument is the
// input row it came from, and a lambda element reports the row of its list.
// errors.Is sees through to the sentinels of package errs
// (errs.ErrOverflow, errs.ErrDivideByZero, errs.ErrInvalidCast,
// errs.ErrInvalidArgument). A scalar subtree that fails reports the first
// row it was evaluated for.
//
// # Testing
//
// The tests check the evaluator against a row-at-a-time reference
// evaluator, written from the functions' documentation, on random
// well-typed expressions over random data with nulls and extreme values
// (diff_test.go). A failure is shrunk to a small expression and a row or
// two and kept in regress_test.go. Run it longer with
//
//	go test ./eval -run Differential -eval.iterations=100000 -eval.seed=7
package eval
