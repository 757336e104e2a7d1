package substrait

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	sexpr "github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/extensions"
	"github.com/substrait-io/substrait-go/v8/types"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// version is the Substrait version the messages this package writes
// follow: the protobuf release substrait-go v8 builds on, which refers to
// extensions by URN.
func version() *pb.Version {
	return &pb.Version{MajorNumber: 0, MinorNumber: 85, PatchNumber: 0, Producer: "colexpr"}
}

// Named is one expression of an ExtendedExpression with its output name.
type Named struct {
	Name string
	Expr *expr.Bound
}

// Export converts a bound expression into a Substrait ExtendedExpression
// with one referred expression, named "expr". The scope is the one b was
// bound against: its root dtype, which must be a struct, becomes the base
// schema. See ExportAll.
func Export(b *expr.Bound, scope expr.Scope) (*pb.ExtendedExpression, error) {
	return Options{}.Export(b, scope)
}

// ExportAll converts bound expressions, all bound against scope, into one
// Substrait ExtendedExpression: the scope's root struct is the base schema
// (its field names in depth-first order, as a NamedStruct has them), each
// expression a referred expression with its name as output name, and every
// function it calls is declared in the extensions it comes from. A
// construct with no faithful Substrait form is an *Error wrapping
// ErrUnsupported that names it; nothing is ever exported with a different
// meaning. The package doc lists the mapping.
//
// Variables other than lambda parameters have no Substrait form: export an
// expression before partitioning binds free variables into it.
func ExportAll(scope expr.Scope, exprs ...Named) (*pb.ExtendedExpression, error) {
	return Options{}.ExportAll(scope, exprs...)
}

// Options adjust an export. The zero value is the default of Export and
// ExportAll.
type Options struct {
	// PruneSchema makes the base schema hold only the root fields the
	// expressions reference, in the root's order, instead of all of them.
	// An expression then exports even when the scope has fields Substrait
	// has no type for (u8, f16, fixed-size lists) that it does not use.
	// Import resolves root fields by name, so the message still reads back
	// against the full scope; a consumer that feeds the expression its
	// input by position must feed it the pruned schema's fields.
	PruneSchema bool
}

// Export is the package-level Export with these options.
func (o Options) Export(b *expr.Bound, scope expr.Scope) (*pb.ExtendedExpression, error) {
	return o.ExportAll(scope, Named{Name: "expr", Expr: b})
}

// ExportAll is the package-level ExportAll with these options.
func (o Options) ExportAll(scope expr.Scope, exprs ...Named) (*pb.ExtendedExpression, error) {
	root := scope.Root()
	if !root.IsStruct() {
		return nil, &Error{Op: "export", Node: "$", Err: unsupported("the scope's root has type %s: a Substrait base schema is a struct", root)}
	}
	for i, n := range exprs {
		if n.Expr == nil {
			return nil, &Error{Op: "export", Path: "expression " + strconv.Itoa(i), Err: errors.New("nil expression")}
		}
	}
	if o.PruneSchema {
		root = pruned(root, exprs)
	}
	baseType, err := typeOf(root)
	if err != nil {
		cause := schemaError(root, err)
		if !o.PruneSchema {
			cause = fmt.Errorf("%w; if the expression does not use that field, export with Options{PruneSchema: true}", cause)
		}
		return nil, &Error{Op: "export", Path: "base schema", Err: cause}
	}
	coll, err := extensions.GetDefaultCollection()
	if err != nil {
		return nil, fmt.Errorf("substrait: export: loading the standard extensions: %w", err)
	}
	x := &exporter{
		reg:  sexpr.NewEmptyExtensionRegistry(coll),
		root: root,
	}
	out := &pb.ExtendedExpression{
		Version:    version(),
		BaseSchema: namedStruct(root, baseType),
	}
	var h hints
	if r, err := schemaOf(out.BaseSchema); err != nil || !r.Equal(root) {
		// The base schema reads back otherwise (a zone, the root's
		// nullability): say the exact root type.
		h.schema = root.String()
	}
	for _, n := range exprs {
		x.hints = newExprHints()
		x.seq = 0
		e, err := x.node(n.Expr, nil)
		if err != nil {
			return nil, err
		}
		h.exprs = append(h.exprs, x.hints)
		out.ReferredExpr = append(out.ReferredExpr, &pb.ExpressionReference{
			ExprType:    &pb.ExpressionReference_Expression{Expression: e},
			OutputNames: append([]string{n.Name}, structNames(n.Expr.DType(), nil)...),
		})
	}
	out.ExtensionUrns, out.Extensions = x.reg.ExtensionsToProto()
	if out.AdvancedExtensions, err = h.toExtension(); err != nil {
		return nil, fmt.Errorf("substrait: export: encoding colexpr hints: %w", err)
	}
	if out.AdvancedExtensions != nil {
		out.ExpectedTypeUrls = []string{hintTypeURL}
	}
	return out, nil
}

