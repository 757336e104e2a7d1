package scan

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/partition"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// statsSchema has a column of every type whose Parquet statistics colexpr
// reads, and a nullable struct (its fields are null where it is).
var statsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
	{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
	{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	{Name: "f16", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "d9", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}, Nullable: true},
	{Name: "d18", Type: &arrow.Decimal128Type{Precision: 18, Scale: 3}, Nullable: true},
	{Name: "d38", Type: &arrow.Decimal128Type{Precision: 38, Scale: 10}, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "t_s", Type: arrow.FixedWidthTypes.Time32s, Nullable: true},
	{Name: "t_ms", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
	{Name: "t_us", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	{Name: "t_ns", Type: arrow.FixedWidthTypes.Time64ns, Nullable: true},
	{Name: "ts_s", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true},
	{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "z", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
}, nil)

// statsRecord is n rows of random values for statsSchema: about one in
// seven null, extremes of every type, NaN and both zeros, multi-byte text.
// Group g of the rows (of groupRows each) draws from a range that moves
// with g, so row groups have different bounds.
func statsRecord(t *testing.T, mem memory.Allocator, n, groupRows int, seed uint64) arrow.RecordBatch {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	b := array.NewRecordBuilder(mem, statsSchema)
	defer b.Release()
	words := []string{"apple", "Äpfel", "zebra", "ünïcødé", "", "a", "aa", "✓ check", "mid"}
	for i := 0; i < n; i++ {
		g := int64(i / groupRows)
		extreme := r.IntN(40) == 0
		for j, fb := range b.Fields() {
			if j != len(b.Fields())-1 && r.IntN(7) == 0 {
				fb.AppendNull()
				continue
			}
			base := g*100 + int64(r.IntN(100)) - 300
			switch fb := fb.(type) {
			case *array.Int8Builder:
				v := int8(base % 128)
				if extreme {
					v = []int8{math.MinInt8, math.MaxInt8}[r.IntN(2)]
				}
				fb.Append(v)
			case *array.Int16Builder:
				fb.Append(int16(base))
			case *array.Int32Builder:
				v := int32(base)
				if extreme {
					v = []int32{math.MinInt32, math.MaxInt32}[r.IntN(2)]
				}
				fb.Append(v)
			case *array.Int64Builder:
				v := base * 1_000_000_007
				if extreme {
					v = []int64{math.MinInt64, math.MaxInt64}[r.IntN(2)]
				}
				fb.Append(v)
			case *array.Uint8Builder:
				fb.Append(uint8(uint64(base) % 256))
			case *array.Uint16Builder:
				fb.Append(uint16(base + 300))
			case *array.Uint32Builder:
				v := uint32(base + 300)
				if extreme {
					v = math.MaxUint32 // negative as an int32: the order must be unsigned
				}
				fb.Append(v)
			case *array.Uint64Builder:
				v := uint64(base + 300)
				if extreme {
					v = math.MaxUint64
				}
				fb.Append(v)
			case *array.Float16Builder:
				fb.Append(float16.New(float32(base) / 4))
			case *array.Float32Builder:
				v := float32(base) / 8
				switch r.IntN(20) {
				case 0:
					v = float32(math.NaN())
				case 1:
					v = float32(math.Copysign(0, -1))
				}
				fb.Append(v)
			case *array.Float64Builder:
				v := float64(base) / 16
				switch r.IntN(20) {
				case 0:
					v = math.NaN()
				case 1:
					v = math.Copysign(0, -1)
				case 2:
					v = math.Inf(1)
				}
				fb.Append(v)
			case *array.Decimal128Builder:
				p := fb.Type().(*arrow.Decimal128Type).Precision
				v := decimal128.FromI64(base * 12345)
				if extreme && p == 38 {
					v = decimal128.FromI64(-1).Mul(decimal128.GetMaxValue(38)) // the most negative
				}
				fb.Append(v)
			case *array.BooleanBuilder:
				fb.Append(base%3 == 0)
			case *array.StringBuilder:
				fb.Append(fmt.Sprintf("%s%03d", words[r.IntN(len(words))], g))
			case *array.BinaryBuilder:
				fb.Append([]byte{byte(g), byte(r.IntN(256)), 0xff})
			case *array.Date32Builder:
				fb.Append(arrow.Date32(base * 3))
			case *array.Time32Builder:
				unit := fb.Type().(*arrow.Time32Type).Unit
				fb.Append(arrow.Time32((base + 300) * 37 % (86400 * perSecond(unit))))
			case *array.Time64Builder:
				unit := fb.Type().(*arrow.Time64Type).Unit
				fb.Append(arrow.Time64((base + 300) * 1_000_003 % (86400 * perSecond(unit))))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(base * 1_000_000_007))
			case *array.StructBuilder:
				if r.IntN(5) == 0 {
					fb.AppendNull()
					continue
				}
				fb.Append(true)
				a := fb.FieldBuilder(0).(*array.Int32Builder)
				if r.IntN(4) == 0 {
					a.AppendNull()
				} else {
					a.Append(int32(base))
				}
				fb.FieldBuilder(1).(*array.StringBuilder).Append(words[r.IntN(len(words))])
			default:
				t.Fatalf("no values for %T", fb)
			}
		}
	}
	return b.NewRecordBatch()
}

func perSecond(u arrow.TimeUnit) int64 {
	return []int64{1, 1e3, 1e6, 1e9}[u]
}

// leafColumns are the pruner columns of every leaf of a root dtype.
func leafColumns(root dtype.DType) []prune.Column {
	var cols []prune.Column
	var walk func(path partition.FieldPath, t dtype.DType)
	walk = func(path partition.FieldPath, t dtype.DType) {
		if t.IsStruct() {
			for _, f := range t.Fields() {
				walk(append(append(partition.FieldPath{}, path...), f.Name), f.Type)
			}
			return
		}
		if !t.IsList() {
			cols = append(cols, prune.Column{Path: path, Type: t.AsNonNullable()})
		}
	}
	walk(nil, root)
	return cols
}

// writeStatsFile writes rec as Parquet with the given writer properties,
// in row groups of groupRows rows.
func writeStatsFile(t *testing.T, path string, rec arrow.RecordBatch, groupRows int, storeSchema bool, props ...parquet.WriterProperty) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	props = append([]parquet.WriterProperty{parquet.WithMaxRowGroupLength(int64(groupRows))}, props...)
	var aprops []pqarrow.WriterOption
	if storeSchema {
		aprops = append(aprops, pqarrow.WithStoreSchema())
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, parquet.NewWriterProperties(props...), pqarrow.NewArrowWriterProperties(aprops...))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRowGroupStatsBoundTheData writes files of every type in several
// encodings and checks, for every row group and leaf column, that the
// statistics read from the footer bound the data: the minimum is at most
// the least value, the maximum at least the greatest, the null count exact.
// And that, from arrow-go's files, every statistic is known whenever the
// group has a value (the conversion does not give up where it need not).
func TestRowGroupStatsBoundTheData(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows, groupRows = 3000, 400
	rec := statsRecord(t, mem, rows, groupRows, 42)
	defer rec.Release()
	dir := t.TempDir()
	variants := []struct {
		name        string
		storeSchema bool
		props       []parquet.WriterProperty
	}{
		{"default", true, nil},
		{"decimals as integers", true, []parquet.WriterProperty{parquet.WithStoreDecimalAsInteger(true)}},
		{"no stored schema", false, nil},
		{"dictionary off, v1 pages", true, []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV1)}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(v.name, " ", "_")+".parquet")
			writeStatsFile(t, path, rec, groupRows, v.storeSchema, v.props...)
			src, err := Open(mem, path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			full := src.Schema()
			if len(full.LeftOut) > 0 {
				t.Fatalf("columns left out: %v", full.LeftOut)
			}
			cols := leafColumns(full.Root)
			stats, err := src.groupStats(cols)
			if err != nil {
				t.Fatal(err)
			}
			if len(stats) != (rows+groupRows-1)/groupRows {
				t.Fatalf("%d row groups, want %d", len(stats), (rows+groupRows-1)/groupRows)
			}
			exact := &prune.Pruner{Columns: cols}
			scan, err := src.open(scanSpec{batchSize: rows, threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer scan.Close()
			var whole []arrow.RecordBatch
			for {
				b, err := scan.Next()
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				whole = append(whole, b)
			}
			defer func() {
				for _, b := range whole {
					b.Release()
				}
			}()
			tbl := array.NewTableFromRecords(whole[0].Schema(), whole)
			defer tbl.Release()
			tr := array.NewTableReader(tbl, groupRows)
			defer tr.Release()
			for g := 0; tr.Next(); g++ {
				st := array.RecordToStructArray(tr.RecordBatch())
				want, err := exact.ComputeStats(st)
				st.Release()
				if err != nil {
					t.Fatal(err)
				}
				got := stats[g]
				if got.RowCount != want.RowCount {
					t.Errorf("group %d: row count %d, want %d", g, got.RowCount, want.RowCount)
				}
				for i, c := range cols {
					checkBounds(t, fmt.Sprintf("group %d, %s (%s)", g, c.Key(), c.Type), got.Columns[i], want.Columns[i], want.RowCount)
				}
			}
		})
	}
}

