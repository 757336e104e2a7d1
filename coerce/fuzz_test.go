package coerce_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/parse"
)

// FuzzCoerce coerces any text the parser accepts. Coercion must not panic;
// its error is a *coerce.Error or an *expr.BindError; its result binds, to
// the tree coerce.Bind gives, and coercing it again changes nothing; and an
// expression that binds as it is comes back as it is. The
// seeds are the inputs of the golden files.
func FuzzCoerce(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if src, ok := strings.CutPrefix(line, "> "); ok {
				f.Add(src)
			}
		}
	}
	root, err := dtype.Parse(testSchema)
	if err != nil {
		f.Fatal(err)
	}
	scope := expr.ScopeOf(root).Push([]string{"v", "w"}, []dtype.DType{dtype.Primitive(dtype.I64, false), dtype.Primitive(dtype.U8, true)})
	f.Fuzz(func(t *testing.T, src string) {
		e, err := parse.Parse(src)
		if err != nil {
			return
		}
		out, err := coerce.Coerce(e, scope)
		if _, berr := expr.Bind(e, scope); berr == nil && (err != nil || out != e) {
			t.Fatalf("%s binds as it is, but coercion gave %v, %v", src, out, err)
		}
		if err != nil {
			var ce *coerce.Error
			var be *expr.BindError
			if !errors.As(err, &ce) && !errors.As(err, &be) {
				t.Fatalf("%s: error of type %T: %v", src, err, err)
			}
			return
		}
		bound, err := expr.Bind(out, scope)
		if err != nil {
			t.Fatalf("%s: coerced to %s, which does not bind: %v", src, out, err)
		}
		direct, err := coerce.Bind(e, scope)
		if err != nil || !direct.Equal(bound) {
			t.Fatalf("%s: coerce.Bind gave %v, %v; binding the coerced tree gave %s", src, direct, err, bound)
		}
		if again, err := coerce.Coerce(out, scope); err != nil || again != out {
			t.Fatalf("%s: coercing %s again gave %v, %v", src, out, again, err)
		}
	})
}
