//go:build js && wasm

package main

// go generate (with GOOS=js GOARCH=wasm, as this file's build tags ask)
// builds the static site into playground/site, which git ignores.
//go:generate ./build.sh ../site
