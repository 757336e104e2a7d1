package bench

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/colexpr/colexpr"
	"github.com/colexpr/colexpr/demo"
)

// The workloads' names, as the table prints them.
const (
	NameAdd       = "checked add u32 + u32"
	NameGather    = "gather u32 (list_element, take)"
	NameCompare   = "i64 < scalar"
	NameAnd       = "Kleene AND, nullable bools"
	NameOr        = "Kleene OR, nullable bools"
	NameQ6        = "TPC-H Q6 filter + projection"
	NameLike      = "l_comment LIKE 'fur%'"
	NameTransform = "list_transform(xs, x -> x * 2)"
	NameOrChain   = "optimize or-chain of 200"
)

// The colexpr sources of the workloads (the other engines' texts are next to
// their Impls). Q6Pred and Q6Proj are also valid DuckDB SQL; cmd/scancompare
// runs them on whole Parquet files.
const (
	Q6Pred = "l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' " +
		"AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"
	Q6Proj  = "l_extendedprice * l_discount"
	q6SQL   = "SELECT " + Q6Proj + " FROM lineitem WHERE " + Q6Pred
	likeSrc = "l_comment LIKE 'fur%'"
)

// Days since 1970-01-01 of Q6's date bounds.
const (
	day19940101 = 8766
	day19950101 = 9131
)

// q6Columns are the columns Q6 reads: the batches given to colexpr and
// arrow-go keep only these, as a reader with column pruning would (DuckDB
// reads only these columns of its table).
var q6Columns = []string{demo.ColShipDate, demo.ColDiscount, demo.ColQuantity, demo.ColExtendedPrice}

// record wraps columns into one record batch.
func record(names []string, cols ...arrow.Array) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: names[i], Type: c.DataType(), Nullable: true}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
}

// project keeps the named columns of each batch.
func project(batches []arrow.RecordBatch, names []string) ([]arrow.RecordBatch, error) {
	out := make([]arrow.RecordBatch, 0, len(batches))
	for _, b := range batches {
		fields := make([]arrow.Field, len(names))
		cols := make([]arrow.Array, len(names))
		for i, n := range names {
			idx := b.Schema().FieldIndices(n)
			if len(idx) != 1 {
				for _, o := range out {
					o.Release()
				}
				return nil, fmt.Errorf("bench: no column %q", n)
			}
			fields[i] = b.Schema().Field(idx[0])
			cols[i] = b.Column(idx[0])
		}
		out = append(out, array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows()))
	}
	return out, nil
}

// tables are the record batches of each workload, shared by every engine
// (DuckDB loads the same batches).
type tables struct {
	add, gather, cmp, kleene, transform []arrow.RecordBatch
	q6, like                            []arrow.RecordBatch
}

func (s *Suite) makeTables() (*tables, error) {
	d := s.Data
	t := &tables{
		add:       []arrow.RecordBatch{record([]string{"a", "b"}, d.A, d.B)},
		gather:    []arrow.RecordBatch{record([]string{"xs", "i"}, d.GatherLists, d.GatherIdx)},
		cmp:       []arrow.RecordBatch{record([]string{"x"}, d.X)},
		kleene:    []arrow.RecordBatch{record([]string{"p", "q"}, d.P, d.Q)},
		transform: []arrow.RecordBatch{record([]string{"xs"}, d.Xs)},
	}
	s.onClose(func() error {
		for _, bs := range [][]arrow.RecordBatch{t.add, t.gather, t.cmp, t.kleene, t.transform, t.q6, t.like} {
			for _, b := range bs {
				b.Release()
			}
		}
		return nil
	})
	var err error
	if t.q6, err = project(d.Lineitem, q6Columns); err != nil {
		return nil, err
	}
	if t.like, err = project(d.Lineitem, []string{demo.ColComment}); err != nil {
		return nil, err
	}
	return t, nil
}

func (s *Suite) loadDuck() error {
	t, err := s.makeTables()
	if err != nil {
		return err
	}
	s.tables = t
	for _, tb := range []struct {
		name    string
		batches []arrow.RecordBatch
	}{
		{"add_t", t.add}, {"gather_t", t.gather}, {"cmp_t", t.cmp}, {"kleene_t", t.kleene},
		{"transform_t", t.transform}, {"lineitem", s.Data.Lineitem},
	} {
		if err := s.Duck.Load(tb.name, tb.batches[0].Schema(), tb.batches); err != nil {
			return err
		}
	}
	return nil
}

