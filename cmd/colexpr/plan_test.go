package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/scan"
	"github.com/colexpr/colexpr/substrait"
)

// writePlanFixtures writes the Substrait plans the CLI cases run: what
// explain --substrait-plan writes for a few queries of the fixture files
// (their paths are the fixture directory's), and plans colexpr refuses.
func writePlanFixtures(t testing.TB, dir string) {
	t.Helper()
	plan := func(name, input, where, selects string) []byte {
		t.Helper()
		var inputs []string
		if input != "" {
			inputs = []string{filepath.Join(dir, input)}
		}
		src, err := openInputs(&env{}, memory.DefaultAllocator, inputs, 100, &csvFlags{})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		js, err := exportSubstraitPlan(src, where, selects)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), js, 0o644); err != nil {
			t.Fatal(err)
		}
		return js
	}
	plan("plan_parquet.json", "fixture.parquet", "id > 4", "id, name, price * 2 AS double")
	plan("plan_csv.json", "fixture.csv", "id >= 2", "id, x, day, name")
	plan("plan_all.json", "fixture.arrow", "", "")
	plan("plan_lineitem.json", "", "l_quantity < 24", "l_orderkey, l_quantity")
	// A join of the plan with itself: colexpr runs no joins.
	js := plan("plan_join.json", "fixture.parquet", "id > 4", "id")
	msg, err := substrait.UnmarshalPlan(js)
	if err != nil {
		t.Fatal(err)
	}
	root := msg.Relations[0].GetRoot()
	root.Input = &pb.Rel{RelType: &pb.Rel_Join{Join: &pb.JoinRel{Left: root.Input, Right: root.Input, Type: pb.JoinRel_JOIN_TYPE_INNER}}}
	if js, err = substrait.MarshalPlanJSON(msg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan_join.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	// The binary form, which query --substrait tells from an
	// ExtendedExpression's.
	js = plan("plan_binary.pb", "fixture.parquet", "name IS NOT NULL", "name")
	msg, err = substrait.UnmarshalPlan(js)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := substrait.MarshalPlan(msg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan_binary.pb"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSubstraitPlanAgrees checks, with the binary, that the plan explain
// --substrait-plan writes runs as the query it was made from: the same
// output for each input format, from JSON.
func TestSubstraitPlanAgrees(t *testing.T) {
	bin := colexprBinary(t)
	dir, files := fixtureFiles(t)
	cases := []struct{ file, where, list string }{
		{files[".parquet"], "id > 2 AND small IS NOT NULL", "id, big + small AS total, name"},
		{files[".arrow"], "price > 1", "id, CAST(id AS utf8) AS label, pt.a, tags"},
		{files[".csv"], "", "id, x * 2 AS x2"},
		{files[".parquet"], "name LIKE 'p%' OR id = 1", ""},
		{"", "l_quantity < 24 AND l_shipmode IN ('AIR', 'MAIL')", "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue"},
	}
	for i, c := range cases {
		args := []string{"--format", "csv", "--demo-rows", "500"}
		if c.where != "" {
			args = append(args, "--where", c.where)
		}
		if c.list != "" {
			args = append(args, "--select", c.list)
		}
		var inputs []string
		if c.file != "" {
			inputs = []string{c.file}
		}
		want, err := exec.Command(bin, append(append([]string{"query"}, args...), inputs...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("case %d: query: %v\n%s", i, err, want)
		}
		explainArgs := []string{"explain", "--substrait-plan"}
		if c.where != "" {
			explainArgs = append(explainArgs, "--where", c.where)
		}
		if c.list != "" {
			explainArgs = append(explainArgs, "--select", c.list)
		}
		js, err := exec.Command(bin, append(explainArgs, inputs...)...).Output()
		if err != nil {
			t.Fatalf("case %d: explain: %v", i, err)
		}
		path := filepath.Join(dir, "agree.json")
		if err := os.WriteFile(path, js, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := exec.Command(bin, "query", "--format", "csv", "--demo-rows", "500", "--substrait", path).CombinedOutput()
		if err != nil {
			t.Fatalf("case %d: query --substrait: %v\n%s", i, err, got)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d: the plan gives\n%s\nthe query\n%s", i, got, want)
		}
	}
}

// TestSubstraitPlanLibrary runs a plan through the library alone:
// scan.OpenPlan of the plan the scan.Plan wrote, with no bytes left
// allocated.
func TestSubstraitPlanLibrary(t *testing.T) {
	_, files := fixtureFiles(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	src, err := scan.Open(mem, files[".parquet"])
	if err != nil {
		t.Fatal(err)
	}
	q, err := queryOf("id > 2", "id, name")
	if err != nil {
		t.Fatal(err)
	}
	p, err := scan.Compile(src, q, scan.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := p.Substrait()
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	src2, q2, err := scan.OpenPlan(mem, msg, nil, scan.DatasetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	p2, err := scan.Compile(src2, q2, scan.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := p2.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for rr.Next() {
		rows += int(rr.RecordBatch().NumRows())
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	rr.Release()
	if rows != 4 {
		t.Errorf("%d rows, want 4 (ids 3 to 6)", rows)
	}
}
