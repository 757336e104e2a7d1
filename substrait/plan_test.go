package substrait

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/substrait-io/substrait-go/v8/extensions"
	splan "github.com/substrait-io/substrait-go/v8/plan"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/proto"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/scalar"
)

var planTrips = flag.Int("plantrips", 300, "random queries TestPlanRoundTripRandom exports as plans, imports and runs")

// planSchema is the input of the plan tests: a column Substrait has no
// type for (u), which a plan leaves out of its base schema unless it reads
// it.
var planSchema = mustParse(`struct<id: i64, name: utf8?, price: decimal(10,2)?, day: date?, tags: list<i32?>?,
	pt: struct<a: i32, b: utf8?>?, u: u8, zt: timestamp(ms, 'Europe/Paris')?>`)

var planFiles = []File{{Path: "/data/part-0.parquet", Format: Parquet}, {Path: "/data/part-1.parquet", Format: Parquet}}

// planOf exports a query given as text: the filter ("" for none) and the
// select items, each "name=expression".
func planOf(t *testing.T, scope expr.Scope, where string, selects ...string) (*pb.Plan, error) {
	t.Helper()
	q := PlanQuery{Files: planFiles}
	if where != "" {
		q.Where = bindText(t, where, scope)
		q.BestEffortFilter = q.Where
	}
	for _, s := range selects {
		name, text, _ := strings.Cut(s, "=")
		q.Select = append(q.Select, Named{Name: name, Expr: bindText(t, text, scope)})
	}
	return ExportPlan(scope, q)
}

// describe prints an imported query, one part a line.
func (q *PlanQuery) describe() string {
	var out []string
	for _, f := range q.Files {
		out = append(out, fmt.Sprintf("file %s (%s)", f.Path, f.Format))
	}
	if q.Table != nil {
		out = append(out, "table "+strings.Join(q.Table, "."))
	}
	if q.BestEffortFilter != nil {
		out = append(out, "best effort: "+q.BestEffortFilter.String())
	}
	if q.Where != nil {
		out = append(out, "where: "+q.Where.String())
	}
	for _, n := range q.Select {
		out = append(out, fmt.Sprintf("select %s: %s :: %s", n.Name, n.Expr, n.Expr.DType()))
	}
	return strings.Join(out, "\n")
}

// TestPlanGolden records the JSON of exported plans and what they import
// as: the shape of the relations, the names, the projection mask, the
// best-effort filter.
func TestPlanGolden(t *testing.T) {
	scope := expr.ScopeOf(planSchema)
	g := readGolden(t, "plan_export.txt")
	for i := range g.cases {
		c := &g.cases[i]
		// The title is the query: "where | item, item" (each item
		// name=expression).
		where, list, _ := strings.Cut(c.title, "|")
		var items []string
		if list = strings.TrimSpace(list); list != "*" {
			items = strings.Split(list, ", ")
		}
		msg, err := planOf(t, scope, strings.TrimSpace(where), items...)
		if err != nil {
			c.got = "error: " + err.Error()
			continue
		}
		js, err := MarshalPlanJSON(msg)
		if err != nil {
			t.Fatal(err)
		}
		q, err := ImportPlan(msg, scope)
		if err != nil {
			t.Fatalf("%s: import: %v", c.title, err)
		}
		validatePlan(t, msg)
		c.got = strings.TrimRight(string(js), "\n") + "\nimports as:\n" + q.describe()
	}
	g.check(t)
}

