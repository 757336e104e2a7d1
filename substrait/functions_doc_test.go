package substrait

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/substrait-io/substrait-go/v8/extensions"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	extpb "github.com/substrait-io/substrait-protobuf/go/substraitpb/extensions"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// TestFunctionTable checks the function table of the package doc (the
// block under "# Functions", rewritten with -update) against what the
// mapping code does. Nothing in it is written by hand: for every function
// export maps (the exports table, the calls with a form of their own, and
// every like), a call is built over columns of each candidate argument
// type the function accepts, exported with Export, and the message read —
// the functions declared, outermost first, their extensions and options.
// The functions import reads that export never writes are listed after
// it, from the imports table.
func TestFunctionTable(t *testing.T) {
	checkDocBlock(t, "colexpr function", "in all", indentLines(functionTable(t)))
}

// tableCandidates are the argument types a call is tried with, one of
// each kind, named by the class the table groups them in.
var tableCandidates = []struct{ class, typ string }{
	{"bool", "bool"},
	{"integers", "i8"}, {"integers", "i16"}, {"integers", "i32"}, {"integers", "i64"},
	{"floats", "f32"}, {"floats", "f64"},
	{"decimals", "decimal(9,2)"}, {"decimals", "decimal(18,0)"},
	{"strings", "utf8"}, {"binary", "binary"},
	{"dates", "date"}, {"timestamps", "timestamp(us)"}, {"timestamps", "timestamp(us, UTC)"}, {"times", "time(us)"},
	{"intervals", "interval"},
	{"lists", "list<i32>"}, {"lists", "list<utf8>"},
}

// tableRow is one line of the table: a colexpr function whose calls with a
// first argument of the classes export to the same Substrait functions.
type tableRow struct {
	id, classes, urns, names, options string
}

