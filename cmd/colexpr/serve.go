package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/playground"
	"github.com/colexpr/colexpr/scan"
)

var serveCommand = &command{
	name:     "serve",
	synopsis: "serve [--addr HOST:PORT] [FILE]",
	summary:  "serve the playground: type an expression in a browser, see every stage",
	usage: `Usage: colexpr serve [--addr HOST:PORT] [FILE]

Serves the playground, a page where you type a filter and a select list
and see, as you type, what colexpr makes of them over FILE (or over the
demo table, 60 000 rows): errors underlined where they are, the bound tree
with the dtype of every node, each optimizer rewrite in place with its
rule, the partitions by column, the falsifier and the row groups of a
Parquet FILE it skips, and the first rows. It shows what explain and query
print, from the same library calls. The page keeps its state in the URL.

FILE is one Parquet, Arrow IPC or CSV file; it is the only file the server
reads (no request names a file). A CSV file or an Arrow IPC stream, which
can be read only once, is first copied whole to an Arrow IPC file in the
temporary directory, removed when the server stops. Requests are limited
in size (64 KiB) and time (10 s). The server runs until interrupted
(Ctrl-C).

  --addr HOST:PORT    where to listen (default 127.0.0.1:8080; port 0 picks
                      a free one). Listening beyond the local machine lets
                      anyone who reaches it run expressions over FILE.

The same page runs without a server, compiled to WebAssembly: see
playground/wasm/build.sh in the source.

Examples:
  colexpr serve
  colexpr demo --sort l_shipdate --row-groups 16 --out lineitem.parquet
  colexpr serve lineitem.parquet
`,
	run: runServe,
}

func runServe(e *env, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("one FILE, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	mem := memory.DefaultAllocator
	var src *scan.Source
	if len(pos) == 0 {
		src = scan.Demo(mem, playground.DemoRows)
		defer src.Close()
	} else {
		st, err := os.Stat(pos[0])
		switch {
		case err != nil:
			return err
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s is not a file: serve reads one Parquet, Arrow IPC or CSV file", pos[0])
		}
		// A CSV file is copied, to be scanned for every answer.
		var done func() error
		if src, done, err = playground.Open(mem, pos[0]); err != nil {
			return err
		}
		defer done()
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := playground.NewServer(ln.Addr().String(), playground.Handler(src))
	fmt.Fprintf(e.stdout, "colexpr serve: %s at http://%s/ (Ctrl-C stops)\n", src.Name(), ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
