package pqread

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// allTypes are the Arrow types of the test files: each is written as a
// required and as an optional column.
var allTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint8,
	arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint16,
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint32,
	arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Date32,
	arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
	&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"},
	&arrow.TimestampType{Unit: arrow.Microsecond},
	&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "America/New_York"},
	// Decimals of every storage: INT32 or FLBA(1..4), INT64 or FLBA(5..8),
	// FLBA(9..16) always.
	&arrow.Decimal128Type{Precision: 1, Scale: 0},
	&arrow.Decimal128Type{Precision: 5, Scale: 2},
	&arrow.Decimal128Type{Precision: 9, Scale: 0},
	&arrow.Decimal128Type{Precision: 15, Scale: 2},
	&arrow.Decimal128Type{Precision: 18, Scale: 4},
	&arrow.Decimal128Type{Precision: 20, Scale: 3},
	&arrow.Decimal128Type{Precision: 38, Scale: 10},
	arrow.BinaryTypes.String, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeString,
	&arrow.FixedSizeBinaryType{ByteWidth: 3},
}

func allTypesSchema() *arrow.Schema {
	var fs []arrow.Field
	for i, dt := range allTypes {
		fs = append(fs,
			arrow.Field{Name: fmt.Sprintf("c%02d", i), Type: dt},
			arrow.Field{Name: fmt.Sprintf("c%02d_n", i), Type: dt, Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// colName is the name of the required column of type dt in allTypesSchema.
func colName(dt arrow.DataType) string {
	for i, t := range allTypes {
		if arrow.TypeEqual(t, dt) {
			return fmt.Sprintf("c%02d", i)
		}
	}
	panic(dt)
}

type readCase struct {
	name      string
	rows      int
	rowGroup  int64
	nulls     float64
	props     []parquet.WriterProperty
	aprops    []pqarrow.WriterOption
	batchSize int
	threads   int
	fields    []int // nil: all
	rowGroups []int // nil: all
}

func TestReadMatchesPqarrow(t *testing.T) {
	store := []pqarrow.WriterOption{pqarrow.WithStoreSchema()}
	snappy := parquet.WithCompression(compress.Codecs.Snappy)
	cases := []readCase{
		{name: "plain-flba-snappy", rows: 3500, rowGroup: 1000, nulls: 0.2, batchSize: 300, threads: 2,
			props: []parquet.WriterProperty{snappy, parquet.WithDictionaryDefault(false)}, aprops: store},
		{name: "dict-integer-decimals", rows: 10000, rowGroup: 4096, nulls: 0.1, batchSize: 1024, threads: 4,
			props: []parquet.WriterProperty{snappy, parquet.WithDictionaryDefault(true), parquet.WithStoreDecimalAsInteger(true)}, aprops: store},
		{name: "integer-decimals-plain-one-thread", rows: 5000, rowGroup: 5000, nulls: 0.3, batchSize: 777, threads: 1,
			props: []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithStoreDecimalAsInteger(true)}, aprops: store},
		{name: "v2-small-pages-batch-over-group", rows: 2500, rowGroup: 600, nulls: 0.5, batchSize: 100000, threads: 3,
			props: []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDataPageSize(512), snappy}, aprops: store},
		{name: "v1-small-pages-zstd", rows: 2000, rowGroup: 2000, nulls: 0.05, batchSize: 256, threads: 2,
			props: []parquet.WriterProperty{parquet.WithDataPageSize(700), parquet.WithCompression(compress.Codecs.Zstd)}, aprops: store},
		{name: "all-null", rows: 1500, rowGroup: 500, nulls: 1, batchSize: 400, threads: 2, aprops: store},
		{name: "no-nulls", rows: 1500, rowGroup: 700, nulls: 0, batchSize: 512, threads: 2, aprops: store},
		{name: "no-stored-schema", rows: 1200, rowGroup: 500, nulls: 0.2, batchSize: 128, threads: 2},
		{name: "int96-timestamps", rows: 1000, rowGroup: 300, nulls: 0.2, batchSize: 128, threads: 2,
			aprops: []pqarrow.WriterOption{pqarrow.WithStoreSchema(), pqarrow.WithDeprecatedInt96Timestamps(true)}},
		{name: "delta-and-split-encodings", rows: 3000, rowGroup: 1100, nulls: 0.2, batchSize: 1000, threads: 2, aprops: store,
			props: []parquet.WriterProperty{parquet.WithDictionaryDefault(false),
				parquet.WithEncodingFor(colName(arrow.PrimitiveTypes.Int64), parquet.Encodings.DeltaBinaryPacked),
				parquet.WithEncodingFor(colName(arrow.PrimitiveTypes.Int32)+"_n", parquet.Encodings.DeltaBinaryPacked),
				parquet.WithEncodingFor(colName(arrow.BinaryTypes.String), parquet.Encodings.DeltaByteArray),
				parquet.WithEncodingFor(colName(arrow.BinaryTypes.Binary)+"_n", parquet.Encodings.DeltaLengthByteArray),
				parquet.WithEncodingFor(colName(arrow.PrimitiveTypes.Float64), parquet.Encodings.ByteStreamSplit)}},
		{name: "dictionary-then-plain", rows: 6000, rowGroup: 3000, nulls: 0.2, batchSize: 1000, threads: 2, aprops: store,
			props: []parquet.WriterProperty{parquet.WithDictionaryPageSizeLimit(2048), parquet.WithDataPageSize(1024), snappy}},
		{name: "some-fields-some-groups", rows: 4000, rowGroup: 1000, nulls: 0.2, batchSize: 300, threads: 2, aprops: store,
			fields: []int{40, 3, 7, 41}, rowGroups: []int{3, 1, 2}},
		{name: "one-field-many-threads", rows: 4000, rowGroup: 1000, nulls: 0.2, batchSize: 250, threads: 8, aprops: store,
			fields: []int{30}},
		{name: "empty", rows: 0, rowGroup: 1000, batchSize: 100, threads: 2, aprops: store},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := genTable(t, memory.DefaultAllocator, 1, allTypesSchema(), tc.rows, tc.nulls)
			defer rec.Release()
			data := writeParquet(t, rec, tc.rowGroup, tc.props, tc.aprops)
			t.Run("pf", func(t *testing.T) { checkSame(t, data, tc.fields, tc.rowGroups, tc.batchSize, tc.threads, false) })
			t.Run("source", func(t *testing.T) { checkSame(t, data, tc.fields, tc.rowGroups, tc.batchSize, tc.threads, true) })
		})
	}
}

