package main

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/prune"
)

// Row-group pruning. Before a Parquet file is scanned, the --where
// predicate's falsifier (package prune) is evaluated over the statistics
// of every row group at once, and the groups it proves hold no matching
// row are left out of the scan. Pruning only ever removes rows the filter
// would have removed: the output is the same with --no-prune.

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
	// been (they could not be read), for --stats.
	note string
}

// planRowGroups decides which row groups of src to read for the predicate
// where (nil: every row), compiled against full.
func planRowGroups(src *source, where *stages, full *schemaScope, noPrune bool, mem memory.Allocator) rowGroupPlan {
	if src.rowGroups == nil {
		return rowGroupPlan{total: -1}
	}
	plan := rowGroupPlan{total: len(src.rowGroups)}
	if where == nil || noPrune || len(src.rowGroups) == 0 {
		return plan
	}
	pruner, err := prune.Falsifier(where.optimized, full.scope())
	if err != nil {
		plan.note = "no falsifier: " + err.Error()
		return plan
	}
	if pruner.Inconclusive() {
		return plan
	}
	stats, err := src.groupStats(pruner.Columns)
	if err != nil {
		plan.note = err.Error()
		return plan
	}
	skip, err := pruner.Skip(mem, stats)
	if err != nil {
		plan.note = err.Error()
		return plan
	}
	plan.read = []int{}
	for g, s := range skip {
		if !s {
			plan.read = append(plan.read, g)
		}
	}
	if len(plan.read) == len(skip) {
		plan.read = nil // nothing skipped: read the file straight through
		return plan
	}
	plan.rows = newRowMap(src.rowGroups, plan.read)
	return plan
}

// report is what --stats prints.
func (p rowGroupPlan) report(name string) string {
	if p.total < 0 {
		return fmt.Sprintf("row groups: none (%s is not a Parquet file)\n", name)
	}
	read := p.total
	if p.read != nil {
		read = len(p.read)
	}
	s := fmt.Sprintf("row groups: read %d, skipped %d of %d\n", read, p.total-read, p.total)
	if p.note != "" {
		s += "row groups: not pruned: " + p.note + "\n"
	}
	return s
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