// checkBounds checks that got (from a footer) bounds want (exact), and
// that got knows what arrow-go writes.
func checkBounds(t *testing.T, what string, got, want prune.ColumnStats, rows int64) {
	t.Helper()
	if got.NullCount != want.NullCount {
		t.Errorf("%s: null count %d, want %d", what, got.NullCount, want.NullCount)
	}
	if want.Min.IsNull() { // no value: nothing to bound
		return
	}
	if got.Min.IsNull() || got.Max.IsNull() {
		t.Errorf("%s: bounds unknown (min %v, max %v), want %v and %v", what, got.Min, got.Max, want.Min, want.Max)
		return
	}
	if !got.Min.DType().EqualIgnoreNullability(want.Min.DType()) {
		t.Fatalf("%s: min has type %s, want %s", what, got.Min.DType(), want.Min.DType())
	}
	if c, err := scalar.Compare(got.Min, want.Min); err != nil || c > 0 {
		t.Errorf("%s: min %v is above the least value %v (%v)", what, got.Min, want.Min, err)
	}
	if c, err := scalar.Compare(got.Max, want.Max); err != nil || c < 0 {
		t.Errorf("%s: max %v is below the greatest value %v (%v)", what, got.Max, want.Max, err)
	}
}

// TestRowGroupStatsDoubtfulBounds checks that bounds colexpr cannot be
// sure of are unknown: a maximum the writer dropped (longer than its
// limit) while it kept the minimum, and string maxima from a writer that
// may truncate them.
func TestRowGroupStatsDoubtfulBounds(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"b", "c" + strings.Repeat("z", 100)}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{-5, 7}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	dir := t.TempDir()
	cases := []struct {
		name           string
		props          []parquet.WriterProperty
		minS, maxS     string // "" for unknown
		minN, maxN     string
		wantNullCounts int64
	}{
		{"arrow-go, whole values", nil, "'b'", "'czzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'", "-5::i64", "7::i64", 0},
		{"maximum dropped", []parquet.WriterProperty{parquet.WithMaxStatsSize(16)}, "'b'", "", "-5::i64", "7::i64", 0},
		{"unknown writer", []parquet.WriterProperty{parquet.WithCreatedBy("parquet-mr version 1.13.1 (build x)")}, "'b'", "", "-5::i64", "7::i64", 0},
		{"newer arrow-go", []parquet.WriterProperty{parquet.WithCreatedBy("parquet-go version 99.0.0")}, "'b'", "", "-5::i64", "7::i64", 0},
		{"no statistics", []parquet.WriterProperty{parquet.WithStats(false)}, "", "", "", "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".parquet")
			writeStatsFile(t, path, rec, 10, true, c.props...)
			src, err := Open(mem, path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			cols := leafColumns(src.Schema().Root)
			stats, err := src.groupStats(cols)
			if err != nil {
				t.Fatal(err)
			}
			text := func(s scalar.Scalar) string {
				if s.IsNull() {
					return ""
				}
				return s.String()
			}
			got := stats[0].Columns
			for _, x := range []struct{ got, want, what string }{
				{text(got[0].Min), c.minS, "min of s"}, {text(got[0].Max), c.maxS, "max of s"},
				{text(got[1].Min), c.minN, "min of n"}, {text(got[1].Max), c.maxN, "max of n"},
			} {
				if x.got != x.want {
					t.Errorf("%s: %q, want %q", x.what, x.got, x.want)
				}
			}
			if got[0].NullCount != c.wantNullCounts || got[1].NullCount != c.wantNullCounts {
				t.Errorf("null counts %d and %d, want %d", got[0].NullCount, got[1].NullCount, c.wantNullCounts)
			}
		})
	}
}

