package scalar_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

func ExampleScalar_SQL() {
	list, _ := scalar.New(dtype.List(dtype.Primitive(dtype.I32, true), false),
		[]scalar.Scalar{scalar.Int32(1), scalar.Null(dtype.Null())})
	for _, s := range []scalar.Scalar{
		scalar.Int32(5),
		scalar.Int64(-5),
		scalar.Float64(2.5),
		scalar.Float64(math.NaN()),
		scalar.Decimal(decimal128.FromI64(1250), 15, 2),
		scalar.String("it's"),
		scalar.Binary([]byte{0, 0xff}),
		scalar.Date(9131),
		scalar.Timestamp(dtype.Nano, "", 788961600123456789),
		scalar.Null(dtype.Primitive(dtype.I32, false)),
		list,
	} {
		fmt.Println(s.SQL())
	}
	// Output:
	// 5::i32
	// -5::i64
	// 2.5::f64
	// 'NaN'::f64
	// 12.50::decimal(15,2)
	// 'it''s'
	// x'00ff'
	// DATE '1995-01-01'
	// '1995-01-01 12:00:00.123456789'::timestamp(ns)
	// null::i32?
	// [1::i32?, null::i32?]
}

func ExampleCast() {
	show := func(s scalar.Scalar, to string) {
		t, _ := dtype.Parse(to)
		v, err := scalar.Cast(s, t)
		if err != nil {
			fmt.Println(err, "| overflow:", errors.Is(err, errs.ErrOverflow))
			return
		}
		fmt.Println(v)
	}
	show(scalar.Float64(2.5), "i32")                             // ties to even
	show(scalar.Decimal(decimal128.FromI64(25), 2, 1), "i32")    // half away from zero
	show(scalar.Float64(2.675), "decimal(3,2)")                  // from the shortest text
	show(scalar.Float64(1e20), "utf8")                           // as DuckDB prints it
	show(scalar.String(" 1995-01-01 12:00:00+02 "), "timestamp") // to UTC
	show(scalar.Int32(300), "i8")
	show(scalar.String("abc"), "f64")
	show(scalar.String("1.5 days ago"), "interval") // DuckDB's interval text
	// Output:
	// 2::i32
	// 3::i32
	// 2.68::decimal(3,2)
	// '1e+20'
	// TIMESTAMP '1995-01-01 10:00:00'
	// scalar: cannot cast 300::i32 to i8: out of range | overflow: true
	// scalar: cannot cast 'abc' to f64: not a number | overflow: false
	// INTERVAL '-1 day -12:00:00'
}

func ExampleTryCast() {
	fmt.Println(scalar.TryCast(scalar.String("12"), dtype.Primitive(dtype.I16, false)))
	fmt.Println(scalar.TryCast(scalar.String("x"), dtype.Primitive(dtype.I16, false)))
	// Output:
	// 12::i16
	// null::i16?
}

func ExampleParseNumber() {
	for _, text := range []string{"5", "3000000000", "0.05", "1.5", "1e3", "18446744073709551615"} {
		s, _ := scalar.ParseNumber(text)
		fmt.Printf("%-22s %-14s %s\n", text, s.DType(), s.ValueText())
	}
	// Output:
	// 5                      i32            5
	// 3000000000             i64            3000000000
	// 0.05                   decimal(3,2)   0.05
	// 1.5                    decimal(2,1)   1.5
	// 1e3                    f64            1e+03
	// 18446744073709551615   u64            18446744073709551615
}

func ExampleMakeArray() {
	mem := memory.NewGoAllocator()
	arr, _ := scalar.MakeArray(mem, scalar.String("ab"), 3)
	defer arr.Release()
	fmt.Println(arr)
	row, _ := scalar.FromArray(arr, 2, dtype.Utf8(false))
	fmt.Println(row)
	// Output:
	// ["ab" "ab" "ab"]
	// 'ab'
}