func functionTable(t *testing.T) string {
	t.Helper()
	funcs := map[string]fn.Function{}
	for id := range exports {
		f, ok := fn.Default.Lookup(id)
		if !ok {
			t.Fatalf("exports maps %s, which fn.Default does not have", id)
		}
		funcs[id] = f
	}
	for _, f := range []fn.Function{fn.Coalesce, fn.FillNull, fn.Like(false, false), fn.Like(false, true), fn.Like(true, false), fn.Like(true, true)} {
		funcs[tableName(f)] = f
	}
	ids := make([]string, 0, len(funcs))
	for id := range funcs {
		ids = append(ids, id)
	}
	sort.Strings(ids)

	types := make([]dtype.DType, len(tableCandidates))
	for i, c := range tableCandidates {
		d, err := dtype.Parse(c.typ)
		if err != nil {
			t.Fatal(err)
		}
		types[i] = d
	}
	var rows []tableRow
	written := map[extensions.ID]bool{}
	for _, id := range ids {
		f := funcs[id]
		// key: the Substrait side of a row; classes in candidate order.
		type side struct{ urns, names, options string }
		var order []side
		classes := map[side][]string{}
		ar := f.Arity()
		hi := ar.Max
		if hi < 0 || hi > 3 {
			hi = max(ar.Min, 3)
		}
		for n := max(ar.Min, 1); n <= hi; n++ {
			forEachTuple(len(types), n, func(idx []int) {
				args := make([]dtype.DType, n)
				for i, k := range idx {
					args[i] = types[k]
				}
				msg, ok := exportCall(f, args)
				if !ok {
					return
				}
				s := side{}
				var ids []extensions.ID
				s.urns, s.names, s.options, ids = describeCall(msg)
				if len(ids) == 0 {
					return // coalesce(x) is x
				}
				for _, id := range ids {
					written[id] = true
				}
				if _, seen := classes[s]; !seen {
					order = append(order, s)
				}
				cl := tableCandidates[idx[0]].class
				if !contains(classes[s], cl) {
					classes[s] = append(classes[s], cl)
				}
			})
		}
		if len(order) == 0 {
			t.Errorf("%s: no call over the candidate types exports", id)
			continue
		}
		for _, s := range order {
			rows = append(rows, tableRow{id, classList(classes[s]), s.urns, s.names, s.options})
		}
	}

	var b strings.Builder
	const format = "%-21s %-38s %-18s %-19s %s"
	b.WriteString(strings.TrimRight(fmt.Sprintf(format, "colexpr function", "first argument", "functions_…", "Substrait function", "options"), " ") + "\n")
	for _, r := range rows {
		line := fmt.Sprintf(format, r.id, r.classes, r.urns, r.names, r.options)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	read := readOnly(written, &b)
	fmt.Fprintf(&b, "in all: %d colexpr functions written as %d Substrait functions; %d more read\n", len(ids), len(written), read)
	return b.String()
}

// tableName names a function in the table: its id, or for like the
// operator.
func tableName(f fn.Function) string {
	if l, ok := f.(fn.LikeFn); ok {
		name := "LIKE"
		if l.CaseInsensitive {
			name = "ILIKE"
		}
		if l.Negated {
			name = "NOT " + name
		}
		return name
	}
	return f.ID()
}

// classList names the classes of first arguments, as "any" or "any but
// …" when they are most of them.
func classList(classes []string) string {
	var all, missing []string
	for _, c := range tableCandidates {
		if !contains(all, c.class) {
			all = append(all, c.class)
			if !contains(classes, c.class) {
				missing = append(missing, c.class)
			}
		}
	}
	switch {
	case len(missing) == 0:
		return "any"
	case len(classes) > 6:
		return "any but " + strings.Join(missing, ", ")
	}
	return strings.Join(classes, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// forEachTuple calls do with every n-tuple of indexes below k.
func forEachTuple(k, n int, do func([]int)) {
	idx := make([]int, n)
	for {
		do(idx)
		i := n - 1
		for i >= 0 && idx[i] == k-1 {
			idx[i] = 0
			i--
		}
		if i < 0 {
			return
		}
		idx[i]++
	}
}

// exportCall exports f over columns of the given types — a lambda of one
// parameter for a higher-order function's second argument, returning its
// parameter, or whether it is null for a predicate — and reports
// whether colexpr types the call and Export writes it.
func exportCall(f fn.Function, args []dtype.DType) (*pb.ExtendedExpression, bool) {
	fields := make([]dtype.Field, len(args))
	for i, a := range args {
		fields[i] = dtype.Field{Name: fmt.Sprintf("c%d", i), Type: a}
	}
	root := dtype.Struct(fields, false)
	bound := make([]*expr.Bound, len(args))
	for i := range args {
		c, err := expr.NewCall(fn.GetItem(fields[i].Name), expr.NewRoot(root))
		if err != nil {
			return nil, false
		}
		bound[i] = c
	}
	if h, ok := f.(fn.HigherOrder); ok && len(args) == 2 {
		params, err := h.LambdaParams(1, []dtype.DType{args[0], {}})
		if err != nil || len(params) == 0 {
			return nil, false
		}
		body := expr.NewVar("x", params[0])
		if fn.PropertiesOf(f).PredicateLambda {
			if body, err = expr.NewCall(fn.IsNull, body); err != nil {
				return nil, false
			}
		}
		bound[1] = expr.NewLambda([]string{"x"}, params[:1], body)
	}
	call, err := expr.NewCall(f, bound...)
	if err != nil {
		return nil, false
	}
	msg, err := Export(call, expr.ScopeOf(root))
	return msg, err == nil
}

// describeCall reads the functions an exported call declares, outermost
// first as not(like) or cast(multiply), their extensions (the URN after
// extension:io.substrait:functions_) and
// the options of each function that has some.
func describeCall(msg *pb.ExtendedExpression) (urns, names, options string, ids []extensions.ID) {
	urnOf := map[uint32]string{}
	for _, u := range msg.GetExtensionUrns() {
		urnOf[u.GetExtensionUrnAnchor()] = u.GetUrn()
	}
	decl := map[uint32]*extpb.SimpleExtensionDeclaration_ExtensionFunction{}
	for _, d := range msg.GetExtensions() {
		if f := d.GetExtensionFunction(); f != nil {
			decl[f.GetFunctionAnchor()] = f
		}
	}
	var us, ns, os []string
	depth := 0
	var walk func(e *pb.Expression)
	walk = func(e *pb.Expression) {
		switch {
		case e.GetCast() != nil:
			ns = append(ns, "cast(")
			depth++
			walk(e.GetCast().GetInput())
		case e.GetScalarFunction() != nil:
			sf := e.GetScalarFunction()
			d := decl[sf.GetFunctionReference()]
			name, _, _ := strings.Cut(d.GetName(), ":")
			urn := urnOf[d.GetExtensionUrnReference()]
			ids = append(ids, extensions.ID{URN: urn, Name: name})
			if u := strings.TrimPrefix(urn, extensions.SubstraitDefaultURNPrefix+"functions_"); !contains(us, u) {
				us = append(us, u)
			}
			var opts []string
			for _, o := range sf.GetOptions() {
				opts = append(opts, o.GetName()+" "+strings.Join(o.GetPreference(), "|"))
			}
			if len(opts) > 0 {
				os = append(os, strings.Join(opts, ", "))
			}
			for _, a := range sf.GetArguments() {
				if v := a.GetValue(); v != nil && (v.GetScalarFunction() != nil || v.GetCast() != nil) {
					ns = append(ns, name+"(")
					depth++
					walk(v)
					return
				}
			}
			ns = append(ns, name)
		}
	}
	walk(msg.GetReferredExpr()[0].GetExpression())
	return strings.Join(us, " + "), strings.Join(ns, "") + strings.Repeat(")", depth), strings.Join(os, "; "), ids
}

// readOnly writes the Substrait functions import reads that export never
// writes, by extension, and returns how many there are.
func readOnly(written map[extensions.ID]bool, b *strings.Builder) int {
	byURN := map[string][]string{}
	n := 0
	for id := range imports {
		if !written[id] {
			byURN[id.URN] = append(byURN[id.URN], id.Name)
			n++
		}
	}
	var urns []string
	for u := range byURN {
		urns = append(urns, u)
	}
	sort.Strings(urns)
	b.WriteString("read only (import maps them, export writes none):\n")
	for _, u := range urns {
		names := byURN[u]
		sort.Strings(names)
		fmt.Fprintf(b, "  %s: %s\n", strings.TrimPrefix(u, extensions.SubstraitDefaultURNPrefix), strings.Join(names, ", "))
	}
	return n
}
