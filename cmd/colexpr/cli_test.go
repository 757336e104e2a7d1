package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
	"github.com/colexpr/colexpr/scan"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// End-to-end tests: the colexpr binary is built once, run on fixture files
// and the demo table, and its exit status, stdout and stderr compared with
// golden files under testdata/cli. Run `go test ./cmd/colexpr -update` to
// rewrite them after an intended change.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range []string{binDir, fixtureDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	os.Exit(code)
}

// colexprBinary builds colexpr (once per test run) and returns its path.
func colexprBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "colexpr-test-*")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "colexpr")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

var (
	fixturesOnce sync.Once
	fixtureDir   string
	fixtures     map[string]string
)

// fixtureFiles writes the fixture files once per test run.
func fixtureFiles(t *testing.T) (string, map[string]string) {
	t.Helper()
	fixturesOnce.Do(func() {
		d, err := os.MkdirTemp("", "colexpr-fixtures-*")
		if err != nil {
			t.Fatal(err)
		}
		fixtureDir = d
		fixtures = writeFixtures(t, d)
		// A file that is not Parquet at all, and one cut in half.
		os.WriteFile(filepath.Join(d, "garbage.parquet"), []byte("this is not a parquet file, not at all"), 0o644)
		whole, _ := os.ReadFile(fixtures[".parquet"])
		os.WriteFile(filepath.Join(d, "truncated.parquet"), whole[:len(whole)/2], 0o644)
		// Pages overwritten with junk, the footer intact: the file ends
		// with the footer, its length (4 bytes) and PAR1.
		junk := append([]byte(nil), whole...)
		footer := int(binary.LittleEndian.Uint32(junk[len(junk)-8:]))
		for i := 4; i < len(junk)-8-footer; i++ {
			junk[i] = byte(i * 7)
		}
		os.WriteFile(filepath.Join(d, "junkpages.parquet"), junk, 0o644)
		os.WriteFile(filepath.Join(d, "garbage.arrows"), []byte("\xff\xff\xff\xffnot an arrow stream at all"), 0o644)
		os.WriteFile(filepath.Join(d, "ragged.csv"), []byte("a,b\n1,2\n3\n"), 0o644)
		// An integer column for longer than the rows types are inferred
		// from, then a word.
		late := "n,s\n" + strings.Repeat("1,x\n", scan.CSVInferRows) + "oops,y\n"
		os.WriteFile(filepath.Join(d, "latebad.csv"), []byte(late), 0o644)
		os.WriteFile(filepath.Join(d, "notes.txt"), []byte("hello"), 0o644)
		os.WriteFile(filepath.Join(d, "typed.csv"), []byte("n,t,amount\n1,2020-01-01 10:00:00,1.50\n2,2020-01-02T11:30:00.25,x\n"), 0o644)
		writeOddFile(t, filepath.Join(d, "odd.arrow"))
		os.WriteFile(filepath.Join(d, "bom.csv"), []byte("\ufeffa, b \n1,x\n"), 0o644)
		writeUnsignedFile(t, filepath.Join(d, "unsigned.arrow"))
		writeSubstraitFixtures(t, d)
		writePlanFixtures(t, d)
		writeDatasetFixtures(t, d)
		writePagesFixture(t, d)
		writeDictionaryFixtures(t, d)
	})
	if fixtures == nil {
		t.Fatal("the fixture files could not be written")
	}
	return fixtureDir, fixtures
}

// cliCase is one run of the binary: its arguments ($DIR is the fixture
// directory) and expected exit status; the golden file holds the rest.
type cliCase struct {
	name string
	args []string
	exit int
	// stdinless cases only; arrow output is decoded into JSON for the golden
	arrowOut bool
	// stdin is a file ($DIR replaced) fed to the standard input; none when
	// empty.
	stdin string
}

