package scalar

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowscalar "github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/colexpr/colexpr/dtype"
	"github.com/colexpr/colexpr/internal/interval"
	"github.com/colexpr/colexpr/internal/zeroed"
)

// holds reports whether the Arrow type at stores values of dtype t: it is
// dtype.ToArrow(t) up to the names and nullability of list element fields
// and the nullability of struct fields (nulls found where t does not admit
// them are reported when read).
func holds(at arrow.DataType, t dtype.DType) bool {
	if at == nil {
		return false
	}
	switch t.Kind() {
	case dtype.KindNull:
		return at.ID() == arrow.NULL
	case dtype.KindBool:
		return at.ID() == arrow.BOOL
	case dtype.KindPrimitive:
		return at.ID() == primitiveIDs[t.PType()]
	case dtype.KindDecimal:
		d, ok := at.(*arrow.Decimal128Type)
		return ok && int(d.Precision) == t.Precision() && int(d.Scale) == t.Scale()
	case dtype.KindUtf8:
		return at.ID() == arrow.STRING
	case dtype.KindBinary:
		return at.ID() == arrow.BINARY
	case dtype.KindInterval:
		return at.ID() == arrow.INTERVAL_MONTH_DAY_NANO
	case dtype.KindExtension:
		switch t.ExtID() {
		case dtype.ExtDate:
			return at.ID() == arrow.DATE32
		case dtype.ExtTime:
			if t.Unit() <= dtype.Milli {
				tt, ok := at.(*arrow.Time32Type)
				return ok && dtype.TimeUnit(tt.Unit) == t.Unit()
			}
			tt, ok := at.(*arrow.Time64Type)
			return ok && dtype.TimeUnit(tt.Unit) == t.Unit()
		case dtype.ExtTimestamp:
			tt, ok := at.(*arrow.TimestampType)
			return ok && dtype.TimeUnit(tt.Unit) == t.Unit() && tt.TimeZone == t.TZ()
		}
	case dtype.KindList:
		lt, ok := at.(*arrow.ListType)
		return ok && holds(lt.Elem(), t.Elem())
	case dtype.KindFixedSizeList:
		lt, ok := at.(*arrow.FixedSizeListType)
		return ok && int(lt.Len()) == t.Size() && holds(lt.Elem(), t.Elem())
	case dtype.KindStruct:
		st, ok := at.(*arrow.StructType)
		if !ok || st.NumFields() != len(t.Fields()) {
			return false
		}
		for i, f := range t.Fields() {
			af := st.Field(i)
			if af.Name != f.Name || !holds(af.Type, f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

var primitiveIDs = [...]arrow.Type{
	dtype.U8: arrow.UINT8, dtype.U16: arrow.UINT16, dtype.U32: arrow.UINT32, dtype.U64: arrow.UINT64,
	dtype.I8: arrow.INT8, dtype.I16: arrow.INT16, dtype.I32: arrow.INT32, dtype.I64: arrow.INT64,
	dtype.F16: arrow.FLOAT16, dtype.F32: arrow.FLOAT32, dtype.F64: arrow.FLOAT64,
}

func typeMismatch(what string, at arrow.DataType, t dtype.DType) error {
	name := "<nil>"
	if at != nil {
		name = at.String()
	}
	return fmt.Errorf("%s of Arrow type %s does not hold dtype %s (want %s)", what, name, t, dtype.ToArrow(t))
}

// FromArray is row i of arr as a scalar of dtype t. arr may be any Arrow
// array of type dtype.ToArrow(t), sliced or not; nested values are read
// recursively. A null row gives Null(t). A null nested where t does not
// admit one, a string that is not valid UTF-8, a time of day outside
// [0, 24h), a row out of range or an array of another type is an error.
func FromArray(arr arrow.Array, i int, t dtype.DType) (Scalar, error) {
	if arr == nil {
		return Scalar{}, errorf("nil array")
	}
	if !holds(arr.DataType(), t) {
		return Scalar{}, errorf("%w", typeMismatch("array", arr.DataType(), t))
	}
	if i < 0 || i >= arr.Len() {
		return Scalar{}, errorf("row %d out of range for an array of length %d", i, arr.Len())
	}
	if isNullAt(arr, i) {
		return Null(t), nil
	}
	s, err := fromArrayValue(arr, i, t)
	if err != nil {
		return Scalar{}, errorf("row %d: %w", i, err)
	}
	return s, nil
}

// isNullAt reports whether row i of arr is null (every row of a null-typed
// array is, though it has no validity bitmap).
func isNullAt(arr arrow.Array, i int) bool {
	return arr.DataType().ID() == arrow.NULL || arr.IsNull(i)
}

// fromArraySlot reads a nested value into a slot of type t.
func fromArraySlot(arr arrow.Array, i int, t dtype.DType) (Scalar, error) {
	if isNullAt(arr, i) {
		if !t.Nullable() {
			return Scalar{}, fmt.Errorf("null value in non-nullable %s", t)
		}
		return Scalar{dt: t}, nil
	}
	return fromArrayValue(arr, i, t)
}

// fromArrayValue reads the valid row i of arr, whose type holds t.
func fromArrayValue(arr arrow.Array, i int, t dtype.DType) (Scalar, error) {
	var v any
	switch a := arr.(type) {
	case *array.Boolean:
		v = a.Value(i)
	case *array.Int8:
		v = int64(a.Value(i))
	case *array.Int16:
		v = int64(a.Value(i))
	case *array.Int32:
		v = int64(a.Value(i))
	case *array.Int64:
		v = a.Value(i)
	case *array.Uint8:
		v = uint64(a.Value(i))
	case *array.Uint16:
		v = uint64(a.Value(i))
	case *array.Uint32:
		v = uint64(a.Value(i))
	case *array.Uint64:
		v = a.Value(i)
	case *array.Float16:
		v = roundFloat(dtype.F16, f16ToFloat64(a.Value(i).Uint16()))
	case *array.Float32:
		v = roundFloat(dtype.F32, float64(a.Value(i)))
	case *array.Float64:
		v = roundFloat(dtype.F64, a.Value(i))
	case *array.Decimal128:
		n := a.Value(i)
		if !n.FitsInPrecision(int32(t.Precision())) {
			return Scalar{}, fmt.Errorf("decimal %s does not fit %s", n.ToString(int32(t.Scale())), t)
		}
		v = n
	case *array.String:
		s := a.Value(i)
		if !utf8.ValidString(s) {
			return Scalar{}, fmt.Errorf("utf8 array holds invalid UTF-8 %q", s)
		}
		v = strings.Clone(s)
	case *array.Binary:
		v = string(a.Value(i))
	case *array.Date32:
		v = int64(a.Value(i))
	case *array.Time32:
		v = int64(a.Value(i))
	case *array.Time64:
		v = int64(a.Value(i))
	case *array.Timestamp:
		v = int64(a.Value(i))
	case *array.MonthDayNanoInterval:
		v = a.Value(i)
	case *array.List:
		start, end := a.ValueOffsets(i)
		elems, err := fromArrayRange(a.ListValues(), int(start), int(end), t.Elem())
		if err != nil {
			return Scalar{}, err
		}
		v = elems
	case *array.FixedSizeList:
		start, end := a.ValueOffsets(i)
		elems, err := fromArrayRange(a.ListValues(), int(start), int(end), t.Elem())
		if err != nil {
			return Scalar{}, err
		}
		v = elems
	case *array.Struct:
		fs := t.Fields()
		vals := make([]Scalar, len(fs))
		for j, f := range fs {
			e, err := fromArraySlot(a.Field(j), i, f.Type)
			if err != nil {
				return Scalar{}, fmt.Errorf("field %s: %w", dtype.QuoteFieldName(f.Name), err)
			}
			vals[j] = e
		}
		v = vals
	default:
		return Scalar{}, typeMismatch("array", arr.DataType(), t)
	}
	if t.IsTemporal() {
		if err := checkTemporal(t, v.(int64)); err != nil {
			return Scalar{}, err
		}
	}
	return Scalar{dt: t, val: v}, nil
}

func fromArrayRange(child arrow.Array, start, end int, t dtype.DType) ([]Scalar, error) {
	if start < 0 || end > child.Len() || start > end {
		return nil, fmt.Errorf("list offsets %d..%d out of range for %d values", start, end, child.Len())
	}
	out := make([]Scalar, end-start)
	for j := start; j < end; j++ {
		e, err := fromArraySlot(child, j, t)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", j-start, err)
		}
		out[j-start] = e
	}
	return out, nil
}

// Append appends s to b, a builder of type dtype.ToArrow(s.DType()) (list
// element field names and nullability flags aside). A null of any dtype is
// appended as a null. Nothing is appended when the builder's type does not
// match.
func Append(b array.Builder, s Scalar) error {
	if b == nil {
		return errorf("nil builder")
	}
	if s.IsNull() {
		b.AppendNull()
		return nil
	}
	if !holds(b.Type(), s.dt) {
		return errorf("%w", typeMismatch("builder", b.Type(), s.dt))
	}
	appendValue(b, s)
	return nil
}

// appendValue appends the non-null s to b, whose type holds s's dtype.
func appendValue(b array.Builder, s Scalar) {
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		bb.Append(s.val.(bool))
	case *array.Int8Builder:
		bb.Append(int8(s.val.(int64)))
	case *array.Int16Builder:
		bb.Append(int16(s.val.(int64)))
	case *array.Int32Builder:
		bb.Append(int32(s.val.(int64)))
	case *array.Int64Builder:
		bb.Append(s.val.(int64))
	case *array.Uint8Builder:
		bb.Append(uint8(s.val.(uint64)))
	case *array.Uint16Builder:
		bb.Append(uint16(s.val.(uint64)))
	case *array.Uint32Builder:
		bb.Append(uint32(s.val.(uint64)))
	case *array.Uint64Builder:
		bb.Append(s.val.(uint64))
	case *array.Float16Builder:
		bb.Append(float16.FromBits(f16FromFloat64(s.val.(float64))))
	case *array.Float32Builder:
		bb.Append(float32(s.val.(float64)))
	case *array.Float64Builder:
		bb.Append(s.val.(float64))
	case *array.Decimal128Builder:
		bb.Append(s.val.(decimal128.Num))
	case *array.StringBuilder:
		bb.Append(s.val.(string))
	case *array.BinaryBuilder:
		bb.AppendString(s.val.(string))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(s.val.(int64)))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(s.val.(int64)))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(s.val.(int64)))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(s.val.(int64)))
	case *array.MonthDayNanoIntervalBuilder:
		bb.Append(s.val.(interval.Value))
	case *array.ListBuilder:
		bb.Append(true)
		appendElems(bb.ValueBuilder(), s.val.([]Scalar))
	case *array.FixedSizeListBuilder:
		bb.Append(true)
		appendElems(bb.ValueBuilder(), s.val.([]Scalar))
	case *array.StructBuilder:
		bb.Append(true)
		for j, e := range s.val.([]Scalar) {
			appendOne(bb.FieldBuilder(j), e)
		}
	default:
		b.AppendNull() // unreachable: holds accepted only the types above
	}
}

