package substrait

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

// supportedShape is what an error about a plan's shape says colexpr runs.
const supportedShape = "colexpr runs a plan of one root relation: a read (local files or a named table), an optional filter, an optional project (ReadRel → FilterRel → ProjectRel)"

// PlanRead is what a plan reads, known before its input's schema is:
// the files or the table, and the base schema (which tells a CSV reader
// the columns' types).
type PlanRead struct {
	Files []File
	Table []string
	// Schema is the read's base schema, as Schema reads an
	// ExtendedExpression's.
	Schema dtype.DType
}

// shape is a plan taken apart: its relations from the root down, each
// with its path in the message for errors.
type shape struct {
	names                       []string // the root's output names; nil for a plain Rel
	read                        *pb.ReadRel
	filter                      *pb.FilterRel
	project                     *pb.ProjectRel
	readAt, filterAt, projectAt *where
	hints                       *hints
	base                        dtype.DType
}

// shapeOf checks that msg is a plan of the shape colexpr runs and takes
// it apart.
func shapeOf(msg *pb.Plan) (*shape, error) {
	if msg == nil {
		return nil, &Error{Op: "import", Err: invalid("nil plan")}
	}
	if len(msg.Relations) != 1 {
		return nil, &Error{Op: "import", Path: "relations", Err: unsupported("the plan has %d relations; %s", len(msg.Relations), supportedShape)}
	}
	s := &shape{}
	path := at("relations[0]")
	var rel *pb.Rel
	switch r := msg.Relations[0].RelType.(type) {
	case *pb.PlanRel_Root:
		rel, s.names, path = r.Root.GetInput(), r.Root.GetNames(), path.add(".root.input")
		if s.names == nil {
			s.names = []string{}
		}
	case *pb.PlanRel_Rel:
		rel, path = r.Rel, path.add(".rel")
	default:
		return nil, &Error{Op: "import", Path: path.String(), Err: invalid("a plan relation with neither a root nor a relation")}
	}
	for {
		if rel == nil || rel.RelType == nil {
			return nil, &Error{Op: "import", Path: path.String(), Err: invalid("a relation with no content")}
		}
		switch r := rel.RelType.(type) {
		case *pb.Rel_Project:
			if s.project != nil || s.filter != nil {
				return nil, shapeError(path, "a project under a project or a filter")
			}
			s.project, s.projectAt = r.Project, path.add(".project")
			rel, path = r.Project.Input, s.projectAt.add(".input")
			continue
		case *pb.Rel_Filter:
			if s.filter != nil {
				return nil, shapeError(path, "a filter under a filter")
			}
			s.filter, s.filterAt = r.Filter, path.add(".filter")
			rel, path = r.Filter.Input, s.filterAt.add(".input")
			continue
		case *pb.Rel_Read:
			s.read, s.readAt = r.Read, path.add(".read")
		default:
			kind := relKind(rel)
			return nil, &Error{Op: "import", Path: path.String(), Node: kind, Err: unsupported("%s %s relation (%s); %s", article(kind), kind, relMessage(kind), supportedShape)}
		}
		break
	}
	var err error
	if s.hints, err = readHints(msg.AdvancedExtensions, s.exprCount()); err != nil {
		return nil, &Error{Op: "import", Path: "advanced_extensions", Err: err}
	}
	if s.base, err = baseSchema(&pb.ExtendedExpression{BaseSchema: s.read.BaseSchema}, s.hints); err != nil {
		var e *Error
		if errors.As(err, &e) {
			c := *e
			c.Path = s.readAt.add(".base_schema").String()
			return nil, &c
		}
		return nil, err
	}
	return s, nil
}

func shapeError(path *where, what string) error {
	return &Error{Op: "import", Path: path.String(), Err: unsupported("%s; %s", what, supportedShape)}
}

// relKind is the name of a relation's kind, as its oneof field says it
// ("join", "aggregate").
func relKind(rel *pb.Rel) string {
	m := rel.ProtoReflect()
	fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("rel_type"))
	if fd == nil {
		return "(none)"
	}
	return string(fd.Name())
}

