package scan

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A Parquet footer is a Thrift struct in the compact protocol. arrow-go
// decodes it, but its statistics API folds "min is set" and "max is set"
// into one flag (a chunk with only a minimum reports a zero maximum) and
// does not expose whether a bound is exact. footerStats walks the footer
// itself and keeps, for every column chunk, exactly what its Statistics
// struct holds; every length and count is checked against the bytes left,
// so a corrupt footer gives an error, never a panic or a huge allocation.

// rawStats is one column chunk's Statistics struct, as written.
type rawStats struct {
	set bool // the chunk has a Statistics struct

	// The deprecated fields 1 and 2 (signed order, for files without
	// column orders) and the fields 5 and 6 (the column's own order).
	max, min           []byte
	hasMax, hasMin     bool
	maxValue, minValue []byte
	hasMaxValue        bool
	hasMinValue        bool

	nullCount    int64
	hasNullCount bool

	// isMaxExact and isMinExact are fields 7 and 8: 1 true, 0 false, -1 absent.
	isMaxExact, isMinExact int8
}

// The compact protocol's type codes.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxThriftDepth bounds the nesting of structs and containers.
const maxThriftDepth = 64

var errThriftShort = errors.New("the footer ends early")

type thriftReader struct {
	b     []byte
	pos   int
	depth int
}

func (r *thriftReader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errThriftShort
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *thriftReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		if n == 0 {
			return 0, errThriftShort
		}
		return 0, fmt.Errorf("a varint at byte %d overflows 64 bits", r.pos)
	}
	r.pos += n
	return v, nil
}

func (r *thriftReader) varint() (int64, error) {
	u, err := r.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (r *thriftReader) binary() ([]byte, error) {
	n, err := r.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.b)-r.pos) {
		return nil, fmt.Errorf("a %d-byte value at byte %d runs past the footer's end", n, r.pos)
	}
	v := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return v, nil
}

// field reads a field header: its id and type, tStop at the struct's end.
// last is the previous field's id, as ids are written as deltas.
func (r *thriftReader) field(last int16) (id int16, typ byte, err error) {
	h, err := r.byte()
	if err != nil {
		return 0, 0, err
	}
	typ = h & 0x0f
	if typ == tStop {
		return 0, tStop, nil
	}
	if d := h >> 4; d != 0 {
		return last + int16(d), typ, nil
	}
	v, err := r.varint()
	if err != nil {
		return 0, 0, err
	}
	return int16(v), typ, nil
}