func appendElems(b array.Builder, elems []Scalar) {
	for _, e := range elems {
		appendOne(b, e)
	}
}

func appendOne(b array.Builder, e Scalar) {
	if e.IsNull() {
		b.AppendNull()
		return
	}
	appendValue(b, e)
}

// MakeArray is an array of n copies of s, of type dtype.ToArrow(s.DType()),
// allocated from mem. Fixed-width values and strings fill their buffers
// directly; nested values go through a builder. The caller releases it.
func MakeArray(mem memory.Allocator, s Scalar, n int) (arrow.Array, error) {
	if n < 0 {
		return nil, errorf("negative array length %d", n)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	at := dtype.ToArrow(s.dt)
	if s.IsNull() {
		return zeroed.NullArray(mem, at, n), nil
	}
	switch t := s.dt; {
	case t.IsBool():
		return makeBoolArray(mem, at, s.val.(bool), n), nil
	case t.IsUtf8() || t.IsBinary():
		return makeBinaryArray(mem, at, s.val.(string), n)
	case t.IsPrimitive() || t.IsDecimal() || t.IsTemporal() || t.IsInterval():
		return makeFixedArray(mem, at, fixedBytes(s), n), nil
	}
	b := array.NewBuilder(mem, at)
	defer b.Release()
	b.Reserve(n)
	for range n {
		appendValue(b, s)
	}
	return b.NewArray(), nil
}

// fixedBytes is the little-endian storage of a fixed-width value.
func fixedBytes(s Scalar) []byte {
	t := s.dt
	switch v := s.val.(type) {
	case interval.Value:
		out := binary.LittleEndian.AppendUint32(nil, uint32(v.Months))
		out = binary.LittleEndian.AppendUint32(out, uint32(v.Days))
		return binary.LittleEndian.AppendUint64(out, uint64(v.Nanoseconds))
	case decimal128.Num:
		out := make([]byte, 16)
		binary.LittleEndian.PutUint64(out, v.LowBits())
		binary.LittleEndian.PutUint64(out[8:], uint64(v.HighBits()))
		return out
	case float64:
		switch t.PType() {
		case dtype.F16:
			return binary.LittleEndian.AppendUint16(nil, f16FromFloat64(v))
		case dtype.F32:
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v)))
		}
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))
	case uint64:
		return littleEndian(v, t.PType().BitWidth()/8)
	case int64:
		return littleEndian(uint64(v), t.PType().BitWidth()/8)
	}
	return nil
}

