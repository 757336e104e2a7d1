package scan

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// thriftWriter writes the compact protocol, to build footers by hand.
type thriftWriter struct {
	b    []byte
	last []int16
}

func (w *thriftWriter) begin() { w.last = append(w.last, 0) }

func (w *thriftWriter) end() {
	w.b = append(w.b, tStop)
	w.last = w.last[:len(w.last)-1]
}

func (w *thriftWriter) field(id int16, typ byte) {
	last := &w.last[len(w.last)-1]
	if d := id - *last; d > 0 && d <= 15 {
		w.b = append(w.b, byte(d)<<4|typ)
	} else {
		w.b = append(w.b, typ)
		w.b = binary.AppendVarint(w.b, int64(id))
	}
	*last = id
}

func (w *thriftWriter) i64(v int64) { w.b = binary.AppendVarint(w.b, v) }
func (w *thriftWriter) binary(v []byte) {
	w.b = append(binary.AppendUvarint(w.b, uint64(len(v))), v...)
}

func (w *thriftWriter) list(n int, elem byte) {
	if n < 15 {
		w.b = append(w.b, byte(n)<<4|elem)
		return
	}
	w.b = append(w.b, 0xf0|elem)
	w.b = binary.AppendUvarint(w.b, uint64(n))
}

// footer builds a FileMetaData with the given statistics, one row group
// per element, one column per statistics; a nil *stat is a column chunk
// without statistics. Every other field a footer may hold is written in
// between, for the reader to skip.
type stat struct {
	min, max, minValue, maxValue []byte
	nullCount                    *int64
	maxExact, minExact           *bool
}

func footer(groups [][]*stat) []byte {
	w := &thriftWriter{}
	w.begin()
	w.field(1, tI32) // version
	w.i64(2)
	w.field(3, tI64) // num_rows
	w.i64(10)
	w.field(4, tList)
	w.list(len(groups), tStruct)
	for _, cols := range groups {
		w.begin()
		w.field(1, tList)
		w.list(len(cols), tStruct)
		for _, s := range cols {
			w.begin()
			w.field(2, tI64) // file_offset
			w.i64(4)
			w.field(3, tStruct) // meta_data
			w.begin()
			w.field(1, tI32)
			w.i64(1)
			w.field(2, tList) // encodings
			w.list(2, tI32)
			w.i64(0)
			w.i64(3)
			w.field(3, tList) // path_in_schema
			w.list(1, tBinary)
			w.binary([]byte("c"))
			w.field(8, tList) // key_value_metadata
			w.list(1, tStruct)
			w.begin()
			w.field(1, tBinary)
			w.binary([]byte("k"))
			w.end()
			if s != nil {
				w.field(12, tStruct)
				w.begin()
				if s.max != nil {
					w.field(1, tBinary)
					w.binary(s.max)
				}
				if s.min != nil {
					w.field(2, tBinary)
					w.binary(s.min)
				}
				if s.nullCount != nil {
					w.field(3, tI64)
					w.i64(*s.nullCount)
				}
				if s.maxValue != nil {
					w.field(5, tBinary)
					w.binary(s.maxValue)
				}
				if s.minValue != nil {
					w.field(6, tBinary)
					w.binary(s.minValue)
				}
				if s.maxExact != nil {
					w.field(7, boolType(*s.maxExact))
				}
				if s.minExact != nil {
					w.field(8, boolType(*s.minExact))
				}
				w.field(42, tDouble) // a field from the future
				w.b = append(w.b, make([]byte, 8)...)
				w.end()
			}
			w.field(200, tMap) // a far field id: the long header form
			w.b = binary.AppendUvarint(w.b, 2)
			w.b = append(w.b, tBinary<<4|tTrue)
			w.binary([]byte("a"))
			w.b = append(w.b, 1)
			w.binary([]byte("b"))
			w.b = append(w.b, 2)
			w.end()
			w.end()
		}
		w.field(3, tI64) // num_rows
		w.i64(5)
		w.field(4, tSet) // a set of 20 bools: the long list header
		w.list(20, tTrue)
		w.b = append(w.b, bytes.Repeat([]byte{1}, 20)...)
		w.end()
	}
	w.field(6, tBinary) // created_by
	w.binary([]byte("someone"))
	w.end()
	return w.b
}