// pruned is root with only the fields the expressions read from $.
func pruned(root dtype.DType, exprs []Named) dtype.DType {
	used := map[string]bool{}
	var walk func(b *expr.Bound)
	walk = func(b *expr.Bound) {
		if g, ok := b.Fn().(fn.GetItemFn); ok && b.Kind() == expr.KindCall && b.Arg(0).Kind() == expr.KindRoot {
			used[g.Field] = true
		}
		for _, a := range b.Args() {
			walk(a)
		}
	}
	for _, n := range exprs {
		walk(n.Expr)
	}
	var fs []dtype.Field
	for _, f := range root.Fields() {
		if used[f.Name] {
			fs = append(fs, f)
		}
	}
	return dtype.Struct(fs, root.Nullable())
}

// namedStruct is the base schema of root, whose Substrait type is t: the
// field names in depth-first order and the struct, always required whatever
// the root's nullability (a record batch has no null rows).
func namedStruct(root dtype.DType, t types.Type) *pb.NamedStruct {
	s := types.TypeToProto(t).GetStruct()
	s.Nullability = pb.Type_NULLABILITY_REQUIRED
	return &pb.NamedStruct{Names: structNames(root, nil), Struct: s}
}

// schemaError says which field of the base schema has no Substrait type.
func schemaError(root dtype.DType, cause error) error {
	var walk func(d dtype.DType, fpath string) string
	walk = func(d dtype.DType, fpath string) string {
		switch d.Kind() {
		case dtype.KindStruct:
			for _, f := range d.Fields() {
				p := fpath + "." + dtype.QuoteFieldName(f.Name)
				if _, err := typeOf(f.Type); err != nil {
					if inner := walk(f.Type, p); inner != "" {
						return inner
					}
					return p
				}
			}
		case dtype.KindList:
			return walk(d.Elem(), fpath+"[]")
		}
		return ""
	}
	if p := walk(root, "$"); p != "" {
		return fmt.Errorf("field %s: %w", p, cause)
	}
	return cause
}

type exporter struct {
	reg     sexpr.ExtensionRegistry
	root    dtype.DType
	lambdas [][]string // parameter names of the enclosing lambdas, innermost last
	hints   exprHints
	seq     int // numbers the nodes that can carry a hint, in pre-order
}

func (x *exporter) fail(b *expr.Bound, path *where, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Op: "export", Path: path.String(), Node: expr.Shorten(b.String()), Err: err}
}