func littleEndian(v uint64, width int) []byte {
	out := binary.LittleEndian.AppendUint64(nil, v)
	return out[:width]
}

// fillRepeat fills dst with copies of pattern, doubling the filled prefix.
func fillRepeat(dst, pattern []byte) {
	if len(dst) == 0 {
		return
	}
	filled := copy(dst, pattern)
	for filled < len(dst) {
		filled += copy(dst[filled:], dst[:filled])
	}
}

func makeFixedArray(mem memory.Allocator, at arrow.DataType, pattern []byte, n int) arrow.Array {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * len(pattern))
	fillRepeat(buf.Bytes(), pattern)
	return finishArray(at, n, buf)
}

func makeBoolArray(mem memory.Allocator, at arrow.DataType, v bool, n int) arrow.Array {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize((n + 7) / 8)
	bytes := buf.Bytes()
	if v {
		for i := range bytes {
			bytes[i] = 0xff
		}
		if r := n % 8; r != 0 {
			bytes[len(bytes)-1] = byte(1)<<r - 1
		}
	} else {
		clear(bytes)
	}
	return finishArray(at, n, buf)
}

func makeBinaryArray(mem memory.Allocator, at arrow.DataType, v string, n int) (arrow.Array, error) {
	if int64(n)*int64(len(v)) > math.MaxInt32 {
		return nil, errorf("%d copies of a %d-byte value exceed the 2 GiB of a 32-bit-offset array", n, len(v))
	}
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((n + 1) * 4)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	for i := range offs {
		offs[i] = int32(i * len(v))
	}
	values := memory.NewResizableBuffer(mem)
	values.Resize(n * len(v))
	fillRepeat(values.Bytes(), []byte(v))
	data := array.NewData(at, n, []*memory.Buffer{nil, offsets, values}, nil, 0, 0)
	offsets.Release()
	values.Release()
	arr := array.MakeFromData(data)
	data.Release()
	return arr, nil
}

