package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scan"
	"github.com/colexpr/colexpr/substrait"
)

// Substrait in the commands: explain --substrait writes an
// ExtendedExpression, query --substrait reads one. The package doc says
// what each does and the rule by which query uses the expressions.

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

// readSubstrait reads the ExtendedExpression at path (protobuf JSON or
// binary; "-" reads stdin) and decides what it is in the query: with
// --where given, the select list; with --select given, the filter, which
// must then be one bool expression; with neither, the filter when it is
// one bool expression, else the select list. The expressions are checked
// against the input's schema s.
func readSubstrait(path string, stdin io.Reader, s *colexpr.Schema, hasWhere, hasSelect bool) (*substraitFile, error) {
	var data []byte
	var err error
	fromStdin := path == "-"
	if fromStdin {
		path = "(standard input)"
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
	msg, err := substrait.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("--substrait %s: not a Substrait ExtendedExpression: %s", path, strings.TrimPrefix(err.Error(), "substrait: "))
	}
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
