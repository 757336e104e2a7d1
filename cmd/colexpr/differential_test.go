package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/scan"
)

var (
	diffCases = flag.Int("diff.cases", 150, "random queries TestCommandAgreesWithLibrary runs")
	diffSeed  = flag.Uint64("diff.seed", 1, "seed of TestCommandAgreesWithLibrary's queries")
)

// TestCommandAgreesWithLibrary runs random queries over the demo table
// through the command (run, as from a shell) and through the library
// without an optimizer (every column the text names read, nothing
// rewritten), and compares the CSV outputs. The queries lean on what
// optimization removes (IS NOT NULL of a column without nulls, x * 0,
// constant CASE conditions, OR true), where planning in the command once
// went wrong while the library was right.
func TestCommandAgreesWithLibrary(t *testing.T) {
	const rows = 3000
	r := rand.New(rand.NewPCG(*diffSeed, 7))
	failed := 0 // queries both refuse
	for i := 0; i < *diffCases; i++ {
		g := &queryGen{r: r}
		where := g.pred(3)
		var items []string
		for n := 1 + r.IntN(3); n > 0; n-- {
			items = append(items, g.item(2))
		}
		selects := strings.Join(items, ", ")
		args := []string{"query", "--demo-rows", fmt.Sprint(rows), "--format", "csv", "--threads", "2", "--batch-size", "700", "--where", where, "--select", selects}
		var stdout, stderr bytes.Buffer
		status := run(args, nil, &stdout, &stderr)

		want, err := libraryCSV(rows, where, selects)
		switch {
		case err != nil && status == exitOK:
			t.Errorf("case %d: --where %q --select %q: the library fails (%v), the command does not", i, where, selects, err)
		case err == nil && status != exitOK:
			t.Errorf("case %d: --where %q --select %q: the command fails (%s), the library does not", i, where, selects, stderr.String())
		case err != nil:
			failed++
		case stdout.String() != want:
			t.Errorf("case %d: --where %q --select %q: the command prints\n%s\nthe library\n%s", i, where, selects, head(stdout.Bytes(), 400), head([]byte(want), 400))
		}
	}
	// A generator whose queries mostly fail tests little.
	if failed > *diffCases/4 {
		t.Errorf("%d of %d queries failed on both sides", failed, *diffCases)
	}
}

// libraryCSV runs the query through package scan, unoptimized, and
// writes its result as the command's CSV format does.
func libraryCSV(rows int64, where, selects string) (string, error) {
	mem := memory.DefaultAllocator
	src := scan.Demo(mem, rows)
	defer src.Close()
	items, err := scan.SplitSelect(selects)
	if err != nil {
		return "", err
	}
	q := scan.Query{Where: &scan.Expr{Text: where}, Select: items}
	plan, err := scan.Compile(src, q, scan.Options{Threads: 1, BatchSize: 1000, Optimizer: optimize.NewEmpty()})
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	sink, err := newSink("csv", &out, plan.Schema(), mem, nil)
	if err != nil {
		return "", err
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		return "", err
	}
	defer rr.Release()
	if err := copyRows(rr, sink, -1); err != nil {
		return "", err
	}
	if err := sink.finish(); err != nil {
		return "", err
	}
	return out.String(), nil
}

// queryGen writes random predicates and select items over the demo table.
type queryGen struct{ r *rand.Rand }

func (g *queryGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *queryGen) num(depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.pick("l_orderkey", "l_quantity", "l_discount", "l_tax", "l_linenumber", "l_dims.w", "3", "0.5")
	}
	a, b := g.num(depth-1), g.num(depth-1)
	switch g.r.IntN(6) {
	case 0:
		return "(" + a + " + " + b + ")"
	case 1:
		return "(" + a + " * 0)"
	case 2:
		return "coalesce(" + a + ", " + b + ")"
	case 3:
		return "CASE WHEN 1 = " + g.pick("1", "2") + " THEN " + a + " ELSE " + b + " END"
	case 4:
		return "(" + a + " - " + b + ")"
	}
	return "abs(" + a + ")"
}

func (g *queryGen) pred(depth int) string {
	if depth <= 0 || g.r.IntN(4) == 0 {
		switch g.r.IntN(7) {
		case 0:
			return g.num(1) + g.pick(" < ", " >= ", " = ", " <> ") + g.pick("10", "0.05", "25.5", "1000")
		case 1:
			return g.pick("l_comment", "l_quantity", "l_tags", "l_dims", "l_shipmode") + g.pick(" IS NULL", " IS NOT NULL")
		case 2:
			return "l_shipdate " + g.pick("<", ">=") + " DATE '199" + g.pick("3", "5", "7") + "-06-01'"
		case 3:
			return "l_shipmode IN ('AIR', 'MAIL')"
		case 4:
			return "(" + g.num(1) + " * 0 = 1)"
		case 5:
			return "list_any(l_tags, t -> t = 'gift')"
		}
		return g.pick("true", "false", "CAST(NULL AS bool)")
	}
	a, b := g.pred(depth-1), g.pred(depth-1)
	switch g.r.IntN(4) {
	case 0:
		return "(" + a + " AND " + b + ")"
	case 1:
		return "(" + a + " OR " + b + ")"
	case 2:
		return "NOT (" + a + ")"
	}
	return "CASE WHEN " + a + " THEN " + b + " ELSE " + g.pred(0) + " END"
}

func (g *queryGen) item(depth int) string {
	switch g.r.IntN(4) {
	case 0:
		return g.pred(depth) + fmt.Sprintf(" AS p%d", g.r.IntN(1000))
	case 1:
		return g.pick("l_orderkey", "l_shipmode", "l_comment", "l_shipdate", "l_tags")
	}
	return g.num(depth) + fmt.Sprintf(" AS n%d", g.r.IntN(1000))
}
