package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver
)

// Duck is an in-memory DuckDB database limited to one thread, with one
// connection, so that every statement runs on the same single-threaded
// session.
type Duck struct {
	DB  *sql.DB
	dir string
}

// OpenDuck opens an in-memory DuckDB database and sets threads=1.
func OpenDuck() (*Duck, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, fmt.Errorf("bench: open duckdb: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if _, err := db.Exec("SET threads = 1"); err != nil {
		db.Close()
		return nil, fmt.Errorf("bench: duckdb: SET threads = 1: %w", err)
	}
	dir, err := os.MkdirTemp("", "colexpr-bench-")
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Duck{DB: db, dir: dir}, nil
}

// Close closes the database and removes its temporary files.
func (d *Duck) Close() error {
	err := d.DB.Close()
	os.RemoveAll(d.dir)
	return err
}

// Load creates the table name from record batches of one schema. The batches
// go through a Parquet file (written with arrow-go, read by DuckDB's
// read_parquet), which keeps every Arrow type DuckDB has: unsigned integers,
// decimals, dates, lists, structs, NaN and infinities; the table then lives in
// DuckDB's own storage, so scans measure DuckDB reading its native format.
// Row order is kept: DuckDB preserves insertion order (its
// preserve_insertion_order setting is on by default), so SELECT … FROM name
// returns the rows in the batches' order.
func (d *Duck) Load(name string, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	path := filepath.Join(d.dir, name+".parquet")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := pqarrow.NewFileWriter(schema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		return fmt.Errorf("bench: parquet writer for %s: %w", name, err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			w.Close()
			return fmt.Errorf("bench: write %s: %w", name, err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("bench: close %s: %w", name, err)
	}
	q := fmt.Sprintf(`CREATE OR REPLACE TABLE %q AS SELECT * FROM read_parquet('%s')`, name, path)
	if _, err := d.DB.Exec(q); err != nil {
		return fmt.Errorf("bench: duckdb load %s: %w", name, err)
	}
	return os.Remove(path)
}

// Query is a prepared DuckDB statement, planned once.
type Query struct {
	stmt *sql.Stmt
	SQL  string
}

// Prepare plans q once; Run executes it.
func (d *Duck) Prepare(q string) (*Query, error) {
	stmt, err := d.DB.Prepare(q)
	if err != nil {
		return nil, fmt.Errorf("bench: duckdb prepare %q: %w", q, err)
	}
	return &Query{stmt: stmt, SQL: q}, nil
}

// Run executes the query. DuckDB materializes the whole result inside the
// call (duckdb-go executes through the pending-result interface, which
// computes every row before returning); unless dig is non-nil the rows are not
// converted to Go values, so the time is DuckDB's. With dig, every value of
// the first column is added to it.
func (q *Query) Run(dig *Digest) error {
	rows, err := q.stmt.QueryContext(context.Background())
	if err != nil {
		return err
	}
	if dig != nil {
		for rows.Next() {
			var v any
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			if err := dig.AddValue(v); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
	}
	return rows.Close()
}

// Close frees the statement.
func (q *Query) Close() error { return q.stmt.Close() }
