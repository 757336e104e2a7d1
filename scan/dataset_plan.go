package scan

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/eval"
	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// Planning and scanning a dataset: which files to read (partition
// pruning), which of their row groups (statistics, per file), and how each
// file's batches become the plan's (adapter); then the files one after
// the other (datasetScan).

// datasetPlan is how a plan reads a dataset.
type datasetPlan struct {
	ds      *dataset
	members []*memberPlan // the files to read, in order
}

// memberPlan is how a plan reads one file of a dataset.
type memberPlan struct {
	m      *member
	groups rowGroupPlan
	// fields are the file's fields to read, in its schema order; adapt
	// turns its batches into the plan's.
	fields []int
	adapt  *adapter
	file   *fileRead
	// bytes is how much of the file the scan reads (Stats.Bytes),
	// skippedBytes how much of its columns it does not (BytesSkipped).
	bytes, skippedBytes int64
	// inline: the file's scan can filter and project its batches itself,
	// on its decoding goroutines (scanSpec.process), or has no batch
	// worth the pipeline (no column or no row group read).
	inline bool
}

// fileRead names the file batches come from, for messages.
type fileRead struct {
	name  string
	rows  *rowMap
	whole *wholeRows // the rows that need no filtering
}

// compileDataset compiles q over a dataset: the files the filter's
// partition conjuncts rule out are left out first, unopened; the others
// are opened and their schemas unified, and the query is compiled against
// that. Should it fail there (a column that only files left out hold), it
// is compiled against every file's schema.
func compileDataset(src *Source, q Query, o Options) (*Plan, error) {
	ds := src.ds
	read := ds.files
	if !o.NoPrune {
		if pred := partitionFilter(ds.hive, q.Where, o); pred != nil {
			keep := prunePartitions(ds.mem, ds.hive, ds.values, pred)
			read = nil
			for i, m := range ds.files {
				if keep[i] {
					read = append(read, m)
				}
			}
		}
	}
	schemaOf := read
	switch {
	case compiledAgainstAll(q):
		// A program is bound to the schema of every file.
		schemaOf = ds.files
	case len(schemaOf) == 0:
		schemaOf = ds.files[:1]
	}
	var u *unified
	var err error
	if ds.all != nil && len(schemaOf) == len(ds.files) {
		u = ds.all
	} else if u, err = ds.unify(schemaOf); err != nil {
		return nil, err
	}
	p, err := compile(ds.view(src.name, u), q, o)
	if err != nil && len(schemaOf) < len(ds.files) {
		if all, uerr := ds.unify(ds.files); uerr == nil {
			if p2, err2 := compile(ds.view(src.name, all), q, o); err2 == nil {
				p, err = p2, nil
			}
		}
	}
	if err != nil {
		return nil, err
	}
	p.ds = &datasetPlan{ds: ds}
	for _, m := range read {
		mp, err := p.planMember(m)
		if err != nil {
			return nil, err
		}
		p.ds.members = append(p.ds.members, mp)
	}
	p.src.open = func(spec scanSpec) (scanner, error) {
		s := &datasetScan{plan: p, spec: spec, direct: spec.processFile != nil}
		for _, mp := range p.ds.members {
			s.direct = s.direct && mp.inline
		}
		return s, nil
	}
	return p, nil
}

// compiledAgainstAll reports whether an expression of q is a program,
// compiled against the source's Schema: that of every file.
func compiledAgainstAll(q Query) bool {
	if q.Where != nil && q.Where.Program != nil {
		return true
	}
	for _, s := range q.Select {
		if s.Program != nil {
			return true
		}
	}
	return false
}

// view is a source of the unified schema u, whose scan the plan sets.
func (ds *dataset) view(name string, u *unified) *Source {
	return &Source{name: name, mem: ds.mem, schema: u.schema, close: func() error { return nil }}
}

