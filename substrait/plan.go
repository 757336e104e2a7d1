package substrait

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	sexpr "github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/extensions"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
)

// FileFormat is the format of a file a plan reads, as ReadRel.LocalFiles
// names it.
type FileFormat int

const (
	// Parquet is LocalFiles' ParquetReadOptions.
	Parquet FileFormat = iota + 1
	// Arrow is LocalFiles' ArrowReadOptions: an Arrow IPC file (or stream).
	Arrow
	// CSV is LocalFiles' DelimiterSeparatedTextReadOptions as colexpr
	// reads CSV: fields separated by commas, quoted by ", one header line,
	// an empty field null.
	CSV
)

func (f FileFormat) String() string {
	switch f {
	case Parquet:
		return "parquet"
	case Arrow:
		return "arrow"
	case CSV:
		return "csv"
	}
	return "FileFormat(" + strconv.Itoa(int(f)) + ")"
}

// File is one local file a plan reads.
type File struct {
	// Path is the file's path. Export writes it as a file:// URI of the
	// absolute path (a URI it is given stays as it is); import gives
	// the path back (a file URI's path, any other URI as it is written).
	Path   string
	Format FileFormat
}

// PlanQuery is what a Substrait plan of the shape colexpr runs computes:
// the rows of the input where Where is true, as the Select expressions.
// Where, Select and BestEffortFilter are bound against one scope, whose
// root is the input's schema.
type PlanQuery struct {
	// Files are the local files read, one table (ReadRel.local_files).
	Files []File
	// Table names a table instead (ReadRel.named_table), which the
	// consumer of the plan binds to its data; export writes it when Files
	// is empty.
	Table []string
	// Where keeps the rows where it is true; nil keeps them all.
	Where *expr.Bound
	// Select are the output columns and their names; nil outputs every
	// column of the input, as read.
	Select []Named
	// BestEffortFilter is a predicate a reader may use to skip data
	// without evaluating it on every row (ReadRel.best_effort_filter):
	// rows it rules out must also be ruled out by Where, which is applied
	// in full after it. Scan gives the conjuncts of the filter that its
	// row-group falsifier can use.
	BestEffortFilter *expr.Bound
}

