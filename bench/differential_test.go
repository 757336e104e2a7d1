package bench

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// The differential test evaluates random expressions with colexpr and with
// DuckDB over the same random table and requires the same values, the same
// nulls, and an error from both or from neither. Where the two differ by a
// deliberate semantic choice, the generator does not go (each such choice is
// listed, with its reason, in knownDifferences, whose test shows that the
// difference is still there). Disagreements that were colexpr bugs are kept
// in regressions.
var (
	diffSeed  = flag.Uint64("diff.seed", 1, "seed of the differential test's table and expressions")
	diffN     = flag.Int("diff.n", 1000, "number of random expressions the differential test checks")
	diffRows  = flag.Int("diff.rows", 200, "rows of the differential test's table")
	diffDepth = flag.Int("diff.depth", 4, "maximum depth of a random expression")
	diffKeep  = flag.Bool("diff.keep-going", false, "report every disagreement, not only the first few")
)

// diffEnv is the test table, in memory for colexpr and loaded into DuckDB.
type diffEnv struct {
	mem  *memory.CheckedAllocator
	rec  arrow.RecordBatch
	duck *Duck
}

func newDiffEnv(t *testing.T, seed uint64, rows int) *diffEnv {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := rand.New(rand.NewPCG(seed, 0xd1ff))
	env := &diffEnv{mem: mem, rec: diffTable(mem, r, rows)}
	t.Cleanup(func() {
		env.rec.Release()
		mem.AssertSize(t, 0)
	})
	d, err := OpenDuck()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	// DuckDB's common-subexpression optimizer hoists a subexpression that
	// occurs twice (as x IN (a, b) and x BETWEEN a AND b expand) out of a
	// coalesce argument and evaluates it on every row, so its errors appear
	// where coalesce would not have evaluated it. Without that optimizer,
	// DuckDB's coalesce is lazy, as colexpr's is.
	if _, err := d.DB.Exec("SET disabled_optimizers = 'common_subexpressions'"); err != nil {
		t.Fatal(err)
	}
	if err := d.Load("t", env.rec.Schema(), []arrow.RecordBatch{env.rec}); err != nil {
		t.Fatal(err)
	}
	env.duck = d
	return env
}

// outcome is what one engine made of an expression: a value text per row, or
// an error.
type outcome struct {
	vals []string
	err  error
}

func (o outcome) String() string {
	if o.err != nil {
		return "error: " + o.err.Error()
	}
	return fmt.Sprintf("%d rows", len(o.vals))
}

func (env *diffEnv) colexpr(src string) outcome {
	p, err := colexpr.Compile(src, env.rec.Schema())
	if err != nil {
		return outcome{err: fmt.Errorf("compile: %w", err)}
	}
	out, err := p.Eval(env.mem, env.rec)
	if err != nil {
		return outcome{err: err}
	}
	defer out.Release()
	vals := make([]string, out.Len())
	for i := range vals {
		if vals[i], err = arrowText(out, i); err != nil {
			return outcome{err: err}
		}
	}
	return outcome{vals: vals}
}

// colexprUnoptimized evaluates src bound and coerced but not optimized.
func (env *diffEnv) colexprUnoptimized(src string) outcome {
	root, err := dtype.FromArrowSchema(env.rec.Schema())
	if err != nil {
		return outcome{err: err}
	}
	e, err := parse.Parse(src)
	if err != nil {
		return outcome{err: err}
	}
	b, err := coerce.Bind(e, expr.ScopeOf(root))
	if err != nil {
		return outcome{err: err}
	}
	out, err := eval.EvalRecord(env.mem, b, env.rec)
	if err != nil {
		return outcome{err: err}
	}
	out.Release()
	return outcome{}
}

// duckdbUnoptimized runs sql with DuckDB's optimizer off.
func (env *diffEnv) duckdbUnoptimized(sql string) outcome {
	if _, err := env.duck.DB.Exec("PRAGMA disable_optimizer"); err != nil {
		return outcome{err: err}
	}
	defer env.duck.DB.Exec("PRAGMA enable_optimizer")
	return env.duckdb(sql)
}