var cliCases = []cliCase{
	// explain --schema-of takes the CSV flags query and schema take.
	{name: "explain_csv_type", args: []string{"explain", "--schema-of", "$DIR/fixture.csv", "--csv-type", "id=decimal(12,2)", "id > 2"}},
	// Every input format, the same query, as JSON lines.
	{name: "input_parquet", args: []string{"query", "--format", "jsonl", "$DIR/fixture.parquet"}},
	{name: "input_arrow", args: []string{"query", "--format", "jsonl", "$DIR/fixture.arrow"}},
	{name: "input_arrows", args: []string{"query", "--format", "jsonl", "$DIR/fixture.arrows"}},
	{name: "input_csv", args: []string{"query", "--format", "jsonl", "$DIR/fixture.csv"}},
	{name: "schema_csv", args: []string{"schema", "$DIR/fixture.csv"}},
	{name: "schema_parquet", args: []string{"schema", "$DIR/fixture.parquet"}},
	{name: "schema_demo", args: []string{"schema"}},
	{name: "bom_csv", args: []string{"query", "--format", "jsonl", "--select", "a, b", "$DIR/bom.csv"}},
	// Columns the optimizer removes are not read, and the query still runs.
	{name: "removed_is_not_null", args: []string{"query", "--where", "l_comment IS NOT NULL", "--select", "l_orderkey", "--limit", "1", "--demo-rows", "100"}},
	{name: "removed_coalesce", args: []string{"query", "--select", "coalesce(id, 1) IS NULL AS r", "--format", "csv", "$DIR/fixture.parquet"}},
	{name: "removed_case", args: []string{"query", "--where", "CASE WHEN 1 = 2 THEN small > 3 ELSE true END", "--select", "id", "--format", "csv", "$DIR/fixture.parquet"}},
	{name: "removed_or_true", args: []string{"query", "--where", "x * 0 = 1 OR true", "--select", "id, name", "--format", "csv", "$DIR/fixture.csv"}},
	{name: "removed_all", args: []string{"query", "--select", "1 + 1 AS two", "--format", "csv", "--stats", "$DIR/fixture.parquet"}},
	{name: "removed_all_false", args: []string{"query", "--where", "id > 1 AND false", "--format", "csv", "--stats", "$DIR/fixture.parquet"}},

	// Every output format.
	{name: "output_table", args: []string{"query", "$DIR/fixture.parquet"}},
	{name: "output_csv", args: []string{"query", "--format", "csv", "$DIR/fixture.parquet"}},
	{name: "output_jsonl", args: []string{"query", "--format=jsonl", "--where", "id >= 2", "--select", "id, price, price * 2 AS double, name", "$DIR/fixture.parquet"}},
	// Printed as DuckDB prints them: a null of type null as any null,
	// binary as \x00\xFF (base64 in JSON), a timestamp without a zone
	// without a Z.
	{name: "output_duckdb_csv", args: []string{"query", "--format", "csv", "--limit", "1", "--select", duckdbSelect, "$DIR/fixture.parquet"}},
	{name: "output_duckdb_table", args: []string{"query", "--limit", "1", "--select", duckdbSelect, "$DIR/fixture.parquet"}},
	{name: "output_duckdb_jsonl", args: []string{"query", "--format", "jsonl", "--limit", "1", "--select", duckdbSelect, "$DIR/fixture.parquet"}},
	{name: "output_arrow", args: []string{"query", "--format", "arrow", "--select", "id, tags, pt", "$DIR/fixture.arrow"}, arrowOut: true},

	// Filtering, projecting, limits.
	{name: "select_where", args: []string{"query", "--where", "small IS NOT NULL AND big > 0", "--select", "id, big + small AS total, CAST(id AS utf8) AS label, pt.a", "$DIR/fixture.arrows"}},
	{name: "select_commas", args: []string{"query", "--format", "csv", "--select", "coalesce(small, -1) AS s, 'a, b' AS \"odd, name\", {k: id, v: 'x'} AS packed", "$DIR/fixture.parquet"}},
	{name: "limit", args: []string{"query", "--limit", "2", "--select", "id", "$DIR/fixture.parquet"}},
	{name: "limit_zero", args: []string{"query", "--limit", "0", "--format", "csv", "--select", "id", "$DIR/fixture.parquet"}},
	{name: "no_rows", args: []string{"query", "--where", "id > 100", "$DIR/fixture.csv"}},
	{name: "demo_query", args: []string{"query", "--demo-rows", "2000", "--where", "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07", "--select", "l_orderkey, l_linenumber, l_quantity, l_discount, l_shipmode, l_tags", "--limit", "8"}},
	// --limit over batches that each keep some rows (the demo table has
	// about 13 matches per 100 rows): fewer than the first batch keeps,
	// and more, spanning batches.
	{name: "limit_first_batch", args: []string{"query", "--demo-rows", "5000", "--batch-size", "1000", "--where", "l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL')", "--select", "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue, l_shipdate", "--limit", "5"}},
	{name: "limit_spanning_batches", args: []string{"query", "--demo-rows", "5000", "--batch-size", "100", "--threads", "3", "--where", "l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL')", "--select", "l_orderkey, l_shipmode", "--limit", "40"}},
	{name: "demo_jsonl", args: []string{"query", "--demo-rows", "3", "--format", "jsonl"}},

	// Row groups skipped by their statistics (the fixture's row groups hold
	// ids 1–4 and 5–6).
	{name: "stats_skip", args: []string{"query", "--stats", "--where", "id > 4", "--select", "id, name", "$DIR/fixture.parquet"}},
	{name: "stats_no_prune", args: []string{"query", "--stats", "--no-prune", "--where", "id > 4", "--select", "id, name", "$DIR/fixture.parquet"}},
	{name: "stats_all_skipped", args: []string{"query", "--stats", "--format", "csv", "--where", "id > 100 OR small IS NULL AND id < 0", "$DIR/fixture.parquet"}},
	{name: "stats_none_skipped", args: []string{"query", "--stats", "--format", "csv", "--where", "flag", "--select", "id", "$DIR/fixture.parquet"}},
	{name: "stats_is_null", args: []string{"query", "--stats", "--format", "csv", "--where", "small IS NULL", "--select", "id, small", "$DIR/fixture.parquet"}},
	{name: "stats_float", args: []string{"query", "--stats", "--format", "csv", "--where", "x < 0", "--select", "id, x", "$DIR/fixture.parquet"}},
	{name: "stats_string", args: []string{"query", "--stats", "--format", "csv", "--where", "name LIKE 'pla%' OR pt.b = 'zzz'", "--select", "id, name", "$DIR/fixture.parquet"}},
	// The page index: of the one row group, the pages of one day.
	{name: "stats_pages", args: []string{"query", "--stats", "--format", "csv", "--where", "l_shipdate = DATE '1995-06-17'", "--select", "l_orderkey, l_linenumber, l_shipdate", "$DIR/pages/sorted.parquet"}},
	{name: "stats_pages_no_prune", args: []string{"query", "--stats", "--no-prune", "--format", "csv", "--where", "l_shipdate = DATE '1995-06-17'", "--select", "l_orderkey, l_linenumber, l_shipdate", "$DIR/pages/sorted.parquet"}},
	{name: "stats_pages_dataset", args: []string{"query", "--stats", "--format", "csv", "--where", "l_shipdate = DATE '1995-06-17'", "--select", "l_orderkey, l_linenumber, l_shipdate", "$DIR/pagesds"}},
	{name: "stats_not_parquet", args: []string{"query", "--stats", "--where", "id > 4", "--select", "id", "$DIR/fixture.csv"}},
	{name: "err_after_skipped_group", args: []string{"query", "--where", "id >= 5", "--select", "CAST(name AS i64)", "$DIR/fixture.parquet"}, exit: 1},

	// explain over the demo schema.
	{name: "explain_tpch", args: []string{"explain", "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07"}},
	{name: "interval_values", args: []string{"query", "--demo-rows", "3", "--select", "l_shipdate, l_shipdate + INTERVAL 1 MONTH AS next_month, l_receiptdate - l_shipdate::timestamp AS transit, INTERVAL '1 year 14 months -3 days 04:05:06.5' AS iv, -INTERVAL (l_linenumber) HOUR AS back"}},
	{name: "explain_interval", args: []string{"explain", "l_shipdate + INTERVAL 1 MONTH > TIMESTAMP '1995-01-01 00:00:00' AND l_receiptdate - l_shipdate::timestamp < '2 weeks'"}},
	{name: "interval_jsonl", args: []string{"query", "--format", "jsonl", "--demo-rows", "2", "--select", "INTERVAL '1 day -02:00' AS iv, date_part('hour', INTERVAL '25:00:00') AS h"}},
	{name: "explain_price", args: []string{"explain", "l_extendedprice * (1 - l_discount) > 1000 AND l_shipdate >= DATE '1995-01-01'"}},
	{name: "explain_nested", args: []string{"explain", "coalesce(l_dims.w, 0) > 50 OR l_shipmode IN ('AIR', 'REG AIR')"}},
	{name: "explain_lambda", args: []string{"explain", "list_any(l_tags, t -> t = 'fragile') AND l_returnflag = 'R'"}},
	{name: "explain_fold", args: []string{"explain", "l_quantity + 0 > 1 + 1 AND true"}},
	{name: "explain_file", args: []string{"explain", "--schema-of", "$DIR/fixture.csv", "x > 1 AND small = 3"}},

	// Substrait: explain --substrait writes an ExtendedExpression of the
	// optimized expressions, query --substrait reads one (the fixtures are
	// written by writeSubstraitFixtures).
	{name: "explain_substrait", args: []string{"explain", "--substrait", "l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL')"}},
	{name: "explain_substrait_list", args: []string{"explain", "--substrait", "--schema-of", "$DIR/fixture.parquet", "id, price * 2 AS double, list_transform(tags, t -> t + 1) AS tags1"}},
	{name: "explain_substrait_fold", args: []string{"explain", "--substrait", "l_quantity + 0 > 1 + 1 AND true"}},
	{name: "explain_substrait_pruned_schema", args: []string{"explain", "--substrait", "--schema-of", "$DIR/unsigned.arrow", "n > 1"}},
	{name: "substrait_filter", args: []string{"query", "--substrait", "$DIR/sub_filter.json", "--format", "csv", "$DIR/fixture.parquet"}},
	{name: "substrait_filter_stats", args: []string{"query", "--stats", "--substrait", "$DIR/sub_filter.json", "--select", "id, small", "$DIR/fixture.parquet"}},
	{name: "substrait_select_binary", args: []string{"query", "--substrait", "$DIR/sub_select.pb", "--format", "jsonl", "$DIR/fixture.arrow"}},
	{name: "substrait_select_where", args: []string{"query", "--substrait", "$DIR/sub_select.pb", "--where", "id < 3", "$DIR/fixture.parquet"}},
	{name: "substrait_bool_filter", args: []string{"query", "--substrait", "$DIR/sub_bool.json", "--select", "id, flag", "$DIR/fixture.csv"}},
	{name: "substrait_bool_select", args: []string{"query", "--substrait", "$DIR/sub_bool.json", "--where", "true", "$DIR/fixture.csv"}},
	{name: "err_substrait_list_contains", args: []string{"explain", "--substrait", "list_contains(l_tags, 'fragile')"}, exit: 1},
	{name: "err_substrait_unsigned", args: []string{"explain", "--substrait", "--schema-of", "$DIR/unsigned.arrow", "u + 1 > n"}, exit: 1},
	{name: "err_substrait_item", args: []string{"explain", "--substrait", "l_orderkey, list_element(l_tags, 1) AS first"}, exit: 1},
	{name: "err_substrait_bad_expr", args: []string{"explain", "--substrait", "l_quantity <"}, exit: 1},
	{name: "err_substrait_missing", args: []string{"query", "--substrait", "$DIR/missing.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_malformed", args: []string{"query", "--substrait", "$DIR/sub_malformed.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_not_message", args: []string{"query", "--substrait", "$DIR/sub_notmessage.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_not_substrait", args: []string{"query", "--substrait", "$DIR/fixture.csv", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_stdin_empty", args: []string{"query", "--substrait", "-", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_empty", args: []string{"query", "--substrait", "$DIR/sub_empty.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_unsupported", args: []string{"query", "--substrait", "$DIR/sub_unsupported.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_type", args: []string{"query", "--substrait", "$DIR/sub_small_i64.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_unknown_column", args: []string{"query", "--substrait", "$DIR/sub_filter.json"}, exit: 1},
	{name: "err_substrait_unreadable_column", args: []string{"query", "--substrait", "$DIR/sub_txt.json", "$DIR/odd.arrow"}, exit: 1},
	{name: "err_substrait_not_filter", args: []string{"query", "--substrait", "$DIR/sub_select.pb", "--select", "id", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_duplicate_names", args: []string{"query", "--substrait", "$DIR/sub_dup.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_overflow", args: []string{"query", "--substrait", "$DIR/sub_overflow.json", "--where", "id > 2", "$DIR/fixture.parquet"}, exit: 1},
	// Substrait plans: explain --substrait-plan writes the plan of a
	// query, query --substrait runs one (writePlanFixtures).
	{name: "explain_substrait_plan", args: []string{"explain", "--substrait-plan", "--where", "id > 4 AND name LIKE 'p%'", "--select", "id, price * 2 AS double", "$DIR/fixture.parquet"}},
	{name: "explain_substrait_plan_demo", args: []string{"explain", "--substrait-plan", "--where", "l_quantity < 24", "--select", "l_orderkey"}},
	{name: "substrait_plan_parquet", args: []string{"query", "--stats", "--substrait", "$DIR/plan_parquet.json"}},
	{name: "substrait_plan_csv", args: []string{"query", "--format", "csv", "--substrait", "$DIR/plan_csv.json"}},
	{name: "substrait_plan_all", args: []string{"query", "--format", "jsonl", "--substrait", "$DIR/plan_all.json"}},
	{name: "substrait_plan_binary", args: []string{"query", "--substrait", "$DIR/plan_binary.pb"}},
	{name: "substrait_plan_other_file", args: []string{"query", "--substrait", "$DIR/plan_parquet.json", "$DIR/fixture.arrow"}},
	{name: "substrait_plan_lineitem", args: []string{"query", "--demo-rows", "200", "--limit", "3", "--substrait", "$DIR/plan_lineitem.json"}},
	{name: "err_substrait_plan_join", args: []string{"query", "--substrait", "$DIR/plan_join.json"}, exit: 1},
	{name: "err_substrait_plan_where", args: []string{"query", "--substrait", "$DIR/plan_parquet.json", "--where", "id > 1"}, exit: 1},
	{name: "err_substrait_plan_wrong_file", args: []string{"query", "--substrait", "$DIR/plan_lineitem.json", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_substrait_plan_unsigned", args: []string{"explain", "--substrait-plan", "--select", "u + 1", "$DIR/unsigned.arrow"}, exit: 1},
	{name: "err_substrait_plan_stdin", args: []string{"explain", "--substrait-plan", "-"}, stdin: "$DIR/fixture.csv", exit: 1},
	{name: "usage_substrait_plan_both", args: []string{"explain", "--substrait-plan", "--substrait", "id"}, exit: 2},
	{name: "usage_substrait_plan_where", args: []string{"explain", "--where", "id > 1", "id"}, exit: 2},
	{name: "usage_substrait_where_select", args: []string{"query", "--substrait", "$DIR/sub_filter.json", "--where", "id > 1", "--select", "id"}, exit: 2},
	{name: "usage_substrait_no_file", args: []string{"query", "--substrait"}, exit: 2},
	{name: "usage_substrait_empty_name", args: []string{"query", "--substrait", ""}, exit: 2},

	// Columns colexpr cannot read: a type it does not model, a name used twice.
	{name: "odd_schema", args: []string{"schema", "$DIR/odd.arrow"}},
	{name: "odd_query", args: []string{"query", "--format", "csv", "--where", "n > 1", "$DIR/odd.arrow"}},
	{name: "err_odd_column", args: []string{"query", "--select", "txt", "$DIR/odd.arrow"}, exit: 1},
	{name: "err_odd_duplicate", args: []string{"query", "--where", "d = 1", "$DIR/odd.arrow"}, exit: 1},

	// User errors: exit status 1.
	{name: "err_parse", args: []string{"query", "--where", "id > > 3", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_parse_select", args: []string{"query", "--select", "id, name ||| 'x'", "$DIR/fixture.parquet"}, exit: 1},
	{name: "usage_limit_negative", args: []string{"query", "--limit", "-1", "$DIR/fixture.parquet"}, exit: 2},
	{name: "err_where_empty", args: []string{"query", "--where", "", "$DIR/fixture.parquet"}, exit: 1},
	{name: "huge_batch_csv", args: []string{"query", "--batch-size", "9999999999999", "--select", "id", "--limit", "2", "$DIR/fixture.csv"}},
	{name: "err_select_empty", args: []string{"query", "--select", "", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_select_blank", args: []string{"query", "--select", "  ", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_explain_empty", args: []string{"explain", ""}, exit: 1},
	{name: "err_explain_substrait_empty", args: []string{"explain", "--substrait", " "}, exit: 1},
	{name: "err_unknown_column", args: []string{"query", "--where", "l_quantiy < 24"}, exit: 1},
	{name: "err_unknown_field", args: []string{"query", "--select", "pt.c", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_type", args: []string{"query", "--where", "name + 1 > 2", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_where_not_bool", args: []string{"query", "--where", "id + 1", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_missing_file", args: []string{"query", "$DIR/missing.parquet"}, exit: 1},
	// A name without a known extension is read as its bytes say: CSV.
	{name: "sniff_txt", args: []string{"query", "$DIR/notes.txt"}},
	{name: "err_corrupt_parquet", args: []string{"query", "$DIR/garbage.parquet"}, exit: 1},
	{name: "err_truncated_parquet", args: []string{"schema", "$DIR/truncated.parquet"}, exit: 1},
	{name: "err_corrupt_pages", args: []string{"query", "$DIR/junkpages.parquet"}, exit: 1},
	{name: "err_corrupt_arrows", args: []string{"query", "$DIR/garbage.arrows"}, exit: 1},
	{name: "err_ragged_csv", args: []string{"query", "$DIR/ragged.csv"}, exit: 1},
	{name: "err_csv_late_value", args: []string{"query", "--batch-size", "300", "--format", "csv", "--select", "n", "$DIR/latebad.csv"}, exit: 1},
	// CSV: more rows to infer from, a column's type given, timestamps.
	{name: "csv_infer_all", args: []string{"query", "--csv-infer-rows", "0", "--where", "n = 'oops'", "$DIR/latebad.csv"}},
	{name: "csv_type", args: []string{"query", "--csv-type", "n=utf8", "--csv-type", "s = VARCHAR", "--where", "n <> '1'", "$DIR/latebad.csv"}},
	{name: "csv_timestamp", args: []string{"query", "--format", "csv", "--csv-type", "amount=utf8", "--where", "t > TIMESTAMP '2020-01-01 10:00:00'", "$DIR/typed.csv"}},
	{name: "schema_csv_types", args: []string{"schema", "--csv-type", "amount=utf8", "$DIR/typed.csv"}},
	{name: "err_csv_given_type", args: []string{"query", "--csv-type", "amount=decimal(12,2)", "$DIR/typed.csv"}, exit: 1},
	{name: "err_csv_type_unknown_column", args: []string{"query", "--csv-type", "amont=f64", "$DIR/typed.csv"}, exit: 1},
	{name: "usage_csv_type_syntax", args: []string{"query", "--csv-type", "amount", "$DIR/typed.csv"}, exit: 2},
	{name: "usage_csv_type_bad_type", args: []string{"schema", "--csv-type", "amount=money", "$DIR/typed.csv"}, exit: 2},
	{name: "usage_csv_infer_negative", args: []string{"query", "--csv-infer-rows", "-1", "$DIR/typed.csv"}, exit: 2},
	{name: "usage_csv_not_csv", args: []string{"query", "--csv-type", "id=i64", "$DIR/fixture.parquet"}, exit: 2},
	{name: "err_overflow_row", args: []string{"query", "--select", "id, big * 1000 AS k", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_overflow_filtered", args: []string{"query", "--where", "id % 2 = 0", "--select", "big * 1000", "$DIR/fixture.arrow"}, exit: 1},
	{name: "err_overflow_where", args: []string{"query", "--where", "big * 1000 > 0", "$DIR/fixture.arrows"}, exit: 1},
	{name: "err_after_rows", args: []string{"query", "--format", "jsonl", "--batch-size", "2", "--threads", "1", "--select", "id, big * 1000 AS k", "$DIR/fixture.parquet"}, exit: 1},
	{name: "err_bad_cast", args: []string{"query", "--format", "csv", "--batch-size", "1", "--select", "CAST(name AS i64)", "$DIR/fixture.csv"}, exit: 1},
	// A name used twice is renamed, as DuckDB does.
	{name: "duplicate_names", args: []string{"query", "--select", "id, id, name AS id, 1 AS id_1", "--limit", "2", "$DIR/fixture.parquet"}},

	// Usage errors: exit status 2.
	{name: "usage_no_command", args: nil, exit: 2},
	{name: "usage_unknown_command", args: []string{"frobnicate"}, exit: 2},
	{name: "usage_unknown_flag", args: []string{"query", "--wher", "id > 1"}, exit: 2},
	{name: "usage_bad_format", args: []string{"query", "--format", "xml"}, exit: 2},
	{name: "err_two_missing_files", args: []string{"query", "a.csv", "b.csv"}, exit: 1},
	{name: "usage_explain_no_expr", args: []string{"explain"}, exit: 2},
	{name: "usage_demo_no_out", args: []string{"demo", "--rows", "10"}, exit: 2},
	{name: "usage_bad_limit", args: []string{"query", "--limit", "many"}, exit: 2},
	{name: "usage_bool_flag_value", args: []string{"query", "--stats=maybe"}, exit: 2},
	{name: "usage_bad_threads", args: []string{"query", "--threads", "0"}, exit: 2},
	{name: "usage_demo_group_flags", args: []string{"demo", "--row-groups", "4", "--row-group-size", "100", "--out", "$DIR/x.parquet"}, exit: 2},
	{name: "usage_demo_too_many_groups", args: []string{"demo", "--rows", "10", "--row-groups", "11", "--out", "$DIR/x.parquet"}, exit: 2},
	{name: "usage_demo_sort_list", args: []string{"demo", "--sort", "l_tags", "--out", "$DIR/x.parquet"}, exit: 2},
	{name: "usage_demo_sort_too_many", args: []string{"demo", "--rows", "9999999999999", "--sort", "l_orderkey", "--out", "$DIR/x.parquet"}, exit: 2},
	{name: "help_demo", args: []string{"help", "demo"}},
	{name: "help_explain", args: []string{"explain", "--help"}},
	{name: "help", args: []string{"help"}},
	{name: "help_help", args: []string{"help", "help"}},
	{name: "help_query", args: []string{"query", "-h"}},
}

// duckdbSelect is a select list of values whose printing follows DuckDB's.
const duckdbSelect = "null AS n, CAST(null AS i64) AS i, x'00ff415c27' AS b, TIMESTAMP '1995-01-01 12:00:00' AS t, TIMESTAMP '1995-01-01 12:00:00.25' AS f, ts, local, bin"

func TestCLI(t *testing.T) {
	bin := colexprBinary(t)
	dir, _ := fixtureFiles(t)
	for _, c := range cliCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$DIR", dir)
			}
			cmd := exec.Command(bin, args...)
			if c.stdin != "" {
				in, err := os.Open(strings.ReplaceAll(c.stdin, "$DIR", dir))
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				cmd.Stdin = in
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			exit := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			out := stdout.String()
			if c.arrowOut && exit == 0 {
				out = decodeArrowStream(t, stdout.Bytes())
			}
			cmdline := strings.Join(quoteArgs(c.args), " ")
			if c.stdin != "" {
				cmdline += " < " + c.stdin
			}
			got := fmt.Sprintf("$ colexpr %s\nexit status %d\n--- stdout\n%s--- stderr\n%s",
				cmdline, exit, out, stderr.String())
			got = strings.ReplaceAll(got, dir, "$DIR")
			golden(t, filepath.Join("testdata", "cli", c.name+".golden"), got)
			if exit != c.exit {
				t.Errorf("exit status %d, want %d\nstderr:\n%s", exit, c.exit, stderr.String())
			}
			if strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", stderr.String())
			}
		})
	}
}

// TestInputFormatsAgree checks that Parquet, Arrow IPC file and stream give
// the same rows.
func TestInputFormatsAgree(t *testing.T) {
	bin := colexprBinary(t)
	_, files := fixtureFiles(t)
	var want string
	for _, ext := range []string{".parquet", ".arrow", ".arrows"} {
		out, err := exec.Command(bin, "query", "--format", "jsonl", files[ext]).Output()
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if want == "" {
			want = string(out)
		} else if string(out) != want {
			t.Errorf("%s gives\n%s\nwant (as from .parquet)\n%s", ext, out, want)
		}
	}
}

// TestLimitAcrossBatches checks that --limit N prints the first N rows of
// the unlimited output, in every text format, whether N falls inside the
// first batch's matches or spans many batches.
func TestLimitAcrossBatches(t *testing.T) {
	bin := colexprBinary(t)
	query := func(format string, extra ...string) []string {
		t.Helper()
		args := append([]string{"query", "--demo-rows", "20000", "--format", format,
			"--where", "l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL')",
			"--select", "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue, l_shipdate"}, extra...)
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("colexpr %s: %v", strings.Join(args, " "), err)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		switch format {
		case "csv":
			lines = lines[1:]
		case "table":
			lines = lines[2 : len(lines)-1]
		}
		return lines
	}
	for _, format := range []string{"table", "csv", "jsonl"} {
		all := query(format, "--batch-size", "20000")
		if len(all) < 2000 {
			t.Fatalf("%s: only %d matching rows; the test needs many batches' worth", format, len(all))
		}
		for _, c := range []struct{ limit, batch int }{
			{5, 1000}, // about 130 matches in the first batch
			{1, 1000},
			{300, 1000}, // three batches
			{1000, 500}, // a cut in the middle of a batch
			{2000, 64},  // many small batches
		} {
			for _, threads := range []string{"1", "4"} {
				got := query(format, "--limit", strconv.Itoa(c.limit), "--batch-size", strconv.Itoa(c.batch), "--threads", threads)
				if len(got) != c.limit {
					t.Errorf("%s, --limit %d --batch-size %d --threads %s: %d rows, want %d", format, c.limit, c.batch, threads, len(got), c.limit)
					continue
				}
				if format == "table" {
					continue // column widths depend on the rows seen
				}
				for i := range got {
					if got[i] != all[i] {
						t.Errorf("%s, --limit %d --batch-size %d --threads %s: row %d is %q, want %q", format, c.limit, c.batch, threads, i+1, got[i], all[i])
						break
					}
				}
			}
		}
	}
}

// TestDemoCommand writes the demo table with the binary and reads it back.
func TestDemoCommand(t *testing.T) {
	bin := colexprBinary(t)
	out := filepath.Join(t.TempDir(), "demo.parquet")
	if msg, err := exec.Command(bin, "demo", "--rows", "3000", "--row-group-size", "1000", "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, msg)
	}
	fromFile, err := exec.Command(bin, "query", "--format", "csv", out).Output()
	if err != nil {
		t.Fatal(err)
	}
	fromMemory, err := exec.Command(bin, "query", "--format", "csv", "--demo-rows", "3000").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromFile, fromMemory) {
		t.Error("the demo table read back from Parquet differs from the one generated in memory")
	}
	if n := bytes.Count(fromFile, []byte("\n")); n < 3001 {
		t.Errorf("%d lines of CSV, want at least 3001", n)
	}
}

// TestDemoSortedRowGroups writes a sorted demo file in an exact number of
// row groups and checks both: the groups' sizes and the column's order.
func TestDemoSortedRowGroups(t *testing.T) {
	bin := colexprBinary(t)
	for _, c := range []struct {
		sort   string
		rows   int64
		groups int
	}{{"l_shipdate", 1000, 7}, {"l_comment", 500, 3}, {"l_extendedprice", 300, 300}} {
		t.Run(c.sort, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "demo.parquet")
			args := []string{"demo", "--rows", strconv.FormatInt(c.rows, 10), "--sort", c.sort, "--row-groups", strconv.Itoa(c.groups), "--out", out}
			if msg, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Fatalf("demo: %v\n%s", err, msg)
			}
			pf, err := file.OpenParquetFile(out, false)
			if err != nil {
				t.Fatal(err)
			}
			defer pf.Close()
			if pf.NumRowGroups() != c.groups {
				t.Errorf("%d row groups, want %d", pf.NumRowGroups(), c.groups)
			}
			lo, hi := c.rows/int64(c.groups), (c.rows+int64(c.groups)-1)/int64(c.groups)
			for g := 0; g < pf.NumRowGroups(); g++ {
				if n := pf.MetaData().RowGroup(g).NumRows(); n < lo || n > hi {
					t.Errorf("row group %d has %d rows, want %d to %d", g, n, lo, hi)
				}
			}
			checkSorted(t, out, c.sort, c.rows)
		})
	}
}

// checkSorted checks that the Parquet file at path has rows rows in
// ascending order of column.
func checkSorted(t *testing.T, path, column string, rows int64) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := scan.Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	plan, err := scan.Compile(src, scan.Query{Select: []scan.Expr{{Text: column}}}, scan.Options{BatchSize: 97, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	typ, err := dtype.FromArrow(plan.Schema().Field(0).Type, false)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var prev scalar.Scalar
	var n int64
	for rr.Next() {
		b := rr.RecordBatch()
		for i := 0; i < int(b.NumRows()); i++ {
			v, err := scalar.FromArray(b.Column(0), i, typ)
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				if c, err := scalar.Compare(prev, v); err != nil || c > 0 {
					t.Fatalf("row %d: %s after %s: not sorted (%v)", n+1, v, prev, err)
				}
			}
			prev = v
			n++
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	if n != rows {
		t.Errorf("%d rows, want %d", n, rows)
	}
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(strings.TrimPrefix(a, "$DIR/"), " '\"*<>|&;()$\\\n") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}

// decodeArrowStream renders an Arrow IPC stream as JSON, one batch per line.
func decodeArrowStream(t *testing.T, data []byte) string {
	t.Helper()
	r, err := ipc.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("stdout is not an Arrow IPC stream: %v", err)
	}
	defer r.Release()
	var b strings.Builder
	b.WriteString("schema: " + r.Schema().String() + "\n")
	for r.Next() {
		js, err := r.RecordBatch().MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.ReplaceAll(string(js), "\n", "") + "\n")
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
