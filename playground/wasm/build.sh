#!/bin/sh
# Builds the playground as a static site in OUTDIR (default: playground/site):
# the page's files, colexpr.wasm and the wasm_exec.js of the Go that builds it
# (the two must match). Serve OUTDIR with any static file server, such as
#   python3 -m http.server -d OUTDIR 8080
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../site}
mkdir -p "$out"
cp "$here"/../static/* "$out"/
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out"/
(cd "$here" && GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o "$out/colexpr.wasm" .)
echo "built $out ($(du -h "$out/colexpr.wasm" | cut -f1) colexpr.wasm)"
