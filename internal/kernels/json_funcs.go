package kernels

// DuckDB's JSON functions over utf8 documents (DuckDB's JSON type is
// text): json_extract, json_extract_string (the operator ->>), json_valid,
// json_array_length and json_type. Each row's document is parsed into a
// tape (json.go) whose buffers the next row reuses, so a batch allocates
// only as its largest document grows them: 20 bytes a value (the DOM
// yyjson builds for DuckDB takes 16), and 4 more bytes a level of nesting,
// on the heap.
//
// Paths, as DuckDB reads them:
//
//	$                  the document; '' too
//	$.key, $."key"     a member (in quotes: any characters, \" a quote, \\ a backslash,
//	                   a backslash before another character kept); an unquoted key runs
//	                   to the next '.' or '['
//	$[n], $[-n], $[#-n]  element n from the start, n from the end ([-0] and [#-0] are
//	                   the first; [#] is past the end: null)
//	/a/0               a JSON pointer (RFC 6901: ~0 is ~, ~1 is /; an element index
//	                   in decimal without leading zeros)
//	key                any other text is one key, read as DuckDB reads it: as $."key"
//	                   ('a.b' is the member "a.b", 'a\\b' the member a\b), or when it
//	                   holds a quote as the pointer /key
//	an integer         an element index, negative from the end (json_extract and
//	                   json_extract_string only, as in DuckDB)
//
// A path that leads nowhere (a missing key, an index past the end, a key
// of an array) gives null. Wildcards ($.*, $[*], $..a, and as DuckDB
// reads them $."*" and the key '*') are refused: they make lists in
// DuckDB (the pointer /* is the member "*"). A constant path that does not parse is an error
// before any row is read, as DuckDB's binder rejects it; an object's
// duplicate key finds its first member, as in DuckDB.

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/colexpr/colexpr/datum"
	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/errs"
	"github.com/colexpr/colexpr/scalar"
)

// jsonStepKind is what one path step selects.
type jsonStepKind uint8

const (
	stepKey     jsonStepKind = iota // an object's member
	stepIndex                       // an array's element
	stepPointer                     // a JSON pointer's token: a member, or an element by its decimal index
)

// jsonStep is one step of a path. A key is keys[from:to] of its path.
type jsonStep struct {
	kind     jsonStepKind
	from, to int
	index    int64 // stepIndex: from the start when >= 0, else from the end
	fromEnd0 bool  // [#]: the position just past the end
}

// jsonPath is a parsed path; its slices are reused from row to row.
type jsonPath struct {
	steps []jsonStep
	keys  []byte
}

// errWildcard refuses a wildcard: DuckDB makes a list of what it finds.
// A key "*" is one too in DuckDB, quoted ($."*") or plain ('*').
func errWildcard(p []byte) error {
	return fmt.Errorf("JSON path %q has a wildcard, which colexpr does not support: %w", p, errs.ErrInvalidArgument)
}

func errPath(p []byte, at int) error {
	return fmt.Errorf("malformed JSON path %q: error near %q: %w", p, p[at:], errs.ErrInvalidArgument)
}

