package scan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// Datasets: many files read as one table. The files' schemas are unified
// by column name; Hive partition directories add columns; a filter on
// those columns leaves out whole files before they are opened. See the
// package doc (Datasets).

// DatasetOptions say how OpenDataset reads its inputs.
type DatasetOptions struct {
	// CSV says how CSV files are read.
	CSV CSVOptions
	// NoHive reads key=value directories as plain directories: no
	// partition columns.
	NoHive bool
	// Stdin is what the input "-" reads; nil: "-" is an error.
	Stdin io.Reader
}

// StdinName is how messages name the standard input.
const StdinName = "stdin"

// OpenDataset opens inputs as one table. Each input is a file, a glob (*,
// ?, [...] within a name, ** for any number of directories), a directory
// (every .parquet, .pq, .arrow, .feather, .ipc, .arrows and .csv file
// below it, leaving out names that begin with . or _), or "-", the
// standard input (o.Stdin), which must then be the only input. Files are
// taken in the order of the inputs, each input's files in lexical order,
// and their formats are told from their bytes (see Open).
//
// One file without Hive partitions is opened as Open opens it. Otherwise
// no file is opened yet: Compile opens those its query reads, after
// leaving out the partitions its filter rules out, and Resolve (or Schema)
// opens them all to give the schema of every file.
func OpenDataset(mem memory.Allocator, inputs []string, o DatasetOptions) (*Source, error) {
	if len(inputs) == 0 {
		return nil, errors.New("no input given")
	}
	for _, in := range inputs {
		if in != "-" {
			continue
		}
		if len(inputs) > 1 {
			return nil, errors.New("- (the standard input) must be the only input: it cannot be read along with files")
		}
		if o.Stdin == nil {
			return nil, errors.New("-: there is no standard input to read")
		}
		return OpenStream(mem, StdinName, o.Stdin, o.CSV)
	}
	var paths []string
	for _, in := range inputs {
		files, err := expandInput(in)
		if err != nil {
			return nil, err
		}
		paths = append(paths, files...)
	}
	var hive []hiveColumn
	var values [][]scalar.Scalar
	if !o.NoHive {
		var err error
		if hive, values, err = hivePartitions(paths); err != nil {
			return nil, err
		}
	}
	if len(paths) == 1 && len(hive) == 0 {
		return openSniffed(mem, paths[0], o.CSV)
	}
	ds := &dataset{mem: mem, csv: o.CSV, hive: hive, values: values}
	ds.csv.partialTypes = true
	for i, p := range paths {
		m := &member{path: p, index: i}
		if st, err := os.Stat(p); err == nil {
			m.size = st.Size()
		}
		ds.files = append(ds.files, m)
	}
	name := strings.Join(inputs, ", ")
	src := &Source{name: name, mem: mem, ds: ds, close: ds.close}
	return src, nil
}

// OpenStream opens r, read once from its start to its end (such as the
// standard input), as an Arrow IPC stream or CSV, told apart by its first
// bytes. It is streamed: never held in memory whole. name is how messages
// name it.
func OpenStream(mem memory.Allocator, name string, r io.Reader, o CSVOptions) (src *Source, err error) {
	defer func() {
		if v := recover(); v != nil {
			src, err = nil, fmt.Errorf("%s: not readable, it may be corrupt: %v", name, v)
		}
	}()
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fileError(name, "cannot be read", err)
	}
	in := streamInput{r: br, size: -1, close: func() error { return nil }}
	switch f := Sniff(head); f {
	case FormatIPCStream:
		src, err = openIPCStream(mem, name, in)
	case FormatCSV:
		src, err = openCSV(mem, name, in, o)
	default:
		return nil, fmt.Errorf("%s: the bytes are %s, which is read from a file, not a stream (it is read from its end); give it as a file", name, f)
	}
	if err != nil {
		return nil, err
	}
	src.mem = mem
	return src, nil
}

// dataset is the files of a source of many.
type dataset struct {
	mem   memory.Allocator
	csv   CSVOptions
	files []*member
	// hive are the partition columns; values[i] the values of file i.
	hive   []hiveColumn
	values [][]scalar.Scalar
	// all is the schema of every file, once Resolve has unified it.
	all *unified
	err error
}

// member is one file of a dataset. A file is open only while it is used
// — its schema read, its row groups planned, its rows scanned — so a
// dataset of many files holds one or two open at a time.
type member struct {
	path  string
	index int   // in dataset.files
	size  int64 // in bytes, from the directory: known without opening
	src   *Source
	// schema is the file's, from when it was first opened.
	schema *arrow.Schema
}

// open opens the file, unless it is open. A file whose schema is not what
// it was when first opened has changed under the scan: an error.
func (ds *dataset) open(m *member) (*Source, error) {
	if m.src != nil {
		return m.src, nil
	}
	src, err := openSniffed(ds.mem, m.path, ds.csv)
	if err != nil {
		return nil, err
	}
	if m.schema == nil {
		m.schema = src.schema
	} else if !m.schema.Equal(src.schema) {
		src.Close()
		return nil, fmt.Errorf("%s: the file changed while it was read: its schema is not the one it had", m.path)
	}
	m.src = src
	return src, nil
}

// release closes the file, if open.
func (ds *dataset) release(m *member) {
	if m.src != nil {
		m.src.Close()
		m.src = nil
	}
}

func (ds *dataset) close() error {
	var first error
	for _, m := range ds.files {
		if m.src != nil {
			if err := m.src.Close(); err != nil && first == nil {
				first = err
			}
			m.src = nil
		}
	}
	return first
}