// planMember decides which row groups of a file to read, which of its
// columns, and how its batches become the plan's.
func (p *Plan) planMember(m *member) (*memberPlan, error) {
	ds := p.ds.ds
	src, err := ds.open(m)
	if err != nil {
		return nil, err
	}
	defer ds.release(m)
	mp := &memberPlan{m: m, fields: []int{}}
	// The columns.
	fileSch := src.Schema()
	readSchema := make([]arrow.Field, len(p.fields))
	fileRoot := p.src.schema
	a := &adapter{cols: make([]adaptCol, len(p.fields))}
	var fileFields []dtype.Field
	wanted := map[int]bool{}
	for _, f := range p.fields {
		af := fileRoot.Field(f)
		if hiveIndex(ds.hive, af.Name) < 0 && fileSch.Root.FieldIndex(af.Name) >= 0 {
			wanted[fileSch.Arrow.FieldIndices(af.Name)[0]] = true
		}
	}
	pos := map[string]int{}
	for i, f := range fileSch.Arrow.Fields() {
		if wanted[i] {
			pos[f.Name] = len(mp.fields)
			mp.fields = append(mp.fields, i)
			fileFields = append(fileFields, fileSch.Root.Fields()[fileSch.Root.FieldIndex(f.Name)])
		}
	}
	fileStruct := dtype.Struct(fileFields, false)
	for i, f := range p.fields {
		af := fileRoot.Field(f)
		readSchema[i] = af
		want := p.read.Fields()[i].Type
		c := &a.cols[i]
		c.from = -1
		if k := hiveIndex(ds.hive, af.Name); k >= 0 {
			c.constant = ds.values[m.index][k]
			continue
		}
		j, ok := pos[af.Name]
		if !ok {
			c.constant = scalar.Null(want)
			continue
		}
		c.from = j
		if !arrow.TypeEqual(src.schema.Field(mp.fields[j]).Type, af.Type) {
			get, err := expr.NewCall(fn.GetItem(af.Name), expr.NewRoot(fileStruct))
			if err == nil {
				c.cast, err = expr.NewCall(fn.Cast(want), get)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: column %s: reading its %s as %s: %w", m.path, dtype.QuoteFieldName(af.Name), fileFields[j].Type, want, err)
			}
		}
	}
	a.schema = arrow.NewSchema(readSchema, nil)
	mp.adapt = a
	// The row groups.
	if src.rowGroups != nil {
		mp.groups = rowGroupPlan{total: len(src.rowGroups)}
		if p.none {
			mp.groups.read = []int{}
		} else {
			stats := func(cols []prune.Column) ([]prune.ChunkStats, error) { return p.memberStats(m, src, cols) }
			mp.groups.prune(ds.mem, p.pruner, src.rowGroups, stats, func(cols []prune.Column, groups []int, stats []prune.ChunkStats) (int, string) {
				return p.memberBlooms(m, src, cols, groups, stats)
			})
			mp.groups.takeWhole(ds.mem, p.verifier, src.rowGroups, stats)
			if src.pages != nil && len(mp.fields) > 0 && src.inline(mp.fields) && p.pagesComparable(src) {
				mp.groups.narrowPages(ds.mem, p.pruner, src.rowGroups, src.pages, mp.fields)
			}
		}
	} else {
		mp.groups = rowGroupPlan{total: -1}
	}
	mp.file = &fileRead{name: m.path, rows: mp.groups.rows, whole: mp.groups.whole}
	mp.inline = src.rowGroups != nil && (len(mp.fields) == 0 || mp.groups.read != nil && len(mp.groups.read) == 0 || src.inline(mp.fields))
	switch {
	case p.none:
	case src.chunkBytes != nil:
		mp.bytes = src.chunkBytes(mp.fields, mp.groups.read) - mp.groups.pages.skippedBytes
		mp.skippedBytes = src.chunkBytes(mp.fields, nil) - mp.bytes
	default:
		mp.bytes = src.size
	}
	return mp, nil
}

// pagesComparable reports whether a file's page statistics can be read
// for the falsifier's columns as they are: every column it asks about is a
// column of the file of the unified type, or one the file lacks (its pages
// are then unknown, never assumed). A partition column or one read as
// another type (whose bounds memberStats casts) keeps the file's pages
// whole.
func (p *Plan) pagesComparable(src *Source) bool {
	if p.pruner == nil {
		return false
	}
	root := src.Schema().Root
	for _, c := range p.pruner.Columns {
		if hiveIndex(p.ds.ds.hive, c.Path[0]) >= 0 {
			return false
		}
		if t, ok := fieldType(root, c.Path); ok && !t.EqualIgnoreNullability(c.Type) {
			return false
		}
	}
	return true
}