// node exports b, found at path.
func (x *exporter) node(b *expr.Bound, path *where) (*pb.Expression, error) {
	switch b.Kind() {
	case expr.KindRoot:
		return nil, x.fail(b, path, unsupported("$ as a value: Substrait references the fields of its input, not the input itself (use its fields, or pack them)"))
	case expr.KindVar:
		return x.fieldRef(b, path)
	case expr.KindLambda:
		return nil, x.fail(b, path, unsupported("a lambda outside a higher-order function"))
	}
	switch f := b.Fn().(type) {
	case fn.LiteralFn:
		if f.Untyped {
			x.hints.untyped[x.seq] = true
		}
		return x.literal(b, f.Value, path)
	case fn.GetItemFn:
		return x.fieldRef(b, path)
	case fn.CastFn:
		return x.cast(b, f, path)
	case fn.CaseWhenFn:
		return x.caseWhen(b, f, path)
	case fn.PackFn:
		return x.pack(b, f, path)
	case fn.LikeFn:
		return x.like(b, f, path)
	}
	switch id := b.Fn().ID(); id {
	case fn.IDInList:
		return x.inList(b, path)
	case fn.IDCoalesce, fn.IDFillNull:
		if len(b.Args()) == 1 {
			// coalesce(a) is a: Substrait's coalesce wants two arguments.
			return x.node(b.Arg(0), child(path, 0))
		}
		return x.function(b, path, target{urnComparison, "coalesce", nil})
	default:
		spec, ok := exports[id]
		if !ok {
			if why, ok := refusals[id]; ok {
				return nil, x.fail(b, path, unsupported("%s has no Substrait form: %s", id, why))
			}
			return nil, x.fail(b, path, unsupported("function %s has no Substrait mapping", id))
		}
		types := make([]dtype.DType, len(b.Args()))
		for i, a := range b.Args() {
			types[i] = a.DType()
		}
		if id == fn.IDNeg && types[0].IsDecimal() {
			return x.negateDecimal(b, path)
		}
		return x.function(b, path, spec(fn.PropertiesOf(b.Fn()).Substrait, types))
	}
}

// function exports a call to the Substrait function t: the arguments, the
// declaration (resolved and checked by substrait-go against the extension's
// signatures) and the output type, which must be the one colexpr computes
// (nullability aside: Substrait's and colexpr's null rules are the same,
// but not every declaration can say so).
//
// One difference is bridged: Substrait types a decimal product one digit
// wider than colexpr, and a decimal remainder narrower. Every value fits
// both, so the call is exported as a cast of Substrait's result to
// colexpr's type, which never fails; import reads that pattern back as the
// plain call.
func (x *exporter) function(b *expr.Bound, path *where, t target) (*pb.Expression, error) {
	probes := make([]types.FuncArg, len(b.Args()))
	for i, a := range b.Args() {
		p, err := probe(a)
		if err != nil {
			return nil, x.fail(a, child(path, i), err)
		}
		probes[i] = p
	}
	out, err := typeOf(b.DType())
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	sf, err := sexpr.NewScalarFunc(x.reg, extensions.ID{URN: t.urn, Name: t.name}, t.opts, probes...)
	if err != nil {
		return nil, x.fail(b, path, unsupported("%s has no Substrait form: %s in %s has no signature for (%s)", b.Fn().ID(), t.name, t.urn, argTypes(b)))
	}
	derived := sf.GetType()
	widened := false
	if !sameShape(types.TypeToProto(derived), types.TypeToProto(out)) {
		if !decimalBridge(t, derived, b.DType()) {
			return nil, x.fail(b, path, unsupported("%s has no Substrait form here: Substrait's %s types the result %s, colexpr %s", b.Fn().ID(), t.name, derived, b.DType()))
		}
		widened = true
		x.typeHint(b.DType()) // the cast's number, taken before its input's
	}
	args := make([]*pb.FunctionArgument, len(b.Args()))
	for i, a := range b.Args() {
		var e *pb.Expression
		if a.Kind() == expr.KindLambda {
			if len(a.Params()) > 1 {
				// lambda x, i: Substrait's transform and filter give their
				// lambda the element only.
				return nil, x.fail(b, path, unsupported("%s with a lambda of %d parameters has no Substrait form (Substrait's %s gives its lambda the element only)", b.Fn().ID(), len(a.Params()), t.name))
			}
			e, err = x.lambda(a, child(path, i))
		} else {
			e, err = x.node(a, child(path, i))
		}
		if err != nil {
			return nil, err
		}
		args[i] = &pb.FunctionArgument{ArgType: &pb.FunctionArgument_Value{Value: e}}
	}
	opts := make([]*pb.FunctionOption, len(t.opts))
	for i, o := range t.opts {
		opts[i] = &pb.FunctionOption{Name: o.Name, Preference: append([]string(nil), o.Preference...)}
	}
	outType := out
	if widened {
		outType = derived.WithNullability(out.GetNullability())
	}
	call := &pb.Expression{RexType: &pb.Expression_ScalarFunction_{ScalarFunction: &pb.Expression_ScalarFunction{
		FunctionReference: sf.FuncRef(),
		Arguments:         args,
		Options:           opts,
		OutputType:        types.TypeToProto(outType),
	}}}
	if !widened {
		return call, nil
	}
	return &pb.Expression{RexType: &pb.Expression_Cast_{Cast: &pb.Expression_Cast{
		Type: types.TypeToProto(out), Input: call, FailureBehavior: pb.Expression_Cast_FAILURE_BEHAVIOR_THROW_EXCEPTION,
	}}}, nil
}

