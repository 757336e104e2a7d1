package substrait

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	sexpr "github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/types"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/scalar"
)

// literalOf is the Substrait literal of a colexpr scalar: same type
// (nullability included: 5::i32? is a non-null literal of a nullable i32),
// same value. A null scalar is a typed null.
func literalOf(s scalar.Scalar) (sexpr.Literal, error) {
	t := s.DType()
	st, err := typeOf(t)
	if err != nil {
		return nil, err
	}
	if s.IsNull() {
		return sexpr.NewNullLiteral(st), nil
	}
	n := t.Nullable()
	v := s.Value()
	switch t.Kind() {
	case dtype.KindBool:
		return sexpr.NewPrimitiveLiteral(v.(bool), n), nil
	case dtype.KindPrimitive:
		switch t.PType() {
		case dtype.I8:
			return sexpr.NewPrimitiveLiteral(int8(v.(int64)), n), nil
		case dtype.I16:
			return sexpr.NewPrimitiveLiteral(int16(v.(int64)), n), nil
		case dtype.I32:
			return sexpr.NewPrimitiveLiteral(int32(v.(int64)), n), nil
		case dtype.I64:
			return sexpr.NewPrimitiveLiteral(v.(int64), n), nil
		case dtype.F32:
			return sexpr.NewPrimitiveLiteral(float32(v.(float64)), n), nil
		case dtype.F64:
			return sexpr.NewPrimitiveLiteral(v.(float64), n), nil
		}
	case dtype.KindDecimal:
		return &sexpr.ProtoLiteral{Value: decimalBytes(v.(decimal128.Num)), Type: st}, nil
	case dtype.KindUtf8:
		return sexpr.NewPrimitiveLiteral(v.(string), n), nil
	case dtype.KindBinary:
		return sexpr.NewByteSliceLiteral([]byte(v.(string)), n), nil
	case dtype.KindInterval:
		iv := v.(arrow.MonthDayNanoInterval)
		secs, sub := iv.Nanoseconds/1e9, iv.Nanoseconds%1e9
		if secs != int64(int32(secs)) {
			return nil, unsupported("the interval %s: its %d seconds exceed the 32-bit seconds of a Substrait interval literal", s, secs)
		}
		return sexpr.IntervalCompoundLiteral{Years: iv.Months / 12, Months: iv.Months % 12, Days: iv.Days, Seconds: int32(secs),
			SubSeconds: sub, SubSecondPrecision: types.PrecisionNanoSeconds, Nullability: nullability(n)}, nil
	case dtype.KindExtension:
		ticks := v.(int64)
		switch t.ExtID() {
		case dtype.ExtDate:
			return sexpr.NewPrimitiveLiteral(types.Date(int32(ticks)), n), nil
		case dtype.ExtTime:
			return sexpr.NewPrecisionTimeLiteral(ticks, precisionOf(t.Unit()), nullability(n)), nil
		case dtype.ExtTimestamp:
			if t.TZ() != "" {
				return sexpr.NewPrecisionTimestampTzLiteral(ticks, precisionOf(t.Unit()), nullability(n)), nil
			}
			return sexpr.NewPrecisionTimestampLiteral(ticks, precisionOf(t.Unit()), nullability(n)), nil
		}
	case dtype.KindStruct:
		vals := v.([]scalar.Scalar)
		fields := make(sexpr.StructLiteralValue, len(vals))
		for i, f := range vals {
			if fields[i], err = literalOf(f); err != nil {
				return nil, err
			}
		}
		return &sexpr.StructLiteral{Value: fields, Type: st}, nil
	case dtype.KindList:
		vals := v.([]scalar.Scalar)
		if len(vals) == 0 {
			return sexpr.NewEmptyListLiteral(st.(*types.ListType).Type, n), nil
		}
		elems := make(sexpr.ListLiteralValue, len(vals))
		for i, e := range vals {
			if elems[i], err = literalOf(e); err != nil {
				return nil, err
			}
		}
		return &sexpr.ListLiteral{Value: elems, Type: st}, nil
	}
	return nil, unsupported("a literal of type %s", t)
}

// decimalBytes is the 16-byte little-endian two's complement form of a
// decimal's unscaled value, as Substrait's decimal literal holds it.
func decimalBytes(n decimal128.Num) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint64(b[:8], n.LowBits())
	binary.LittleEndian.PutUint64(b[8:], uint64(n.HighBits()))
	return b
}

