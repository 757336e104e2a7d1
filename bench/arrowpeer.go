package bench

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/compute/exprs"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/types"
)

// arrowCtx is the context arrow-go's functions run with: the suite's
// allocator (the one colexpr allocates from) and the default Substrait
// extension set.
func (s *Suite) arrowCtx() (context.Context, exprs.ExtensionIDSet) {
	ext := exprs.NewDefaultExtensionSet()
	ctx := compute.WithAllocator(context.Background(), s.Mem)
	return exprs.WithExtensionIDSet(ctx, ext), ext
}

// finishDatum adds an arrow-go result to dig (when non-nil) and releases it.
func finishDatum(out compute.Datum, dig *Digest) error {
	defer out.Release()
	if dig == nil {
		return nil
	}
	ad, ok := out.(*compute.ArrayDatum)
	if !ok {
		return fmt.Errorf("bench: arrow-go returned a %s, not an array", out.Kind())
	}
	arr := ad.MakeArray()
	defer arr.Release()
	return dig.AddArray(arr)
}

func (s *Suite) arrowAdd() (Impl, error) {
	ctx, _ := s.arrowCtx()
	a, b := compute.NewDatumWithoutOwning(s.Data.A), compute.NewDatumWithoutOwning(s.Data.B)
	return Impl{
		Engine: ArrowCompute,
		How:    "compute.Add with ArithmeticOptions{} (add_checked)",
		Run: func(dig *Digest) error {
			out, err := compute.Add(ctx, compute.ArithmeticOptions{}, a, b)
			if err != nil {
				return err
			}
			return finishDatum(out, dig)
		},
	}, nil
}

func (s *Suite) arrowTake() (Impl, error) {
	ctx, _ := s.arrowCtx()
	return Impl{
		Engine: ArrowCompute,
		How:    "compute.TakeArray(flat values, 0-based positions)",
		Run: func(dig *Digest) error {
			out, err := compute.TakeArray(ctx, s.Data.GatherFlat, s.Data.GatherTake)
			if err != nil {
				return err
			}
			defer out.Release()
			if dig != nil {
				return dig.AddArray(out)
			}
			return nil
		},
	}, nil
}

func (s *Suite) arrowCompare() (Impl, error) {
	ctx, _ := s.arrowCtx()
	x := compute.NewDatumWithoutOwning(s.Data.X)
	thr := compute.NewDatum(scalar.NewInt64Scalar(s.Data.Threshold))
	return Impl{
		Engine: ArrowCompute,
		How:    `compute.CallFunction("less", x, scalar)`,
		Run: func(dig *Digest) error {
			out, err := compute.CallFunction(ctx, "less", nil, x, thr)
			if err != nil {
				return err
			}
			return finishDatum(out, dig)
		},
	}, nil
}