// parse reads a path (see the file comment).
func (jp *jsonPath) parse(p []byte) error {
	jp.steps, jp.keys = jp.steps[:0], jp.keys[:0]
	switch {
	case len(p) == 0:
		return nil
	case p[0] == '/':
		return jp.pointer(p)
	case p[0] != '$':
		// DuckDB reads a key with a quote as the pointer /key, any other
		// as $."key".
		for _, c := range p {
			if c == '"' {
				return jp.pointerTokens(p)
			}
		}
		to, ok := jp.quotedKey(p, 0)
		if !ok || to != len(p) {
			return fmt.Errorf("malformed JSON path %q: a key cannot end in a backslash: %w", p, errs.ErrInvalidArgument)
		}
		if string(jp.keys) == "*" {
			return errWildcard(p)
		}
		jp.steps = append(jp.steps, jsonStep{kind: stepKey, to: len(jp.keys)})
		return nil
	}
	i := 1
	for i < len(p) {
		switch p[i] {
		case '.':
			i++
			if i >= len(p) {
				return errPath(p, i-1)
			}
			if p[i] == '*' || p[i] == '.' {
				return errWildcard(p)
			}
			from := len(jp.keys)
			if p[i] == '"' {
				j, ok := jp.quotedKey(p, i+1)
				if !ok || j >= len(p) || len(jp.keys) == from {
					return errPath(p, i-1)
				}
				if string(jp.keys[from:]) == "*" {
					return errWildcard(p)
				}
				i = j + 1
				if i < len(p) && p[i] != '.' && p[i] != '[' {
					return errPath(p, i)
				}
			} else {
				j := i
				for j < len(p) && p[j] != '.' && p[j] != '[' {
					j++
				}
				jp.keys = append(jp.keys, p[i:j]...)
				i = j
			}
			jp.steps = append(jp.steps, jsonStep{kind: stepKey, from: from, to: len(jp.keys)})
		case '[':
			start := i
			i++
			if i < len(p) && p[i] == '*' {
				return errWildcard(p)
			}
			hash, neg := false, false
			if i < len(p) && p[i] == '#' {
				hash = true
				i++
				if i < len(p) && p[i] == ']' {
					jp.steps = append(jp.steps, jsonStep{kind: stepIndex, fromEnd0: true})
					i++
					continue
				}
				if i >= len(p) || p[i] != '-' {
					return errPath(p, i)
				}
			}
			if i < len(p) && p[i] == '-' {
				neg = true
				i++
			}
			var v int64
			j := i
			for ; j < len(p) && p[j] >= '0' && p[j] <= '9'; j++ {
				if v > (math.MaxInt64-int64(p[j]-'0'))/10 {
					return errPath(p, start)
				}
				v = v*10 + int64(p[j]-'0')
			}
			if j == i || j >= len(p) || p[j] != ']' {
				if hash || neg {
					return errPath(p, i-1)
				}
				return errPath(p, start)
			}
			if neg {
				v = -v
			}
			jp.steps = append(jp.steps, jsonStep{kind: stepIndex, index: v})
			i = j + 1
		default:
			return errPath(p, i)
		}
	}
	return nil
}

// quotedKey reads the characters of a quoted key from p[i:] up to its
// closing quote (or the end of p), as DuckDB does: \" and \\ are a quote and
// a backslash, a backslash before any other character stays. It returns
// where it stopped; false when p ends in a backslash that escapes nothing.
func (jp *jsonPath) quotedKey(p []byte, i int) (int, bool) {
	for ; i < len(p) && p[i] != '"'; i++ {
		if p[i] == '\\' {
			if i+1 >= len(p) {
				return i, false
			}
			if p[i+1] != '"' && p[i+1] != '\\' {
				jp.keys = append(jp.keys, '\\')
			}
			i++
		}
		jp.keys = append(jp.keys, p[i])
	}
	return i, true
}

// pointer reads a JSON pointer: /token/token…
func (jp *jsonPath) pointer(p []byte) error {
	return jp.pointerTokens(p[1:])
}

// pointerTokens reads the tokens of a JSON pointer after its first slash.
func (jp *jsonPath) pointerTokens(p []byte) error {
	for i := -1; i < len(p); {
		i++ // the slash
		from := len(jp.keys)
		for ; i < len(p) && p[i] != '/'; i++ {
			c := p[i]
			if c == '~' && i+1 < len(p) && (p[i+1] == '0' || p[i+1] == '1') {
				c = "~/"[p[i+1]-'0']
				i++
			}
			jp.keys = append(jp.keys, c)
		}
		jp.steps = append(jp.steps, jsonStep{kind: stepPointer, from: from, to: len(jp.keys)})
	}
	return nil
}

// find follows path from the document's root: the node it leads to, or -1.
func (d *jsonDoc) find(jp *jsonPath) int32 {
	at := int32(0)
	for _, s := range jp.steps {
		n := &d.nodes[at]
		switch {
		case n.kind == jsonObject && s.kind != stepIndex:
			at = d.member(at, jp.keys[s.from:s.to])
		case n.kind == jsonArray && s.kind == stepIndex:
			switch {
			case s.fromEnd0:
				at = -1
			case s.index >= 0:
				at = d.element(at, s.index)
			default:
				at = d.element(at, int64(n.n)+s.index)
			}
		case n.kind == jsonArray && s.kind == stepPointer:
			at = d.element(at, pointerIndex(jp.keys[s.from:s.to]))
		default:
			at = -1
		}
		if at < 0 {
			return -1
		}
	}
	return at
}

// pointerIndex is a JSON pointer token as an element index: decimal
// without leading zeros; -1 otherwise.
func pointerIndex(tok []byte) int64 {
	if len(tok) == 0 || len(tok) > 1 && tok[0] == '0' || len(tok) > 18 {
		return -1
	}
	var v int64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return -1
		}
		v = v*10 + int64(c-'0')
	}
	return v
}

