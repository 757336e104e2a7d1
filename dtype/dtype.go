// Package dtype defines colexpr's logical types.
//
// A DType is an immutable value: a kind (Null, Bool, Primitive, Decimal, Utf8,
// Binary, Struct, List, FixedSizeList, Extension), the parameters of that kind,
// and a nullability flag. Every type, nested ones included, carries its own
// nullability, so `list<i32?>` (nullable elements) differs from `list<i32>?`
// (nullable list).
//
// The canonical text form, printed by String and read by Parse, is the type
// syntax of colexpr expressions:
//
//	bool, i8 … i64, u8 … u64, f16, f32, f64, decimal(p,s), utf8, binary,
//	date, time(unit), timestamp(unit[, 'tz']), list<T>, fixed_size_list<T, n>,
//	struct<a: T, b: U>, interval, null — with a trailing ? for nullable.
//
// Parse also accepts the SQL names DuckDB users know (BIGINT, INTEGER, DOUBLE,
// VARCHAR, BOOLEAN, …); see Parse for the full list.
//
// Extension types model dates and times over integer storage, as Arrow does:
// date is days since the epoch in i32; time(s|ms) is i32 and time(us|ns) is
// i64 since midnight; timestamp(unit, tz) is i64 since the epoch.
//
// interval is a kind of its own: months (i32), days (i32) and nanoseconds
// (i64), Arrow's month_day_nano interval. It meets only itself.
//
// Decimals hold up to 38 digits (Arrow's decimal128).
package dtype

import (
	"strconv"
	"strings"
)

// Kind is the family a DType belongs to.
type Kind uint8

// The kinds of DType.
const (
	KindNull Kind = iota
	KindBool
	KindPrimitive
	KindDecimal
	KindUtf8
	KindBinary
	KindStruct
	KindList
	KindFixedSizeList
	KindExtension
	KindInterval
)

