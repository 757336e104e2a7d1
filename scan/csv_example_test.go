package scan_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/scan"
)

// A CSV file whose column n holds integers for its first rows, then a word:
// inferred from the first two rows, n is an i64 and the word is an error
// that says where it is; given the type utf8, n reads whole.
func ExampleOpenCSV() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.csv")
	os.WriteFile(path, []byte("n,at\n1,2020-01-01 10:00:00\n2,2020-01-02 11:30:00\nmany,\n"), 0o644)

	count := func(o scan.CSVOptions) {
		src, err := scan.OpenCSV(memory.NewGoAllocator(), path, o)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer src.Close()
		fmt.Println(src.Schema().Arrow)
		plan, err := scan.Compile(src, scan.Query{Where: &scan.Expr{Text: "at IS NULL"}}, scan.Options{})
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
			fmt.Println("rows without a time:", rr.RecordBatch().NumRows())
		}
		var ve *scan.CSVValueError
		if errors.As(rr.Err(), &ve) {
			fmt.Printf("line %d, column %s: %q does not fit %s; %s would hold it\n",
				ve.Line, ve.Name, ve.Value, scan.CSVTypeName(ve.Type), scan.CSVTypeName(ve.Fits))
		}
	}
	count(scan.CSVOptions{InferRows: 2})
	count(scan.CSVOptions{InferRows: 2, Types: map[string]arrow.DataType{"n": arrow.BinaryTypes.String}})
	// Output:
	// schema:
	//   fields: 2
	//     - n: type=int64, nullable
	//     - at: type=timestamp[us], nullable
	// line 4, column n: "many" does not fit i64; utf8 would hold it
	// schema:
	//   fields: 2
	//     - n: type=utf8, nullable
	//     - at: type=timestamp[us], nullable
	// rows without a time: 1
}