// ExportPlan writes q as a Substrait plan: one root relation whose input
// is a ReadRel of the files (or the named table) → a FilterRel of Where
// (when there is one) → a ProjectRel of the Select expressions (when there
// are some), and whose names are the output names. The package doc's
// "Plans" section says how each part is written.
//
// The scope is the one the expressions are bound against; its root
// struct is the input's schema, the read's base schema. A field Substrait
// has no type for (an unsigned integer, f16, a fixed-size list) is left
// out of the base schema when the query does not read it, and is an error
// when it does.
func ExportPlan(scope expr.Scope, q PlanQuery) (*pb.Plan, error) {
	root := scope.Root()
	if !root.IsStruct() {
		return nil, &Error{Op: "export", Node: "$", Err: unsupported("the scope's root has type %s: a Substrait base schema is a struct", root)}
	}
	if len(q.Files) == 0 && len(q.Table) == 0 {
		return nil, &Error{Op: "export", Path: "read", Err: invalid("the query reads no file and names no table")}
	}
	all := q.Select
	if q.Where != nil {
		all = append([]Named{{Name: "filter", Expr: q.Where}}, all...)
	}
	for i, n := range all {
		if n.Expr == nil {
			return nil, &Error{Op: "export", Path: "expression " + strconv.Itoa(i), Err: errors.New("nil expression")}
		}
	}
	// The columns read: those the expressions use, or every one.
	read := root
	if q.Select != nil {
		read = pruned(root, all)
	}
	// The base schema: the input's columns Substrait has a type for. A
	// column read must have one.
	var baseFields []dtype.Field
	for _, f := range root.Fields() {
		if _, err := typeOf(f.Type); err == nil {
			baseFields = append(baseFields, f)
		} else if read.FieldIndex(f.Name) >= 0 {
			return nil, &Error{Op: "export", Path: "base schema", Err: schemaError(dtype.Struct([]dtype.Field{f}, false), err)}
		}
	}
	base := dtype.Struct(baseFields, false)
	if q.Select == nil {
		read = base
	}
	baseType, err := typeOf(base)
	if err != nil {
		return nil, &Error{Op: "export", Path: "base schema", Err: schemaError(base, err)}
	}
	coll, err := extensions.GetDefaultCollection()
	if err != nil {
		return nil, fmt.Errorf("substrait: export: loading the standard extensions: %w", err)
	}
	x := &exporter{reg: sexpr.NewEmptyExtensionRegistry(coll)}
	var h hints
	ns := namedStruct(base, baseType)
	if r, err := schemaOf(ns); err != nil || !r.Equal(base) {
		h.schema = base.String()
	}
	// one exports an expression over the given root (the base schema for
	// the read's filter, the columns read for the relations above it).
	one := func(what string, b *expr.Bound, over dtype.DType) (*pb.Expression, error) {
		x.root, x.hints, x.seq = over, newExprHints(), 0
		e, err := x.node(b, nil)
		if err != nil {
			var se *Error
			if errors.As(err, &se) {
				c := *se
				c.Path = strings.TrimSuffix(what+"."+c.Path, ".")
				return nil, &c
			}
			return nil, err
		}
		h.exprs = append(h.exprs, x.hints)
		return e, nil
	}

	readRel := &pb.ReadRel{
		Common:     direct(),
		BaseSchema: ns,
		Projection: mask(base, read),
	}
	if len(q.Files) > 0 {
		lf := &pb.ReadRel_LocalFiles{}
		for i, f := range q.Files {
			item, err := fileItem(f)
			if err != nil {
				return nil, &Error{Op: "export", Path: "files[" + strconv.Itoa(i) + "]", Err: err}
			}
			lf.Items = append(lf.Items, item)
		}
		readRel.ReadType = &pb.ReadRel_LocalFiles_{LocalFiles: lf}
	} else {
		readRel.ReadType = &pb.ReadRel_NamedTable_{NamedTable: &pb.ReadRel_NamedTable{Names: q.Table}}
	}
	if q.BestEffortFilter != nil {
		if readRel.BestEffortFilter, err = one("best_effort_filter", q.BestEffortFilter, base); err != nil {
			return nil, err
		}
	}
	rel := &pb.Rel{RelType: &pb.Rel_Read{Read: readRel}}
	if q.Where != nil {
		cond, err := one("filter", q.Where, read)
		if err != nil {
			return nil, err
		}
		rel = &pb.Rel{RelType: &pb.Rel_Filter{Filter: &pb.FilterRel{Common: direct(), Input: rel, Condition: cond}}}
	}
	var names []string
	if q.Select == nil {
		names = structNames(read, nil)
	} else {
		project := &pb.ProjectRel{Input: rel}
		var emit []int32
		for i, n := range q.Select {
			e, err := one("select["+strconv.Itoa(i)+"]", n.Expr, read)
			if err != nil {
				return nil, err
			}
			project.Expressions = append(project.Expressions, e)
			// The project's direct output is its input's columns, then
			// the expressions: the emit keeps the expressions only.
			emit = append(emit, int32(len(read.Fields())+i))
			names = append(append(names, n.Name), structNames(n.Expr.DType(), nil)...)
		}
		project.Common = &pb.RelCommon{EmitKind: &pb.RelCommon_Emit_{Emit: &pb.RelCommon_Emit{OutputMapping: emit}}}
		rel = &pb.Rel{RelType: &pb.Rel_Project{Project: project}}
	}
	out := &pb.Plan{
		Version: version(),
		Relations: []*pb.PlanRel{{RelType: &pb.PlanRel_Root{Root: &pb.RelRoot{
			Input: rel,
			Names: names,
		}}}},
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

// direct is a RelCommon whose output is the relation's direct output.
func direct() *pb.RelCommon {
	return &pb.RelCommon{EmitKind: &pb.RelCommon_Direct_{Direct: &pb.RelCommon_Direct{}}}
}

// mask is the ReadRel projection that reads the fields of read (a subset
// of base, in base's order): a struct select of their indices.
func mask(base, read dtype.DType) *pb.Expression_MaskExpression {
	sel := &pb.Expression_MaskExpression_StructSelect{StructItems: []*pb.Expression_MaskExpression_StructItem{}}
	for _, f := range read.Fields() {
		sel.StructItems = append(sel.StructItems, &pb.Expression_MaskExpression_StructItem{Field: int32(base.FieldIndex(f.Name))})
	}
	return &pb.Expression_MaskExpression{Select: sel, MaintainSingularStruct: true}
}

// fileItem is f as a LocalFiles item.
func fileItem(f File) (*pb.ReadRel_LocalFiles_FileOrFiles, error) {
	item := &pb.ReadRel_LocalFiles_FileOrFiles{}
	uri := f.Path
	if !strings.Contains(uri, "://") {
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	item.PathType = &pb.ReadRel_LocalFiles_FileOrFiles_UriFile{UriFile: uri}
	switch f.Format {
	case Parquet:
		item.FileFormat = &pb.ReadRel_LocalFiles_FileOrFiles_Parquet{Parquet: &pb.ReadRel_LocalFiles_FileOrFiles_ParquetReadOptions{}}
	case Arrow:
		item.FileFormat = &pb.ReadRel_LocalFiles_FileOrFiles_Arrow{Arrow: &pb.ReadRel_LocalFiles_FileOrFiles_ArrowReadOptions{}}
	case CSV:
		empty := ""
		item.FileFormat = &pb.ReadRel_LocalFiles_FileOrFiles_Text{Text: &pb.ReadRel_LocalFiles_FileOrFiles_DelimiterSeparatedTextReadOptions{
			FieldDelimiter:     ",",
			Quote:              `"`,
			Escape:             `"`,
			HeaderLinesToSkip:  1,
			ValueTreatedAsNull: &empty,
		}}
	default:
		return nil, invalid("%s: unknown file format %v", f.Path, f.Format)
	}
	return item, nil
}

// MarshalPlanJSON is the protobuf JSON form of a plan, laid out as
// MarshalJSON lays out an ExtendedExpression.
func MarshalPlanJSON(msg *pb.Plan) ([]byte, error) {
	raw, err := protojson.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("substrait: encoding JSON: %w", err)
	}
	return indent(raw), nil
}

// MarshalPlan is the protobuf binary form of a plan.
func MarshalPlan(msg *pb.Plan) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("substrait: encoding protobuf: %w", err)
	}
	return b, nil
}

