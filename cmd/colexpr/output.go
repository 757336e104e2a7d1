package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/mattn/go-runewidth"

	"github.com/colexpr/colexpr/internal/kernels"
	"github.com/colexpr/colexpr/internal/render"
	"github.com/colexpr/colexpr/scan"
)

// The writers. A query's result batches are encoded by the workers that
// computed them, concurrently, into chunks; one goroutine then writes the
// chunks in input order. A chunk can be written in part, which is how
// --limit cuts the last batch it needs.

// sink is an output format.
type sink interface {
	// encode renders a result batch. It is called from many goroutines at
	// once and must not touch shared state. It does not release rec.
	encode(rec arrow.RecordBatch) (chunk, error)
	// write writes the first n rows of c, from one goroutine, in order.
	write(c chunk, n int) error
	// finish ends a complete output (a footer, an end-of-stream marker); it
	// is not called after an error.
	finish() error
	// written is the number of rows written so far.
	written() int64
	// abort releases what an output that will not be finished holds.
	abort()
}

// chunk is an encoded batch.
type chunk interface {
	rows() int
	release()
}

// formats are the names --format takes.
var formats = []string{"table", "csv", "jsonl", "arrow", "feather", "parquet"}

// formatOfName is the format an output file's extension names.
func formatOfName(path string) (string, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv", true
	case ".jsonl", ".ndjson", ".json":
		return "jsonl", true
	case ".arrows":
		return "arrow", true
	case ".arrow", ".feather", ".ipc":
		return "feather", true
	case ".parquet", ".pq":
		return "parquet", true
	case ".txt":
		return "table", true
	}
	return "", false
}

// newSink writes format to w; bloom are the columns of Parquet output to
// write bloom filters of.
func newSink(format string, w io.Writer, sc *arrow.Schema, mem memory.Allocator, bloom []string) (sink, error) {
	switch format {
	case "table":
		return newTableSink(w, sc), nil
	case "csv":
		return newCSVSink(w, sc)
	case "jsonl":
		return newJSONLSink(w, sc), nil
	case "arrow":
		return newArrowSink(w, sc, mem), nil
	case "feather":
		return newFeatherSink(w, sc, mem)
	case "parquet":
		return newParquetSink(w, sc, mem, bloom)
	}
	return nil, usagef("unknown --format %q: use one of %s", format, strings.Join(formats, ", "))
}

// bytesChunk is encoded text with the end offset of every row.
type bytesChunk struct {
	data []byte
	ends []int
}

func (c *bytesChunk) rows() int { return len(c.ends) }
func (c *bytesChunk) release()  {}

func writeRows(w io.Writer, c *bytesChunk, n int) error {
	if n == 0 {
		return nil
	}
	_, err := w.Write(c.data[:c.ends[n-1]])
	return err
}

// JSON lines.

type jsonlSink struct {
	w    io.Writer
	keys [][]byte // `"name":` for each column, with a leading comma after the first
	rowN int64
}

func newJSONLSink(w io.Writer, sc *arrow.Schema) *jsonlSink {
	s := &jsonlSink{w: w}
	for i, f := range sc.Fields() {
		var k []byte
		if i == 0 {
			k = append(k, '{')
		} else {
			k = append(k, ',')
		}
		k = render.AppendJSONString(k, f.Name)
		s.keys = append(s.keys, append(k, ':'))
	}
	return s
}

func (s *jsonlSink) encode(rec arrow.RecordBatch) (chunk, error) {
	cells := make([]render.Cell, rec.NumCols())
	for j := range cells {
		cells[j] = render.JSON(rec.Column(j))
	}
	n := int(rec.NumRows())
	c := &bytesChunk{data: make([]byte, 0, n*16*len(cells)+16), ends: make([]int, n)}
	for i := 0; i < n; i++ {
		if len(cells) == 0 {
			c.data = append(c.data, '{')
		}
		for j, cell := range cells {
			c.data = append(c.data, s.keys[j]...)
			c.data = cell(c.data, i)
		}
		c.data = append(c.data, '}', '\n')
		c.ends[i] = len(c.data)
	}
	return c, nil
}

func (s *jsonlSink) write(c chunk, n int) error {
	s.rowN += int64(n)
	return writeRows(s.w, c.(*bytesChunk), n)
}

func (s *jsonlSink) finish() error  { return nil }
func (s *jsonlSink) written() int64 { return s.rowN }
func (s *jsonlSink) abort()         {}

// CSV.

type csvSink struct {
	w    io.Writer
	rowN int64
}

