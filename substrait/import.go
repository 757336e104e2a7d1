package substrait

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/substrait-io/substrait-go/v8/extensions"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/scalar"
)

// Schema is the base schema of msg as a colexpr struct dtype: the
// NamedStruct's names and types, read as the package doc's type table says
// (a timestamp_tz is in UTC unless a colexpr hint names its zone).
func Schema(msg *pb.ExtendedExpression) (dtype.DType, error) {
	if msg == nil {
		return dtype.DType{}, &Error{Op: "import", Err: invalid("nil message")}
	}
	h, err := readHints(msg.AdvancedExtensions, len(msg.ReferredExpr))
	if err != nil {
		return dtype.DType{}, &Error{Op: "import", Path: "advanced_extensions", Err: err}
	}
	return baseSchema(msg, h)
}

// baseSchema is the message's base schema, as the schema hint says it
// exactly when there is one.
func baseSchema(msg *pb.ExtendedExpression, h *hints) (dtype.DType, error) {
	d, err := schemaOf(msg.BaseSchema)
	if err != nil {
		return dtype.DType{}, &Error{Op: "import", Path: "base_schema", Err: err}
	}
	if h.schema == "" {
		return d, nil
	}
	t, err := dtype.Parse(h.schema)
	if err != nil || !t.IsStruct() || !sameSubstraitType(t.AsNonNullable(), d) || !equalNames(t, d) {
		return dtype.DType{}, &Error{Op: "import", Path: "advanced_extensions", Err: invalid("colexpr schema hint %q does not describe the base schema %s", h.schema, d)}
	}
	return t, nil
}

// schemaOf reads a NamedStruct: its names in depth-first order, all used.
func schemaOf(ns *pb.NamedStruct) (dtype.DType, error) {
	if ns == nil || ns.Struct == nil {
		return dtype.DType{}, invalid("no base schema")
	}
	nm := &names{list: ns.Names}
	t := &pb.Type{Kind: &pb.Type_Struct_{Struct: ns.Struct}}
	d, err := dtypeOf(t, nm)
	if err != nil {
		return dtype.DType{}, err
	}
	if nm.next != len(ns.Names) {
		return dtype.DType{}, invalid("the base schema has %d names for %d fields", len(ns.Names), nm.next)
	}
	return d.AsNonNullable(), nil
}

func equalNames(a, b dtype.DType) bool {
	na, nb := structNames(a, nil), structNames(b, nil)
	if len(na) != len(nb) {
		return false
	}
	for i := range na {
		if na[i] != nb[i] {
			return false
		}
	}
	return true
}

// Import reads the referred expressions of msg back into bound colexpr
// expressions, bound against scope — usually expr.ScopeOf of the data's
// schema, or of Schema(msg).
//
// A root field reference is resolved by name: the field index picks a name
// from the message's base schema, and that name is looked up in the
// scope's root, whose type there must be the base schema's (nullability
// and time zone names aside: a timestamp_tz is an instant in any zone). So the data may have its columns in another order, or more of
// them, than the schema the expression was exported against.
//
// Functions are read by extension URN and name; their options must ask for
// the semantics colexpr implements (see the package doc) and their declared
// output types must be the ones colexpr computes, nullability aside.
// Anything else is an *Error that says where and why, wrapping
// ErrUnsupported or ErrInvalid.
func Import(msg *pb.ExtendedExpression, scope expr.Scope) ([]Named, error) {
	if msg == nil {
		return nil, &Error{Op: "import", Err: invalid("nil message")}
	}
	h, err := readHints(msg.AdvancedExtensions, len(msg.ReferredExpr))
	if err != nil {
		return nil, &Error{Op: "import", Path: "advanced_extensions", Err: err}
	}
	base, err := baseSchema(msg, h)
	if err != nil {
		return nil, err
	}
	funcs, err := functionAnchors(msg)
	if err != nil {
		return nil, &Error{Op: "import", Path: "extensions", Err: err}
	}
	if len(msg.ReferredExpr) == 0 {
		return nil, &Error{Op: "import", Path: "referred_expr", Err: invalid("the message has no expressions")}
	}
	m := &importer{funcs: funcs, base: base, scope: scope}
	out := make([]Named, 0, len(msg.ReferredExpr))
	for i, r := range msg.ReferredExpr {
		path := at("referred_expr[" + strconv.Itoa(i) + "]")
		e := r.GetExpression()
		if e == nil {
			if r.GetMeasure() != nil {
				return nil, &Error{Op: "import", Path: path.String(), Err: unsupported("a measure (aggregate): colexpr expressions are scalar")}
			}
			return nil, &Error{Op: "import", Path: path.String(), Err: invalid("an expression reference with no expression")}
		}
		m.hints, m.seq = h.exprs[i], 0
		b, err := m.expr(e, path)
		if err != nil {
			return nil, err
		}
		name := "expr"
		if len(r.OutputNames) > 0 {
			name = r.OutputNames[0]
		} else if len(msg.ReferredExpr) > 1 {
			name = "expr" + strconv.Itoa(i+1)
		}
		out = append(out, Named{Name: name, Expr: b})
	}
	return out, nil
}

