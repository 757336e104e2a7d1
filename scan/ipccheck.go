package scan

import (
	"encoding/binary"
	"errors"
	"io"
)

// arrow-go decodes an Arrow IPC schema without verifying its flatbuffer: a
// corrupt vector length makes it allocate that many elements, up to 2^32,
// and the process dies out of memory — a crash no recover can catch. The
// checks here walk the schema's flatbuffer first, with only the bounds of
// the bytes at hand, and refuse what would send the decoder out of them.

// errIPCSchema is a schema flatbuffer that points outside its bytes.
var errIPCSchema = errors.New("the schema's metadata is corrupt")

// fbuf is a flatbuffer with bounds-checked reads.
type fbuf []byte

func (b fbuf) u32(pos int) (int, bool) {
	if pos < 0 || pos+4 > len(b) {
		return 0, false
	}
	return int(binary.LittleEndian.Uint32(b[pos:])), true
}

// field is the position of field slot (0, 1, …) of the table at t, 0 when
// it is absent, or false when the table's vtable is out of bounds.
func (b fbuf) field(t, slot int) (int, bool) {
	if t < 0 || t+4 > len(b) {
		return 0, false
	}
	v := t - int(int32(binary.LittleEndian.Uint32(b[t:])))
	if v < 0 || v+4 > len(b) {
		return 0, false
	}
	vsize := int(binary.LittleEndian.Uint16(b[v:]))
	at := 4 + 2*slot
	if at+2 > vsize {
		return 0, true
	}
	if v+at+2 > len(b) {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(b[v+at:]))
	if off == 0 {
		return 0, true
	}
	return t + off, t+off < len(b)
}

// ref follows the offset of a reference field (table, vector, string) at
// slot of the table at t: its target, or 0 when the field is absent.
func (b fbuf) ref(t, slot int) (int, bool) {
	p, ok := b.field(t, slot)
	if !ok || p == 0 {
		return 0, ok
	}
	off, ok := b.u32(p)
	if !ok || p+off >= len(b) {
		return 0, false
	}
	return p + off, true
}

// vector checks the vector at slot of the table at t, of elements of size
// bytes each, and returns its length and the position of its first element.
func (b fbuf) vector(t, slot, size int) (n, first int, ok bool) {
	q, ok := b.ref(t, slot)
	if !ok || q == 0 {
		return 0, 0, ok
	}
	n, ok = b.u32(q)
	if !ok || n > (len(b)-q-4)/size {
		return 0, 0, false
	}
	return n, q + 4, true
}

// tables calls visit on each table of the vector of tables at slot of t.
func (b fbuf) tables(t, slot int, visit func(int) bool) bool {
	n, first, ok := b.vector(t, slot, 4)
	if !ok {
		return false
	}
	for i := 0; i < n; i++ {
		p := first + 4*i
		off, ok := b.u32(p)
		if !ok || p+off >= len(b) || !visit(p+off) {
			return false
		}
	}
	return true
}

// strings checks the strings at the given slots of the table at t.
func (b fbuf) strings(t int, slots ...int) bool {
	for _, s := range slots {
		if _, _, ok := b.vector(t, s, 1); !ok {
			return false
		}
	}
	return true
}

// keyValues checks a vector of KeyValue tables (key, value: strings).
func (b fbuf) keyValues(t, slot int) bool {
	return b.tables(t, slot, func(kv int) bool { return b.strings(kv, 0, 1) })
}

// maxFieldDepth bounds the nesting of a schema's fields.
const maxFieldDepth = 64

// checkField checks a Field table: name, type (a Union's type ids),
// children and custom metadata.
func (b fbuf) checkField(f, depth int) bool {
	if depth > maxFieldDepth || !b.strings(f, 0) {
		return false
	}
	if p, ok := b.field(f, 2); !ok {
		return false
	} else if p != 0 && b[p] == 14 { // Type.Union: its type ids are a vector
		u, ok := b.ref(f, 3)
		if !ok {
			return false
		}
		if u != 0 {
			if _, _, ok := b.vector(u, 1, 4); !ok {
				return false
			}
		}
	}
	return b.tables(f, 5, func(c int) bool { return b.checkField(c, depth+1) }) && b.keyValues(f, 6)
}

// checkSchema checks a Schema table: fields, custom metadata, features.
func (b fbuf) checkSchema(s int) bool {
	if _, _, ok := b.vector(s, 3, 8); !ok {
		return false
	}
	return b.tables(s, 1, func(f int) bool { return b.checkField(f, 0) }) && b.keyValues(s, 2)
}

// checkIPCFileFooter checks the footer of the Arrow IPC file r of the
// given size: its schema, its blocks and its metadata.
func checkIPCFileFooter(r io.ReaderAt, size int64) error {
	const magic = "ARROW1"
	if size < int64(2*len(magic)+4) {
		return nil // arrow-go says what is wrong
	}
	var tail [10]byte
	if _, err := r.ReadAt(tail[:], size-10); err != nil {
		return err
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != magic || n <= 0 || n > size-10 {
		return nil // arrow-go refuses these itself
	}
	b := make(fbuf, n)
	if _, err := r.ReadAt(b, size-10-n); err != nil {
		return err
	}
	root, ok := b.u32(0)
	if !ok || root >= len(b) {
		return errIPCSchema
	}
	schema, ok := b.ref(root, 1)
	_, _, okDicts := b.vector(root, 2, 24)
	_, _, okBatches := b.vector(root, 3, 24)
	if !ok || !okDicts || !okBatches || (schema != 0 && !b.checkSchema(schema)) || !b.keyValues(root, 4) {
		return errIPCSchema
	}
	return nil
}

// checkIPCMessage checks an IPC Message flatbuffer (a stream's first
// message): when it holds a schema, the schema, and the metadata.
func checkIPCMessage(b fbuf) error {
	root, ok := b.u32(0)
	if !ok || root >= len(b) {
		return errIPCSchema
	}
	kind, ok := b.field(root, 1)
	if !ok {
		return errIPCSchema
	}
	if kind != 0 && b[kind] == 1 { // MessageHeader.Schema
		s, ok := b.ref(root, 2)
		if !ok || (s != 0 && !b.checkSchema(s)) {
			return errIPCSchema
		}
	}
	if !b.keyValues(root, 4) {
		return errIPCSchema
	}
	return nil
}

// peekIPCStreamSchema reads the first message of an IPC stream from r and
// checks it; it returns the bytes it read, which the stream's reader must
// read again.
func peekIPCStreamSchema(r io.Reader) ([]byte, error) {
	var head [8]byte
	n, err := io.ReadFull(r, head[:4])
	if err != nil {
		return head[:n], nil // arrow-go says what is wrong
	}
	read := head[:4]
	size := binary.LittleEndian.Uint32(head[:4])
	if size == 0xFFFFFFFF { // the continuation marker, then the length
		m, err := io.ReadFull(r, head[4:8])
		read = head[:4+m]
		if err != nil {
			return read, nil
		}
		size = binary.LittleEndian.Uint32(head[4:8])
	}
	const maxMetadata = 64 << 20 // arrow-go's own limit, which it enforces
	if size == 0 || size > maxMetadata {
		return read, nil // arrow-go says what is wrong
	}
	msg := make([]byte, size)
	m, err := io.ReadFull(r, msg)
	read = append(append([]byte(nil), read...), msg[:m]...)
	if err != nil {
		return read, nil
	}
	return read, checkIPCMessage(msg)
}