var kindNames = [...]string{"null", "bool", "primitive", "decimal", "utf8", "binary", "struct", "list", "fixed_size_list", "extension", "interval"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// PType is the physical type of a Primitive.
type PType uint8

// The primitive types.
const (
	U8 PType = iota
	U16
	U32
	U64
	I8
	I16
	I32
	I64
	F16
	F32
	F64
)

var ptypeNames = [...]string{"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "f32", "f64"}

func (p PType) String() string {
	if int(p) < len(ptypeNames) {
		return ptypeNames[p]
	}
	return "ptype(" + strconv.Itoa(int(p)) + ")"
}

// IsInt reports whether p is a signed or unsigned integer.
func (p PType) IsInt() bool { return p <= I64 }

// IsSigned reports whether p is a signed integer.
func (p PType) IsSigned() bool { return p >= I8 && p <= I64 }

// IsUnsigned reports whether p is an unsigned integer.
func (p PType) IsUnsigned() bool { return p <= U64 }

// IsFloat reports whether p is a floating-point type.
func (p PType) IsFloat() bool { return p >= F16 && p <= F64 }

// BitWidth is the number of bits of p.
func (p PType) BitWidth() int {
	switch p {
	case U8, I8:
		return 8
	case U16, I16, F16:
		return 16
	case U32, I32, F32:
		return 32
	default:
		return 64
	}
}

// ExtID names an extension type.
type ExtID uint8

// The extension types.
const (
	ExtDate ExtID = iota + 1
	ExtTime
	ExtTimestamp
)

var extNames = [...]string{"", "date", "time", "timestamp"}

func (e ExtID) String() string {
	if int(e) < len(extNames) {
		return extNames[e]
	}
	return "ext(" + strconv.Itoa(int(e)) + ")"
}

// TimeUnit is the resolution of a time or timestamp.
type TimeUnit uint8

// The time units.
const (
	Second TimeUnit = iota
	Milli
	Micro
	Nano
)

var unitNames = [...]string{"s", "ms", "us", "ns"}

func (u TimeUnit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return "unit(" + strconv.Itoa(int(u)) + ")"
}

// PerSecond is the number of ticks of u in one second.
func (u TimeUnit) PerSecond() int64 {
	switch u {
	case Second:
		return 1
	case Milli:
		return 1e3
	case Micro:
		return 1e6
	default:
		return 1e9
	}
}

// MaxDecimalPrecision is the largest supported decimal precision.
const MaxDecimalPrecision = 38

// Field is a named member of a struct type.
type Field struct {
	Name string
	Type DType
}

// DType is a logical type. The zero value is the non-nullable Null type; use
// the constructors to build others. DType is a small value: copy it freely.
// Nested parts are shared and never mutated.
type DType struct {
	kind     Kind
	nullable bool
	ptype    PType
	ext      ExtID
	unit     TimeUnit
	prec     uint8
	scale    int8
	// x holds the parameters only nested and zoned types have, so the
	// common scalar types stay two words and copy cheaply.
	x *nested
}

// nested holds the rarely used parameters of a DType.
type nested struct {
	size   int32
	tz     string
	elem   *DType
	fields []Field
}

func (t DType) fieldList() []Field {
	if t.x == nil {
		return nil
	}
	return t.x.fields
}

func (t DType) elemPtr() *DType {
	if t.x == nil {
		return nil
	}
	return t.x.elem
}

func (t DType) sizeN() int32 {
	if t.x == nil {
		return 0
	}
	return t.x.size
}

func (t DType) tzName() string {
	if t.x == nil {
		return ""
	}
	return t.x.tz
}

// Null is the type of the untyped null; it is always nullable.
func Null() DType { return DType{kind: KindNull, nullable: true} }

// Bool is the boolean type.
func Bool(nullable bool) DType { return DType{kind: KindBool, nullable: nullable} }

// Primitive is a numeric type.
func Primitive(p PType, nullable bool) DType {
	return DType{kind: KindPrimitive, ptype: p, nullable: nullable}
}

// Decimal is a fixed-point decimal with precision 1..38 and 0 <= scale <= precision.
// It panics on parameters out of range: callers that take them from users
// check with ValidDecimal first.
func Decimal(precision, scale int, nullable bool) DType {
	if err := ValidDecimal(precision, scale); err != nil {
		panic(err)
	}
	return DType{kind: KindDecimal, prec: uint8(precision), scale: int8(scale), nullable: nullable}
}

// Utf8 is the string type.
func Utf8(nullable bool) DType { return DType{kind: KindUtf8, nullable: nullable} }

// Binary is the byte-string type.
func Binary(nullable bool) DType { return DType{kind: KindBinary, nullable: nullable} }

// Struct is a struct with the given ordered fields. The slice is copied.
func Struct(fields []Field, nullable bool) DType {
	fs := make([]Field, len(fields))
	copy(fs, fields)
	return DType{kind: KindStruct, x: &nested{fields: fs}, nullable: nullable}
}

// List is a variable-length list of elem.
func List(elem DType, nullable bool) DType {
	e := elem
	return DType{kind: KindList, x: &nested{elem: &e}, nullable: nullable}
}

// FixedSizeList is a list of exactly n elements of elem.
func FixedSizeList(elem DType, n int, nullable bool) DType {
	e := elem
	return DType{kind: KindFixedSizeList, x: &nested{elem: &e, size: int32(n)}, nullable: nullable}
}

// Date is the calendar date type (days since 1970-01-01 in i32).
func Date(nullable bool) DType { return DType{kind: KindExtension, ext: ExtDate, nullable: nullable} }

// Time is the time-of-day type in the given unit.
func Time(unit TimeUnit, nullable bool) DType {
	return DType{kind: KindExtension, ext: ExtTime, unit: unit, nullable: nullable}
}

// Timestamp is an instant in the given unit since the epoch; tz is empty for
// a timestamp without time zone.
func Timestamp(unit TimeUnit, tz string, nullable bool) DType {
	t := DType{kind: KindExtension, ext: ExtTimestamp, unit: unit, nullable: nullable}
	if tz != "" {
		t.x = &nested{tz: tz}
	}
	return t
}

// Interval is a span of calendar time, as DuckDB's INTERVAL: months, days
// and nanoseconds, each counted separately (a month is not a fixed number
// of days, nor a day of hours across a time-zone change), stored as Arrow's
// month_day_nano interval.
func Interval(nullable bool) DType { return DType{kind: KindInterval, nullable: nullable} }

// Kind is the family of t.
func (t DType) Kind() Kind { return t.kind }

// Nullable reports whether t admits nulls.
func (t DType) Nullable() bool { return t.nullable }

// WithNullable returns t with its top-level nullability set to n. The Null
// type stays nullable.
func (t DType) WithNullable(n bool) DType {
	if t.kind == KindNull {
		return t
	}
	t.nullable = n
	return t
}

// AsNullable returns t made nullable.
func (t DType) AsNullable() DType { return t.WithNullable(true) }

// AsNonNullable returns t made non-nullable (Null stays nullable).
func (t DType) AsNonNullable() DType { return t.WithNullable(false) }

// PType is the physical type of a Primitive; for an extension type it is the
// physical type of its storage. It is meaningless for other kinds.
func (t DType) PType() PType {
	if t.kind == KindExtension {
		return t.Storage().ptype
	}
	return t.ptype
}

// IsNull reports whether t is the Null type.
func (t DType) IsNull() bool { return t.kind == KindNull }

// IsBool reports whether t is Bool.
func (t DType) IsBool() bool { return t.kind == KindBool }

// IsPrimitive reports whether t is a Primitive.
func (t DType) IsPrimitive() bool { return t.kind == KindPrimitive }

// IsInt reports whether t is an integer primitive.
func (t DType) IsInt() bool { return t.kind == KindPrimitive && t.ptype.IsInt() }

// IsFloat reports whether t is a floating-point primitive.
func (t DType) IsFloat() bool { return t.kind == KindPrimitive && t.ptype.IsFloat() }

// IsDecimal reports whether t is a Decimal.
func (t DType) IsDecimal() bool { return t.kind == KindDecimal }

// IsNumeric reports whether t is a Primitive or a Decimal.
func (t DType) IsNumeric() bool { return t.kind == KindPrimitive || t.kind == KindDecimal }

// IsUtf8 reports whether t is Utf8.
func (t DType) IsUtf8() bool { return t.kind == KindUtf8 }

// IsBinary reports whether t is Binary.
func (t DType) IsBinary() bool { return t.kind == KindBinary }

// IsStruct reports whether t is a Struct.
func (t DType) IsStruct() bool { return t.kind == KindStruct }

// IsList reports whether t is a List or a FixedSizeList.
func (t DType) IsList() bool { return t.kind == KindList || t.kind == KindFixedSizeList }

// IsInterval reports whether t is an Interval.
func (t DType) IsInterval() bool { return t.kind == KindInterval }

// IsTemporal reports whether t is date, time or timestamp (not interval).
func (t DType) IsTemporal() bool { return t.kind == KindExtension }

// Precision is the precision of a Decimal.
func (t DType) Precision() int { return int(t.prec) }

// Scale is the scale of a Decimal.
func (t DType) Scale() int { return int(t.scale) }

// Fields are the fields of a Struct. The slice must not be modified.
func (t DType) Fields() []Field { return t.fieldList() }

// FieldIndex is the index of the named field of a Struct, or -1.
func (t DType) FieldIndex(name string) int {
	for i, f := range t.fieldList() {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Elem is the element type of a List or FixedSizeList.
func (t DType) Elem() DType {
	if t.elemPtr() == nil {
		return DType{}
	}
	return *t.elemPtr()
}

// Size is the length of a FixedSizeList.
func (t DType) Size() int { return int(t.sizeN()) }

// ExtID names the extension of an Extension type.
func (t DType) ExtID() ExtID { return t.ext }

// Unit is the time unit of a time or timestamp.
func (t DType) Unit() TimeUnit { return t.unit }

// TZ is the time zone of a timestamp ("" for none).
func (t DType) TZ() string { return t.tzName() }

// Storage is the type an Extension is stored as (with t's nullability); for
// other kinds it is t itself.
func (t DType) Storage() DType {
	if t.kind != KindExtension {
		return t
	}
	switch {
	case t.ext == ExtDate:
		return Primitive(I32, t.nullable)
	case t.ext == ExtTime && t.unit <= Milli:
		return Primitive(I32, t.nullable)
	default:
		return Primitive(I64, t.nullable)
	}
}

// Equal reports whether t and u are the same type, nullability included at
// every level.
func (t DType) Equal(u DType) bool { return equal(t, u, false) }

// EqualIgnoreNullability reports whether t and u are the same type when
// nullability is ignored at every level.
func (t DType) EqualIgnoreNullability(u DType) bool { return equal(t, u, true) }

func equal(t, u DType, ignoreNull bool) bool {
	if t.kind != u.kind || (!ignoreNull && t.nullable != u.nullable) {
		return false
	}
	if t.x == u.x && t.ptype == u.ptype && t.ext == u.ext && t.unit == u.unit && t.prec == u.prec && t.scale == u.scale {
		return true // shared nested parameters: the same type
	}
	switch t.kind {
	case KindPrimitive:
		return t.ptype == u.ptype
	case KindDecimal:
		return t.prec == u.prec && t.scale == u.scale
	case KindExtension:
		return t.ext == u.ext && t.unit == u.unit && t.tzName() == u.tzName()
	case KindList:
		return equal(*t.elemPtr(), *u.elemPtr(), ignoreNull)
	case KindFixedSizeList:
		return t.sizeN() == u.sizeN() && equal(*t.elemPtr(), *u.elemPtr(), ignoreNull)
	case KindStruct:
		if len(t.fieldList()) != len(u.fieldList()) {
			return false
		}
		for i := range t.fieldList() {
			if t.fieldList()[i].Name != u.fieldList()[i].Name || !equal(t.fieldList()[i].Type, u.fieldList()[i].Type, ignoreNull) {
				return false
			}
		}
	}
	return true
}

// Hash returns a hash of t consistent with Equal.
func (t DType) Hash() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	var walk func(d DType)
	walk = func(d DType) {
		mix(uint64(d.kind)<<1 | b2u(d.nullable))
		mix(uint64(d.ptype) | uint64(d.ext)<<8 | uint64(d.unit)<<16 | uint64(d.prec)<<24 | uint64(uint8(d.scale))<<32)
		mix(uint64(d.sizeN()))
		for i := 0; i < len(d.tzName()); i++ {
			mix(uint64(d.tzName()[i]))
		}
		if d.elemPtr() != nil {
			walk(*d.elemPtr())
		}
		for _, f := range d.fieldList() {
			for i := 0; i < len(f.Name); i++ {
				mix(uint64(f.Name[i]))
			}
			walk(f.Type)
		}
	}
	walk(t)
	return h
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// String is the canonical text form of t; Parse reads it back.
func (t DType) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t DType) write(b *strings.Builder) {
	switch t.kind {
	case KindNull:
		b.WriteString("null")
		return // null is nullable by definition; no '?'
	case KindBool:
		b.WriteString("bool")
	case KindPrimitive:
		b.WriteString(t.ptype.String())
	case KindDecimal:
		b.WriteString("decimal(")
		b.WriteString(strconv.Itoa(int(t.prec)))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(int(t.scale)))
		b.WriteByte(')')
	case KindUtf8:
		b.WriteString("utf8")
	case KindBinary:
		b.WriteString("binary")
	case KindInterval:
		b.WriteString("interval")
	case KindList:
		b.WriteString("list<")
		t.elemPtr().write(b)
		b.WriteByte('>')
	case KindFixedSizeList:
		b.WriteString("fixed_size_list<")
		t.elemPtr().write(b)
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(t.sizeN())))
		b.WriteByte('>')
	case KindStruct:
		b.WriteString("struct<")
		for i, f := range t.fieldList() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteFieldName(f.Name))
			b.WriteString(": ")
			f.Type.write(b)
		}
		b.WriteByte('>')
	case KindExtension:
		b.WriteString(t.ext.String())
		switch t.ext {
		case ExtTime:
			b.WriteString("(" + t.unit.String() + ")")
		case ExtTimestamp:
			b.WriteString("(" + t.unit.String())
			if t.tzName() != "" {
				b.WriteString(", " + QuoteString(t.tzName()))
			}
			b.WriteByte(')')
		}
	}
	if t.nullable {
		b.WriteByte('?')
	}
}

