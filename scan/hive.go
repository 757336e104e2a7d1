package scan

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/parse"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/scalar"
)

// Hive partitioning: a directory named key=value gives the files below it a
// column key whose value is value in every row. The columns' types are
// inferred from all the values of a key, as DuckDB infers them: i64 when
// every value is an integer, date when every one is YYYY-MM-DD, utf8
// otherwise. __HIVE_DEFAULT_PARTITION__ (and an empty value) is null.

// hiveNull is the value Hive and Spark write for a null partition value.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// hiveColumn is a partition column of a dataset.
type hiveColumn struct {
	name string
	typ  dtype.DType // nullable
}

// hivePairs are the key=value directories of path, outermost first, with
// their values unescaped (%2F is /). The same key twice with two values
// is an error.
func hivePairs(path string) (keys, values []string, err error) {
	dir := filepath.ToSlash(filepath.Dir(path))
	for _, part := range strings.Split(dir, "/") {
		eq := strings.IndexByte(part, '=')
		if eq <= 0 {
			continue
		}
		k, v := part[:eq], part[eq+1:]
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		dup := false
		for i, seen := range keys {
			if seen == k {
				if values[i] != v {
					return nil, nil, fmt.Errorf("%s: conflicting Hive partition values %s=%s and %s=%s in one path", path, k, values[i], k, v)
				}
				dup = true
			}
		}
		if !dup {
			keys = append(keys, k)
			values = append(values, v)
		}
	}
	return keys, values, nil
}

// hivePartitions parses the partition values of every file: every file
// must have the same keys, in the same order. It returns the columns and,
// per file, its values.
func hivePartitions(paths []string) ([]hiveColumn, [][]scalar.Scalar, error) {
	var keys []string
	raw := make([][]string, len(paths))
	for i, p := range paths {
		k, v, err := hivePairs(p)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			keys = k
		} else if strings.Join(k, "/") != strings.Join(keys, "/") {
			return nil, nil, fmt.Errorf("%s: its Hive partitions (%s) are not those of %s (%s): a dataset cannot mix Hive-partitioned directories with others, or differently partitioned ones",
				p, describeKeys(k), paths[0], describeKeys(keys))
		}
		raw[i] = v
	}
	cols := make([]hiveColumn, len(keys))
	values := make([][]scalar.Scalar, len(paths))
	for i := range values {
		values[i] = make([]scalar.Scalar, len(keys))
	}
	for k, name := range keys {
		isInt, isDate := true, true
		for _, v := range raw {
			s := v[k]
			if s == hiveNull || s == "" {
				continue
			}
			if _, err := strconv.ParseInt(s, 10, 64); err != nil {
				isInt = false
			}
			if _, ok := csvDate(s); !ok {
				isDate = false
			}
		}
		t := dtype.Utf8(true)
		switch {
		case isInt:
			t = dtype.Primitive(dtype.I64, true)
		case isDate:
			t = dtype.Date(true)
		}
		cols[k] = hiveColumn{name: name, typ: t}
		for f, v := range raw {
			s := v[k]
			var x scalar.Scalar
			switch {
			case s == hiveNull || s == "":
				x = scalar.Null(t)
			case isInt:
				n, _ := strconv.ParseInt(s, 10, 64)
				x = scalar.Int64(n)
			case isDate:
				d, _ := csvDate(s)
				x = scalar.Date(int32(arrow.Date32FromTime(d)))
			default:
				x = scalar.String(s)
			}
			values[f][k] = x.WithDType(t)
		}
	}
	return cols, values, nil
}

func describeKeys(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// conjuncts splits an unbound predicate at its top-level ANDs, as
// partition.Conjuncts splits a bound one: the filter cannot be bound
// before the files are opened, and the point is to open fewer.
func conjuncts(e expr.Expr) []expr.Expr {
	var out []expr.Expr
	stack := []expr.Expr{e}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c, ok := n.(*expr.Call); ok && c.Fn == fn.And && len(c.Args) == 2 {
			stack = append(stack, c.Args[1], c.Args[0])
			continue
		}
		out = append(out, n)
	}
	return out
}

// partitionFilter is the part of a filter that reads only partition
// columns, compiled against them: the AND of the filter's top-level
// conjuncts that compile against the partition columns alone (the others
// name another column). It is nil when there is none, or the filter is a
// compiled program (it is bound to the whole schema).
func partitionFilter(cols []hiveColumn, where *Expr, o Options) *expr.Bound {
	if where == nil || where.Program != nil || len(cols) == 0 {
		return nil
	}
	tree := where.Tree
	if tree == nil {
		t, err := parse.ParseWith(where.Text, parse.Options{Now: o.Now})
		if err != nil {
			return nil // Compile says what is wrong with it
		}
		tree = t
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = dtype.ToArrowField(c.name, c.typ)
	}
	sch := colexpr.NewSchema(arrow.NewSchema(fields, nil))
	var parts []*expr.Bound
	for _, c := range conjuncts(tree) {
		prog, err := sch.CompileExpr(c, &colexpr.Options{Optimizer: o.Optimizer})
		if err != nil || !prog.DType().IsBool() || volatile(prog.Bound()) {
			continue
		}
		parts = append(parts, prog.Bound())
	}
	if len(parts) == 0 {
		return nil
	}
	pred, err := partition.Conjoin(parts)
	if err != nil {
		return nil
	}
	return pred
}

// volatile reports whether b calls a Volatile function, whose value for a
// file's partition values need not be its value for each of its rows (as
// optimize's deterministic asks before it folds).
func volatile(b *expr.Bound) bool {
	stack := []*expr.Bound{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == expr.KindCall && n.Fn().Volatility() != fn.Immutable {
			return true
		}
		stack = append(stack, n.Args()...)
	}
	return false
}

// prunePartitions evaluates the partition filter pred over the partition
// values of every file at once (one row per file) and reports which files
// may hold a matching row: those where pred is true. A file whose values
// make pred false or null holds none — every row of it has those values —
// and is not opened. An evaluation error keeps every file (the scan then
// meets the error, or not, as it would have).
func prunePartitions(mem memory.Allocator, cols []hiveColumn, values [][]scalar.Scalar, pred *expr.Bound) []bool {
	keep := make([]bool, len(values))
	for i := range keep {
		keep[i] = true
	}
	fields := make([]dtype.Field, len(cols))
	for i, c := range cols {
		fields[i] = dtype.Field{Name: c.name, Type: c.typ}
	}
	st := dtype.Struct(fields, false)
	b := array.NewStructBuilder(mem, dtype.ToArrow(st).(*arrow.StructType))
	defer b.Release()
	for _, row := range values {
		b.Append(true)
		for k, v := range row {
			if err := scalar.Append(b.FieldBuilder(k), v); err != nil {
				return keep
			}
		}
	}
	in := b.NewArray()
	defer in.Release()
	out, err := eval.Eval(mem, pred, in)
	if err != nil {
		return keep
	}
	defer out.Release()
	res, ok := out.(*array.Boolean)
	if !ok {
		return keep
	}
	for i := range keep {
		keep[i] = res.IsValid(i) && res.Value(i)
	}
	return keep
}
