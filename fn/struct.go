package fn

import (
	"strconv"
	"strings"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// LiteralFn is a constant. It takes no arguments; its type is its value's.
// Untyped marks a numeric literal written without a type in the text (`1`,
// `2.5`): coercion lets it take the type of the other operand when the value
// fits, so `u8_col + 1` stays u8.
type LiteralFn struct {
	Value   scalar.Scalar
	Untyped bool
}

// Literal is the typed constant v.
func Literal(v scalar.Scalar) LiteralFn { return LiteralFn{Value: v} }

func (l LiteralFn) ID() string                 { return IDLiteral }
func (l LiteralFn) Arity() Arity               { return Exactly(0) }
func (l LiteralFn) NullHandling() NullHandling { return NullAware }
func (l LiteralFn) Volatility() Volatility     { return Immutable }
func (l LiteralFn) Fallible() bool             { return false }
func (l LiteralFn) Hash() uint64 {
	return l.Value.Hash() ^ hashString("literal", strconv.FormatBool(l.Untyped))
}
func (l LiteralFn) Equal(o Function) bool {
	ol, ok := o.(LiteralFn)
	return ok && ol.Untyped == l.Untyped && ol.Value.Identical(l.Value)
}
func (l LiteralFn) ReturnType([]dtype.DType) (dtype.DType, error) { return l.Value.DType(), nil }

// GetItemFn reads field Field of a struct. The result is nullable when the
// field or the struct is.
type GetItemFn struct{ Field string }

// GetItem reads the named field.
func GetItem(field string) GetItemFn { return GetItemFn{field} }

func (g GetItemFn) ID() string                 { return IDGetItem }
func (g GetItemFn) Arity() Arity               { return Exactly(1) }
func (g GetItemFn) NullHandling() NullHandling { return NullAware }
func (g GetItemFn) Volatility() Volatility     { return Immutable }
func (g GetItemFn) Fallible() bool             { return false }
func (g GetItemFn) Hash() uint64               { return hashString("get_item", g.Field) }
func (g GetItemFn) Equal(o Function) bool      { og, ok := o.(GetItemFn); return ok && og == g }

func (g GetItemFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	s := args[0]
	if !s.IsStruct() {
		return dtype.DType{}, argErr(g, 0, "has type %s, want a struct with field %q", s, g.Field)
	}
	i := s.FieldIndex(g.Field)
	if i < 0 {
		return dtype.DType{}, argErr(g, 0, "has no field %q (its fields: %s)", g.Field, fieldNames(s))
	}
	f := s.Fields()[i].Type
	return f.WithNullable(f.Nullable() || s.Nullable()), nil
}

func fieldNames(s dtype.DType) string {
	var b strings.Builder
	for i, f := range s.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(dtype.QuoteFieldName(f.Name))
	}
	return b.String()
}

// PackFn builds a non-nullable struct whose fields are its arguments, named
// Names in order.
type PackFn struct{ Names []string }

// Pack builds a struct with the given field names.
func Pack(names ...string) PackFn { return PackFn{append([]string(nil), names...)} }

func (p PackFn) ID() string                 { return IDPack }
func (p PackFn) Arity() Arity               { return Exactly(len(p.Names)) }
func (p PackFn) NullHandling() NullHandling { return NullAware }
func (p PackFn) Volatility() Volatility     { return Immutable }
func (p PackFn) Fallible() bool             { return false }
func (p PackFn) Hash() uint64               { return hashString(append([]string{"pack"}, p.Names...)...) }
func (p PackFn) Equal(o Function) bool {
	op, ok := o.(PackFn)
	return ok && equalStrings(op.Names, p.Names)
}

func (p PackFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	seen := make(map[string]bool, len(p.Names))
	fs := make([]dtype.Field, len(args))
	for i, a := range args {
		if seen[p.Names[i]] {
			return dtype.DType{}, argErr(p, i, "repeats field name %q", p.Names[i])
		}
		seen[p.Names[i]] = true
		fs[i] = dtype.Field{Name: p.Names[i], Type: a}
	}
	return dtype.Struct(fs, false), nil
}

// SelectFn keeps the fields Names of a struct (in the order given), or with
// Exclude every field but those (in struct order).
type SelectFn struct {
	Names   []string
	Exclude bool
}

// Select keeps the named fields.
func Select(names ...string) SelectFn { return SelectFn{Names: append([]string(nil), names...)} }

// Exclude keeps every field but the named ones.
func Exclude(names ...string) SelectFn {
	return SelectFn{Names: append([]string(nil), names...), Exclude: true}
}

func (s SelectFn) ID() string                 { return IDSelect }
func (s SelectFn) Arity() Arity               { return Exactly(1) }
func (s SelectFn) NullHandling() NullHandling { return NullAware }
func (s SelectFn) Volatility() Volatility     { return Immutable }
func (s SelectFn) Fallible() bool             { return false }
func (s SelectFn) Hash() uint64 {
	return hashString(append([]string{"select", strconv.FormatBool(s.Exclude)}, s.Names...)...)
}
func (s SelectFn) Equal(o Function) bool {
	os, ok := o.(SelectFn)
	return ok && os.Exclude == s.Exclude && equalStrings(os.Names, s.Names)
}

func (s SelectFn) ReturnType(args []dtype.DType) (dtype.DType, error) {
	st := args[0]
	if !st.IsStruct() {
		return dtype.DType{}, argErr(s, 0, "has type %s, want a struct", st)
	}
	for _, n := range s.Names {
		if st.FieldIndex(n) < 0 {
			return dtype.DType{}, argErr(s, 0, "has no field %q (its fields: %s)", n, fieldNames(st))
		}
	}
	var fs []dtype.Field
	if s.Exclude {
		drop := make(map[string]bool, len(s.Names))
		for _, n := range s.Names {
			drop[n] = true
		}
		for _, f := range st.Fields() {
			if !drop[f.Name] {
				fs = append(fs, f)
			}
		}
	} else {
		for _, n := range s.Names {
			fs = append(fs, st.Fields()[st.FieldIndex(n)])
		}
	}
	return dtype.Struct(fs, st.Nullable()), nil
}

// Merge combines structs into one: the fields of every argument, in order of
// first appearance; when a name repeats, the value comes from the last
// argument that has it. The result is nullable when any argument is (a null
// argument makes the row null).
var Merge Function = merge{simple{IDMerge}}

type merge struct{ simple }

func (m merge) Arity() Arity               { return AtLeast(1) }
func (m merge) NullHandling() NullHandling { return NullAware }

func (m merge) ReturnType(args []dtype.DType) (dtype.DType, error) {
	var fs []dtype.Field
	index := map[string]int{}
	for i, a := range args {
		if !a.IsStruct() {
			return dtype.DType{}, argErr(m, i, "has type %s, want a struct", a)
		}
		for _, f := range a.Fields() {
			if j, ok := index[f.Name]; ok {
				fs[j].Type = f.Type
				continue
			}
			index[f.Name] = len(fs)
			fs = append(fs, f)
		}
	}
	return dtype.Struct(fs, anyNullable(args)), nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
