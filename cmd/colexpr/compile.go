package main

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
)

// The expression pipeline as the commands run it: parse, check the column
// names (to suggest close ones), coerce, bind, optimize. explain prints
// every stage; query keeps the last.

// schemaScope is an input's schema as colexpr sees it.
type schemaScope struct {
	arrow *arrow.Schema
	// root is the struct of the fields colexpr supports.
	root dtype.DType
	// unsupported maps the name of a field colexpr cannot read to why
	// (such as "colexpr does not support its Arrow type large_utf8").
	unsupported map[string]string
}

func newSchemaScope(sc *arrow.Schema) *schemaScope {
	s := &schemaScope{arrow: sc, unsupported: map[string]string{}}
	var fields []dtype.Field
	seen := map[string]bool{}
	for _, f := range sc.Fields() {
		if seen[f.Name] {
			s.unsupported[f.Name] = "the schema has several columns of that name"
			continue
		}
		seen[f.Name] = true
		t, err := dtype.FromArrow(f.Type, f.Nullable)
		if err != nil {
			s.unsupported[f.Name] = "colexpr does not support its Arrow type " + f.Type.String()
			continue
		}
		fields = append(fields, dtype.Field{Name: f.Name, Type: t})
	}
	// A name seen twice is left out altogether: neither column is
	// "the" one an expression means.
	if len(s.unsupported) > 0 {
		kept := fields[:0]
		for _, f := range fields {
			if _, bad := s.unsupported[f.Name]; !bad {
				kept = append(kept, f)
			}
		}
		fields = kept
	}
	s.root = dtype.Struct(fields, false)
	return s
}

func (s *schemaScope) scope() expr.Scope { return expr.ScopeOf(s.root) }

// stages are the forms an expression takes through the pipeline.
type stages struct {
	parsed    expr.Expr
	coerced   expr.Expr
	bound     *expr.Bound
	optimized *expr.Bound
	trace     *optimize.Trace
}

// compile runs src through every stage against s. what names the
// expression in messages (such as "--where").
func compile(src, what string, s *schemaScope, opt *optimize.Optimizer) (*stages, error) {
	st := &stages{}
	var err error
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("%s: the expression is empty", what)
	}
	if st.parsed, err = parse.Parse(src); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := checkFields(st.parsed, s); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if st.coerced, err = coerce.Coerce(st.parsed, s.scope()); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if st.bound, err = expr.Bind(st.coerced, s.scope()); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if st.optimized, st.trace, err = opt.Explain(st.bound); err != nil {
		return nil, fmt.Errorf("%s: optimizing: %w", what, err)
	}
	return st, nil
}

// checkFields finds the first field of e that the schema does not have —
// a get_item on $ or on a struct field reached from $ — and says which
// names are close to it. The binder would reject it too, listing every
// field; this names the likely one.
func checkFields(e expr.Expr, s *schemaScope) error {
	// typeOf is the dtype of a chain of get_items from $, when e is one.
	var typeOf func(e expr.Expr) (dtype.DType, string, bool)
	typeOf = func(e expr.Expr) (dtype.DType, string, bool) {
		switch n := e.(type) {
		case *expr.Root:
			return s.root, "", true
		case *expr.Call:
			g, ok := n.Fn.(fn.GetItemFn)
			if !ok || len(n.Args) != 1 {
				return dtype.DType{}, "", false
			}
			t, path, ok := typeOf(n.Args[0])
			if !ok || !t.IsStruct() {
				return dtype.DType{}, "", false
			}
			i := t.FieldIndex(g.Field)
			if i < 0 {
				return dtype.DType{}, "", false
			}
			if path != "" {
				path += "."
			}
			return t.Fields()[i].Type, path + dtype.QuoteFieldName(g.Field), true
		}
		return dtype.DType{}, "", false
	}
	var found error
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		if found != nil {
			return
		}
		if c, ok := e.(*expr.Call); ok {
			if g, ok := c.Fn.(fn.GetItemFn); ok && len(c.Args) == 1 {
				if t, path, ok := typeOf(c.Args[0]); ok && t.IsStruct() && t.FieldIndex(g.Field) < 0 {
					found = unknownField(g.Field, path, t, s)
					return
				}
			}
		}
		for _, k := range expr.Children(e) {
			walk(k)
		}
	}
	walk(e)
	return found
}

// unknownField is the error for a field name the struct t (the root when
// path is "") does not have.
func unknownField(name, path string, t dtype.DType, s *schemaScope) error {
	if path == "" {
		if why, ok := s.unsupported[name]; ok {
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
		d := editDistance(lname, ln)
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

// editDistance is the Levenshtein distance between a and b, in characters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
