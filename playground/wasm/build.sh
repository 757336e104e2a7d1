#!/bin/sh
# Builds the playground as a static site, with no server, in OUTDIR (default:
# a new temporary directory): the page's files (playground/static, the same
# front end colexpr serve serves), colexpr.wasm and the wasm_exec.js of the
# Go that builds it (the two must match). Prints OUTDIR on stdout, so that
#   site=$(playground/wasm/build.sh)
# works. Serve OUTDIR with any static file server, such as
#   python3 -m http.server -d OUTDIR 8080
# The page finds no /api/table there and runs colexpr.wasm in the browser.
# A cold build takes minutes (the whole library for GOOS=js); a rebuild
# seconds. The site is not committed: colexpr.wasm is about 90 MB (14 MB
# gzipped).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/colexpr-playground-site.XXXXXX")}
mkdir -p "$out"
cp "$here"/../static/* "$out"/
# wasm_exec.js is in lib/wasm since Go 1.24 (misc/wasm before).
goroot=$(go env GOROOT)
exec_js=$goroot/lib/wasm/wasm_exec.js
[ -f "$exec_js" ] || exec_js=$goroot/misc/wasm/wasm_exec.js
cp "$exec_js" "$out"/
(cd "$here" && GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o "$out/colexpr.wasm" .)
echo "built $out ($(du -h "$out/colexpr.wasm" | cut -f1) colexpr.wasm)" >&2
echo "$out"