// negateDecimal exports -x of a decimal, which Substrait's decimal
// extension has no negate for, as CAST(0 - x AS type of x): the
// difference is typed one digit wider, and a negated value always fits x's
// type, so the cast never fails. Import reads the pattern back as -x.
func (x *exporter) negateDecimal(b *expr.Bound, path *where) (*pb.Expression, error) {
	a := b.Arg(0)
	t := a.DType()
	zero := scalar.Decimal(decimal128.Num{}, t.Precision(), t.Scale())
	out, err := typeOf(b.DType())
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	zt, _ := typeOf(zero.DType())
	at, _ := typeOf(t)
	tgt := arithmetic("subtract", []dtype.DType{t})
	sf, err := sexpr.NewScalarFunc(x.reg, extensions.ID{URN: tgt.urn, Name: tgt.name}, tgt.opts, &sexpr.NullLiteral{Type: zt}, &sexpr.NullLiteral{Type: at})
	if err != nil {
		return nil, x.fail(b, path, unsupported("neg of %s has no Substrait form: %v", t, err))
	}
	d, ok := sf.GetType().(*types.DecimalType)
	if !ok || int(d.Scale) != t.Scale() {
		return nil, x.fail(b, path, unsupported("neg of %s has no Substrait form: Substrait's decimal extension has no negate, and 0 - x is typed %s, which loses digits", t, sf.GetType()))
	}
	x.typeHint(b.DType()) // the cast
	zl, err := x.literal(b, zero, path)
	if err != nil {
		return nil, err
	}
	in, err := x.node(a, child(path, 0))
	if err != nil {
		return nil, err
	}
	call := &pb.Expression{RexType: &pb.Expression_ScalarFunction_{ScalarFunction: &pb.Expression_ScalarFunction{
		FunctionReference: sf.FuncRef(),
		Arguments:         []*pb.FunctionArgument{{ArgType: &pb.FunctionArgument_Value{Value: zl}}, {ArgType: &pb.FunctionArgument_Value{Value: in}}},
		Options:           []*pb.FunctionOption{{Name: "overflow", Preference: []string{"ERROR"}}},
		OutputType:        types.TypeToProto(d.WithNullability(out.GetNullability())),
	}}}
	return &pb.Expression{RexType: &pb.Expression_Cast_{Cast: &pb.Expression_Cast{
		Type: types.TypeToProto(out), Input: call, FailureBehavior: pb.Expression_Cast_FAILURE_BEHAVIOR_THROW_EXCEPTION,
	}}}, nil
}

// decimalBridge reports whether a decimal multiply or modulus whose
// Substrait result type differs from colexpr's only in precision can be
// exported as a cast to colexpr's type: the scales agree, so no digit after
// the point is lost, and every product of a p1- and a p2-digit number has
// at most p1+p2 digits (colexpr's precision), every remainder at most the
// narrower operand's integer digits (Substrait's).
func decimalBridge(t target, derived types.Type, ours dtype.DType) bool {
	d, ok := derived.(*types.DecimalType)
	if !ok || !ours.IsDecimal() || t.urn != urnDecimal || (t.name != "multiply" && t.name != "modulus") {
		return false
	}
	return int(d.Scale) == ours.Scale()
}