func ptr[T any](v T) *T { return &v }

// boolType is the field type that carries a bool's value.
func boolType(v bool) byte {
	if v {
		return tTrue
	}
	return tFalse
}

func TestFooterStatsByHand(t *testing.T) {
	f := footer([][]*stat{
		{
			{minValue: []byte("a"), maxValue: []byte("z"), nullCount: ptr(int64(3)), maxExact: ptr(true), minExact: ptr(false)},
			{minValue: []byte{1}}, // only a minimum
			nil,                   // no statistics
		},
		{
			{min: []byte("old"), max: []byte("older"), nullCount: ptr(int64(0))},
			{maxValue: []byte{}, maxExact: ptr(false)}, // an empty maximum is a maximum
			{nullCount: ptr(int64(-7))},
		},
	})
	got, err := footerStats(f)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]rawStats{
		{
			{set: true, minValue: []byte("a"), hasMinValue: true, maxValue: []byte("z"), hasMaxValue: true, nullCount: 3, hasNullCount: true, isMaxExact: 1, isMinExact: 0},
			{set: true, minValue: []byte{1}, hasMinValue: true, isMaxExact: -1, isMinExact: -1},
			{isMaxExact: -1, isMinExact: -1},
		},
		{
			{set: true, min: []byte("old"), hasMin: true, max: []byte("older"), hasMax: true, hasNullCount: true, isMaxExact: -1, isMinExact: -1},
			{set: true, maxValue: []byte{}, hasMaxValue: true, isMaxExact: 0, isMinExact: -1},
			{set: true, nullCount: -7, hasNullCount: true, isMaxExact: -1, isMinExact: -1},
		},
	}
	if len(got) != len(want) {
		t.Fatalf("%d row groups, want %d", len(got), len(want))
	}
	for g := range want {
		if len(got[g]) != len(want[g]) {
			t.Fatalf("group %d: %d columns, want %d", g, len(got[g]), len(want[g]))
		}
		for c := range want[g] {
			if !equalRaw(got[g][c], want[g][c]) {
				t.Errorf("group %d, column %d:\n got %+v\nwant %+v", g, c, got[g][c], want[g][c])
			}
		}
	}
	// Every strict prefix is cut short, and says so.
	for n := 0; n < len(f); n++ {
		if _, err := footerStats(f[:n]); err == nil {
			t.Fatalf("a footer cut to %d of %d bytes read without an error", n, len(f))
		}
	}
}

func equalRaw(a, b rawStats) bool {
	return a.set == b.set && bytes.Equal(a.max, b.max) && bytes.Equal(a.min, b.min) &&
		bytes.Equal(a.maxValue, b.maxValue) && bytes.Equal(a.minValue, b.minValue) &&
		a.hasMax == b.hasMax && a.hasMin == b.hasMin && a.hasMaxValue == b.hasMaxValue && a.hasMinValue == b.hasMinValue &&
		a.nullCount == b.nullCount && a.hasNullCount == b.hasNullCount &&
		a.isMaxExact == b.isMaxExact && a.isMinExact == b.isMinExact
}

