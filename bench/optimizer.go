package bench

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/colexpr/colexpr/coerce"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/optimize"
	"github.com/colexpr/colexpr/parse"
)

// orChain is "x = 0 OR x = 1 OR … OR x = n-1" in the given syntax.
func orChain(n int, eq, or string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(or)
		}
		fmt.Fprintf(&b, "x %s %d", eq, i)
	}
	return b.String()
}

// orChainWorkload times optimizing an or-chain: colexpr's optimizer on the
// bound tree (parsing and binding are done once, untimed) against cel-go's
// static optimizer with constant folding on the checked AST (parsing and
// checking likewise untimed).
func (s *Suite) orChainWorkload() (*Workload, error) {
	n := s.Data.Sizes.OrChain
	w := &Workload{
		Name:     NameOrChain,
		Desc:     fmt.Sprintf("x = 0 OR … OR x = %d over struct<x: i32>: only the optimizer is timed, not parsing or binding", n-1),
		Kind:     Optimizer,
		NoDigest: true,
	}

	root, err := dtype.Parse("struct<x: i32>")
	if err != nil {
		return nil, err
	}
	e, err := parse.Parse(orChain(n, "=", " OR "))
	if err != nil {
		return nil, err
	}
	b, err := coerce.Bind(e, expr.ScopeOf(root))
	if err != nil {
		return nil, err
	}
	o := optimize.New()
	w.Impls = append(w.Impls, Impl{
		Engine: Colexpr,
		How:    "optimize.New() once; Optimizer.Optimize(bound) per run",
		Run: func(dig *Digest) error {
			out, err := o.Optimize(b)
			if err != nil {
				return err
			}
			if out == nil || out == b {
				return fmt.Errorf("colexpr's optimizer left the or-chain as it was: %v", out)
			}
			return nil
		},
	})

	env, err := cel.NewEnv(cel.Variable("x", cel.IntType))
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(orChain(n, "==", " || "))
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	folder, err := cel.NewConstantFoldingOptimizer()
	if err != nil {
		return nil, err
	}
	opt, err := cel.NewStaticOptimizer(folder)
	if err != nil {
		return nil, err
	}
	w.Impls = append(w.Impls, Impl{
		Engine: CelGo,
		How:    "cel.NewStaticOptimizer(cel.NewConstantFoldingOptimizer()) once; Optimize(env, checked AST) per run",
		Run: func(dig *Digest) error {
			_, iss := opt.Optimize(env, ast)
			return iss.Err()
		},
	})
	return w, nil
}