// checkSame reads fields of rowGroups of data with pqread and with pqarrow
// and compares: the schema, the values, the batch sizes, and that every
// byte pqread allocated is back after Close. With source, pqread reads the
// chunks from data itself (Options.Source).
func checkSame(t *testing.T, data []byte, fields, rowGroups []int, batchSize, threads int, source bool) {
	t.Helper()
	fileMem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	pf, fr := openParquet(t, data, fileMem)
	if fields == nil {
		for i := range fr.Manifest.Fields {
			fields = append(fields, i)
		}
	}
	for _, f := range fields {
		if !Supported(&fr.Manifest.Fields[f]) {
			t.Fatalf("field %s not supported", fr.Manifest.Fields[f].Field)
		}
	}
	var want []arrow.Array
	if pf.NumRows() > 0 && len(fields) > 0 {
		want = readPqarrow(t, fr, fields, rowGroups)
		defer releaseAll(want)
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	base := runtime.NumGoroutine()
	opt := Options{BatchSize: batchSize, Threads: threads, Mem: mem}
	if source {
		opt.Source = bytes.NewReader(data)
	}
	r, err := NewReader(context.Background(), pf, fr.Manifest, fields, rowGroups, opt)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fields {
		if got, want := r.Schema().Field(i), sc.Field(f); !got.Equal(want) {
			t.Errorf("field %d: %v, pqarrow has %v", i, got, want)
		}
	}
	if !r.Schema().Metadata().Equal(sc.Metadata()) {
		t.Errorf("schema metadata %v, pqarrow has %v", r.Schema().Metadata(), sc.Metadata())
	}

	// The batches: BatchSize rows, less at the end of each row group.
	var sizes []int64
	groups := rowGroups
	if groups == nil {
		for i := range pf.NumRowGroups() {
			groups = append(groups, i)
		}
	}
	for _, g := range groups {
		for n := pf.MetaData().RowGroup(g).NumRows(); n > 0; n -= int64(batchSize) {
			sizes = append(sizes, min(n, int64(batchSize)))
		}
	}
	nb := 0
	got := collect(t, len(fields), r.Next, func(rec arrow.RecordBatch) {
		if nb >= len(sizes) || rec.NumRows() != sizes[nb] {
			t.Fatalf("batch %d has %d rows, want those of %v", nb, rec.NumRows(), sizes)
		}
		if !rec.Schema().Equal(r.Schema()) {
			t.Fatalf("batch schema %v, reader's %v", rec.Schema(), r.Schema())
		}
		nb++
	})
	defer releaseAll(got)
	if nb != len(sizes) {
		t.Fatalf("%d batches, want %d", nb, len(sizes))
	}
	if rec, err := r.Next(); rec != nil || err != nil {
		t.Fatalf("Next after the end: %v, %v", rec, err)
	}
	waitGoroutines(t, base) // at the end already, before Close
	r.Close()
	for i := range want {
		if !array.Equal(got[i], want[i]) {
			t.Errorf("column %s differs: %s", r.Schema().Field(i).Name, firstDiff(got[i], want[i]))
		}
	}
	if n := fileMem.CurrentAlloc(); n != 0 {
		t.Errorf("%d bytes of the file reader's allocator outstanding", n)
	}
}

func firstDiff(a, b arrow.Array) string {
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d rows, pqarrow %d", a.Len(), b.Len())
	}
	for i := range a.Len() {
		if a.IsNull(i) != b.IsNull(i) || (a.IsValid(i) && a.ValueStr(i) != b.ValueStr(i)) {
			return fmt.Sprintf("row %d: %s, pqarrow %s", i, a.ValueStr(i), b.ValueStr(i))
		}
	}
	return "no row differs"
}

