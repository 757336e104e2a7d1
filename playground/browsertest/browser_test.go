// Package browsertest drives the playground page in headless Chromium.
//
// It is a module of its own so that the main module does not depend on
// chromedp. Run it with
//
//	cd playground/browsertest && go test .
//
// It needs Chromium (Debian: apt-get install chromium), found at
// $CHROMIUM or as chromium, chromium-browser or google-chrome on the
// PATH; without one every test skips and says so. TestWasm also needs a
// built static site (see its doc). -screenshots rewrites the README's
// screenshots, ../screenshots/*.png.
package browsertest

import (
	"bytes"
	"context"
	"flag"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

// chromium is the browser's path; the test skips without one.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found (install the Debian package chromium, or set $CHROMIUM to a Chrome or Chromium binary): the browser test does not run")
	return ""
}

// browser starts a headless Chromium with a window of the given size and
// returns the context of its first tab, which ends with the test. A tab of
// the same browser is chromedp.NewContext of it.
func browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The first Do starts the browser: it gets no deadline, the tab's
	// actions below do.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// serve serves the playground over the demo table, as colexpr serve does.
func serve(t *testing.T) (string, *scan.Source) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	src := scan.Demo(mem, playground.DemoRows)
	srv := httptest.NewServer(playground.Handler(src))
	t.Cleanup(func() {
		srv.Close()
		src.Close()
		mem.AssertSize(t, 0)
	})
	return srv.URL, src
}

