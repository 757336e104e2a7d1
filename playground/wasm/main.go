//go:build js && wasm

// Command wasm is the playground compiled to WebAssembly: it runs
// playground.Explain in the browser, over the demo table or a file
// dropped on the page, so the page needs no server.
//
// Build the static site (the page, colexpr.wasm and Go's wasm_exec.js) with
//
//	playground/wasm/build.sh OUTDIR
//
// and serve OUTDIR with any static file server. The page (app.js) loads
// wasm_exec.js and colexpr.wasm, then calls the functions this program
// sets on globalThis.colexpr; each returns a Promise of a JSON string:
//
//	colexpr.explain(requestJSON)  a playground.Response, or {"error": …}
//	colexpr.open(path, name)      makes the file at path (in the page's
//	                              in-memory file system) the table, as
//	                              playground.Open opens it (a CSV file is
//	                              copied there first); a playground.Table,
//	                              or {"error": …}
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

// session is the table the page explains against. Calls are served one
// at a time: a page types faster than it reads, and a newer request
// waits for the one running.
type session struct {
	mu   sync.Mutex
	src  *scan.Source
	done func() error // closes src (and removes its copy, see playground.Open)
	// name is the table's name as the page shows it: the dropped file's
	// name, not the path it has in the page's file system (path) or its
	// copy's.
	name, path string
}

func main() {
	demo := scan.Demo(memory.DefaultAllocator, playground.DemoRows)
	s := &session{src: demo, done: demo.Close, name: demo.Name()}
	api := js.Global().Get("Object").New()
	api.Set("explain", promised(s.explain))
	api.Set("open", promised(s.open))
	js.Global().Set("colexpr", api)
	if ready := js.Global().Get("colexprReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// promised wraps f as a JavaScript function that returns a Promise of
// f's JSON. f runs on a goroutine of its own: a Go function called from
// JavaScript must not block the event loop.
func promised(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) any {
		args = append([]js.Value(nil), args...)
		executor := js.FuncOf(func(this js.Value, p []js.Value) any {
			resolve := p[0]
			go func() {
				resolve.Invoke(encode(safely(f, args)))
			}()
			return nil
		})
		defer executor.Release()
		return js.Global().Get("Promise").New(executor)
	})
}

// safely runs f and turns a panic, a bug, into an error the page shows.
func safely(f func([]js.Value) any, args []js.Value) (v any) {
	defer func() {
		if p := recover(); p != nil {
			v = failure(fmt.Sprintf("internal error (a bug, please report it): %v", p))
		}
	}()
	return f(args)
}

func failure(msg string) any {
	return struct {
		Error string `json:"error"`
	}{msg}
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(failure("encoding the response: " + err.Error()))
	}
	return string(b)
}

func (s *session) explain(args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return failure("colexpr.explain takes one argument, the request as JSON")
	}
	req, _, err := playground.DecodeRequest(strings.NewReader(args[0].String()))
	if err != nil {
		return failure(err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), playground.RequestTimeout)
	defer cancel()
	resp := playground.Explain(ctx, s.src, req)
	resp.Table = s.describe()
	for i, e := range resp.Errors {
		resp.Errors[i].Message = s.named(e.Message)
	}
	return resp
}

// describe is the table with the name the page knows it by.
func (s *session) describe() playground.Table {
	t := playground.Describe(s.src)
	t.Name = s.name
	return t
}

// named is msg with the table's paths replaced by its name.
func (s *session) named(msg string) string {
	if s.path == "" {
		return msg
	}
	return strings.NewReplacer(s.src.Name(), s.name, s.path, s.name).Replace(msg)
}

func (s *session) open(args []js.Value) any {
	if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		return failure("colexpr.open takes two arguments, the file's path and its name")
	}
	path, name := args[0].String(), args[1].String()
	src, done, err := playground.Open(memory.DefaultAllocator, path)
	if err != nil {
		return failure(strings.ReplaceAll(err.Error(), path, name))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done()
	s.src, s.done, s.name, s.path = src, done, name, path
	return s.describe()
}
