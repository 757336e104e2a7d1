package substrait

import (
	"sort"
	"strconv"

	"github.com/substrait-io/substrait-protobuf/go/substraitpb/extensions"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/colexpr/colexpr/dtype"
)

// Hints carry what colexpr knows and a Substrait type cannot say: the
// field names of a struct written inside an expression (Substrait names
// only the base schema's fields), the zone of a zoned timestamp (Substrait's
// timestamp_tz is an instant without one) and the names of lambda
// parameters (Substrait refers to them by position). They ride along as one
// optimization of the ExtendedExpression's advanced_extensions — a
// google.protobuf.Struct under the key "colexpr" — which any other consumer
// may ignore: they never change what the expression computes.
//
// Each node that can need one — a literal, a cast, a struct pack and a
// lambda — takes the next number in a pre-order walk of its expression;
// export and import walk in the same order. A hint is written only where
// the default reading (struct fields f1, f2, …; zone UTC; parameters x, y,
// z, …) would differ, plus the numbers of the literals that were written
// without a type (fn.LiteralFn.Untyped), so that a parsed and coerced tree
// reads back equal.
const (
	hintKey     = "colexpr"
	hintVersion = 1
	hintTypeURL = "type.googleapis.com/google.protobuf.Struct"
)

// exprHints are the hints of one referred expression.
type exprHints struct {
	types   map[int]string   // node number → dtype text
	params  map[int][]string // lambda number → parameter names
	untyped map[int]bool     // literals written without a type (fn.LiteralFn.Untyped)
}

func newExprHints() exprHints {
	return exprHints{types: map[int]string{}, params: map[int][]string{}, untyped: map[int]bool{}}
}

type hints struct {
	schema string // the root dtype, when the base schema cannot say it all
	exprs  []exprHints
}

func (h *hints) empty() bool {
	if h.schema != "" {
		return false
	}
	for _, e := range h.exprs {
		if len(e.types) > 0 || len(e.params) > 0 || len(e.untyped) > 0 {
			return false
		}
	}
	return true
}

// toExtension encodes h as an AdvancedExtension, nil when there is nothing
// to say.
func (h *hints) toExtension() (*extensions.AdvancedExtension, error) {
	if h.empty() {
		return nil, nil
	}
	exprs := make([]any, len(h.exprs))
	for i, e := range h.exprs {
		ts := map[string]any{}
		for _, k := range sortedKeys(e.types) {
			ts[strconv.Itoa(k)] = e.types[k]
		}
		ps := map[string]any{}
		for _, k := range sortedKeys(e.params) {
			names := make([]any, len(e.params[k]))
			for j, n := range e.params[k] {
				names[j] = n
			}
			ps[strconv.Itoa(k)] = names
		}
		var us []any
		for _, k := range sortedKeys(e.untyped) {
			us = append(us, float64(k))
		}
		m := map[string]any{}
		if len(ts) > 0 {
			m["types"] = ts
		}
		if len(ps) > 0 {
			m["params"] = ps
		}
		if len(us) > 0 {
			m["untyped"] = us
		}
		exprs[i] = m
	}
	body := map[string]any{"version": float64(hintVersion), "exprs": exprs}
	if h.schema != "" {
		body["schema"] = h.schema
	}
	s, err := structpb.NewStruct(map[string]any{hintKey: body})
	if err != nil {
		return nil, err
	}
	a, err := anypb.New(s)
	if err != nil {
		return nil, err
	}
	return &extensions.AdvancedExtension{Optimization: []*anypb.Any{a}}, nil
}

func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// readHints finds colexpr's hints among the optimizations of ext; no hints
// is not an error. Hints that are there but malformed are.
func readHints(ext *extensions.AdvancedExtension, nexprs int) (*hints, error) {
	h := &hints{exprs: make([]exprHints, nexprs)}
	for i := range h.exprs {
		h.exprs[i] = newExprHints()
	}
	for _, a := range ext.GetOptimization() {
		if a.GetTypeUrl() != hintTypeURL {
			continue
		}
		var s structpb.Struct
		if err := a.UnmarshalTo(&s); err != nil {
			continue // someone else's optimization, unreadable to us
		}
		body := s.GetFields()[hintKey].GetStructValue()
		if body == nil {
			continue
		}
		if v := body.GetFields()["version"].GetNumberValue(); v != hintVersion {
			return nil, invalid("colexpr hints of version %v (this reader knows version %d)", v, hintVersion)
		}
		h.schema = body.GetFields()["schema"].GetStringValue()
		list := body.GetFields()["exprs"].GetListValue().GetValues()
		if len(list) != nexprs {
			return nil, invalid("colexpr hints for %d expressions, the message has %d", len(list), nexprs)
		}
		for i, v := range list {
			e := v.GetStructValue()
			ts := e.GetFields()["types"].GetStructValue().GetFields()
			ps := e.GetFields()["params"].GetStructValue().GetFields()
			h.exprs[i] = newExprHints()
			for _, u := range e.GetFields()["untyped"].GetListValue().GetValues() {
				h.exprs[i].untyped[int(u.GetNumberValue())] = true
			}
			for k, t := range ts {
				n, err := strconv.Atoi(k)
				if err != nil || t.GetStringValue() == "" {
					return nil, invalid("colexpr hint %q: want a node number and a type", k)
				}
				h.exprs[i].types[n] = t.GetStringValue()
			}
			for k, p := range ps {
				n, err := strconv.Atoi(k)
				if err != nil || p.GetListValue() == nil {
					return nil, invalid("colexpr hint %q: want a node number and a list of names", k)
				}
				var names []string
				for _, nv := range p.GetListValue().GetValues() {
					names = append(names, nv.GetStringValue())
				}
				h.exprs[i].params[n] = names
			}
		}
		return h, nil
	}
	return h, nil
}

// hintedType is the dtype a node numbered n reads as: the hinted one when
// there is a hint, which must describe the same Substrait type, else the
// default reading d.
func (e exprHints) hintedType(n int, d dtype.DType) (dtype.DType, error) {
	text, ok := e.types[n]
	if !ok {
		return d, nil
	}
	t, err := dtype.Parse(text)
	if err != nil {
		return dtype.DType{}, invalid("colexpr hint for node %d: %v", n, err)
	}
	if !sameSubstraitType(t, d) {
		return dtype.DType{}, invalid("colexpr hint for node %d says %s, the Substrait type reads as %s", n, t, d)
	}
	return t, nil
}

// sameSubstraitType reports whether two dtypes export to the same
// Substrait type: they differ at most in struct field names and time zone
// names.
func sameSubstraitType(a, b dtype.DType) bool {
	da, err := dtypeOf(mustProto(a), nil)
	if err != nil {
		return false
	}
	db, err := dtypeOf(mustProto(b), nil)
	if err != nil {
		return false
	}
	return da.Equal(db)
}

// defaultReading is how d reads back from its Substrait type without
// hints; ok is false when d has no Substrait type.
func defaultReading(d dtype.DType) (dtype.DType, bool) {
	p := mustProto(d)
	if p == nil {
		return dtype.DType{}, false
	}
	r, err := dtypeOf(p, nil)
	return r, err == nil
}

// defaultParam is the name an imported lambda parameter gets without a
// hint: x, y, z for the first three nesting levels, then x3, x4, …; a
// lambda with several parameters numbers them (x1, x2).
func defaultParam(depth, i, n int) string {
	var base string
	if depth < 3 {
		base = string(rune('x' + depth))
	} else {
		base = "x" + strconv.Itoa(depth)
	}
	if n == 1 {
		return base
	}
	return base + strconv.Itoa(i+1)
}