// article is "a" or "an", as the word after it starts.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// relMessage is the protobuf message of a relation kind: "join" is
// JoinRel, "extension_single" ExtensionSingleRel.
func relMessage(kind string) string {
	var b strings.Builder
	for _, part := range strings.Split(kind, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String() + "Rel"
}

// exprCount is the number of expressions of the plan, in the order
// colexpr's hints number them: the read's filter, its best-effort filter,
// the filter's condition, the project's expressions.
func (s *shape) exprCount() int {
	n := len(s.project.GetExpressions())
	for _, e := range []*pb.Expression{s.read.GetFilter(), s.read.GetBestEffortFilter(), s.filter.GetCondition()} {
		if e != nil {
			n++
		}
	}
	return n
}

// ReadOf says what a plan reads: its local files or named table, and its
// base schema. It checks the plan's shape as ImportPlan does, but not its
// expressions.
func ReadOf(msg *pb.Plan) (*PlanRead, error) {
	s, err := shapeOf(msg)
	if err != nil {
		return nil, err
	}
	return s.readOf()
}

func (s *shape) readOf() (*PlanRead, error) {
	r := &PlanRead{Schema: s.base}
	switch rt := s.read.ReadType.(type) {
	case *pb.ReadRel_NamedTable_:
		r.Table = rt.NamedTable.GetNames()
		if len(r.Table) == 0 {
			return nil, &Error{Op: "import", Path: s.readAt.add(".named_table").String(), Err: invalid("a named table with no name")}
		}
	case *pb.ReadRel_LocalFiles_:
		items := rt.LocalFiles.GetItems()
		if len(items) == 0 {
			return nil, &Error{Op: "import", Path: s.readAt.add(".local_files").String(), Err: invalid("local files with no item")}
		}
		for i, it := range items {
			path := s.readAt.add(".local_files.items[" + strconv.Itoa(i) + "]")
			f, err := fileOf(it)
			if err != nil {
				return nil, &Error{Op: "import", Path: path.String(), Err: err}
			}
			r.Files = append(r.Files, f)
		}
	case nil:
		return nil, &Error{Op: "import", Path: s.readAt.String(), Err: invalid("a read with no read type")}
	default:
		m := s.read.ProtoReflect()
		kind := string(m.WhichOneof(m.Descriptor().Oneofs().ByName("read_type")).Name())
		return nil, &Error{Op: "import", Path: s.readAt.String(), Node: kind, Err: unsupported("a read of a %s: colexpr reads local files (Parquet, Arrow IPC, CSV) or a named table bound to a file", strings.ReplaceAll(kind, "_", " "))}
	}
	return r, nil
}

// fileOf reads one LocalFiles item: a whole file (a uri_file, or a
// uri_path) in a format colexpr reads, with the options it reads it with.
func fileOf(it *pb.ReadRel_LocalFiles_FileOrFiles) (File, error) {
	var f File
	var uri string
	switch p := it.PathType.(type) {
	case *pb.ReadRel_LocalFiles_FileOrFiles_UriFile:
		uri = p.UriFile
	case *pb.ReadRel_LocalFiles_FileOrFiles_UriPath:
		uri = p.UriPath
	case *pb.ReadRel_LocalFiles_FileOrFiles_UriPathGlob:
		return f, unsupported("a uri_path_glob (%q): colexpr's plans name each file (uri_file)", p.UriPathGlob)
	case *pb.ReadRel_LocalFiles_FileOrFiles_UriFolder:
		return f, unsupported("a uri_folder (%q): colexpr's plans name each file (uri_file)", p.UriFolder)
	default:
		return f, invalid("an item with no path")
	}
	if uri == "" {
		return f, invalid("an empty path")
	}
	if it.Start != 0 || it.Length != 0 {
		return f, unsupported("%s: a byte range (start %d, length %d): colexpr reads whole files", uri, it.Start, it.Length)
	}
	f.Path = uri
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		f.Path = u.Path
	} else if err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		// A single letter is a Windows drive, not a scheme.
		return f, unsupported("%s: a URI of scheme %s: colexpr reads local files (file:// URIs or paths)", uri, u.Scheme)
	}
	switch ff := it.FileFormat.(type) {
	case *pb.ReadRel_LocalFiles_FileOrFiles_Parquet:
		f.Format = Parquet
	case *pb.ReadRel_LocalFiles_FileOrFiles_Arrow:
		f.Format = Arrow
	case *pb.ReadRel_LocalFiles_FileOrFiles_Text:
		o := ff.Text
		switch {
		case o.FieldDelimiter != ",":
			return f, unsupported("%s: CSV with field delimiter %q: colexpr reads commas", uri, o.FieldDelimiter)
		case o.Quote != "" && o.Quote != `"`:
			return f, unsupported("%s: CSV quoted by %q: colexpr reads double quotes", uri, o.Quote)
		case o.Escape != "" && o.Escape != `"`:
			return f, unsupported("%s: CSV with escape %q: colexpr reads a quote doubled", uri, o.Escape)
		case o.HeaderLinesToSkip != 1:
			return f, unsupported("%s: CSV with %d header lines: colexpr reads one header line, the column names", uri, o.HeaderLinesToSkip)
		case o.ValueTreatedAsNull != nil && *o.ValueTreatedAsNull != "":
			return f, unsupported("%s: CSV with %q as null: colexpr reads an empty field as null", uri, *o.ValueTreatedAsNull)
		}
		f.Format = CSV
	case nil:
		return f, invalid("%s: no file format", uri)
	default:
		m := it.ProtoReflect()
		kind := string(m.WhichOneof(m.Descriptor().Oneofs().ByName("file_format")).Name())
		return f, unsupported("%s: the %s format: colexpr reads Parquet, Arrow IPC and CSV (text)", uri, kind)
	}
	return f, nil
}

