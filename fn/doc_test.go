package fn_test

import (
	"go/parser"
	"go/token"
	"regexp"
	"testing"

	"github.com/colexpr/colexpr/fn"
)

// TestDocListsEveryFunction checks that the package doc's "Functions by
// category" names every function of Default under every name it answers
// to, so that go doc ./fn stays a complete list.
func TestDocListsEveryFunction(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "function.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	for _, name := range fn.Default.Names() {
		if !regexp.MustCompile(`[\s(,]` + regexp.QuoteMeta(name) + `[\s),;]`).MatchString(doc) {
			t.Errorf("%s is registered but not in the package doc's list of functions", name)
		}
	}
}