// functionAnchors maps the message's function anchors to their extension
// URN and name.
func functionAnchors(msg *pb.ExtendedExpression) (map[uint32]extensions.ID, error) {
	urns := map[uint32]string{}
	for _, u := range msg.ExtensionUrns {
		urns[u.GetExtensionUrnAnchor()] = u.GetUrn()
	}
	funcs := map[uint32]extensions.ID{}
	for i, d := range msg.Extensions {
		f := d.GetExtensionFunction()
		if f == nil {
			continue // types and type variations: colexpr uses none, and a use of one fails where it is
		}
		urn, ok := urns[f.ExtensionUrnReference]
		if !ok {
			return nil, invalid("extensions[%d] (function %q) refers to extension URN anchor %d, which is not declared", i, f.Name, f.ExtensionUrnReference)
		}
		funcs[f.FunctionAnchor] = extensions.ID{URN: urn, Name: f.Name}
	}
	return funcs, nil
}

type frame struct {
	names []string
	types []dtype.DType
}

type importer struct {
	funcs   map[uint32]extensions.ID
	base    dtype.DType
	scope   expr.Scope
	hints   exprHints
	seq     int
	lambdas []frame
	depth   int // the nesting of the expression being read
}

func (m *importer) fail(path *where, node string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Op: "import", Path: path.String(), Node: node, Err: err}
}

// typeErr wraps a colexpr typing error of an imported call; a build that
// refuses a call (ErrUnsupported) says why itself.
func typeErr(err error) error {
	if errors.Is(err, ErrUnsupported) {
		return err
	}
	return invalid("does not type-check in colexpr: %v", err)
}

func (m *importer) expr(e *pb.Expression, path *where) (*expr.Bound, error) {
	// The walk recurses: a message built in Go (not decoded, so not
	// limited by Unmarshal) deeper than any colexpr tree is refused first.
	m.depth++
	defer func() { m.depth-- }()
	if m.depth > expr.MaxDepth {
		return nil, m.fail(path, "", invalid("%w (more than %d levels)", expr.ErrTooDeep, expr.MaxDepth))
	}
	if e == nil || e.RexType == nil {
		return nil, m.fail(path, "", invalid("an expression with no content"))
	}
	switch r := e.RexType.(type) {
	case *pb.Expression_Literal_:
		return m.literal(r.Literal, path)
	case *pb.Expression_Selection:
		return m.selection(r.Selection, path)
	case *pb.Expression_ScalarFunction_:
		b, _, err := m.scalarFunction(r.ScalarFunction, path, nil)
		return b, err
	case *pb.Expression_IfThen_:
		return m.ifThen(r.IfThen, path)
	case *pb.Expression_SingularOrList_:
		return m.singularOrList(r.SingularOrList, path)
	case *pb.Expression_Cast_:
		return m.cast(r.Cast, path)
	case *pb.Expression_Nested_:
		return m.nested(r.Nested, path)
	case *pb.Expression_Lambda_:
		return nil, m.fail(path, "lambda", unsupported("a lambda outside the lambda argument of a higher-order function"))
	}
	return nil, m.fail(path, rexKind(e), unsupported("%s expressions have no colexpr counterpart", rexKind(e)))
}

func rexKind(e *pb.Expression) string {
	fd := e.ProtoReflect().WhichOneof(e.ProtoReflect().Descriptor().Oneofs().ByName("rex_type"))
	if fd == nil {
		return "(none)"
	}
	return string(fd.Name())
}

