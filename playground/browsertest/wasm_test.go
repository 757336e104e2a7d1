package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/chromedp"

	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

// TestWasm loads the static WebAssembly site (no server: a plain file
// server over the directory playground/wasm/build.sh makes), runs an
// expression over the demo table, then drops a Parquet and a CSV file
// on the page and runs expressions over each.
//
// It runs only when $COLEXPR_WASM_SITE names a built site, because the
// build does not belong in a test: a cold GOOS=js build of the library
// took 4 min 52 s here (a rebuild, 10 to 40 s). Run it with
//
//	COLEXPR_WASM_SITE=$(../wasm/build.sh) go test -run Wasm .
//
// .ci/run does so.
func TestWasm(t *testing.T) {
	site := os.Getenv("COLEXPR_WASM_SITE")
	if site == "" {
		t.Skip("$COLEXPR_WASM_SITE is not set: build the static site with COLEXPR_WASM_SITE=$(../wasm/build.sh) to run this test")
	}
	for _, f := range []string{"index.html", "app.js", "wasm_exec.js", "colexpr.wasm"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Fatalf("$COLEXPR_WASM_SITE=%s is not a built site: %v", site, err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer srv.Close()
	ctx := browser(t, 1280, 800)

	// The page finds no server API and runs colexpr.wasm instead.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), answered("")); err != nil {
		t.Fatal(err)
	}
	logLoad(t, ctx, "the WebAssembly site")
	if got := eval[string](t, ctx, `document.querySelector("#timing").textContent`); !strings.HasSuffix(got, "(wasm)") {
		t.Errorf("the page says %q: it does not run the WebAssembly build", got)
	}
	if eval[bool](t, ctx, `document.querySelector("#drop").classList.contains("hidden")`) {
		t.Error("the file input is hidden in the WebAssembly build")
	}

	// An expression over the demo table gives the rows the server gives.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := scan.Demo(mem, playground.DemoRows)
	defer src.Close()
	const where = "l_shipmode IN ('AIR', 'MAIL') AND l_quantity * 2 > 90"
	typeInto(t, ctx, "where", where)
	checkRows(t, ctx, src, where)

	// Dropped files become the table: a Parquet file, with its row
	// groups, and a CSV file, which is scanned at each answer.
	dir := t.TempDir()
	parquet := filepath.Join(dir, "lineitem.parquet")
	tbl := demo.Table{Seed: demo.DefaultSeed, Rows: 4000}
	rr, err := tbl.NewReaderWith(memory.DefaultAllocator, demo.ReaderOptions{Batches: 8, SortBy: "l_shipdate"})
	if err != nil {
		t.Fatal(err)
	}
	err = scan.WriteParquet(parquet, rr, scan.ParquetOptions{})
	rr.Release()
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "fruit.csv")
	if err := os.WriteFile(csv, []byte("item,price\napple,1.25\npear,0.8\nfig,3\nkiwi,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type query struct {
		where, select_ string
		rowGroups      string   // the falsifier panel's count, "" for no row groups
		rows           []string // the rows' text, nil for any rows
	}
	for _, c := range []struct {
		path    string
		queries []query
	}{
		{parquet, []query{{"l_shipdate < DATE '1992-03-01'", "l_orderkey, l_shipdate", "row groups: read 1, skipped 7 of 8", nil}}},
		// A CSV file is scanned once: the page's copy answers every time.
		{csv, []query{
			{"price > 1", "item, price * 2 AS twice", "", []string{"apple 2.5", "fig 6"}},
			{"price IS NULL OR item LIKE 'p%'", "item", "", []string{"pear", "kiwi"}},
		}},
		{csv, []query{{"item = 'fig'", "price", "", []string{"3"}}}}, // the same file again
	} {
		name := filepath.Base(c.path)
		before := ready(t, ctx)
		if err := chromedp.Do(ctx,
			chromedp.SetUploadFiles(chromedp.ID("file"), []string{c.path}),
			chromedp.Poll[chromedp.Void](`document.querySelector("#table-name").textContent.startsWith(`+jsString(name)+`) && document.body.dataset.ready !== `+jsString(before), chromedp.WithPollingTimeout(30*time.Second)),
			answered(before),
		); err != nil {
			t.Fatalf("dropping %s: %v", name, err)
		}
		for _, q := range c.queries {
			typeInto(t, ctx, "select", q.select_)
			typeInto(t, ctx, "where", q.where)
			if errs := eval[string](t, ctx, `document.querySelector("#errors").textContent`); errs != "" {
				t.Fatalf("%s: %s", name, errs)
			}
			if q.rowGroups != "" {
				if got := eval[string](t, ctx, `document.querySelector("#row-groups").textContent`); got != q.rowGroups {
					t.Errorf("%s: %q, want %q", name, got, q.rowGroups)
				}
			}
			got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#rows-table tbody tr"), (tr) => Array.from(tr.cells, (td) => td.textContent).join(" "))`)
			if q.rows == nil && len(got) == 0 || q.rows != nil && strings.Join(got, "|") != strings.Join(q.rows, "|") {
				t.Errorf("%s where %s: rows %q, want %q", name, q.where, got, q.rows)
			}
		}
	}
}

// checkRows compares the rows table of the page with the rows Explain
// gives for its request over src.
func checkRows(t *testing.T, ctx context.Context, src *scan.Source, where string) {
	t.Helper()
	want := playground.Explain(context.Background(), src, playground.Request{Where: where, Select: eval[string](t, ctx, `document.querySelector("#select").value`)})
	if len(want.Errors) > 0 || want.Rows == nil {
		t.Fatalf("Explain: %+v", want.Errors)
	}
	type table struct {
		Head []string   `json:"head"`
		Body [][]string `json:"body"`
	}
	got := eval[table](t, ctx, `({
		head: Array.from(document.querySelectorAll("#rows-table thead th"), (th) => th.firstChild.textContent),
		body: Array.from(document.querySelectorAll("#rows-table tbody tr"), (tr) => Array.from(tr.cells, (td) => td.textContent)),
	})`)
	var head []string
	for _, c := range want.Rows.Columns {
		head = append(head, c.Name)
	}
	if strings.Join(got.Head, ",") != strings.Join(head, ",") || len(got.Body) != len(want.Rows.Values) || len(got.Body) == 0 {
		t.Fatalf("rows table: %d rows of %q, want %d of %q", len(got.Body), got.Head, len(want.Rows.Values), head)
	}
	for i, row := range want.Rows.Values {
		for j, v := range row {
			text := "NULL"
			if v != nil {
				text = *v
			}
			if got.Body[i][j] != text {
				t.Errorf("row %d column %s: the page shows %q, Explain gives %q", i, head[j], got.Body[i][j], text)
			}
		}
	}
}
