package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
)

// Datasets: many files, globs, directories, Hive partitions, stdin and
// output files, through the binary.

// writeParquetJSON writes a Parquet file of the given batches (JSON rows),
// one row group each.
func writeParquetJSON(t testing.TB, path string, fields []arrow.Field, batches ...string) {
	t.Helper()
	sc := arrow.NewSchema(fields, nil)
	var recs []arrow.RecordBatch
	for _, b := range batches {
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer rec.Release()
		recs = append(recs, rec)
	}
	rr, err := array.NewRecordReader(sc, recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := scan.WriteParquet(path, rr, scan.ParquetOptions{}); err != nil {
		t.Fatal(err)
	}
}

func nullable(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// writeDatasetFixtures writes, under dir: three/ (three Parquet files, b
// with an extra column and a wider id), hive/ (year=2023..2024/month=01..06,
// twelve files), and files for the errors: a column of another type, a
// directory without data files, conflicting and mixed partitions, Parquet
// bytes named .csv and with no extension.
func writeDatasetFixtures(t testing.TB, dir string) {
	i32, i64, f64, str := arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String
	three := filepath.Join(dir, "three")
	writeParquetJSON(t, filepath.Join(three, "a.parquet"), []arrow.Field{nullable("id", i32), nullable("name", str)},
		`[{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]`)
	writeParquetJSON(t, filepath.Join(three, "b.parquet"), []arrow.Field{nullable("id", i64), nullable("name", str), nullable("score", f64)},
		`[{"id": 3, "name": "three", "score": 0.5}]`, `[{"id": 4000000000, "name": "big", "score": null}]`)
	writeParquetJSON(t, filepath.Join(three, "c.parquet"), []arrow.Field{nullable("name", str), nullable("id", i32)},
		`[{"name": "five", "id": 5}]`)
	for _, y := range []int{2023, 2024} {
		for m := 1; m <= 6; m++ {
			p := filepath.Join(dir, "hive", fmt.Sprintf("year=%d", y), fmt.Sprintf("month=%02d", m), "part-0.parquet")
			writeParquetJSON(t, p, []arrow.Field{nullable("amount", i64)}, fmt.Sprintf(`[{"amount": %d}, {"amount": %d}]`, m*10, m*10+y%10))
		}
	}
	writeParquetJSON(t, filepath.Join(dir, "textid", "d.parquet"), []arrow.Field{nullable("id", str)}, `[{"id": "x"}]`)
	os.MkdirAll(filepath.Join(dir, "nodata", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "nodata", "sub", "notes.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "nodata", "_SUCCESS"), nil, 0o644)
	one := []arrow.Field{nullable("v", i64)}
	writeParquetJSON(t, filepath.Join(dir, "conflict", "k=1", "k=2", "x.parquet"), one, `[{"v": 1}]`)
	writeParquetJSON(t, filepath.Join(dir, "mixed", "k=1", "x.parquet"), one, `[{"v": 1}]`)
	writeParquetJSON(t, filepath.Join(dir, "mixed", "other", "y.parquet"), one, `[{"v": 2}]`)
	pq, err := os.ReadFile(filepath.Join(three, "a.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "parquet_named.csv"), pq, 0o644)
	os.WriteFile(filepath.Join(dir, "noextension"), pq, 0o644)
}

func init() {
	cliCases = append(cliCases, []cliCase{
		// Several files as one table, by name: a column a file lacks is
		// null; i32 and i64 ids read as i64.
		{name: "dataset_glob", args: []string{"query", "--format", "csv", "$DIR/three/*.parquet"}},
		{name: "dataset_directory", args: []string{"query", "--stats", "--where", "id BETWEEN 2 AND 3", "$DIR/three"}},
		{name: "dataset_files", args: []string{"query", "--format", "jsonl", "$DIR/three/c.parquet", "$DIR/three/a.parquet"}},
		{name: "dataset_schema", args: []string{"schema", "$DIR/three"}},
		{name: "dataset_schema_origins", args: []string{"schema", "--origins", "$DIR/three/[ab].parquet"}},
		// Hive partitions: typed columns, whole files skipped unopened.
		{name: "hive_schema", args: []string{"schema", "--origins", "$DIR/hive/year=2024/**/*.parquet"}},
		{name: "hive_pruned", args: []string{"query", "--stats", "--format", "csv", "--where", "year = 2024 AND month <= 2", "$DIR/hive"}},
		{name: "hive_data_and_partition", args: []string{"query", "--stats", "--where", "month IN (3, 4) AND amount > 30", "--select", "year, month, amount", "$DIR/hive"}},
		{name: "hive_none_match", args: []string{"query", "--stats", "--where", "year > 2030", "$DIR/hive"}},
		{name: "hive_no_hive", args: []string{"schema", "--no-hive", "$DIR/hive/year=2024"}},
		{name: "dataset_mixed_formats", args: []string{"schema", "--origins", "$DIR/fixture.csv", "$DIR/fixture.arrows", "$DIR/three/a.parquet"}},
		{name: "dataset_mixed_query", args: []string{"query", "--format", "jsonl", "--where", "id < 3", "--select", "id, small, name, tags", "$DIR/fixture.csv", "$DIR/fixture.arrows", "$DIR/three/a.parquet"}},
		{name: "hive_no_prune", args: []string{"query", "--stats", "--no-prune", "--where", "year = 2023 AND month = 6", "--select", "amount", "$DIR/hive"}},
		// Formats from the bytes; the standard input.
		{name: "sniff_no_extension", args: []string{"query", "--format", "csv", "$DIR/noextension"}},
		{name: "stdin_csv", args: []string{"query", "--format", "jsonl", "--where", "id > 3", "-"}, stdin: "$DIR/fixture.csv"},
		{name: "stdin_arrows", args: []string{"query", "--format", "csv", "--select", "id, name", "-"}, stdin: "$DIR/fixture.arrows"},
		{name: "stdin_schema", args: []string{"schema", "-"}, stdin: "$DIR/fixture.csv"},
		{name: "err_stdin_parquet", args: []string{"query", "-"}, stdin: "$DIR/fixture.parquet", exit: 1},
		{name: "err_stdin_twice", args: []string{"query", "--substrait", "-", "-"}, exit: 2},
		{name: "err_stdin_and_file", args: []string{"query", "-", "$DIR/fixture.csv"}, exit: 1},
		// Bad inputs: each error names the path.
		{name: "err_dataset_types", args: []string{"query", "$DIR/three", "$DIR/textid/d.parquet"}, exit: 1},
		{name: "err_empty_glob", args: []string{"query", "$DIR/three/*.arrow"}, exit: 1},
		{name: "err_no_data_files", args: []string{"query", "$DIR/nodata"}, exit: 1},
		{name: "err_hive_conflict", args: []string{"query", "$DIR/conflict"}, exit: 1},
		{name: "err_hive_mixed", args: []string{"schema", "$DIR/mixed"}, exit: 1},
		{name: "err_parquet_named_csv", args: []string{"query", "$DIR/parquet_named.csv"}, exit: 1},
		{name: "err_bad_glob", args: []string{"query", "$DIR/three/[a.parquet"}, exit: 1},
		// Output files.
		{name: "usage_output_extension", args: []string{"query", "-o", "$DIR/out.unknown"}, exit: 2},
		{name: "help_schema", args: []string{"help", "schema"}},
		{name: "usage_output_empty", args: []string{"query", "--output", ""}, exit: 2},
		{name: "usage_output_format_mismatch", args: []string{"query", "--format", "csv", "-o", "$DIR/out.parquet"}, exit: 2},
	}...)
}

// TestOutputFiles writes a query's output to a file in every format, by
// extension and by --format, and checks what the file holds: read back
// by colexpr, the same rows as printed to stdout.
func TestOutputFiles(t *testing.T) {
	bin := colexprBinary(t)
	dir, _ := fixtureFiles(t)
	out := t.TempDir()
	args := []string{"--where", "id <> 3", "--select", "id, name, price * 2 AS p2, day, tags, pt", filepath.Join(dir, "fixture.parquet")}
	want, err := exec.Command(bin, append([]string{"query", "--format", "jsonl"}, args...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, format string }{
		{"x.parquet", ""}, {"x.arrow", ""}, {"x.arrows", ""}, {"x.feather", ""},
		{"y", "parquet"}, {"z", "arrow"}, {"w", "feather"},
	} {
		t.Run(c.name+c.format, func(t *testing.T) {
			path := filepath.Join(out, c.name)
			run := append([]string{"query", "-o", path}, args...)
			if c.format != "" {
				run = append(run, "--format", c.format)
			}
			if msg, err := exec.Command(bin, run...).CombinedOutput(); err != nil || len(msg) > 0 {
				t.Fatalf("%v: %s", err, msg)
			}
			got, err := exec.Command(bin, "query", "--format", "jsonl", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("read back:\n%s\nwant\n%s", got, want)
			}
		})
	}
	// Text formats are what stdout gets.
	for _, format := range []string{"csv", "jsonl", "table"} {
		path := filepath.Join(out, "t."+map[string]string{"csv": "csv", "jsonl": "jsonl", "table": "txt"}[format])
		if msg, err := exec.Command(bin, append([]string{"query", "--output", path}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", format, err, msg)
		}
		stdout, _ := exec.Command(bin, append([]string{"query", "--format", format}, args...)...).Output()
		if got, _ := os.ReadFile(path); !bytes.Equal(got, stdout) {
			t.Errorf("%s: the file holds\n%s\nstdout has\n%s", format, got, stdout)
		}
	}
}

// TestOutputErrorLeavesNoFile checks that a query that fails after rows
// were written leaves neither the target nor a temporary file, and an
// existing target as it was.
func TestOutputErrorLeavesNoFile(t *testing.T) {
	bin := colexprBinary(t)
	dir, _ := fixtureFiles(t)
	for _, name := range []string{"new.parquet", "existing.csv"} {
		out := t.TempDir()
		path := filepath.Join(out, name)
		if name == "existing.csv" {
			os.WriteFile(path, []byte("before\n"), 0o644)
		}
		cmd := exec.Command(bin, "query", "--batch-size", "1", "--threads", "1", "--select", "id, big * 1000 AS k", "-o", path, filepath.Join(dir, "fixture.parquet"))
		msg, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("%s: %v, want exit status 1\n%s", name, err, msg)
		}
		if !strings.Contains(string(msg), path+" was not written") {
			t.Errorf("%s: the message does not say the file was not written:\n%s", name, msg)
		}
		entries, _ := os.ReadDir(out)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		want := ""
		if name == "existing.csv" {
			want = name
			if b, _ := os.ReadFile(path); string(b) != "before\n" {
				t.Errorf("the existing file was changed: %q", b)
			}
		}
		if strings.Join(names, " ") != want {
			t.Errorf("%s: the directory holds %v, want %q", name, names, want)
		}
	}
}

func TestVersion(t *testing.T) {
	bin := colexprBinary(t)
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(out), "colexpr ") || strings.Count(string(out), "\n") != 1 {
			t.Errorf("%s: %q, want one line: colexpr VERSION", arg, out)
		}
	}
}

// TestDatasetQueryReleasesMemory runs queries over datasets into output
// files with a checked allocator: every buffer is released, also when the
// query fails after rows were written.
func TestDatasetQueryReleasesMemory(t *testing.T) {
	dir, _ := fixtureFiles(t)
	out := t.TempDir()
	for _, c := range []struct {
		name   string
		o      queryOptions
		failed bool
	}{
		{"union to parquet", queryOptions{files: []string{filepath.Join(dir, "three")}, format: "parquet", output: filepath.Join(out, "a.parquet")}, false},
		{"hive to feather", queryOptions{files: []string{filepath.Join(dir, "hive")}, where: "month > 4 AND amount > 0", format: "feather", output: filepath.Join(out, "b.arrow")}, false},
		{"hive to jsonl", queryOptions{files: []string{filepath.Join(dir, "hive", "**", "*.parquet")}, selects: "amount * 2 AS a2, year", format: "jsonl", output: filepath.Join(out, "c.jsonl")}, false},
		{"error mid-write", queryOptions{files: []string{filepath.Join(dir, "three")}, selects: "CAST(id AS i32)", format: "parquet", output: filepath.Join(out, "d.parquet")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			c.o.threads, c.o.batchSize, c.o.limit = 2, 1, -1
			var stderr bytes.Buffer
			err := query(&env{stdout: &bytes.Buffer{}, stderr: &stderr}, mem, c.o)
			if (err != nil) != c.failed {
				t.Fatalf("error %v, want failure %v", err, c.failed)
			}
			if _, statErr := os.Stat(c.o.output); (statErr == nil) == c.failed {
				t.Errorf("the output file exists: %v, want %v", statErr == nil, !c.failed)
			}
		})
	}
}

// TestOutputInterrupted interrupts a query writing to a file while it
// waits for more of its standard input: the temporary file is removed at
// once, and no file is left under the target's name.
func TestOutputInterrupted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT")
	}
	bin := colexprBinary(t)
	out := t.TempDir()
	target := filepath.Join(out, "out.csv")
	cmd := exec.Command(bin, "query", "-o", target, "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// More rows than the types are inferred from: the query starts, and
	// then waits for the rest of its input.
	fmt.Fprint(in, "n\n"+strings.Repeat("1\n", scan.CSVInferRows+10))
	entries := func() []string {
		es, _ := os.ReadDir(out)
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	waitFor := func(what string, cond func([]string) bool) {
		deadline := time.Now().Add(20 * time.Second)
		for !cond(entries()) {
			if time.Now().After(deadline) {
				t.Fatalf("waited in vain for %s; the directory holds %v", what, entries())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("the temporary file", func(names []string) bool { return len(names) == 1 && strings.HasPrefix(names[0], ".out.csv.") })
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitFor("the temporary file to go", func(names []string) bool { return len(names) == 0 })
	in.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("%v, want exit status 1\n%s", err, stderr.String())
	}
	if names := entries(); len(names) != 0 {
		t.Errorf("the directory holds %v, want nothing", names)
	}
	if !strings.Contains(stderr.String(), target+" was not written") {
		t.Errorf("stderr does not say the file was not written:\n%s", stderr.String())
	}
}

// TestProgressDrawDataset checks the bar of a dataset's scan: the file it
// is at and the bytes read.
func TestProgressDrawDataset(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, fraction: func() float64 { return 0.25 }, rows: func() int64 { return 1234 },
		position: func() scan.Position {
			return scan.Position{File: 3, Files: 12, Bytes: 1_500_000, TotalBytes: 6_000_000}
		}}
	p.draw(1500 * time.Millisecond)
	want := "\r[=======                       ]  25% 1,234 rows, file 3 of 12, 1.5 MB of 6.0 MB 1.5s\x1b[K"
	if buf.String() != want {
		t.Errorf("draws %q, want %q", buf.String(), want)
	}
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 123_456_789: "123.5 MB", 5_000_000_000_000: "5.0 TB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