func newCSVSink(w io.Writer, sc *arrow.Schema) (*csvSink, error) {
	cw := csv.NewWriter(w)
	names := make([]string, sc.NumFields())
	for i, f := range sc.Fields() {
		names[i] = f.Name
	}
	if err := cw.Write(names); err != nil {
		return nil, err
	}
	cw.Flush()
	return &csvSink{w: w}, cw.Error()
}

// chunkWriter lets a csv.Writer append to a chunk.
type chunkWriter struct{ c *bytesChunk }

func (w chunkWriter) Write(p []byte) (int, error) {
	w.c.data = append(w.c.data, p...)
	return len(p), nil
}

func (s *csvSink) encode(rec arrow.RecordBatch) (chunk, error) {
	ncol := int(rec.NumCols())
	cells := make([]render.Cell, ncol)
	for j := range cells {
		cells[j] = render.Text(rec.Column(j))
	}
	n := int(rec.NumRows())
	c := &bytesChunk{data: make([]byte, 0, n*8*ncol+16), ends: make([]int, n)}
	cw := csv.NewWriter(chunkWriter{c})
	var scratch []byte
	offs := make([]int, ncol+1)
	fields := make([]string, ncol)
	for i := 0; i < n; i++ {
		scratch = scratch[:0]
		for j, cell := range cells {
			if !render.IsNull(rec.Column(j), i) {
				scratch = cell(scratch, i)
			}
			offs[j+1] = len(scratch)
		}
		// The fields point into scratch, which is not touched until the
		// csv writer has copied them.
		for j := range fields {
			fields[j] = unsafe.String(unsafe.SliceData(scratch[offs[j]:]), offs[j+1]-offs[j])
		}
		if err := cw.Write(fields); err != nil {
			return nil, err
		}
		cw.Flush()
		c.ends[i] = len(c.data)
	}
	return c, cw.Error()
}

func (s *csvSink) write(c chunk, n int) error {
	s.rowN += int64(n)
	return writeRows(s.w, c.(*bytesChunk), n)
}

func (s *csvSink) finish() error  { return nil }
func (s *csvSink) written() int64 { return s.rowN }
func (s *csvSink) abort()         {}

// Arrow IPC stream.

// arrowSink writes record batches with a batch writer: an Arrow IPC
// stream or file, or Parquet.
type arrowSink struct {
	w      batchWriter
	rowN   int64
	closed bool
	// decoded, when set, is the schema batches are written with: their
	// dictionary columns decoded, with memory from mem.
	decoded *arrow.Schema
	mem     memory.Allocator
}

// batchWriter is what arrowSink writes with.
type batchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

func newArrowSink(w io.Writer, sc *arrow.Schema, mem memory.Allocator) *arrowSink {
	return &arrowSink{w: ipc.NewWriter(w, ipc.WithSchema(sc), ipc.WithAllocator(mem))}
}

// newFeatherSink writes an Arrow IPC file (Feather v2). A file holds one
// dictionary per field, and the batches of a scan each bring their own (a
// Parquet row group's, an IPC stream's replacements), so dictionary
// columns are written decoded, as their values (the type colexpr gives
// them); the IPC stream and Parquet outputs keep them encoded.
func newFeatherSink(w io.Writer, sc *arrow.Schema, mem memory.Allocator) (*arrowSink, error) {
	var decoded *arrow.Schema
	if fields := sc.Fields(); slices.ContainsFunc(fields, func(f arrow.Field) bool { return kernels.HasDictionary(f.Type) }) {
		for i := range fields {
			fields[i].Type = kernels.DecodedType(fields[i].Type)
		}
		md := sc.Metadata()
		sc = arrow.NewSchema(fields, &md)
		decoded = sc
	}
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(sc), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	return &arrowSink{w: fw, decoded: decoded, mem: mem}, nil
}

// newParquetSink writes Parquet as scan.WriteParquet does, the output's
// batches gathered into full row groups, with bloom filters of the columns
// bloom names.
func newParquetSink(w io.Writer, sc *arrow.Schema, mem memory.Allocator, bloom []string) (*arrowSink, error) {
	pw, err := scan.NewParquetWriter(w, sc, scan.ParquetOptions{Buffered: true, Mem: mem, CreatedBy: "(colexpr query)", BloomFilters: bloom})
	if err != nil {
		return nil, fmt.Errorf("the output cannot be written as Parquet: %w", err)
	}
	return &arrowSink{w: pw}, nil
}

type recChunk struct{ rec arrow.RecordBatch }

func (c *recChunk) rows() int { return int(c.rec.NumRows()) }
func (c *recChunk) release()  { c.rec.Release() }

