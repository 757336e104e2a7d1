// Command colexpr filters, projects and explains colexpr expressions over
// Parquet, Arrow IPC and CSV files, or over a built-in demo table.
//
// Usage:
//
//	colexpr query   [--where EXPR] [--select LIST] [--substrait FILE.json] [--limit N]
//	                [--format table|csv|jsonl|arrow|feather|parquet] [-o OUT]
//	                [--threads N] [--batch-size N] [--demo-rows N] [--stats] [--no-prune]
//	                [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE...]
//	colexpr explain [--schema-of FILE] [--substrait] EXPR
//	colexpr schema  [--origins] [--csv-infer-rows N] [--csv-type NAME=TYPE] [FILE...]
//	colexpr demo    [--rows N] [--seed S] [--sort COLUMN] [--row-group-size N | --row-groups N]
//	                --out FILE.parquet
//	colexpr serve   [--addr HOST:PORT] [FILE]
//	colexpr help
//	colexpr --version
//
// # Inputs
//
// A FILE is a file, a glob, a directory or -. A glob matches names with *,
// ? and [...], and any number of directories with ** ('logs/**/*.csv'); a
// directory stands for every .parquet, .pq, .arrow, .feather, .ipc, .arrows
// and .csv file below it (names beginning with . or _ left out); - is the
// standard input, an Arrow IPC stream or CSV, read as it streams in. Files
// are read in the order given, each glob's and directory's in lexical order.
//
// Several files are one table, unified by column name as DuckDB's
// union_by_name does: the columns in the order they first appear, a column
// a file lacks null in its rows, and a column whose types differ read as
// their common supertype (i32 and i64 as i64); types with none (i64 and
// utf8) are an error that names the column, both types and both files.
// schema --origins shows which files each column comes from.
//
// Directories named key=value are Hive partitions: year=2024/month=07/x.parquet
// gives the columns year and month (after the files' columns), typed as
// DuckDB types them: i64 when every value of the key is an integer, date
// when every one is YYYY-MM-DD, utf8 otherwise; __HIVE_DEFAULT_PARTITION__
// is null. The parts of --where that use only partition columns are
// evaluated over each file's values first, and the files they rule out are
// never opened; --stats says how many:
//
//	files: read 2, skipped 10 of 12 (by their partition values)
//
// The query is compiled against the files it reads (of a dataset filtered by
// its partitions, a column only skipped files hold is looked up in them all).
//
// A file's format is told from its first bytes: PAR1 is Parquet, ARROW1 an
// Arrow IPC file, 0xFFFFFFFF an Arrow IPC stream, anything else CSV. The
// extension is a hint: a name ending in .parquet, .arrow, .arrows or .csv
// whose bytes are another format is an error that says what they are; any
// other name is read as its bytes say.
//
// A CSV file has a header row, then
// rows whose types are inferred from the first 1000 rows: i64 when every
// value is an integer, f64 when every one is a number, bool for true/false,
// date for YYYY-MM-DD, timestamp(us) for YYYY-MM-DD HH:MM:SS[.fraction],
// utf8 otherwise; an empty field is null). --csv-infer-rows N infers the
// types from N rows (0: every row, reading the file twice), --csv-type
// NAME=TYPE gives a column its type. A later value that does not fit its
// column's type is an error that names the file, the line, the column and
// the type, and says which --csv-type would read it:
//
//	colexpr query: data.csv: line 1002, column 1 (n): "oops" is not a valid i64, the column's type (inferred from the first 1000 rows)
//	to read it, give the column a type that holds it (--csv-type n=utf8) or infer the types from more rows (--csv-infer-rows N, 0 for every row)
//
// A column
// whose Arrow type colexpr does not support (large strings, dictionaries,
// maps, …), or whose name another column has too, is left out with a note
// on stderr, and an expression that uses it is an error. Without FILE,
// query, explain and schema use the built-in demo table, a seeded imitation
// of TPC-H's lineitem (see package github.com/colexpr/colexpr/demo).
//
// # query
//
// query keeps the rows where the --where predicate is true (not false, not
// null) and prints the --select expressions for them. LIST is a
// comma-separated list of expressions, each optionally followed by AS name;
// commas inside parentheses, brackets, braces and quotes do not separate. A
// column without AS is named by its expression as written. A name an
// earlier column has is renamed as DuckDB does: the second a becomes a_1,
// the third a_2 (skipping names the list uses elsewhere). Without
// --select, every column of the input is printed.
//
// The query is compiled once against the file's schema; only the columns
// the optimized expressions use are read (a column the optimizer removes,
// as in 'l_comment IS NOT NULL' on a column without nulls, is not). Batches
// of rows are decoded (of Parquet) and evaluated in parallel on --threads
// goroutines (default: the number of CPUs) and printed in input order;
// memory stays bounded by the batch size and the threads, not the file
// size. The Go runtime collects garbage as the process nears 112 MiB
// rather than whenever its heap doubles (a soft limit: a query that needs
// more still runs); the environment variables GOMEMLIMIT and GOGC, when
// set, take over. --limit N prints the first N rows of the
// output, in input order, however the batches fall, and stops reading once
// they are printed; --limit 0 prints only the header (of table and csv) or
// the schema (of arrow).
//
// Of a Parquet file, only the row groups that may hold a matching row are
// read (see Row-group pruning below). --stats prints to stderr, after the
// query, how many were read and how many skipped:
//
//	row groups: read R, skipped S of T (B bytes of column chunks)
//
// R counts the row groups the scan was set to read; --limit may stop it
// before the last. B is the compressed size of the column chunks of those
// row groups and of the columns the query uses: what the scan reads of the
// file. For other inputs, --stats prints "row groups: none
// (FILE is not a Parquet file)". --no-prune reads every row group; the
// output is the same.
//
// Output formats:
//
//	table  aligned columns for a terminal, as DuckDB's box renderer draws
//	       them: widths count display cells (a CJK character or an emoji
//	       takes two, a combining accent none); a value wider than 40 cells
//	       is cut, ending in …; column widths come from the first 1024 rows
//	       (the rows before them are held back, later ones stream), and a
//	       later wider value is cut to its column's width the same way. A
//	       row count ends the table and, when a value was cut, a line says
//	       how many were (never silently): --format csv or jsonl prints
//	       every value whole
//	csv    RFC 4180, a header row, null as an empty field
//	jsonl  one JSON object per row, keys in select order: integers and floats
//	       as numbers (NaN and infinities as the strings "NaN", "Infinity",
//	       "-Infinity"), decimals as strings ("0.05"), dates as "YYYY-MM-DD",
//	       times as "HH:MM:SS[.fraction]", timestamps as "YYYY-MM-DD
//	       HH:MM:SS[.fraction]" — one without a time zone with no offset
//	       (it is a wall-clock reading, not UTC), one with a zone in that
//	       zone and with its offset, +02 or +05:30, as DuckDB prints
//	       TIMESTAMP and TIMESTAMPTZ — binary as base64 (JSON strings hold
//	       text; base64 is what JSON tools decode), lists as arrays,
//	       structs as objects, null as null
//	arrow  an Arrow IPC stream
//	feather  an Arrow IPC file (Feather v2)
//	parquet  Parquet, as demo writes it: Snappy, statistics, the Arrow
//	       schema stored, decimals of up to 18 digits as integers, the
//	       output's batches gathered into row groups of 128 Ki rows
//
// -o FILE (--output FILE) writes the output to FILE, in the format its
// extension names: .csv, .jsonl (.ndjson, .json), .arrows (arrow), .arrow,
// .feather or .ipc (feather), .parquet, .txt (table); another name needs
// --format, and a --format the extension contradicts is a usage error (a
// reader would take the name at its word). It is written to a hidden temporary file in FILE's directory
// and renamed to FILE once complete: an error, or an interrupt (SIGINT,
// SIGTERM), removes it and leaves FILE as it was.
//
// In table and csv output, values are written as in jsonl but without JSON
// quoting, except binary, written as DuckDB writes a BLOB: printable ASCII
// as it is, other bytes (and \, ' and ") as \xHH, so x'00ff41' is
// \x00\xFFA. Lists and structs are written as JSON text. A null, of any
// type (the type null included), is NULL in a table and an empty field in
// CSV. A table right-aligns numbers, and escapes control characters in text
// (\n, \t, \x01) so that each row stays on one line; CSV writes null as an
// empty field, like the empty string, and text as it is (quoted when it
// holds a comma, a quote or a line break).
//
// # explain
//
// explain prints every stage of the pipeline for one expression over a
// file's schema (or the demo table's): the parsed tree, the coerced tree,
// the bound tree with the dtype of every node, each optimizer rewrite in
// order, the optimized tree, the partitions by field, the columns a scan
// would read and, for a predicate, its falsifier: the expression over a
// row group's statistics that query uses to skip row groups, and the
// layout of those statistics (a struct of row_count and, per column, min,
// max and null_count).
//
// explain --substrait prints only the expression's Substrait form (see
// Substrait below), so that it can be redirected to a file.
//
// # Substrait
//
// Substrait (https://substrait.io) is a cross-engine format for query
// plans and expressions; an ExtendedExpression message carries expressions
// with the schema of their input. Package
// github.com/colexpr/colexpr/substrait converts colexpr expressions to and
// from it, keeping their meaning exactly (same values, nulls and errors)
// or refusing.
//
// explain --substrait prints the ExtendedExpression, as protobuf JSON, of
// the optimized expression — the tree query evaluates, with coercion's
// casts and constant folding applied, so another engine computes exactly
// what colexpr would. EXPR may then also be a list, written as for
// query's --select: each item is one expression of the message, with its
// AS name, or else its text, as output name. The message's base schema
// holds only the columns the expressions read, so an input with columns
// Substrait has no type for still exports an expression that does not
// read them. A construct with no Substrait form — an unsigned integer or
// f16 column, list_contains, list_element, a use of $ itself, … — is a
// user error (exit status 1) that names it and where it is.
//
// query --substrait FILE reads an ExtendedExpression, in protobuf JSON or
// binary (told apart by a leading '{'), from FILE or, when FILE is -, from
// the standard input, and binds it against the input's
// schema: a column is found by its name in the message's base schema, and
// must have the type the message says (nullability aside), so the input
// may hold more columns, in another order. What the expressions are in
// the query follows from the other flags:
//
//	--where given      the message is the select list (any number of expressions)
//	--select given     the message is the filter: it must hold one bool expression
//	neither            the filter when the message holds one bool expression,
//	                   else the select list
//	both               a usage error (exit status 2): nothing is left for the file
//
// Select-list columns are named by the message's output names, which must
// be distinct. To print a single bool expression as a column, give a
// --where (--where true keeps every row). A file that cannot be read or
// decoded, a function, option or type colexpr does not implement, a column
// the input lacks or types otherwise, is a user error (exit status 1) that
// names the file and the problem. Row-group pruning applies to a filter
// read from a file as to --where. The round trip
//
//	colexpr explain --substrait "l_quantity < 24" > f.json
//	colexpr query --substrait f.json
//
// prints the same rows as colexpr query --where "l_quantity < 24".
//
// # Row-group pruning
//
// Before scanning a Parquet file, query turns the optimized --where
// predicate into a falsifier (package github.com/colexpr/colexpr/prune),
// reads the statistics of the columns it needs from the file's footer —
// each row group's row count and, per column chunk, minimum, maximum and
// null count — and evaluates the falsifier over all row groups at once.
// The groups where it is true cannot hold a matching row and are not read.
// Comparisons, BETWEEN, IN, LIKE 'prefix%', IS [NOT] NULL, AND, OR and NOT
// over columns (and struct fields) are understood; an expression the
// falsifier cannot see through, such as l_quantity + 1 > 5, skips nothing.
//
// A statistic is used only when its meaning is certain; otherwise it is
// unknown, which can only make fewer row groups skipped, never a wrong
// skip:
//
//   - statistics arrow-go flags as computed wrongly by their writer (old
//     parquet-mr and parquet-cpp versions), and columns with no defined
//     sort order (INT96 timestamps, intervals), are unknown;
//   - the footer is read by colexpr itself, so a minimum without a maximum
//     (or the reverse) is told apart from both, and each is used alone;
//   - a bound must decode to a value of the column's type: integers in
//     range and in the same signed or unsigned order, decimals of the same
//     scale (INT32, INT64, and big-endian two's complement in fixed or
//     variable length byte arrays), dates, times and timestamps in any unit
//     (rounded outward when the column's unit is coarser), booleans, and
//     floats other than NaN (a minimum of +0.0 is read as -0.0, a maximum
//     of -0.0 as +0.0, as the Parquet spec asks); a minimum above the
//     maximum makes both unknown;
//   - strings and binaries: writers may cut long values short. A minimum
//     cut short is still a lower bound and is used when it is valid UTF-8;
//     a maximum is used only when the footer marks it exact, or when the
//     file was written by arrow-go ("parquet-go version V", V no newer than
//     the arrow-go colexpr is built with), which writes whole values and
//     leaves out a statistic longer than its limit.
//
// The demo command writes files to try it on: sorted by a column, in many
// row groups, each group holds a narrow range of that column.
//
// # demo
//
// demo writes the demo table to a Parquet file with statistics. --sort
// orders the rows by a column (any integer, decimal, date or string
// column; equal values keep the table's order); --row-groups N writes
// exactly N row groups of rows/N rows (give or take one), --row-group-size
// N row groups of N rows. The rows are generated twice when sorted: once
// to find the order, keeping in memory only the order and the sort column
// (16 bytes a row or more, so at most demo.MaxSortRows rows are sorted),
// then again in that order, batch by batch.
//
// # serve
//
// serve runs the playground (package github.com/colexpr/colexpr/playground)
// on --addr (default 127.0.0.1:8080): a page that shows, as an expression
// is typed, what explain and query print for it over FILE or the demo
// table. FILE is the only file it reads.
//
// # Errors and exit status
//
// A bad expression is shown with a caret under the error, an unknown
// column with the closest names of the schema, a runtime error (overflow,
// division by zero, a bad cast) with the row of the file it happened at,
// counting from 1. Exit status: 0 on success, 1 for a user error (a bad
// expression, a bad file, a runtime error), 2 for a usage error (an
// unknown command or flag), 3 for an internal error, which is a bug. When
// an error happens after rows were written, the message says how many.
//
// A progress bar is drawn on stderr when it is a terminal (not a file,
// a pipe or /dev/null) and a scan takes longer than a second: the fraction
// of the input's bytes read and the rows read, and of several files, the
// file it is at. demo draws the same bar for the rows
// it writes, after a spinner while it sorts them (--sort).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/term"

	"github.com/colexpr/colexpr/scan"
)