// ready is the number of the last answer the page has drawn ("" before
// the first): app.js sets it on the body.
func ready(t *testing.T, ctx context.Context) string {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.ready ?? ""`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// answered waits until the page has drawn an answer after the one
// numbered before, and the answer to the text as it stands: the page is
// aria-busy from a keystroke until then.
func answered(before string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`document.body.dataset.ready !== undefined && document.body.dataset.ready !== `+jsString(before)+` && !document.body.hasAttribute("aria-busy")`, chromedp.WithPollingTimeout(30*time.Second))
}

// typeInto replaces the text of the field (where or select) by typing,
// as a person does: select all, delete, type, a line break as
// Shift+Enter (Enter alone runs the expression). It waits for the page's
// answer to the whole text.
func typeInto(t *testing.T, ctx context.Context, field, text string) {
	t.Helper()
	before := ready(t, ctx)
	sel := chromedp.ID(field)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.Focus(sel),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(kb.Delete),
	}
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			steps = append(steps, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)))
		}
		steps = append(steps, chromedp.SendKeys(sel, line))
	}
	steps = append(steps,
		chromedp.Poll[chromedp.Void](`document.querySelector("#`+field+`").value === `+jsString(text)),
		answered(before))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("typing %q into %s: %v", text, field, err)
	}
}

// eval is the value of a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// logLoad logs the page's load time: from the navigation's start to the
// first answer drawn (the mark app.js sets), with the time to
// DOMContentLoaded. The target is under 2 s on the demo table;
// a time is reported, never asserted: it measures the machine as much as
// the page.
func logLoad(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	times := eval[[]float64](t, ctx, `[performance.getEntriesByName("colexpr:first-answer")[0].startTime,
		performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd]`)
	t.Logf("load time of %s: %.0f ms from the navigation's start to the first answer drawn (DOMContentLoaded at %.0f ms)", what, times[0], times[1])
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { return strconv.Quote(s) }

// nodes are the labels of the tree nodes under sel, each "label ::
// dtype" as the page writes it.
func nodes(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	return eval[[]string](t, ctx, `Array.from(document.querySelectorAll(`+jsString(sel+" .node")+`),
		(n) => n.querySelector("b").textContent + " " + n.querySelector(".dt").textContent)`)
}

func TestPage(t *testing.T) {
	url, src := serve(t)
	ctx := browser(t, 1280, 800)

	// Load: the page draws the answer to its default expressions.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/"), answered("")); err != nil {
		t.Fatal(err)
	}
	logLoad(t, ctx, "the page served by Handler")
	if got := eval[string](t, ctx, `document.querySelector("#table-name").textContent`); got != "the demo table" {
		t.Errorf("table name %q", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll("#schema tbody tr").length`); got != len(playground.Describe(src).Columns) {
		t.Errorf("the schema lists %d columns, want %d", got, len(playground.Describe(src).Columns))
	}

	// Type an expression: the bound tree has a dtype on every node.
	const where = "NOT (l_quantity * 1 > 45) OR l_returnflag = 'R' AND true"
	typeInto(t, ctx, "where", where)
	bound := nodes(t, ctx, "#tree")
	wantBound := []string{
		"or :: bool",
		"not :: bool",
		"gt :: bool",
		"mul :: decimal(16,2)",
		"get_item l_quantity :: decimal(15,2)",
		"$ :: struct<…> (the input schema: 18 columns)",
		"literal 1::decimal(1,0) :: decimal(1,0)",
		"literal 45.00::decimal(16,2) :: decimal(16,2)",
		"and :: bool",
		"eq :: bool",
		"get_item l_returnflag :: utf8",
		"$ :: struct<…> (the input schema: 18 columns)",
		"literal 'R' :: utf8",
		"literal true :: bool",
	}
	if strings.Join(bound, "\n") != strings.Join(wantBound, "\n") {
		t.Errorf("bound tree:\n%s\nwant\n%s", strings.Join(bound, "\n"), strings.Join(wantBound, "\n"))
	}
	if depth := eval[int](t, ctx, `document.querySelector('#tree [data-path="0.0.0.0"]') ? 1 : 0`); depth != 1 {
		t.Error("the tree is not nested: no node at path 0.0.0.0")
	}

	// The trace: each step names its rule and highlights the subtree it
	// replaces, before and after; the keyboard steps through it.
	type stepView struct {
		Label  string   `json:"label"`
		Rule   string   `json:"rule"`
		Before []string `json:"before"`
		After  []string `json:"after"`
	}
	const viewJS = `({
		label: document.querySelector("#step-label").textContent,
		rule: document.querySelector("#step-view .rule").textContent,
		before: Array.from(document.querySelectorAll("#step-before li.hl > .node"), (n) => n.textContent),
		after: Array.from(document.querySelectorAll("#step-after li.hl > .node"), (n) => n.textContent),
	})`
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("next"))); err != nil {
		t.Fatal(err)
	}
	first := stepView{"step 1 of 2", "binary/not_compare", []string{"not :: bool"}, []string{"lte :: bool"}}
	for i, want := range []stepView{
		first,
		{"step 2 of 2", "binary/and_true", []string{"and :: bool"}, []string{"eq :: bool"}},
		first, // the focus is not lost when "next" is disabled at the last step
	} {
		if i > 0 {
			key := kb.ArrowRight
			if i == 2 {
				key = kb.ArrowLeft
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
				t.Fatal(err)
			}
		}
		got := eval[stepView](t, ctx, viewJS)
		if got.Label != want.Label || got.Rule != want.Rule || strings.Join(got.Before, "|") != strings.Join(want.Before, "|") || strings.Join(got.After, "|") != strings.Join(want.After, "|") {
			t.Errorf("step %d:\n got %+v\nwant %+v", i+1, got, want)
		}
	}
	if got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#steps li"), (n) => n.textContent)`); strings.Join(got, ",") != "binary/not_compare,binary/and_true" {
		t.Errorf("the list of rewrites: %q", got)
	}

	// With the keyboard alone: the arrows step from a step of the list,
	// and the focus stays on the step shown, so that the next arrow works.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#steps li:first-child button"))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, label string
	}{{kb.ArrowRight, "step 2 of 2"}, {kb.ArrowLeft, "step 1 of 2"}, {kb.ArrowRight, "step 2 of 2"}} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(c.key)); err != nil {
			t.Fatal(err)
		}
		label := eval[string](t, ctx, `document.querySelector("#step-label").textContent`)
		focus := eval[string](t, ctx, `document.activeElement.closest("#steps") && document.activeElement.getAttribute("aria-current") === "true" ? document.activeElement.textContent : "focus on " + document.activeElement.tagName + "#" + document.activeElement.id`)
		if label != c.label || !strings.HasPrefix(focus, "binary/") {
			t.Errorf("after %q: %q, %s", c.key, label, focus)
		}
	}
	// A tab chosen with the keyboard keeps the focus too.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#exprs button:nth-child(2)")), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.activeElement.closest("#exprs") ? document.activeElement.getAttribute("aria-current") + " " + document.activeElement.textContent : "focus on " + document.activeElement.tagName`); got != "true select item 1" {
		t.Errorf("after Enter on the second tab: %s", got)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#exprs button:first-child")), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}

	// The rows are the first rows Explain gives for the same request.
	checkRows(t, ctx, src, where)

	// Broken expressions: the error is underlined where it is and the
	// caret under the line points at it.
	for _, c := range []struct {
		field, text    string
		start, end     int // the underline, in characters
		line, column   int
		message, caret string
	}{
		{"where", "l_quantity < 5 AND l_tax >", 26, 26, 1, 27, "expected an expression", "l_quantity < 5 AND l_tax >\n                          ^"},
		{"where", "l_quantity < 5 AND nope > 1", 19, 23, 1, 20, `unknown column "nope"`, "l_quantity < 5 AND nope > 1\n                   ^"},
		{"where", "l_shipmode = 'é' AND\nl_tax + 'x' > 1", 21, 26, 2, 1, "", "l_tax + 'x' > 1\n^"},
		{"select", "l_orderkey, l_orderkey +* 2", 24, 25, 1, 25, "", "l_orderkey, l_orderkey +* 2\n                        ^"},
	} {
		t.Run(c.field+"/"+c.text, func(t *testing.T) {
			typeInto(t, ctx, "where", map[bool]string{true: c.text, false: "true"}[c.field == "where"])
			typeInto(t, ctx, "select", map[bool]string{true: c.text, false: "l_orderkey"}[c.field == "select"])
			type shown struct {
				Field, Message, Caret, Mark string
				Line, Column, Start, End    int
				Invalid                     string
				Aligned                     bool
			}
			got := eval[shown](t, ctx, `(() => {
				const e = document.querySelector("#errors .error");
				const m = document.querySelector("#`+c.field+`-shadow mark");
				const ta = document.querySelector("#`+c.field+`");
				const a = getComputedStyle(ta), b = getComputedStyle(m.parentElement);
				const same = ["font-family", "font-size", "line-height", "letter-spacing", "padding-left", "padding-top", "border-left-width", "border-top-width", "white-space", "width"].every((p) => a.getPropertyValue(p) === b.getPropertyValue(p));
				return { Field: e.dataset.field, Message: e.firstChild.textContent, Caret: e.querySelector("pre").textContent,
					Mark: m.textContent, Line: +e.dataset.line, Column: +e.dataset.column, Start: +m.dataset.start, End: +m.dataset.end,
					Invalid: ta.getAttribute("aria-invalid"), Aligned: same && m.parentElement.scrollHeight === ta.scrollHeight && m.parentElement.clientWidth === ta.clientWidth };
			})()`)
			runes := []rune(c.text)
			wantMark := string(runes[c.start:c.end])
			if got.Field != c.field || got.Line != c.line || got.Column != c.column || got.Start != c.start || got.End != c.end || got.Mark != wantMark || got.Invalid != "true" {
				t.Errorf("error shown as %+v; want %s line %d column %d, underline [%d, %d) %q", got, c.field, c.line, c.column, c.start, c.end, wantMark)
			}
			if !strings.Contains(got.Message, c.message) || got.Caret != c.caret {
				t.Errorf("message %q with caret\n%s\nwant %q with\n%s", got.Message, got.Caret, c.message, c.caret)
			}
			if !got.Aligned {
				t.Error("the underline's layer is not laid out as the text field: the underline is not under the text")
			}
		})
	}

	// The state is in the URL: a tab opened at it shows the same.
	typeInto(t, ctx, "select", "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue")
	typeInto(t, ctx, "where", where)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("next")), chromedp.Click(chromedp.ID("show-optimized"))); err != nil {
		t.Fatal(err)
	}
	href, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	const stateJS = `[document.querySelector("#where").value, document.querySelector("#select").value,
		document.querySelector("#step-label").textContent, document.querySelector("#tree-panel h2").textContent,
		document.querySelector("#rows-table tbody").textContent]`
	before := eval[[]string](t, ctx, stateJS)
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(tab, chromedp.Navigate(href), answered("")); err != nil {
		t.Fatal(err)
	}
	after := eval[[]string](t, tab, stateJS)
	if strings.Join(after, "\x00") != strings.Join(before, "\x00") {
		t.Errorf("%s shows\n%q\nwhere the page it came from showed\n%q", href, after, before)
	}
}

