package pqread

import (
	"errors"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// Reading some rows of a row group (Options.RowRanges). Each column chunk
// is read from row to row in order: before a slice, its reader moves from
// the row it is at to the slice's first row. Within a page, or without an
// offset index, the rows between are decoded and dropped; to a later page
// the reader seeks, through the chunk's offset index, and the pages in
// between are not read at all.

// RowRange is the rows [Start, End) of a row group, counting from 0.
type RowRange struct{ Start, End int64 }

// checkRanges checks that ranges are in order, disjoint, not empty and
// within a row group of rows rows, and returns how many rows they hold.
func checkRanges(ranges []RowRange, rows int64) (int64, error) {
	var n, end int64
	for i, r := range ranges {
		switch {
		case r.Start < end:
			return 0, fmt.Errorf("range %d [%d, %d) starts before the end of the one before it (%d)", i, r.Start, r.End, end)
		case r.End <= r.Start:
			return 0, fmt.Errorf("range %d [%d, %d) is empty", i, r.Start, r.End)
		case r.End > rows:
			return 0, fmt.Errorf("range %d [%d, %d) ends past the row group's %d rows", i, r.Start, r.End, rows)
		}
		n += r.End - r.Start
		end = r.End
	}
	return n, nil
}

// pageLoc is a data page of a column chunk: its first row.
type pageLoc struct{ first int64 }

// chunkPages returns the pages of the column chunk of leaf in g, from its
// offset index, when the chunk's reader can seek to them: the index is
// there and sound (its first page at row 0, rows increasing), and the
// dictionary page, if any, is where arrow-go's page reader looks for it
// after a seek (dictionary_page_offset), or else nothing comes before the
// first data page. Otherwise nil: the rows skipped are decoded.
func chunkPages(g *group, leaf int, cm *metadata.ColumnChunkMetaData) []pageLoc {
	pir, err := g.offsets()
	if err != nil || pir == nil {
		return nil
	}
	oi, err := pir.GetOffsetIndex(leaf)
	if err != nil || oi == nil {
		return nil
	}
	locs := oi.GetPageLocations()
	if len(locs) == 0 || locs[0].FirstRowIndex != 0 {
		return nil
	}
	if !(cm.HasDictionaryPage() && cm.DictionaryPageOffset() > 0) && locs[0].Offset != cm.DataPageOffset() {
		return nil
	}
	out := make([]pageLoc, len(locs))
	for i, l := range locs {
		if i > 0 && l.FirstRowIndex <= locs[i-1].FirstRowIndex {
			return nil
		}
		out[i] = pageLoc{first: l.FirstRowIndex}
	}
	return out
}

// pageOf is the index of the page holding row.
func pageOf(locs []pageLoc, row int64) int {
	return sort.Search(len(locs), func(i int) bool { return locs[i].first > row }) - 1
}

// skipper is the Skip of arrow-go's typed column chunk readers.
type skipper interface {
	Skip(nvalues int64) (int64, error)
}

// moveTo moves the chunk's reader from the row it is at to row, which is
// not before it: by seeking to row's page when that is a later page than
// the one the reader is in and the chunk's pages are known, else by
// decoding the rows between and dropping them.
func (cs *colState) moveTo(row int64, sc *scratch) error {
	if row == cs.pos || (cs.cr == nil && cs.pc == nil) {
		return nil
	}
	if row < cs.pos {
		return fmt.Errorf("rows out of order: at row %d, asked for row %d", cs.pos, row)
	}
	if cs.locs != nil && pageOf(cs.locs, row) != pageOf(cs.locs, cs.pos) {
		var err error
		if cs.pc != nil {
			err = cs.pc.seek(row, sc)
		} else {
			err = cs.cr.SeekToRow(row)
		}
		if err != nil {
			return fmt.Errorf("seeking to row %d: %w", row, err)
		}
		cs.pos = row
		return nil
	}
	n := row - cs.pos
	if cs.pc != nil {
		if err := cs.pc.skip(int(n), sc); err != nil {
			return err
		}
	} else {
		sk, ok := cs.cr.(skipper)
		if !ok {
			return wrongReader(cs.cr)
		}
		if _, err := sk.Skip(n); err != nil {
			return fmt.Errorf("skipping rows %d to %d: %w", cs.pos, row, err)
		}
		if err := cs.cr.Err(); err != nil {
			return err
		}
	}
	cs.pos = row
	return nil
}

// seek moves the chunk to row through the offset index: to its page, whose
// rows before row are then skipped. The dictionary, if the chunk has one
// and it was not read yet, is read first from where the metadata says.
func (c *pageChunk) seek(row int64, sc *scratch) error {
	if c.dictBuf == nil {
		dp, err := c.pr.GetDictionaryPage()
		if err != nil {
			return err
		}
		if dp != nil {
			if err := c.readDict(dp); err != nil {
				return err
			}
		}
	}
	if err := c.pr.SeekToPageWithRow(row); err != nil {
		return err
	}
	p := c.pr.Page()
	if p == nil {
		if err := c.pr.Err(); err != nil {
			return err
		}
		return errEnded
	}
	first, data, err := c.load(p)
	if err != nil {
		return err
	}
	if !data {
		return errors.New("the offset index points at a page that holds no data")
	}
	if first > row {
		return fmt.Errorf("the offset index points at a page starting at row %d for row %d", first, row)
	}
	return c.skip(int(row-first), sc)
}

// skip drops the next n rows: their levels and values are decoded, not
// converted.
func (c *pageChunk) skip(n int, sc *scratch) error {
	for n > 0 {
		if c.left == 0 {
			if err := c.nextPage(); err != nil {
				return err
			}
			continue
		}
		m := min(n, c.left, readChunk)
		nv := m
		if c.maxDef > 0 {
			defs := sc.defs[:m]
			if err := decodeRLE(&c.defs, defs); err != nil {
				return fmt.Errorf("definition levels: %w", err)
			}
			nv = 0
			for _, d := range defs {
				if d == c.maxDef {
					nv++
				}
			}
		}
		if c.isIdx {
			if err := decodeRLE(&c.idx, sc.idx[:nv]); err != nil {
				return fmt.Errorf("dictionary indices: %w", err)
			}
		} else {
			if nv > len(c.plain)/c.width {
				return fmt.Errorf("a data page with %d bytes for %d values", len(c.plain), nv)
			}
			c.plain = c.plain[nv*c.width:]
		}
		c.left -= m
		n -= m
	}
	return nil
}
