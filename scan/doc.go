// Package scan reads files with colexpr expressions: it opens a source
// (Parquet, Arrow IPC file or stream, CSV, a dataset of many such files,
// the standard input, or the demo table), compiles a
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
// Bloom filters: where a column chunk has one (ParquetOptions.BloomFilters
// writes them), each value of an = or IN in the filter — also under AND,
// OR and NOT, as the falsifier combines them — is asked of it, and a row
// group whose filters rule out every value its falsifier needs is skipped:
// l_orderkey = 4225 reads the row groups that hold the key (and those of
// a false positive, about 1 in 100 at the writer's default), in whatever
// order the rows are. The filters are read only for the row
// groups min/max could not rule out, after them. A value is asked in the
// form the file stores it (the plain encoding arrow-go's writer hashes: an
// integer in its physical width, a decimal unscaled in the column's scale
// and width, a date as its days, a timestamp in the file's unit, a string's
// bytes, both zeros for a float zero); a value that has no exact stored
// form (NaN, 1.5 for an integer column, a unit the file's cannot hold) is
// not asked, and a filter that cannot be read (its header or bitset
// corrupt, its offset outside the file) is not used: its row group is read
// and Stats.BloomNote says why. A filter has false positives, never false
// negatives, so this too only skips row groups with no matching row.
// Stats.RowGroupsSkippedBloom and BloomFilters say what the filters did.
//
// # Page index
//
// Where a Parquet column chunk has a page index — a column index (each
// data page's minimum, maximum, null count, and whether it is all null)
// and an offset index (where each page starts, in rows and in bytes) — the
// scan skips pages too, within the row groups read that are not taken
// whole. The pages of different columns start at different rows, so the
// row group is cut at every page start of the filter's columns into
// intervals within which each of those columns is in one page, whose
// statistics are the interval's (a page's null count holds for a part of
// it only when it is 0 or the page is all null). The row groups'
// falsifier is evaluated over the intervals of every row group at once;
// the intervals it does not rule out, merged where they touch, are the
// row ranges read. Every column read — the filter's and the select
// list's — is then read at those rows only, all columns aligned whatever
// their page boundaries: its reader seeks to the first page a range
// overlaps, through its offset index, so the pages between are neither
// read nor decompressed, and drops the rows of a page before a range
// (package internal/pqread, Options.RowRanges). A row error still names
// the row of the file.
//
// With pages sorted by a column (colexpr demo --sort l_shipdate, pages of
// 8192 rows), one day of ship dates reads 2 pages of each column of one
// row group, of 10 000 000 rows. Pages are skipped only for files whose
// columns pqread reads (flat columns: not a query that reads a list or a
// struct column, which goes through arrow-go's record reader). In a
// dataset each file's pages are pruned alike, except where the filter
// asks about a partition column or a column the file holds as another
// type than the unified one (its page bounds would need the cast that
// its row group bounds get): that file's pages are read whole. The bounds of the column index are read
// as the footer's are (statValue, the same types and orders), without an
// exactness flag: the format defines them as lower and upper bounds that
// a writer which shortens a value must keep; an empty byte array maximum,
// which some writers leave for a page without statistics, is not used. A
// NaN makes no bound, and arrow-go writes no column index for a chunk
// with a page of NaN only (nor of values too long for statistics): its
// pages are then read. An index that cannot be decoded, or whose
// locations lie outside the file, is not used; Stats.PageNote says why.
// Stats.PageGroups, Pages, PagesSkipped and BytesSkippedPages say what
// the page index did; Stats.BytesSkipped what all pruning left unread.
//
// ParquetWriter writes the page index of every column, and, unless
// ParquetOptions.Buffered, pages of ParquetOptions.PageRows rows (8192
// by default) in every column alike. Smaller pages skip more finely and
// cost a full scan a little: Q6 over 6 000 000 demo rows took 210 ms of
// CPU with pages of 8192 rows, 205 ms with 32 768 and 195 ms with arrow-go's
// default of about 1 MiB (hyperfine, 15 runs each, on a loaded machine).
// Row groups of the same values are as big either way.
//
// The page index is read with arrow-go's metadata API (the file reader's
// GetPageIndexReader, ColumnIndex and OffsetIndex), which exposes all
// that page pruning needs: the raw bounds of each page, its null count,
// its null_pages flag and its location.
//
// The footer's statistics are decoded by hand (thrift.go), not through
// arrow-go's metadata API, which, as of v18.9.0, still hides two things
// pruning needs: its TypedStatistics report one HasMinMax for both bounds
// (set when either is, so a chunk with only a minimum reports a maximum
// decoded from nothing), and it does not expose the Statistics fields
// is_min_value_exact and is_max_value_exact (they are in its internal
// Thrift types only), without which a byte array maximum a writer may have
// truncated cannot be told from an exact one. The bloom filters need
// neither: their offsets and lengths are in ColumnChunkMetaData, and they
// are read with arrow-go's BloomFilterReader.
//
// # Substrait plans
//
// A compiled query is also a Substrait plan that engines running on many
// machines consume (package substrait, "Plans"): Plan.Substrait is a read
// of the source's files — their format, the source's schema as the base
// schema, the columns the scan reads as the projection, and the conjuncts
// of the filter that row-group pruning uses as the best-effort filter —
// then a filter of the optimized filter, then a project of the optimized
// select list under the output names. The demo table is read as the named
// table lineitem (DemoTable); a stream and a dataset's Hive partition
// columns have no place in a plan and are refused.
//
// The other way, OpenPlan opens what a plan reads — its local files, or
// the paths given instead (which a named table needs) — as one table by
// name, a CSV file with the plan's column types, and imports its filter
// and select list as the Query that Compile plans; SubstraitQuery does the
// import alone, against a source already open. A plan of another shape
// (a join, an aggregate, a sort, …) is an error naming the relation:
//
//	msg, err := plan.Substrait()                            // *substraitpb.Plan
//	src, q, err := scan.OpenPlan(mem, msg, nil, scan.DatasetOptions{})
//	defer src.Close()
//	again, err := scan.Compile(src, q, scan.Options{})      // the same rows
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
// # Datasets
//
// OpenDataset reads many files as one table, as DuckDB's read_parquet and
// read_csv do with union_by_name and hive_partitioning:
//
//	src, err := scan.OpenDataset(mem, []string{"sales/**/*.parquet"}, scan.DatasetOptions{})
//
// An input is a file, a glob (*, ? and [...] within a name, ** for any
// number of directories; a trailing ** matches every file below), a
// directory (every .parquet, .pq, .arrow,
// .feather, .ipc, .arrows and .csv file below it, names beginning with .
// or _ — _SUCCESS, .crc — left out), or "-" for DatasetOptions.Stdin. The
// files are taken in the order of the inputs, a glob's or a directory's
// in lexical order. A glob that matches nothing, a directory without a
// data file, a file that cannot be read: each is an error naming the path.
//
// Schemas are unified by column name: the columns in the order they first
// appear, then the partition columns. A column some files lack is
// nullable and null in their rows. A column whose types differ is read as
// their supertype (dtype.Supertype: i32 and i64 meet at i64, a date and a
// timestamp at the timestamp), each file's values cast to it; types with
// no supertype (i64 and utf8) are an error that names the column, both
// types and both files. Source.Origins says which files each column comes
// from and its type in each. DatasetOptions.CSV applies to every CSV file;
// a type it gives a column applies to the files that have it, and a name
// no file has is an error.
//
// Hive partitioning: the directories of a file's path named key=value
// give it a column key, constant over its rows. The column's type is
// inferred from every file's value as DuckDB infers it: i64 when each is
// an integer, date when each is YYYY-MM-DD, utf8 otherwise; the value is
// URL-unescaped (%2F is /), and __HIVE_DEFAULT_PARTITION__ (or an empty
// value) is null. Every file must have the same keys in the same order
// (a Hive directory mixed with plain ones is an error naming both paths),
// and one key twice in a path with two values is an error. A file column
// of a partition column's name is shadowed by the partition value.
// DatasetOptions.NoHive turns partitioning off.
//
// Partition pruning: before any file is opened, the top-level AND
// conjuncts of the filter that compile against the partition columns alone
// are evaluated over a table of the files' partition values, one row per
// file, in one vectorized evaluation. A file where they are false or null
// holds no matching row — its rows all share those values — and is never
// opened. This is exact, not just falsification over min/max: any
// expression of partition columns prunes (month % 3 = 0, CAST(year AS
// utf8) LIKE '20%'). An evaluation error keeps every file. Options.NoPrune
// turns it off with the rest of pruning. Stats counts the files read and
// skipped.
//
// Compile opens only the files it reads, and compiles the query against
// their unified schema (a select-all query has the columns of the files
// read). When that fails — a column only files ruled out hold — it is
// compiled against every file's schema, and still reads only the files
// left. Source.Resolve, Schema and Origins open every file. In each file
// read, row groups are pruned by their statistics as in a single file: a
// partition column's statistics are its value, a column the file lacks is
// all null, a column of a narrower type has its bounds cast to the
// unified type.
//
// A dataset's batches come from one file after another, and a file is
// open only while it is used (its schema read, its row groups planned, its
// rows scanned): a dataset of thousands of files holds one or two file
// descriptors, not one per file. Files of flat Parquet columns are
// filtered and projected on their decoding goroutines, as one such file
// is; other datasets go through the workers. A row error names the file
// and the row in it. Reader.Progress is the part of the bytes of the files to read that
// was read, Reader.Position the file reached and the bytes.
//
// # Formats
//
// A file's format is told from its first bytes (Sniff): PAR1 is Parquet,
// ARROW1 an Arrow IPC file, the continuation marker 0xFFFFFFFF an Arrow
// IPC stream, anything else CSV. The extension is a hint: .parquet or .pq
// (Parquet), .arrow, .feather or .ipc (Arrow IPC file), .arrows (Arrow IPC
// stream) and .csv must name the format the bytes are (the two Arrow IPC
// formats are taken for each other: .arrow names both in the wild), or
// the error says what they are; a file with another name, or none, is
// read as its bytes say. OpenStream reads the standard input, or any
// io.Reader, as it streams in: an Arrow IPC stream or CSV (Parquet and IPC
// files are read from their end and need a file). CSV is read with a
// header row; column types inferred from the first
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
//
// A dictionary-encoded column (dictionary<indices, values>: what an Arrow
// IPC writer or pyarrow often writes, and what arrow-go's Parquet reader
// gives for a column whose stored Arrow schema says dictionary) has the
// type of its values (dtype.FromArrow): expressions filter and compute on
// the values, each batch's dictionary is decoded where an expression
// reads the column, and rows kept whole keep their dictionaries. A
// Parquet column's statistics are of its values, so row groups are pruned
// as for a plain column; but a query that reads such a column reads the
// file with arrow-go's record reader, not pqread, so its pages are not
// skipped. Of the list elements
// of a batch without any, arrow-go's reader gives a dictionary array
// without a dictionary; the scan gives it an empty one.
//
// # Writing
//
// ParquetWriter writes batches as Parquet — Snappy, statistics, bloom
// filters of the columns ParquetOptions.BloomFilters names, the Arrow
// schema stored, decimals of up to 18 digits as INT32/INT64, row groups of
// 128 Ki rows (with ParquetOptions.Buffered, whatever the batches' sizes),
// a dictionary column as one and a dictionary inside a list or a struct
// as its values.
// WriteParquet writes a RecordReader with it. Files are written through an
// AtomicFile: a temporary file in the target's directory, renamed to the
// target by Commit, removed by Abort, so an error never leaves a
// half-written file under the target's name.
package scan
