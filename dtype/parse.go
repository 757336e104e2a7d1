package dtype

import (
	"strconv"
	"strings"
)

// Parse reads a type in the canonical syntax (see the package doc) or one of
// the SQL aliases:
//
//	TINYINT INT1 → i8        UTINYINT → u8
//	SMALLINT INT2 → i16      USMALLINT → u16
//	INTEGER INT INT4 → i32   UINTEGER → u32
//	BIGINT INT8 LONG → i64   UBIGINT → u64
//	REAL FLOAT FLOAT4 → f32  DOUBLE, DOUBLE PRECISION, FLOAT8 → f64   HALF → f16
//	BOOLEAN → bool           VARCHAR TEXT STRING CHAR → utf8
//	BLOB BYTEA VARBINARY → binary
//	DECIMAL(p[,s]) NUMERIC(p[,s]) → decimal(p,s); bare DECIMAL is decimal(18,3) as in DuckDB
//	TIMESTAMP → timestamp(us)   TIMESTAMPTZ → timestamp(us, 'UTC')   TIME → time(us)
//	INTERVAL → interval
//
// Names are case-insensitive. A trailing ? marks the type nullable. Every
// nested type is non-nullable unless marked, so `list<i32>?` is a nullable
// list of non-nullable i32.
func Parse(s string) (DType, error) {
	t, n, err := ParsePrefix(s)
	if err != nil {
		return DType{}, err
	}
	if rest := strings.TrimSpace(s[n:]); rest != "" {
		at := n + strings.Index(s[n:], rest[:1])
		return DType{}, &Error{Msg: "unexpected " + strconv.Quote(rest) + " after type", Pos: at}
	}
	return t, nil
}

// ParsePrefix reads one type at the start of s (after optional spaces) and
// returns it with the number of bytes it used, so a larger parser can read a
// type embedded in other text (`CAST(x AS decimal(15,2)) + 1`).
func ParsePrefix(s string) (DType, int, error) {
	p := &typeParser{src: s}
	t, err := p.parse(0)
	if err != nil {
		return DType{}, 0, err
	}
	return t, p.pos, nil
}

// maxTypeDepth bounds nesting so hostile input cannot exhaust the stack.
const maxTypeDepth = 100

type typeParser struct {
	src string
	pos int
}

func (p *typeParser) errorf(msg string) error { return &Error{Msg: msg, Pos: p.pos} }

