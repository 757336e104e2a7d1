package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"strings"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scan"
	"github.com/colexpr/colexpr/substrait"
	"google.golang.org/protobuf/proto"
)

// Substrait in the commands: explain --substrait writes an
// ExtendedExpression, explain --substrait-plan a Plan; query --substrait
// reads either. The package doc says what each does and the rule by which
// query uses the expressions.

// exportSubstrait is the output of explain --substrait: the Substrait
// ExtendedExpression, in protobuf JSON, of the optimized expressions of
// list over s. list is one expression, or a list like --select's, each
// item named by its AS name or else by its text. The base schema holds
// only the columns the expressions read.
func exportSubstrait(list string, s *colexpr.Schema) ([]byte, error) {
	items, err := scan.SplitSelect(list)
	if err != nil {
		return nil, fmt.Errorf("the list: %w", err)
	}
	named := make([]substrait.Named, len(items))
	for i, it := range items {
		prog, err := s.Compile(it.Text, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", itemWhat(len(items), i, "the expression", ""), err)
		}
		named[i] = substrait.Named{Name: it.Name, Expr: prog.Bound()}
	}
	exp := substrait.Options{PruneSchema: true}
	msg, err := exp.ExportAll(s.Scope(), named...)
	if err != nil {
		// The error says where in the tree; with several expressions,
		// say which one, by exporting them one at a time.
		what := itemWhat(len(items), 0, "the expression", "")
		for i := 1; i < len(named); i++ {
			if _, e := exp.ExportAll(s.Scope(), named[i-1]); e != nil {
				break
			}
			what = itemWhat(len(items), i, "the expression", "")
		}
		return nil, fmt.Errorf("--substrait: %s: %w", what, trimSubstrait(err))
	}
	js, err := substrait.MarshalJSON(msg)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding the Substrait message: %v\n%s", scan.ErrInternal, err, debug.Stack())
	}
	return js, nil
}

// trimSubstrait drops the "substrait: export: " or "substrait: import: "
// that starts the text of the substrait package's errors: the command's
// message already says what it was doing.
func trimSubstrait(err error) error {
	var se *substrait.Error
	if !errors.As(err, &se) || se != err {
		return err
	}
	msg := strings.TrimPrefix(err.Error(), "substrait: "+se.Op+": ")
	return &wrapped{msg: msg, err: err}
}

// wrapped is an error with its own text that still unwraps to err.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// substraitFile is the ExtendedExpression of query --substrait, decoded.
type substraitFile struct {
	path string
	msg  *pb.ExtendedExpression
	// exprs are the message's expressions, compiled against the input's
	// schema and named by their output names.
	exprs []scan.Expr
	// filter: the file holds the --where predicate (its one expression);
	// otherwise it holds the select list.
	filter bool
}

// loadSubstrait reads the Substrait message at path ("-" reads stdin):
// a Plan or an ExtendedExpression, in protobuf JSON or binary.
func loadSubstrait(path string, stdin io.Reader) (proto.Message, error) {
	var data []byte
	var err error
	fromStdin := path == "-"
	if fromStdin {
		if stdin == nil {
			stdin = strings.NewReader("")
		}
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("--substrait: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if fromStdin {
			return nil, errors.New("--substrait -: the standard input is empty")
		}
		return nil, fmt.Errorf("--substrait %s: the file is empty", path)
	}
	msg, err := substrait.UnmarshalAny(data)
	if err != nil {
		return nil, fmt.Errorf("--substrait %s: not a Substrait plan or ExtendedExpression: %s", substraitName(path), strings.TrimPrefix(err.Error(), "substrait: "))
	}
	return msg, nil
}

// substraitName is how messages name the file of --substrait.
func substraitName(path string) string {
	if path == "-" {
		return "(standard input)"
	}
	return path
}