func hiveIndex(cols []hiveColumn, name string) int {
	for i, c := range cols {
		if c.name == name {
			return i
		}
	}
	return -1
}

// memberStats are the statistics of cols (of the unified schema) in every
// row group of a file: a partition column's are its value, a column the
// file lacks is all null, and a column of another type than the unified
// one has its bounds cast to it (the types meet by widening, which keeps
// order), or unknown.
func (p *Plan) memberStats(m *member, src *Source, cols []prune.Column) ([]prune.ChunkStats, error) {
	ds := p.ds.ds
	fileRoot := src.Schema().Root
	var fileCols []prune.Column
	at := make([]int, len(cols)) // in fileCols; -1: missing; -2-k: partition k
	for i, c := range cols {
		if k := hiveIndex(ds.hive, c.Path[0]); k >= 0 {
			at[i] = -2 - k
			continue
		}
		t, ok := fieldType(fileRoot, c.Path)
		if !ok {
			at[i] = -1
			continue
		}
		at[i] = len(fileCols)
		fileCols = append(fileCols, prune.Column{Path: c.Path, Type: t})
	}
	var fileStats []prune.ChunkStats
	if len(fileCols) > 0 {
		var err error
		if fileStats, err = src.groupStats(fileCols); err != nil {
			return nil, err
		}
	}
	out := make([]prune.ChunkStats, len(src.rowGroups))
	for g, rows := range src.rowGroups {
		cs := prune.ChunkStats{RowCount: rows, Columns: make([]prune.ColumnStats, len(cols))}
		for i, c := range cols {
			switch {
			case at[i] == -1:
				cs.Columns[i] = prune.ColumnStats{Min: scalar.Null(c.Type), Max: scalar.Null(c.Type), NullCount: rows}
			case at[i] <= -2:
				v := ds.values[m.index][-2-at[i]]
				if v.IsNull() {
					cs.Columns[i] = prune.ColumnStats{Min: v, Max: v, NullCount: rows}
				} else {
					cs.Columns[i] = prune.ColumnStats{Min: v, Max: v, NullCount: 0}
				}
			default:
				s := fileStats[g].Columns[at[i]]
				if t := fileCols[at[i]].Type; !t.EqualIgnoreNullability(c.Type) {
					s.Min, s.Max = castBound(s.Min, c.Type), castBound(s.Max, c.Type)
				}
				cs.Columns[i] = s
			}
		}
		out[g] = cs
	}
	return out, nil
}

// memberBlooms asks the bloom filters of a file's row groups about the
// probes of cols (of the unified schema), as memberStats gives their
// statistics: a probe is converted to the type of the file's column (the
// types meet by widening, so the conversion back must give the probe), a
// value it cannot be converted to exactly is not asked about, and a
// partition column or a column the file lacks has no filter (its
// statistics decide).
func (p *Plan) memberBlooms(m *member, src *Source, cols []prune.Column, groups []int, stats []prune.ChunkStats) (int, string) {
	ds := p.ds.ds
	if src.probeBlooms == nil {
		return 0, ""
	}
	fileRoot := src.Schema().Root
	var fileCols []prune.Column
	var at []int        // for each file column, its index in cols
	var probeAt [][]int // for each file column, the index of each probe in its column's Probes
	for i, c := range cols {
		if len(c.Probes) == 0 || hiveIndex(ds.hive, c.Path[0]) >= 0 {
			continue
		}
		t, ok := fieldType(fileRoot, c.Path)
		if !ok {
			continue
		}
		fc := prune.Column{Path: c.Path, Type: t}
		var ks []int
		for k, v := range c.Probes {
			if fv, ok := exactCast(v, t); ok {
				fc.Probes = append(fc.Probes, fv)
				ks = append(ks, k)
			}
		}
		if len(ks) > 0 {
			fileCols = append(fileCols, fc)
			at = append(at, i)
			probeAt = append(probeAt, ks)
		}
	}
	if len(fileCols) == 0 {
		return 0, ""
	}
	fileStats := make([]prune.ChunkStats, len(src.rowGroups))
	for g := range fileStats {
		fileStats[g].Columns = make([]prune.ColumnStats, len(fileCols))
	}
	read, note := src.probeBlooms(fileCols, groups, fileStats)
	for _, g := range groups {
		for j, fs := range fileStats[g].Columns {
			if fs.Absent == nil {
				continue
			}
			i := at[j]
			absent := make([]bool, len(cols[i].Probes))
			for q, k := range probeAt[j] {
				absent[k] = q < len(fs.Absent) && fs.Absent[q]
			}
			stats[g].Columns[i].Absent = absent
		}
	}
	return read, note
}

