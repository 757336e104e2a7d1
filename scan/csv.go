package scan

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
)

// CSV. A CSV file has a header row, then rows; the types of its columns are
// inferred from the first rows (or given), and every later value is parsed
// as its column's type by the same rules, so that a value the inference
// would have accepted is never refused, and a value that does not fit is an
// error that names its line, its column and the type.

// CSVInferRows is how many rows of a CSV file its column types are
// inferred from, unless CSVOptions say otherwise.
const CSVInferRows = 1000

// CSVOptions say how a CSV file is read.
type CSVOptions struct {
	// InferRows is how many rows (after the header) the column types are
	// inferred from: 0 means CSVInferRows, a negative number every row,
	// in which case the file is read twice (it must then be a regular
	// file, not a pipe).
	InferRows int
	// Types gives columns a type by name, instead of inferring one. The
	// types a CSV value can be read as are bool (true, false, TRUE, FALSE,
	// True, False), the signed and unsigned integers (decimal digits, in
	// range), float32 and float64 (as strconv.ParseFloat reads them),
	// decimal128 (rounded to the scale half away from zero; a value with
	// more digits than the precision does not fit), string, binary, date32
	// (YYYY-MM-DD) and timestamp in any unit (YYYY-MM-DD HH:MM:SS with an
	// optional fraction, a T or a space between date and time, or a date
	// alone; a wall-clock time, in the type's time zone when it has one).
	// An empty field is null, whatever the type.
	Types map[string]arrow.DataType
	// partialTypes lets Types name columns the header does not: the
	// files of a dataset need not all have them (the dataset checks that
	// one does).
	partialTypes bool
}

// CSVValueError is a value of a CSV file that does not fit its column's
// type.
type CSVValueError struct {
	Path   string
	Line   int    // the line the value is on, counting from 1
	Column int    // the column, counting from 1
	Name   string // the column's name
	Value  string
	Type   arrow.DataType // the column's type
	// Given is true when CSVOptions.Types gave Type; otherwise it was
	// inferred from the first InferredFrom rows.
	Given        bool
	InferredFrom int
	// Fits is the type the column would have been inferred as had the
	// value been among the rows inferred from: a type that holds it.
	Fits arrow.DataType
}

// Problem says what is wrong, without how to fix it.
func (e *CSVValueError) Problem() string {
	how := fmt.Sprintf("inferred from the first %d rows", e.InferredFrom)
	if e.Given {
		how = "given to it"
	}
	return fmt.Sprintf("%s: line %d, column %d (%s): %q is not a valid %s, the column's type (%s)",
		e.Path, e.Line, e.Column, dtype.QuoteFieldName(e.Name), e.Value, CSVTypeName(e.Type), how)
}

func (e *CSVValueError) Error() string {
	return fmt.Sprintf("%s; to read it, give the column the type %s (CSVOptions.Types) or infer the types from more rows (CSVOptions.InferRows)",
		e.Problem(), CSVTypeName(e.Fits))
}

// CSVTypeName is the colexpr name of an Arrow type (i64, utf8, timestamp(us)).
func CSVTypeName(t arrow.DataType) string {
	if d, err := dtype.FromArrow(t, false); err == nil {
		return d.String()
	}
	return t.String()
}

// OpenCSV opens the CSV file at path, whatever its name, as o says.
func OpenCSV(mem memory.Allocator, path string, o CSVOptions) (*Source, error) {
	names := make([]string, 0, len(o.Types))
	for name := range o.Types {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if t := o.Types[name]; t == nil || newCSVParser(t) == nil {
			return nil, fmt.Errorf("%s: column %s: a CSV value cannot be read as %v; use bool, an integer, a float, a decimal, utf8, binary, date or a timestamp",
				path, dtype.QuoteFieldName(name), t)
		}
	}
	return openFile(mem, path, func(mem memory.Allocator, path string, f *os.File) (*Source, error) {
		return openCSV(mem, path, fileInput(f), o)
	})
}

