package scan_test

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
	"github.com/colexpr/colexpr/substrait"
)

// Scan the demo table: the rows of one ship date, as two computed columns.
func Example() {
	mem := memory.NewGoAllocator()
	src := scan.Demo(mem, 10_000)
	defer src.Close()
	plan, err := scan.Compile(src, scan.Query{
		Where: &scan.Expr{Text: "l_shipdate = DATE '1996-03-13' AND l_quantity < 30"},
		Select: []scan.Expr{
			{Text: "l_orderkey"},
			{Text: "l_extendedprice * (1 - l_discount)", Name: "revenue"},
		},
	}, scan.Options{Threads: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("reads:", plan.Columns())
	fmt.Println("output:", plan.Schema())
	rr, err := plan.Read(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			fmt.Println(rec.Column(0).ValueStr(i), rec.Column(1).ValueStr(i))
		}
	}
	if err := rr.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// reads: [l_orderkey l_quantity l_extendedprice l_discount l_shipdate]
	// output: schema:
	//   fields: 2
	//     - l_orderkey: type=int64
	//     - revenue: type=decimal(31, 4)
	// 23077 22591.0485
	// 32003 16555.96
	// 32548 26589.78
	// 34817 31329.6
}

// A column the optimizer removes is not read: l_comment has no nulls, so
// 'l_comment IS NOT NULL' is true for every row.
func ExampleCompile_removedColumn() {
	src := scan.Demo(memory.NewGoAllocator(), 100)
	defer src.Close()
	plan, err := scan.Compile(src, scan.Query{
		Where:  &scan.Expr{Text: "l_comment IS NOT NULL"},
		Select: []scan.Expr{{Text: "l_orderkey"}},
	}, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("filter:", plan.Where)
	fmt.Println("reads:", plan.Columns())
	// Output:
	// filter: true
	// reads: [l_orderkey]
}

// A filter from another engine, as a Substrait ExtendedExpression: here
// made by colexpr's own export, as `colexpr explain --substrait` does.
func ExampleSubstraitExprs() {
	src := scan.Demo(memory.NewGoAllocator(), 1000)
	defer src.Close()
	sch := src.Schema()
	prog, err := sch.Compile("l_quantity < 2 AND l_shipmode = 'AIR'", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	msg, err := substrait.Export(prog.Bound(), sch.Scope())
	if err != nil {
		fmt.Println(err)
		return
	}
	exprs, err := scan.SubstraitExprs(sch, msg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := scan.Compile(src, scan.Query{Where: &exprs[0], Select: []scan.Expr{{Text: "l_orderkey"}}}, scan.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rr, err := plan.Read(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rr.Release()
	for rr.Next() {
		fmt.Println(rr.RecordBatch().Column(0))
	}
	// Output:
	// [261 1825 2051 3844]
}
