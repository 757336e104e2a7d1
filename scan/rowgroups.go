package scan

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/prune"
)

// Row-group pruning. Before a Parquet file is scanned, the filter's
// falsifier (package prune) is evaluated over the statistics of every row
// group at once, and the groups it proves hold no matching
// row are left out of the scan; then, over the groups left, with the
// answers of their bloom filters (bloom.go) about the values of = and IN,
// and those it now proves hold no matching row are left out too; then its
// verifier, and the groups it proves
// hold only matching rows are read without evaluating the filter; then,
// in the other row groups read, the pages the page index's statistics
// rule out are skipped (pages.go). Pruning
// only ever removes rows the filter would have removed, and keeps only rows
// it would have kept: the output is the same with Options.NoPrune.

// rowGroupPlan is which row groups of an input a scan reads.
type rowGroupPlan struct {
	// total is the input's row group count, or -1 when it has none (it is
	// not Parquet).
	total int
	// read are the row groups to read, in order; nil reads them all.
	read []int
	// rows maps rows read to rows of the file; nil when they are the same.
	rows *rowMap
	// note says why statistics were not used although they could have
	// been (they could not be read), for Stats.PruneNote.
	note string
	// whole are the row groups read whose statistics prove that every row
	// passes the filter (prune.Verifier): their rows are kept without
	// evaluating it. nil when there are none.
	whole *wholeRows
	// bloomSkipped are the row groups left out by their bloom filters
	// after their statistics could not rule them out; bloomFilters how
	// many column chunks' filters were read for that; bloomNote says
	// why a filter could not be used (it could not be read).
	bloomSkipped, bloomFilters int
	bloomNote                  string
	// pages is what page pruning decided (pages.go).
	pages pagePlan
}

// wholeRows are row ranges, in the rows read (a batch's offset), that need
// no filtering: the row groups taken whole.
type wholeRows struct {
	groups     int          // how many row groups
	index      map[int]bool // which, by index in the file
	start, end []int64      // the ranges, in order
}

// has reports whether row group gi is taken whole.
func (w *wholeRows) has(gi int) bool { return w != nil && w.index[gi] }

// covers reports whether the n rows read from offset on are all in one
// range: a batch of a row group taken whole.
func (w *wholeRows) covers(offset, n int64) bool {
	if w == nil {
		return false
	}
	i := sort.Search(len(w.start), func(i int) bool { return w.start[i] > offset }) - 1
	return i >= 0 && offset+n <= w.end[i]
}

// takeWhole evaluates the verifier over the statistics of the row groups
// read (stats gives them for a list of columns) and records those whose
// every row passes. A verifier that cannot be evaluated takes none.
func (g *rowGroupPlan) takeWhole(mem memory.Allocator, verifier *prune.Pruner, groupRows []int64, stats func([]prune.Column) ([]prune.ChunkStats, error)) {
	if verifier == nil || verifier.Inconclusive() || len(groupRows) == 0 {
		return
	}
	all, err := stats(verifier.Columns)
	if err != nil {
		return
	}
	whole, err := verifier.Skip(mem, all)
	if err != nil {
		return
	}
	read := g.read
	if read == nil {
		read = make([]int, len(groupRows))
		for i := range read {
			read[i] = i
		}
	}
	w := &wholeRows{index: map[int]bool{}}
	var at int64
	for _, gi := range read {
		if whole[gi] {
			w.groups++
			w.index[gi] = true
			w.start = append(w.start, at)
			w.end = append(w.end, at+groupRows[gi])
		}
		at += groupRows[gi]
	}
	if w.groups > 0 {
		g.whole = w
	}
}