// validatePlan checks that substrait-go, with the standard extensions
// loaded, reads msg. substrait-go v8.1.1 types a ReadRel's output as its
// whole base schema, ignoring the projection (plan/relations.go,
// baseReadRel.RecordType), which the Substrait spec applies first ("Direct
// Output Order: the schema of the data read after the optional
// projection"): so it reads a copy whose base schema is what the
// projection selects, the same plan to a consumer that follows the spec.
func validatePlan(t *testing.T, msg *pb.Plan) {
	t.Helper()
	if hasNegativeTemporal(msg) {
		return // substrait-go misreads them (see checkSubstraitGo)
	}
	c := proto.Clone(msg).(*pb.Plan)
	var read *pb.ReadRel
	for rel := c.Relations[0].GetRoot().GetInput(); rel != nil; {
		switch r := rel.RelType.(type) {
		case *pb.Rel_Project:
			rel = r.Project.Input
		case *pb.Rel_Filter:
			rel = r.Filter.Input
		case *pb.Rel_Read:
			read, rel = r.Read, nil
		}
	}
	if p := read.Projection; p != nil {
		ns := read.BaseSchema
		var names []string
		var types []*pb.Type
		for _, it := range p.Select.StructItems {
			// A field's names: its own, then those nested in it.
			start := 0
			for i := 0; i < int(it.Field); i++ {
				start += 1 + nestedNames(ns.Struct.Types[i])
			}
			names = append(names, ns.Names[start:start+1+nestedNames(ns.Struct.Types[it.Field])]...)
			types = append(types, ns.Struct.Types[it.Field])
		}
		if read.BestEffortFilter != nil {
			// It is read against the base schema: check it there.
			whole := proto.Clone(msg).(*pb.Plan)
			whole.Relations[0].GetRoot().Input = &pb.Rel{RelType: &pb.Rel_Read{Read: read}}
			whole.Relations[0].GetRoot().Names = nil
			if _, err := splan.FromProto(whole, extensions.GetDefaultCollectionWithNoError()); err != nil && !strings.Contains(err.Error(), "output name") {
				t.Errorf("substrait-go rejects the best-effort filter: %v", err)
			}
			read.BestEffortFilter = nil
		}
		read.BaseSchema = &pb.NamedStruct{Names: names, Struct: &pb.Type_Struct{Types: types, Nullability: ns.Struct.Nullability}}
		read.Projection = nil
	}
	if _, err := splan.FromProto(c, extensions.GetDefaultCollectionWithNoError()); err != nil {
		t.Errorf("substrait-go rejects the plan: %v", err)
	}
}

// nestedNames counts the names a NamedStruct gives the fields nested in t.
func nestedNames(t *pb.Type) int {
	switch k := t.Kind.(type) {
	case *pb.Type_Struct_:
		n := 0
		for _, f := range k.Struct.Types {
			n += 1 + nestedNames(f)
		}
		return n
	case *pb.Type_List_:
		return nestedNames(k.List.Type)
	}
	return 0
}

