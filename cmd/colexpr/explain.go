package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/demo"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scan"
)

var explainCommand = &command{
	name:     "explain",
	synopsis: "explain [--schema-of FILE] [--substrait] EXPR | explain --substrait-plan [--where EXPR] [--select LIST] [FILE...]",
	summary:  "show each stage of an expression, or its Substrait form",
	usage: `Usage: colexpr explain [--schema-of FILE] [--substrait] EXPR
       colexpr explain --substrait-plan [--where EXPR] [--select LIST] [FILE...]

Shows what colexpr makes of EXPR over the schema of FILE (or of the demo
table), stage by stage:

  parsed        the expression as parsed, in canonical text
  coerced       with the casts and literal types coercion chose
  bound         the bound tree, one node per line, with its dtype
  rewrites      every optimizer rewrite in order: the rule, the node before, after
  optimized     the optimized expression and its tree
  partitions    the expression split by column, as a reader pushes it down
  columns read  the columns (and struct fields) a scan would read
  falsifier     for a predicate: the expression over a row group's statistics
                (minimum, maximum and null count of each column, row count,
                and for the values of = and IN whether the column's bloom
                filter rules them out) that is true only when no row of the
                group can satisfy EXPR, and the layout of those statistics;
                query skips the Parquet row groups where it is true

A long expression is abbreviated rather than printed whole at every step:
trees show their first 100 lines, the rewrites their first 500 with the
trees of each cut to some 120 characters, and other lines longer than 1000
characters are cut too; each cut says how much it left out.

  --schema-of FILE    the schema EXPR is bound against (default: the demo table's)
  --substrait         print only the Substrait ExtendedExpression of the
                      optimized EXPR, as protobuf JSON, for another engine or for
                      query --substrait. EXPR may then be a list, as query's
                      --select takes: each item becomes one expression of the
                      message, named by its AS name or else by its text. The
                      message's base schema holds only the columns EXPR reads.
                      A construct Substrait has no form for (an unsigned integer,
                      list_contains, …) is an error that names it.
  --substrait-plan    print only the Substrait plan of the query that
                      colexpr query --where EXPR --select LIST FILE... runs
                      (both optional; no FILE: the demo table), as protobuf
                      JSON: a read of the FILEs (Parquet, Arrow IPC, CSV;
                      the demo table as the named table lineitem) with their
                      schema and the columns read, the part of --where that
                      row-group pruning uses as its best-effort filter, a
                      filter of --where and a project of --select named by
                      the output names. Another engine runs it, and so does
                      query --substrait PLAN.
` + csvFlagsUsage + `
Write "--" before an expression that starts with "-".

Examples:
  colexpr explain "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07"
  colexpr explain --substrait "l_quantity < 24" > filter.json
  colexpr explain --substrait "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue" > select.json
  colexpr explain --substrait-plan --where "l_quantity < 24" --select "l_orderkey, l_tax * 2 AS t" lineitem.parquet > plan.json
`,
	run: runExplain,
}

func runExplain(e *env, args []string) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	schemaOf := fs.String("schema-of", "", "")
	var csv csvFlags
	csv.register(fs)
	asSubstrait := fs.Bool("substrait", false, "")
	asPlan := fs.Bool("substrait-plan", false, "")
	where := fs.String("where", "", "")
	selects := fs.String("select", "", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *asPlan && *asSubstrait:
		return usagef("--substrait prints an expression's ExtendedExpression, --substrait-plan a query's plan: give one")
	case *asPlan && *schemaOf != "":
		return usagef("--substrait-plan reads the schema of its FILEs: give them instead of --schema-of")
	case !*asPlan && (set["where"] || set["select"]):
		return usagef("--where and --select make the query of --substrait-plan; to explain an expression, give it as EXPR")
	case *asPlan:
		if set["where"] && strings.TrimSpace(*where) == "" {
			return errors.New("--where: the expression is empty")
		}
		if set["select"] && strings.TrimSpace(*selects) == "" {
			return errors.New("--select: the list is empty")
		}
		src, err := openInputs(e, memory.DefaultAllocator, pos, demo.DefaultRows, &csv)
		if err != nil {
			return err
		}
		defer src.Close()
		js, err := exportSubstraitPlan(src, *where, *selects)
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(js)
		return err
	}
	switch len(pos) {
	case 0:
		return usagef("the expression to explain is missing")
	case 1:
	default:
		return usagef("one expression, got %d arguments (quote the expression): %s", len(pos), strings.Join(pos, " "))
	}
	if strings.TrimSpace(pos[0]) == "" {
		return errors.New("the expression is empty")
	}
	var inputs []string
	if *schemaOf != "" {
		inputs = []string{*schemaOf}
	}
	src, err := openInputs(e, memory.DefaultAllocator, inputs, 0, &csv)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := src.Resolve(); err != nil {
		return err
	}
	if *asSubstrait {
		js, err := exportSubstrait(pos[0], src.Schema())
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(js)
		return err
	}
	text, err := explain(pos[0], src)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, text)
	return err
}