func TestFooterStatsErrors(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "the footer ends early"},
		{"huge string", []byte{0x18, 0xff, 0xff, 0xff, 0xff, 0x0f}, "a 4294967295-byte value at byte 6 runs past the footer's end"},
		{"huge list", []byte{0x49, 0xfc, 0xff, 0xff, 0xff, 0x0f}, "a list of 33554431 elements at byte 6 runs past the footer's end"},
		{"row groups not a list", []byte{0x46, 0x02, 0x00}, "byte 1: a list was expected, the type is 6"},
		{"row groups of ints", []byte{0x49, 0x15, 0x02}, "byte 2: a list of structs was expected, the element type is 5"},
		{"unknown type", []byte{0x1d, 0x00}, "unknown value type 13 at byte 1"},
		{"varint overflow", append([]byte{0x16}, bytes.Repeat([]byte{0xff}, 11)...), "a varint at byte 1 overflows 64 bits"},
		{"too deep", append(bytes.Repeat([]byte{0x1c}, 100), 0), "structs nested more than 64 deep at byte 64"},
		{"lists too deep", append([]byte{0x19}, bytes.Repeat([]byte{0x19}, 100)...), "values nested more than 64 deep at byte 64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := footerStats(c.b)
			if err == nil || err.Error() != c.want {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestFooterStatsRealFile reads an arrow-go footer and compares it with
// what arrow-go decodes.
func TestFooterStatsRealFile(t *testing.T) {
	mem := memory.NewGoAllocator()
	rec := statsRecord(t, mem, 40, 4, 1)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "f.parquet")
	writeStatsFile(t, path, rec, 4, true)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	foot, err := readFooter(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := footerStats(foot)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if len(raw) != pf.NumRowGroups() {
		t.Fatalf("%d row groups, want %d", len(raw), pf.NumRowGroups())
	}
	for g := range raw {
		rg := pf.MetaData().RowGroup(g)
		if len(raw[g]) != rg.NumColumns() {
			t.Fatalf("group %d: %d columns, want %d", g, len(raw[g]), rg.NumColumns())
		}
		for c, r := range raw[g] {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			st, err := cc.Statistics()
			if err != nil || st == nil {
				t.Fatalf("group %d, column %d: no statistics (%v)", g, c, err)
			}
			if !r.set || !r.hasNullCount || r.nullCount != st.NullCount() {
				t.Errorf("group %d, column %d: null count %d (set %v), arrow-go says %d", g, c, r.nullCount, r.hasNullCount, st.NullCount())
			}
			if st.HasMinMax() {
				if !bytes.Equal(r.minValue, st.EncodeMin()) || !bytes.Equal(r.maxValue, st.EncodeMax()) {
					t.Errorf("group %d, column %d: bounds %x, %x; arrow-go says %x, %x", g, c, r.minValue, r.maxValue, st.EncodeMin(), st.EncodeMax())
				}
			}
		}
	}
	// Corrupt footers: errors or not, never a panic.
	for i := range foot {
		bad := append([]byte(nil), foot...)
		bad[i] ^= 0xa5
		footerStats(bad)
	}
	// The footer's framing.
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"too short", []byte("PAR1"), "4 bytes is too short for a Parquet file"},
		{"encrypted footer", append(append([]byte("PARE"), make([]byte, 8)...), 0, 0, 0, 0, 'P', 'A', 'R', 'E'), `the footer is not a plain Parquet footer (magic "PARE")`},
		{"footer too long", append(append([]byte("PAR1"), make([]byte, 8)...), 0xff, 0, 0, 0, 'P', 'A', 'R', '1'), "the footer length 255 is more than the file holds"},
	} {
		if _, err := readFooter(bytes.NewReader(c.data), int64(len(c.data))); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzFooterStats feeds footerStats arbitrary bytes: it must return, with
// an error or not, without panicking, and what it reads must fit in them.
func FuzzFooterStats(f *testing.F) {
	f.Add([]byte{})
	f.Add(footer([][]*stat{{{minValue: []byte("a"), maxValue: []byte("b"), nullCount: ptr(int64(1))}}}))
	f.Add([]byte{0x49, 0x1c, 0x19, 0x1c, 0x3c, 0xcc, 0x00, 0x00, 0x00, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		groups, err := footerStats(b)
		if err != nil {
			return
		}
		n := 0
		for _, g := range groups {
			n += len(g)
		}
		if n > len(b) {
			t.Fatalf("%d column chunks from %d bytes", n, len(b))
		}
	})
}
