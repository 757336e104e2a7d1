package bench

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow/array"
	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// The row-wise engines evaluate a compiled program once per row. Each row's
// values are set into one reused activation (cel-go) or environment map
// (expr-lang): nothing is allocated per row by the harness beyond what the
// engines need to box a value. Compilation is done once and not timed.

// rowAct is a cel-go activation over the current row: a fixed list of names
// whose values the loop overwrites.
type rowAct struct {
	names []string
	vals  []any
}

func (a *rowAct) ResolveName(n string) (any, bool) {
	for i, m := range a.names {
		if m == n {
			return a.vals[i], true
		}
	}
	return nil, false
}

func (a *rowAct) Parent() interpreter.Activation { return nil }

// celVar declares one variable of a cel-go program.
type celVar struct {
	name string
	typ  *cel.Type
}

// celProgram compiles src once over the variables and returns the program
// and the activation its loop fills.
func celProgram(src string, vars ...celVar) (cel.Program, *rowAct, error) {
	opts := make([]cel.EnvOption, len(vars))
	act := &rowAct{}
	for i, v := range vars {
		opts[i] = cel.Variable(v.name, v.typ)
		act.names = append(act.names, v.name)
	}
	act.vals = make([]any, len(vars))
	env, err := cel.NewEnv(opts...)
	if err != nil {
		return nil, nil, err
	}
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		return nil, nil, fmt.Errorf("cel-go: %q: %w", src, iss.Err())
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, nil, err
	}
	return prg, act, nil
}

// reflectInt64s converts a cel-go list to []int64.
var reflectInt64s = reflect.TypeFor[[]int64]()

