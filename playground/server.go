package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/colexpr/colexpr/scan"
)

// Server limits.
const (
	// MaxRequestBytes is the largest request body the server reads; a
	// larger one is answered 413 with a JSON error.
	MaxRequestBytes = 64 << 10
	// RequestTimeout bounds the work of one request: a scan still running
	// then is stopped and the answer is an error.
	RequestTimeout = 10 * time.Second
	// MaxConcurrent is how many requests are explained at once; the others
	// wait their turn, up to RequestTimeout.
	MaxConcurrent = 4
)

// Handler serves the page and its API over one table, src:
//
//	GET  /              the page (index.html) and its static files
//	GET  /api/table     the table's schema (Table)
//	POST /api/explain   a Request as JSON; the Response as JSON
//
// Nothing a request says names a file: the only file read is src's, so a
// page cannot reach any other. A request body over MaxRequestBytes, a
// malformed body, or a method the path does not take is answered with a
// JSON object {"error": "…"} and a 4xx status; an expression's own errors
// are part of a 200 Response (Response.Errors), with their places.
// Each request runs at most RequestTimeout, MaxConcurrent at a time.
func Handler(src *scan.Source) http.Handler {
	h := &handler{src: src, slots: make(chan struct{}, MaxConcurrent)}
	mux := http.NewServeMux()
	mux.Handle("GET /", noDirs(http.FileServerFS(Assets())))
	mux.HandleFunc("GET /api/table", h.table)
	mux.HandleFunc("POST /api/explain", h.explain)
	return securityHeaders(mux)
}

type handler struct {
	src   *scan.Source
	slots chan struct{}
}

func (h *handler) table(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, Describe(h.src))
}

func (h *handler) explain(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
	defer cancel()
	req, status, err := DecodeRequest(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-ctx.Done():
		writeError(w, http.StatusServiceUnavailable, "the server is busy: try again")
		return
	}
	resp := Explain(ctx, h.src, req)
	writeJSON(w, http.StatusOK, resp)
}

// DecodeRequest reads a Request from JSON: exactly one object, no unknown
// fields. The status is the HTTP status an error is answered with.
func DecodeRequest(r io.Reader) (Request, int, error) {
	var req Request
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooBig):
			return req, http.StatusRequestEntityTooLarge, fmt.Errorf("the request is over %d bytes", tooBig.Limit)
		case errors.Is(err, io.EOF):
			return req, http.StatusBadRequest, errors.New("the request is empty: send a JSON object {\"where\": …, \"select\": …}")
		case errors.As(err, &syn):
			return req, http.StatusBadRequest, fmt.Errorf("the request is not JSON: %v at byte %d", syn, syn.Offset)
		case errors.As(err, &typ):
			return req, http.StatusBadRequest, fmt.Errorf("the request's %q is a JSON %s, not a %s (at byte %d)", typ.Field, typ.Value, typ.Type, typ.Offset)
		}
		return req, http.StatusBadRequest, fmt.Errorf("the request: %v", err)
	}
	if dec.More() {
		return req, http.StatusBadRequest, errors.New("the request holds more than one JSON value")
	}
	return req, http.StatusOK, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the response: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// noDirs answers 404 for a directory other than the top, so the embedded
// files are not listed, and a JSON 404 for an API path that is not one.
func noDirs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/api/") {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no API %s %s: the API is GET /api/table and POST /api/explain", r.Method, p))
			return
		}
		if p != "/" && p[len(p)-1] == '/' {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// securityHeaders keeps the page from being framed or sniffed: it runs
// the expressions it is given.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Assets are the page's files: index.html, app.js, style.css. The
// WebAssembly build serves the same files next to colexpr.wasm and
// wasm_exec.js.
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}

// NewServer is an http.Server for Handler with the timeouts a server
// reachable from a browser needs.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      RequestTimeout + 5*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}