func (s *arrowSink) encode(rec arrow.RecordBatch) (chunk, error) {
	if s.decoded == nil {
		rec.Retain()
		return &recChunk{rec}, nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range rec.Columns() {
		var err error
		if cols[i], err = kernels.DecodeDictionaries(s.mem, c); err != nil {
			return nil, fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
		}
	}
	return &recChunk{array.NewRecordBatch(s.decoded, cols, rec.NumRows())}, nil
}

func (s *arrowSink) write(c chunk, n int) error {
	rec := c.(*recChunk).rec
	if n == 0 {
		return nil
	}
	if int64(n) < rec.NumRows() {
		part := rec.NewSlice(0, int64(n))
		defer part.Release()
		rec = part
	}
	s.rowN += int64(n)
	return s.w.Write(rec)
}

func (s *arrowSink) finish() error {
	s.closed = true
	return s.w.Close()
}

func (s *arrowSink) written() int64 { return s.rowN }

func (s *arrowSink) abort() {
	if !s.closed {
		s.closed = true
		s.w.Close()
	}
}

// Table.

// maxCell is the widest a table cell gets, in display cells.
const maxCell = 40

// widthRows is how many rows the table's column widths are taken from.
const widthRows = 1024

// cellWidth measures text in display cells (terminal columns): a CJK
// character or an emoji takes two, a combining mark none. It is fixed,
// not taken from the locale, so a table looks the same everywhere: East
// Asian ambiguous characters count as one cell, as in most terminals.
var cellWidth = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// tableSink prints aligned columns. It holds the first widthRows rows back
// to size the columns by, as DuckDB's box renderer sizes them by the rows it
// shows, then streams: a later value wider than its column is cut to fit
// and ends in …, like a value wider than maxCell. Nothing is cut silently:
// the footer says how many cells were cut, and that csv and jsonl print
// them whole.
type tableSink struct {
	w       io.Writer
	names   []string
	right   []bool // right-align: numeric columns
	widths  []int  // nil until the first widthRows rows are in
	pending []*tableChunk
	held    int // rows in pending
	rowN    int64
	cutN    int64 // cells cut to fit, header included
	buf     []byte
}

// tableChunk holds the cells of a batch, row by row: cell k of the chunk
// is data[offs[k]:offs[k+1]], null cells are marked, and so are the cells
// cut to maxCell.
type tableChunk struct {
	n, cols int
	data    []byte
	offs    []int
	null    []bool
	cut     []bool
	// keep is the number of rows of this chunk to print (for held chunks).
	keep int
}

func (c *tableChunk) rows() int { return c.n }
func (c *tableChunk) release()  {}

func newTableSink(w io.Writer, sc *arrow.Schema) *tableSink {
	s := &tableSink{w: w}
	for _, f := range sc.Fields() {
		s.names = append(s.names, f.Name)
		s.right = append(s.right, isNumeric(f.Type))
	}
	return s
}

func isNumeric(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

func (s *tableSink) encode(rec arrow.RecordBatch) (chunk, error) {
	ncol := int(rec.NumCols())
	cells := make([]render.Cell, ncol)
	for j := range cells {
		cells[j] = render.Text(rec.Column(j))
	}
	n := int(rec.NumRows())
	c := &tableChunk{n: n, cols: ncol, offs: make([]int, 1, n*ncol+1), null: make([]bool, n*ncol), cut: make([]bool, n*ncol)}
	var scratch []byte
	for i := 0; i < n; i++ {
		for j, cell := range cells {
			k := i*ncol + j
			if render.IsNull(rec.Column(j), i) {
				c.null[k] = true
			} else {
				scratch = cell(scratch[:0], i)
				c.data, c.cut[k] = appendCell(c.data, scratch, maxCell)
			}
			c.offs = append(c.offs, len(c.data))
		}
	}
	return c, nil
}

// hexDigits are the digits of a control character's \x escape.
const hexDigits = "0123456789abcdef"

// appendCell appends v made fit for one line of a table: control
// characters escaped (\n, \t, \x01), invalid UTF-8 replaced, and cut to
// at most max display cells, the last one … when it is cut (which it
// reports).
func appendCell(b, v []byte, max int) ([]byte, bool) {
	if len(v) <= max && printableASCII(v) {
		return append(b, v...), false
	}
	start := len(b)
	for len(v) > 0 {
		r, size := utf8.DecodeRune(v)
		switch {
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&0xf])
		case r == utf8.RuneError && size == 1:
			b = append(b, "\uFFFD"...)
		default:
			b = append(b, v[:size]...)
		}
		v = v[size:]
	}
	return fitCell(b, start, max)
}

// fitCell cuts b[start:] to at most max display cells, ending in … when it
// is cut.
func fitCell(b []byte, start, max int) ([]byte, bool) {
	if width(b[start:]) <= max {
		return b, false
	}
	cell := unsafe.String(unsafe.SliceData(b[start:]), len(b)-start)
	// Whole characters (grapheme clusters: an emoji with its modifiers, a
	// letter with its accents) up to max-1 cells, then ….
	cut := cellWidth.Truncate(cell, max, "…")
	return append(b[:start], cut...), true
}

