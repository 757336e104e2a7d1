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

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver
)

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "DuckDB's threads setting (SET threads = N)")
	version := flag.Bool("version", false, "print DuckDB's version (SELECT version()) and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: duckquery [-threads N] SQL...\n       duckquery -version\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*threads, *version, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "duckquery:", err)
		os.Exit(1)
	}
}

func run(threads int, version bool, stmts []string) error {
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
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}