func (env *diffEnv) duckdb(sql string) outcome {
	rows, err := env.duck.DB.Query("SELECT " + sql + " AS v FROM t ORDER BY rid")
	if err != nil {
		return outcome{err: err}
	}
	defer rows.Close()
	var vals []string
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return outcome{err: err}
		}
		s, err := goText(v)
		if err != nil {
			return outcome{err: fmt.Errorf("bench: %w", err)}
		}
		vals = append(vals, s)
	}
	if err := rows.Err(); err != nil {
		return outcome{err: err}
	}
	return outcome{vals: vals}
}

// disagreement compares the two engines on one expression and describes how
// they differ, or returns "" when they agree. Both optimizers may remove an
// evaluation error (colexpr's optimize documents that `x AND false` is false
// even where x would fail; DuckDB folds `x + NULL` to NULL and moves
// constants across comparisons, so `x + 1 < 10` never computes x + 1): when
// one engine raises and the other does not, the expression is run again
// without the optimizer of the engine that did not raise, and if that raises
// too, the engines agree on the unoptimized semantics and the case counts as
// the known difference "an optimizer removed an error" (the second result).
func (env *diffEnv) disagreement(colexprSrc, duckSQL string) verdict {
	c, d := env.colexpr(colexprSrc), env.duckdb(duckSQL)
	switch {
	case c.err != nil && d.err != nil:
		return verdict{bothErr: true}
	case c.err == nil && d.err != nil:
		if env.colexprUnoptimized(colexprSrc).err != nil {
			return verdict{removedErr: true}
		}
		if du := env.duckdbUnoptimized(duckSQL); du.err == nil {
			if msg := compareOutcomes(c, du, env.rec); msg != "" {
				return verdict{msg: "DuckDB without its optimizer: " + msg}
			}
			return verdict{foldedErr: true}
		}
	case c.err != nil && d.err == nil:
		if env.duckdbUnoptimized(duckSQL).err != nil {
			return verdict{removedErr: true}
		}
		if kept, vals, ok := env.colexprSkipping(colexprSrc); ok {
			dv := make([]string, len(kept))
			for i, r := range kept {
				dv[i] = d.vals[r]
			}
			if msg := compareOutcomes(outcome{vals: vals}, outcome{vals: dv}, env.rec); msg != "" {
				return verdict{msg: "without the rows where only colexpr raised: " + msg}
			}
			return verdict{skippedRows: len(d.vals) - len(kept)}
		}
	}
	return verdict{msg: compareOutcomes(c, d, env.rec)}
}

// colexprSkipping evaluates src one row at a time and returns the rows it
// does not raise an error at (indices into the table) with its values there;
// ok is false when src does not compile. DuckDB does not evaluate an operand
// that cannot change a row's result (the right side of AND where the left is
// false, of OR where it is true, the other arguments of a null-propagating
// call where one is NULL for a whole vector); colexpr evaluates every
// argument of such calls, so it raises on rows where DuckDB does not.
func (env *diffEnv) colexprSkipping(src string) (kept []int, vals []string, ok bool) {
	p, err := colexpr.Compile(src, env.rec.Schema())
	if err != nil {
		return nil, nil, false
	}
	for r := range int(env.rec.NumRows()) {
		row := env.rec.NewSlice(int64(r), int64(r+1))
		out, err := p.Eval(env.mem, row)
		row.Release()
		if err != nil {
			continue
		}
		v, err := arrowText(out, 0)
		out.Release()
		if err != nil {
			return nil, nil, false
		}
		kept, vals = append(kept, r), append(vals, v)
	}
	return kept, vals, true
}

// verdict is the result of running both engines: a description of their
// disagreement (empty when they agree), or how they agreed on an error.
type verdict struct {
	msg        string
	bothErr    bool // both raised
	removedErr bool // one raised, and the other too without its optimizer
	// foldedErr: DuckDB raised, and without its optimizer it agrees with
	// colexpr (it folded a failing constant that no row needed).
	foldedErr bool
	// skippedRows is the number of rows where colexpr raised and DuckDB,
	// which did not evaluate the failing operand there, did not.
	skippedRows int
}

