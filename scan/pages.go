package scan

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/pqread"
	"github.com/colexpr/colexpr/prune"
	"github.com/colexpr/colexpr/scalar"
)

// Page pruning. A Parquet column chunk may have a page index: a column
// index (each data page's minimum, maximum, null count, and whether it is
// all null) and an offset index (each page's first row, offset and size).
// The pages of different columns start at different rows, so the rows of
// a row group are cut at every page start of the falsifier's columns into
// intervals, within each of which every such column is in one page, whose
// statistics are the interval's. The falsifier (the row groups' own) is
// evaluated over the intervals of every row group narrowed at once; those
// it falsifies hold no matching row. The others, merged where they touch,
// are the row ranges read: every column read is read at those rows only
// (pqread's Options.RowRanges), and its pages outside them not at all.
//
// The page index is read with arrow-go's metadata.PageIndexReader (the
// file's GetPageIndexReader), which exposes all pruning needs: the raw
// min and max of each page, its null count and null_pages flag, and the
// page locations. Its bounds are used as the footer's are (statValue),
// and need no exactness flag: the format defines them as lower and upper
// bounds, which a writer that shortens a byte array must keep.

// pageSpan is a data page of a column chunk: its first row and its
// compressed size.
type pageSpan struct {
	first int64
	size  int64
}

// pageIndex reads the page index of a Parquet file.
type pageIndex struct {
	pf       *file.Reader
	manifest *pqarrow.SchemaManifest
	size     int64 // of the file, to check the index's locations against
}

// group returns the page index reader of row group g, or nil when the
// row group has no page index or its locations lie outside the file (a
// corrupt footer must not make arrow-go allocate what it says).
func (x *pageIndex) group(g int) (rg *metadata.RowGroupPageIndexReader, err error) {
	md := x.pf.MetaData().RowGroup(g)
	any := false
	for c := 0; c < md.NumColumns(); c++ {
		for _, loc := range []func(int) (metadata.IndexLocation, bool){md.ColumnIndexLocation, md.OffsetIndexLocation} {
			l, ok := loc(c)
			if !ok {
				continue
			}
			if l.Offset < 0 || l.Length <= 0 || l.Offset > x.size || int64(l.Length) > x.size-l.Offset {
				return nil, fmt.Errorf("row group %d: a page index at offset %d of %d bytes, outside the file's %d", g, l.Offset, l.Length, x.size)
			}
			any = true
		}
	}
	if !any {
		return nil, nil
	}
	return x.pf.GetPageIndexReader().RowGroup(g)
}

// offsets returns the pages of the chunk of leaf from rg's offset index,
// or nil when it has none or it is not sound (first rows increasing from
// 0, all within the row group of rows rows).
func offsets(rg *metadata.RowGroupPageIndexReader, leaf int, rows int64) (out []pageSpan, err error) {
	defer recoverIndex(&err)
	oi, err := rg.GetOffsetIndex(leaf)
	if err != nil || oi == nil {
		return nil, err
	}
	for i, l := range oi.GetPageLocations() {
		prev := int64(-1)
		if i > 0 {
			prev = out[i-1].first
		}
		if (i == 0 && l.FirstRowIndex != 0) || l.FirstRowIndex <= prev || l.FirstRowIndex >= rows {
			return nil, fmt.Errorf("column %d: its offset index has page %d starting at row %d (the page before at %d), in a row group of %d rows", leaf, i, l.FirstRowIndex, prev, rows)
		}
		out = append(out, pageSpan{first: l.FirstRowIndex, size: int64(l.CompressedPageSize)})
	}
	return out, nil
}

// recoverIndex turns a panic of arrow-go's page index decoding (on some
// corrupt indexes) into an error.
func recoverIndex(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("the page index cannot be decoded: %v", v)
	}
}

// columnPages are one falsifier column's pages in a row group: where each
// starts, and its statistics.
type columnPages struct {
	starts []int64
	stats  []prune.ColumnStats
}

