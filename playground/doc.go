// Package playground is colexpr's page in the browser: type an expression,
// watch it bind, rewrite, partition, prune and run.
//
// The page shows, for a filter (--where) and a select list (--select) over
// one table:
//
//   - the table's schema (Table);
//   - each expression's stages, as `colexpr explain` prints them: the
//     parsed and coerced text, the bound tree with the dtype of every node
//     and the frame of every lambda (Node), the optimizer's rewrites in
//     order, each with its rule and the place of the subtree it replaced
//     (Step, from optimize.Event.Path), the optimized tree, the partitions
//     by column and the columns read;
//   - the filter's falsifier over row-group statistics and, of a Parquet
//     table, the row groups it skips (Falsifier, RowGroups);
//   - the first rows of the result (Rows);
//   - every error at its place in the text (Error), so the page underlines
//     it as the command's caret points at it.
//
// Explain computes all of it, through the library's public API (the calls
// the explain and query commands make), and returns a Response that
// encodes to the JSON the page reads. It is the one function behind both
// ways to run the page:
//
//   - Handler serves the page and POST /api/explain over one table. The
//     colexpr command runs it: colexpr serve [--addr 127.0.0.1:8080] [FILE].
//     Nothing a request says names a file: the table is the one the server
//     was started with. Bodies are limited to MaxRequestBytes, requests to
//     RequestTimeout, and bad input is answered with a JSON error.
//   - The WebAssembly build (playground/wasm) runs Explain in the browser:
//     a static site of Assets, colexpr.wasm and Go's wasm_exec.js, with no
//     server, which playground/wasm/build.sh [OUTDIR] makes. The page
//     tells which it runs on: without a server's /api/table it loads
//     colexpr.wasm. A Parquet, Arrow IPC or CSV file dropped on the page
//     becomes the table.
//
// Both open a file with Open: a CSV file or an Arrow IPC stream, which a
// scan reads only once, is copied to an Arrow IPC file that the page
// scans for every answer.
//
// The page itself (Assets: index.html, app.js, style.css) is plain HTML,
// CSS and JavaScript with no build step. It keeps its state in the URL
// (#where=…&select=…), so a link reproduces what it shows; it works with
// the keyboard alone and on a phone-sized screen. The module
// playground/browsertest drives it in headless Chromium.
package playground