// TestPlanImportRefusals: plans colexpr does not run, or that do not fit
// the input, are errors that say where and why — never a panic.
func TestPlanImportRefusals(t *testing.T) {
	scope := expr.ScopeOf(planSchema)
	base := func(t *testing.T) *pb.Plan {
		msg, err := planOf(t, scope, "id > 1", "n=name", "p=price * 2")
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	read := func(p *pb.Plan) *pb.ReadRel {
		return p.Relations[0].GetRoot().Input.GetProject().Input.GetFilter().Input.GetRead()
	}
	wrap := func(p *pb.Plan, f func(in *pb.Rel) *pb.Rel) {
		r := p.Relations[0].GetRoot()
		r.Input = f(r.Input)
	}
	g := readGolden(t, "plan_import_errors.txt")
	cases := map[string]func(p *pb.Plan){
		"a join": func(p *pb.Plan) {
			wrap(p, func(in *pb.Rel) *pb.Rel {
				return &pb.Rel{RelType: &pb.Rel_Join{Join: &pb.JoinRel{Left: in, Right: in}}}
			})
		},
		"an aggregate": func(p *pb.Plan) {
			wrap(p, func(in *pb.Rel) *pb.Rel {
				return &pb.Rel{RelType: &pb.Rel_Aggregate{Aggregate: &pb.AggregateRel{Input: in}}}
			})
		},
		"a sort": func(p *pb.Plan) {
			wrap(p, func(in *pb.Rel) *pb.Rel { return &pb.Rel{RelType: &pb.Rel_Sort{Sort: &pb.SortRel{Input: in}}} })
		},
		"a fetch": func(p *pb.Plan) {
			wrap(p, func(in *pb.Rel) *pb.Rel { return &pb.Rel{RelType: &pb.Rel_Fetch{Fetch: &pb.FetchRel{Input: in}}} })
		},
		"a filter above": func(p *pb.Plan) {
			wrap(p, func(in *pb.Rel) *pb.Rel { return &pb.Rel{RelType: &pb.Rel_Filter{Filter: &pb.FilterRel{Input: in}}} })
		},
		"two relations": func(p *pb.Plan) { p.Relations = append(p.Relations, p.Relations[0]) },
		"no relation":   func(p *pb.Plan) { p.Relations = nil },
		"a virtual table": func(p *pb.Plan) {
			read(p).ReadType = &pb.ReadRel_VirtualTable_{VirtualTable: &pb.ReadRel_VirtualTable{}}
		},
		"a glob": func(p *pb.Plan) {
			read(p).GetLocalFiles().Items[0].PathType = &pb.ReadRel_LocalFiles_FileOrFiles_UriPathGlob{UriPathGlob: "/data/*.parquet"}
		},
		"an s3 URI": func(p *pb.Plan) {
			read(p).GetLocalFiles().Items[0].PathType = &pb.ReadRel_LocalFiles_FileOrFiles_UriFile{UriFile: "s3://bucket/part-0.parquet"}
		},
		"a byte range": func(p *pb.Plan) { read(p).GetLocalFiles().Items[1].Start = 4 },
		"ORC": func(p *pb.Plan) {
			read(p).GetLocalFiles().Items[0].FileFormat = &pb.ReadRel_LocalFiles_FileOrFiles_Orc{Orc: &pb.ReadRel_LocalFiles_FileOrFiles_OrcReadOptions{}}
		},
		"tab-separated text": func(p *pb.Plan) {
			read(p).GetLocalFiles().Items[0].FileFormat = &pb.ReadRel_LocalFiles_FileOrFiles_Text{Text: &pb.ReadRel_LocalFiles_FileOrFiles_DelimiterSeparatedTextReadOptions{FieldDelimiter: "\t", HeaderLinesToSkip: 1}}
		},
		"a nested projection": func(p *pb.Plan) {
			read(p).Projection.Select.StructItems[0].Child = &pb.Expression_MaskExpression_Select{}
		},
		"a projection out of range": func(p *pb.Plan) { read(p).Projection.Select.StructItems[0].Field = 40 },
		// Other producers write no colexpr hints, which would otherwise
		// say the base schema is not the one exported.
		"a column of another type": func(p *pb.Plan) {
			p.AdvancedExtensions = nil
			read(p).BaseSchema.Struct.Types[0] = &pb.Type{Kind: &pb.Type_String_{String_: &pb.Type_String{Nullability: pb.Type_NULLABILITY_REQUIRED}}}
		},
		"a column the input lacks": func(p *pb.Plan) {
			p.AdvancedExtensions = nil
			read(p).BaseSchema.Names[1] = "nom"
		},
		"an unknown extension function": func(p *pb.Plan) {
			p.Extensions[0].GetExtensionFunction().Name = "frobnicate:i64_i64"
		},
		"a dangling extension URN": func(p *pb.Plan) { p.Extensions[0].GetExtensionFunction().ExtensionUrnReference = 99 },
		"an emit out of range": func(p *pb.Plan) {
			p.Relations[0].GetRoot().Input.GetProject().Common.GetEmit().OutputMapping[0] = 17
		},
		"too few names": func(p *pb.Plan) { p.Relations[0].GetRoot().Names = []string{"n"} },
		"a filter not bool": func(p *pb.Plan) {
			p.Relations[0].GetRoot().Input.GetProject().Input.GetFilter().Condition = p.Relations[0].GetRoot().Input.GetProject().Expressions[1]
		},
		"no base schema": func(p *pb.Plan) { read(p).BaseSchema = nil },
		"a named table, no name": func(p *pb.Plan) {
			read(p).ReadType = &pb.ReadRel_NamedTable_{NamedTable: &pb.ReadRel_NamedTable{}}
		},
	}
	for i := range g.cases {
		c := &g.cases[i]
		mutate, ok := cases[c.title]
		if !ok {
			t.Fatalf("no case %q", c.title)
		}
		delete(cases, c.title)
		msg := base(t)
		mutate(msg)
		_, err := ImportPlan(msg, scope)
		if err == nil {
			c.got = "no error"
			t.Errorf("%s: imports", c.title)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !(errors.Is(err, ErrUnsupported) || errors.Is(err, ErrInvalid)) {
			t.Errorf("%s: %v is not an *Error wrapping ErrUnsupported or ErrInvalid", c.title, err)
		}
		c.got = err.Error()
	}
	for title := range cases {
		t.Errorf("case %q has no entry in the golden file", title)
	}
	g.check(t)
}

// TestPlanTruncated: every prefix of a plan's protobuf form reads as a
// plan and imports, or is an error; none panics.
func TestPlanTruncated(t *testing.T) {
	scope := expr.ScopeOf(planSchema)
	msg, err := planOf(t, scope, "name LIKE 'a%' AND day > DATE '2020-01-01'", "a=pt.a + 1", "t=list_transform(tags, x -> x * 2)")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := MarshalPlan(msg)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for n := 0; n < len(bin); n++ {
		p, err := UnmarshalPlan(bin[:n])
		if err == nil {
			_, err = ImportPlan(p, scope)
		}
		if err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("every prefix of a %d-byte plan imports", len(bin))
	}
}

// TestUnmarshalAny tells plans from ExtendedExpressions in both forms.
func TestUnmarshalAny(t *testing.T) {
	scope := expr.ScopeOf(planSchema)
	plan, err := planOf(t, scope, "id > 1", "n=name")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := Options{PruneSchema: true}.Export(bindText(t, "id > 1", scope), scope)
	if err != nil {
		t.Fatal(err)
	}
	pj, _ := MarshalPlanJSON(plan)
	pbin, _ := MarshalPlan(plan)
	ej, _ := MarshalJSON(ext)
	ebin, _ := Marshal(ext)
	for _, c := range []struct {
		name string
		data []byte
		plan bool
	}{{"plan JSON", pj, true}, {"plan binary", pbin, true}, {"expression JSON", ej, false}, {"expression binary", ebin, false}} {
		m, err := UnmarshalAny(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if _, isPlan := m.(*pb.Plan); isPlan != c.plan {
			t.Errorf("%s: read as %T", c.name, m)
		}
	}
	for _, bad := range []string{`{"query": 1}`, `{}`, "\x0a\x02", ""} {
		if _, err := UnmarshalAny([]byte(bad)); err == nil {
			t.Errorf("%q reads as a message", bad)
		}
	}
}

// TestPlanRoundTripRandom exports random queries — a filter and select
// items drawn by the expression generator — as plans, writes them as JSON
// and as protobuf, reads and imports them, and runs both the query and
// its import over random rows: the rows (or the error) must be the same.
// Each plan must also satisfy substrait-go's reader.
func TestPlanRoundTripRandom(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	scope := expr.ScopeOf(testSchema)
	boolT := dtype.Bool(true)
	ran, refused, failedBoth, skipped := 0, 0, 0, 0
	for seed := 0; seed < *planTrips; seed++ {
		g := newGen(uint64(seed) + 1_000_000)
		q, ok := g.query(boolT)
		if !ok {
			skipped++
			continue
		}
		msg, err := ExportPlan(scope, q)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("seed %d: export: %v", seed, err)
			}
			refused++
			continue
		}
		validatePlan(t, msg)
		js, err := MarshalPlanJSON(msg)
		if err != nil {
			t.Fatal(err)
		}
		bin, err := MarshalPlan(msg)
		if err != nil {
			t.Fatal(err)
		}
		rec := g.record(mem, 40)
		want, wantErr := runQuery(mem, q, rec)
		for _, data := range [][]byte{js, bin} {
			back, err := UnmarshalPlan(data)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			got, err := ImportPlan(back, scope)
			if err != nil {
				t.Fatalf("seed %d: import of\n%s\n%v", seed, js, err)
			}
			rows, gotErr := runQuery(mem, *got, rec)
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Fatalf("seed %d: the query gives error %v, its plan's import %v\n%s", seed, wantErr, gotErr, q.describe())
			case wantErr == nil && rows != want:
				t.Fatalf("seed %d: the query gives\n%s\nits plan's import\n%s\nquery:\n%s\nimported:\n%s", seed, want, rows, q.describe(), got.describe())
			}
		}
		rec.Release()
		if wantErr != nil {
			failedBoth++
		}
		ran++
	}
	t.Logf("%d of %d random queries ran the same through a plan (%d failing the same way), %d refused on export, %d not generated", ran, *planTrips, failedBoth, refused, skipped)
	if ran < *planTrips/3 {
		t.Errorf("only %d of %d random queries exported", ran, *planTrips)
	}
}