// list reads a list or set header: the element count and type.
func (r *thriftReader) list() (n int, elem byte, err error) {
	h, err := r.byte()
	if err != nil {
		return 0, 0, err
	}
	elem = h & 0x0f
	size := uint64(h >> 4)
	if size == 15 {
		if size, err = r.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	// Every element takes at least a byte.
	if size > uint64(len(r.b)-r.pos) {
		return 0, 0, fmt.Errorf("a list of %d elements at byte %d runs past the footer's end", size, r.pos)
	}
	return int(size), elem, nil
}

// skip skips a value of type typ; inList says whether it is a container's
// element (a bool then takes a byte; as a field, its type is its value).
func (r *thriftReader) skip(typ byte, inList bool) error {
	switch typ {
	case tTrue, tFalse:
		if inList {
			_, err := r.byte()
			return err
		}
		return nil
	case tByte:
		_, err := r.byte()
		return err
	case tI16, tI32, tI64:
		_, err := r.uvarint()
		return err
	case tDouble:
		if len(r.b)-r.pos < 8 {
			return errThriftShort
		}
		r.pos += 8
		return nil
	case tBinary:
		_, err := r.binary()
		return err
	}
	if typ == tStruct {
		return r.fields(func(int16, byte) (bool, error) { return false, nil })
	}
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxThriftDepth {
		return fmt.Errorf("values nested more than %d deep at byte %d", maxThriftDepth, r.pos)
	}
	switch typ {
	case tList, tSet:
		n, elem, err := r.list()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := r.skip(elem, true); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := r.uvarint()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n > uint64(len(r.b)-r.pos) {
			return fmt.Errorf("a map of %d entries at byte %d runs past the footer's end", n, r.pos)
		}
		kv, err := r.byte()
		if err != nil {
			return err
		}
		for i := uint64(0); i < n; i++ {
			if err := r.skip(kv>>4, true); err != nil {
				return err
			}
			if err := r.skip(kv&0x0f, true); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown value type %d at byte %d", typ, r.pos)
}

// fields reads a struct's fields up to its end. For each, read is called
// with the field's id and type; it returns true when it consumed the
// value, false to have it skipped.
func (r *thriftReader) fields(read func(id int16, typ byte) (bool, error)) error {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxThriftDepth {
		return fmt.Errorf("structs nested more than %d deep at byte %d", maxThriftDepth, r.pos)
	}
	var last int16
	for {
		id, typ, err := r.field(last)
		if err != nil {
			return err
		}
		if typ == tStop {
			return nil
		}
		last = id
		done, err := read(id, typ)
		if err != nil {
			return err
		}
		if !done {
			if err := r.skip(typ, false); err != nil {
				return err
			}
		}
	}
}

// structList reads a list whose elements are structs, calling each with
// the element's index before reading its fields.
func (r *thriftReader) structList(typ byte, each func(i int) func(id int16, typ byte) (bool, error)) error {
	if typ != tList {
		return fmt.Errorf("byte %d: a list was expected, the type is %d", r.pos, typ)
	}
	n, elem, err := r.list()
	if err != nil {
		return err
	}
	if elem != tStruct {
		return fmt.Errorf("byte %d: a list of structs was expected, the element type is %d", r.pos, elem)
	}
	for i := 0; i < n; i++ {
		if err := r.fields(each(i)); err != nil {
			return err
		}
	}
	return nil
}

// footerStats reads the Statistics of every column chunk of a Parquet
// footer (the FileMetaData struct), by row group and column.
func footerStats(footer []byte) ([][]rawStats, error) {
	r := &thriftReader{b: footer}
	var groups [][]rawStats
	err := r.fields(func(id int16, typ byte) (bool, error) {
		if id != 4 { // FileMetaData.row_groups
			return false, nil
		}
		return true, r.structList(typ, func(g int) func(int16, byte) (bool, error) {
			groups = append(groups, nil)
			return func(id int16, typ byte) (bool, error) {
				if id != 1 { // RowGroup.columns
					return false, nil
				}
				return true, r.structList(typ, func(c int) func(int16, byte) (bool, error) {
					groups[g] = append(groups[g], rawStats{isMaxExact: -1, isMinExact: -1})
					st := &groups[g][c]
					return func(id int16, typ byte) (bool, error) {
						if id != 3 || typ != tStruct { // ColumnChunk.meta_data
							return false, nil
						}
						return true, r.fields(func(id int16, typ byte) (bool, error) {
							if id != 12 || typ != tStruct { // ColumnMetaData.statistics
								return false, nil
							}
							st.set = true
							return true, r.fields(st.read(r))
						})
					}
				})
			}
		})
	})
	if err != nil {
		return nil, err
	}
	return groups, nil
}

// read returns the field reader of a Statistics struct into s.
func (s *rawStats) read(r *thriftReader) func(id int16, typ byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		var err error
		switch {
		case typ == tBinary && id == 1:
			s.max, err = r.binary()
			s.hasMax = true
		case typ == tBinary && id == 2:
			s.min, err = r.binary()
			s.hasMin = true
		case typ == tI64 && id == 3:
			s.nullCount, err = r.varint()
			s.hasNullCount = true
		case typ == tBinary && id == 5:
			s.maxValue, err = r.binary()
			s.hasMaxValue = true
		case typ == tBinary && id == 6:
			s.minValue, err = r.binary()
			s.hasMinValue = true
		case (typ == tTrue || typ == tFalse) && id == 7:
			s.isMaxExact = boolFlag(typ)
		case (typ == tTrue || typ == tFalse) && id == 8:
			s.isMinExact = boolFlag(typ)
		default:
			return false, nil
		}
		return true, err
	}
}

func boolFlag(typ byte) int8 {
	if typ == tTrue {
		return 1
	}
	return 0
}