func (m *importer) literal(l *pb.Expression_Literal, path *where) (*expr.Bound, error) {
	n := m.seq
	m.seq++
	t, err := literalType(l)
	if err != nil {
		return nil, m.fail(path, "literal", err)
	}
	if t, err = m.hints.hintedType(n, t); err != nil {
		return nil, m.fail(path, "literal", err)
	}
	s, err := scalarOf(l, t)
	if err != nil {
		return nil, m.fail(path, "literal", err)
	}
	if m.hints.untyped[n] {
		b, err := expr.NewCall(fn.LiteralFn{Value: s, Untyped: true})
		if err != nil {
			return nil, m.fail(path, "literal", typeErr(err))
		}
		return b, nil
	}
	return expr.NewLiteral(s), nil
}

// selection reads a field reference as get_item calls on $, on a lambda
// parameter or on an expression.
func (m *importer) selection(ref *pb.Expression_FieldReference, path *where) (*expr.Bound, error) {
	const node = "field reference"
	seg := ref.GetDirectReference()
	if seg == nil {
		if ref.GetMaskedReference() != nil {
			return nil, m.fail(path, node, unsupported("a masked reference (colexpr selects struct fields with get_item)"))
		}
		return nil, m.fail(path, node, invalid("a field reference with no reference"))
	}
	var indexes []int32
	for s := seg; s != nil; {
		sf := s.GetStructField()
		if sf == nil {
			return nil, m.fail(path, node, unsupported("a %s reference segment (colexpr references struct fields only)", segmentKind(s)))
		}
		indexes = append(indexes, sf.Field)
		s = sf.GetChild()
	}
	var cur *expr.Bound
	switch rt := ref.RootType.(type) {
	case nil, *pb.Expression_FieldReference_RootReference_:
		// The base schema names the fields; the scope types them.
		cur = expr.NewRoot(m.scope.Root())
		bt := m.base
		for depth, i := range indexes {
			if err := checkIndex("the base schema's ", bt, i, depth); err != nil {
				return nil, m.fail(path, node, err)
			}
			f := bt.Fields()[i]
			next, err := expr.NewCall(fn.GetItem(f.Name), cur)
			if err != nil {
				return nil, m.fail(path, node, invalid("the base schema's field %q is not in the scope: %v", f.Name, err))
			}
			if !sameShape(mustProto(next.DType()), mustProto(f.Type)) {
				return nil, m.fail(path, node, invalid("field %q has type %s in the scope, the base schema says %s", f.Name, next.DType(), f.Type))
			}
			cur, bt = next, f.Type
		}
		return cur, nil
	case *pb.Expression_FieldReference_LambdaParameterReference_:
		steps := int(rt.LambdaParameterReference.GetStepsOut())
		if steps >= len(m.lambdas) {
			return nil, m.fail(path, node, invalid("a lambda parameter reference %d steps out, inside %d lambdas", steps, len(m.lambdas)))
		}
		fr := m.lambdas[len(m.lambdas)-1-steps]
		i := indexes[0]
		if i < 0 || int(i) >= len(fr.names) {
			return nil, m.fail(path, node, invalid("lambda parameter %d of a lambda with %d", i, len(fr.names)))
		}
		cur = expr.NewVar(fr.names[i], fr.types[i])
		indexes = indexes[1:]
	case *pb.Expression_FieldReference_Expression:
		var err error
		if cur, err = m.expr(rt.Expression, path.add(".root")); err != nil {
			return nil, err
		}
	case *pb.Expression_FieldReference_OuterReference_:
		return nil, m.fail(path, node, unsupported("an outer reference (colexpr has no subqueries)"))
	default:
		return nil, m.fail(path, node, unsupported("a reference root of kind %T", rt))
	}
	for depth, i := range indexes {
		t := cur.DType()
		if err := checkIndex("", t, i, depth); err != nil {
			return nil, m.fail(path, node, err)
		}
		next, err := expr.NewCall(fn.GetItem(t.Fields()[i].Name), cur)
		if err != nil {
			return nil, m.fail(path, node, typeErr(err))
		}
		cur = next
	}
	return cur, nil
}

// checkIndex checks struct field index i, the depth-th segment of a
// reference, against the type t it selects from.
func checkIndex(where string, t dtype.DType, i int32, depth int) error {
	if !t.IsStruct() {
		return invalid("reference segment %d selects field %d of %s%s, which is not a struct", depth, i, where, t)
	}
	if i < 0 || int(i) >= len(t.Fields()) {
		return invalid("reference segment %d selects field %d of %s%s, which has %d", depth, i, where, t, len(t.Fields()))
	}
	return nil
}

func segmentKind(s *pb.Expression_ReferenceSegment) string {
	fd := s.ProtoReflect().WhichOneof(s.ProtoReflect().Descriptor().Oneofs().ByName("reference_type"))
	if fd == nil {
		return "(none)"
	}
	return string(fd.Name())
}

