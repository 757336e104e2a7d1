package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/scan"
	"github.com/colexpr/colexpr/substrait"
)

// A compiled query as a Substrait plan: over the demo table it reads the
// named table lineitem (scan.DemoTable); the read projects the columns the
// query reads, its best-effort filter is the part of the filter row groups
// can be skipped by, and the root names the output columns.
func ExamplePlan_Substrait() {
	src := scan.Demo(memory.NewGoAllocator(), 1000)
	defer src.Close()
	plan, err := scan.Compile(src, scan.Query{
		Where:  &scan.Expr{Text: "l_shipdate < DATE '1993-01-01' AND l_comment LIKE '%ironic%'"},
		Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_extendedprice * l_discount", Name: "discount"}},
	}, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	msg, err := plan.Substrait()
	if err != nil {
		fmt.Println(err)
		return
	}
	root := msg.Relations[0].GetRoot()
	project := root.GetInput().GetProject()
	filter := project.GetInput().GetFilter()
	read := filter.GetInput().GetRead()
	fmt.Println("output:", root.GetNames())
	fmt.Println("table:", read.GetNamedTable().GetNames())
	var cols []string
	for _, item := range read.GetProjection().GetSelect().GetStructItems() {
		cols = append(cols, read.GetBaseSchema().GetNames()[item.GetField()])
	}
	fmt.Println("read:", cols)
	fmt.Println("best-effort filter:", read.GetBestEffortFilter().GetScalarFunction() != nil)
	fmt.Println("project expressions:", len(project.GetExpressions()))
	// Output:
	// output: [l_orderkey discount]
	// table: [lineitem]
	// read: [l_orderkey l_extendedprice l_discount l_shipdate l_comment]
	// best-effort filter: true
	// project expressions: 2
}

// Run a plan another tool wrote: OpenPlan opens the files it reads and
// imports its query, which Compile plans as any other. Here the plan is
// colexpr's own, written as JSON next to the Parquet file it reads.
func ExampleOpenPlan() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	mem := memory.NewGoAllocator()

	// A Parquet file of some of the demo table's rows and columns.
	demo := scan.Demo(mem, 1000)
	defer demo.Close()
	path := filepath.Join(dir, "lineitem.parquet")
	sample, err := scan.Compile(demo, scan.Query{
		Select: []scan.Expr{{Text: "l_orderkey"}, {Text: "l_quantity"}, {Text: "l_shipmode"}},
	}, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := sample.Read(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	err = scan.WriteParquet(path, rr, scan.ParquetOptions{})
	rr.Release()
	if err != nil {
		fmt.Println(err)
		return
	}

	// The plan of a query over it, as JSON (colexpr explain --substrait-plan).
	src, err := scan.Open(mem, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := scan.Compile(src, scan.Query{
		Where:  &scan.Expr{Text: "l_quantity < 2 AND l_shipmode = 'AIR'"},
		Select: []scan.Expr{{Text: "l_orderkey"}},
	}, scan.Options{})
	src.Close()
	if err != nil {
		fmt.Println(err)
		return
	}
	msg, err := plan.Substrait()
	if err != nil {
		fmt.Println(err)
		return
	}
	js, err := substrait.MarshalPlanJSON(msg)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Run it (colexpr query --substrait plan.json).
	m, err := substrait.UnmarshalAny(js)
	if err != nil {
		fmt.Println(err)
		return
	}
	in, q, err := scan.OpenPlan(mem, m.(*pb.Plan), nil, scan.DatasetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Close()
	printRows(in, q)
	// Output:
	// l_orderkey int64
	// 261
	// 1825
	// 2051
	// 3844
}
