package playground_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// demoSource is a small demo table whose memory is checked when the test
// ends: every batch a scan makes must be released.
func demoSource(t *testing.T) *scan.Source {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	src := scan.Demo(mem, 2000)
	t.Cleanup(func() {
		src.Close()
		mem.AssertSize(t, 0)
	})
	return src
}

// sortedParquet writes the demo table sorted by l_shipdate in 8 row
// groups, so that a filter on the date skips most of them.
func sortedParquet(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lineitem.parquet")
	tbl := demo.Table{Seed: demo.DefaultSeed, Rows: 4000}
	rr, err := tbl.NewReaderWith(memory.DefaultAllocator, demo.ReaderOptions{Batches: 8, SortBy: "l_shipdate"})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if err := scan.WriteParquet(path, rr, scan.ParquetOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExplainGolden records the whole Response, as the page receives it,
// for requests that show each part: go test ./playground -run
// TestExplainGolden -update rewrites testdata/explain/*.json.
func TestExplainGolden(t *testing.T) {
	parquet := sortedParquet(t)
	for _, c := range []struct {
		name    string
		parquet bool
		req     playground.Request
	}{
		{"filter_and_select", false, playground.Request{Where: "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07", Select: "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue", Limit: 3}},
		{"rewrites", false, playground.Request{Where: "NOT (l_quantity * 1 > 5) OR l_returnflag = 'R' AND true", Limit: 2}},
		{"lambda", false, playground.Request{Select: "list_transform([1, 2, 3], x -> x + l_linenumber) AS xs, list_filter([l_tax, l_discount], d -> d > 0.02)", Limit: 2}},
		{"row_groups", true, playground.Request{Where: "l_shipdate < DATE '1993-01-01'", Select: "l_shipdate", Limit: 2}},
		{"syntax_error", false, playground.Request{Where: "l_quantity < ", Select: "l_orderkey"}},
		{"errors_in_both", false, playground.Request{Where: "l_quantity + 'a' > 1", Select: "l_orderkey, l_nope AS n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var src *scan.Source
			if c.parquet {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var err error
				if src, err = scan.Open(mem, parquet); err != nil {
					t.Fatal(err)
				}
				defer func() { src.Close(); mem.AssertSize(t, 0) }()
			} else {
				src = demoSource(t)
			}
			resp := playground.Explain(context.Background(), src, c.req)
			got, err := json.MarshalIndent(resp, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			// The Parquet file's name is a temporary directory's.
			got = bytes.ReplaceAll(got, []byte(parquet), []byte("lineitem.parquet"))
			checkGolden(t, filepath.Join("testdata", "explain", c.name+".json"), append(got, '\n'))
		})
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return ""
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestErrorPlaces: every error is placed where the command's caret
// points, in UTF-16 units of its own field (the select list's items
// counted from the start of the list).
func TestErrorPlaces(t *testing.T) {
	src := demoSource(t)
	for _, c := range []struct {
		name         string
		req          playground.Request
		field        string
		start, end   int
		line, column int
		message      string
	}{
		{"end of input", playground.Request{Where: "l_quantity <"}, "where", 12, 12, 1, 13, "expected an expression"},
		{"unknown column", playground.Request{Where: "l_quantty < 5"}, "where", 0, 9, 1, 1, "l_quantity"},
		{"type error", playground.Request{Where: "l_comment + 1 > 2"}, "where", 0, 9, 1, 1, "--where"},
		{"second line", playground.Request{Where: "l_quantity < 5 AND\n  nope"}, "where", 21, 25, 2, 3, "nope"},
		{"select item two", playground.Request{Select: "l_orderkey,  l_nope + 1 AS x"}, "select", 13, 19, 1, 14, "select item 2"},
		{"after non-ASCII text", playground.Request{Where: "l_comment = 'héllo 😀' AND nope"}, "where", 27, 31, 1, 27, "nope"},
		{"not a predicate", playground.Request{Where: "l_quantity + 1"}, "where", 0, 14, 1, 1, "not bool"},
		{"malformed list", playground.Request{Select: "l_orderkey, (a"}, "select", 12, 13, 1, 13, "never closed"},
		{"empty item", playground.Request{Select: "l_orderkey,, a"}, "select", 11, 12, 1, 12, "item 2 is empty"},
		{"overflow at run time", playground.Request{Select: "l_orderkey * 9223372036854775807"}, "select", -1, -1, 0, 0, "overflow"},
		{"overflow in the filter", playground.Request{Where: "l_orderkey * 9223372036854775807 > 0"}, "where", -1, -1, 0, 0, "overflow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := playground.Explain(context.Background(), src, c.req)
			if len(resp.Errors) != 1 {
				t.Fatalf("errors: %+v, want one", resp.Errors)
			}
			e := resp.Errors[0]
			if e.Field != c.field || e.Start != c.start || e.End != c.end || e.Line != c.line || e.Column != c.column {
				t.Errorf("error %+v\nwant field %s, span [%d, %d), at %d:%d", e, c.field, c.start, c.end, c.line, c.column)
			}
			if !strings.Contains(e.Message, c.message) {
				t.Errorf("message %q, want it to contain %q", e.Message, c.message)
			}
			if resp.Rows != nil {
				t.Errorf("rows for a request with errors: %+v", resp.Rows)
			}
		})
	}
}

// TestStepsReplay: the page rebuilds the tree at each step by putting the
// step's replacement at its path; doing so over the bound tree's Nodes
// gives the optimized tree's Nodes.
func TestStepsReplay(t *testing.T) {
	src := demoSource(t)
	for _, text := range []string{
		"NOT (l_quantity * 1 > 5) OR l_returnflag = 'R' AND true",
		"coalesce(l_tax, 0) + 0 > 0.01 AND l_shipmode IN ('AIR') AND NOT NOT l_quantity > 1",
		"list_any([l_tax, l_discount], d -> d * 1 > 0.02 AND true)",
	} {
		resp := playground.Explain(context.Background(), src, playground.Request{Where: text, Limit: 1})
		if len(resp.Errors) > 0 {
			t.Fatalf("%s: %+v", text, resp.Errors)
		}
		ex := resp.Exprs[0]
		if len(ex.Trace) == 0 {
			t.Fatalf("%s: no rewrites", text)
		}
		tree := ex.Bound
		for i, s := range ex.Trace {
			if s.Kind != "applied" {
				continue
			}
			var ok bool
			if tree, ok = replace(tree, s.Path, s.Replacement); !ok {
				t.Fatalf("%s: step %d (%s) has path %v, not in the tree", text, i+1, s.Rule, s.Path)
			}
		}
		got, _ := json.Marshal(tree)
		want, _ := json.Marshal(ex.OptimizedTree)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: replayed steps give\n%s\nthe optimized tree is\n%s", text, got, want)
		}
	}
}

// replace is app.js's replace, in Go.
func replace(n *playground.Node, path []int, sub *playground.Node) (*playground.Node, bool) {
	if len(path) == 0 {
		return sub, true
	}
	if path[0] >= len(n.Children) {
		return nil, false
	}
	c := *n
	c.Children = append([]*playground.Node(nil), n.Children...)
	kid, ok := replace(n.Children[path[0]], path[1:], sub)
	c.Children[path[0]] = kid
	return &c, ok
}

// TestTreeLimits: a long expression gives a tree cut at MaxTreeNodes
// nodes, and the nodes left out are counted.
func TestTreeLimits(t *testing.T) {
	src := demoSource(t)
	var b strings.Builder
	b.WriteString("l_linenumber")
	for range 1500 {
		b.WriteString(" + l_linenumber * 2")
	}
	resp := playground.Explain(context.Background(), src, playground.Request{Select: b.String(), Limit: 1})
	if len(resp.Errors) > 0 {
		t.Fatal(resp.Errors)
	}
	shown, left := count(resp.Exprs[0].Bound)
	if shown > playground.MaxTreeNodes || shown+left != 2+1500*5 {
		t.Errorf("tree of %d nodes shown, %d left out; want at most %d shown, %d in all", shown, left, playground.MaxTreeNodes, 2+1500*5)
	}
}

func count(n *playground.Node) (shown, left int) {
	shown, left = 1, n.LeftOut
	for _, c := range n.Children {
		s, l := count(c)
		shown += s
		left += l
	}
	return shown, left
}

func TestHandler(t *testing.T) {
	srv := httptest.NewServer(playground.Handler(demoSource(t)))
	defer srv.Close()
	big := `{"where": "` + strings.Repeat("a", playground.MaxRequestBytes) + `"}`
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		contains                 string
	}{
		{"page", "GET", "/", "", 200, "<title>colexpr playground</title>"},
		{"script", "GET", "/app.js", "", 200, "playground.Explain"},
		{"table", "GET", "/api/table", "", 200, `"name":"the demo table"`},
		{"explain", "POST", "/api/explain", `{"where": "l_quantity < 2", "limit": 1}`, 200, `"rows":{"columns"`},
		{"expression error", "POST", "/api/explain", `{"where": "l_quantity <"}`, 200, `"start":12`},
		{"not JSON", "POST", "/api/explain", `where=1`, 400, "not JSON"},
		{"empty body", "POST", "/api/explain", ``, 400, "empty"},
		{"unknown field", "POST", "/api/explain", `{"where": "true", "file": "/etc/passwd"}`, 400, `unknown field \"file\"`},
		{"wrong type", "POST", "/api/explain", `{"where": 1}`, 400, `\"where\" is a JSON number`},
		{"two values", "POST", "/api/explain", `{} {}`, 400, "more than one"},
		{"too large", "POST", "/api/explain", big, 413, "over 65536 bytes"},
		{"explain by GET", "GET", "/api/explain", "", 404, "POST /api/explain"},
		{"unknown API", "GET", "/api/file?path=/etc/passwd", "", 404, "the API is"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != c.status || !strings.Contains(string(body), c.contains) {
				t.Errorf("%s %s: %d %.300s\nwant %d with %q", c.method, c.path, res.StatusCode, body, c.status, c.contains)
			}
			if c.status >= 400 && !strings.Contains(res.Header.Get("Content-Type"), "json") {
				t.Errorf("error answered as %s, not JSON", res.Header.Get("Content-Type"))
			}
		})
	}
}

// TestNoOtherFile: no URL reaches a file outside the embedded page, however
// it is spelt; the server reads only its table.
func TestNoOtherFile(t *testing.T) {
	srv := httptest.NewServer(playground.Handler(demoSource(t)))
	defer srv.Close()
	secret, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		"/server.go", "/../server.go", "/static/../server.go", "/%2e%2e/server.go", "/..%2fserver.go",
		"/playground_test.go", "/../../go.mod", "/testdata/", "/static/", "/etc/passwd", "//etc/passwd",
		"/api/table?file=server.go", "/api/explain/../../server.go",
	} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if bytes.Contains(body, secret[:200]) || bytes.Contains(body, []byte("module github.com")) || bytes.Contains(body, []byte("root:")) {
			t.Errorf("GET %s served a file: %d %.100s", path, res.StatusCode, body)
		}
	}
}