// planRowGroups builds the filter's falsifier and decides which row
// groups to read.
func (p *Plan) planRowGroups() {
	src := p.src
	if p.Where != nil && !p.none && !p.opts.NoPrune {
		p.pruner, p.pruneErr = prune.Falsifier(p.Where.Bound(), src.Schema().Scope())
		if p.pruneErr == nil {
			p.verifier, _ = prune.Verifier(p.Where.Bound(), src.Schema().Scope())
		}
	}
	if src.rowGroups == nil {
		p.groups = rowGroupPlan{total: -1}
		return
	}
	p.groups = rowGroupPlan{total: len(src.rowGroups)}
	plan := &p.groups
	if p.none {
		plan.read = []int{}
		return
	}
	if p.pruneErr != nil {
		plan.note = "no falsifier: " + p.pruneErr.Error()
		return
	}
	plan.prune(src.mem, p.pruner, src.rowGroups, src.groupStats, src.probeBlooms)
	plan.takeWhole(src.mem, p.verifier, src.rowGroups, src.groupStats)
	// Pages are skipped only where pqread reads the columns: it reads the
	// row ranges left.
	if src.pages != nil && len(p.fields) > 0 && src.inline(p.fields) {
		plan.narrowPages(src.mem, p.pruner, src.rowGroups, src.pages, p.fields)
	}
}

// prune decides which row groups to read: the falsifier is evaluated over
// the statistics of every row group at once, then, when it asks bloom
// filters about values (prune.Column.Probes), again over the row groups
// left, with their filters' answers. Filters are read only for row groups
// the statistics could not rule out. stats gives the statistics of a list
// of columns; blooms (nil when the input has no filters) asks the filters
// of some row groups and sets Absent in the statistics.
func (g *rowGroupPlan) prune(mem memory.Allocator, pruner *prune.Pruner, groupRows []int64,
	stats func([]prune.Column) ([]prune.ChunkStats, error),
	blooms func(cols []prune.Column, groups []int, stats []prune.ChunkStats) (int, string)) {
	if pruner == nil || pruner.Inconclusive() || len(groupRows) == 0 {
		return
	}
	all, err := stats(pruner.Columns)
	if err != nil {
		g.note = err.Error()
		return
	}
	skip, err := pruner.Skip(mem, all)
	if err != nil {
		g.note = err.Error()
		return
	}
	left := []int{}
	for i, s := range skip {
		if !s {
			left = append(left, i)
		}
	}
	if blooms != nil && pruner.HasProbes() && len(left) > 0 {
		g.bloomFilters, g.bloomNote = blooms(pruner.Columns, left, all)
		if g.bloomFilters > 0 {
			sub := make([]prune.ChunkStats, len(left))
			for j, gi := range left {
				sub[j] = all[gi]
			}
			// An error keeps every row group left: they are read.
			if again, err := pruner.Skip(mem, sub); err == nil {
				kept := []int{}
				for j, gi := range left {
					if again[j] {
						g.bloomSkipped++
					} else {
						kept = append(kept, gi)
					}
				}
				left = kept
			}
		}
	}
	if len(left) == len(groupRows) {
		return // nothing skipped: read the file straight through
	}
	g.read = left
	g.rows = newRowMap(groupRows, left)
}

// rowMap maps the position of a row among the rows read to its row in the
// file, when some row groups are not read.
type rowMap struct {
	readStart []int64 // rows read before each group read
	fileStart []int64 // rows of the file before it
}

func newRowMap(groupRows []int64, read []int) *rowMap {
	fileStart := make([]int64, len(groupRows))
	var n int64
	for g, rows := range groupRows {
		fileStart[g] = n
		n += rows
	}
	m := &rowMap{}
	var at int64
	for _, g := range read {
		m.readStart = append(m.readStart, at)
		m.fileStart = append(m.fileStart, fileStart[g])
		at += groupRows[g]
	}
	return m
}

// file is the row of the file (from 0) of the row read at position read.
func (m *rowMap) file(read int64) int64 {
	if m == nil || len(m.readStart) == 0 {
		return read
	}
	// The last group that starts at or before read.
	i := sort.Search(len(m.readStart), func(i int) bool { return m.readStart[i] > read }) - 1
	if i < 0 {
		i = 0
	}
	return m.fileStart[i] + read - m.readStart[i]
}