// probe is a stand-in argument of a's Substrait type, for resolving a
// function's signature before the arguments are exported.
func probe(a *expr.Bound) (types.FuncArg, error) {
	if a.Kind() != expr.KindLambda {
		st, err := typeOf(a.DType())
		if err != nil {
			return nil, err
		}
		return &sexpr.NullLiteral{Type: st}, nil
	}
	ps, err := lambdaParams(a)
	if err != nil {
		return nil, err
	}
	bt, err := typeOf(a.Body().DType())
	if err != nil {
		return nil, err
	}
	return &sexpr.Lambda{Parameters: ps, Body: &sexpr.NullLiteral{Type: bt}}, nil
}

func lambdaParams(a *expr.Bound) (*types.StructType, error) {
	ptypes := make([]types.Type, len(a.ParamTypes()))
	for i, t := range a.ParamTypes() {
		st, err := typeOf(t)
		if err != nil {
			return nil, err
		}
		ptypes[i] = st
	}
	return &types.StructType{Nullability: types.NullabilityRequired, Types: ptypes}, nil
}

func argTypes(b *expr.Bound) string {
	parts := make([]string, len(b.Args()))
	for i, a := range b.Args() {
		if a.Kind() == expr.KindLambda {
			ps := make([]string, len(a.ParamTypes()))
			for j, p := range a.ParamTypes() {
				ps[j] = p.String()
			}
			parts[i] = "(" + strings.Join(ps, ", ") + ") -> " + a.DType().String()
			continue
		}
		parts[i] = a.DType().String()
	}
	return strings.Join(parts, ", ")
}

// lambda exports a lambda argument. Its parameters are referred to by
// position; their names travel as a hint when they are not the ones an
// import would make up.
func (x *exporter) lambda(b *expr.Bound, path *where) (*pb.Expression, error) {
	n := x.seq
	x.seq++
	ps, err := lambdaParams(b)
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	params := b.Params()
	depth := len(x.lambdas)
	for i, p := range params {
		if p != defaultParam(depth, i, len(params)) {
			x.hints.params[n] = append([]string(nil), params...)
			break
		}
	}
	x.lambdas = append(x.lambdas, params)
	body, err := x.node(b.Body(), path.add(".body"))
	x.lambdas = x.lambdas[:depth]
	if err != nil {
		return nil, err
	}
	return &pb.Expression{RexType: &pb.Expression_Lambda_{Lambda: &pb.Expression_Lambda{
		Parameters: types.TypeToProto(ps).GetStruct(),
		Body:       body,
	}}}, nil
}

// literal exports a constant; its dtype travels as a hint when the
// Substrait type cannot say all of it (struct field names, a zone).
func (x *exporter) literal(b *expr.Bound, v scalar.Scalar, path *where) (*pb.Expression, error) {
	l, err := literalOf(v)
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	x.typeHint(v.DType())
	return l.ToProto(), nil
}

// typeHint numbers a node that carries a type and records a hint when the
// default reading of its Substrait type would differ from t.
func (x *exporter) typeHint(t dtype.DType) {
	n := x.seq
	x.seq++
	if r, ok := defaultReading(t); ok && !r.Equal(t) {
		x.hints.types[n] = t.String()
	}
}