// pageStats reads the page statistics of column c (leaf leaf) in rg: nil
// when the chunk has no usable column index (none, one whose page count
// is not the offset index's, a nested column, an order other than the
// column's type's).
func (x *pageIndex) pageStats(rg *metadata.RowGroupPageIndexReader, leaf int, t dtype.DType, rows int64) (cp *columnPages, err error) {
	defer recoverIndex(&err)
	descr := x.pf.MetaData().Schema.Column(leaf)
	if descr.MaxRepetitionLevel() > 0 || descr.ColumnOrder() != parquet.ColumnOrders.TypeDefinedOrder {
		return nil, nil
	}
	spans, err := offsets(rg, leaf, rows)
	if err != nil || spans == nil {
		return nil, err
	}
	ci, err := rg.GetColumnIndex(leaf)
	if err != nil || ci == nil {
		return nil, err
	}
	nullPages, mins, maxs := ci.GetNullPages(), ci.GetMinValues(), ci.GetMaxValues()
	var nullCounts []int64
	if ci.IsSetNullCounts() {
		nullCounts = ci.GetNullCounts()
	}
	n := len(spans)
	if len(nullPages) != n || len(mins) != n || len(maxs) != n || (nullCounts != nil && len(nullCounts) != n) {
		return nil, fmt.Errorf("column %d: a column index of %d pages, an offset index of %d", leaf, len(nullPages), n)
	}
	byteArray := descr.PhysicalType() == parquet.Types.ByteArray
	cp = &columnPages{starts: make([]int64, n), stats: make([]prune.ColumnStats, n)}
	for p := range n {
		cp.starts[p] = spans[p].first
		s := prune.Unknown()
		end := rows
		if p+1 < n {
			end = spans[p+1].first
		}
		switch {
		case nullPages[p]:
			s.NullCount = end - spans[p].first
		default:
			if nullCounts != nil && nullCounts[p] >= 0 && nullCounts[p] <= end-spans[p].first {
				s.NullCount = nullCounts[p]
			}
			if v, ok := statValue(descr, t, mins[p], false); ok {
				s.Min = v
			}
			// An empty byte array maximum says every value is empty, or
			// that the writer had none to give: not a bound to trust.
			if !byteArray || len(maxs[p]) > 0 {
				if v, ok := statValue(descr, t, maxs[p], true); ok {
					s.Max = v
				}
			}
			if !s.Min.IsNull() && !s.Max.IsNull() {
				if c, err := scalar.Compare(s.Min, s.Max); err != nil || c > 0 {
					s.Min, s.Max = scalar.Null(dtype.Null()), scalar.Null(dtype.Null())
				}
			}
		}
		cp.stats[p] = s
	}
	return cp, nil
}