// QuoteFieldName returns name as written in type and expression text: bare
// when it is a plain identifier, double-quoted otherwise.
func QuoteFieldName(name string) string {
	if IsPlainIdent(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteString returns s as an SQL string literal, as type and expression
// text write it: in single quotes, with each quote doubled.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// IsPlainIdent reports whether s can be written without quotes: a letter or
// underscore followed by letters, digits and underscores, and not a keyword
// of the expression syntax.
func IsPlainIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return !IsKeyword(s)
}

// IsKeyword reports whether word, in any case, is a keyword of the
// expression syntax (AND, NULL, CASE, CAST, …): the parser reads it as that
// keyword, so QuoteFieldName quotes a name spelled like one.
func IsKeyword(word string) bool { return keywords[strings.ToLower(word)] }

// keywords are the words the expression syntax gives a meaning of its own.
var keywords = map[string]bool{
	"and": true, "or": true, "not": true, "is": true, "null": true, "true": true, "false": true,
	"in": true, "like": true, "ilike": true, "between": true, "case": true, "when": true,
	"then": true, "else": true, "end": true, "cast": true, "try_cast": true, "as": true,
	"distinct": true, "from": true, "date": true, "time": true, "timestamp": true, "interval": true,
	"current_date": true, "current_timestamp": true,
}

// ValidDecimal reports an error when precision and scale are not a valid
// Decimal.
func ValidDecimal(precision, scale int) error {
	if precision < 1 || precision > MaxDecimalPrecision {
		return &Error{Msg: "decimal precision " + strconv.Itoa(precision) + " is out of range 1..38", Pos: -1}
	}
	if scale < 0 || scale > precision {
		return &Error{Msg: "decimal scale " + strconv.Itoa(scale) + " is out of range 0.." + strconv.Itoa(precision), Pos: -1}
	}
	return nil
}

// Error is a dtype error: a bad type name, or a type with no conversion.
type Error struct {
	Msg string
	Pos int // byte offset in the parsed text, or -1
}

func (e *Error) Error() string {
	if e.Pos >= 0 {
		return "dtype: " + e.Msg + " at offset " + strconv.Itoa(e.Pos)
	}
	return "dtype: " + e.Msg
}