// query is a random query: a filter (3 times in 4, also the best-effort
// filter half of those times) and up to 3 select items (4 times in 5).
// ok is false when the generator cannot make one: it has no values of
// some types a call can return (intervals), and panics on them.
func (g *gen) query(boolT dtype.DType) (q PlanQuery, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	q = PlanQuery{Files: []File{{Path: "/data/t.arrow", Format: Arrow}}}
	if g.pick(4) != 0 {
		q.Where = g.expr(&boolT, 3)
		if g.pick(2) == 0 {
			q.BestEffortFilter = q.Where
		}
	}
	if g.pick(5) != 0 {
		for i := 0; i <= g.pick(3); i++ {
			q.Select = append(q.Select, Named{Name: fmt.Sprintf("c%d", i), Expr: g.expr(nil, 3)})
		}
	}
	return q, true
}

// record is a batch of n random rows of testSchema.
func (g *gen) record(mem memory.Allocator, n int) arrow.RecordBatch {
	sch, err := dtype.ToArrowSchema(testSchema)
	if err != nil {
		panic(err)
	}
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	for i := 0; i < n; i++ {
		row := g.scalar(testSchema).Value().([]scalar.Scalar)
		for j, v := range row {
			if err := scalar.Append(b.Field(j), v); err != nil {
				panic(err)
			}
		}
	}
	return b.NewRecordBatch()
}

