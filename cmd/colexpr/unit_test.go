package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
)

func TestAppendCell(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 40, "short"},
		{"a\nb\tc\x01", 40, `a\nb\tc\x01`},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"ünïcødé", 5, "ünïc…"},
		{"a\nbcd", 4, `a\n…`},
		{"bad\xffbyte", 40, "bad\uFFFDbyte"},
		// Display cells, not characters: CJK and emoji take two.
		{"日本語", 6, "日本語"},
		{"日本語テキスト", 6, "日本…"},
		{"ab日本", 4, "ab…"},
		{"👍🏽👍🏽👍🏽", 5, "👍🏽👍🏽…"},
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"},
	}
	for _, c := range cases {
		got, cut := appendCell(nil, []byte(c.in), c.max)
		if string(got) != c.want {
			t.Errorf("appendCell(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if wantCut := strings.HasSuffix(c.want, "…"); cut != wantCut {
			t.Errorf("appendCell(%q, %d) reports cut %v, want %v", c.in, c.max, cut, wantCut)
		}
		if w := width(got); w > c.max {
			t.Errorf("appendCell(%q, %d) = %q is %d cells wide", c.in, c.max, got, w)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 123456: "123,456", 1234567: "1,234,567", -1234: "-1234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestProgressDraw(t *testing.T) {
	cases := []struct {
		fraction float64
		want     string
	}{
		{0.5, "\r[===============               ]  50% 1,234 rows 1.5s\x1b[K"},
		{1.2, "\r[==============================] 100% 1,234 rows 1.5s\x1b[K"},
		{-1, "\r[       *                      ] 1,234 rows 1.5s\x1b[K"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		p := &progress{w: &buf, fraction: func() float64 { return c.fraction }, rows: func() int64 { return 1234 }}
		p.draw(1500 * time.Millisecond)
		if buf.String() != c.want {
			t.Errorf("fraction %v draws %q, want %q", c.fraction, buf.String(), c.want)
		}
	}
	// Quick scans draw nothing at all.
	var buf bytes.Buffer
	p := startProgress(&buf, func() float64 { return 0 }, func() int64 { return 0 })
	p.finish()
	if buf.Len() != 0 {
		t.Errorf("a scan shorter than a second drew %q", buf.String())
	}
}

// TestLimitFormats checks --limit with every format over batches of many
// rows, where the filter keeps only some: the limit counts rows across
// batches, in input order, whether it falls inside the first batch's kept
// rows or spans several batches. (The table format holds rows back until
// it can size its columns; the limit once counted only the rows it had
// printed, and so let through several batches.)
func TestLimitFormats(t *testing.T) {
	// 300 rows n = 1…300, in batches of 30: every third row is kept, 10 a batch.
	var csv strings.Builder
	csv.WriteString("n\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&csv, "%d\n", i)
	}
	path := filepath.Join(t.TempDir(), "n.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// values extracts the n column of each format's rows.
	values := map[string]func(out string) []string{
		"jsonl": func(out string) []string {
			var vs []string
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if l != "" {
					vs = append(vs, strings.TrimSuffix(strings.TrimPrefix(l, `{"n":`), "}"))
				}
			}
			return vs
		},
		"csv": func(out string) []string {
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			return lines[1:] // the header
		},
		"table": func(out string) []string {
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			var vs []string
			for _, l := range lines[2 : len(lines)-1] { // header, rule … row count
				vs = append(vs, strings.TrimSpace(l))
			}
			return vs
		},
	}
	for _, format := range []string{"table", "csv", "jsonl"} {
		for _, threads := range []int{1, 4} {
			for _, limit := range []int64{-1, 1, 3, 10, 25, 95, 100, 500} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var out bytes.Buffer
				o := queryOptions{files: []string{path}, where: "n % 3 = 0", format: format, threads: threads, batchSize: 30, limit: limit}
				if err := query(&env{stdout: &out, stderr: io.Discard}, mem, o); err != nil {
					t.Fatal(err)
				}
				want := min(limit, 100)
				if limit < 0 {
					want = 100
				}
				got := values[format](out.String())
				if int64(len(got)) != want {
					t.Fatalf("%s, threads %d, limit %d: %d rows written, want %d:\n%s", format, threads, limit, len(got), want, out.String())
				}
				for i, v := range got {
					if v != strconv.Itoa(3*(i+1)) {
						t.Fatalf("%s, threads %d, limit %d: row %d is %s, want %d", format, threads, limit, i+1, v, 3*(i+1))
					}
				}
				word := "rows"
				if want == 1 {
					word = "row"
				}
				if format == "table" && !strings.HasSuffix(out.String(), fmt.Sprintf("(%d %s)\n", want, word)) {
					t.Errorf("threads %d, limit %d: the table does not end with its row count:\n%s", threads, limit, out.String())
				}
				mem.AssertSize(t, 0)
			}
		}
	}
}

// TestQueryNoLeaks runs queries in-process with a checked allocator, the
// failing ones too, and checks every byte is given back.
func TestQueryNoLeaks(t *testing.T) {
	_, files := fixtureFiles(t)
	cases := []struct {
		name string
		o    queryOptions
		fail bool
	}{
		{"parquet all", queryOptions{files: []string{files[".parquet"]}, format: "jsonl"}, false},
		{"arrow select", queryOptions{files: []string{files[".arrow"]}, format: "csv", selects: "id, tags, pt.b"}, false},
		{"arrows table", queryOptions{files: []string{files[".arrows"]}, format: "table", where: "id > 2"}, false},
		{"csv arrow", queryOptions{files: []string{files[".csv"]}, format: "arrow", selects: "name, x"}, false},
		{"demo limit", queryOptions{format: "jsonl", limit: 3, demoRows: 100_000}, false},
		{"overflow", queryOptions{files: []string{files[".parquet"]}, format: "jsonl", selects: "big * 1000"}, true},
		{"overflow after rows", queryOptions{files: []string{files[".parquet"]}, format: "csv", selects: "big * 1000", batchSize: 1}, true},
		{"bad column", queryOptions{files: []string{files[".parquet"]}, format: "csv", where: "nope"}, true},
		{"parquet pruned", queryOptions{files: []string{files[".parquet"]}, format: "jsonl", where: "id > 4 AND name LIKE 'x%' OR small IS NULL", stats: true}, false},
		{"parquet all pruned", queryOptions{files: []string{files[".parquet"]}, format: "arrow", where: "id > 100", stats: true}, false},
		{"parquet pruned, then an error", queryOptions{files: []string{files[".parquet"]}, format: "csv", where: "id >= 5", selects: "CAST(name AS i64)"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			o := c.o
			if o.threads == 0 {
				o.threads = 3
			}
			if o.batchSize == 0 {
				o.batchSize = 2
			}
			if o.limit == 0 {
				o.limit = -1
			}
			var stdout, stderr bytes.Buffer
			err := query(&env{stdout: &stdout, stderr: &stderr}, mem, o)
			if (err != nil) != c.fail {
				t.Fatalf("error %v, want failure %v", err, c.fail)
			}
			mem.AssertSize(t, 0)
		})
	}
}

// TestDemoInProcess runs the query command on the demo table through run.
func TestDemoInProcess(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"query", "--demo-rows", "500", "--format", "csv", "--select", "l_orderkey, l_linenumber", "--limit", "3"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	want := "l_orderkey,l_linenumber\n1,1\n1,2\n2,1\n"
	if stdout.String() != want {
		t.Errorf("got\n%s\nwant\n%s", stdout.String(), want)
	}
}

// TestTableWidths checks that the table takes its column widths from the
// first rows and cuts a wider value that comes later.
func TestTableWidths(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	batch := func(from, to int, s func(i int) string) arrow.RecordBatch {
		nb := array.NewInt64Builder(mem)
		defer nb.Release()
		sb := array.NewStringBuilder(mem)
		defer sb.Release()
		for i := from; i < to; i++ {
			nb.Append(int64(i))
			if i%7 == 3 {
				sb.AppendNull()
			} else {
				sb.Append(s(i))
			}
		}
		n, str := nb.NewArray(), sb.NewArray()
		defer n.Release()
		defer str.Release()
		return array.NewRecordBatch(sc, []arrow.Array{n, str}, int64(to-from))
	}
	var out bytes.Buffer
	sink := newTableSink(&out, sc)
	first := batch(0, widthRows, func(int) string { return "ab" })
	second := batch(widthRows, widthRows+3, func(int) string { return "a much longer value" })
	defer first.Release()
	defer second.Release()
	for _, rec := range []arrow.RecordBatch{first, second} {
		c, err := sink.encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := sink.write(c, c.rows()); err != nil {
			t.Fatal(err)
		}
	}
	if err := sink.finish(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := map[int]string{
		0:              " n    | s",
		1:              "------+------",
		2:              "    0 | ab",
		5:              "    3 | NULL",
		widthRows + 2:  " 1024 | a m…",
		widthRows + 4:  " 1026 | a m…",
		len(lines) - 2: "(1,027 rows)",
		// A later value cut to its column's width is never cut silently.
		len(lines) - 1: "(2 cells were cut to fit, ending in …; --format csv or jsonl prints every value whole)",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d is %q, want %q", i, lines[i], w)
		}
	}
	if len(lines) != widthRows+3+4 {
		t.Errorf("%d lines, want %d", len(lines), widthRows+7)
	}
}

// TestTableDisplayWidths checks that columns of CJK text and emoji line up:
// widths count display cells, not characters.
func TestTableDisplayWidths(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "名前", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"日本語", "ascii", "👍🏽 ok", "e\u0301te\u0301"}, nil)
	nb := array.NewInt64Builder(mem)
	defer nb.Release()
	nb.AppendValues([]int64{1, 22, 333, 4}, nil)
	str, n := sb.NewArray(), nb.NewArray()
	defer str.Release()
	defer n.Release()
	rec := array.NewRecordBatch(sc, []arrow.Array{str, n}, 4)
	defer rec.Release()
	var out bytes.Buffer
	sink := newTableSink(&out, sc)
	c, err := sink.encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.write(c, c.rows()); err != nil {
		t.Fatal(err)
	}
	if err := sink.finish(); err != nil {
		t.Fatal(err)
	}
	want := ` 名前   | n
--------+------
 日本語 |    1
 ascii  |   22
 👍🏽 ok  |  333
 été    |    4
(4 rows)
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestInternalErrors checks that a panic, in the command or in a worker,
// ends in exit status 3 with a message saying it is a bug.
func TestInternalErrors(t *testing.T) {
	saved := commands
	defer func() { commands = saved }()
	commands = append(commands[:len(commands):len(commands)],
		&command{name: "boom", run: func(*env, []string) error { panic("kaput") }},
		&command{name: "worker", run: func(*env, []string) error {
			return fmt.Errorf("%w: kaput in a worker", scan.ErrInternal)
		}})
	for _, name := range []string{"boom", "worker"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{name}, nil, &stdout, &stderr); code != exitInternal {
			t.Errorf("%s: exit status %d, want %d", name, code, exitInternal)
		}
		if !strings.Contains(stderr.String(), "internal error (a bug, please report it): kaput") {
			t.Errorf("%s: stderr %q does not report an internal error", name, stderr.String())
		}
	}
}

// TestIsTerminal checks that /dev/null, a character device, is not taken
// for a terminal (the progress bar would be drawn into it).
func TestIsTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is taken for a terminal")
	}
}

// TestDemoProgress checks that demo draws query's progress bar on a
// terminal: a spinner while sorting, then the rows written.
func TestDemoProgress(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "d.parquet")
	e := &env{stdout: io.Discard, stderr: &stderr, isTerminal: true}
	if err := runDemo(e, []string{"--rows", "50000", "--sort", "l_shipdate", "--out", out}); err != nil {
		t.Fatal(err)
	}
	got := stderr.String()
	for _, want := range []string{"\rsorting by l_shipdate [", "\rwriting [", " rows ", "\r\x1b[K"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr %q does not hold %q", got, want)
		}
	}
	// Not on a terminal, nothing.
	stderr.Reset()
	e.isTerminal = false
	if err := runDemo(e, []string{"--rows", "1000", "--out", out}); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("not on a terminal, demo wrote %q", stderr.String())
	}
}
