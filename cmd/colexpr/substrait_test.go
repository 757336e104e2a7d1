package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/substrait"
)

// TestSubstraitRoundTrip checks, with the binary, that what explain
// --substrait writes, query --substrait reads back to the same query: the
// same rows as --where with the original text for a predicate, the same
// columns as --select for a list, from JSON and from protobuf binary, from
// a file and from stdin.
func TestSubstraitRoundTrip(t *testing.T) {
	bin := colexprBinary(t)
	_, files := fixtureFiles(t)
	demo := []string{"--demo-rows", "3000"}
	cases := []struct {
		name string
		file string // "" for the demo table
		// where is a predicate; list a select list (one of the two).
		where, list string
	}{
		{name: "tpch", where: "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07"},
		{name: "strings", where: "l_shipdate >= DATE '1995-01-01' AND l_shipmode IN ('AIR', 'MAIL') AND l_comment LIKE '%ly%' AND NOT l_shipinstruct ILIKE 'none'"},
		{name: "lambda", where: "list_any(l_tags, t -> t = 'fragile') OR l_dims.w > 90"},
		{name: "case", where: "CASE WHEN l_discount > 0.05 THEN l_tax ELSE l_discount END > 0.04 AND length(upper(l_comment)) > 30"},
		{name: "nulls", where: "coalesce(l_dims.h, 0) * 2 > 150 OR l_dims IS NULL AND l_returnflag = 'R'"},
		{name: "fixture", file: files[".parquet"], where: "id > 2 AND small IS NOT NULL OR name LIKE 'p%'"},
		{name: "fixture_times", file: files[".parquet"], where: "day >= DATE '1990-01-01' AND price > 1 OR list_length(tags) > 1 OR local < TIMESTAMP '1999-01-01 00:00:00' OR bin = x'ff'"},
		{name: "csv", file: files[".csv"], where: "x > 1 OR flag IS NOT DISTINCT FROM false"},
		{name: "demo_list", list: "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue, l_dims.w, list_filter(l_tags, t -> t LIKE 'f%') AS f, l_shipdate, l_quantity < 24"},
		{name: "fixture_list", file: files[".arrow"], list: "id, price * 2 AS double, coalesce(small, -1) AS s, pt, tags, CAST(id AS utf8) AS label"},
	}
	run := func(t *testing.T, stdin []byte, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, args...)
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("colexpr %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			text := c.where
			if text == "" {
				text = c.list
			}
			explainArgs := []string{"explain", "--substrait"}
			data := demo
			if c.file != "" {
				explainArgs = append(explainArgs, "--schema-of", c.file)
				data = []string{c.file}
			}
			js := run(t, nil, append(explainArgs, text)...)
			jsonPath := filepath.Join(t.TempDir(), "expr.json")
			if err := os.WriteFile(jsonPath, js, 0o644); err != nil {
				t.Fatal(err)
			}
			msg, err := substrait.Unmarshal(js)
			if err != nil {
				t.Fatal(err)
			}
			pbData, err := substrait.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			binPath := filepath.Join(t.TempDir(), "expr.pb")
			if err := os.WriteFile(binPath, pbData, 0o644); err != nil {
				t.Fatal(err)
			}

			var want []byte
			if c.where != "" {
				want = run(t, nil, append([]string{"query", "--format", "jsonl", "--where", c.where}, data...)...)
			} else {
				want = run(t, nil, append([]string{"query", "--format", "jsonl", "--select", c.list}, data...)...)
			}
			lines := bytes.Count(want, []byte("\n"))
			if lines == 0 {
				t.Fatalf("the query gives no rows: the case tests nothing")
			}
			for _, p := range []string{jsonPath, binPath, "-"} {
				var stdin []byte
				if p == "-" {
					stdin = pbData
				}
				got := run(t, stdin, append([]string{"query", "--format", "jsonl", "--substrait", p}, data...)...)
				if !bytes.Equal(got, want) {
					t.Errorf("query --substrait %s gives\n%s\nwant\n%s", filepath.Base(p), head(got, 5), head(want, 5))
				}
			}
			if c.where != "" {
				// The filter removes some rows and keeps some.
				all := run(t, nil, append([]string{"query", "--format", "jsonl"}, data...)...)
				if n := bytes.Count(all, []byte("\n")); n == lines {
					t.Errorf("the predicate keeps all %d rows: the case tests little", n)
				}
			}
		})
	}
}

