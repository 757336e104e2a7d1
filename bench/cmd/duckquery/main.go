// Command duckquery runs SQL statements, in order, in a fresh in-memory
// DuckDB database limited to a number of threads. It is DuckDB's side of
// cmd/scancompare: a whole process, built once, that starts, runs a query and
// exits, as `colexpr query` does. A statement's output is whatever it writes
// itself; to print a query's rows, have DuckDB write them:
//
//	go run ./cmd/duckquery -threads 2 \
//	  "COPY (SELECT l_orderkey FROM read_parquet('demo.parquet') WHERE l_quantity < 1.5) TO '/dev/stdout' (FORMAT csv, HEADER true)"
//
// DuckDB opens /dev/stdout as a file of its own: when standard output is a
// regular file, give USE_TMP_FILE false (else DuckDB writes a temporary file
// and renames it) and expect the output from the file's start. Rows a
// statement returns are not read; -version prints DuckDB's version.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver
)

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "DuckDB's threads setting (SET threads = N)")
	version := flag.Bool("version", false, "print DuckDB's version (SELECT version()) and exit")
	print := flag.Bool("print", false, "print each statement's rows, tab-separated with a header of column names and types (to check DuckDB's results and typing)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: duckquery [-threads N] SQL...\n       duckquery -version\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*threads, *version, *print, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "duckquery:", err)
		os.Exit(1)
	}
}

func run(threads int, version, print bool, stmts []string) error {
	if !version && len(stmts) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if threads < 1 {
		return fmt.Errorf("-threads must be at least 1, got %d", threads)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	// One connection: every statement runs in the same session.
	db.SetMaxOpenConns(1)
	if version {
		var v string
		if err := db.QueryRow("SELECT version()").Scan(&v); err != nil {
			return err
		}
		fmt.Println(v)
		return nil
	}
	if _, err := db.Exec(fmt.Sprintf("SET threads = %d", threads)); err != nil {
		return fmt.Errorf("SET threads = %d: %w", threads, err)
	}
	for _, q := range stmts {
		if print {
			if err := printRows(db, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
			continue
		}
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// printRows runs q and prints its rows: a header of name::TYPE columns,
// then one line per row, NULL for nulls, tab-separated.
func printRows(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	head := make([]string, len(types))
	for i, t := range types {
		head[i] = t.Name() + "::" + t.DatabaseTypeName()
	}
	fmt.Println(strings.Join(head, "\t"))
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = fmt.Sprint(v)
			}
		}
		fmt.Println(strings.Join(cells, "\t"))
	}
	return rows.Err()
}
