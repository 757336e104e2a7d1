package dtype

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// ToArrow is the Arrow data type that stores t. Arrow keeps nullability on
// fields, not types, so t's own nullability is dropped (nested nullability is
// kept on the child fields); use ToArrowField to keep it.
//
// Utf8 and Binary map to Arrow's 32-bit-offset string and binary, List to
// list, dates to date32, time(s|ms) to time32, time(us|ns) to time64,
// interval to month_day_nano_interval.
func ToArrow(t DType) arrow.DataType {
	switch t.kind {
	case KindNull:
		return arrow.Null
	case KindBool:
		return arrow.FixedWidthTypes.Boolean
	case KindPrimitive:
		return arrowPrimitive[t.ptype]
	case KindDecimal:
		return &arrow.Decimal128Type{Precision: int32(t.prec), Scale: int32(t.scale)}
	case KindUtf8:
		return arrow.BinaryTypes.String
	case KindBinary:
		return arrow.BinaryTypes.Binary
	case KindInterval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval
	case KindList:
		return arrow.ListOfField(ToArrowField("item", *t.elemPtr()))
	case KindFixedSizeList:
		return arrow.FixedSizeListOfField(t.sizeN(), ToArrowField("item", *t.elemPtr()))
	case KindStruct:
		fs := make([]arrow.Field, len(t.fieldList()))
		for i, f := range t.fieldList() {
			fs[i] = ToArrowField(f.Name, f.Type)
		}
		return arrow.StructOf(fs...)
	case KindExtension:
		switch t.ext {
		case ExtDate:
			return arrow.FixedWidthTypes.Date32
		case ExtTime:
			if t.unit <= Milli {
				return &arrow.Time32Type{Unit: arrow.TimeUnit(t.unit)}
			}
			return &arrow.Time64Type{Unit: arrow.TimeUnit(t.unit)}
		case ExtTimestamp:
			return &arrow.TimestampType{Unit: arrow.TimeUnit(t.unit), TimeZone: t.tzName()}
		}
	}
	return arrow.Null
}

var arrowPrimitive = [...]arrow.DataType{
	U8: arrow.PrimitiveTypes.Uint8, U16: arrow.PrimitiveTypes.Uint16, U32: arrow.PrimitiveTypes.Uint32, U64: arrow.PrimitiveTypes.Uint64,
	I8: arrow.PrimitiveTypes.Int8, I16: arrow.PrimitiveTypes.Int16, I32: arrow.PrimitiveTypes.Int32, I64: arrow.PrimitiveTypes.Int64,
	F16: arrow.FixedWidthTypes.Float16, F32: arrow.PrimitiveTypes.Float32, F64: arrow.PrimitiveTypes.Float64,
}

// ToArrowField is an Arrow field named name holding t, nullability kept.
func ToArrowField(name string, t DType) arrow.Field {
	return arrow.Field{Name: name, Type: ToArrow(t), Nullable: t.nullable}
}

// ToArrowSchema is the Arrow schema of a struct type's fields.
func ToArrowSchema(t DType) (*arrow.Schema, error) {
	if t.kind != KindStruct {
		return nil, &Error{Msg: "a schema needs a struct type, not " + t.String(), Pos: -1}
	}
	fs := make([]arrow.Field, len(t.fieldList()))
	for i, f := range t.fieldList() {
		fs[i] = ToArrowField(f.Name, f.Type)
	}
	return arrow.NewSchema(fs, nil), nil
}