// TestPhone checks the page at a phone's width: nothing is wider than
// the screen.
func TestPhone(t *testing.T) {
	url, _ := serve(t)
	ctx := browser(t, 390, 844)
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(1), chromedp.EmulateMobile),
		chromedp.Navigate(url+"/"),
		answered(""),
	); err != nil {
		t.Fatal(err)
	}
	wide := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("body *"), (e) => e).filter((e) => {
		const r = e.getBoundingClientRect();
		return r.right > window.innerWidth + 1 && !e.closest(".scroll, .tree, #step-view");
	}).map((e) => e.tagName + "#" + e.id + "." + e.className)`)
	if len(wide) > 0 || eval[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`) {
		t.Errorf("at 390 px these are wider than the screen: %q", wide)
	}
}

var screenshots = flag.Bool("screenshots", false, "write the README's screenshots of the page to ../screenshots/")

// TestScreenshots types an example expression at a desktop's and at a
// phone's size, and checks the screenshot of each is the screen's size;
// with -screenshots it writes them for the README (../screenshots/).
func TestScreenshots(t *testing.T) {
	url, _ := serve(t)
	for _, c := range []struct {
		name          string
		width, height int
		mobile        bool
	}{
		{"desktop", 1280, 800, false},
		{"phone", 390, 844, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := browser(t, c.width, c.height)
			opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
			if c.mobile {
				opts = append(opts, chromedp.EmulateMobile)
			}
			if err := chromedp.Do(ctx,
				chromedp.EmulateViewport(int64(c.width), int64(c.height), opts...),
				chromedp.Navigate(url+"/"),
				answered(""),
			); err != nil {
				t.Fatal(err)
			}
			typeInto(t, ctx, "where", "l_shipmode IN ('AIR', 'MAIL') AND NOT (l_quantity * 1 > 45) AND true")
			if err := chromedp.Do(ctx, chromedp.Blur(chromedp.ID("where")), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
				t.Fatal(err)
			}
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != c.width || b.Dy() != c.height {
				t.Errorf("the screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), c.width, c.height)
			}
			if *screenshots {
				if err := os.WriteFile(filepath.Join("..", "screenshots", c.name+".png"), shot, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote ../screenshots/%s.png (%d KB)", c.name, len(shot)>>10)
			}
		})
	}
}