// readSubstrait decides what the ExtendedExpression msg of --substrait
// path is in the query: with --where given, the select list; with
// --select given, the filter, which must then be one bool expression; with
// neither, the filter when it is one bool expression, else the select
// list. The expressions are checked against the input's schema s.
func readSubstrait(path string, msg *pb.ExtendedExpression, s *colexpr.Schema, hasWhere, hasSelect bool) (*substraitFile, error) {
	path = substraitName(path)
	var err error
	f := &substraitFile{path: path, msg: msg}
	if f.exprs, err = scan.SubstraitExprs(s, msg, nil); err != nil {
		return nil, fmt.Errorf("--substrait %s: %w", f.path, trimSubstrait(err))
	}
	for i := range f.exprs {
		f.exprs[i].What = f.what(i)
	}
	exprs := f.exprs
	oneBool := len(exprs) == 1 && exprs[0].Program.DType().IsBool()
	switch {
	case hasWhere:
	case hasSelect:
		if !oneBool {
			return nil, fmt.Errorf("--substrait %s: with --select, the file must hold the filter, one bool expression; it holds %s", path, describeExprs(exprs))
		}
		f.filter = true
	default:
		f.filter = oneBool
	}
	if f.filter {
		f.exprs[0].What = f.what(0)
	} else {
		seen := map[string]int{}
		for i, e := range f.exprs {
			n := e.Name
			if j, dup := seen[n]; dup {
				return nil, fmt.Errorf("--substrait %s: expressions %d and %d are both named %q; the output columns need distinct names", path, j+1, i+1, n)
			}
			seen[n] = i
		}
	}
	return f, nil
}

// describeExprs says what a message holds, for errors: "2 expressions
// (a: i64, b: utf8)", "1 expression (x: i64)".
func describeExprs(exprs []scan.Expr) string {
	parts := make([]string, len(exprs))
	for i, e := range exprs {
		parts[i] = dtype.QuoteFieldName(e.Name) + ": " + e.Program.DType().String()
	}
	if len(parts) > 5 {
		parts = append(parts[:5], "…")
	}
	noun := "expressions"
	if len(exprs) == 1 {
		noun = "expression"
	}
	return fmt.Sprintf("%d %s (%s)", len(exprs), noun, strings.Join(parts, ", "))
}

// what names expression i of the file in messages.
func (f *substraitFile) what(i int) string {
	if f.filter {
		return "--substrait " + f.path + " (the filter)"
	}
	return fmt.Sprintf("--substrait %s expression %d (%s)", f.path, i+1, dtype.QuoteFieldName(f.exprs[i].Name))
}

// exportSubstraitPlan is the output of explain --substrait-plan: the
// Substrait plan, in protobuf JSON, of the query --where and --select
// make of src, as query would run it (scan.Plan.Substrait).
func exportSubstraitPlan(src *scan.Source, where, selects string) ([]byte, error) {
	q, err := queryOf(where, selects)
	if err != nil {
		return nil, err
	}
	plan, err := scan.Compile(src, q, scan.Options{})
	if err != nil {
		return nil, err
	}
	msg, err := plan.Substrait()
	if err != nil {
		return nil, fmt.Errorf("--substrait-plan: %w", trimSubstrait(err))
	}
	js, err := substrait.MarshalPlanJSON(msg)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding the Substrait plan: %v\n%s", scan.ErrInternal, err, debug.Stack())
	}
	return js, nil
}

// openSubstraitPlan opens the input of the plan of query --substrait and
// imports its query: the FILEs given, bound to the plan's named table or
// read instead of its files; with none, the plan's own files, or, for a
// plan of the named table lineitem, the demo table.
func openSubstraitPlan(e *env, mem memory.Allocator, plan *pb.Plan, o queryOptions) (*scan.Source, scan.Query, error) {
	what := "--substrait " + substraitName(o.substrait)
	read, err := substrait.ReadOf(plan)
	if err != nil {
		return nil, scan.Query{}, fmt.Errorf("%s: %w", what, trimSubstrait(err))
	}
	if len(o.files) == 0 && read.Table != nil {
		if len(read.Table) != 1 || read.Table[0] != scan.DemoTable {
			return nil, scan.Query{}, fmt.Errorf("%s: the plan reads the named table %s: give the FILE to read as it", what, strings.Join(read.Table, "."))
		}
		src, err := openInputs(e, mem, nil, o.demoRows, &o.csv)
		if err != nil {
			return nil, scan.Query{}, err
		}
		q, err := scan.SubstraitQuery(src.Schema(), plan, nil)
		if err != nil {
			src.Close()
			return nil, scan.Query{}, fmt.Errorf("%s: %w", what, trimSubstrait(err))
		}
		return src, q, nil
	}
	src, q, err := scan.OpenPlan(mem, plan, o.files, scan.DatasetOptions{CSV: o.csv.options(), Stdin: e.stdin})
	if err != nil {
		var se *substrait.Error
		if errors.As(err, &se) {
			return nil, scan.Query{}, fmt.Errorf("%s: %w", what, trimSubstrait(err))
		}
		return nil, scan.Query{}, csvHint(err)
	}
	return src, q, nil
}
