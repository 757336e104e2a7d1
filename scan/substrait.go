package scan

import (
	"slices"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/substrait"
)

// SubstraitExprs imports the expressions of a Substrait ExtendedExpression
// against s (a source's schema: columns are found by name in the message's
// base schema and must have the types it gives; package substrait has the
// rules) and compiles each with the options o (nil: the defaults). They
// come named by the message's output names, ready to be a query's select
// list, or its filter when there is one bool expression.
//
// A column the message reads that s does not have is an error that says
// so as a text expression's would: with the names close to it, or why the
// source's column of that name cannot be read.
func SubstraitExprs(s *colexpr.Schema, msg *pb.ExtendedExpression, o *colexpr.Options) ([]Expr, error) {
	if err := missingColumn(s, msg); err != nil {
		return nil, err
	}
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

// missingColumn finds the first column of the message's base schema that
// its expressions read and s does not have. Import would reject it too,
// listing every column; this names the likely one. The walk over the
// message is iterative: a message may nest as deep as its sender likes.
func missingColumn(s *colexpr.Schema, msg *pb.ExtendedExpression) error {
	base, err := substrait.Schema(msg)
	if err != nil {
		return nil // Import says what is wrong with the base schema
	}
	var stack []protoreflect.Message
	for _, r := range msg.GetReferredExpr() {
		stack = append(stack, r.ProtoReflect())
	}
	slices.Reverse(stack)
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ref, ok := m.Interface().(*pb.Expression_FieldReference); ok && (ref.RootType == nil || ref.GetRootReference() != nil) {
			if sf := ref.GetDirectReference().GetStructField(); sf != nil && sf.Field >= 0 && int(sf.Field) < len(base.Fields()) {
				if name := base.Fields()[sf.Field].Name; s.Root.FieldIndex(name) < 0 {
					return s.UnknownColumn(name)
				}
			}
		}
		// Children go on the stack last first, so the walk meets the
		// columns in the message's order.
		from := len(stack)
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsMap() || fd.Message() == nil:
			case fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					stack = append(stack, v.List().Get(i).Message())
				}
			default:
				stack = append(stack, v.Message())
			}
			return true
		})
		slices.Reverse(stack[from:])
	}
	return nil
}
