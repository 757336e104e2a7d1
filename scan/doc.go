// Package scan reads files with colexpr expressions: it opens a source
// (Parquet, Arrow IPC file or stream, CSV, or the demo table), compiles a
// filter and a select list once against the source's schema, reads only
// the columns and row groups the query needs, filters and projects the
// batches in parallel, and hands the results out in input order as an
// array.RecordReader.
//
//	src, err := scan.Open(mem, "lineitem.parquet")
//	defer src.Close()
//	plan, err := scan.Compile(src, scan.Query{
//		Where:  &scan.Expr{Text: "l_shipdate >= DATE '1994-01-01' AND l_discount BETWEEN 0.05 AND 0.07"},
//		Select: []scan.Expr{{Text: "l_extendedprice * l_discount", Name: "revenue"}},
//	}, scan.Options{})
//	rr, err := plan.Read(ctx)
//	defer rr.Release()
//	for rr.Next() {
//		use(rr.RecordBatch())
//	}
//	err = rr.Err()
//
// # Compiling once
//
// Compile binds, coerces and optimizes each expression against the
// source's whole schema (colexpr.Schema.Compile, the path the root
// package's Compile takes too), so errors speak of the file's columns. The
// columns to read are those the optimized trees use: a column the
// optimizer removed ('l_comment IS NOT NULL' on a column without nulls,
// 'coalesce(a, 1)' with a non-null a, a CASE with a constant condition) is
// not read. The optimized trees are then moved onto the struct of the
// columns read (expr.ReplaceRoot): field access is by name, so the trees
// type as before and nothing is parsed or bound a second time. A nested
// field ($.s.x) is read with its whole top-level column.
//
// A filter that optimizes to false or null reads nothing. A query that
// uses no column (a constant select list, or a filter that optimizes to
// true without one) still yields one output row per input row: of a
// Parquet file it reads only the footer's row counts; of other formats it
// reads their first column to count rows.
//
// An expression is given as text, as an unbound expr.Expr, or as a
// colexpr.Program compiled against Source.Schema. SubstraitExprs turns the
// expressions of a Substrait ExtendedExpression (another engine's filter
// or select list) into such programs.
//
// # Row-group pruning
//
// Of a Parquet file, the row groups whose statistics (minimum, maximum,
// null count) prove that no row satisfies the filter are not read: the
// filter's falsifier (package prune) is evaluated over the statistics of
// every row group at once. Pruning only removes rows the filter would have
// removed: the output is the same with Options.NoPrune. Statistics are
// read from the footer conservatively: a bound whose exactness is in doubt
// (a byte array maximum a writer may have truncated, an order other than
// the column's) is treated as unknown, which never causes a skip.
// Plan.RowGroups says what was decided, Reader.Stats what was read.
//
// # Parallelism and memory
//
// One goroutine reads batches of at most Options.BatchSize rows;
// Options.Threads workers filter and project them; Reader.Next hands the
// results out in input order. At most 2 × Threads batches are in flight,
// so memory is bounded by the batch size and the thread count, not by the
// file's size. Releasing the reader stops the scan (also before its end)
// and waits for its goroutines; cancelling the context given to Read ends
// it with the context's error.
//
// # Errors
//
// A runtime error of an expression is a *RowError naming the source, the
// row (counting from 1 in the file, whatever was skipped) and the
// expression (Expr.What); it unwraps to the evaluation error, so
// errors.Is(err, colexpr.ErrOverflow) works. A file that cannot be decoded
// is an error naming the file. A panic in a worker — a bug — is an error
// that wraps ErrInternal.
//
// # Formats
//
// Open chooses the reader by the file's extension: .parquet or .pq
// (Parquet), .arrow, .feather or .ipc (Arrow IPC file), .arrows (Arrow IPC
// stream), .csv (a header row; column types inferred from the first
// CSVInferRows rows: i64 when every value is an integer, f64 when every
// one is a number, bool for true/false, date for YYYY-MM-DD, timestamp(us)
// for YYYY-MM-DD HH:MM:SS[.fraction] (or with a T, or a mix with dates),
// utf8 otherwise; an empty field is null). OpenCSV opens a CSV file with
// CSVOptions: the types inferred from more rows, or from every row, and
// columns given a type by name. Every value is parsed by the rules the
// inference used; a later value that does not fit its column's type is a
// *CSVValueError that names the file, the line, the column, the type and
// how it was chosen, and says how to read the value (a type that holds it,
// more rows to infer from). A column whose Arrow type colexpr
// does not support, or whose name another column has too, is left out of
// Source.Schema with the reason, and an expression that uses it is an
// error that gives it.
package scan