// exactCast is v converted to t, when converting it back gives v.
func exactCast(v scalar.Scalar, t dtype.DType) (scalar.Scalar, bool) {
	if v.DType().EqualIgnoreNullability(t) {
		return v, true
	}
	fv, err := scalar.Cast(v, t.AsNonNullable())
	if err != nil {
		return scalar.Scalar{}, false
	}
	back, err := scalar.Cast(fv, v.DType())
	if err != nil {
		return scalar.Scalar{}, false
	}
	c, err := scalar.Compare(back, v)
	return fv, err == nil && c == 0
}

// fieldType is the type of the field at path below t.
func fieldType(t dtype.DType, path []string) (dtype.DType, bool) {
	for _, name := range path {
		if !t.IsStruct() {
			return dtype.DType{}, false
		}
		k := t.FieldIndex(name)
		if k < 0 {
			return dtype.DType{}, false
		}
		t = t.Fields()[k].Type
	}
	return t, true
}

// castBound casts a statistic to t, or makes it unknown.
func castBound(v scalar.Scalar, t dtype.DType) scalar.Scalar {
	if v.IsNull() {
		return scalar.Null(t)
	}
	c, err := scalar.Cast(v, t.AsNullable())
	if err != nil {
		return scalar.Null(t)
	}
	return c
}

// adapter turns a file's batches into the plan's: its columns in the
// plan's order and types, a partition column's value and null for a
// column it lacks.
type adapter struct {
	schema *arrow.Schema
	cols   []adaptCol
}

type adaptCol struct {
	from     int           // the column of the file's batch, or -1
	cast     *expr.Bound   // casts it to the plan's type, over the batch
	constant scalar.Scalar // when from < 0
}

func (a *adapter) apply(mem memory.Allocator, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := rec.NumRows()
	cols := make([]arrow.Array, len(a.cols))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range a.cols {
		var err error
		switch {
		case c.from < 0:
			cols[i], err = scalar.MakeArray(mem, c.constant, int(n))
		case c.cast != nil:
			cols[i], err = eval.EvalRecord(mem, c.cast, rec)
		default:
			cols[i] = rec.Column(c.from)
			cols[i].Retain()
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", dtype.QuoteFieldName(a.schema.Field(i).Name), err)
		}
	}
	return array.NewRecordBatch(a.schema, cols, n), nil
}

// datasetScan reads the files of a plan one after the other. When every
// file's scan can filter and project on its own decoding goroutines
// (Parquet of flat columns), it has them do so (direct), as the scan of
// one such file does, and hands out their results; otherwise it hands
// out the files' batches, made the plan's, to the pipeline.
type datasetScan struct {
	plan   *Plan
	spec   scanSpec
	direct bool

	mu      sync.Mutex
	at      int     // the file being read
	cur     scanner // its scan, nil between files
	curFile *fileRead
	// bytes are the sizes of the files to read, done those of the files
	// read.
	bytes, done int64
	// offset counts the rows of the current file processed here (direct).
	offset int64
	sized  bool
}

func (s *datasetScan) processes() bool { return s.direct }