// fieldRef exports a chain of get_item calls that starts at $ or at a
// lambda parameter as one field reference with nested struct-field
// segments; a chain that starts anywhere else references the fields of
// that expression.
func (x *exporter) fieldRef(b *expr.Bound, path *where) (*pb.Expression, error) {
	var names []string
	n := b
	npath := path
	for n.Kind() == expr.KindCall {
		g, ok := n.Fn().(fn.GetItemFn)
		if !ok {
			break
		}
		names = append(names, g.Field)
		n = n.Arg(0)
		npath = child(npath, 0)
	}
	// names are innermost first; the segments go outermost first.
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	ref := &pb.Expression_FieldReference{}
	t := n.DType()
	if n.Kind() == expr.KindRoot {
		t = x.root // the base schema, which PruneSchema may have pruned
	}
	var first *pb.Expression_ReferenceSegment_StructField
	var seg *pb.Expression_ReferenceSegment_StructField
	switch n.Kind() {
	case expr.KindRoot:
		ref.RootType = &pb.Expression_FieldReference_RootReference_{RootReference: &pb.Expression_FieldReference_RootReference{}}
	case expr.KindVar:
		steps, index, ok := x.lookupParam(n.Name())
		if !ok {
			return nil, x.fail(n, npath, unsupported("variable %s is not a lambda parameter: Substrait has no free variables (export before binding variables, e.g. before partitioning)", n.Name()))
		}
		ref.RootType = &pb.Expression_FieldReference_LambdaParameterReference_{LambdaParameterReference: &pb.Expression_FieldReference_LambdaParameterReference{StepsOut: steps}}
		// Lambda parameters are the fields of a struct: the first segment
		// picks the parameter.
		first = &pb.Expression_ReferenceSegment_StructField{Field: int32(index)}
		seg = first
	default:
		root, err := x.node(n, npath)
		if err != nil {
			return nil, err
		}
		ref.RootType = &pb.Expression_FieldReference_Expression{Expression: root}
	}
	for _, name := range names {
		i := t.FieldIndex(name)
		if i < 0 {
			return nil, x.fail(b, path, invalid("no field %q in %s", name, t))
		}
		s := &pb.Expression_ReferenceSegment_StructField{Field: int32(i)}
		if first == nil {
			first = s
		} else {
			seg.Child = &pb.Expression_ReferenceSegment{ReferenceType: &pb.Expression_ReferenceSegment_StructField_{StructField: s}}
		}
		seg = s
		t = t.Fields()[i].Type
	}
	if first == nil {
		return nil, x.fail(b, path, unsupported("$ as a value: Substrait references the fields of its input, not the input itself"))
	}
	ref.ReferenceType = &pb.Expression_FieldReference_DirectReference{DirectReference: &pb.Expression_ReferenceSegment{
		ReferenceType: &pb.Expression_ReferenceSegment_StructField_{StructField: first},
	}}
	return &pb.Expression{RexType: &pb.Expression_Selection{Selection: ref}}, nil
}

// lookupParam finds a lambda parameter as binding does: the innermost
// lambda that has it, the last parameter of that name.
func (x *exporter) lookupParam(name string) (steps uint32, index int, ok bool) {
	for d := len(x.lambdas) - 1; d >= 0; d-- {
		ps := x.lambdas[d]
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i] == name {
				return uint32(len(x.lambdas) - 1 - d), i, true
			}
		}
	}
	return 0, 0, false
}

// cast exports cast as a cast that throws on failure and try_cast as one
// that returns null.
func (x *exporter) cast(b *expr.Bound, f fn.CastFn, path *where) (*pb.Expression, error) {
	to, err := typeOf(f.To)
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	x.typeHint(f.To)
	in, err := x.node(b.Arg(0), child(path, 0))
	if err != nil {
		return nil, err
	}
	behavior := pb.Expression_Cast_FAILURE_BEHAVIOR_THROW_EXCEPTION
	if f.Try {
		behavior = pb.Expression_Cast_FAILURE_BEHAVIOR_RETURN_NULL
	}
	return &pb.Expression{RexType: &pb.Expression_Cast_{Cast: &pb.Expression_Cast{
		Type: types.TypeToProto(to), Input: in, FailureBehavior: behavior,
	}}}, nil
}