// Origin says where a column of a source comes from.
type Origin struct {
	Name string
	// Hive is set for a partition column, whose values come from the
	// files' paths.
	Hive bool
	// Files are the files that hold the column, Types its type in each
	// (as colexpr names it, or the Arrow type it cannot read).
	Files, Types []string
}

// unified is the schema of some files of a dataset, unified by name.
type unified struct {
	schema  *arrow.Schema
	origins []Origin
}

// unify opens files and unifies their schemas by column name, as DuckDB's
// union_by_name does: the columns in the order they first appear, then the
// partition columns; a column some files lack is nullable (null in them);
// types that differ meet at their supertype (dtype.Supertype), or the
// error names the column, both types and the files they come from.
func (ds *dataset) unify(files []*member) (*unified, error) {
	type column struct {
		name      string
		arrowType arrow.DataType
		t         dtype.DType
		ok        bool   // colexpr reads the type
		from      string // the file the current type comes from
		same      bool   // every file has arrowType
		nullable  bool
		dup       bool // a file has two columns of the name
		seenIn    *member
		origin    Origin
	}
	var cols []*column
	byName := map[string]*column{}
	isHive := map[string]bool{}
	for _, h := range ds.hive {
		isHive[h.name] = true
	}
	for _, m := range files {
		if m.schema == nil {
			if _, err := ds.open(m); err != nil {
				return nil, err
			}
			ds.release(m)
		}
		for _, f := range m.schema.Fields() {
			if isHive[f.Name] {
				continue // the partition value wins
			}
			t, err := dtype.FromArrow(f.Type, f.Nullable)
			typeName := f.Type.String()
			if err == nil {
				typeName = t.String()
			}
			c := byName[f.Name]
			if c != nil && c.seenIn == m {
				c.dup = true // left out, as a file's own duplicates are
				continue
			}
			if c == nil {
				c = &column{name: f.Name, arrowType: f.Type, t: t, ok: err == nil, from: m.path, same: true, nullable: f.Nullable, origin: Origin{Name: f.Name}}
				byName[f.Name] = c
				cols = append(cols, c)
			} else {
				if !arrow.TypeEqual(c.arrowType, f.Type) {
					c.same = false
					if !c.ok || err != nil {
						return nil, fmt.Errorf("column %s: %s has type %s and %s has %s: colexpr cannot read one of them, so they cannot be unified",
							dtype.QuoteFieldName(f.Name), c.from, c.arrowType, m.path, f.Type)
					}
					st, ok := dtype.Supertype(c.t, t)
					if !ok {
						return nil, fmt.Errorf("column %s: %s has type %s and %s has %s, which have no common type; cast one of them, or read the files apart",
							dtype.QuoteFieldName(f.Name), c.from, c.t, m.path, t)
					}
					if !st.Equal(c.t) {
						c.from = m.path
					}
					c.t = st
				}
				c.nullable = c.nullable || f.Nullable
			}
			c.seenIn = m
			c.origin.Files = append(c.origin.Files, m.path)
			c.origin.Types = append(c.origin.Types, typeName)
		}
	}
	if len(files) == len(ds.files) {
		// A type given to a CSV column no file has is likely a typo.
		for name := range ds.csv.Types {
			if byName[name] == nil {
				return nil, fmt.Errorf("a type is given to column %s, which no file has", dtype.QuoteFieldName(name))
			}
		}
	}
	u := &unified{}
	var fields []arrow.Field
	for _, c := range cols {
		f := arrow.Field{Name: c.name, Type: c.arrowType, Nullable: c.nullable || len(c.origin.Files) < len(files)}
		if !c.same {
			f.Type = dtype.ToArrow(c.t)
		}
		fields = append(fields, f)
		if c.dup {
			// Twice: colexpr.NewSchema leaves the name out, with why.
			fields = append(fields, f)
		}
		u.origins = append(u.origins, c.origin)
	}
	for _, h := range ds.hive {
		fields = append(fields, dtype.ToArrowField(h.name, h.typ))
		u.origins = append(u.origins, Origin{Name: h.name, Hive: true})
	}
	u.schema = arrow.NewSchema(fields, nil)
	return u, nil
}

// Resolve opens every file of a dataset and unifies their schemas, which
// Schema then gives; the error says which file cannot be read, or which
// column has types that do not meet. For other sources it does nothing.
// Compile does not need it: it opens only the files its query reads.
func (s *Source) Resolve() error {
	if s.ds == nil || s.ds.all != nil || s.ds.err != nil {
		if s.ds != nil {
			return s.ds.err
		}
		return nil
	}
	s.ds.all, s.ds.err = s.ds.unify(s.ds.files)
	if s.ds.err == nil {
		s.schema = s.ds.all.schema
	}
	return s.ds.err
}

// Origins says where each column of the source comes from: of a dataset,
// the files that hold it (after Resolve), or its partition; of a file,
// that file.
func (s *Source) Origins() ([]Origin, error) {
	if s.ds != nil {
		if err := s.Resolve(); err != nil {
			return nil, err
		}
		return s.ds.all.origins, nil
	}
	var out []Origin
	for _, f := range s.schema.Fields() {
		t := f.Type.String()
		if d, err := dtype.FromArrow(f.Type, f.Nullable); err == nil {
			t = d.String()
		}
		out = append(out, Origin{Name: f.Name, Files: []string{s.name}, Types: []string{t}})
	}
	return out, nil
}
