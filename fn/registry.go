package fn

import (
	"fmt"
	"sort"
	"sync"
)

// Registry maps function names to functions without options, so text such
// as `lower(name)` finds its function. Functions with options (cast,
// get_item, literal, pack, select, like, case_when) are built by their
// constructors instead and are not in a registry. Nothing stops a registry
// taking their ids, but a function of your own should not use one: printers
// and serializers tell functions apart by id.
type Registry struct {
	mu    sync.RWMutex
	funcs map[string]Function
}

// NewRegistry is an empty registry.
func NewRegistry() *Registry { return &Registry{funcs: map[string]Function{}} }

// Register adds f under its id. It fails when the id is already taken.
func (r *Registry) Register(f Function) error { return r.Alias(f.ID(), f) }

// Lookup finds a function by name or alias.
func (r *Registry) Lookup(name string) (Function, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.funcs[name]
	return f, ok
}

// Names lists the registered names and aliases, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.funcs))
	for n := range r.funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Default holds the built-in functions without options. Register your own
// functions here to make them callable from text.
var Default = NewRegistry()

func mustRegister(f Function) {
	if err := Default.Register(f); err != nil {
		panic(err)
	}
}

func init() {
	for _, f := range []Function{Add, Sub, Mul, Div, Mod, Neg, Abs,
		Eq, NotEq, Lt, LtEq, Gt, GtEq, IsDistinctFrom, IsNotDistinctFrom, Between, InList,
		And, Or, Not, IsNull, IsNotNull, Coalesce, FillNull,
		Lower, Upper, Length, ByteLength, StartsWith, EndsWith, Contains, Concat, StringConcat, Substring,
		ListLength, ListContains, ListElement, ListTransform, ListFilter, ListAny, ListAll,
		Merge,
	} {
		mustRegister(f)
	}
	for alias, f := range map[string]Function{
		"ifnull": Coalesce, "char_length": Length, "strlen": ByteLength, "octet_length": ByteLength,
		"prefix": StartsWith, "suffix": EndsWith, "substr": Substring, "len": ListLength,
		"array_length": ListLength, "list_has": ListContains, "array_contains": ListContains,
		"list_extract": ListElement, "list_apply": ListTransform, "array_transform": ListTransform,
		"array_filter": ListFilter, "list_bool_or": ListAny, "list_bool_and": ListAll, "lcase": Lower, "ucase": Upper,
	} {
		if err := Default.Alias(alias, f); err != nil {
			panic(err)
		}
	}
}

// Alias makes name another way to call f. It fails when name is already
// taken.
func (r *Registry) Alias(name string, f Function) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.funcs[name]; dup {
		return fmt.Errorf("fn: function %q is already registered", name)
	}
	r.funcs[name] = f
	return nil
}