// finishArray wraps a values buffer in an array without nulls, handing
// over the buffer's reference.
func finishArray(at arrow.DataType, n int, values *memory.Buffer) arrow.Array {
	data := array.NewData(at, n, []*memory.Buffer{nil, values}, nil, 0, 0)
	values.Release()
	arr := array.MakeFromData(data)
	data.Release()
	return arr
}

// ToArrowScalar is s as a scalar of the Arrow scalar package, of type
// dtype.ToArrow(s.DType()). Lists hold their elements in an array from the
// Go allocator.
func ToArrowScalar(s Scalar) (arrowscalar.Scalar, error) {
	at := dtype.ToArrow(s.dt)
	if s.IsNull() {
		return arrowscalar.MakeNullScalar(at), nil
	}
	t := s.dt
	switch v := s.val.(type) {
	case bool:
		return arrowscalar.NewBooleanScalar(v), nil
	case int64:
		switch {
		case t.IsTemporal():
			switch t.ExtID() {
			case dtype.ExtDate:
				return arrowscalar.NewDate32Scalar(arrow.Date32(v)), nil
			case dtype.ExtTime:
				if t.Unit() <= dtype.Milli {
					return arrowscalar.NewTime32Scalar(arrow.Time32(v), at), nil
				}
				return arrowscalar.NewTime64Scalar(arrow.Time64(v), at), nil
			}
			return arrowscalar.NewTimestampScalar(arrow.Timestamp(v), at), nil
		case t.PType() == dtype.I8:
			return arrowscalar.NewInt8Scalar(int8(v)), nil
		case t.PType() == dtype.I16:
			return arrowscalar.NewInt16Scalar(int16(v)), nil
		case t.PType() == dtype.I32:
			return arrowscalar.NewInt32Scalar(int32(v)), nil
		}
		return arrowscalar.NewInt64Scalar(v), nil
	case uint64:
		switch t.PType() {
		case dtype.U8:
			return arrowscalar.NewUint8Scalar(uint8(v)), nil
		case dtype.U16:
			return arrowscalar.NewUint16Scalar(uint16(v)), nil
		case dtype.U32:
			return arrowscalar.NewUint32Scalar(uint32(v)), nil
		}
		return arrowscalar.NewUint64Scalar(v), nil
	case float64:
		switch t.PType() {
		case dtype.F16:
			return arrowscalar.NewFloat16Scalar(float16.FromBits(f16FromFloat64(v))), nil
		case dtype.F32:
			return arrowscalar.NewFloat32Scalar(float32(v)), nil
		}
		return arrowscalar.NewFloat64Scalar(v), nil
	case decimal128.Num:
		return arrowscalar.NewDecimal128Scalar(v, at), nil
	case interval.Value:
		return arrowscalar.NewMonthDayNanoIntervalScalar(v), nil
	case string:
		if t.IsUtf8() {
			return arrowscalar.NewStringScalar(v), nil
		}
		buf := memory.NewBufferBytes([]byte(v))
		defer buf.Release()
		return arrowscalar.NewBinaryScalar(buf, at), nil
	case []Scalar:
		if t.IsStruct() {
			vals := make([]arrowscalar.Scalar, len(v))
			for i, e := range v {
				sc, err := ToArrowScalar(e)
				if err != nil {
					return nil, err
				}
				vals[i] = sc
			}
			return arrowscalar.NewStructScalar(vals, at), nil
		}
		b := array.NewBuilder(memory.DefaultAllocator, dtype.ToArrow(t.Elem()))
		defer b.Release()
		appendElems(b, v)
		elems := b.NewArray()
		if t.Kind() == dtype.KindFixedSizeList {
			defer elems.Release()
			return arrowscalar.NewFixedSizeListScalarWithType(elems, at), nil
		}
		sc := arrowscalar.NewListScalar(elems)
		sc.Type = at
		return sc, nil
	}
	return nil, errorf("no Arrow scalar for %s", s.brief())
}