// openCSV reads the header and the first rows to infer the column types,
// then scans the whole file (those rows again included).
func openCSV(mem memory.Allocator, path string, f streamInput, o CSVOptions) (*Source, error) {
	inferRows := o.InferRows
	if inferRows == 0 {
		inferRows = CSVInferRows
	}
	cr := newCountingReader(f)
	// The rows inferred from are read again by the scan: from a copy when
	// they are a few, from the start of the file when they are all.
	var seen bytes.Buffer
	var in io.Reader = cr
	if inferRows > 0 {
		in = io.TeeReader(cr, &seen)
	}
	r := csv.NewReader(in)
	r.ReuseRecord = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file: a CSV file needs a header row", path)
	}
	if err != nil {
		return nil, fileError(path, "not a readable CSV file", err)
	}
	names := make([]string, len(header))
	at := map[string]int{}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // a byte order mark
		}
		name := strings.TrimSpace(h)
		if name == "" {
			name = "column" + strconv.Itoa(i+1)
		}
		if j, dup := at[name]; dup {
			return nil, fmt.Errorf("%s: the header names columns %d and %d both %q", path, j+1, i+1, name)
		}
		at[name] = i
		names[i] = name
	}
	given := make([]arrow.DataType, len(names))
	for name, t := range o.Types {
		i, ok := at[name]
		if !ok && o.partialTypes {
			continue
		}
		if !ok {
			return nil, fmt.Errorf("%s: a type is given to column %s, which the header does not name (it names %s)",
				path, dtype.QuoteFieldName(name), strings.Join(names, ", "))
		}
		given[i] = t
	}
	inf := make([]csvInference, len(names))
	rows := 0
	for inferRows < 0 || rows < inferRows {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s: line %d: %v", path, pe.Line, pe.Err)
			}
			return nil, fileError(path, "not a readable CSV file", err)
		}
		for i, v := range rec {
			if given[i] == nil {
				inf[i].see(v)
			}
		}
		rows++
	}
	fields := make([]arrow.Field, len(names))
	for i, name := range names {
		t := given[i]
		if t == nil {
			t = inf[i].result()
		}
		fields[i] = arrow.Field{Name: name, Type: t, Nullable: true}
	}
	sc := arrow.NewSchema(fields, nil)
	var replay io.Reader
	if inferRows > 0 {
		replay = io.MultiReader(bytes.NewReader(seen.Bytes()), cr)
	} else {
		if f.rewind == nil {
			return nil, fmt.Errorf("%s: the types cannot be inferred from every row: the input cannot be read twice (it is not a regular file)", path)
		}
		if err := f.rewind(); err != nil {
			return nil, fmt.Errorf("%s: the types cannot be inferred from every row: the file cannot be read twice: %w", path, err)
		}
		cr.n.Store(0)
		replay = cr
	}
	used := false
	return &Source{
		name:   path,
		schema: sc,
		open: func(spec scanSpec) (scanner, error) {
			if used {
				return nil, fmt.Errorf("%s: a CSV file can be scanned once", path)
			}
			used = true
			s := &csvScan{
				path: path, sc: sc, bytes: cr, mem: mem,
				batch:        min(spec.batchSize, maxCSVChunk),
				fields:       spec.fields,
				given:        given,
				inf:          inf,
				inferredFrom: rows,
			}
			if s.fields == nil {
				s.fields = make([]int, len(names))
				for i := range s.fields {
					s.fields[i] = i
				}
			}
			out := make([]arrow.Field, len(s.fields))
			for k, i := range s.fields {
				out[k] = fields[i]
				s.parse = append(s.parse, newCSVParser(fields[i].Type))
			}
			s.out = arrow.NewSchema(out, nil)
			s.r = csv.NewReader(replay)
			s.r.ReuseRecord = true
			return s, nil
		},
		close: f.close,
	}, nil
}

// maxCSVChunk is the most rows a batch of a CSV file holds, whatever
// the batch size says.
const maxCSVChunk = 1 << 20

