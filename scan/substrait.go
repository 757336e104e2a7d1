package scan

import (
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/substrait"
)

// SubstraitExprs imports the expressions of a Substrait ExtendedExpression
// against s (a source's schema: columns are found by name in the message's
// base schema and must have the types it gives; package substrait has the
// rules) and compiles each with the options o (nil: the defaults). They
// come named by the message's output names, ready to be a query's select
// list, or its filter when there is one bool expression.
func SubstraitExprs(s *colexpr.Schema, msg *pb.ExtendedExpression, o *colexpr.Options) ([]Expr, error) {
	named, err := substrait.Import(msg, s.Scope())
	if err != nil {
		return nil, err
	}
	out := make([]Expr, len(named))
	for i, n := range named {
		prog, err := s.CompileBound(n.Expr, o)
		if err != nil {
			return nil, err
		}
		out[i] = Expr{Program: prog, Name: n.Name}
	}
	return out, nil
}
