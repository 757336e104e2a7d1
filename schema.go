package colexpr

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/internal/levenshtein"
)

// Schema is an Arrow schema as colexpr types it: the root struct of the
// columns it can read, and why each other column is left out. A file often
// holds a column colexpr cannot type (a large string, a map, a union) or
// two columns of one name; an expression that does not use them still
// compiles, and one that does is told why it cannot.
type Schema struct {
	// Arrow is the schema as given.
	Arrow *arrow.Schema
	// Root is the non-nullable struct of the columns colexpr supports, in
	// schema order: the type of $.
	Root dtype.DType
	// LeftOut maps the name of each column left out of Root to why, such
	// as "colexpr does not support its Arrow type large_utf8".
	LeftOut map[string]string
}

// NewSchema types sc, leaving out the columns colexpr cannot read. A name
// that several columns share is left out altogether: neither column is the
// one an expression means. A dictionary-encoded column has the type of its
// values (see dtype.FromArrow); one whose values colexpr cannot type is
// left out.
func NewSchema(sc *arrow.Schema) *Schema {
	s := &Schema{Arrow: sc, LeftOut: map[string]string{}}
	var fields []dtype.Field
	seen := map[string]bool{}
	for _, f := range sc.Fields() {
		if seen[f.Name] {
			s.LeftOut[f.Name] = "the schema has several columns of that name"
			continue
		}
		seen[f.Name] = true
		t, err := dtype.FromArrow(f.Type, f.Nullable)
		if err != nil {
			s.LeftOut[f.Name] = "colexpr does not support its Arrow type " + f.Type.String()
			continue
		}
		fields = append(fields, dtype.Field{Name: f.Name, Type: t})
	}
	if len(s.LeftOut) > 0 {
		kept := fields[:0]
		for _, f := range fields {
			if _, bad := s.LeftOut[f.Name]; !bad {
				kept = append(kept, f)
			}
		}
		fields = kept
	}
	s.Root = dtype.Struct(fields, false)
	return s
}

// Scope is the scope expressions over the schema bind in: Root as $.
func (s *Schema) Scope() expr.Scope { return expr.ScopeOf(s.Root) }

// checkFields finds the first field of e that the schema does not have —
// a get_item on $ or on a struct field reached from $ — and says which
// names are close to it. The binder would reject it too, listing every
// field; this names the likely one.
func (s *Schema) checkFields(e expr.Expr) error {
	// An explicit stack, and each chain of get_items walked once from its
	// base up: the tree may be as deep as expr.MaxDepth (or deeper, built in
	// Go), and recursing down every chain from every link was quadratic.
	var chain []fn.GetItemFn
	var nodes []*expr.Call // the calls of chain
	stack := []expr.Expr{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		chain, nodes = chain[:0], nodes[:0]
		for {
			c, ok := e.(*expr.Call)
			if !ok || len(c.Args) != 1 {
				break
			}
			g, ok := c.Fn.(fn.GetItemFn)
			if !ok {
				break
			}
			chain, nodes = append(chain, g), append(nodes, c)
			e = c.Args[0]
		}
		if _, isRoot := e.(*expr.Root); isRoot && len(chain) > 0 {
			t := s.Root
			for i := len(chain) - 1; i >= 0 && t.IsStruct(); i-- {
				k := t.FieldIndex(chain[i].Field)
				if k < 0 {
					names := make([]string, 0, len(chain)-1-i)
					for j := len(chain) - 1; j > i; j-- {
						names = append(names, dtype.QuoteFieldName(chain[j].Field))
					}
					return &nodeError{node: nodes[i], err: s.unknownField(chain[i].Field, strings.Join(names, "."), t)}
				}
				t = t.Fields()[k].Type
			}
			continue
		}
		kids := expr.Children(e)
		hof, _ := callFn(e).(fn.HigherOrder)
		for i := len(kids) - 1; i >= 0; i-- {
			// Where a lambda belongs and something else stands, the
			// binder's "must be a lambda" is the error to give, not an
			// unknown column: list_transform(xs, y) means a lambda.
			if _, isLambda := kids[i].(*expr.Lambda); hof != nil && hof.IsLambdaArg(i) && !isLambda {
				continue
			}
			stack = append(stack, kids[i])
		}
	}
	return nil
}

// callFn is the function of a call node, or nil.
func callFn(e expr.Expr) fn.Function {
	if c, ok := e.(*expr.Call); ok {
		return c.Fn
	}
	return nil
}

// UnknownColumn is the error for a column name the schema does not have:
// why it was left out, or the names close to it, or the names it has.
func (s *Schema) UnknownColumn(name string) error { return s.unknownField(name, "", s.Root) }

// unknownField is the error for a field name the struct t (the root when
// path is "") does not have.
func (s *Schema) unknownField(name, path string, t dtype.DType) error {
	if path == "" {
		if why, ok := s.LeftOut[name]; ok {
			return fmt.Errorf("column %s cannot be read: %s", dtype.QuoteFieldName(name), why)
		}
	}
	var names []string
	for _, f := range t.Fields() {
		names = append(names, f.Name)
	}
	msg := "unknown column " + strconv.Quote(name)
	if path != "" {
		msg = path + " has no field " + strconv.Quote(name)
	}
	if close := closest(name, names); len(close) > 0 {
		for i, c := range close {
			close[i] = dtype.QuoteFieldName(c)
		}
		return errors.New(msg + "; did you mean " + orList(close) + "?")
	}
	if len(names) == 0 {
		return errors.New(msg + "; there are no fields")
	}
	for i, n := range names {
		names[i] = dtype.QuoteFieldName(n)
	}
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	return errors.New(msg + "; the fields are " + strings.Join(names, ", "))
}

func orList(s []string) string {
	switch len(s) {
	case 1:
		return s[0]
	case 2:
		return s[0] + " or " + s[1]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// closest lists up to three of names close to name: within an edit
// distance of a third of its length (at least 2), or a case-insensitive
// prefix of it, or it of them. Closest first, then in schema order.
func closest(name string, names []string) []string {
	type cand struct {
		name string
		d, i int
	}
	lname := strings.ToLower(name)
	limit := max(2, len([]rune(lname))/3)
	var cs []cand
	for i, n := range names {
		ln := strings.ToLower(n)
		d := levenshtein.Distance(lname, ln)
		prefix := len(lname) >= 3 && len(ln) >= 3 && (strings.HasPrefix(ln, lname) || strings.HasPrefix(lname, ln))
		if d <= limit || prefix {
			cs = append(cs, cand{n, d, i})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].d < cs[b].d })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].name)
	}
	return out
}