// column is a Parquet leaf column descriptor for statValue tests.
func column(t *testing.T, logical schema.LogicalType, phys parquet.Type, typeLen int) *schema.Column {
	t.Helper()
	n, err := schema.NewPrimitiveNodeLogical("c", parquet.Repetitions.Optional, logical, phys, typeLen, -1)
	if err != nil {
		t.Fatal(err)
	}
	return schema.NewColumn(n, 1, 0)
}

// neg1500 is -1500 as the bits of an int64.
var neg1500 = func() uint64 { v := int64(-1500); return uint64(v) }()

func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
func le64(v uint64) []byte { return append(le32(uint32(v)), le32(uint32(v>>32))...) }

// TestStatValue decodes single bounds, the cases a whole file cannot reach
// (other writers' encodings, corrupt or ill-typed values) included.
func TestStatValue(t *testing.T) {
	i32 := column(t, schema.NoLogicalType{}, parquet.Types.Int32, 0)
	u32 := column(t, schema.NewIntLogicalType(32, false), parquet.Types.Int32, 0)
	u8 := column(t, schema.NewIntLogicalType(8, false), parquet.Types.Int32, 0)
	u64 := column(t, schema.NewIntLogicalType(64, false), parquet.Types.Int64, 0)
	decBA := column(t, schema.NewDecimalLogicalType(20, 2), parquet.Types.ByteArray, 0)
	decFL := column(t, schema.NewDecimalLogicalType(9, 2), parquet.Types.FixedLenByteArray, 4)
	dec64 := column(t, schema.NewDecimalLogicalType(18, 2), parquet.Types.Int64, 0)
	f64 := column(t, schema.NoLogicalType{}, parquet.Types.Double, 0)
	f32 := column(t, schema.NoLogicalType{}, parquet.Types.Float, 0)
	f16 := column(t, schema.Float16LogicalType{}, parquet.Types.FixedLenByteArray, 2)
	str := column(t, schema.StringLogicalType{}, parquet.Types.ByteArray, 0)
	js := column(t, schema.JSONLogicalType{}, parquet.Types.ByteArray, 0)
	bin := column(t, schema.NoLogicalType{}, parquet.Types.ByteArray, 0)
	date := column(t, schema.DateLogicalType{}, parquet.Types.Int32, 0)
	tNanos := column(t, schema.NewTimeLogicalType(true, schema.TimeUnitNanos), parquet.Types.Int64, 0)
	tsMillis := column(t, schema.NewTimestampLogicalType(true, schema.TimeUnitMillis), parquet.Types.Int64, 0)
	tsNanos := column(t, schema.NewTimestampLogicalType(false, schema.TimeUnitNanos), parquet.Types.Int64, 0)
	boolean := column(t, schema.NoLogicalType{}, parquet.Types.Boolean, 0)

	prim := func(p dtype.PType) dtype.DType { return dtype.Primitive(p, false) }
	cases := []struct {
		name  string
		descr *schema.Column
		t     dtype.DType
		b     []byte
		isMax bool
		want  string // "" when the bound must be unknown
	}{
		{"i32", i32, prim(dtype.I32), le32(uint32(0xfffffffe)), false, "-2::i32"},
		{"i32 as i64", i32, prim(dtype.I64), le32(7), false, "7::i64"},
		{"i32 too short", i32, prim(dtype.I32), []byte{1, 2}, false, ""},
		{"i32 out of i8's range", i32, prim(dtype.I8), le32(200), false, ""},
		{"u32 in unsigned order", u32, prim(dtype.U32), le32(0xffffffff), true, "4294967295::u32"},
		{"u8", u8, prim(dtype.U8), le32(255), true, "255::u8"},
		{"u8 out of range", u8, prim(dtype.U8), le32(256), true, ""},
		{"u64", u64, prim(dtype.U64), le64(math.MaxUint64), true, "18446744073709551615::u64"},
		{"unsigned to signed type", u32, prim(dtype.I32), le32(5), false, ""},
		{"unsigned to a wider signed type", u32, prim(dtype.I64), le32(5), false, ""},
		{"signed to unsigned type", i32, prim(dtype.U32), le32(5), false, ""},
		{"decimal bytes", decBA, dtype.Decimal(20, 2, false), []byte{0x30, 0x39}, false, "123.45::decimal(20,2)"},
		{"decimal bytes negative", decBA, dtype.Decimal(20, 2, false), []byte{0xcf, 0xc7}, false, "-123.45::decimal(20,2)"},
		{"decimal one byte -1", decBA, dtype.Decimal(20, 2, false), []byte{0xff}, false, "-0.01::decimal(20,2)"},
		{"decimal 17 bytes sign-extended", decBA, dtype.Decimal(20, 2, false), append([]byte{0xff, 0xff}, bytes.Repeat([]byte{0xff}, 14)...), false, "-0.01::decimal(20,2)"},
		{"decimal 17 bytes too big", decBA, dtype.Decimal(20, 2, false), append([]byte{0x01}, make([]byte, 16)...), false, ""},
		{"decimal beyond its precision", decBA, dtype.Decimal(20, 2, false), append([]byte{0x7f}, bytes.Repeat([]byte{0xff}, 15)...), false, ""},
		{"decimal empty", decBA, dtype.Decimal(20, 2, false), nil, false, ""},
		{"decimal of another scale", decBA, dtype.Decimal(20, 3, false), []byte{1}, false, ""},
		{"decimal fixed", decFL, dtype.Decimal(9, 2, false), []byte{0xff, 0xff, 0xff, 0x9c}, false, "-1.00::decimal(9,2)"},
		{"decimal fixed, wrong length", decFL, dtype.Decimal(9, 2, false), []byte{0xff, 0x9c}, false, ""},
		{"decimal int64", dec64, dtype.Decimal(18, 2, false), le64(uint64(12345)), true, "123.45::decimal(18,2)"},
		{"f64", f64, prim(dtype.F64), le64(math.Float64bits(2.5)), false, "2.5::f64"},
		{"f64 NaN", f64, prim(dtype.F64), le64(math.Float64bits(math.NaN())), true, ""},
		{"f64 +0 as a minimum is -0", f64, prim(dtype.F64), le64(0), false, "'-0.0'::f64"},
		{"f64 -0 as a maximum is +0", f64, prim(dtype.F64), le64(math.Float64bits(math.Copysign(0, -1))), true, "0.0::f64"},
		{"f64 infinity", f64, prim(dtype.F64), le64(math.Float64bits(math.Inf(1))), true, "'Infinity'::f64"},
		{"f32", f32, prim(dtype.F32), le32(math.Float32bits(-1.5)), false, "-1.5::f32"},
		{"f32 for f64", f32, prim(dtype.F64), le32(math.Float32bits(-1.5)), false, ""},
		{"f16", f16, prim(dtype.F16), []byte{0x00, 0x3c}, false, "1.0::f16"},
		{"f16 NaN", f16, prim(dtype.F16), []byte{0x00, 0x7e}, false, ""},
		{"utf8", str, dtype.Utf8(false), []byte("héllo"), true, "'héllo'"},
		{"utf8 cut inside a character", str, dtype.Utf8(false), []byte("h\xc3"), true, ""},
		{"JSON is not ordered as text", js, dtype.Utf8(false), []byte(`{"a":1}`), false, ""},
		{"binary", bin, dtype.Binary(false), []byte{0, 0xff}, false, "x'00ff'"},
		{"binary for a string column", bin, dtype.Utf8(false), []byte("ok"), false, "'ok'"},
		{"date", date, dtype.Date(false), le32(9131), false, "DATE '1995-01-01'"},
		{"date from INT64", column(t, schema.NoLogicalType{}, parquet.Types.Int64, 0), dtype.Date(false), le64(9131), false, ""},
		{"time ns to us, minimum down", tNanos, dtype.Time(dtype.Micro, false), le64(1_999), false, "'00:00:00.000001'::time(us)"},
		{"time ns to us, maximum up", tNanos, dtype.Time(dtype.Micro, false), le64(1_001), true, "'00:00:00.000002'::time(us)"},
		{"time past midnight", tNanos, dtype.Time(dtype.Nano, false), le64(86_400_000_000_000), true, ""},
		{"timestamp ms to s, maximum up", tsMillis, dtype.Timestamp(dtype.Second, "UTC", false), le64(1_500), true, "'1970-01-01 00:00:02+00'::timestamp(s, 'UTC')"},
		{"timestamp ms to s, negative minimum down", tsMillis, dtype.Timestamp(dtype.Second, "UTC", false), le64(neg1500), false, "'1969-12-31 23:59:58+00'::timestamp(s, 'UTC')"},
		{"timestamp ms to ns", tsMillis, dtype.Timestamp(dtype.Nano, "UTC", false), le64(1), false, "'1970-01-01 00:00:00.001+00'::timestamp(ns, 'UTC')"},
		{"timestamp ms to ns overflows", tsMillis, dtype.Timestamp(dtype.Nano, "UTC", false), le64(uint64(math.MaxInt64 / 10)), false, ""},
		{"timestamp ns", tsNanos, dtype.Timestamp(dtype.Nano, "", false), le64(5), false, "'1970-01-01 00:00:00.000000005'::timestamp(ns)"},
		{"bool", boolean, dtype.Bool(false), []byte{1}, true, "true"},
		{"bool, a bad byte", boolean, dtype.Bool(false), []byte{2}, true, ""},
		{"bool for an int", boolean, prim(dtype.I32), []byte{1}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := statValue(c.descr, c.t, c.b, c.isMax)
			text := ""
			if ok {
				text = got.SQL()
				if !got.DType().EqualIgnoreNullability(c.t) {
					t.Errorf("type %s, want %s", got.DType(), c.t)
				}
			}
			if text != c.want {
				t.Errorf("got %q, want %q", text, c.want)
			}
		})
	}
}