// ImportPlan reads a plan of the shape ExportPlan writes back into the
// query it computes, bound against scope (the input's schema: columns
// are found by name, as Import finds them, and must have the base
// schema's types).
//
// The plan must be one relation: a ReadRel of local files or a named
// table, optionally under a FilterRel, optionally under a ProjectRel; any
// other relation is an *Error that names it. The read's projection must
// select top-level fields; its filter, which must hold, is ANDed before the
// FilterRel's condition; its best-effort filter is imported and returned
// (a reader may use it to skip data). Emits are followed. The output names
// are the root's names (a column without one is named by its base schema
// name, or expr_N).
func ImportPlan(msg *pb.Plan, scope expr.Scope) (*PlanQuery, error) {
	s, err := shapeOf(msg)
	if err != nil {
		return nil, err
	}
	r, err := s.readOf()
	if err != nil {
		return nil, err
	}
	funcs, err := functionAnchors(&pb.ExtendedExpression{ExtensionUrns: msg.ExtensionUrns, Extensions: msg.Extensions})
	if err != nil {
		return nil, &Error{Op: "import", Path: "extensions", Err: err}
	}
	q := &PlanQuery{Files: r.Files, Table: r.Table}
	if !scope.Root().IsStruct() {
		return nil, &Error{Op: "import", Node: "$", Err: invalid("the scope's root has type %s: a plan reads a struct", scope.Root())}
	}
	m := &importer{funcs: funcs, scope: scope}
	nexpr := 0
	imp := func(e *pb.Expression, over dtype.DType, path *where) (*expr.Bound, error) {
		m.base, m.hints, m.seq, m.lambdas = over, s.hints.exprs[nexpr], 0, nil
		nexpr++
		return m.expr(e, path)
	}
	// The read's output: the base schema's fields its projection picks.
	cols, err := s.readColumns(scope)
	if err != nil {
		return nil, err
	}
	var where []*expr.Bound
	if e := s.read.GetFilter(); e != nil {
		b, err := imp(e, s.base, s.readAt.add(".filter"))
		if err != nil {
			return nil, err
		}
		where = append(where, b)
	}
	if e := s.read.GetBestEffortFilter(); e != nil {
		if q.BestEffortFilter, err = imp(e, s.base, s.readAt.add(".best_effort_filter")); err != nil {
			return nil, err
		}
		if !q.BestEffortFilter.DType().IsBool() {
			return nil, &Error{Op: "import", Path: s.readAt.add(".best_effort_filter").String(), Err: invalid("the best-effort filter has type %s, not a bool", q.BestEffortFilter.DType())}
		}
	}
	if cols, err = emit(cols, s.read.GetCommon(), s.readAt); err != nil {
		return nil, err
	}
	if s.filter != nil {
		b, err := imp(s.filter.GetCondition(), colsType(cols), s.filterAt.add(".condition"))
		if err != nil {
			return nil, err
		}
		if !b.DType().IsBool() {
			return nil, &Error{Op: "import", Path: s.filterAt.add(".condition").String(), Err: invalid("the filter's condition has type %s, not a bool", b.DType())}
		}
		where = append(where, b)
		if cols, err = emit(cols, s.filter.GetCommon(), s.filterAt); err != nil {
			return nil, err
		}
	}
	for _, w := range where {
		if q.Where == nil {
			q.Where = w
		} else if q.Where, err = expr.NewCall(fn.And, q.Where, w); err != nil {
			return nil, &Error{Op: "import", Path: s.readAt.add(".filter").String(), Err: typeErr(err)}
		}
	}
	if s.project != nil {
		over := colsType(cols)
		for i, e := range s.project.GetExpressions() {
			b, err := imp(e, over, s.projectAt.add(".expressions["+strconv.Itoa(i)+"]"))
			if err != nil {
				return nil, err
			}
			cols = append(cols, column{expr: b})
		}
		if cols, err = emit(cols, s.project.GetCommon(), s.projectAt); err != nil {
			return nil, err
		}
	}
	// The output names: the root's names, depth first, so a column of a
	// struct type takes 1 + its nested names.
	names := s.names
	k := 0
	for i, c := range cols {
		name := c.name
		if name == "" {
			name = "expr_" + strconv.Itoa(i)
		}
		if names != nil {
			want := 1 + len(structNames(c.expr.DType(), nil))
			if k+want > len(names) {
				return nil, &Error{Op: "import", Path: "relations[0].root.names", Err: invalid("the root gives %d names; its %d output columns need %d or more (a column's name, then those of the fields nested in it)", len(names), len(cols), k+want)}
			}
			name, k = names[k], k+want
		}
		q.Select = append(q.Select, Named{Name: name, Expr: c.expr})
	}
	if names != nil && k != len(names) {
		return nil, &Error{Op: "import", Path: "relations[0].root.names", Err: invalid("the root gives %d names; its output columns need %d (a column's name, then those of the fields nested in it)", len(names), k)}
	}
	return q, nil
}

