package pqread

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// genColumn makes n random values of type dt, a fraction nulls of them
// null (when nullable).
func genColumn(t testing.TB, mem memory.Allocator, rng *rand.Rand, dt arrow.DataType, n int, nulls float64) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(n)
	dec := func(p int32) decimal128.Num {
		// Values of every size up to the precision, both signs.
		digits := rng.IntN(int(p)) + 1
		var v decimal128.Num
		if digits <= 18 {
			lim := int64(1)
			for range digits {
				lim *= 10
			}
			v = decimal128.FromI64(rng.Int64N(lim))
		} else {
			hiLim := int64(1)
			for range min(digits-19, 18) { // hi·2⁶⁴ may pass the precision a little: no matter
				hiLim *= 10
			}
			v = decimal128.New(rng.Int64N(hiLim), rng.Uint64())
		}
		if rng.IntN(2) == 0 {
			v = v.Negate()
		}
		return v
	}
	for range n {
		if nulls > 0 && rng.Float64() < nulls {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.BooleanBuilder:
			b.Append(rng.IntN(2) == 0)
		case *array.Int8Builder:
			b.Append(int8(rng.Uint32()))
		case *array.Uint8Builder:
			b.Append(uint8(rng.Uint32()))
		case *array.Int16Builder:
			b.Append(int16(rng.Uint32()))
		case *array.Uint16Builder:
			b.Append(uint16(rng.Uint32()))
		case *array.Int32Builder:
			b.Append(int32(rng.Uint32()))
		case *array.Uint32Builder:
			b.Append(rng.Uint32())
		case *array.Int64Builder:
			b.Append(int64(rng.Uint64()))
		case *array.Uint64Builder:
			b.Append(rng.Uint64())
		case *array.Float32Builder:
			b.Append(rng.Float32()*2000 - 1000)
		case *array.Float64Builder:
			b.Append(rng.NormFloat64() * 1e6)
		case *array.Float16Builder:
			b.Append(float16.New(rng.Float32()*20 - 10))
		case *array.Date32Builder:
			b.Append(arrow.Date32(rng.IntN(40000) - 10000))
		case *array.Time32Builder:
			b.Append(arrow.Time32(rng.IntN(86400000)))
		case *array.Time64Builder:
			b.Append(arrow.Time64(rng.Int64N(86400000000)))
		case *array.TimestampBuilder:
			// Within a few centuries of 1970, so every unit can hold it.
			b.Append(arrow.Timestamp(rng.Int64N(1<<60) - 1<<59))
		case *array.Decimal128Builder:
			b.Append(dec(dt.(*arrow.Decimal128Type).Precision))
		case *array.StringBuilder:
			b.Append(randString(rng))
		case *array.LargeStringBuilder:
			b.Append(randString(rng))
		case *array.BinaryBuilder:
			b.Append([]byte(randString(rng)))
		case *array.FixedSizeBinaryBuilder:
			v := make([]byte, dt.(*arrow.FixedSizeBinaryType).ByteWidth)
			for i := range v {
				v[i] = byte(rng.Uint32())
			}
			b.Append(v)
		default:
			t.Fatalf("no generator for %s", dt)
		}
	}
	return b.NewArray()
}

var words = []string{"", "a", "DELIVER IN PERSON", "TAKE BACK RETURN", "NONE", "COLLECT COD", "ünïcödé", "x"}

func randString(rng *rand.Rand) string {
	if rng.IntN(4) == 0 { // a long unique one now and then
		return fmt.Sprintf("%s-%d-%x", words[rng.IntN(len(words))], rng.IntN(1000), rng.Uint64())
	}
	return words[rng.IntN(len(words))]
}

// genTable makes a record of n rows with the fields of sc.
func genTable(t testing.TB, mem memory.Allocator, seed uint64, sc *arrow.Schema, n int, nulls float64) arrow.RecordBatch {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	cols := make([]arrow.Array, sc.NumFields())
	for i, f := range sc.Fields() {
		p := 0.0
		if f.Nullable {
			p = nulls
		}
		cols[i] = genColumn(t, mem, rng, f.Type, n, p)
		defer cols[i].Release()
	}
	return array.NewRecordBatch(sc, cols, int64(n))
}

// writeParquet writes rec to a Parquet file in memory, in row groups of
// rowGroup rows.
func writeParquet(t testing.TB, rec arrow.RecordBatch, rowGroup int64, props []parquet.WriterProperty, aprops []pqarrow.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	props = append([]parquet.WriterProperty{parquet.WithMaxRowGroupLength(rowGroup)}, props...)
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(props...), pqarrow.NewArrowWriterProperties(aprops...))
	if err != nil {
		t.Fatal(err)
	}
	for off := int64(0); off < rec.NumRows(); off += rowGroup {
		s := rec.NewSlice(off, min(off+rowGroup, rec.NumRows()))
		err := w.Write(s)
		s.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openParquet opens data as the colexpr CLI does: page by page.
func openParquet(t testing.TB, data []byte, mem memory.Allocator) (*file.Reader, *pqarrow.FileReader) {
	t.Helper()
	props := parquet.NewReaderProperties(mem)
	props.BufferedStreamEnabled = true
	props.BufferSize = 128 << 10
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(props))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 20}, mem)
	if err != nil {
		t.Fatal(err)
	}
	return pf, fr
}

// readPqarrow reads fields of rowGroups with pqarrow: one array per field.
func readPqarrow(t testing.TB, fr *pqarrow.FileReader, fields, rowGroups []int) []arrow.Array {
	t.Helper()
	var leaves []int
	for _, f := range fields {
		leaves = append(leaves, fr.Manifest.Fields[f].ColIndex)
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, rowGroups)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	return collect(t, len(fields), func() (arrow.RecordBatch, error) {
		if !rr.Next() {
			return nil, rr.Err()
		}
		rec := rr.RecordBatch()
		rec.Retain()
		return rec, nil
	}, nil)
}

// collect reads batches from next until nil and concatenates each column;
// check, when not nil, sees each batch first.
func collect(t testing.TB, ncols int, next func() (arrow.RecordBatch, error), check func(arrow.RecordBatch)) []arrow.Array {
	t.Helper()
	chunks := make([][]arrow.Array, ncols)
	defer func() {
		for _, c := range chunks {
			for _, a := range c {
				a.Release()
			}
		}
	}()
	for {
		rec, err := next()
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		if check != nil {
			check(rec)
		}
		for i := range ncols {
			a := rec.Column(i)
			a.Retain()
			chunks[i] = append(chunks[i], a)
		}
		rec.Release()
	}
	out := make([]arrow.Array, ncols)
	for i, c := range chunks {
		if len(c) == 0 {
			continue
		}
		a, err := array.Concatenate(c, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

// waitGoroutines fails t if the goroutine count does not come back to
// at most base.
func waitGoroutines(t testing.TB, base int) {
	t.Helper()
	for range 200 {
		if runtime.NumGoroutine() <= base {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
}
