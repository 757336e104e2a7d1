package render_test

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/internal/render"
)

// Text and JSON of the values DuckDB prints its own way: a decimal with
// its scale, a timestamp without a zone (no Z), binary, a list and a
// struct; a null is the format's to print.
func Example() {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "raw", Type: arrow.BinaryTypes.Binary},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String)},
		{Name: "dims", Type: arrow.StructOf(arrow.Field{Name: "w", Type: arrow.PrimitiveTypes.Float64}, arrow.Field{Name: "h", Type: arrow.PrimitiveTypes.Float64})},
	}, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(`[
		{"price": "41.5", "at": "1995-03-01T12:00:00.25", "raw": "AP9B", "tags": ["a", "b"], "dims": {"w": 1.5, "h": 2}},
		{"price": null, "at": "1995-03-01T00:00:00", "raw": "Jw==", "tags": [], "dims": {"w": 0, "h": 0}}
	]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Release()
	for i := range int(rec.NumRows()) {
		var text, json []string
		for _, col := range rec.Columns() {
			if render.IsNull(col, i) {
				text = append(text, "NULL")
			} else {
				text = append(text, string(render.Text(col)(nil, i)))
			}
			json = append(json, string(render.JSON(col)(nil, i)))
		}
		fmt.Println(strings.Join(text, " | "))
		fmt.Println(strings.Join(json, " | "))
	}
	// Output:
	// 41.50 | 1995-03-01 12:00:00.25 | \x00\xFFA | ["a","b"] | {"w":1.5,"h":2}
	// "41.50" | "1995-03-01 12:00:00.25" | "AP9B" | ["a","b"] | {"w":1.5,"h":2}
	// NULL | 1995-03-01 00:00:00 | \x27 | [] | {"w":0,"h":0}
	// null | "1995-03-01 00:00:00" | "Jw==" | [] | {"w":0,"h":0}
}