// colexprEval compiles src against the batches' schema and evaluates it over
// every batch.
func (s *Suite) colexprEval(src string, batches []arrow.RecordBatch) (Impl, error) {
	p, err := colexpr.Compile(src, batches[0].Schema())
	if err != nil {
		return Impl{}, fmt.Errorf("bench: colexpr: %w", err)
	}
	pool := s.pool()
	return Impl{
		Engine: Colexpr,
		How:    fmt.Sprintf("colexpr.Compile(%q) once, Program.Eval per batch into a colexpr.Pool", src),
		Run: func(dig *Digest) error {
			for _, b := range batches {
				out, err := p.Eval(pool, b)
				if err != nil {
					return err
				}
				if dig != nil {
					if err := dig.AddArray(out); err != nil {
						out.Release()
						return err
					}
				}
				out.Release()
			}
			return nil
		},
	}, nil
}

// pool is a colexpr.Pool over s.Mem for one engine's batches, as a
// program evaluating a stream of batches uses one: each batch's output,
// once released, is the next one's memory. Close empties it.
func (s *Suite) pool() *colexpr.Pool {
	p := colexpr.NewPool(s.Mem)
	s.onClose(func() error { p.Close(); return nil })
	return p
}

// duckImpl prepares q once and runs it per repetition.
func (s *Suite) duckImpl(q string) (Impl, error) {
	pq, err := s.Duck.Prepare(q)
	if err != nil {
		return Impl{}, err
	}
	s.onClose(pq.Close)
	return Impl{Engine: DuckDB, How: q, Run: pq.Run}, nil
}

// workload assembles a workload from constructors, stopping at the first error.
func workload(name, desc string, kind Kind, mks ...func() (Impl, error)) (*Workload, error) {
	w := &Workload{Name: name, Desc: desc, Kind: kind}
	for _, mk := range mks {
		im, err := mk()
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", name, err)
		}
		w.Impls = append(w.Impls, im)
	}
	return w, nil
}

func (s *Suite) addWorkload() (*Workload, error) {
	d := s.Data
	w, err := workload(NameAdd, fmt.Sprintf("a + b over two u32 columns of %d values, no nulls, overflow checked", d.A.Len()), FixedWidth,
		func() (Impl, error) { return s.colexprEval("a + b", s.tables.add) },
		func() (Impl, error) { return s.arrowAdd() },
		func() (Impl, error) { return s.duckImpl("SELECT a + b FROM add_t") },
		func() (Impl, error) { return s.celAdd() },
		func() (Impl, error) { return s.exprAdd() },
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, "a + b", s.tables.add)
}

func (s *Suite) gatherWorkload() (*Workload, error) {
	d := s.Data
	w, err := workload(NameGather, fmt.Sprintf("%d gathers of u32 values: row r takes element i[r] (1-based) of its list of %d; "+
		"arrow-go takes position %d·r + i[r] − 1 of the flat values", d.GatherIdx.Len(), gatherWidth, gatherWidth), FixedWidth,
		func() (Impl, error) { return s.colexprEval("list_element(xs, i)", s.tables.gather) },
		func() (Impl, error) { return s.arrowTake() },
		func() (Impl, error) { return s.duckImpl("SELECT list_element(xs, i) FROM gather_t") },
		func() (Impl, error) { return s.celGather() },
		func() (Impl, error) { return s.exprGather() },
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, "list_element(xs, i)", s.tables.gather)
}

func (s *Suite) compareWorkload() (*Workload, error) {
	d := s.Data
	src := fmt.Sprintf("x < %d", d.Threshold)
	w, err := workload(NameCompare, fmt.Sprintf("%s over %d i64 values, no nulls", src, d.X.Len()), FixedWidth,
		func() (Impl, error) { return s.colexprEval(src, s.tables.cmp) },
		func() (Impl, error) { return s.arrowCompare() },
		func() (Impl, error) { return s.exprsCompare() },
		func() (Impl, error) { return s.duckImpl("SELECT " + src + " FROM cmp_t") },
		func() (Impl, error) { return s.celCompare(src) },
		func() (Impl, error) { return s.exprCompare(src) },
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, src, s.tables.cmp)
}

func (s *Suite) andWorkload() (*Workload, error) {
	return s.kleeneWorkload(NameAnd, "AND", "and_kleene")
}

func (s *Suite) orWorkload() (*Workload, error) {
	return s.kleeneWorkload(NameOr, "OR", "or_kleene")
}