// csvScan reads batches of a CSV file, parsing the values of the columns
// it reads.
type csvScan struct {
	path   string
	r      *csv.Reader
	sc     *arrow.Schema // the file's
	out    *arrow.Schema // the batches'
	fields []int
	parse  []csvParser
	mem    memory.Allocator
	batch  int
	bytes  *countingReader
	// for messages: the types given, the inference of the others and the
	// rows it saw.
	given        []arrow.DataType
	inf          []csvInference
	inferredFrom int
	started      bool // the header is read
}

func (s *csvScan) Next() (arrow.RecordBatch, error) {
	if !s.started {
		s.started = true
		if _, err := s.r.Read(); err != nil {
			return nil, fileError(s.path, "reading failed", err)
		}
	}
	builders := make([]array.Builder, len(s.fields))
	for k := range builders {
		builders[k] = array.NewBuilder(s.mem, s.out.Field(k).Type)
		defer builders[k].Release()
	}
	n := 0
	for n < s.batch {
		rec, err := s.r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s: line %d: %v", s.path, pe.Line, pe.Err)
			}
			return nil, fileError(s.path, "reading failed", err)
		}
		for k, i := range s.fields {
			v := rec[i]
			if v == "" {
				builders[k].AppendNull()
				continue
			}
			if !s.parse[k](builders[k], v) {
				return nil, s.valueError(i, v)
			}
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, len(builders))
	for k, b := range builders {
		cols[k] = b.NewArray()
		defer cols[k].Release()
	}
	return array.NewRecordBatch(s.out, cols, int64(n)), nil
}

// valueError describes value v of column i, which does not fit its type.
func (s *csvScan) valueError(i int, v string) error {
	line, _ := s.r.FieldPos(i)
	e := &CSVValueError{
		Path: s.path, Line: line, Column: i + 1, Name: s.sc.Field(i).Name, Value: v,
		Type: s.sc.Field(i).Type, Given: s.given[i] != nil, InferredFrom: s.inferredFrom,
	}
	inf := s.inf[i]
	if e.Given {
		inf = csvInference{}
	}
	inf.see(v)
	e.Fits = inf.result()
	return e
}

func (s *csvScan) Progress() float64 {
	return s.bytes.fraction()
}

func (s *csvScan) Close() {}

// csvParser appends v, which is not empty, to b; false means v is not a
// value of b's type.
type csvParser func(b array.Builder, v string) bool

// newCSVParser parses values of type t, or is nil when a CSV value cannot
// be read as t.
func newCSVParser(t arrow.DataType) csvParser {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return func(b array.Builder, v string) bool {
			x, ok := csvBool(v)
			if ok {
				b.(*array.BooleanBuilder).Append(x)
			}
			return ok
		}
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type:
		bits := t.(arrow.FixedWidthDataType).BitWidth()
		return func(b array.Builder, v string) bool {
			x, err := strconv.ParseInt(v, 10, bits)
			if err != nil {
				return false
			}
			switch b := b.(type) {
			case *array.Int8Builder:
				b.Append(int8(x))
			case *array.Int16Builder:
				b.Append(int16(x))
			case *array.Int32Builder:
				b.Append(int32(x))
			case *array.Int64Builder:
				b.Append(x)
			}
			return true
		}
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		bits := t.(arrow.FixedWidthDataType).BitWidth()
		return func(b array.Builder, v string) bool {
			x, err := strconv.ParseUint(v, 10, bits)
			if err != nil {
				return false
			}
			switch b := b.(type) {
			case *array.Uint8Builder:
				b.Append(uint8(x))
			case *array.Uint16Builder:
				b.Append(uint16(x))
			case *array.Uint32Builder:
				b.Append(uint32(x))
			case *array.Uint64Builder:
				b.Append(x)
			}
			return true
		}
	case *arrow.Float32Type:
		return func(b array.Builder, v string) bool {
			x, err := strconv.ParseFloat(v, 32)
			if err == nil {
				b.(*array.Float32Builder).Append(float32(x))
			}
			return err == nil
		}
	case *arrow.Float64Type:
		return func(b array.Builder, v string) bool {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil {
				b.(*array.Float64Builder).Append(x)
			}
			return err == nil
		}
	case *arrow.Decimal128Type:
		return func(b array.Builder, v string) bool {
			x, err := decimal128.FromString(v, t.Precision, t.Scale)
			if err == nil {
				b.(*array.Decimal128Builder).Append(x)
			}
			return err == nil
		}
	case *arrow.StringType:
		return func(b array.Builder, v string) bool { b.(*array.StringBuilder).Append(v); return true }
	case *arrow.BinaryType:
		return func(b array.Builder, v string) bool { b.(*array.BinaryBuilder).AppendString(v); return true }
	case *arrow.Date32Type:
		return func(b array.Builder, v string) bool {
			d, ok := csvDate(v)
			if ok {
				b.(*array.Date32Builder).Append(arrow.Date32FromTime(d))
			}
			return ok
		}
	case *arrow.TimestampType:
		loc := time.UTC
		if t.TimeZone != "" {
			l, err := t.GetZone()
			if err != nil {
				return nil
			}
			if l != nil {
				loc = l
			}
		}
		return func(b array.Builder, v string) bool {
			ts, ok := csvTimestamp(v, loc)
			if !ok {
				return false
			}
			x, err := arrow.TimestampFromTime(ts, t.Unit)
			if err != nil {
				return false
			}
			b.(*array.TimestampBuilder).Append(x)
			return true
		}
	}
	return nil
}