func compareOutcomes(c, d outcome, rec arrow.RecordBatch) string {
	switch {
	case c.err != nil && d.err != nil:
		return ""
	case c.err != nil || d.err != nil:
		return fmt.Sprintf("colexpr %s; DuckDB %s", c, d)
	case len(c.vals) != len(d.vals):
		return fmt.Sprintf("colexpr gave %d rows, DuckDB %d", len(c.vals), len(d.vals))
	}
	var diffs []string
	for i := range c.vals {
		if c.vals[i] != d.vals[i] {
			diffs = append(diffs, fmt.Sprintf("row %d: colexpr %s, DuckDB %s (row: %s)", i, c.vals[i], d.vals[i], rowText(rec, i)))
			if len(diffs) == 3 {
				break
			}
		}
	}
	return strings.Join(diffs, "\n    ")
}

// rowText prints the non-null values of one row of the test table, for
// messages.
func rowText(rec arrow.RecordBatch, i int) string {
	var parts []string
	for c := 0; c < int(rec.NumCols())-1; c++ {
		col := rec.Column(c)
		if col.IsNull(i) {
			continue
		}
		s, _ := arrowText(col, i)
		parts = append(parts, rec.Schema().Field(c).Name+"="+s)
	}
	return strings.Join(parts, " ")
}

// shrink replaces e by smaller expressions that still make the engines
// disagree, as long as it finds one (within a bounded number of tries).
func (env *diffEnv) shrink(g *gen, e *gnode) *gnode {
	budget := 300
	for changed := true; changed && budget > 0; {
		changed = false
		for _, s := range e.shrinks(g) {
			if budget--; budget <= 0 {
				break
			}
			if s.size() >= e.size() || !s.avoidsKnown() {
				continue
			}
			if env.disagreement(s.String(), s.SQL()).msg != "" {
				e, changed = s, true
				break
			}
		}
	}
	return e
}

func TestDifferential(t *testing.T) {
	env := newDiffEnv(t, *diffSeed, *diffRows)
	g := &gen{r: rand.New(rand.NewPCG(*diffSeed, 0xe4e4))}
	types := []gtype{gBool, gBool, gBool, gI8, gI16, gI32, gI64, gU8, gU32, gU64, gF64, gDec, gStr, gDate}
	var found, bothErr, removed, skipped, folded int
	for i := range *diffN {
		e := g.expr(types[g.pick(len(types))], 1+g.pick(*diffDepth))
		for !e.avoidsKnown() {
			e = g.expr(types[g.pick(len(types))], 1+g.pick(*diffDepth))
		}
		v := env.disagreement(e.String(), e.SQL())
		if v.removedErr {
			removed++
		}
		if v.foldedErr {
			folded++
		}
		if v.bothErr {
			bothErr++
		}
		if v.skippedRows > 0 {
			skipped++
		}
		if v.msg != "" {
			found++
			small := env.shrink(g, e)
			t.Errorf("expression %d disagrees:\n  %s\n  %s\nshrunk to:\n  %s\n  %s",
				i, e.describe(), v.msg, small.describe(), env.disagreement(small.String(), small.SQL()).msg)
			if found >= 5 && !*diffKeep {
				t.Fatalf("stopping after %d disagreements (-diff.keep-going reports all)", found)
			}
		}
	}
	t.Logf("%d expressions over %d rows (seed %d): %d disagreements; %d raised in both engines; "+
		"%d raised in one engine and in the other without its optimizer; "+
		"%d raised in colexpr only, on rows DuckDB did not evaluate, and agreed on the other rows; "+
		"%d raised in DuckDB only, and agreed without its optimizer",
		*diffN, *diffRows, *diffSeed, found, bothErr, removed, skipped, folded)
	if bothErr > *diffN/2 {
		t.Errorf("%d of %d expressions failed in both engines: the generator makes too many errors to test values", bothErr, *diffN)
	}
}