// scalarFunction reads a function call. Inside a cast to castTo (nil
// elsewhere), a decimal multiply or modulus whose declared type differs
// from colexpr's only in precision is the form export gives those calls:
// the call alone is colexpr's, and absorbed says the cast is read.
func (m *importer) scalarFunction(sf *pb.Expression_ScalarFunction, path *where, castTo *dtype.DType) (b *expr.Bound, absorbed bool, err error) {
	id, ok := m.funcs[sf.FunctionReference]
	if !ok {
		return nil, false, m.fail(path, "scalar function", invalid("function anchor %d is not declared in the extensions", sf.FunctionReference))
	}
	name, _, _ := strings.Cut(id.Name, ":")
	node := name
	spec, ok := imports[extensions.ID{URN: id.URN, Name: name}]
	if !ok {
		return nil, false, m.fail(path, node, unsupported("function %s of %s has no colexpr counterpart", name, id.URN))
	}
	args := make([]*expr.Bound, len(sf.Arguments))
	enums := map[string]string{}
	for i, a := range sf.Arguments {
		apath := child(path, i)
		v := a.GetValue()
		if i < spec.enums {
			if a.GetEnum() == "" {
				return nil, false, m.fail(apath, node, invalid("argument %d of %s must be an enum", i+1, name))
			}
			enums["enum"+strconv.Itoa(i)] = a.GetEnum()
			continue
		}
		if v == nil {
			if a.GetEnum() != "" || a.GetType() != nil {
				return nil, false, m.fail(apath, node, unsupported("an enum or type argument (colexpr functions take values; give options as options)"))
			}
			return nil, false, m.fail(apath, node, invalid("an argument with no value"))
		}
		if spec.hof != nil && i == 1 {
			continue // the lambda, read once the list is
		}
		a, err := m.expr(v, apath)
		if err != nil {
			return nil, false, err
		}
		args[i] = a
	}
	if spec.hof != nil {
		if len(args) != 2 {
			return nil, false, m.fail(path, node, invalid("%s takes a list and a lambda, got %d arguments", name, len(args)))
		}
		l := sf.Arguments[1].GetValue().GetLambda()
		if l == nil {
			return nil, false, m.fail(path.add(".args[1]"), node, invalid("argument 2 of %s must be a lambda", name))
		}
		ptypes, err := spec.hof.(fn.HigherOrder).LambdaParams(1, []dtype.DType{args[0].DType(), {}})
		if err != nil {
			return nil, false, m.fail(path, node, typeErr(err))
		}
		if o, ok := spec.hof.(fn.OptionalLambdaParams); ok && len(ptypes) > o.MinLambdaParams(1) {
			// Substrait's lambda gets the element only, not colexpr's
			// optional index.
			ptypes = ptypes[:o.MinLambdaParams(1)]
		}
		if args[1], err = m.lambda(l, ptypes, path.add(".args[1]")); err != nil {
			return nil, false, err
		}
	}
	args = args[spec.enums:]
	argTypes := make([]dtype.DType, len(args))
	for i, a := range args {
		argTypes[i] = a.DType()
	}
	chosen, err := chooseOptions(sf.Options, spec.allowed(argTypes))
	if err != nil {
		return nil, false, m.fail(path, node, err)
	}
	for k, v := range enums {
		chosen[k] = v
	}
	if spec.typed != nil {
		var out *dtype.DType
		if sf.OutputType != nil {
			d, err := dtypeOf(sf.OutputType, nil)
			if err != nil {
				return nil, false, m.fail(path, node, err)
			}
			out = &d
		}
		b, err = spec.typed(args, chosen, out)
	} else {
		b, err = spec.build(args, chosen)
	}
	if err != nil {
		return nil, false, m.fail(path, node, typeErr(err))
	}
	if castTo != nil && id.URN == urnDecimal && name == "subtract" && isDecimalZero(args[0]) &&
		args[0].DType().EqualIgnoreNullability(args[1].DType()) && castTo.EqualIgnoreNullability(args[1].DType()) {
		// CAST(0 - x AS type of x) is how decimal negation is exported.
		neg, err := expr.NewCall(fn.Neg, args[1])
		if err != nil {
			return nil, false, m.fail(path, node, typeErr(err))
		}
		return neg, true, nil
	}
	if sf.OutputType != nil {
		declared, err := dtypeOf(sf.OutputType, nil)
		if err != nil {
			return nil, false, m.fail(path, node, err)
		}
		if !sameShape(sf.OutputType, mustProto(b.DType())) {
			bridged := castTo != nil && id.URN == urnDecimal && (name == "multiply" || name == "modulus") &&
				declared.IsDecimal() && b.DType().IsDecimal() && declared.Scale() == b.DType().Scale() &&
				castTo.EqualIgnoreNullability(b.DType())
			if !bridged {
				return nil, false, m.fail(path, node, invalid("the declared output type %s is not the %s colexpr computes", declared, b.DType()))
			}
			return b, true, nil
		}
	}
	return b, false, nil
}