// exprsImpl runs a Substrait expression over each batch with
// exprs.ExecuteScalarExpression. The builder takes arrow-go's function names
// and emits the Substrait ones (less → lt, and_kleene → and, …).
func (s *Suite) exprsImpl(how string, batches []arrow.RecordBatch, build func(b *exprs.ExprBuilder) (exprs.Builder, error)) (Impl, error) {
	ctx, ext := s.arrowCtx()
	schema := batches[0].Schema()
	bldr := exprs.NewExprBuilder(ext)
	if err := bldr.SetInputSchema(schema); err != nil {
		return Impl{}, err
	}
	call, err := build(&bldr)
	if err != nil {
		return Impl{}, err
	}
	e, err := call.BuildExpr()
	if err != nil {
		return Impl{}, err
	}
	return Impl{
		Engine: ArrowExprs,
		How:    how,
		Run: func(dig *Digest) error {
			for _, b := range batches {
				out, err := exprs.ExecuteScalarExpression(ctx, schema, e, compute.NewDatumWithoutOwning(b))
				if err != nil {
					return err
				}
				if err := finishDatum(out, dig); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil
}

func (s *Suite) exprsCompare() (Impl, error) {
	return s.exprsImpl("exprs.ExecuteScalarExpression(lt(x, i64 literal))", s.tables.cmp, func(b *exprs.ExprBuilder) (exprs.Builder, error) {
		return b.CallScalar("less", nil, b.FieldRef("x"), b.Literal(expr.NewPrimitiveLiteral(s.Data.Threshold, false)))
	})
}

func (s *Suite) arrowKleene(fn string) (Impl, error) {
	ctx, _ := s.arrowCtx()
	p, q := compute.NewDatumWithoutOwning(s.Data.P), compute.NewDatumWithoutOwning(s.Data.Q)
	return Impl{
		Engine: ArrowCompute,
		How:    fmt.Sprintf("compute.CallFunction(%q, p, q)", fn),
		Run: func(dig *Digest) error {
			out, err := compute.CallFunction(ctx, fn, nil, p, q)
			if err != nil {
				return err
			}
			return finishDatum(out, dig)
		},
	}, nil
}

func (s *Suite) exprsKleene(fn string) (Impl, error) {
	return s.exprsImpl(fmt.Sprintf("exprs.ExecuteScalarExpression(%s(p, q))", fn), s.tables.kleene, func(b *exprs.ExprBuilder) (exprs.Builder, error) {
		return b.CallScalar(fn, nil, b.FieldRef("p"), b.FieldRef("q"))
	})
}

// q6Scalars are the constants of Q6's predicate as Arrow scalars of the
// columns' types.
func q6Scalars() (lo, hi, dlo, dhi, qty scalar.Scalar) {
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	return scalar.NewDate32Scalar(day19940101), scalar.NewDate32Scalar(day19950101),
		scalar.NewDecimal128Scalar(decimal128.FromI64(5), dec), scalar.NewDecimal128Scalar(decimal128.FromI64(7), dec),
		scalar.NewDecimal128Scalar(decimal128.FromI64(2400), dec)
}

// arrowQ6 computes the predicate with compute functions (or, with viaExprs,
// one Substrait expression), filters the batch with compute.FilterRecordBatch
// and multiplies the kept columns with compute.Multiply (checked).
func (s *Suite) arrowQ6(viaExprs bool) (Impl, error) {
	ctx, ext := s.arrowCtx()
	schema := s.tables.q6[0].Schema()
	lo, hi, dlo, dhi, qty := q6Scalars()
	var mask func(b arrow.RecordBatch) (compute.Datum, error)
	how := "greater_equal, less, greater_equal, less_equal, less, and_kleene ×4 (compute.CallFunction), " +
		"compute.FilterRecordBatch, compute.Multiply (checked) of the kept columns"
	if viaExprs {
		how = "the predicate as one Substrait expression (exprs.ExecuteScalarExpression), then as compute"
		bldr := exprs.NewExprBuilder(ext)
		if err := bldr.SetInputSchema(schema); err != nil {
			return Impl{}, err
		}
		dec := func(v string) exprs.Builder {
			// v has two decimals; the literal takes the columns' decimal(15,2).
			b, _, sc, err := expr.DecimalStringToBytes(v)
			if err != nil {
				panic(err) // constant text
			}
			return bldr.WrapLiteral(expr.NewLiteral(&types.Decimal{Value: b[:16], Precision: 15, Scale: sc}, false))
		}
		and := func(a, b exprs.Builder) exprs.Builder { return bldr.MustCallScalar("and_kleene", nil, a, b) }
		call := and(and(and(and(
			bldr.MustCallScalar("greater_equal", nil, bldr.FieldRef("l_shipdate"), bldr.Literal(expr.NewPrimitiveLiteral(types.Date(day19940101), false))),
			bldr.MustCallScalar("less", nil, bldr.FieldRef("l_shipdate"), bldr.Literal(expr.NewPrimitiveLiteral(types.Date(day19950101), false)))),
			bldr.MustCallScalar("greater_equal", nil, bldr.FieldRef("l_discount"), dec("0.05"))),
			bldr.MustCallScalar("less_equal", nil, bldr.FieldRef("l_discount"), dec("0.07"))),
			bldr.MustCallScalar("less", nil, bldr.FieldRef("l_quantity"), dec("24.00")))
		e, err := call.BuildExpr()
		if err != nil {
			return Impl{}, err
		}
		mask = func(b arrow.RecordBatch) (compute.Datum, error) {
			return exprs.ExecuteScalarExpression(ctx, schema, e, compute.NewDatumWithoutOwning(b))
		}
	} else {
		mask = func(b arrow.RecordBatch) (compute.Datum, error) {
			ship, disc, quant := compute.NewDatumWithoutOwning(b.Column(0)), compute.NewDatumWithoutOwning(b.Column(1)), compute.NewDatumWithoutOwning(b.Column(2))
			var m compute.Datum
			for _, c := range []struct {
				fn  string
				col compute.Datum
				v   scalar.Scalar
			}{
				{"greater_equal", ship, lo}, {"less", ship, hi}, {"greater_equal", disc, dlo},
				{"less_equal", disc, dhi}, {"less", quant, qty},
			} {
				r, err := compute.CallFunction(ctx, c.fn, nil, c.col, compute.NewDatum(c.v))
				if err != nil {
					if m != nil {
						m.Release()
					}
					return nil, err
				}
				if m == nil {
					m = r
					continue
				}
				both, err := compute.CallFunction(ctx, "and_kleene", nil, m, r)
				m.Release()
				r.Release()
				if err != nil {
					return nil, err
				}
				m = both
			}
			return m, nil
		}
	}
	engine := ArrowCompute
	if viaExprs {
		engine = ArrowExprs
	}
	return Impl{
		Engine: engine,
		How:    how,
		Run: func(dig *Digest) error {
			for _, b := range s.tables.q6 {
				m, err := mask(b)
				if err != nil {
					return err
				}
				ma := m.(*compute.ArrayDatum).MakeArray()
				m.Release()
				kept, err := compute.FilterRecordBatch(ctx, b, ma, compute.DefaultFilterOptions())
				ma.Release()
				if err != nil {
					return err
				}
				out, err := compute.Multiply(ctx, compute.ArithmeticOptions{},
					compute.NewDatumWithoutOwning(kept.Column(3)), compute.NewDatumWithoutOwning(kept.Column(1)))
				kept.Release()
				if err != nil {
					return err
				}
				if err := finishDatum(out, dig); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil
}

func (s *Suite) arrowLike(viaExprs bool) (Impl, error) {
	if viaExprs {
		return s.exprsImpl("exprs.ExecuteScalarExpression(starts_with(l_comment, 'fur'))", s.tables.like, func(b *exprs.ExprBuilder) (exprs.Builder, error) {
			return b.CallScalar("starts_with", nil, b.FieldRef("l_comment"), b.Literal(expr.NewPrimitiveLiteral("fur", false)))
		})
	}
	ctx, _ := s.arrowCtx()
	opts := &compute.MatchSubstringOptions{Pattern: "fur"}
	return Impl{
		Engine: ArrowCompute,
		How:    `compute.CallFunction("starts_with", MatchSubstringOptions{Pattern: "fur"}) per batch`,
		Run: func(dig *Digest) error {
			for _, b := range s.tables.like {
				out, err := compute.CallFunction(ctx, "starts_with", opts, compute.NewDatumWithoutOwning(b.Column(0)))
				if err != nil {
					return err
				}
				if err := finishDatum(out, dig); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil
}

// arrowTransform multiplies the flat values of the lists by 2 (checked) and
// rebuilds the list array around them with the input's offsets and validity:
// what an arrow-go user writes for list_transform, which arrow-go lacks.
func (s *Suite) arrowTransform() (Impl, error) {
	ctx, _ := s.arrowCtx()
	xs := s.Data.Xs
	two := compute.NewDatum(scalar.NewInt64Scalar(2))
	return Impl{
		Engine: ArrowCompute,
		How:    "compute.Multiply (checked) of the flat values by 2, then the list rebuilt with the same offsets",
		Run: func(dig *Digest) error {
			vals := xs.ListValues()
			out, err := compute.Multiply(ctx, compute.ArithmeticOptions{}, compute.NewDatumWithoutOwning(vals), two)
			if err != nil {
				return err
			}
			nv := out.(*compute.ArrayDatum).MakeArray()
			out.Release()
			in := xs.Data()
			ld := array.NewData(in.DataType(), in.Len(), in.Buffers(), []arrow.ArrayData{nv.Data()}, in.NullN(), in.Offset())
			nv.Release()
			res := array.NewListData(ld)
			ld.Release()
			defer res.Release()
			if dig != nil {
				return dig.AddArray(res)
			}
			return nil
		},
	}, nil
}