// FromArrow is the dtype of an Arrow data type, with the given top-level
// nullability. Arrow types colexpr does not model (large strings, views,
// unions, maps, month and day-time intervals, durations, decimal256, …)
// give an error naming the type, never a panic.
//
// A dictionary (dictionary<indices, values>: a pandas categorical, what
// Arrow IPC and Parquet readers often give for a column of few distinct
// strings) is an encoding, not a type: it has the dtype of its values,
// nullability from the field, as DuckDB and DataFusion read it, at any
// depth (a struct field, a list element). A dictionary whose values
// colexpr cannot type is an error like any such type. So ToArrow of the
// result is the plain value type, not the dictionary: code that compares
// Arrow types with a dtype must also accept a dictionary whose values hold
// it (package eval's check of its input does), and an evaluator reading such an array decodes it
// (package eval gathers the values by the indices, once per batch).
func FromArrow(t arrow.DataType, nullable bool) (DType, error) {
	if t == nil {
		return DType{}, &Error{Msg: "nil Arrow data type", Pos: -1}
	}
	switch t.ID() {
	case arrow.NULL:
		return Null(), nil
	case arrow.BOOL:
		return Bool(nullable), nil
	case arrow.UINT8:
		return Primitive(U8, nullable), nil
	case arrow.UINT16:
		return Primitive(U16, nullable), nil
	case arrow.UINT32:
		return Primitive(U32, nullable), nil
	case arrow.UINT64:
		return Primitive(U64, nullable), nil
	case arrow.INT8:
		return Primitive(I8, nullable), nil
	case arrow.INT16:
		return Primitive(I16, nullable), nil
	case arrow.INT32:
		return Primitive(I32, nullable), nil
	case arrow.INT64:
		return Primitive(I64, nullable), nil
	case arrow.FLOAT16:
		return Primitive(F16, nullable), nil
	case arrow.FLOAT32:
		return Primitive(F32, nullable), nil
	case arrow.FLOAT64:
		return Primitive(F64, nullable), nil
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		if err := ValidDecimal(int(d.Precision), int(d.Scale)); err != nil {
			return DType{}, &Error{Msg: "Arrow " + t.String() + ": " + err.(*Error).Msg, Pos: -1}
		}
		return Decimal(int(d.Precision), int(d.Scale), nullable), nil
	case arrow.STRING:
		return Utf8(nullable), nil
	case arrow.BINARY:
		return Binary(nullable), nil
	case arrow.DATE32:
		return Date(nullable), nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return Interval(nullable), nil
	case arrow.TIME32:
		return Time(TimeUnit(t.(*arrow.Time32Type).Unit), nullable), nil
	case arrow.TIME64:
		return Time(TimeUnit(t.(*arrow.Time64Type).Unit), nullable), nil
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		return Timestamp(TimeUnit(ts.Unit), ts.TimeZone, nullable), nil
	case arrow.LIST:
		lt := t.(*arrow.ListType)
		elem, err := FromArrow(lt.Elem(), lt.ElemField().Nullable)
		if err != nil {
			return DType{}, err
		}
		return List(elem, nullable), nil
	case arrow.FIXED_SIZE_LIST:
		lt := t.(*arrow.FixedSizeListType)
		elem, err := FromArrow(lt.Elem(), lt.ElemField().Nullable)
		if err != nil {
			return DType{}, err
		}
		return FixedSizeList(elem, int(lt.Len()), nullable), nil
	case arrow.STRUCT:
		return fromArrowFields(t.(*arrow.StructType).Fields(), nullable)
	case arrow.DICTIONARY:
		dt := t.(*arrow.DictionaryType)
		if dt.IndexType == nil || !arrow.IsInteger(dt.IndexType.ID()) {
			return DType{}, &Error{Msg: "Arrow type " + t.String() + " has non-integer indices", Pos: -1}
		}
		v, err := FromArrow(dt.ValueType, nullable)
		if err != nil {
			return DType{}, &Error{Msg: "Arrow type " + t.String() + ": " + trimPrefix(err), Pos: -1}
		}
		return v, nil
	}
	return DType{}, &Error{Msg: "Arrow type " + t.String() + " has no colexpr dtype", Pos: -1}
}

// FromArrowSchema is the non-nullable struct type of a schema's fields.
func FromArrowSchema(s *arrow.Schema) (DType, error) {
	if s == nil {
		return DType{}, &Error{Msg: "nil Arrow schema", Pos: -1}
	}
	return fromArrowFields(s.Fields(), false)
}

func fromArrowFields(afs []arrow.Field, nullable bool) (DType, error) {
	fs := make([]Field, len(afs))
	seen := make(map[string]bool, len(afs))
	for i, f := range afs {
		if seen[f.Name] {
			return DType{}, &Error{Msg: "duplicate field name " + strconv.Quote(f.Name), Pos: -1}
		}
		seen[f.Name] = true
		ft, err := FromArrow(f.Type, f.Nullable)
		if err != nil {
			return DType{}, &Error{Msg: "field " + strconv.Quote(f.Name) + ": " + trimPrefix(err), Pos: -1}
		}
		fs[i] = Field{Name: f.Name, Type: ft}
	}
	return DType{kind: KindStruct, x: &nested{fields: fs}, nullable: nullable}, nil
}

func trimPrefix(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}