func TestRescale(t *testing.T) {
	cases := []struct {
		v        int64
		from, to dtype.TimeUnit
		up       bool
		want     int64
		ok       bool
	}{
		{1500, dtype.Milli, dtype.Second, false, 1, true},
		{1500, dtype.Milli, dtype.Second, true, 2, true},
		{2000, dtype.Milli, dtype.Second, true, 2, true},
		{-1500, dtype.Milli, dtype.Second, false, -2, true},
		{-1500, dtype.Milli, dtype.Second, true, -1, true},
		{-2000, dtype.Milli, dtype.Second, false, -2, true},
		{7, dtype.Second, dtype.Nano, false, 7_000_000_000, true},
		{math.MaxInt64/1000 + 1, dtype.Micro, dtype.Nano, false, 0, false},
		{math.MaxInt64 / 1000, dtype.Micro, dtype.Nano, false, math.MaxInt64 / 1000 * 1000, true},
		{math.MinInt64 / 100, dtype.Micro, dtype.Nano, false, 0, false},
		{5, dtype.Nano, dtype.Nano, true, 5, true},
		{5, 255, dtype.Nano, true, 0, false},
	}
	for _, c := range cases {
		got, ok := rescale(c.v, c.from, c.to, c.up)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("rescale(%d, %s, %s, up=%v) = %d, %v; want %d, %v", c.v, c.from, c.to, c.up, got, ok, c.want, c.ok)
		}
	}
}

func TestRowMap(t *testing.T) {
	// Groups of 10, 20, 30, 40 rows; groups 1 and 3 read.
	m := newRowMap([]int64{10, 20, 30, 40}, []int{1, 3})
	for _, c := range []struct{ read, file int64 }{{0, 10}, {19, 29}, {20, 60}, {59, 99}} {
		if got := m.file(c.read); got != c.file {
			t.Errorf("read row %d is file row %d, want %d", c.read, got, c.file)
		}
	}
	var none *rowMap
	if none.file(42) != 42 {
		t.Error("a nil map is not the identity")
	}
}