func TestNoFields(t *testing.T) {
	rec := genTable(t, memory.DefaultAllocator, 2, allTypesSchema(), 1000, 0.1)
	defer rec.Release()
	data := writeParquet(t, rec, 300, nil, nil)
	checkSame(t, data, []int{}, nil, 128, 2, true)
}

// TestByteArrayDecimals reads decimals stored as BYTE_ARRAY, which
// pqarrow does not write: the file is written column by column.
func TestByteArrayDecimals(t *testing.T) {
	values := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(127), big.NewInt(-128),
		big.NewInt(1 << 40), big.NewInt(-(1 << 55)), big.NewInt(1<<63 - 1)}
	max38, _ := new(big.Int).SetString("99999999999999999999999999999999999999", 10)
	values = append(values, max38, new(big.Int).Neg(max38), new(big.Int).Lsh(big.NewInt(-3), 70))
	var vals []parquet.ByteArray
	var defs []int16
	for i := range 3000 {
		if i%7 == 3 {
			defs = append(defs, 0)
			continue
		}
		defs = append(defs, 1)
		vals = append(vals, twosComplement(values[i%len(values)]))
	}
	data := writeByteArrayDecimals(t, vals, defs, 1000)
	checkSame(t, data, nil, nil, 256, 2, false)
	checkSame(t, data, nil, nil, 256, 2, true)

	// A value of more than 16 bytes is an error naming the row group and column.
	bad := append([]parquet.ByteArray{}, vals...)
	bad[1500] = make([]byte, 17)
	data = writeByteArrayDecimals(t, bad, defs, 1000)
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{BatchSize: 256, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = drain(r)
	if err == nil || !strings.Contains(err.Error(), `row group 1, column "d"`) || !strings.Contains(err.Error(), "17 bytes") {
		t.Fatalf("got %v, want an error about 17 bytes in row group 1, column d", err)
	}
}