// runQuery runs q over rec as a scan would: the rows where Where is true,
// as the Select expressions (every column when there are none), printed
// one row a line; or the first error.
func runQuery(mem memory.Allocator, q PlanQuery, rec arrow.RecordBatch) (string, error) {
	kept := rec
	kept.Retain()
	if q.Where != nil {
		f, err := eval.Filter(mem, q.Where, rec)
		kept.Release()
		if err != nil {
			return "", err
		}
		kept = f
	}
	defer kept.Release()
	var cols []arrow.Array
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	var types []dtype.DType
	if q.Select == nil {
		for i, f := range testSchema.Fields() {
			c := kept.Column(i)
			c.Retain()
			cols, types = append(cols, c), append(types, f.Type)
		}
	}
	for _, n := range q.Select {
		c, err := eval.EvalRecord(mem, n.Expr, kept)
		if err != nil {
			return "", err
		}
		cols, types = append(cols, c), append(types, n.Expr.DType())
	}
	var b strings.Builder
	for r := 0; r < int(kept.NumRows()); r++ {
		for i, c := range cols {
			v, err := scalar.FromArray(c, r, types[i])
			if err != nil {
				return "", err
			}
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(v.String())
		}
		b.WriteByte('\n')
	}
	// The output names: every column's, or the select items'.
	for _, f := range testSchema.Fields() {
		if q.Select == nil {
			b.WriteString(f.Name + " ")
		}
	}
	for _, n := range q.Select {
		b.WriteString(n.Name + " ")
	}
	return b.String(), nil
}

// TestPlanImportShapes: plans of the shape colexpr runs, written as other
// producers write them (emits that pass input columns through, a plain
// relation without a root, a read's own filter, no projection, no colexpr
// hints), and the query each imports as.
func TestPlanImportShapes(t *testing.T) {
	scope := expr.ScopeOf(planSchema)
	root := func(p *pb.Plan) *pb.RelRoot { return p.Relations[0].GetRoot() }
	read := func(p *pb.Plan) *pb.ReadRel {
		return root(p).Input.GetProject().Input.GetFilter().Input.GetRead()
	}
	cases := map[string]func(p *pb.Plan){
		"as exported": func(p *pb.Plan) {},
		"an emit passing a column through": func(p *pb.Plan) {
			root(p).Input.GetProject().Common.GetEmit().OutputMapping = []int32{0, 3}
			root(p).Names = []string{"key", "n"}
		},
		"a plain relation: no root, no names": func(p *pb.Plan) {
			p.Relations[0] = &pb.PlanRel{RelType: &pb.PlanRel_Rel{Rel: root(p).Input}}
		},
		"a named table whose read filters": func(p *pb.Plan) {
			r := read(p)
			r.ReadType = &pb.ReadRel_NamedTable_{NamedTable: &pb.ReadRel_NamedTable{Names: []string{"db", "t"}}}
			r.Filter, r.BestEffortFilter = r.BestEffortFilter, nil
		},
		"no projection: every column is read": func(p *pb.Plan) {
			// The expressions' field indices are then the base schema's:
			// name is 1 in both, price 2; the project's direct output is
			// the 7 columns, then the expressions.
			read(p).Projection = nil
			root(p).Input.GetProject().Common.GetEmit().OutputMapping = []int32{7, 8}
		},
		"no project: the filter's output": func(p *pb.Plan) {
			root(p).Input = root(p).Input.GetProject().Input
			root(p).Names = []string{"id", "name", "price"}
			// The hints number the expressions, which are fewer now.
			p.AdvancedExtensions, p.ExpectedTypeUrls = nil, nil
		},
		"no colexpr hints": func(p *pb.Plan) {
			p.AdvancedExtensions, p.ExpectedTypeUrls = nil, nil
		},
	}
	g := readGolden(t, "plan_import.txt")
	for i := range g.cases {
		c := &g.cases[i]
		mutate, ok := cases[c.title]
		if !ok {
			t.Fatalf("no case %q", c.title)
		}
		delete(cases, c.title)
		msg, err := planOf(t, scope, "id > 1 AND name LIKE 'a%'", "n=name", "p=price * 2")
		if err != nil {
			t.Fatal(err)
		}
		mutate(msg)
		q, err := ImportPlan(msg, scope)
		if err != nil {
			c.got = "error: " + err.Error()
			t.Errorf("%s: %v", c.title, err)
			continue
		}
		c.got = q.describe()
	}
	for title := range cases {
		t.Errorf("case %q has no entry in the golden file", title)
	}
	g.check(t)
}