// Exit statuses.
const (
	exitOK       = 0
	exitUser     = 1
	exitUsage    = 2
	exitInternal = 3
)

func main() {
	// Unless the environment says otherwise, garbage is collected only as
	// the process nears softMemoryLimit, not each time the heap doubles.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(-1)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// softMemoryLimit is the memory the Go runtime tries to stay under by
// collecting garbage as it nears it (runtime/debug's SetMemoryLimit). A
// scan keeps a few batches per thread, so its live memory is small and
// bounded; collecting only near the limit, rather than whenever the heap
// doubles (GOGC=100), saves the collector's work on short queries (Q6 over
// 6M rows at 2 threads: 89 -> 83 ms) and bounds the peak on wide ones,
// where doubling would reach 230 MB. It is soft: a query that needs more still runs.
const softMemoryLimit = 112 << 20

// usageError is a mistake in the command line itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// errHelp is returned by a command's flag parsing for -h.
var errHelp = errors.New("help requested")

// command is one subcommand.
type command struct {
	name     string
	synopsis string // the command line, without "colexpr"
	summary  string
	usage    string
	run      func(env *env, args []string) error
}

// env is what a command runs with.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTerminal reports whether stderr is a terminal (for the progress bar).
	isTerminal bool
}

var commands []*command

func init() {
	commands = []*command{queryCommand, explainCommand, schemaCommand, demoCommand, serveCommand}
}