// twosComplement is v in big-endian two's complement, in the fewest bytes.
func twosComplement(v *big.Int) []byte {
	n := (v.BitLen() + 8) / 8 // a sign bit too
	b := make([]byte, n)
	m := new(big.Int).Set(v)
	if v.Sign() < 0 {
		m.Add(m, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	m.FillBytes(b)
	return b
}

func writeByteArrayDecimals(t *testing.T, vals []parquet.ByteArray, defs []int16, rowGroup int) []byte {
	t.Helper()
	node, err := schema.NewPrimitiveNodeLogical("d", parquet.Repetitions.Optional, schema.NewDecimalLogicalType(38, 4), parquet.Types.ByteArray, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{node}, -1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(parquet.NewWriterProperties(parquet.WithDictionaryDefault(false))))
	v := 0
	for off := 0; off < len(defs); off += rowGroup {
		d := defs[off:min(off+rowGroup, len(defs))]
		nv := 0
		for _, x := range d {
			nv += int(x)
		}
		rgw := w.AppendRowGroup()
		cw, err := rgw.NextColumn()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vals[v:v+nv], d, nil); err != nil {
			t.Fatal(err)
		}
		v += nv
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := rgw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBigEndianDecimals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 20000 {
		n := rng.IntN(16) + 1
		room := make([]byte, 16+8)
		for i := range room {
			room[i] = byte(rng.Uint32())
		}
		b := room[:n]
		if rng.IntN(2) == 0 {
			b = b[:n:n] // no room to load 8 bytes at once
		}
		want := new(big.Int).SetBytes(b)
		if b[0]&0x80 != 0 {
			want.Sub(want, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
		}
		lo, hi := beDecimal(b)
		got := new(big.Int).Lsh(big.NewInt(int64(hi)), 64)
		got.Add(got, new(big.Int).SetUint64(lo))
		if got.Cmp(want) != 0 {
			t.Fatalf("% x: got %s, want %s", b, got, want)
		}
	}
}

// drain reads r to the end, releasing the batches, and returns the error.
func drain(r *Reader) error {
	for {
		rec, err := r.Next()
		if rec == nil || err != nil {
			return err
		}
		rec.Release()
	}
}

func corruptionFile(t *testing.T) []byte {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "m", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	rec := genTable(t, memory.DefaultAllocator, 4, sc, 20000, 0.1)
	defer rec.Release()
	return writeParquet(t, rec, 5000, []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(4096)}, nil)
}

// footerStart is the offset of data's footer: the column chunks are before.
func footerStart(data []byte) int {
	return len(data) - 8 - int(binary.LittleEndian.Uint32(data[len(data)-8:]))
}

func TestCorruptFile(t *testing.T) {
	data := corruptionFile(t)
	end := footerStart(data)
	rng := rand.New(rand.NewPCG(5, 5))
	failed := 0
	const tries = 60
	for i := range tries {
		bad := append([]byte{}, data...)
		at := 4 + (end-4-64)*i/tries
		for j := at; j < at+64; j++ {
			bad[j] = byte(rng.Uint32())
		}
		err := readAllChecked(t, bad, 3, i%2 == 0)
		if err == nil {
			continue // the garbage went where any bytes are values
		}
		failed++
		t.Logf("corrupt at %d: %v", at, err)
		if !strings.Contains(err.Error(), "row group ") || !strings.Contains(err.Error(), "column ") {
			t.Errorf("corrupt at %d: error %q names no row group and column", at, err)
		}
	}
	// Garbage in incompressible columns (d, f) only changes values.
	if failed < tries/3 {
		t.Errorf("only %d of %d corrupt files gave an error", failed, tries)
	}
}

// truncatedReader is a file whose data stops at cut but whose footer can
// still be read: a file cut short, or a failing disk.
type truncatedReader struct {
	*bytes.Reader
	cut, footer int64
}

func (r truncatedReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= r.footer {
		return r.Reader.ReadAt(p, off)
	}
	if off >= r.cut {
		return 0, io.ErrUnexpectedEOF
	}
	if off+int64(len(p)) > r.cut {
		n, _ := r.Reader.ReadAt(p[:r.cut-off], off)
		return n, io.ErrUnexpectedEOF
	}
	return r.Reader.ReadAt(p, off)
}

func TestTruncatedFile(t *testing.T) {
	data := corruptionFile(t)
	end := int64(footerStart(data))
	for _, cut := range []int64{4, end / 3, end / 2, end - 100} {
		props := parquet.NewReaderProperties(memory.DefaultAllocator)
		props.BufferedStreamEnabled = true
		pf, err := file.NewParquetReader(truncatedReader{bytes.NewReader(data), cut, end}, file.WithReadProps(props))
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		src := truncatedReader{bytes.NewReader(data), cut, end}
		r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{BatchSize: 1000, Threads: 2, Mem: mem, Source: src})
		if err != nil {
			t.Fatal(err)
		}
		err = drain(r)
		if err == nil || !strings.Contains(err.Error(), "row group ") {
			t.Errorf("cut at %d: got %v, want an error naming the row group", cut, err)
		}
		if err2 := drain(r); err2 != err {
			t.Errorf("Next after the error: %v, want %v again", err2, err)
		}
		r.Close()
		mem.AssertSize(t, 0)
	}
}

// readAllChecked reads every column of data and returns the error; it
// checks that nothing is left allocated or running.
func readAllChecked(t *testing.T, data []byte, threads int, source bool) error {
	t.Helper()
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	base := runtime.NumGoroutine()
	opt := Options{BatchSize: 1000, Threads: threads, Mem: mem}
	if source {
		opt.Source = bytes.NewReader(data)
	}
	r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	err = drain(r)
	waitGoroutines(t, base) // stopped at the error, before Close
	r.Close()
	mem.AssertSize(t, 0)
	return err
}

// TestDecoderPanic checks that a panic in arrow-go's decoding, which this
// version does not show on corrupt files but older ones did, becomes an
// error and leaks nothing: a nil chunk reader panics on first use.
func TestDecoderPanic(t *testing.T) {
	rec := genTable(t, memory.DefaultAllocator, 8, arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil), 100, 0)
	defer rec.Release()
	pf, fr := openParquet(t, writeParquet(t, rec, 100, nil, nil), memory.DefaultAllocator)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	g := &group{rows: 100, nslices: 1, cols: make([]colState, 1)}
	g.cols[0].cr = (*file.Int64ColumnChunkReader)(nil)
	a, err := r.decode(g, 0, &g.cols[0], &batch{g: g, n: 100}, newScratch())
	if a != nil || err == nil || !strings.Contains(err.Error(), "decoding failed") {
		t.Fatalf("got %v, %v; want a decoding error", a, err)
	}
	r.Close()
	mem.AssertSize(t, 0)
}