// caseWhen exports CASE as IfThen. Substrait's IfThen always has an else:
// a CASE without one gets a null of its result type, which is what it
// yields when no condition holds.
func (x *exporter) caseWhen(b *expr.Bound, f fn.CaseWhenFn, path *where) (*pb.Expression, error) {
	args := b.Args()
	n := f.Branches(len(args))
	ite := &pb.Expression_IfThen{}
	for i := 0; i < n; i++ {
		cond, err := x.node(args[2*i], child(path, 2*i))
		if err != nil {
			return nil, err
		}
		then, err := x.node(args[2*i+1], child(path, 2*i+1))
		if err != nil {
			return nil, err
		}
		ite.Ifs = append(ite.Ifs, &pb.Expression_IfThen_IfClause{If: cond, Then: then})
	}
	var err error
	if f.HasElse {
		ite.Else, err = x.node(args[len(args)-1], child(path, len(args)-1))
	} else {
		ite.Else, err = x.literal(b, scalar.Null(b.DType()), path.add(".else"))
	}
	if err != nil {
		return nil, err
	}
	return &pb.Expression{RexType: &pb.Expression_IfThen_{IfThen: ite}}, nil
}

// inList exports x IN (v1, …) as a SingularOrList.
func (x *exporter) inList(b *expr.Bound, path *where) (*pb.Expression, error) {
	args := b.Args()
	v, err := x.node(args[0], child(path, 0))
	if err != nil {
		return nil, err
	}
	sol := &pb.Expression_SingularOrList{Value: v}
	for i := 1; i < len(args); i++ {
		o, err := x.node(args[i], child(path, i))
		if err != nil {
			return nil, err
		}
		sol.Options = append(sol.Options, o)
	}
	return &pb.Expression{RexType: &pb.Expression_SingularOrList_{SingularOrList: sol}}, nil
}

// pack exports a struct pack as a nested struct expression; the field
// names travel as a hint.
func (x *exporter) pack(b *expr.Bound, f fn.PackFn, path *where) (*pb.Expression, error) {
	if _, err := typeOf(b.DType()); err != nil {
		return nil, x.fail(b, path, err)
	}
	x.typeHint(b.DType())
	st := &pb.Expression_Nested_Struct{}
	for i, a := range b.Args() {
		e, err := x.node(a, child(path, i))
		if err != nil {
			return nil, err
		}
		st.Fields = append(st.Fields, e)
	}
	return &pb.Expression{RexType: &pb.Expression_Nested_{Nested: &pb.Expression_Nested{
		Nullable:   false,
		NestedType: &pb.Expression_Nested_Struct_{Struct: st},
	}}}, nil
}

// like exports LIKE and ILIKE as functions_string's like with the
// case_sensitivity option; NOT LIKE is not(like(…)).
func (x *exporter) like(b *expr.Bound, f fn.LikeFn, path *where) (*pb.Expression, error) {
	if esc, ok := f.EscapeText(); ok {
		return nil, x.fail(b, path, unsupported("LIKE … ESCAPE %s has no Substrait form: Substrait's like has no escape character argument", dtype.QuoteString(esc)))
	}
	sens := "CASE_SENSITIVE"
	if f.CaseInsensitive {
		sens = "CASE_INSENSITIVE"
	}
	t := target{urnString, "like", []*types.FunctionOption{option("case_sensitivity", sens)}}
	if !f.Negated {
		return x.function(b, path, t)
	}
	inner, err := expr.NewCall(fn.Like(false, f.CaseInsensitive), b.Args()...)
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	l, err := x.function(inner, path, t)
	if err != nil {
		return nil, err
	}
	out, err := typeOf(b.DType())
	if err != nil {
		return nil, x.fail(b, path, err)
	}
	probe := &sexpr.NullLiteral{Type: out}
	sf, err := sexpr.NewScalarFunc(x.reg, extensions.ID{URN: urnBoolean, Name: "not"}, nil, probe)
	if err != nil {
		return nil, x.fail(b, path, unsupported("not has no signature for %s: %v", b.DType(), err))
	}
	return &pb.Expression{RexType: &pb.Expression_ScalarFunction_{ScalarFunction: &pb.Expression_ScalarFunction{
		FunctionReference: sf.FuncRef(),
		Arguments:         []*pb.FunctionArgument{{ArgType: &pb.FunctionArgument_Value{Value: l}}},
		OutputType:        types.TypeToProto(out),
	}}}, nil
}
