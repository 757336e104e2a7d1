package optimize

import (
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// The structural family: struct construction (pack), field access
// (get_item), projection (select) and merge, taken apart where they meet.
// pack always builds a non-nullable struct, so reading a field of it has
// exactly the field's dtype.

// GetItemPack reads a field of a pack directly:
//
//	{a: x, b: y}.b  →  y
var GetItemPack = &Rule{
	Name: "structural/get_item_pack",
	Fns:  []fn.Function{fn.GetItemFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		pf, isPack := asPack(n.Arg(0))
		if !isPack {
			return nil
		}
		g, ok := asGetItem(n)
		if !ok {
			return nil
		}
		p, field := n.Arg(0), g.Field
		for i, name := range pf.Names {
			if name == field {
				return keep(p.Arg(i), n.DType())
			}
		}
		return nil
	},
}

// SelectPack projects a pack to a smaller pack:
//
//	struct_select({a: x, b: y, c: z}, 'c', 'a')   →  {c: z, a: x}
//	struct_exclude({a: x, b: y, c: z}, 'b')       →  {a: x, c: z}
var SelectPack = &Rule{
	Name: "structural/select_pack",
	Fns:  []fn.Function{fn.SelectFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		p := n.Arg(0)
		pf, isPack := asPack(p)
		sel, ok := n.Fn().(fn.SelectFn)
		if !ok || !isPack {
			return nil
		}
		names := pf.Names
		index := func(name string) int {
			for i, n := range names {
				if n == name {
					return i
				}
			}
			return -1
		}
		var keepNames []string
		var args []*expr.Bound
		if sel.Exclude {
			drop := map[string]bool{}
			for _, name := range sel.Names {
				drop[name] = true
			}
			for i, name := range names {
				if !drop[name] {
					keepNames = append(keepNames, name)
					args = append(args, p.Arg(i))
				}
			}
		} else {
			for _, name := range sel.Names {
				i := index(name)
				if i < 0 {
					return nil
				}
				keepNames = append(keepNames, name)
				args = append(args, p.Arg(i))
			}
		}
		return call(n.DType(), fn.Pack(keepNames...), args...)
	},
}

// MergePacks merges adjacent packs of a merge into one pack (fields in order
// of first appearance, the value from the last pack that has the field),
// and a merge of one argument into that argument:
//
//	merge({a: x, b: y}, {b: z, c: w})   →  {a: x, b: z, c: w}
//	merge(s, {a: x}, {b: y})            →  merge(s, {a: x, b: y})
//	merge(s)                            →  s
var MergePacks = &Rule{
	Name:    "structural/merge_packs",
	Fns:     []fn.Function{fn.Merge},
	Rewrite: mergePacks,
}

func mergePacks(c *Context, n *expr.Bound) *expr.Bound {
	args := n.Args()
	if len(args) == 1 {
		return keep(args[0], n.DType())
	}
	var out []*expr.Bound
	changed := false
	for i := 0; i < len(args); {
		if _, ok := asPack(args[i]); !ok {
			out = append(out, args[i])
			i++
			continue
		}
		j := i + 1
		for j < len(args) {
			if _, ok := asPack(args[j]); !ok {
				break
			}
			j++
		}
		if j-i == 1 {
			out = append(out, args[i])
			i = j
			continue
		}
		var names []string
		var values []*expr.Bound
		index := map[string]int{}
		for _, p := range args[i:j] {
			pf, _ := asPack(p)
			for k, name := range pf.Names {
				if at, ok := index[name]; ok {
					values[at] = p.Arg(k)
					continue
				}
				index[name] = len(names)
				names = append(names, name)
				values = append(values, p.Arg(k))
			}
		}
		merged, err := expr.NewCall(fn.Pack(names...), values...)
		if err != nil {
			return nil
		}
		out = append(out, merged)
		changed = true
		i = j
	}
	if !changed {
		return nil
	}
	if len(out) == 1 {
		return keep(out[0], n.DType())
	}
	return call(n.DType(), fn.Merge, out...)
}

// PackIdentity replaces a pack that lists every field of one struct, in
// order, by that struct:
//
//	{a: $.a, b: $.b}  →  $        ($: struct<a: i32, b: utf8>)
//	{x: s.x, y: s.y}  →  s
//
// only when the struct is non-nullable: reading a field of a nullable
// struct makes it nullable, and the pack of those is not the same dtype.
var PackIdentity = &Rule{
	Name: "structural/pack_identity",
	Fns:  []fn.Function{fn.PackFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		pf, ok := asPack(n)
		if !ok || len(pf.Names) == 0 {
			return nil
		}
		names := pf.Names
		var s *expr.Bound
		var fields []dtype.Field
		for i, a := range n.Args() {
			if g, ok := asGetItem(a); !ok || g.Field != names[i] {
				return nil
			}
			if i == 0 {
				s = a.Arg(0)
				if fields = s.DType().Fields(); len(fields) != len(names) {
					return nil
				}
			} else if !sameTree(a.Arg(0), s) {
				return nil
			}
			if fields[i].Name != names[i] {
				return nil
			}
		}
		if s.DType().Nullable() || !deterministic(s) {
			// A field of a nullable struct is nullable, so the pack has
			// another dtype; and the pack evaluates s once per field.
			return nil
		}
		// Every field of s, in order, each read with its own dtype (s is
		// not nullable): the pack's dtype is s's, by construction; the
		// engine checks it once more.
		return s
	},
}

// GetItemMerge reads a field of a merge from the last argument that has
// it, when every other argument is non-nullable (a null argument makes the
// merged row null):
//
//	merge(s, {b: y}).b  →  {b: y}.b   (and then structural/get_item_pack: y)
//	merge(s, t).a       →  s.a        (t has no field a)
var GetItemMerge = &Rule{
	Name: "structural/get_item_merge",
	Fns:  []fn.Function{fn.GetItemFn{}},
	Rewrite: func(c *Context, n *expr.Bound) *expr.Bound {
		m := n.Arg(0)
		if !isCall(m, fn.IDMerge) {
			return nil
		}
		g, ok := asGetItem(n)
		if !ok {
			return nil
		}
		field := g.Field
		from := -1
		for i := len(m.Args()) - 1; i >= 0; i-- {
			if m.Arg(i).DType().FieldIndex(field) >= 0 {
				from = i
				break
			}
		}
		if from < 0 {
			return nil
		}
		for i, a := range m.Args() {
			if i != from && a.DType().Nullable() {
				return nil
			}
		}
		return call(n.DType(), n.Fn(), m.Arg(from))
	},
}