func TestCancel(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "m", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rec := genTable(t, memory.DefaultAllocator, 6, sc, 50000, 0.1)
	defer rec.Release()
	data := writeParquet(t, rec, 5000, nil, nil)
	pf, fr := openParquet(t, data, memory.DefaultAllocator)

	for _, before := range []bool{true, false} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		base := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		r, err := NewReader(ctx, pf, fr.Manifest, nil, nil, Options{BatchSize: 500, Threads: 2, Mem: mem})
		if err != nil {
			t.Fatal(err)
		}
		var first arrow.RecordBatch
		if !before {
			if first, err = r.Next(); err != nil || first == nil {
				t.Fatalf("first batch: %v, %v", first, err)
			}
		}
		cancel()
		rec, err := r.Next()
		if rec != nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("Next after cancel: %v, %v", rec, err)
		}
		waitGoroutines(t, base)
		r.Close()
		if first != nil {
			first.Release() // after Close: the buffer goes to the allocator
		}
		mem.AssertSize(t, 0)
	}
}

func TestCloseEarly(t *testing.T) {
	rec := genTable(t, memory.DefaultAllocator, 7, allTypesSchema(), 20000, 0.1)
	defer rec.Release()
	data := writeParquet(t, rec, 3000, nil, nil)
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	for _, reads := range []int{0, 1, 5} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		base := runtime.NumGoroutine()
		r, err := NewReader(context.Background(), pf, fr.Manifest, nil, nil, Options{BatchSize: 700, Threads: 2, Mem: mem})
		if err != nil {
			t.Fatal(err)
		}
		var kept []arrow.RecordBatch
		for range reads {
			b, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, b)
		}
		r.Close()
		waitGoroutines(t, base)
		if _, err := r.Next(); err != ErrClosed {
			t.Errorf("Next after Close: %v", err)
		}
		for _, b := range kept {
			b.Release()
		}
		mem.AssertSize(t, 0)
	}
}