// chooseOptions picks, for each option a call gives, its first preference
// colexpr implements.
func chooseOptions(opts []*pb.FunctionOption, allowed map[string][]string) (map[string]string, error) {
	chosen := map[string]string{}
	for _, o := range opts {
		ok, known := allowed[o.GetName()]
		if !known {
			return nil, unsupported("option %s (colexpr knows %s)", o.GetName(), optionNames(allowed))
		}
		for _, p := range o.GetPreference() {
			for _, a := range ok {
				if p == a {
					chosen[o.GetName()] = p
					break
				}
			}
			if _, done := chosen[o.GetName()]; done {
				break
			}
		}
		if _, done := chosen[o.GetName()]; !done {
			return nil, unsupported("option %s = %s (colexpr implements %s)", o.GetName(), strings.Join(o.GetPreference(), " or "), strings.Join(ok, " or "))
		}
	}
	return chosen, nil
}

func optionNames(allowed map[string][]string) string {
	if len(allowed) == 0 {
		return "no options for it"
	}
	var ns []string
	for n := range allowed {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// lambda reads the lambda argument of a higher-order function whose
// parameters have the types ptypes.
func (m *importer) lambda(l *pb.Expression_Lambda, ptypes []dtype.DType, path *where) (*expr.Bound, error) {
	n := m.seq
	m.seq++
	declared := l.GetParameters().GetTypes()
	if len(declared) != len(ptypes) {
		return nil, m.fail(path, "lambda", invalid("the lambda has %d parameters, the function gives it %d", len(declared), len(ptypes)))
	}
	for i, d := range declared {
		if !sameShape(d, mustProto(ptypes[i])) {
			dt, _ := dtypeOf(d, nil)
			return nil, m.fail(path, "lambda", invalid("lambda parameter %d is declared %s, the list's elements are %s", i, dt, ptypes[i]))
		}
	}
	depth := len(m.lambdas)
	params := make([]string, len(ptypes))
	for i := range params {
		params[i] = defaultParam(depth, i, len(params))
	}
	if hinted, ok := m.hints.params[n]; ok {
		if len(hinted) != len(params) {
			return nil, m.fail(path, "lambda", invalid("colexpr hint for lambda %d names %d parameters, it has %d", n, len(hinted), len(params)))
		}
		params = hinted
	}
	if l.GetBody() == nil {
		return nil, m.fail(path, "lambda", invalid("a lambda with no body"))
	}
	m.lambdas = append(m.lambdas, frame{names: params, types: ptypes})
	body, err := m.expr(l.Body, path.add(".body"))
	m.lambdas = m.lambdas[:depth]
	if err != nil {
		return nil, err
	}
	return expr.NewLambda(params, ptypes, body), nil
}

// ifThen reads IfThen as CASE. An else that is a null literal of the
// result type is what a CASE without ELSE yields, and reads as one.
func (m *importer) ifThen(ite *pb.Expression_IfThen, path *where) (*expr.Bound, error) {
	const node = "if_then"
	if len(ite.Ifs) == 0 {
		return nil, m.fail(path, node, invalid("an if_then with no if clauses"))
	}
	var args []*expr.Bound
	for i, c := range ite.Ifs {
		cond, err := m.expr(c.GetIf(), path.add(".if["+strconv.Itoa(i)+"]"))
		if err != nil {
			return nil, err
		}
		then, err := m.expr(c.GetThen(), path.add(".then["+strconv.Itoa(i)+"]"))
		if err != nil {
			return nil, err
		}
		args = append(args, cond, then)
	}
	if ite.Else == nil {
		b, err := expr.NewCall(fn.CaseWhen(false), args...)
		if err != nil {
			return nil, m.fail(path, node, typeErr(err))
		}
		return b, nil
	}
	els, err := m.expr(ite.Else, path.add(".else"))
	if err != nil {
		return nil, err
	}
	withElse, err := expr.NewCall(fn.CaseWhen(true), append(args, els)...)
	if err != nil {
		return nil, m.fail(path, node, typeErr(err))
	}
	if v, ok := els.Literal(); ok && v.IsNull() {
		if without, err := expr.NewCall(fn.CaseWhen(false), args...); err == nil && without.DType().Equal(withElse.DType()) {
			return without, nil
		}
	}
	return withElse, nil
}

func (m *importer) singularOrList(s *pb.Expression_SingularOrList, path *where) (*expr.Bound, error) {
	const node = "singular_or_list"
	v, err := m.expr(s.GetValue(), path.add(".value"))
	if err != nil {
		return nil, err
	}
	if len(s.Options) == 0 {
		return nil, m.fail(path, node, unsupported("an IN list with no options (colexpr's in_list takes at least one)"))
	}
	args := []*expr.Bound{v}
	for i, o := range s.Options {
		b, err := m.expr(o, path.add(".options["+strconv.Itoa(i)+"]"))
		if err != nil {
			return nil, err
		}
		args = append(args, b)
	}
	b, err := expr.NewCall(fn.InList, args...)
	if err != nil {
		return nil, m.fail(path, node, typeErr(err))
	}
	return b, nil
}

// cast reads a cast that throws (or leaves its failure behaviour
// unspecified) as cast and one that returns null as try_cast.
func (m *importer) cast(c *pb.Expression_Cast, path *where) (*expr.Bound, error) {
	const node = "cast"
	n := m.seq
	m.seq++
	to, err := dtypeOf(c.GetType(), nil)
	if err != nil {
		return nil, m.fail(path, node, err)
	}
	if to, err = m.hints.hintedType(n, to); err != nil {
		return nil, m.fail(path, node, err)
	}
	var in *expr.Bound
	if sf := c.GetInput().GetScalarFunction(); sf != nil && c.FailureBehavior != pb.Expression_Cast_FAILURE_BEHAVIOR_RETURN_NULL {
		b, absorbed, err := m.scalarFunction(sf, path.add(".input"), &to)
		if err != nil || absorbed {
			return b, err
		}
		in = b
	} else if in, err = m.expr(c.GetInput(), path.add(".input")); err != nil {
		return nil, err
	}
	f := fn.Cast(to)
	if c.FailureBehavior == pb.Expression_Cast_FAILURE_BEHAVIOR_RETURN_NULL {
		f = fn.TryCast(to)
	}
	b, err := expr.NewCall(f, in)
	if err != nil {
		return nil, m.fail(path, node, typeErr(err))
	}
	return b, nil
}

// nested reads a nested struct expression as a struct pack; the field
// names come from a colexpr hint, else f1, f2, ….
func (m *importer) nested(nst *pb.Expression_Nested, path *where) (*expr.Bound, error) {
	const node = "nested"
	st := nst.GetStruct()
	if st == nil {
		return nil, m.fail(path, node, unsupported("a nested list or map expression (colexpr builds only structs)"))
	}
	if nst.TypeVariationReference != 0 {
		return nil, m.fail(path, node, unsupported("type variation %d (colexpr knows no type variations)", nst.TypeVariationReference))
	}
	n := m.seq
	m.seq++
	fields := make([]*expr.Bound, len(st.Fields))
	for i, f := range st.Fields {
		b, err := m.expr(f, path.add(".fields["+strconv.Itoa(i)+"]"))
		if err != nil {
			return nil, err
		}
		fields[i] = b
	}
	names := make([]string, len(fields))
	for i := range names {
		names[i] = defaultName(i)
	}
	if text, ok := m.hints.types[n]; ok {
		t, err := dtype.Parse(text)
		if err != nil || !t.IsStruct() || len(t.Fields()) != len(fields) {
			return nil, m.fail(path, node, invalid("colexpr hint for node %d, %q, is not a struct of %d fields", n, text, len(fields)))
		}
		for i, f := range t.Fields() {
			names[i] = f.Name
		}
	}
	b, err := expr.NewCall(fn.Pack(names...), fields...)
	if err != nil {
		return nil, m.fail(path, node, typeErr(err))
	}
	return b, nil
}

func isDecimalZero(b *expr.Bound) bool {
	v, ok := b.Literal()
	if !ok || v.IsNull() || !v.DType().IsDecimal() {
		return false
	}
	n, ok := v.Value().(decimal128.Num)
	return ok && n == (decimal128.Num{})
}

func literalBool(v bool) *expr.Bound { return expr.NewLiteral(scalar.Bool(v)) }
