package bench

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
)

// notGenerated are the functions of fn.Default the differential generator
// never calls, each with the reason. TestDifferentialCoverage keeps the
// list exact: a function missing from both the generator and this list
// fails it, and so does an entry the generator has come to call.
var notGenerated = map[string]string{
	"error": "it raises wherever it is evaluated, so in a random expression it tests only which branches each engine evaluates; " +
		"TestRegressions checks it in a branch never taken and on a row",
	"list_any":     "DuckDB has no list_any over a lambda (list_bool_or(list_transform(xs, f)) differs on nulls)",
	"list_all":     "DuckDB has no list_all over a lambda (list_bool_and(list_transform(xs, f)) differs on nulls)",
	"merge":        "DuckDB has no merge of structs, and the generator makes no structs",
	"regexp_count": "DuckDB has no regexp_count (colexpr's is Substrait's regexp_count_substring)",
	"now":          "no two engines read the clock at one instant; TestClockAgainstDuckDB checks it against DuckDB's to within a minute",
	"today":        "no two engines read the clock at one instant; TestClockAgainstDuckDB checks it against DuckDB's",
	"typeof": "colexpr's typeof prints colexpr's type names (i32, utf8), DuckDB's its own (INTEGER, VARCHAR); " +
		"fn's TestTypeOfAndListUnique and eval's reference check it",
}

// TestDifferentialCoverage generates expressions as TestDifferential does
// (without DuckDB), 100 000 and then more (up to 400 000) while a function
// is still missing, and checks that every function of the registry is
// called by some, or is listed in notGenerated with its reason.
func TestDifferentialCoverage(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(1, 0xe4e4))}
	types := []gtype{gBool, gBool, gBool, gI8, gI16, gI32, gI64, gU8, gU32, gU64, gF64, gDec, gStr, gDate}
	seen := map[string]bool{}
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		if c, ok := e.(*expr.Call); ok {
			seen[c.Fn.ID()] = true
		}
		for _, k := range expr.Children(e) {
			walk(k)
		}
	}
	var ids []string
	for _, name := range fn.Default.Names() {
		f, _ := fn.Default.Lookup(name)
		if !slices.Contains(ids, f.ID()) {
			ids = append(ids, f.ID())
		}
	}
	slices.Sort(ids)
	// Until every function not in notGenerated has been seen, checked
	// every 10 000 expressions: a rare function (one shorthand of many, in
	// one family generator of many) takes more than the common ones.
	missing := func() bool {
		for _, id := range ids {
			if _, listed := notGenerated[id]; !listed && !seen[id] {
				return true
			}
		}
		return false
	}
	for i := 0; i < 400000 && (i%10000 != 0 || i < 100000 || missing()); i++ {
		text := g.expr(types[g.pick(len(types))], 1+g.pick(4)).String()
		e, err := parse.Parse(text)
		if err != nil {
			t.Fatalf("the generator wrote %q, which does not parse: %v", text, err)
		}
		walk(e)
	}
	for _, id := range ids {
		why, listed := notGenerated[id]
		switch {
		case !seen[id] && !listed:
			t.Errorf("%s: never generated, and not in notGenerated", id)
		case seen[id] && listed:
			t.Errorf("%s: generated now; remove it from notGenerated (%s)", id, why)
		}
	}
	for id := range notGenerated {
		if !slices.Contains(ids, id) {
			t.Errorf("notGenerated lists %s, which is no function of fn.Default", id)
		}
	}
}