func TestNotSupported(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "flat", Type: arrow.PrimitiveTypes.Int32},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "struct", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}), Nullable: true},
		{Name: "dec256", Type: &arrow.Decimal256Type{Precision: 50, Scale: 2}},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	rec := b.NewRecordBatch()
	defer rec.Release()
	data := writeParquet(t, rec, 100, nil, nil)
	pf, fr := openParquet(t, data, memory.DefaultAllocator)
	for i, want := range []bool{true, false, false, false} {
		if got := Supported(&fr.Manifest.Fields[i]); got != want {
			t.Errorf("Supported(%s) = %v", fr.Manifest.Fields[i].Field, got)
		}
	}
	if _, err := NewReader(context.Background(), pf, fr.Manifest, []int{0, 1}, nil, Options{}); err == nil {
		t.Error("NewReader of a list column: no error")
	}
	if _, err := NewReader(context.Background(), pf, fr.Manifest, []int{0}, []int{5}, Options{}); err == nil {
		t.Error("NewReader of a row group not in the file: no error")
	}
}

// encodeHybrid encodes vals of bw bits in Parquet's RLE / bit-packed
// hybrid: runs of 8 or more equal values as RLE runs, the rest bit-packed
// in runs of up to maxGroups groups of 8 (random lengths when 0).
func encodeHybrid(vals []uint32, bw, maxGroups int) []byte {
	var out []byte
	for i := 0; i < len(vals); {
		j := i
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		if j-i >= 8 {
			out = binary.AppendUvarint(out, uint64(j-i)<<1)
			for k := range (bw + 7) / 8 {
				out = append(out, byte(vals[i]>>(8*k)))
			}
			i = j
			continue
		}
		groups := maxGroups
		if groups == 0 {
			groups = 1 + rand.IntN(4)
		}
		// Up to the next run of 8 equal values, in whole groups: only the
		// stream's last group is padded with zeros.
		n := min(len(vals)-i, 8*groups)
		for k := i; k+8 <= i+n; k++ {
			if slices.Equal(vals[k:k+8], slices.Repeat(vals[k:k+1], 8)) {
				n = min((k-i+7)/8*8, len(vals)-i)
				break
			}
		}
		groups = (n + 7) / 8
		out = binary.AppendUvarint(out, uint64(groups)<<1|1)
		packed := make([]byte, groups*bw)
		for k, v := range vals[i : i+n] {
			for b := range bw {
				if v>>b&1 == 1 {
					bit := k*bw + b
					packed[bit/8] |= 1 << (bit % 8)
				}
			}
		}
		out = append(out, packed...)
		i += n
	}
	return out
}

func TestRLEDecoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, bw := range []int{0, 1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 24, 31, 32} {
		vals := make([]uint32, 5000)
		for i := range vals {
			if rng.IntN(3) == 0 && i > 0 {
				vals[i] = vals[i-1] // some runs
			} else if bw > 0 {
				vals[i] = uint32(rng.Uint64() & (1<<bw - 1))
			}
		}
		var d rleDecoder
		d.init(encodeHybrid(vals, bw, 0), bw)
		got := make([]uint32, 0, len(vals))
		for len(got) < len(vals) {
			n := min(1+rng.IntN(300), len(vals)-len(got))
			out := make([]uint32, n)
			if err := decodeRLE(&d, out); err != nil {
				t.Fatalf("bit width %d, after %d values: %v", bw, len(got), err)
			}
			got = append(got, out...)
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("bit width %d, value %d: %d, want %d", bw, i, got[i], vals[i])
			}
		}
		// Asking for more than there is is an error.
		if err := decodeRLE(&d, make([]uint32, 100)); err == nil && bw > 0 {
			t.Errorf("bit width %d: no error past the end", bw)
		}
	}
	// Garbage gives errors or values, never a panic.
	for range 20000 {
		data := make([]byte, rng.IntN(40))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		var d rleDecoder
		d.init(data, rng.IntN(33))
		decodeRLE(&d, make([]uint32, rng.IntN(200)))
	}
}

func BenchmarkUnpack(b *testing.B) {
	for _, bw := range []int{4, 6, 12, 17} {
		rng := rand.New(rand.NewPCG(1, 2))
		vals := make([]uint32, 1<<16)
		for i := range vals {
			vals[i] = uint32(rng.Uint64() & (1<<bw - 1))
		}
		data := encodeHybrid(vals, bw, 63) // as arrow-go writes
		out := make([]uint32, readChunk)
		b.Run(fmt.Sprintf("bits=%d", bw), func(b *testing.B) {
			for b.Loop() {
				var d rleDecoder
				d.init(data, bw)
				for off := 0; off < len(vals); off += len(out) {
					if err := decodeRLE(&d, out); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/value")
		})
	}
}
