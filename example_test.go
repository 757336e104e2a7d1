package colexpr_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr"
)

// lineitems is a three-row batch of prices, discounts and ship modes.
func lineitems(mem memory.Allocator) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "discount", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ship_mode", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{120, 90, 300}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.1, 0, 0.5}, nil)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"AIR", "MAIL", ""}, []bool{true, true, false})
	b.Field(3).(*array.Int32Builder).AppendValues([]int32{2147483647, 1, 5}, nil)
	return b.NewRecordBatch()
}

func Example() {
	mem := memory.NewGoAllocator()
	rec := lineitems(mem)
	defer rec.Release()

	p, err := colexpr.Compile("price * (1 - discount) > 100 AND ship_mode IN ('AIR', 'MAIL')", rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("type:", p.DType())
	mask, err := p.Eval(mem, rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer mask.Release()
	fmt.Println("mask:", mask)

	kept, err := p.Filter(mem, rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer kept.Release()
	fmt.Println("rows kept:", kept.NumRows())
	// Output:
	// type: bool?
	// mask: [true false (null)]
	// rows kept: 1
}

func ExampleCompile_overflow() {
	mem := memory.NewGoAllocator()
	rec := lineitems(mem)
	defer rec.Release()

	p, err := colexpr.Compile("qty + 1", rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = p.Eval(mem, rec)
	fmt.Println(err)
	fmt.Println(errors.Is(err, colexpr.ErrOverflow))
	// Output:
	// eval: add: row 0: overflow: 2147483647 + 1 does not fit i32 (in `qty + 1`)
	// true
}

// A schema with a column colexpr cannot type still compiles expressions
// that do not use it; one that does is told why it cannot.
func ExampleNewSchema() {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "note", Type: arrow.BinaryTypes.LargeString},
	}, nil)
	s := colexpr.NewSchema(sc)
	fmt.Println("root:", s.Root)
	p, err := s.Compile("qty * 2 > 10", nil)
	fmt.Println(p, err)
	_, err = s.Compile("note IS NULL", nil)
	fmt.Println(err)
	_, err = s.Compile("qyt > 1", nil)
	fmt.Println(err)
	// Output:
	// root: struct<qty: i32>
	// qty * 2 > 10 <nil>
	// column note cannot be read: colexpr does not support its Arrow type large_utf8
	//   note IS NULL
	//   ^
	// unknown column "qyt"; did you mean qty?
	//   qyt > 1
	//   ^
}

// A dictionary-encoded column (a pandas categorical, say) has the type of
// its values: expressions compare and compute with the values, and Filter
// keeps the column encoded.
func ExampleNewSchema_dictionary() {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "mode", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	modes := b.Field(0).(*array.BinaryDictionaryBuilder)
	for _, m := range []string{"AIR", "MAIL", "", "AIR"} {
		if m == "" {
			modes.AppendNull()
		} else if err := modes.AppendString(m); err != nil {
			panic(err)
		}
	}
	b.Field(1).(*array.Int32Builder).AppendValues([]int32{5, 3, 8, 1}, nil)
	batch := b.NewRecordBatch()
	defer batch.Release()

	s := colexpr.NewSchema(schema)
	fmt.Println("root:", s.Root)
	p, err := s.Compile("lower(mode) || '-' || qty", nil)
	if err != nil {
		panic(err)
	}
	out, err := p.Eval(mem, batch)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out)
	p, err = s.Compile("mode = 'AIR'", nil)
	if err != nil {
		panic(err)
	}
	kept, err := p.Filter(mem, batch)
	if err != nil {
		panic(err)
	}
	defer kept.Release()
	fmt.Println(kept.Schema().Field(0).Type, kept.Column(0).(*array.Dictionary).Dictionary(), kept.Column(1))
	// Output:
	// root: struct<mode: utf8?, qty: i32>
	// ["air-5" "mail-3" (null) "air-1"]
	// dictionary<values=utf8, indices=int8, ordered=false> ["AIR" "MAIL"] [5 1]
}

// now(), current_timestamp, today() and current_date stand for one
// instant, the time of Compile or Options.Now, in every batch the program
// evaluates; the optimizer folds them, so the filter below is a
// comparison with a constant date.
func ExampleOptions_now() {
	sc := arrow.NewSchema([]arrow.Field{{Name: "shipped", Type: arrow.FixedWidthTypes.Date32}}, nil)
	at := time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)
	p, err := colexpr.NewSchema(sc).Compile("shipped >= current_date - INTERVAL 7 DAY", &colexpr.Options{Now: at})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)

	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	b.Field(0).(*array.Date32Builder).AppendValues([]arrow.Date32{
		arrow.Date32FromTime(at.AddDate(0, 0, -10)), arrow.Date32FromTime(at.AddDate(0, 0, -2)),
	}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	out, err := p.Eval(mem, rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Release()
	fmt.Println(out)
	// Output:
	// CAST(shipped AS timestamp(us)) >= TIMESTAMP '2026-11-26 00:00:00'
	// [false true]
}