// member is the value of the first member named key of the object at, or -1.
func (d *jsonDoc) member(at int32, key []byte) int32 {
	k := at + 1
	for range d.nodes[at].n {
		if d.keyIs(&d.nodes[k], key) {
			return k + 1
		}
		k = d.nodes[k+1].next
	}
	return -1
}

func (d *jsonDoc) keyIs(n *jsonNode, key []byte) bool {
	if !n.esc {
		return string(d.src[n.start+1:n.end-1]) == string(key)
	}
	d.buf = d.appendUnquoted(d.buf[:0], n)
	return string(d.buf) == string(key)
}

// element is element i of the array at, or -1.
func (d *jsonDoc) element(at int32, i int64) int32 {
	if i < 0 || i >= int64(d.nodes[at].n) {
		return -1
	}
	k := at + 1
	for ; i > 0; i-- {
		k = d.nodes[k].next
	}
	return k
}

// jsonPathArg is the path argument: a utf8 path, parsed once when it is a
// scalar, or an integer index; absent, the root.
type jsonPathArg struct {
	text    strArg
	isText  bool
	index   intArg
	isIndex bool
	path    jsonPath
	fixed   bool // path holds the scalar's parse
}

func newJSONPathArg(args []datum.Datum) (*jsonPathArg, error) {
	a := &jsonPathArg{}
	if len(args) < 2 {
		a.fixed = true
		return a, nil
	}
	p := args[1]
	if p.DType().IsUtf8() {
		t, err := newStrArg(p)
		if err != nil {
			return nil, err
		}
		a.text, a.isText = t, true
		if p.IsScalar() {
			if !p.Scalar().IsNull() {
				if err := a.path.parse(t.lit); err != nil {
					return nil, err
				}
			}
			a.fixed = true
		}
		return a, nil
	}
	ix, err := newIntArg(p)
	if err != nil {
		return nil, err
	}
	a.index, a.isIndex = ix, true
	return a, nil
}

// at is the path of row i.
func (a *jsonPathArg) at(i int) (*jsonPath, error) {
	switch {
	case a.fixed && !a.isIndex:
		return &a.path, nil
	case a.isIndex:
		a.path.steps = append(a.path.steps[:0], jsonStep{kind: stepIndex, index: a.index.get(i)})
		return &a.path, nil
	}
	return &a.path, a.path.parse(a.text.at(i))
}

// jsonEachRow drives a JSON function: the document and the path of each row
// that no null argument makes null, parsed, with the node the path leads
// to (-1 when it leads nowhere).
func jsonEachRow(args []datum.Datum, row func(i int, d *jsonDoc, at int32) error) (func(i int) error, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return nil, err
	}
	path, err := newJSONPathArg(args)
	if err != nil {
		return nil, err
	}
	d := &jsonDoc{}
	return func(i int) error {
		if err := d.parse(s.at(i)); err != nil {
			return err
		}
		jp, err := path.at(i)
		if err != nil {
			return err
		}
		return row(i, d, d.find(jp))
	}, nil
}

// JSONExtract is json_extract(json, path) (the JSON text of the value at
// path) or, with text, json_extract_string(json, path) (json ->> path: a
// string's characters, any other value's JSON text, null for JSON null).
// Both are null where the path leads nowhere.
func JSONExtract(mem memory.Allocator, args []datum.Datum, text bool, ret dtype.DType) (datum.Datum, error) {
	var out []byte
	var null bool
	each, err := jsonEachRow(args, func(i int, d *jsonDoc, at int32) error {
		out, null = out[:0], at < 0
		switch {
		case null:
		case text && d.nodes[at].kind == jsonNull:
			null = true
		case text && d.nodes[at].kind == jsonString:
			out = d.appendUnquoted(out, &d.nodes[at])
		default:
			out = d.appendValue(out, at)
		}
		return nil
	})
	if err != nil {
		return datum.Datum{}, err
	}
	return nullableRows(mem, args, ret, func(i int) (bool, error) {
		err := each(i)
		return !null, err
	}, func(b *strBuilder) { b.write(out) }, nil)
}