// intervals cuts a row group of rows rows at every page start of the
// columns cols, and gives each interval the statistics of the pages it
// lies in: the interval starts, and the statistics, aligned with them.
// A column without pages (nil) is unknown throughout. A page's null
// count holds for an interval only when it is 0 or the page is all null;
// otherwise the interval's is unknown.
func intervals(cols []*columnPages, rows int64) ([]int64, []prune.ChunkStats) {
	var starts []int64
	for _, c := range cols {
		if c != nil {
			starts = append(starts, c.starts...)
		}
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	k := 0
	for i, s := range starts {
		if i == 0 || s != starts[k-1] {
			starts[k] = s
			k++
		}
	}
	starts = starts[:k]
	stats := make([]prune.ChunkStats, len(starts))
	for i, s := range starts {
		end := rows
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		cs := prune.ChunkStats{RowCount: end - s, Columns: make([]prune.ColumnStats, len(cols))}
		for j, c := range cols {
			if c == nil {
				cs.Columns[j] = prune.Unknown()
				continue
			}
			p := sort.Search(len(c.starts), func(i int) bool { return c.starts[i] > s }) - 1
			st := c.stats[p]
			pageEnd := rows
			if p+1 < len(c.starts) {
				pageEnd = c.starts[p+1]
			}
			switch {
			case st.NullCount == 0:
			case st.NullCount == pageEnd-c.starts[p]:
				st.NullCount = end - s // all null
			default:
				st.NullCount = -1
			}
			cs.Columns[j] = st
		}
		stats[i] = cs
	}
	return starts, stats
}

// pagePlan is what page pruning decided for the row groups read.
type pagePlan struct {
	// ranges are the rows to read of the row groups narrowed (the others
	// are read whole); nil when none is.
	ranges map[int][]pqread.RowRange
	// groups is how many row groups were narrowed; pages how many data
	// pages the chunks read have in them (of those with an offset index),
	// skipped how many of those no range overlaps, skippedBytes their
	// compressed size.
	groups, pages, skipped int
	skippedBytes           int64
	// note says why a page index could not be used.
	note string
}

// narrowPages prunes the pages of the row groups read that are not taken
// whole, with the falsifier over their page statistics, and records the
// row ranges left (see the comment at the top of the file). fields are
// the top-level fields the scan reads, whose pages are counted.
func (g *rowGroupPlan) narrowPages(mem memory.Allocator, pruner *prune.Pruner, groupRows []int64, x *pageIndex, fields []int) {
	if pruner == nil || pruner.Inconclusive() || x == nil || len(pruner.Columns) == 0 {
		return
	}
	var leaves []int
	for _, f := range fields {
		leaves = appendLeaves(leaves, &x.manifest.Fields[f])
	}
	read := g.read
	if read == nil {
		read = make([]int, len(groupRows))
		for i := range read {
			read[i] = i
		}
	}
	colLeaves := make([]int, len(pruner.Columns))
	for i, c := range pruner.Columns {
		colLeaves[i] = leafColumn(x.manifest, c.Path)
	}
	type cand struct {
		group  int
		rg     *metadata.RowGroupPageIndexReader
		starts []int64
		from   int // its first interval in all
	}
	var cands []cand
	var all []prune.ChunkStats
	for _, gi := range read {
		if g.whole != nil && g.whole.has(gi) {
			continue
		}
		rg, err := x.group(gi)
		if err != nil {
			g.pages.note = err.Error()
			continue
		}
		if rg == nil {
			continue
		}
		rows := groupRows[gi]
		cols := make([]*columnPages, len(pruner.Columns))
		found := false
		for i, c := range pruner.Columns {
			if colLeaves[i] < 0 {
				continue
			}
			cp, err := x.pageStats(rg, colLeaves[i], c.Type, rows)
			if err != nil {
				g.pages.note = fmt.Sprintf("row group %d: %v", gi, err)
			}
			if cp != nil && len(cp.starts) > 1 {
				cols[i], found = cp, true
			}
		}
		if !found {
			continue // one page a column: the row group's statistics said it all
		}
		starts, stats := intervals(cols, rows)
		cands = append(cands, cand{group: gi, rg: rg, starts: starts, from: len(all)})
		all = append(all, stats...)
	}
	if len(cands) == 0 {
		return
	}
	skip, err := pruner.Skip(mem, all)
	if err != nil {
		g.pages.note = err.Error()
		return
	}
	for _, c := range cands {
		rows := groupRows[c.group]
		var ranges []pqread.RowRange
		for i, s := range c.starts {
			if skip[c.from+i] {
				continue
			}
			end := rows
			if i+1 < len(c.starts) {
				end = c.starts[i+1]
			}
			if n := len(ranges); n > 0 && ranges[n-1].End == s {
				ranges[n-1].End = end
			} else {
				ranges = append(ranges, pqread.RowRange{Start: s, End: end})
			}
		}
		if len(ranges) == 1 && ranges[0] == (pqread.RowRange{Start: 0, End: rows}) {
			continue // every page may hold a match
		}
		if g.pages.ranges == nil {
			g.pages.ranges = map[int][]pqread.RowRange{}
		}
		g.pages.ranges[c.group] = ranges
		g.pages.groups++
		for _, leaf := range leaves {
			spans, err := offsets(c.rg, leaf, rows)
			if err != nil || spans == nil {
				continue
			}
			g.pages.pages += len(spans)
			for p, sp := range spans {
				end := rows
				if p+1 < len(spans) {
					end = spans[p+1].first
				}
				if !overlaps(ranges, sp.first, end) {
					g.pages.skipped++
					g.pages.skippedBytes += sp.size
				}
			}
		}
	}
	if g.pages.ranges != nil {
		g.layout(groupRows)
	}
}

// overlaps reports whether a range of ranges (in order) has a row in
// [start, end).
func overlaps(ranges []pqread.RowRange, start, end int64) bool {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i].End > start })
	return i < len(ranges) && ranges[i].Start < end
}

// groupReadRows is how many rows of row group gi of rows rows are read.
func (g *rowGroupPlan) groupReadRows(gi int, rows int64) int64 {
	rr, ok := g.pages.ranges[gi]
	if !ok {
		return rows
	}
	var n int64
	for _, r := range rr {
		n += r.End - r.Start
	}
	return n
}

// layout sets where the rows read come from in the file (rows) and where
// the row groups taken whole are among them (whole), once some row groups
// are read in part.
func (g *rowGroupPlan) layout(groupRows []int64) {
	read := g.read
	if read == nil {
		read = make([]int, len(groupRows))
		for i := range read {
			read[i] = i
		}
	}
	fileStart := make([]int64, len(groupRows))
	var n int64
	for i, rows := range groupRows {
		fileStart[i] = n
		n += rows
	}
	m := &rowMap{}
	var w *wholeRows
	if g.whole != nil {
		w = &wholeRows{groups: g.whole.groups, index: g.whole.index}
	}
	var at int64
	for _, gi := range read {
		rr, ok := g.pages.ranges[gi]
		if !ok {
			rr = []pqread.RowRange{{Start: 0, End: groupRows[gi]}}
		}
		if w != nil && w.has(gi) {
			w.start = append(w.start, at)
			w.end = append(w.end, at+groupRows[gi])
		}
		for _, r := range rr {
			m.readStart = append(m.readStart, at)
			m.fileStart = append(m.fileStart, fileStart[gi]+r.Start)
			at += r.End - r.Start
		}
	}
	g.rows = m
	if w != nil {
		g.whole = w
	}
}