func (p *typeParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

func (p *typeParser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *typeParser) expect(c byte) error {
	if p.peek() != c {
		return p.errorf("expected '" + string(c) + "' in type")
	}
	p.pos++
	return nil
}

func (p *typeParser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (p.pos > start && c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *typeParser) integer() (int, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		return 0, p.errorf("expected an integer in type")
	}
	text := p.src[start:p.pos]
	n, err := strconv.Atoi(text)
	if err != nil || n > 1<<30 {
		p.pos = start
		return 0, p.errorf("integer " + text + " is too large")
	}
	return n, nil
}

var simpleTypes = map[string]DType{
	"null": Null(), "bool": Bool(false), "boolean": Bool(false),
	"u8": Primitive(U8, false), "u16": Primitive(U16, false), "u32": Primitive(U32, false), "u64": Primitive(U64, false),
	"i8": Primitive(I8, false), "i16": Primitive(I16, false), "i32": Primitive(I32, false), "i64": Primitive(I64, false),
	"f16": Primitive(F16, false), "f32": Primitive(F32, false), "f64": Primitive(F64, false),
	"tinyint": Primitive(I8, false), "int1": Primitive(I8, false), "utinyint": Primitive(U8, false),
	"smallint": Primitive(I16, false), "int2": Primitive(I16, false), "usmallint": Primitive(U16, false),
	"integer": Primitive(I32, false), "int": Primitive(I32, false), "int4": Primitive(I32, false), "uinteger": Primitive(U32, false),
	"bigint": Primitive(I64, false), "int8": Primitive(I64, false), "long": Primitive(I64, false), "ubigint": Primitive(U64, false),
	"half": Primitive(F16, false), "real": Primitive(F32, false), "float": Primitive(F32, false), "float4": Primitive(F32, false),
	"double": Primitive(F64, false), "float8": Primitive(F64, false),
	"utf8": Utf8(false), "varchar": Utf8(false), "text": Utf8(false), "string": Utf8(false), "char": Utf8(false),
	"binary": Binary(false), "blob": Binary(false), "bytea": Binary(false), "varbinary": Binary(false),
	"date": Date(false), "timestamptz": Timestamp(Micro, "UTC", false), "interval": Interval(false),
}

func (p *typeParser) parse(depth int) (DType, error) {
	if depth > maxTypeDepth {
		return DType{}, p.errorf("type nested too deeply")
	}
	start := p.pos
	name := p.word()
	if name == "" {
		return DType{}, p.errorf("expected a type name")
	}
	lower := strings.ToLower(name)
	var t DType
	var err error
	switch lower {
	case "decimal", "numeric":
		t, err = p.decimal()
	case "time":
		t, err = p.timeType(false)
	case "timestamp":
		t, err = p.timeType(true)
	case "list":
		t, err = p.list(depth)
	case "fixed_size_list":
		t, err = p.fixedSizeList(depth)
	case "struct":
		t, err = p.structType(depth)
	case "double":
		t = Primitive(F64, false)
		save := p.pos
		if !strings.EqualFold(p.word(), "precision") {
			p.pos = save
		}
	default:
		var ok bool
		if t, ok = simpleTypes[lower]; !ok {
			p.pos = start
			p.skipSpace()
			return DType{}, p.errorf("unknown type " + strconv.Quote(name))
		}
	}
	if err != nil {
		return DType{}, err
	}
	if p.pos < len(p.src) && p.src[p.pos] == '?' {
		p.pos++
		t = t.AsNullable()
	}
	return t, nil
}

func (p *typeParser) decimal() (DType, error) {
	if p.peek() != '(' {
		return Decimal(18, 3, false), nil
	}
	p.pos++
	p.skipSpace()
	precPos := p.pos
	prec, err := p.integer()
	if err != nil {
		return DType{}, err
	}
	scale, scalePos := 0, p.pos
	if p.peek() == ',' {
		p.pos++
		p.skipSpace()
		scalePos = p.pos
		if scale, err = p.integer(); err != nil {
			return DType{}, err
		}
	}
	if err := p.expect(')'); err != nil {
		return DType{}, err
	}
	if err := ValidDecimal(prec, scale); err != nil {
		// Point at the number at fault.
		pos := scalePos
		if prec < 1 || prec > MaxDecimalPrecision {
			pos = precPos
		}
		return DType{}, &Error{Msg: err.(*Error).Msg, Pos: pos}
	}
	return Decimal(prec, scale, false), nil
}

func parseUnit(s string) (TimeUnit, bool) {
	for i, n := range unitNames {
		if strings.EqualFold(s, n) {
			return TimeUnit(i), true
		}
	}
	return 0, false
}

func (p *typeParser) timeType(timestamp bool) (DType, error) {
	if p.peek() != '(' {
		if timestamp {
			return Timestamp(Micro, "", false), nil
		}
		return Time(Micro, false), nil
	}
	p.pos++
	p.skipSpace()
	unitPos := p.pos
	u := p.word()
	unit, ok := parseUnit(u)
	if !ok {
		return DType{}, &Error{Msg: "unknown time unit " + strconv.Quote(u) + " (want s, ms, us or ns)", Pos: unitPos}
	}
	tz := ""
	if timestamp && p.peek() == ',' {
		p.pos++
		var err error
		if tz, err = p.tzName(); err != nil {
			return DType{}, err
		}
	}
	if err := p.expect(')'); err != nil {
		return DType{}, err
	}
	if timestamp {
		return Timestamp(unit, tz, false), nil
	}
	return Time(unit, false), nil
}

// tzName reads a time zone, quoted ('America/New_York') or bare (UTC).
func (p *typeParser) tzName() (string, error) {
	if p.peek() != '\'' {
		name := p.word()
		if name == "" {
			return "", p.errorf("expected a time zone name")
		}
		return name, nil
	}
	return p.quoted('\'', "time zone string")
}

func (p *typeParser) list(depth int) (DType, error) {
	if err := p.expect('<'); err != nil {
		return DType{}, err
	}
	elem, err := p.parse(depth + 1)
	if err != nil {
		return DType{}, err
	}
	if err := p.expect('>'); err != nil {
		return DType{}, err
	}
	return List(elem, false), nil
}

func (p *typeParser) fixedSizeList(depth int) (DType, error) {
	if err := p.expect('<'); err != nil {
		return DType{}, err
	}
	elem, err := p.parse(depth + 1)
	if err != nil {
		return DType{}, err
	}
	if err := p.expect(','); err != nil {
		return DType{}, err
	}
	n, err := p.integer()
	if err != nil {
		return DType{}, err
	}
	if err := p.expect('>'); err != nil {
		return DType{}, err
	}
	return FixedSizeList(elem, n, false), nil
}

func (p *typeParser) structType(depth int) (DType, error) {
	if err := p.expect('<'); err != nil {
		return DType{}, err
	}
	var fields []Field
	seen := map[string]bool{}
	if p.peek() == '>' {
		p.pos++
		return Struct(nil, false), nil
	}
	for {
		p.skipSpace()
		namePos := p.pos
		name, err := p.fieldName()
		if err != nil {
			return DType{}, err
		}
		if seen[name] {
			return DType{}, &Error{Msg: "duplicate struct field " + strconv.Quote(name), Pos: namePos}
		}
		seen[name] = true
		if err := p.expect(':'); err != nil {
			return DType{}, err
		}
		t, err := p.parse(depth + 1)
		if err != nil {
			return DType{}, err
		}
		fields = append(fields, Field{Name: name, Type: t})
		switch p.peek() {
		case ',':
			p.pos++
		case '>':
			p.pos++
			return Struct(fields, false), nil
		default:
			return DType{}, p.errorf("expected ',' or '>' in struct type")
		}
	}
}

func (p *typeParser) fieldName() (string, error) {
	if p.peek() != '"' {
		name := p.word()
		if name == "" {
			return "", p.errorf("expected a field name")
		}
		return name, nil
	}
	return p.quoted('"', "quoted field name")
}

// quoted reads a string between quote characters q (the opening one is at
// p.pos), where a doubled q stands for one.
func (p *typeParser) quoted(q byte, what string) (string, error) {
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		if c == q {
			if p.pos < len(p.src) && p.src[p.pos] == q {
				b.WriteByte(q)
				p.pos++
				continue
			}
			return b.String(), nil
		}
		b.WriteByte(c)
	}
	return "", p.errorf("unterminated " + what)
}