// column is one output column of a relation: an expression over the
// scope, and the name it has when it is a column of the input.
type column struct {
	name string
	expr *expr.Bound
}

// colsType is the struct the expressions of the next relation up see:
// the columns, by their names (each is a column of the input there).
func colsType(cols []column) dtype.DType {
	fs := make([]dtype.Field, len(cols))
	for i, c := range cols {
		fs[i] = dtype.Field{Name: c.name, Type: c.expr.DType()}
	}
	return dtype.Struct(fs, false)
}

// readColumns are the read's output columns: the base schema's fields,
// or those its projection selects, each found by name in the scope with
// the base schema's type.
func (s *shape) readColumns(scope expr.Scope) ([]column, error) {
	base := s.base
	idx := make([]int, len(base.Fields()))
	for i := range idx {
		idx[i] = i
	}
	if p := s.read.GetProjection(); p != nil {
		path := s.readAt.add(".projection")
		if p.GetSelect() == nil {
			return nil, &Error{Op: "import", Path: path.String(), Err: invalid("a projection with no struct select")}
		}
		idx = idx[:0]
		for i, it := range p.GetSelect().GetStructItems() {
			ipath := path.add(".select.struct_items[" + strconv.Itoa(i) + "]")
			if it.Child != nil {
				return nil, &Error{Op: "import", Path: ipath.String(), Err: unsupported("a projection inside field %d: colexpr reads whole top-level columns", it.Field)}
			}
			if err := checkIndex("the base schema's ", base, it.Field, 0); err != nil {
				return nil, &Error{Op: "import", Path: ipath.String(), Err: err}
			}
			idx = append(idx, int(it.Field))
		}
	}
	root := expr.NewRoot(scope.Root())
	cols := make([]column, len(idx))
	for i, j := range idx {
		f := base.Fields()[j]
		b, err := expr.NewCall(fn.GetItem(f.Name), root)
		if err != nil {
			return nil, &Error{Op: "import", Path: s.readAt.add(".base_schema").String(), Node: dtype.QuoteFieldName(f.Name), Err: invalid("the base schema's column %s is not in the input (%s)", dtype.QuoteFieldName(f.Name), scope.Root())}
		}
		if !sameShape(mustProto(b.DType()), mustProto(f.Type)) {
			return nil, &Error{Op: "import", Path: s.readAt.add(".base_schema").String(), Node: dtype.QuoteFieldName(f.Name), Err: invalid("column %s has type %s in the input, the plan's base schema says %s", dtype.QuoteFieldName(f.Name), b.DType(), f.Type)}
		}
		cols[i] = column{name: f.Name, expr: b}
	}
	return cols, nil
}

// emit applies a relation's emit to its direct output.
func emit(cols []column, common *pb.RelCommon, path *where) ([]column, error) {
	e := common.GetEmit()
	if e == nil {
		return cols, nil
	}
	out := make([]column, 0, len(e.OutputMapping))
	for i, j := range e.OutputMapping {
		if j < 0 || int(j) >= len(cols) {
			return nil, &Error{Op: "import", Path: path.add(".common.emit.output_mapping[" + strconv.Itoa(i) + "]").String(), Err: invalid("output %d maps to column %d of a relation with %d", i, j, len(cols))}
		}
		out = append(out, cols[j])
	}
	return out, nil
}