// FromArrowScalar is the Arrow scalar sc as a scalar of dtype t; sc's type
// must be dtype.ToArrow(t) (list element field names and nullability flags
// aside). An invalid sc gives Null(t).
func FromArrowScalar(sc arrowscalar.Scalar, t dtype.DType) (Scalar, error) {
	if sc == nil {
		return Scalar{}, errorf("nil Arrow scalar")
	}
	if !holds(sc.DataType(), t) {
		return Scalar{}, errorf("%w", typeMismatch("Arrow scalar", sc.DataType(), t))
	}
	if !sc.IsValid() {
		return Null(t), nil
	}
	s, err := fromArrowScalarValue(sc, t)
	if err != nil {
		return Scalar{}, errorf("%w", err)
	}
	return s, nil
}

func fromArrowScalarValue(sc arrowscalar.Scalar, t dtype.DType) (Scalar, error) {
	var v any
	switch x := sc.(type) {
	case *arrowscalar.Boolean:
		v = x.Value
	case *arrowscalar.Int8:
		v = int64(x.Value)
	case *arrowscalar.Int16:
		v = int64(x.Value)
	case *arrowscalar.Int32:
		v = int64(x.Value)
	case *arrowscalar.Int64:
		v = x.Value
	case *arrowscalar.Uint8:
		v = uint64(x.Value)
	case *arrowscalar.Uint16:
		v = uint64(x.Value)
	case *arrowscalar.Uint32:
		v = uint64(x.Value)
	case *arrowscalar.Uint64:
		v = x.Value
	case *arrowscalar.Float16:
		v = f16ToFloat64(x.Value.Uint16())
	case *arrowscalar.Float32:
		v = float64(x.Value)
	case *arrowscalar.Float64:
		v = x.Value
	case *arrowscalar.Date32:
		v = int64(x.Value)
	case *arrowscalar.Time32:
		v = int64(x.Value)
	case *arrowscalar.Time64:
		v = int64(x.Value)
	case *arrowscalar.Timestamp:
		v = int64(x.Value)
	case *arrowscalar.Decimal128:
		v = x.Value
	case *arrowscalar.MonthDayNanoInterval:
		v = x.Value
	case *arrowscalar.String:
		v = bufferString(x.Value)
	case *arrowscalar.Binary:
		v = bufferString(x.Value)
	case *arrowscalar.List:
		return fromArrowList(x.Value, t)
	case *arrowscalar.FixedSizeList:
		return fromArrowList(x.Value, t)
	case *arrowscalar.Struct:
		fs := t.Fields()
		if len(x.Value) != len(fs) {
			return Scalar{}, fmt.Errorf("struct scalar has %d values for %d fields", len(x.Value), len(fs))
		}
		vals := make([]Scalar, len(fs))
		for j, f := range fs {
			e := x.Value[j]
			if e == nil || !e.IsValid() {
				if !f.Type.Nullable() {
					return Scalar{}, fmt.Errorf("field %s: null value in non-nullable %s", dtype.QuoteFieldName(f.Name), f.Type)
				}
				vals[j] = Scalar{dt: f.Type}
				continue
			}
			if !holds(e.DataType(), f.Type) {
				return Scalar{}, typeMismatch("field "+dtype.QuoteFieldName(f.Name), e.DataType(), f.Type)
			}
			c, err := fromArrowScalarValue(e, f.Type)
			if err != nil {
				return Scalar{}, fmt.Errorf("field %s: %w", dtype.QuoteFieldName(f.Name), err)
			}
			vals[j] = c
		}
		v = vals
	default:
		return Scalar{}, typeMismatch("Arrow scalar", sc.DataType(), t)
	}
	val, err := conformValue(t, v)
	if err != nil {
		return Scalar{}, err
	}
	return Scalar{dt: t, val: val}, nil
}

// bufferString copies the bytes of a buffer (nil is empty).
func bufferString(b *memory.Buffer) string {
	if b == nil {
		return ""
	}
	return string(b.Bytes())
}

func fromArrowList(arr arrow.Array, t dtype.DType) (Scalar, error) {
	if arr == nil {
		return Scalar{}, fmt.Errorf("list scalar without values")
	}
	if !holds(arr.DataType(), t.Elem()) {
		return Scalar{}, typeMismatch("list scalar values", arr.DataType(), t.Elem())
	}
	elems, err := fromArrayRange(arr, 0, arr.Len(), t.Elem())
	if err != nil {
		return Scalar{}, err
	}
	if t.Kind() == dtype.KindFixedSizeList && len(elems) != t.Size() {
		return Scalar{}, fmt.Errorf("fixed-size list scalar has %d values, want %d", len(elems), t.Size())
	}
	return Scalar{dt: t, val: elems}, nil
}