// literalType is the dtype of a Substrait literal, with struct fields
// named f1, f2, … (the caller may rename them from a hint).
func literalType(l *pb.Expression_Literal) (dtype.DType, error) {
	if l == nil || l.LiteralType == nil {
		return dtype.DType{}, invalid("a literal with no value")
	}
	if l.TypeVariationReference != 0 {
		return dtype.DType{}, unsupported("a literal with type variation %d (colexpr knows no type variations)", l.TypeVariationReference)
	}
	n := l.Nullable
	switch v := l.LiteralType.(type) {
	case *pb.Expression_Literal_Boolean:
		return dtype.Bool(n), nil
	case *pb.Expression_Literal_I8:
		return dtype.Primitive(dtype.I8, n), nil
	case *pb.Expression_Literal_I16:
		return dtype.Primitive(dtype.I16, n), nil
	case *pb.Expression_Literal_I32:
		return dtype.Primitive(dtype.I32, n), nil
	case *pb.Expression_Literal_I64:
		return dtype.Primitive(dtype.I64, n), nil
	case *pb.Expression_Literal_Fp32:
		return dtype.Primitive(dtype.F32, n), nil
	case *pb.Expression_Literal_Fp64:
		return dtype.Primitive(dtype.F64, n), nil
	case *pb.Expression_Literal_String_:
		return dtype.Utf8(n), nil
	case *pb.Expression_Literal_Binary:
		return dtype.Binary(n), nil
	case *pb.Expression_Literal_Date:
		return dtype.Date(n), nil
	case *pb.Expression_Literal_Time: //nolint:staticcheck // the deprecated microsecond time is still read
		return dtype.Time(dtype.Micro, n), nil
	case *pb.Expression_Literal_Timestamp: //nolint:staticcheck
		return dtype.Timestamp(dtype.Micro, "", n), nil
	case *pb.Expression_Literal_TimestampTz: //nolint:staticcheck
		return dtype.Timestamp(dtype.Micro, defaultZone, n), nil
	case *pb.Expression_Literal_PrecisionTime_:
		u, err := unitOf(v.PrecisionTime.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		return dtype.Time(u, n), nil
	case *pb.Expression_Literal_PrecisionTimestamp_:
		u, err := unitOf(v.PrecisionTimestamp.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		return dtype.Timestamp(u, "", n), nil
	case *pb.Expression_Literal_PrecisionTimestampTz:
		u, err := unitOf(v.PrecisionTimestampTz.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		return dtype.Timestamp(u, defaultZone, n), nil
	case *pb.Expression_Literal_Decimal_:
		p, s := int(v.Decimal.GetPrecision()), int(v.Decimal.GetScale())
		if err := dtype.ValidDecimal(p, s); err != nil {
			return dtype.DType{}, invalid("decimal literal: %v", err)
		}
		return dtype.Decimal(p, s, n), nil
	case *pb.Expression_Literal_IntervalYearToMonth_, *pb.Expression_Literal_IntervalDayToSecond_, *pb.Expression_Literal_IntervalCompound_:
		return dtype.Interval(n), nil
	case *pb.Expression_Literal_Null:
		t, err := dtypeOf(v.Null, nil)
		if err != nil {
			return dtype.DType{}, err
		}
		if !t.Nullable() {
			return dtype.DType{}, invalid("a null literal of the non-nullable type %s", t)
		}
		return t, nil
	case *pb.Expression_Literal_Struct_:
		fs := v.Struct.GetFields()
		fields := make([]dtype.Field, len(fs))
		for i, f := range fs {
			t, err := literalType(f)
			if err != nil {
				return dtype.DType{}, err
			}
			fields[i] = dtype.Field{Name: defaultName(i), Type: t}
		}
		return dtype.Struct(fields, n), nil
	case *pb.Expression_Literal_List_:
		vals := v.List.GetValues()
		if len(vals) == 0 {
			return dtype.DType{}, invalid("a list literal with no values (an empty list is an empty_list literal)")
		}
		elem, err := literalType(vals[0])
		if err != nil {
			return dtype.DType{}, err
		}
		for i := 1; i < len(vals); i++ {
			t, err := literalType(vals[i])
			if err != nil {
				return dtype.DType{}, err
			}
			if !t.Equal(elem) {
				return dtype.DType{}, invalid("list literal element %d has type %s, element 0 has %s", i, t, elem)
			}
		}
		return dtype.List(elem, n), nil
	case *pb.Expression_Literal_EmptyList:
		elem, err := dtypeOf(v.EmptyList.GetType(), nil)
		if err != nil {
			return dtype.DType{}, err
		}
		return dtype.List(elem, n), nil
	}
	return dtype.DType{}, unsupported("%s literals have no colexpr counterpart", literalKind(l))
}

func defaultName(i int) string {
	n, _ := (*names)(nil).take(i)
	return n
}

func literalKind(l *pb.Expression_Literal) string {
	fd := l.ProtoReflect().WhichOneof(l.ProtoReflect().Descriptor().Oneofs().ByName("literal_type"))
	if fd == nil {
		return "(none)"
	}
	return string(fd.Name())
}

// scalarOf reads a Substrait literal as a scalar of type t, which is
// literalType(l) with its struct fields possibly renamed.
func scalarOf(l *pb.Expression_Literal, t dtype.DType) (scalar.Scalar, error) {
	v, err := goValue(l, t)
	if err != nil {
		return scalar.Scalar{}, err
	}
	s, err := scalar.New(t, v)
	if err != nil {
		return scalar.Scalar{}, invalid("literal of type %s: %v", t, err)
	}
	return s, nil
}

// goValue is the Go value scalar.New wants for literal l of type t (nil for
// a null).
func goValue(l *pb.Expression_Literal, t dtype.DType) (any, error) {
	switch v := l.LiteralType.(type) {
	case *pb.Expression_Literal_Null:
		return nil, nil
	case *pb.Expression_Literal_Boolean:
		return v.Boolean, nil
	case *pb.Expression_Literal_I8:
		return int64(v.I8), nil
	case *pb.Expression_Literal_I16:
		return int64(v.I16), nil
	case *pb.Expression_Literal_I32:
		return int64(v.I32), nil
	case *pb.Expression_Literal_I64:
		return v.I64, nil
	case *pb.Expression_Literal_Fp32:
		f := float64(v.Fp32)
		if math.IsNaN(f) {
			f = math.NaN()
		}
		return f, nil
	case *pb.Expression_Literal_Fp64:
		return v.Fp64, nil
	case *pb.Expression_Literal_String_:
		return v.String_, nil
	case *pb.Expression_Literal_Binary:
		return string(v.Binary), nil
	case *pb.Expression_Literal_IntervalYearToMonth_:
		return intervalOf(v.IntervalYearToMonth, nil)
	case *pb.Expression_Literal_IntervalDayToSecond_:
		return intervalOf(nil, v.IntervalDayToSecond)
	case *pb.Expression_Literal_IntervalCompound_:
		return intervalOf(v.IntervalCompound.GetIntervalYearToMonth(), v.IntervalCompound.GetIntervalDayToSecond())
	case *pb.Expression_Literal_Date:
		return int64(v.Date), nil
	case *pb.Expression_Literal_Time: //nolint:staticcheck
		return v.Time, nil
	case *pb.Expression_Literal_Timestamp: //nolint:staticcheck
		return v.Timestamp, nil
	case *pb.Expression_Literal_TimestampTz: //nolint:staticcheck
		return v.TimestampTz, nil
	case *pb.Expression_Literal_PrecisionTime_:
		return v.PrecisionTime.GetValue(), nil
	case *pb.Expression_Literal_PrecisionTimestamp_:
		return v.PrecisionTimestamp.GetValue(), nil
	case *pb.Expression_Literal_PrecisionTimestampTz:
		return v.PrecisionTimestampTz.GetValue(), nil
	case *pb.Expression_Literal_Decimal_:
		b := v.Decimal.GetValue()
		if len(b) != 16 {
			return nil, invalid("a decimal literal of %d bytes (Substrait decimals are 16 bytes)", len(b))
		}
		return decimal128.New(int64(binary.LittleEndian.Uint64(b[8:])), binary.LittleEndian.Uint64(b[:8])), nil
	case *pb.Expression_Literal_Struct_:
		fs := v.Struct.GetFields()
		out := make([]scalar.Scalar, len(fs))
		for i, f := range fs {
			s, err := scalarOf(f, t.Fields()[i].Type)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case *pb.Expression_Literal_List_:
		vals := v.List.GetValues()
		out := make([]scalar.Scalar, len(vals))
		for i, e := range vals {
			s, err := scalarOf(e, t.Elem())
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case *pb.Expression_Literal_EmptyList:
		return []scalar.Scalar{}, nil
	}
	return nil, unsupported("%s literals have no colexpr counterpart", literalKind(l))
}

// intervalOf is the value of an interval literal as colexpr's interval
// (months, days, nanoseconds): years and months make months, and seconds
// with their fraction (microseconds, or subseconds at a precision of at
// most 9 digits) make nanoseconds.
func intervalOf(ym *pb.Expression_Literal_IntervalYearToMonth, ds *pb.Expression_Literal_IntervalDayToSecond) (any, error) {
	var iv arrow.MonthDayNanoInterval
	months := int64(ym.GetYears())*12 + int64(ym.GetMonths())
	if months != int64(int32(months)) {
		return nil, invalid("an interval of %d months does not fit colexpr's 32-bit months", months)
	}
	iv.Months = int32(months)
	if ds != nil {
		iv.Days = ds.GetDays()
		nanos := int64(ds.GetSeconds()) * 1e9
		switch pm := ds.GetPrecisionMode().(type) {
		case *pb.Expression_Literal_IntervalDayToSecond_Microseconds:
			nanos += int64(pm.Microseconds) * 1e3
		case *pb.Expression_Literal_IntervalDayToSecond_Precision:
			p := pm.Precision
			if p < 0 || p > 9 {
				return nil, unsupported("an interval literal of precision %d: colexpr's intervals count nanoseconds (precision 9 at most)", p)
			}
			scale := int64(1)
			for range 9 - p {
				scale *= 10
			}
			sub := ds.GetSubseconds()
			if sub > math.MaxInt64/scale || sub < math.MinInt64/scale {
				return nil, invalid("an interval literal of %d subseconds overflows", sub)
			}
			nanos += sub * scale
		}
		iv.Nanoseconds = nanos
	}
	return iv, nil
}