// celEval evaluates the program over the activation and turns a CEL error
// value into a Go error.
func celEval(prg cel.Program, act *rowAct) (ref.Val, error) {
	out, _, err := prg.Eval(act)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// celRow evaluates prg for the row bound in act and adds the result to dig
// (when checking rather than timing).
func celRow(prg cel.Program, act *rowAct, dig *Digest) error {
	out, err := celEval(prg, act)
	if err == nil && dig != nil {
		err = dig.AddValue(out)
	}
	return err
}

// exprRow runs prg on the row bound in env and adds the result to dig
// (when checking rather than timing).
func exprRow(m *vm.VM, prg *vm.Program, env map[string]any, dig *Digest) error {
	out, err := m.Run(prg, env)
	if err == nil && dig != nil {
		err = dig.AddValue(out)
	}
	return err
}

// exprProgram compiles src once for an environment map holding values of the
// variables' types; the map is then overwritten row by row.
func exprProgram(src string, env map[string]any, opts ...exprlang.Option) (*vm.Program, error) {
	p, err := exprlang.Compile(src, append([]exprlang.Option{exprlang.Env(env)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("expr-lang: %q: %w", src, err)
	}
	return p, nil
}

func (s *Suite) celAdd() (Impl, error) {
	prg, act, err := celProgram("a + b", celVar{"a", cel.UintType}, celVar{"b", cel.UintType})
	if err != nil {
		return Impl{}, err
	}
	a, b := s.Data.A.Uint32Values(), s.Data.B.Uint32Values()
	return Impl{Engine: CelGo, How: "a + b (uint, overflow checked)", Run: func(dig *Digest) error {
		for i := range a {
			act.vals[0], act.vals[1] = types.Uint(a[i]), types.Uint(b[i])
			if err := celRow(prg, act, dig); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

func (s *Suite) exprAdd() (Impl, error) {
	env := map[string]any{"a": uint32(0), "b": uint32(0)}
	prg, err := exprProgram("a + b", env)
	if err != nil {
		return Impl{}, err
	}
	a, b := s.Data.A.Uint32Values(), s.Data.B.Uint32Values()
	var m vm.VM
	return Impl{Engine: ExprLang, How: "a + b (uint32; expr-lang does not check overflow)", Run: func(dig *Digest) error {
		for i := range a {
			env["a"], env["b"] = a[i], b[i]
			if err := exprRow(&m, prg, env, dig); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// gatherRows calls f with each row's list (a slice of the flat values, not a
// copy) and index.
func (s *Suite) gatherRows(f func(xs []uint32, i int64) error) error {
	l, idx := s.Data.GatherLists, s.Data.GatherIdx.Int64Values()
	flat := s.Data.GatherFlat.Uint32Values()
	offs := l.Offsets()
	for r := range idx {
		if err := f(flat[offs[r]:offs[r+1]], idx[r]); err != nil {
			return err
		}
	}
	return nil
}

func (s *Suite) celGather() (Impl, error) {
	prg, act, err := celProgram("xs[i - 1]", celVar{"xs", cel.ListType(cel.UintType)}, celVar{"i", cel.IntType})
	if err != nil {
		return Impl{}, err
	}
	return Impl{Engine: CelGo, How: "xs[i - 1] (the row's list adapted without a copy)", Run: func(dig *Digest) error {
		return s.gatherRows(func(xs []uint32, i int64) error {
			act.vals[0], act.vals[1] = types.DefaultTypeAdapter.NativeToValue(xs), types.Int(i)
			return celRow(prg, act, dig)
		})
	}}, nil
}

func (s *Suite) exprGather() (Impl, error) {
	env := map[string]any{"xs": []uint32(nil), "i": int64(0)}
	prg, err := exprProgram("xs[i - 1]", env)
	if err != nil {
		return Impl{}, err
	}
	var m vm.VM
	return Impl{Engine: ExprLang, How: "xs[i - 1]", Run: func(dig *Digest) error {
		return s.gatherRows(func(xs []uint32, i int64) error {
			env["xs"], env["i"] = xs, i
			return exprRow(&m, prg, env, dig)
		})
	}}, nil
}

func (s *Suite) celCompare(src string) (Impl, error) {
	prg, act, err := celProgram(src, celVar{"x", cel.IntType})
	if err != nil {
		return Impl{}, err
	}
	x := s.Data.X.Int64Values()
	return Impl{Engine: CelGo, How: src, Run: func(dig *Digest) error {
		for _, v := range x {
			act.vals[0] = types.Int(v)
			if err := celRow(prg, act, dig); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

func (s *Suite) exprCompare(src string) (Impl, error) {
	env := map[string]any{"x": int64(0)}
	prg, err := exprProgram(src, env, exprlang.AsBool())
	if err != nil {
		return Impl{}, err
	}
	x := s.Data.X.Int64Values()
	var m vm.VM
	return Impl{Engine: ExprLang, How: src, Run: func(dig *Digest) error {
		for _, v := range x {
			env["x"] = v
			if err := exprRow(&m, prg, env, dig); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// q6Rows calls f with each row of the Q6 batches: ship date in days since
// 1970, the decimals as unscaled integers (scale 2).
func (s *Suite) q6Rows(f func(ship, disc, qty, price int64) error) error {
	for _, b := range s.tables.q6 {
		ship := b.Column(0).(*array.Date32).Date32Values()
		disc := b.Column(1).(*array.Decimal128).Values()
		qty := b.Column(2).(*array.Decimal128).Values()
		price := b.Column(3).(*array.Decimal128).Values()
		for i := range ship {
			if err := f(int64(ship[i]), int64(disc[i].LowBits()), int64(qty[i].LowBits()), int64(price[i].LowBits())); err != nil {
				return err
			}
		}
	}
	return nil
}

// The row-wise Q6: dates as days, decimals as integers of hundredths.
var (
	q6RowPredCel  = fmt.Sprintf("ship >= %d && ship < %d && disc >= 5 && disc <= 7 && qty < 2400", day19940101, day19950101)
	q6RowPredExpr = fmt.Sprintf("ship >= %d and ship < %d and disc >= 5 and disc <= 7 and qty < 2400", day19940101, day19950101)
)

const q6RowProj = "price * disc"

func (s *Suite) celQ6() (Impl, error) {
	vars := []celVar{{"ship", cel.IntType}, {"disc", cel.IntType}, {"qty", cel.IntType}, {"price", cel.IntType}}
	pred, act, err := celProgram(q6RowPredCel, vars...)
	if err != nil {
		return Impl{}, err
	}
	proj, _, err := celProgram(q6RowProj, vars...)
	if err != nil {
		return Impl{}, err
	}
	return Impl{Engine: CelGo, How: q6RowPredCel + ", then " + q6RowProj + " on kept rows (decimals as integers of hundredths)",
		Run: func(dig *Digest) error {
			return s.q6Rows(func(ship, disc, qty, price int64) error {
				act.vals[0], act.vals[1], act.vals[2], act.vals[3] = types.Int(ship), types.Int(disc), types.Int(qty), types.Int(price)
				keep, err := celEval(pred, act)
				if err != nil {
					return err
				}
				if keep != types.True {
					return nil
				}
				out, err := celEval(proj, act)
				if err != nil {
					return err
				}
				if dig != nil {
					return dig.AddValue(Scaled{Unscaled: int64(out.(types.Int)), Scale: 4})
				}
				return nil
			})
		}}, nil
}

func (s *Suite) exprQ6() (Impl, error) {
	env := map[string]any{"ship": int64(0), "disc": int64(0), "qty": int64(0), "price": int64(0)}
	pred, err := exprProgram(q6RowPredExpr, env, exprlang.AsBool())
	if err != nil {
		return Impl{}, err
	}
	proj, err := exprProgram(q6RowProj, env, exprlang.AsInt64())
	if err != nil {
		return Impl{}, err
	}
	var m vm.VM
	return Impl{Engine: ExprLang, How: q6RowPredExpr + ", then " + q6RowProj + " on kept rows", Run: func(dig *Digest) error {
		return s.q6Rows(func(ship, disc, qty, price int64) error {
			env["ship"], env["disc"], env["qty"], env["price"] = ship, disc, qty, price
			keep, err := m.Run(pred, env)
			if err != nil {
				return err
			}
			if keep != true {
				return nil
			}
			out, err := m.Run(proj, env)
			if err != nil {
				return err
			}
			if dig != nil {
				return dig.AddValue(Scaled{Unscaled: out.(int64), Scale: 4})
			}
			return nil
		})
	}}, nil
}

// likeRows calls f with every l_comment.
func (s *Suite) likeRows(f func(c string) error) error {
	for _, b := range s.tables.like {
		col := b.Column(0).(*array.String)
		for i := range col.Len() {
			if err := f(col.Value(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Suite) celLike() (Impl, error) {
	src := "c.startsWith('fur')"
	prg, act, err := celProgram(src, celVar{"c", cel.StringType})
	if err != nil {
		return Impl{}, err
	}
	return Impl{Engine: CelGo, How: src, Run: func(dig *Digest) error {
		return s.likeRows(func(c string) error {
			act.vals[0] = types.String(c)
			return celRow(prg, act, dig)
		})
	}}, nil
}

func (s *Suite) exprLike() (Impl, error) {
	src := "c startsWith 'fur'"
	env := map[string]any{"c": ""}
	prg, err := exprProgram(src, env, exprlang.AsBool())
	if err != nil {
		return Impl{}, err
	}
	var m vm.VM
	return Impl{Engine: ExprLang, How: src, Run: func(dig *Digest) error {
		return s.likeRows(func(c string) error {
			env["c"] = c
			return exprRow(&m, prg, env, dig)
		})
	}}, nil
}

// transformRows calls f with each list (a slice of the flat values, not a
// copy), or with ok false for a null list.
func (s *Suite) transformRows(f func(xs []int64, ok bool) error) error {
	l := s.Data.Xs
	flat := l.ListValues().(*array.Int64).Int64Values()
	offs := l.Offsets()
	for r := range l.Len() {
		if l.IsNull(r) {
			if err := f(nil, false); err != nil {
				return err
			}
			continue
		}
		if err := f(flat[offs[r]:offs[r+1]], true); err != nil {
			return err
		}
	}
	return nil
}

func (s *Suite) celTransform() (Impl, error) {
	src := "xs.map(x, x * 2)"
	prg, act, err := celProgram(src, celVar{"xs", cel.ListType(cel.IntType)})
	if err != nil {
		return Impl{}, err
	}
	return Impl{Engine: CelGo, How: src + " (a null list is not evaluated)", Run: func(dig *Digest) error {
		return s.transformRows(func(xs []int64, ok bool) error {
			if !ok {
				if dig != nil {
					return dig.AddValue(nil)
				}
				return nil
			}
			act.vals[0] = types.DefaultTypeAdapter.NativeToValue(xs)
			out, err := celEval(prg, act)
			if err == nil && dig != nil {
				var v any
				if v, err = out.ConvertToNative(reflectInt64s); err == nil {
					err = dig.AddValue(v)
				}
			}
			return err
		})
	}}, nil
}

func (s *Suite) exprTransform() (Impl, error) {
	src := "map(xs, # * 2)"
	env := map[string]any{"xs": []int64(nil)}
	prg, err := exprProgram(src, env)
	if err != nil {
		return Impl{}, err
	}
	var m vm.VM
	return Impl{Engine: ExprLang, How: src + " (a null list is not evaluated)", Run: func(dig *Digest) error {
		return s.transformRows(func(xs []int64, ok bool) error {
			if !ok {
				if dig != nil {
					return dig.AddValue(nil)
				}
				return nil
			}
			env["xs"] = xs
			return exprRow(&m, prg, env, dig)
		})
	}}, nil
}