// UnmarshalPlan reads a Plan in either form: JSON when the first byte
// that is not white space is '{', protobuf binary otherwise.
func UnmarshalPlan(data []byte) (*pb.Plan, error) {
	msg := &pb.Plan{}
	if isJSON(data) {
		if err := (protojson.UnmarshalOptions{RecursionLimit: maxNesting}).Unmarshal(data, msg); err != nil {
			return nil, decodeError("JSON", err)
		}
		return msg, nil
	}
	if err := (proto.UnmarshalOptions{RecursionLimit: maxNesting}).Unmarshal(data, msg); err != nil {
		return nil, decodeError("protobuf", err)
	}
	return msg, nil
}

func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// UnmarshalAny reads a Plan or an ExtendedExpression, in JSON or protobuf
// binary, and returns a *pb.Plan or a *pb.ExtendedExpression. JSON says
// which it is by its members (relations or referredExpr). The binary form
// does not say: the message is taken for an ExtendedExpression when it
// reads as one with a base schema and expressions, else for a Plan when it
// reads as one with relations (the two messages' fields have different
// types, so one seldom reads as the other).
func UnmarshalAny(data []byte) (proto.Message, error) {
	if isJSON(data) {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err == nil {
			_, plan := top["relations"]
			_, ext := top["referredExpr"]
			if !ext {
				_, ext = top["referred_expr"]
			}
			switch {
			case plan && !ext:
				return UnmarshalPlan(data)
			case ext && !plan:
				return Unmarshal(data)
			}
		}
		// Let the decoder say what is wrong, as an ExtendedExpression
		// when the members do not say.
		if _, err := Unmarshal(data); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("substrait: %w: a JSON message with neither relations (a Plan) nor referredExpr (an ExtendedExpression)", ErrInvalid)
	}
	if ext, err := Unmarshal(data); err == nil && ext.BaseSchema != nil && len(ext.ReferredExpr) > 0 {
		return ext, nil
	}
	plan, err := UnmarshalPlan(data)
	if err == nil && len(plan.Relations) > 0 {
		return plan, nil
	}
	if err == nil {
		err = fmt.Errorf("substrait: %w: the protobuf message is neither an ExtendedExpression with expressions nor a Plan with relations", ErrInvalid)
	}
	return nil, err
}
