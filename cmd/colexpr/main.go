// Command colexpr filters, projects and explains colexpr expressions over
// Parquet, Arrow IPC and CSV files, or over a built-in demo table.
//
// Usage:
//
//	colexpr query   [--where EXPR] [--select LIST] [--limit N] [--format table|csv|jsonl|arrow]
//	                [--threads N] [--batch-size N] [--demo-rows N] [FILE]
//	colexpr explain [--schema-of FILE] EXPR
//	colexpr schema  [FILE]
//	colexpr demo    [--rows N] [--seed S] [--row-group-size N] --out FILE.parquet
//	colexpr help
//
// FILE is read according to its extension: .parquet, .arrow or .feather (an
// Arrow IPC file), .arrows (an Arrow IPC stream) or .csv (a header row, then
// rows whose types are inferred from the first 1000 rows: i64 when every
// value is an integer, f64 when every one is a number, bool for true/false,
// date for YYYY-MM-DD, utf8 otherwise; an empty field is null). A column
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
// column without AS is named by its expression as written. Without
// --select, every column of the input is printed.
//
// Only the columns the expressions use are read from the file. Batches of
// rows are evaluated in parallel on --threads goroutines (default: the
// number of CPUs) and printed in input order; memory stays bounded by the
// batch size, not the file size. --limit stops after N rows and stops
// reading.
//
// Output formats:
//
//	table  aligned columns for a terminal; values longer than 40 characters are
//	       cut with …; column widths come from the first 1024 rows, and a later
//	       wider value is cut to its column's width; a row count ends the table
//	csv    RFC 4180, a header row, null as an empty field
//	jsonl  one JSON object per row, keys in select order: integers and floats
//	       as numbers (NaN and infinities as the strings "NaN", "Infinity",
//	       "-Infinity"), decimals as strings ("0.05"), dates as "YYYY-MM-DD",
//	       times as "HH:MM:SS[.fraction]", timestamps as RFC 3339 (in their
//	       time zone, or UTC with Z when they have none), binary as base64,
//	       lists as arrays, structs as objects, null as null
//	arrow  an Arrow IPC stream
//
// In table and csv output, values are written as in jsonl but without JSON
// quoting; lists and structs are written as JSON text. A table shows null
// as NULL; CSV writes it as an empty field, like the empty string.
//
// # explain
//
// explain prints every stage of the pipeline for one expression over a
// file's schema (or the demo table's): the parsed tree, the coerced tree,
// the bound tree with the dtype of every node, each optimizer rewrite in
// order, the optimized tree, the partitions by field and the columns a scan
// would read.
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
// A progress bar is drawn on stderr when it is a terminal and a scan takes
// longer than a second.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit statuses.
const (
	exitOK       = 0
	exitUser     = 1
	exitUsage    = 2
	exitInternal = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a mistake in the command line itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// helpRequested is returned by a command's flag parsing for -h.
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
	commands = []*command{queryCommand, explainCommand, schemaCommand, demoCommand}
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
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
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
	var ie *internalError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "colexpr %s: %v", c.name, ie)
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

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func mainUsage() string {
	var b strings.Builder
	b.WriteString("colexpr evaluates typed expressions over Parquet, Arrow and CSV files.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  colexpr %s\n        %s\n", c.synopsis, c.summary)
	}
	b.WriteString("  colexpr help [COMMAND]\n        show this text, or a command's usage\n")
	b.WriteString("\nWithout FILE, query, explain and schema use the built-in demo table (TPC-H lineitem-like).\n")
	b.WriteString("Run 'colexpr help COMMAND' for a command's flags.\n")
	return b.String()
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