// head is the first n lines of b.
func head(b []byte, n int) string {
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…\n")
	}
	return strings.Join(lines, "")
}

// TestSubstraitRole checks the rule by which query uses the expressions of
// a --substrait file: the select list when --where is given; the filter,
// which must be one bool expression, when --select is; otherwise the
// filter when it is one bool expression, else the select list.
func TestSubstraitRole(t *testing.T) {
	dir, _ := fixtureFiles(t)
	s := colexpr.NewSchema(fixtureSchema)
	cases := []struct {
		file                string
		hasWhere, hasSelect bool
		filter              bool
		err                 string
	}{
		{file: "sub_filter.json", filter: true},
		{file: "sub_filter.json", hasSelect: true, filter: true},
		{file: "sub_filter.json", hasWhere: true, filter: false},
		{file: "sub_bool.json", filter: true},
		{file: "sub_bool.json", hasWhere: true, filter: false},
		{file: "sub_select.pb", filter: false},
		{file: "sub_select.pb", hasWhere: true, filter: false},
		{file: "sub_select.pb", hasSelect: true, err: "with --select, the file must hold the filter, one bool expression; it holds 5 expressions"},
		{file: "sub_overflow.json", hasSelect: true, err: "it holds 2 expressions (id: i64, k: i64)"},
		{file: "sub_dup.json", err: `expressions 1 and 2 are both named "a"`},
		{file: "sub_dup.json", hasSelect: true, err: "it holds 2 expressions"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		loaded, err := loadSubstrait(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		msg, ok := loaded.(*pb.ExtendedExpression)
		if !ok {
			t.Fatalf("%s holds a %T, not an ExtendedExpression", c.file, loaded)
		}
		f, err := readSubstrait(path, msg, s, c.hasWhere, c.hasSelect)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s (where %v, select %v): error %v, want one naming the file and saying %q", c.file, c.hasWhere, c.hasSelect, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s (where %v, select %v): %v", c.file, c.hasWhere, c.hasSelect, err)
			continue
		}
		if f.filter != c.filter {
			t.Errorf("%s (where %v, select %v): filter %v, want %v", c.file, c.hasWhere, c.hasSelect, f.filter, c.filter)
		}
	}
}

// TestSubstraitQueryNoLeaks runs --substrait queries in-process with a
// checked allocator, failing ones too.
func TestSubstraitQueryNoLeaks(t *testing.T) {
	dir, files := fixtureFiles(t)
	sub := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name string
		o    queryOptions
		fail bool
	}{
		{"filter pruned", queryOptions{files: []string{files[".parquet"]}, format: "jsonl", substrait: sub("sub_filter.json"), stats: true}, false},
		{"filter and select", queryOptions{files: []string{files[".arrow"]}, format: "csv", substrait: sub("sub_bool.json"), selects: "id, name"}, false},
		{"select list", queryOptions{files: []string{files[".arrows"]}, format: "arrow", substrait: sub("sub_select.pb")}, false},
		{"select list and where", queryOptions{files: []string{files[".parquet"]}, format: "table", substrait: sub("sub_select.pb"), where: "id <> 3"}, false},
		{"overflow", queryOptions{files: []string{files[".parquet"]}, format: "jsonl", substrait: sub("sub_overflow.json")}, true},
		{"overflow after rows", queryOptions{files: []string{files[".parquet"]}, format: "csv", substrait: sub("sub_overflow.json"), batchSize: 1}, true},
		{"type mismatch", queryOptions{files: []string{files[".parquet"]}, format: "csv", substrait: sub("sub_small_i64.json")}, true},
		{"malformed", queryOptions{files: []string{files[".parquet"]}, format: "csv", substrait: sub("sub_malformed.json")}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			o := c.o
			o.threads = 3
			if o.batchSize == 0 {
				o.batchSize = 2
			}
			o.limit = -1
			var stdout, stderr bytes.Buffer
			err := query(&env{stdout: &stdout, stderr: &stderr}, mem, o)
			if (err != nil) != c.fail {
				t.Fatalf("error %v, want failure %v", err, c.fail)
			}
			if !c.fail && stdout.Len() == 0 {
				t.Error("no output")
			}
			mem.AssertSize(t, 0)
		})
	}
}