// JSONType is json_type(json[, path]): DuckDB's name of the value's type
// (OBJECT, ARRAY, VARCHAR, UBIGINT, BIGINT, DOUBLE, BOOLEAN, NULL); null
// where the path leads nowhere.
func JSONType(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	var name string
	each, err := jsonEachRow(args, func(i int, d *jsonDoc, at int32) error {
		if name = ""; at >= 0 {
			name = d.typeName(at)
		}
		return nil
	})
	if err != nil {
		return datum.Datum{}, err
	}
	return nullableRows(mem, args, ret, func(i int) (bool, error) {
		err := each(i)
		return name != "", err
	}, func(b *strBuilder) { b.writeString(name) }, nil)
}

// JSONArrayLength is json_array_length(json[, path]): the u64 number of
// elements of the array at path, 0 for any other value, null where the
// path leads nowhere.
func JSONArrayLength(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	var length uint64
	var found bool
	each, err := jsonEachRow(args, func(i int, d *jsonDoc, at int32) error {
		length, found = 0, at >= 0
		if found && d.nodes[at].kind == jsonArray {
			length = uint64(d.nodes[at].n)
		}
		return nil
	})
	if err != nil {
		return datum.Datum{}, err
	}
	return nullableRows(mem, args, ret, func(i int) (bool, error) {
		err := each(i)
		return found, err
	}, nil, func() uint64 { return length })
}

// JSONValid is json_valid(json): whether json is a document json_extract
// reads.
func JSONValid(mem memory.Allocator, args []datum.Datum, ret dtype.DType) (datum.Datum, error) {
	s, err := newStrArg(args[0])
	if err != nil {
		return datum.Datum{}, err
	}
	d := &jsonDoc{}
	return boolRows(mem, args, ret, func(i int) (bool, error) {
		return d.parse(s.at(i)) == nil, nil
	})
}

// nullableRows is the result of a null-propagating function of args whose
// rows may also be null themselves: row(i) computes row i (false: null),
// then either str writes it (a utf8 result) or u64 gives it (a u64
// result).
func nullableRows(mem memory.Allocator, args []datum.Datum, ret dtype.DType, row func(i int) (bool, error), str func(b *strBuilder), u64 func() uint64) (datum.Datum, error) {
	n := args[0].Len()
	if anyNullScalar(args) {
		return nullResult(ret, n), nil
	}
	if allScalar(args) {
		ok, err := row(0)
		switch {
		case err != nil:
			return datum.Datum{}, &RowError{Row: 0, Err: err}
		case !ok:
			return nullResult(ret, n), nil
		case u64 != nil:
			return datum.FromScalar(scalar.Uint(dtype.U64, u64()).WithDType(ret), n), nil
		}
		b := newStrBuilder(memory.DefaultAllocator, 1, 0)
		defer b.release()
		str(b)
		return datum.FromScalar(scalar.String(string(b.data)).WithDType(ret), n), nil
	}
	inValid, bits, _ := validBits(mem, n, argArrays(args))
	if inValid != nil {
		defer inValid.Release()
	}
	valid := ZeroedBitmap(mem, n)
	vbits := valid.Bytes()
	var b *strBuilder
	var valBuf *memory.Buffer
	var vals []uint64
	if u64 != nil {
		valBuf, vals = newValues[uint64](mem, n)
	} else {
		b = newStrBuilder(mem, n, 0)
	}
	fail := func(i int, err error) (datum.Datum, error) {
		valid.Release()
		if b != nil {
			b.release()
		} else {
			valBuf.Release()
		}
		return datum.Datum{}, &RowError{Row: i, Err: err}
	}
	nulls := 0
	for i := range n {
		ok := false
		if bitSet(bits, i) {
			var err error
			if ok, err = row(i); err != nil {
				return fail(i, err)
			}
		}
		if ok {
			bitutil.SetBit(vbits, i)
		} else {
			nulls++
		}
		switch {
		case vals != nil && ok:
			vals[i] = u64()
		case vals != nil:
			vals[i] = 0
		case ok:
			str(b)
			if err := b.end(); err != nil {
				return fail(i, err)
			}
		default:
			b.endEmpty()
		}
	}
	if nulls == 0 {
		valid.Release()
		valid = nil
	}
	if vals != nil {
		arr := makeArray(arrow.PrimitiveTypes.Uint64, n, []*memory.Buffer{valid, valBuf}, nil, nulls, 0)
		return datum.FromArray(arr, ret), nil
	}
	return datum.FromArray(b.finish(dtype.ToArrow(ret), valid, nulls), ret), nil
}