// run runs the colexpr command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "colexpr: internal error (a bug, please report it): %v\n%s", p, debug.Stack())
			status = exitInternal
		}
	}()
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, isTerminal: isTerminal(stderr)}
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage())
		return exitUsage
	}
	name := args[0]
	switch name {
	case "--version", "-version", "version":
		fmt.Fprintf(stdout, "colexpr %s\n", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if args[1] == "help" {
				fmt.Fprint(stdout, helpUsage)
				return exitOK
			}
			if c := lookup(args[1]); c != nil {
				fmt.Fprint(stdout, c.usage)
				return exitOK
			}
			fmt.Fprintf(stderr, "colexpr help: unknown command %q\n\n%s", args[1], mainUsage())
			return exitUsage
		}
		fmt.Fprint(stdout, mainUsage())
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "colexpr: unknown command %q\n\n%s", name, mainUsage())
		return exitUsage
	}
	err := c.run(e, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, scan.ErrInternal):
		fmt.Fprintf(stderr, "colexpr %s: %v\n", c.name, err)
		return exitInternal
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, c.usage)
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "colexpr %s: %s\nRun 'colexpr help %s' for usage.\n", c.name, ue.msg, c.name)
		return exitUsage
	default:
		msg := err.Error()
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprintf(stderr, "colexpr %s: %s", c.name, msg)
		return exitUser
	}
}

// version is the module's version from the build information, with the
// revision it was built from when the build recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" && v == "(devel)" {
		v += fmt.Sprintf(" (revision %.12s%s)", rev, modified)
	}
	return v
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// helpUsage is what 'colexpr help help' prints.
const helpUsage = `Usage: colexpr help [COMMAND]

Without COMMAND, lists the commands; with one, prints its usage and flags
(as 'colexpr COMMAND --help' does).
`

func mainUsage() string {
	var b strings.Builder
	b.WriteString("colexpr evaluates typed expressions over Parquet, Arrow and CSV files.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  colexpr %s\n        %s\n", c.synopsis, c.summary)
	}
	b.WriteString("  colexpr help [COMMAND]\n        show this text, or a command's usage\n")
	b.WriteString("  colexpr --version\n        print the version\n")
	b.WriteString("\nWithout FILE, query, explain and schema use the built-in demo table (TPC-H lineitem-like).\n")
	b.WriteString("Run 'colexpr help COMMAND' for a command's flags.\n")
	return b.String()
}

// isTerminal reports whether w is a terminal. A character device is not
// enough: /dev/null is one.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