func (s *datasetScan) Next() (arrow.RecordBatch, error) {
	members := s.plan.ds.members
	for {
		s.mu.Lock()
		if s.cur == nil {
			if s.at >= len(members) {
				s.mu.Unlock()
				return nil, nil
			}
			mp := members[s.at]
			spec := s.spec
			spec.fields = append([]int{}, mp.fields...)
			spec.groups = mp.groups.read
			spec.ranges = mp.groups.pages.ranges
			spec.process = nil
			if s.direct {
				processFile := s.spec.processFile
				spec.process = func(rec arrow.RecordBatch, offset int64) (arrow.RecordBatch, error) {
					return processFile(rec, offset, mp)
				}
			}
			src, err := s.plan.ds.ds.open(mp.m)
			if err != nil {
				s.mu.Unlock()
				return nil, err
			}
			cur, err := src.open(spec)
			if err != nil {
				s.plan.ds.ds.release(mp.m)
				s.mu.Unlock()
				return nil, err
			}
			s.cur, s.curFile, s.offset = cur, mp.file, 0
		}
		cur, mp := s.cur, members[s.at]
		s.mu.Unlock()
		rec, err := cur.Next()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			s.mu.Lock()
			s.cur.Close()
			s.cur = nil
			s.plan.ds.ds.release(mp.m)
			s.done += mp.m.size
			s.at++
			s.mu.Unlock()
			continue
		}
		if s.direct {
			if pr, ok := cur.(processor); ok && pr.processes() {
				return rec, nil // filtered and projected
			}
			// A scan without columns (row counts only): its batches are
			// small and cheap, processed here.
			s.mu.Lock()
			offset := s.offset
			s.offset += rec.NumRows()
			s.mu.Unlock()
			out, err := s.spec.processFile(rec, offset, mp)
			rec.Release()
			return out, err
		}
		out, err := mp.adapt.apply(s.plan.src.mem, rec)
		rec.Release()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", mp.m.path, err)
		}
		return out, nil
	}
}

// file is the file of the batch Next returned last.
func (s *datasetScan) file() *fileRead {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.curFile
}

// Progress is the part of the bytes of the files to read that was read.
func (s *datasetScan) Progress() float64 {
	pos := s.position()
	switch {
	case pos.TotalBytes > 0:
		return min(float64(pos.Bytes)/float64(pos.TotalBytes), 1)
	case pos.Files == 0:
		return 1
	}
	return float64(s.at) / float64(pos.Files)
}

// position says which file the scan is at and how many bytes of the
// files it has read.
func (s *datasetScan) position() Position {
	s.mu.Lock()
	defer s.mu.Unlock()
	members := s.plan.ds.members
	if !s.sized {
		for _, mp := range members {
			s.bytes += mp.m.size
		}
		s.sized = true
	}
	pos := Position{File: s.at, Files: len(members), Bytes: s.done, TotalBytes: s.bytes}
	if s.cur != nil && s.at < len(members) {
		pos.File++
		if f := s.cur.Progress(); f > 0 {
			pos.Bytes += int64(f * float64(members[s.at].m.size))
		}
	}
	return pos
}

func (s *datasetScan) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.Close()
		s.cur = nil
		s.plan.ds.ds.release(s.plan.ds.members[s.at].m)
	}
}

// stats adds a dataset's files, row groups and bytes to s.
func (dp *datasetPlan) stats(s *Stats) {
	s.Files = len(dp.ds.files)
	s.FilesRead = len(dp.members)
	s.FilesSkipped = s.Files - s.FilesRead
	s.RowGroups, s.RowGroupsRead, s.RowGroupsSkipped, s.Bytes = -1, 0, 0, 0
	for _, mp := range dp.members {
		if mp.groups.total >= 0 {
			if s.RowGroups < 0 {
				s.RowGroups = 0
			}
			s.RowGroups += mp.groups.total
			n := mp.groups.total
			if mp.groups.read != nil {
				n = len(mp.groups.read)
			}
			s.RowGroupsRead += n
			s.RowGroupsSkipped += mp.groups.total - n
			if mp.groups.whole != nil {
				s.RowGroupsWhole += mp.groups.whole.groups
			}
			s.RowGroupsSkippedBloom += mp.groups.bloomSkipped
			s.BloomFilters += mp.groups.bloomFilters
			if mp.groups.bloomNote != "" && s.BloomNote == "" {
				s.BloomNote = mp.m.path + ": " + mp.groups.bloomNote
			}
			if mp.groups.note != "" && s.PruneNote == "" {
				s.PruneNote = mp.groups.note
			}
			pp := &mp.groups.pages
			s.PageGroups += pp.groups
			s.Pages += pp.pages
			s.PagesSkipped += pp.skipped
			s.BytesSkippedPages += pp.skippedBytes
			if pp.note != "" && s.PageNote == "" {
				s.PageNote = mp.m.path + ": " + pp.note
			}
		}
		s.Bytes += mp.bytes
		s.BytesSkipped += mp.skippedBytes
	}
}