func (s *Suite) kleeneWorkload(name, op, arrowFn string) (*Workload, error) {
	d := s.Data
	src := "p " + op + " q"
	w, err := workload(name, fmt.Sprintf("%s over two bool columns of %d values, a tenth of each null "+
		"(cel-go and expr-lang have no three-valued logic: not run)", src, d.P.Len()), FixedWidth,
		func() (Impl, error) { return s.colexprEval(src, s.tables.kleene) },
		func() (Impl, error) { return s.arrowKleene(arrowFn) },
		func() (Impl, error) { return s.exprsKleene(arrowFn) },
		func() (Impl, error) { return s.duckImpl("SELECT " + src + " FROM kleene_t") },
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, src, s.tables.kleene)
}

func (s *Suite) q6Workload() (*Workload, error) {
	w, err := workload(NameQ6, fmt.Sprintf("WHERE %s, then %s over the kept rows; the demo table, %d rows in batches of %d",
		Q6Pred, Q6Proj, s.Data.LineitemRows(), demo.DefaultBatchSize), Scan,
		s.colexprQ6,
		func() (Impl, error) { return s.arrowQ6(false) },
		func() (Impl, error) { return s.arrowQ6(true) },
		func() (Impl, error) { return s.duckImpl(q6SQL) },
		s.celQ6,
		s.exprQ6,
	)
	if err != nil {
		return nil, err
	}
	return s.withQ6Floor(w)
}

// withQ6Floor gives the Q6 workload its floor: reading the four columns Q6
// reads, and writing the projection of the kept rows.
func (s *Suite) withQ6Floor(w *Workload) (*Workload, error) {
	schema := s.tables.q6[0].Schema()
	pred, err := colexpr.Compile(Q6Pred, schema)
	if err != nil {
		return nil, err
	}
	proj, err := colexpr.Compile(Q6Proj, schema)
	if err != nil {
		return nil, err
	}
	out := 0
	for _, b := range s.tables.q6 {
		kept, err := pred.Filter(s.Mem, b)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: floor: %w", w.Name, err)
		}
		res, err := proj.Eval(s.Mem, kept)
		kept.Release()
		if err != nil {
			return nil, fmt.Errorf("bench: %s: floor: %w", w.Name, err)
		}
		out += sumBytes(arrayBytes(res))
		res.Release()
	}
	return withFloorOf(w, s.tables.q6, out), nil
}

// colexprQ6 filters with the predicate, then evaluates the projection over
// the kept rows.
func (s *Suite) colexprQ6() (Impl, error) {
	schema := s.tables.q6[0].Schema()
	pred, err := colexpr.Compile(Q6Pred, schema)
	if err != nil {
		return Impl{}, err
	}
	proj, err := colexpr.Compile(Q6Proj, schema)
	if err != nil {
		return Impl{}, err
	}
	pool := s.pool()
	return Impl{
		Engine: Colexpr,
		How:    "Program.Filter (predicate), then Program.Eval (projection) on the kept rows, per batch, into a colexpr.Pool",
		Run: func(dig *Digest) error {
			for _, b := range s.tables.q6 {
				kept, err := pred.Filter(pool, b)
				if err != nil {
					return err
				}
				out, err := proj.Eval(pool, kept)
				kept.Release()
				if err != nil {
					return err
				}
				if dig != nil {
					if err := dig.AddArray(out); err != nil {
						out.Release()
						return err
					}
				}
				out.Release()
			}
			return nil
		},
	}, nil
}

func (s *Suite) likeWorkload() (*Workload, error) {
	w, err := workload(NameLike, fmt.Sprintf("a prefix LIKE over the demo table's l_comment (%d rows, 10–43 characters)", s.Data.LineitemRows()), Scan,
		func() (Impl, error) { return s.colexprEval(likeSrc, s.tables.like) },
		func() (Impl, error) { return s.arrowLike(false) },
		func() (Impl, error) { return s.arrowLike(true) },
		func() (Impl, error) { return s.duckImpl("SELECT " + likeSrc + " FROM lineitem") },
		s.celLike,
		s.exprLike,
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, likeSrc, s.tables.like)
}

func (s *Suite) transformWorkload() (*Workload, error) {
	d := s.Data
	src := "list_transform(xs, x -> x * 2)"
	w, err := workload(NameTransform, fmt.Sprintf("%s over %d lists of 0–7 i64 (%d values), a tenth of the lists null, multiplication checked",
		src, d.Xs.Len(), d.Xs.ListValues().Len()), Nested,
		func() (Impl, error) { return s.colexprEval(src, s.tables.transform) },
		func() (Impl, error) { return s.arrowTransform() },
		func() (Impl, error) { return s.duckImpl("SELECT list_transform(xs, lambda x: x * 2) FROM transform_t") },
		s.celTransform,
		s.exprTransform,
	)
	if err != nil {
		return nil, err
	}
	return s.withFloor(w, src, s.tables.transform)
}