func csvBool(v string) (bool, bool) {
	switch v {
	case "true", "TRUE", "True":
		return true, true
	case "false", "FALSE", "False":
		return false, true
	}
	return false, false
}

// csvDate parses YYYY-MM-DD.
func csvDate(v string) (time.Time, bool) {
	if len(v) != 10 {
		return time.Time{}, false
	}
	d, err := time.Parse("2006-01-02", v)
	return d, err == nil
}

// csvTimestamp parses YYYY-MM-DD HH:MM:SS (or with a T between date and
// time) with an optional fraction of a second, or a date alone (midnight),
// as a wall-clock time in loc.
func csvTimestamp(v string, loc *time.Location) (time.Time, bool) {
	if d, ok := csvDate(v); ok {
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc), true
	}
	if len(v) < 19 || v[10] != ' ' && v[10] != 'T' {
		return time.Time{}, false
	}
	layout := "2006-01-02 15:04:05"
	if v[10] == 'T' {
		layout = "2006-01-02T15:04:05"
	}
	ts, err := time.ParseInLocation(layout, v, loc)
	return ts, err == nil
}

// csvInference infers a column's type from its values: i64 when every
// non-empty value is an integer, f64 when every one is a number, bool when
// every one is true or false, date when every one is YYYY-MM-DD,
// timestamp(us) when every one is a date or a date and a time
// (YYYY-MM-DD HH:MM:SS[.fraction], or with a T), utf8 otherwise (and for a
// column with no value at all).
type csvInference struct {
	values           int
	notInt, notFloat bool
	notBool, notDate bool
	notTimestamp     bool
}

func (c *csvInference) see(v string) {
	if v == "" {
		return
	}
	c.values++
	if !c.notInt {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			c.notInt = true
		}
	}
	if !c.notFloat {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			c.notFloat = true
		}
	}
	if !c.notBool {
		if _, ok := csvBool(v); !ok {
			c.notBool = true
		}
	}
	if !c.notDate {
		if _, ok := csvDate(v); !ok {
			c.notDate = true
		}
	}
	if !c.notTimestamp {
		if _, ok := csvTimestamp(v, time.UTC); !ok {
			c.notTimestamp = true
		}
	}
}

func (c *csvInference) result() arrow.DataType {
	switch {
	case c.values == 0:
		return arrow.BinaryTypes.String
	case !c.notInt:
		return arrow.PrimitiveTypes.Int64
	case !c.notFloat:
		return arrow.PrimitiveTypes.Float64
	case !c.notBool:
		return arrow.FixedWidthTypes.Boolean
	case !c.notDate:
		return arrow.FixedWidthTypes.Date32
	case !c.notTimestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	}
	return arrow.BinaryTypes.String
}
