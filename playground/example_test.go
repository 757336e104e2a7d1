package playground_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

// Explain gives everything the page shows for a filter and a select list:
// here the rewrites the optimizer made, where, and the first rows.
func ExampleExplain() {
	src := scan.Demo(memory.DefaultAllocator, 1000)
	defer src.Close()
	resp := playground.Explain(context.Background(), src, playground.Request{
		Where:  "NOT (l_quantity * 1 > 45) AND true",
		Select: "l_orderkey, l_quantity",
		Limit:  2,
	})
	where := resp.Exprs[0]
	fmt.Println(where.What, "::", where.DType, "=>", where.Optimized)
	for _, s := range where.Trace {
		fmt.Printf("  %s at %v: %s -> %s\n", s.Rule, s.Path, s.Before, s.After)
	}
	for _, row := range resp.Rows.Values {
		fmt.Println(" ", *row[0], *row[1])
	}
	// Output:
	// --where :: bool => l_quantity * 1::decimal(1,0) <= 45.00::decimal(16,2)
	//   binary/not_compare at [0]: NOT l_quantity * 1::decimal(1,0) > 45.00::decimal(16,2) -> l_quantity * 1::decimal(1,0) <= 45.00::decimal(16,2)
	//   binary/and_true at []: l_quantity * 1::decimal(1,0) <= 45.00::decimal(16,2) AND true -> l_quantity * 1::decimal(1,0) <= 45.00::decimal(16,2)
	//   1 41.00
	//   1 33.00
}

// An error is placed in its field's text, as the command's caret places
// it: the page underlines Start to End.
func ExampleExplain_error() {
	src := scan.Demo(memory.DefaultAllocator, 10)
	defer src.Close()
	resp := playground.Explain(context.Background(), src, playground.Request{Select: "l_orderkey, l_orderkey + nope"})
	for _, e := range resp.Errors {
		fmt.Printf("%s [%d, %d) at %d:%d: %.40s…\n", e.Field, e.Start, e.End, e.Line, e.Column, e.Message)
	}
	// Output:
	// select [25, 29) at 1:26: select item 2: unknown column "nope"; th…
}

// Describe is the schema the page lists.
func ExampleDescribe() {
	src := scan.Demo(memory.DefaultAllocator, 10)
	defer src.Close()
	t := playground.Describe(src)
	fmt.Println(t.Name, len(t.Columns), "columns, row groups:", t.RowGroups)
	for _, c := range t.Columns[:3] {
		fmt.Println(" ", c.Name, c.DType)
	}
	// Output:
	// the demo table 18 columns, row groups: -1
	//   l_orderkey i64
	//   l_partkey i64
	//   l_suppkey i64
}

// Handler serves the page and its API; colexpr serve runs it.
func ExampleHandler() {
	src := scan.Demo(memory.DefaultAllocator, 1000)
	defer src.Close()
	srv := httptest.NewServer(playground.Handler(src))
	defer srv.Close()
	res, err := http.Post(srv.URL+"/api/explain", "application/json", strings.NewReader(`{"where": "l_quantity <"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.Status)
	fmt.Println(strings.Contains(string(body), `"errors":[{"field":"where","message":"--where: expected an expression after '\u003c', found end of input","start":12,"end":12,"line":1,"column":13}]`))
	// Output:
	// 200 OK
	// true
}

// DecodeRequest reads a request strictly: a field the page does not send
// is an error, not ignored.
func ExampleDecodeRequest() {
	_, status, err := playground.DecodeRequest(strings.NewReader(`{"where": "true", "path": "/etc/passwd"}`))
	fmt.Println(status, err)
	req, status, err := playground.DecodeRequest(strings.NewReader(`{"where": "l_tax > 0.02", "limit": 5}`))
	fmt.Println(status, err, req.Where, req.Limit)
	// Output:
	// 400 the request: json: unknown field "path"
	// 200 <nil> l_tax > 0.02 5
}

// NewServer is the http.Server colexpr serve listens with: Handler with
// header, read and write timeouts.
func ExampleNewServer() {
	srv := playground.NewServer("127.0.0.1:8080", http.NotFoundHandler())
	fmt.Println(srv.Addr, srv.ReadHeaderTimeout, srv.WriteTimeout)
	// Output:
	// 127.0.0.1:8080 5s 15s
}

// Assets are the page's files, served by Handler and copied next to
// colexpr.wasm by the WebAssembly build.
func ExampleAssets() {
	for _, name := range []string{"index.html", "app.js", "style.css"} {
		b, err := io.ReadAll(must(playground.Assets().Open(name)))
		fmt.Println(name, err == nil && len(b) > 0)
	}
	// Output:
	// index.html true
	// app.js true
	// style.css true
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Open opens the file a page explains against. A CSV file can be
// scanned only once, so Open reads it into a copy the page scans for
// every answer; done removes it.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "prices.csv")
	os.WriteFile(path, []byte("item,price\napple,1.25\npear,0.8\nfig,3\n"), 0o644)
	src, done, err := playground.Open(memory.DefaultAllocator, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()
	for _, where := range []string{"price > 1", "item LIKE 'p%'"} {
		resp := playground.Explain(context.Background(), src, playground.Request{Where: where, Select: "item"})
		fmt.Println(where, "→", len(resp.Rows.Values), "rows")
	}
	fmt.Println(filepath.Base(src.Name()))
	// Output:
	// price > 1 → 2 rows
	// item LIKE 'p%' → 1 rows
	// prices.csv
}