// explain renders every stage of text over the source src: compiled as the
// filter of a scan when it is a predicate, else as its one select item.
func explain(text string, src *scan.Source) (string, error) {
	sch := src.Schema()
	prog, err := sch.Compile(text, nil)
	if err != nil {
		return "", fmt.Errorf("the expression: %w", err)
	}
	q := scan.Query{Select: []scan.Expr{{Program: prog, Name: "result"}}}
	if prog.DType().IsBool() {
		q = scan.Query{Where: &scan.Expr{Program: prog}}
	}
	plan, err := scan.Compile(src, q, scan.Options{})
	if err != nil {
		return "", err
	}
	st := prog.Stages()
	var b strings.Builder
	section := func(title string, lines ...string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(title + "\n")
		for _, l := range lines {
			for _, line := range strings.Split(strings.TrimRight(l, "\n"), "\n") {
				if len(line) > maxLine {
					line = expr.Abbreviate(line)
				}
				b.WriteString("  " + line + "\n")
			}
		}
	}
	section("expression", strings.TrimSpace(text))
	section("parsed", st.Parsed.String())
	section("coerced", st.Coerced.String())
	section("bound", treeText(st.Bound, sch.Root))

	var rewrites []string
	for i, ev := range st.Trace.Events {
		if i == maxRewrites {
			rewrites = append(rewrites, leftOut(st.Trace.Events[i:]))
			break
		}
		head := fmt.Sprintf("%d. %s", i+1, ev.Rule)
		if ev.Kind != optimize.Applied {
			head += " (" + ev.Kind.String() + ": " + ev.Reason + ")"
		}
		rewrites = append(rewrites, head+"\n     before: "+expr.Abbreviate(ev.Before.String())+"\n     after:  "+expr.Abbreviate(ev.After.String()))
	}
	if len(rewrites) == 0 {
		rewrites = []string{"(none)"}
	}
	section("rewrites", rewrites...)
	section("optimized", st.Optimized.String(), treeText(st.Optimized, sch.Root))

	if p, err := partition.ByField(st.Optimized, sch.Scope()); err != nil {
		section("partitions", "(none: "+err.Error()+")")
	} else {
		section("partitions", p.String())
	}
	var used []string
	for _, path := range partition.ReferencedFields(st.Optimized) {
		if len(path) == 0 {
			used = append(used, "$ (every column)")
			continue
		}
		parts := make([]string, len(path))
		for i, n := range path {
			parts[i] = dtype.QuoteFieldName(n)
		}
		used = append(used, strings.Join(parts, "."))
	}
	cols := plan.Columns()
	for i, c := range cols {
		cols[i] = dtype.QuoteFieldName(c)
	}
	switch {
	case len(used) == 0 && len(cols) == 0:
		section("columns read", "(none)")
	case len(used) == 0:
		section("columns read", "(none; "+strings.Join(cols, ", ")+" only to count the rows)")
	default:
		section("columns read", strings.Join(used, ", "))
	}
	section("falsifier", falsifierLines(prog, plan)...)
	if read, total := plan.RowGroups(); total >= 0 {
		n := total
		if read != nil {
			n = len(read)
		}
		section("row groups", fmt.Sprintf("read %d, skipped %d of %d", n, total-n, total))
	}
	return b.String(), nil
}

// falsifierLines describes the falsifier of a predicate for explain.
func falsifierLines(prog *colexpr.Program, plan *scan.Plan) []string {
	if t := prog.DType(); !t.IsBool() {
		return []string{"(none: the expression has type " + t.String() + ", not bool)"}
	}
	p, err := plan.Falsifier()
	switch {
	case err != nil:
		return []string{"(none: " + err.Error() + ")"}
	case plan.NoRows():
		return []string{"true (the expression is never true: nothing is read)"}
	case p == nil || p.Inconclusive():
		return []string{"false (no statistics can rule out a row: nothing is skipped)"}
	}
	lines := []string{
		p.Expr.String(),
		"statistics: " + p.Stats.String(),
	}
	for _, c := range p.Columns {
		for k, v := range c.Probes {
			lines = append(lines, fmt.Sprintf("cols.%s.absent_%d: true where the bloom filter rules out %s", dtype.QuoteFieldName(c.Key()), k, v.SQL()))
		}
	}
	return lines
}

// Explain prints the first maxTreeLines lines of a bound tree and the first
// maxRewrites events of the optimizer's trace, the trees of an event
// abbreviated to some 120 characters, and any other line longer than
// maxLine bytes abbreviated too (expr.Abbreviate); it says what it left out.
const (
	maxTreeLines = 100
	maxRewrites  = 500
	maxLine      = 1000
)

// leftOut is the line that stands for the trace's events left out: how
// many, and how many times each rule applied (or had a problem) in them.
func leftOut(events []optimize.Event) string {
	counts := map[string]int{}
	var order []string
	for _, ev := range events {
		key := ev.Rule
		if ev.Kind != optimize.Applied {
			key += " (" + ev.Kind.String() + ")"
		}
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%s ×%d", k, counts[k])
	}
	return fmt.Sprintf("… (%d more rewrites left out: %s)", len(events), strings.Join(parts, ", "))
}

// treeText is b's tree for explain: its first maxTreeLines lines, then how
// many nodes were left out.
func treeText(b *expr.Bound, root dtype.DType) string {
	s, left := b.TreeUpTo(maxTreeLines)
	s = abbreviateRoot(s, root)
	if left > 0 {
		s += fmt.Sprintf("… (%d more nodes left out)\n", left)
	}
	return s
}

// abbreviateRoot shortens the lines of a tree that print the whole input
// schema as the dtype of $: on a wide schema they drown the tree.
// `colexpr schema` prints it in full.
func abbreviateRoot(tree string, root dtype.DType) string {
	full := "$ :: " + root.String()
	if len(full) <= 80 {
		return tree
	}
	short := fmt.Sprintf("$ :: struct<…> (the input schema: %d columns)", len(root.Fields()))
	lines := strings.Split(tree, "\n")
	for i, l := range lines {
		if strings.TrimLeft(l, " ") == full {
			lines[i] = l[:len(l)-len(full)] + short
		}
	}
	return strings.Join(lines, "\n")
}
