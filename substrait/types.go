package substrait

import (
	"strconv"

	"github.com/substrait-io/substrait-go/v8/types"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"

	"github.com/colexpr/colexpr/dtype"
)

// defaultZone is the zone an imported timestamp_tz gets when no colexpr
// hint names another: Substrait's timestamp_tz is an instant in UTC.
const defaultZone = "UTC"

func nullability(nullable bool) types.Nullability {
	if nullable {
		return types.NullabilityNullable
	}
	return types.NullabilityRequired
}

// precisionOf is the Substrait time precision (digits of sub-second
// resolution) of a colexpr time unit.
func precisionOf(u dtype.TimeUnit) types.TimePrecision {
	return types.TimePrecision(3 * int(u))
}

// typeOf is the Substrait type of a colexpr dtype. Struct field names are
// not part of a Substrait type: callers that need them keep them elsewhere
// (the base schema's names, or a colexpr hint).
func typeOf(d dtype.DType) (types.Type, error) {
	n := nullability(d.Nullable())
	switch d.Kind() {
	case dtype.KindBool:
		return &types.BooleanType{Nullability: n}, nil
	case dtype.KindPrimitive:
		switch d.PType() {
		case dtype.I8:
			return &types.Int8Type{Nullability: n}, nil
		case dtype.I16:
			return &types.Int16Type{Nullability: n}, nil
		case dtype.I32:
			return &types.Int32Type{Nullability: n}, nil
		case dtype.I64:
			return &types.Int64Type{Nullability: n}, nil
		case dtype.F32:
			return &types.Float32Type{Nullability: n}, nil
		case dtype.F64:
			return &types.Float64Type{Nullability: n}, nil
		case dtype.F16:
			return nil, unsupported("type %s: Substrait has no 16-bit float (cast to f32 first)", d)
		default:
			return nil, unsupported("type %s: Substrait has no unsigned integers (cast to a signed type wide enough first)", d)
		}
	case dtype.KindDecimal:
		return &types.DecimalType{Nullability: n, Precision: int32(d.Precision()), Scale: int32(d.Scale())}, nil
	case dtype.KindUtf8:
		return &types.StringType{Nullability: n}, nil
	case dtype.KindBinary:
		return &types.BinaryType{Nullability: n}, nil
	case dtype.KindInterval:
		// Months, days and nanoseconds kept apart: Substrait's
		// interval_compound with nanosecond subseconds.
		return types.NewIntervalCompoundType().WithPrecision(types.PrecisionNanoSeconds).WithNullability(n), nil
	case dtype.KindExtension:
		switch d.ExtID() {
		case dtype.ExtDate:
			return &types.DateType{Nullability: n}, nil
		case dtype.ExtTime:
			return &types.PrecisionTimeType{Precision: precisionOf(d.Unit()), Nullability: n}, nil
		case dtype.ExtTimestamp:
			if d.TZ() != "" {
				return &types.PrecisionTimestampTzType{PrecisionTimestampType: types.PrecisionTimestampType{Precision: precisionOf(d.Unit()), Nullability: n}}, nil
			}
			return &types.PrecisionTimestampType{Precision: precisionOf(d.Unit()), Nullability: n}, nil
		}
	case dtype.KindStruct:
		fs := d.Fields()
		ts := make([]types.Type, len(fs))
		for i, f := range fs {
			t, err := typeOf(f.Type)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		return &types.StructType{Nullability: n, Types: ts}, nil
	case dtype.KindList:
		e, err := typeOf(d.Elem())
		if err != nil {
			return nil, err
		}
		return &types.ListType{Nullability: n, Type: e}, nil
	case dtype.KindFixedSizeList:
		return nil, unsupported("type %s: Substrait has no fixed-size list (cast to %s first)", d, dtype.List(d.Elem(), d.Nullable()))
	case dtype.KindNull:
		return nil, unsupported("the null type: Substrait has no type of its own for an untyped null (cast it to the type meant)")
	}
	return nil, unsupported("type %s", d)
}

// structNames are the names of d's struct fields, nested ones included, in
// the depth-first order of a Substrait NamedStruct: each field's name, then
// the names inside its type.
func structNames(d dtype.DType, out []string) []string {
	switch d.Kind() {
	case dtype.KindStruct:
		for _, f := range d.Fields() {
			out = append(out, f.Name)
			out = structNames(f.Type, out)
		}
	case dtype.KindList, dtype.KindFixedSizeList:
		out = structNames(d.Elem(), out)
	}
	return out
}

// names hands out struct field names in depth-first order, as a
// NamedStruct lists them. A nil *names makes up f1, f2, … per struct.
type names struct {
	list []string
	next int
}

func (n *names) take(i int) (string, error) {
	if n == nil {
		return "f" + strconv.Itoa(i+1), nil
	}
	if n.next >= len(n.list) {
		return "", invalid("the names list has %d names, fewer than the struct fields need", len(n.list))
	}
	s := n.next
	n.next++
	return n.list[s], nil
}

func nullableOf(n pb.Type_Nullability) bool { return n != pb.Type_NULLABILITY_REQUIRED }

// dtypeOf is the colexpr dtype of a Substrait type. Struct field names
// come from nm (nil: f1, f2, …); a timestamp_tz gets the zone UTC.
// NULLABILITY_UNSPECIFIED is read as nullable.
func dtypeOf(t *pb.Type, nm *names) (dtype.DType, error) {
	if t == nil || t.Kind == nil {
		return dtype.DType{}, invalid("a type with no kind")
	}
	var variation uint32
	var d dtype.DType
	switch k := t.Kind.(type) {
	case *pb.Type_Bool:
		variation, d = k.Bool.GetTypeVariationReference(), dtype.Bool(nullableOf(k.Bool.GetNullability()))
	case *pb.Type_I8_:
		variation, d = k.I8.GetTypeVariationReference(), dtype.Primitive(dtype.I8, nullableOf(k.I8.GetNullability()))
	case *pb.Type_I16_:
		variation, d = k.I16.GetTypeVariationReference(), dtype.Primitive(dtype.I16, nullableOf(k.I16.GetNullability()))
	case *pb.Type_I32_:
		variation, d = k.I32.GetTypeVariationReference(), dtype.Primitive(dtype.I32, nullableOf(k.I32.GetNullability()))
	case *pb.Type_I64_:
		variation, d = k.I64.GetTypeVariationReference(), dtype.Primitive(dtype.I64, nullableOf(k.I64.GetNullability()))
	case *pb.Type_Fp32:
		variation, d = k.Fp32.GetTypeVariationReference(), dtype.Primitive(dtype.F32, nullableOf(k.Fp32.GetNullability()))
	case *pb.Type_Fp64:
		variation, d = k.Fp64.GetTypeVariationReference(), dtype.Primitive(dtype.F64, nullableOf(k.Fp64.GetNullability()))
	case *pb.Type_String_:
		variation, d = k.String_.GetTypeVariationReference(), dtype.Utf8(nullableOf(k.String_.GetNullability()))
	case *pb.Type_Binary_:
		variation, d = k.Binary.GetTypeVariationReference(), dtype.Binary(nullableOf(k.Binary.GetNullability()))
	case *pb.Type_Date_:
		variation, d = k.Date.GetTypeVariationReference(), dtype.Date(nullableOf(k.Date.GetNullability()))
	case *pb.Type_Time_: //nolint:staticcheck // the deprecated microsecond time is still read
		variation, d = k.Time.GetTypeVariationReference(), dtype.Time(dtype.Micro, nullableOf(k.Time.GetNullability()))
	case *pb.Type_Timestamp_: //nolint:staticcheck
		variation, d = k.Timestamp.GetTypeVariationReference(), dtype.Timestamp(dtype.Micro, "", nullableOf(k.Timestamp.GetNullability()))
	case *pb.Type_TimestampTz: //nolint:staticcheck
		variation, d = k.TimestampTz.GetTypeVariationReference(), dtype.Timestamp(dtype.Micro, defaultZone, nullableOf(k.TimestampTz.GetNullability()))
	case *pb.Type_PrecisionTime_:
		u, err := unitOf(k.PrecisionTime.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		variation, d = k.PrecisionTime.GetTypeVariationReference(), dtype.Time(u, nullableOf(k.PrecisionTime.GetNullability()))
	case *pb.Type_PrecisionTimestamp_:
		u, err := unitOf(k.PrecisionTimestamp.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		variation, d = k.PrecisionTimestamp.GetTypeVariationReference(), dtype.Timestamp(u, "", nullableOf(k.PrecisionTimestamp.GetNullability()))
	case *pb.Type_PrecisionTimestampTz:
		u, err := unitOf(k.PrecisionTimestampTz.GetPrecision())
		if err != nil {
			return dtype.DType{}, err
		}
		variation, d = k.PrecisionTimestampTz.GetTypeVariationReference(), dtype.Timestamp(u, defaultZone, nullableOf(k.PrecisionTimestampTz.GetNullability()))
	case *pb.Type_IntervalYear_:
		variation, d = k.IntervalYear.GetTypeVariationReference(), dtype.Interval(nullableOf(k.IntervalYear.GetNullability()))
	case *pb.Type_IntervalDay_:
		if p := k.IntervalDay.GetPrecision(); p > 9 {
			return dtype.DType{}, unsupported("interval_day<%d>: colexpr's intervals count nanoseconds (precision 9 at most)", p)
		}
		variation, d = k.IntervalDay.GetTypeVariationReference(), dtype.Interval(nullableOf(k.IntervalDay.GetNullability()))
	case *pb.Type_IntervalCompound_:
		if p := k.IntervalCompound.GetPrecision(); p > 9 {
			return dtype.DType{}, unsupported("interval_compound<%d>: colexpr's intervals count nanoseconds (precision 9 at most)", p)
		}
		variation, d = k.IntervalCompound.GetTypeVariationReference(), dtype.Interval(nullableOf(k.IntervalCompound.GetNullability()))
	case *pb.Type_Decimal_:
		p, s := int(k.Decimal.GetPrecision()), int(k.Decimal.GetScale())
		if err := dtype.ValidDecimal(p, s); err != nil {
			return dtype.DType{}, invalid("decimal<%d,%d>: %v", p, s, err)
		}
		variation, d = k.Decimal.GetTypeVariationReference(), dtype.Decimal(p, s, nullableOf(k.Decimal.GetNullability()))
	case *pb.Type_Struct_:
		if k.Struct == nil {
			return dtype.DType{}, invalid("a struct type with no body")
		}
		fs := make([]dtype.Field, len(k.Struct.GetTypes()))
		seen := make(map[string]bool, len(fs))
		for i, ft := range k.Struct.GetTypes() {
			name, err := nm.take(i)
			if err != nil {
				return dtype.DType{}, err
			}
			if seen[name] {
				return dtype.DType{}, unsupported("struct field name %q appears twice (colexpr struct fields have distinct names)", name)
			}
			seen[name] = true
			f, err := dtypeOf(ft, nm)
			if err != nil {
				return dtype.DType{}, err
			}
			fs[i] = dtype.Field{Name: name, Type: f}
		}
		variation, d = k.Struct.GetTypeVariationReference(), dtype.Struct(fs, nullableOf(k.Struct.GetNullability()))
	case *pb.Type_List_:
		if k.List.GetType() == nil {
			return dtype.DType{}, invalid("a list type with no element type")
		}
		e, err := dtypeOf(k.List.GetType(), nm)
		if err != nil {
			return dtype.DType{}, err
		}
		variation, d = k.List.GetTypeVariationReference(), dtype.List(e, nullableOf(k.List.GetNullability()))
	default:
		return dtype.DType{}, unsupported("Substrait type %s has no colexpr counterpart", kindName(t))
	}
	if variation != 0 {
		return dtype.DType{}, unsupported("type %s with type variation %d (colexpr knows no type variations)", d, variation)
	}
	return d, nil
}

func unitOf(precision int32) (dtype.TimeUnit, error) {
	switch precision {
	case 0:
		return dtype.Second, nil
	case 3:
		return dtype.Milli, nil
	case 6:
		return dtype.Micro, nil
	case 9:
		return dtype.Nano, nil
	}
	return 0, unsupported("time precision %d (colexpr has seconds, milli-, micro- and nanoseconds: 0, 3, 6, 9)", precision)
}

// kindName names the kind of a Substrait type for error messages.
func kindName(t *pb.Type) string {
	if t == nil || t.Kind == nil {
		return "(none)"
	}
	fd := t.ProtoReflect().WhichOneof(t.ProtoReflect().Descriptor().Oneofs().ByName("kind"))
	if fd == nil {
		return "(none)"
	}
	return string(fd.Name())
}

// sameShape reports whether two Substrait types are equal when nullability
// is ignored at every level.
func sameShape(a, b *pb.Type) bool {
	da, err := dtypeOf(a, nil)
	if err != nil {
		return false
	}
	db, err := dtypeOf(b, nil)
	if err != nil {
		return false
	}
	return da.EqualIgnoreNullability(db)
}

// mustProto is the Substrait protobuf type of d, or nil when d has none.
func mustProto(d dtype.DType) *pb.Type {
	t, err := typeOf(d)
	if err != nil {
		return nil
	}
	return types.TypeToProto(t)
}