// width is the display width of a table cell.
func width(v []byte) int {
	if printableASCII(v) {
		return len(v)
	}
	return cellWidth.StringWidth(unsafe.String(unsafe.SliceData(v), len(v)))
}

// printableASCII reports whether v is all printable ASCII: one byte per
// character, nothing to escape.
func printableASCII(v []byte) bool {
	for _, c := range v {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func (s *tableSink) write(c chunk, n int) error {
	tc := c.(*tableChunk)
	tc.keep = n
	if s.widths != nil {
		return s.print(tc)
	}
	s.pending = append(s.pending, tc)
	s.held += n
	if s.held >= widthRows {
		return s.flushPending()
	}
	return nil
}

// flushPending sets the column widths from the held rows and prints them.
func (s *tableSink) flushPending() error {
	s.widths = make([]int, len(s.names))
	for j, name := range s.names {
		s.widths[j] = min(width([]byte(name)), maxCell)
		if s.widths[j] < 4 {
			s.widths[j] = 4 // room for NULL
		}
	}
	for _, tc := range s.pending {
		for i := 0; i < tc.keep; i++ {
			for j := 0; j < tc.cols; j++ {
				k := i*tc.cols + j
				s.widths[j] = max(s.widths[j], width(tc.data[tc.offs[k]:tc.offs[k+1]]))
			}
		}
	}
	b := s.buf[:0]
	for j, name := range s.names {
		if j > 0 {
			b = append(b, '|')
		}
		b = append(b, ' ')
		cell, cut := appendCell(nil, []byte(name), s.widths[j])
		if cut {
			s.cutN++
		}
		b = pad(b, cell, s.widths[j], false)
		b = append(b, ' ')
	}
	b = trimRight(b)
	b = append(b, '\n')
	for j := range s.names {
		if j > 0 {
			b = append(b, '+')
		}
		b = append(b, strings.Repeat("-", s.widths[j]+2)...)
	}
	b = append(b, '\n')
	s.buf = b
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	pending := s.pending
	s.pending = nil
	for _, tc := range pending {
		if err := s.print(tc); err != nil {
			return err
		}
	}
	return nil
}

func (s *tableSink) print(tc *tableChunk) error {
	b := s.buf[:0]
	var fit []byte
	for i := 0; i < tc.keep; i++ {
		for j := 0; j < tc.cols; j++ {
			if j > 0 {
				b = append(b, '|')
			}
			b = append(b, ' ')
			k := i*tc.cols + j
			v := tc.data[tc.offs[k]:tc.offs[k+1]]
			cut := tc.cut[k]
			if tc.null[k] {
				v = []byte("NULL")
			} else if len(v) > s.widths[j] && width(v) > s.widths[j] {
				// Wider than the rows the widths came from.
				fit = append(fit[:0], v...)
				fit, _ = fitCell(fit, 0, s.widths[j])
				v, cut = fit, true
			}
			if cut {
				s.cutN++
			}
			b = pad(b, v, s.widths[j], s.right[j])
			b = append(b, ' ')
		}
		b = trimRight(b)
		b = append(b, '\n')
	}
	s.buf = b
	s.rowN += int64(tc.keep)
	_, err := s.w.Write(b)
	return err
}

func pad(b, v []byte, w int, right bool) []byte {
	n := w - width(v)
	if right {
		for ; n > 0; n-- {
			b = append(b, ' ')
		}
		return append(b, v...)
	}
	b = append(b, v...)
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

func trimRight(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

func (s *tableSink) finish() error {
	if s.widths == nil {
		if err := s.flushPending(); err != nil {
			return err
		}
	}
	word := "rows"
	if s.rowN == 1 {
		word = "row"
	}
	footer := fmt.Sprintf("(%s %s)\n", thousands(s.rowN), word)
	if s.cutN > 0 {
		cells := "cells were"
		if s.cutN == 1 {
			cells = "cell was"
		}
		footer += fmt.Sprintf("(%s %s cut to fit, ending in …; --format csv or jsonl prints every value whole)\n", thousands(s.cutN), cells)
	}
	_, err := io.WriteString(s.w, footer)
	return err
}

func (s *tableSink) written() int64 { return s.rowN }
func (s *tableSink) abort()         {}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	d := strconv.FormatInt(n, 10)
	if n < 0 || len(d) <= 3 {
		return d
	}
	var b strings.Builder
	first := len(d) % 3
	if first > 0 {
		b.WriteString(d[:first])
	}
	for i := first; i < len(d); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d[i : i+3])
	}
	return b.String()
}
